"""A game the user sets up in a turn (role-play, make-believe, "imagine I'm ...") is no fact of the user's: from where
it is set up, what the user says of themselves is a role (tester j4, finding 18). A persona asked of the assistant
("Act as my nutritionist") is no game: what the user then says of themselves is read. The rule extractor, and real
capture into an embedded Chroma store.

Rows of one message -> the facts kept of it are in the case book tests/cases/role_play.toml, run by
test_capture_cases.py."""

from __future__ import annotations

import pytest

from memori_core import RecallEngine, RuleBasedFactExtractor
from memori_core.extraction import DROP_STORY
from memori_core.extraction.played import split_played
from tests._capture import facts_of, texts_after




@pytest.mark.parametrize(
    "said",
    [
        "Let's play a game: I am Captain Hook and you're Peter Pan",
        "Let's play a game: I am Captain Hook and I live on a ship.",
        "Pretend you are a pirate. I am Captain Hook and I live on a ship.",
        "pretend I'm a pirate. I live on a ship.",
        "imagine I'm a millionaire. I live in a mansion.",
        "ok let's pretend we're married. We live in Paris.",
        "You be the waiter and I'll be the customer. I'm allergic to nuts.",
        "I'll be the patient and you play the doctor. I have diabetes.",
        "Roleplay: I'm a knight and I live in a castle.",
        "Can we role-play? I'm a detective in London.",
        "Hey, let's do a quick role-play. I'm a new hire at Google.",
        "Play a game with me. I'm the queen of France.",
    ],
)
def test_what_the_user_says_of_themselves_in_a_game_they_set_up_is_not_stored(said: str) -> None:
    assert facts_of(said) == []
    assert any(v.reason == DROP_STORY for v in RuleBasedFactExtractor().explain(said))


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
