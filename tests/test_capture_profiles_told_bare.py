"""A profile typed without a verb (issue 21, cap39): each item kept as the user's fact, through the shipped rules and
capture into a real in-memory Chroma store; a person of the user's work and days moving ends nothing of the user's.
Rows of the rules are in tests/rules/profiles_told_bare.toml."""

from __future__ import annotations

import pytest

from _capture import SAID_AT, facts_of, told


@pytest.mark.parametrize(("said", "kept"), [
    ("Born and raised in Leeds, Alabama; six years in the Navy; these days I teach chemistry in Mobile. Any good "
     "books on the Gilded Age?",
     ["User grew up in Leeds, Alabama.", "User served six years in the Navy.", "User teaches chemistry in Mobile."]),
    ("Retired firefighter, live on a narrowboat outside Bath. Recipes for one pot?",
     ["User is a retired firefighter.", "User lives on a narrowboat outside Bath."]),
    ("Single, no kids, PAYE. What's my take-home on 40k?", ["User is single.", "User has no kids."]),
    ("Role: staff nurse with the NHS, based in Truro.", ["User is a staff nurse with the NHS.", "User is based in Truro."]),
    ("Myself Anjali Rao, from Mysore, working as a data analyst in Bengaluru.",
     ["User's name is Anjali Rao.", "User is from Mysore.", "User is working as a data analyst in Bengaluru."]),
    ("Dr. Tomasz Wilk, consultant radiographer, Leeds General. Short answers please.",
     ["User's name is Tomasz Wilk.", "User is a consultant radiographer."]),
])
def test_a_profile_typed_without_a_verb_keeps_each_item_as_the_users_fact(said: str, kept: list[str]) -> None:
    assert facts_of(said, SAID_AT) == kept


@pytest.mark.parametrize("said", [
    "Doctor, lawyer, engineer, my parents wanted all three. Which pays best?",
    "Dr. Anita Patel, my GP, says the rash is nothing.",
    "Myself, I prefer tea, honestly.",
    "Nurse, teacher, or cop: who earns most?",
])
def test_jobs_named_a_doctor_named_or_myself_as_emphasis_keep_no_profile(said: str) -> None:
    assert not [f for f in facts_of(said, SAID_AT) if "name is" in f or "User is a" in f]


def test_a_managers_move_leaves_the_users_home_and_the_users_move_ends_it() -> None:
    valid, ended = told("I live in Dublin.", "my manager moved to Galway last week, so meetings are on Teams now")
    assert "User lives in Dublin." in valid and ended == []
    valid, ended = told("I live in Dublin.", "my landlord moved to Spain.", "I moved to Galway.")
    assert ended == ["User lives in Dublin."]
    assert "User lives in Galway." in valid


def test_a_flat_shared_with_roommates_is_kept_as_the_home() -> None:
    valid, _ = told("I live in a flat in the Plateau with two roommates, any tips for splitting bills?")
    assert valid == ["User lives in a flat in the Plateau with two roommates."]
