"""A game the user sets up in a turn (role-play, make-believe, "imagine I'm ...") is no fact of the user's: from where
it is set up, what the user says of themselves is a role (tester j4, finding 18). A persona asked of the assistant
("Act as my nutritionist") is no game: what the user then says of themselves is read. The rule extractor, and real
capture into an embedded Chroma store.

Rows of one message -> the facts kept of it (or the reason none is) are in the case book tests/cases/role_play.toml,
run by test_capture_cases.py."""

from __future__ import annotations

from _capture import texts_after
from memori_core import RecallEngine
from memori_core.extraction.played import split_played


def test_split_played_keeps_the_sentences_before_the_game() -> None:
    own, played = split_played(["I'm vegan.", "Pretend you are a pirate.", "I am Captain Hook."])
    assert own == ["I'm vegan."]
    assert played == ["Pretend you are a pirate.", "I am Captain Hook."]


def test_a_role_played_turn_stores_nothing_and_changes_no_stored_fact(engine: RecallEngine) -> None:
    texts = texts_after(
        engine,
        "I live in Leeds.",
        "Pretend you are a pirate. I am Captain Hook and I live on a ship.",
        "Let's play a game: I moved to Paris and I'm vegan.",
    )
    assert texts == ["User lives in Leeds."]
