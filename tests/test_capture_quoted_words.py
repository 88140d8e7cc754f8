"""Someone else's words quoted in a user turn are not the user's facts: a line quoted with ">" (markdown, an e-mail
reply), first-person words in quotation marks, the lines after "My sister texted me:". Stored, "User is pregnant."
would be core and shown on every later turn (tester j4, finding 20). The rule extractor, and real capture into an
embedded Chroma store.

Rows of one message -> the facts kept of it (or the reason none is) are in the case book
tests/cases/quoted_words.toml, run by test_capture_cases.py."""

from __future__ import annotations

from _capture import capture_turns, core_texts, valid_texts
from memori_core import RecallEngine
from memori_core.extraction.pasted import split_quoted


def test_a_quoted_title_is_not_someones_words() -> None:
    text, quoted = split_quoted('My favourite song is "I Will Survive". I love "Me Before You".')
    assert quoted == []
    assert text == 'My favourite song is "I Will Survive". I love "Me Before You".'


def test_split_quoted_leaves_out_the_whole_sentence_holding_the_quote() -> None:
    text, quoted = split_quoted("I'm so happy! My sister texted \"I'm pregnant!\" today. I live in Leeds.")
    assert quoted == ["My sister texted \"I'm pregnant!\" today."]
    assert text == "I'm so happy!\nI live in Leeds."


def test_quoted_health_words_are_never_stored_as_the_users_core_facts(engine: RecallEngine) -> None:
    capture_turns(
        engine,
        "> I'm pregnant and live in Rome\nWhat does this quote from my sister mean for our trip?",
        "Bob wrote:\n> I'm allergic to cats and I take insulin.\nHow should I answer him?",
        "\"I'm pregnant\" - that's what my sister texted me. What should I get her?",
        "I'm allergic to peanuts. My friend wrote \"I'm diabetic\" in the group chat.",
    )
    assert valid_texts(engine) == ["User is allergic to peanuts."]
    assert core_texts(engine) == ["User is allergic to peanuts."]
