"""Facts told with no first-person verb (issue 21, cap39), through the shipped rules and capture into a real
in-memory Chroma store: a profile typed as a list of items, the user's children told as "the kids", a home told
as "here in <place>", a move told as the keys got, a car picked up; a person of the user's work and days moving ends
nothing of the user's. Rows of the rules are in tests/rules/profiles_told_bare.toml and
tests/rules/told_without_a_verb.toml; the messages and the facts kept of each, in the case book
tests/cases/told_without_a_verb.toml."""

from __future__ import annotations

import pytest

from _capture import SAID_AT, facts_of, told


@pytest.mark.parametrize("said", [
    "Doctor, lawyer, engineer, my parents wanted all three. Which pays best?",
    "Dr. Anita Patel, my GP, says the rash is nothing.",
    "Myself, I prefer tea, honestly.",
    "Nurse, teacher, or cop: who earns most?",
    "I teach Year 4 and the kids were wild today.",
    "The dog next door barks all night, any tips?",
    "the dog chewed my charger again",
    "The kids are with me this weekend, any ideas for rain?",
    "Are the kids ok with a dog in the house?",
    "We're on holiday, the food here in Crete is amazing.",
    "I'm from Oslo so the sun here in Mallorca is brutal.",
    "Got here in October for a postdoc.",
])
def test_jobs_named_someone_elses_household_a_question_a_stay_or_a_month_keep_no_such_fact(said: str) -> None:
    assert not [f for f in facts_of(said, SAID_AT) if f.startswith(("User has", "User lives", "User is a", "User's name"))]


def test_a_managers_move_leaves_the_users_home_and_the_users_move_ends_it() -> None:
    valid, ended = told("I live in Dublin.", "my manager moved to Galway last week, so meetings are on Teams now")
    assert "User lives in Dublin." in valid and ended == []
    valid, ended = told("I live in Dublin.", "my landlord moved to Spain.", "I moved to Galway.")
    assert ended == ["User lives in Dublin."]
    assert "User lives in Galway." in valid


def test_a_flat_shared_with_roommates_is_kept_as_the_home() -> None:
    valid, _ = told("I live in a flat in the Plateau with two roommates, any tips for splitting bills?")
    assert valid == ["User lives in a flat in the Plateau with two roommates."]


def test_the_keys_got_to_a_home_named_end_the_old_home_and_someone_elses_keys_do_not() -> None:
    valid, ended = told("I live in Dundee.", "my sister got the keys to a flat in Leeds.",
                        "got the keys to a wee place in Inverness on Friday, the job came with me")
    assert ended == ["User lives in Dundee."]
    assert "User lives in Inverness." in valid


def test_a_car_picked_up_without_its_i_ends_the_car_sold() -> None:
    valid, ended = told("I drive a 2012 Honda Civic.", "sold the Civic to my cousin, picked up a used Toyota Corolla.")
    assert "User drives a 2012 Honda Civic." in ended
    assert any("Toyota Corolla" in fact for fact in valid)
