"""British and Irish "I've a ..." (have as the main verb) is read as "I have a ...", so a plan said that way gets
its day and expiry; not knowing something of the moment ("I've no idea what to cook") is no fact, an ability is."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from memori_core import RuleBasedFactExtractor
from memori_core.extraction import Message

MONDAY = datetime(2026, 11, 30, 19, 0, tzinfo=timezone.utc)


def kept(text: str) -> list[str]:
    return [f.text for f in RuleBasedFactExtractor().extract([("user", text)])]


@pytest.mark.parametrize("said", [
    "I've a dentist appointment on Thursday, anything I should tell them?",
    "I've a dentist appointment on Thursday.",
    "I\u2019ve a dentist appointment on Thursday.",
])
def test_a_plan_said_with_ive_a_gets_its_day_and_an_expiry(said: str) -> None:
    [fact] = RuleBasedFactExtractor().extract([Message("user", said, MONDAY)])
    assert fact.text == "User has a dentist appointment on Thursday 2026-12-03."
    assert fact.expires_at is not None and fact.expires_at.date().isoformat() == "2026-12-04"


@pytest.mark.parametrize("said, facts", [
    ("We've two kids, Sam and Ella.", ["User has two kids, Sam and Ella."]),
    ("I've a bad back.", ["User has a bad back."]),
    ("I've been to Rome.", ["User has been to Rome."]),  # a perfect, not have as the main verb
    ("I've got a cat.", ["User has a cat."]),  # cap41: "has got" said plainly
])
def test_ive_as_the_main_verb_reads_as_i_have_and_a_perfect_stays_as_it_is(said: str, facts: list[str]) -> None:
    assert kept(said) == facts


@pytest.mark.parametrize("said", [
    "I've no idea what to cook.", "I'm not sure which laptop to buy.", "I don't know where to start.",
    "I have absolutely no clue what to get her.",
])
def test_not_knowing_something_of_the_moment_is_no_fact(said: str) -> None:
    assert kept(said) == []


@pytest.mark.parametrize("said, facts", [
    ("I don't know how to swim.", ["User doesn't know how to swim."]),  # an ability
    ("I know where the best tapas are.", ["User knows where the best tapas are."]),
])
def test_an_ability_or_what_the_user_knows_is_kept(said: str, facts: list[str]) -> None:
    assert kept(said) == facts
