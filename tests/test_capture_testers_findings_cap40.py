"""Testers' findings and dev14's shapes (issue 21, cap40), through the shipped rules and capture into a real in-memory
Chroma store: a habit told by its day ("I fast on Fridays"), a named milestone of someone no stored fact places, a
round of news told without its "I", a manager's move kept without its "just", a medicine the user calls theirs inside
a question, a name set before who the person is; a home told as "I stay at" or "we've been in X since", a district in
its city, a medicine changed by the doctor in a non-native writer's words. Sentences written apart from the sets."""

from __future__ import annotations

import pytest

from _capture import SAID_AT, facts_of, told


def test_a_habit_told_by_its_day_is_kept() -> None:
    assert facts_of("I fast on Fridays", SAID_AT) == ["User fasts on Fridays."]
    assert facts_of("I pray five times a day.", SAID_AT) == ["User prays five times a day."]


def test_a_named_milestone_of_no_one_stored_is_kept_as_said_and_read_as_the_childs_once_known() -> None:
    valid, ended = told("Sofia made the volleyball team!")
    assert valid == ["Sofia made the volleyball team."] and ended == []
    valid, ended = told("I have two kids, Sofia and Leo.", "Sofia made the volleyball team!")
    assert "User's child Sofia made the volleyball team." in valid
    assert facts_of("Did Sofia make the team?", SAID_AT) == []
    assert facts_of("Sofia made a cake", SAID_AT) == []


@pytest.mark.parametrize("said", [
    "Quick catch-up: got a puppy, started pilates, and my sister moved to Cork",
    "quick catch-up: new puppy, started pilates, sister moved to Cork",
    "Quick catch up - we got a puppy, I started pilates, my sister moved to Cork.",
])
def test_a_round_of_news_keeps_each_piece(said: str) -> None:
    valid, _ = told(said)
    assert any("puppy" in fact for fact in valid), valid
    assert "User started pilates." in valid and "User's sister lives in Cork." in valid


def test_a_list_after_a_news_lead_that_is_no_news_keeps_nothing() -> None:
    assert facts_of("News: milk, eggs and bread.", SAID_AT) == []


def test_a_managers_move_is_stored_without_its_just_and_leaves_the_users_home() -> None:
    valid, ended = told("I live in Dublin.", "my manager just moved to Galway")
    assert valid == ["User lives in Dublin.", "User's manager lives in Galway."] and ended == []


@pytest.mark.parametrize(("said", "kept"), [
    ("Can I take ibuprofen with my warfarin?", ["User takes warfarin."]),
    ("does grapefruit clash with my sertraline?", ["User takes sertraline."]),
])
def test_a_medicine_the_user_calls_theirs_inside_a_question_is_kept(said: str, kept: list[str]) -> None:
    assert facts_of(said, SAID_AT) == kept


@pytest.mark.parametrize("said", [
    "Can I stop my warfarin before surgery?",
    "Can my mum take ibuprofen with her warfarin?",
    "Can I take my tablets with food?",
    "Is warfarin safe with ibuprofen?",
    "Is the pad thai safe with my allergy?",
    "Can I eat this with my diabetes?",
])
def test_a_medicine_stopped_someone_elses_or_unnamed_in_a_question_keeps_no_fact(said: str) -> None:
    assert facts_of(said, SAID_AT) == []


@pytest.mark.parametrize(("said", "kept"), [
    ("Sofia - my daughter - just got into Trinity.", ["User's daughter Sofia recently got into Trinity."]),
    ("Sofia (my daughter) is 15.", ["User's daughter Sofia is 15."]),
    ("Sofia, our youngest, starts school in September.",
     ["User's youngest child Sofia starts school in September."]),
])
def test_a_name_set_before_who_the_person_is_names_the_users_person(said: str, kept: list[str]) -> None:
    assert facts_of(said, SAID_AT) == kept


def test_a_bracket_that_holds_more_than_who_the_person_is_is_not_read_as_a_name_and_role() -> None:
    assert facts_of("Ada (my daughter, the birthday girl) also wants a dino costume, any easy DIY ones?", SAID_AT) == []


@pytest.mark.parametrize(("said", "kept"), [
    ("I'm a tiler in Kumasi and I stay at Bantama.", ["User is a tiler in Kumasi.", "User lives in Bantama."]),
    ("we're in Saint-Roch in Québec City.", ["User lives in Saint-Roch in Québec City."]),
])
def test_a_home_told_as_a_stay_or_a_district_in_its_city_is_the_home(said: str, kept: list[str]) -> None:
    assert facts_of(said, SAID_AT) == kept


def test_a_home_since_a_day_ends_the_home_stored_and_a_stay_since_monday_is_no_home() -> None:
    valid, ended = told("I live in Puebla.", "we've been in Tlaxcala since the 4th.")
    assert valid == ["User lives in Tlaxcala."] and ended == ["User lives in Puebla."]
    assert not [f for f in facts_of("I've been in London since Monday.", SAID_AT) if f.startswith("User lives")]
    assert not [f for f in facts_of("I stay at Mum's on weekends.", SAID_AT) if f.startswith("User lives")]


def test_a_medicine_changed_by_the_doctor_in_a_bare_verb_ends_the_one_stored() -> None:
    valid, ended = told("I take ramipril 5mg for my blood pressure.",
                        "At the review doctor change me to losartan because of the cough.")
    assert valid == ["User takes losartan."] and ended == ["User takes ramipril 5mg for their blood pressure."]
