"""A letter or message pasted whole into a user message is its sender's words, not the user's
(:func:`memori_core.extraction.pasted.split_letters`). Rows of one message -> the facts kept of it, and of messages
told in order -> the facts valid and ended afterwards, are in the case book tests/cases/pasted_letters.toml, run by
tests/test_capture_cases.py; here, what the split keeps apart and the core facts a pasted letter leaves."""

from __future__ import annotations

from _capture import capture_turns, core_texts
from _helpers import ungated_engine
from memori_core.extraction.pasted import split_letters

BEEKEEPERS = (
    "This came from the local beekeepers, what do you make of it?\n\n---\nSubject: Welcome!\n\nHello Margaret,\n\n"
    "I'm vegan myself so I'll be bringing a bean chilli for the shared supper.\n\nBest wishes,\nPauline (Secretary)\n"
    "---\n\nShould I go?"
)


def test_a_fenced_letter_is_cut_out_with_the_line_announcing_it_and_the_users_question_after_it_stays() -> None:
    own, pasted = split_letters(BEEKEEPERS)
    assert own == "Should I go?"
    assert len(pasted) == 1 and pasted[0].startswith("This came from") and "Pauline (Secretary)" in pasted[0]
    assert "---" not in pasted[0]


def test_a_letter_ends_at_its_senders_name_under_the_sign_off() -> None:
    own, pasted = split_letters("Hi all,\nI'm vegan.\nBest wishes,\nPauline\nI live in York.")
    assert own == "I live in York."
    assert pasted == ["Hi all,\nI'm vegan.\nBest wishes,\nPauline"]


def test_a_greeting_by_name_without_a_signed_sign_off_or_a_fence_is_the_users_own_message() -> None:
    assert split_letters("Hi Claude,\nI'm vegan.\nThanks!") == ("Hi Claude,\nI'm vegan.\nThanks!", [])


def test_a_message_with_no_letter_in_it_comes_back_unchanged() -> None:
    text = "I moved to Leeds.\n\nI'm vegan."
    assert split_letters(text) == (text, [])


def test_a_senders_diet_in_a_pasted_letter_is_no_core_fact_of_the_users() -> None:
    engine = ungated_engine()
    capture_turns(engine, "I have coeliac disease.", BEEKEEPERS)
    assert core_texts(engine) == ["User has coeliac disease."]
