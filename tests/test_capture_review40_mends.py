"""Capture rules of issue 21 mended after review rev40a (helper capmend40), each checked through the rule-based
capture into a real engine (:func:`_capture.told`) or on one message (:func:`_capture.facts_of`).

1. "I'm not coming." was read as a correction ("I'm", not "coming") and rewrote the stored fact it named.
2. Any kind of home stood beside a move; only a home that travels with the user does.
3. A doing typed without its subject was handed to anyone told of in the clause before.
4. A shift wished for, feared, past or planned counted as the shift held now ("I'm on days now." dropped).
5. "for a week" got an end from today when it was a time so far, rough, of a season or to come; and lost it before
   "only", "again", "at least".
6. A ride on rails gave no home only when its end was capitalised: "to oxford", "to central Oxford", the MRT, the
   DART gave the start as the user's home.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from _capture import SAID_AT, facts_of, told
from memori_core.extraction.shifts import users_shift_now
from memori_core.extraction.stays import held_until


# -- 1. a subject before "not" corrects nothing ------------------------------------------------------------------

@pytest.mark.parametrize(("before", "said"), [
    ("I'm coming to the reunion on Saturday.", "I'm not coming."),
    ("I'm coming to the reunion on Saturday.", "sorry, I'm not coming"),
    ("I'm coming home for Christmas.", "I'm not coming."),
])
def test_a_clause_denied_after_its_subject_rewrites_no_stored_fact(before: str, said: str) -> None:
    valid, _ = told(before, said, at=SAID_AT)
    assert not [text for text in valid if "I'm" in text]


def test_a_correction_said_plainly_still_rewrites_the_stored_fact() -> None:
    valid, ended = told("I live in Lisbon.", "I meant Porto, not Lisbon.", at=SAID_AT)
    assert valid == ["User lives in Porto."]
    assert ended == ["User lives in Lisbon."]


# -- 2. only a home that travels stands beside a move -------------------------------------------------------------

@pytest.mark.parametrize(("home", "move"), [
    ("I rent a flat.", "I moved to Leeds."),
    ("I live in a studio flat.", "We relocated to Berlin last week."),
    ("I live in a dorm.", "I graduated and moved to Manchester."),
])
def test_a_move_ends_a_home_that_stays_where_it_is(home: str, move: str) -> None:
    valid, ended = told(home, move, at=SAID_AT)
    assert len(ended) == 1 and ended[0] not in valid


def test_a_move_leaves_a_home_that_travels_until_it_is_sold() -> None:
    valid, ended = told("I live on a narrowboat.", "I moved to Bath.", at=SAID_AT)
    assert "User lives on a narrowboat." in valid and ended == []
    valid, ended = told("I live on a narrowboat.", "I sold the boat and moved to Bath.", at=SAID_AT)
    assert ended == ["User lives on a narrowboat."]
    assert "User lives in Bath." in valid


# -- 3. a doing typed without its subject is handed over only after that person's own work or state --------------

@pytest.mark.parametrize(("said", "kept"), [
    ("My brother is sick. Caring for him every day now.", []),
    ("My dad had a stroke. Caring for him full time now.", ["User's dad had a stroke."]),
    ("My daughter was born in May. Working part time now.",
     ["User's daughter was born in May.", "User is working part time."]),
    ("My boss quit. Running the whole team now.", ["User's boss quit.", "User is running the whole team."]),
    ("My sister moved in. Working from my home office every day now.",
     ["User's sister moved in.", "User is working from their home office every day."]),
    # rev40e finding 4: the user's own doing is kept after a clause of someone's that tells no work or state of theirs
    ("My husband got sick. Working two jobs now.", ["User's husband got sick.", "User is working two jobs."]),
    ("My mum passed away last year. Living alone now.",
     ["User's mum passed away in 2025.", "User is living alone."]),
    ("She's a nurse. Working nights now.", []),
])
def test_a_doing_after_someone_elses_clause_of_no_work_or_pointing_back_is_not_theirs(
        said: str, kept: list[str]) -> None:
    assert facts_of(said, at=SAID_AT) == kept


@pytest.mark.parametrize(("said", "theirs"), [
    ("My husband is a nurse. Working nights every week now.", "User's husband is working nights every week."),
    ("My parents are retired now. Travelling around Europe every summer now.",
     "User's parents are travelling around Europe every summer."),
])
def test_a_doing_after_someone_elses_work_or_state_is_theirs_in_their_number(said: str, theirs: str) -> None:
    assert theirs in facts_of(said, at=SAID_AT)


# -- 4. only a shift held now says the shift told again ------------------------------------------------------------

@pytest.mark.parametrize("before", [
    "I want to work day shifts at the hospital.",
    "I'm hoping to get onto day shifts.",
])
def test_a_shift_wished_for_does_not_swallow_the_shift_held_now(before: str) -> None:
    valid, _ = told(before, "I'm on days now.", at=SAID_AT)
    assert "User is on days now." in valid


@pytest.mark.parametrize("fact", [
    "User wants to work day shifts at the hospital.",
    "User hates working nights.",
    "User worked night shifts in 2025.",
    "User will be on nights from September.",
])
def test_a_shift_wished_feared_past_or_planned_is_no_shift_held_now(fact: str) -> None:
    assert users_shift_now(fact) is None


def test_a_shift_held_now_still_swallows_the_same_shift_told_again() -> None:
    valid, _ = told("I work day shifts at the hospital.", "I'm on days now.", at=SAID_AT)
    assert valid == ["User works day shifts at the hospital."]


# -- 5. "for a week" ends a week from today only when nothing after it says otherwise ------------------------------

_NOW = datetime(2026, 8, 7, 10, tzinfo=timezone.utc)  # a Friday


@pytest.mark.parametrize("fact", [
    "User is on antibiotics for a week so far.",
    "User is staying with their mum for a week over Christmas.",
    "User is staying with their mum for a week this summer.",
    "User is staying with their mum for a week when the baby comes.",
    "User is staying with their mum for a week twice a year.",
    "User is off sugar for a week or two.",
])
def test_a_span_so_far_rough_seasonal_or_to_come_gets_no_end_from_today(fact: str) -> None:
    assert held_until(fact, _NOW) is None


@pytest.mark.parametrize("fact", [
    "User is on antibiotics for a week only.",
    "User is on antibiotics for a week again.",
    "User is staying with their mum for a week at least.",
])
def test_a_span_before_a_word_that_only_starts_like_a_stop_word_still_ends(fact: str) -> None:
    plan = held_until(fact, _NOW)
    assert plan is not None and "until Friday 2026-08-14" in plan.text


# -- 6. a ride on rails between two places gives no home, whatever the case of its end -------------------------------

@pytest.mark.parametrize("said", [
    "I take the train from Paddington to oxford every day",
    "i take the train from Paddington to central Oxford every day",
    "I take the metro from Gràcia to downtown Barcelona every day",
    "I take the train from Woking to 'Waterloo' every day",
    "I take the trains from Woking to Waterloo every day",
    "I take the MRT from Jurong to Raffles Place every day",
    "I take the DART from Bray to Pearse every day",
])
def test_a_rail_ride_between_two_places_gives_no_home(said: str) -> None:
    assert not [fact for fact in facts_of(said, at=SAID_AT) if fact.startswith("User lives in")]


@pytest.mark.parametrize(("said", "home"), [
    ("I take the train from Woking to work every day", "User lives in Woking."),
    ("I take the train from Pasing to town every morning", "User lives in Pasing."),
])
def test_a_rail_ride_from_a_place_to_no_place_of_its_own_still_gives_the_home(said: str, home: str) -> None:
    assert home in facts_of(said, at=SAID_AT)


# -- rev40e: the mends' own misfires ----------------------------------------------------------------------------------

@pytest.mark.parametrize("said", [
    "My brother sold his boat.",
    "I'm not selling the boat.",
    "I never sold the boat.",
    "We're selling the boat next year.",
    "I left the boat at the marina and went to London for the weekend.",
    "My dad sold his boat last week.",
])
def test_a_home_that_travels_is_ended_only_by_the_users_own_sale_told_as_done(said: str) -> None:
    valid, ended = told("I live on a narrowboat.", said, at=SAID_AT)
    assert ended == [] and "User lives on a narrowboat." in valid


def test_the_users_own_sale_of_the_van_ends_the_van_it_lived_in() -> None:
    valid, ended = told("I live in a camper van.", "We finally sold the van and moved to Leeds.", at=SAID_AT)
    assert ended == ["User lives in a camper van."]


@pytest.mark.parametrize(("said", "kept"), [
    ("I got work!", ["User got work."]),
    ("Good news, I got work!", ["User got work."]),
    ("I had work.", ["User had work."]),
    ("I have work tomorrow.", []),
    ("I can't go, I have work.", []),
])
def test_news_of_work_is_kept_and_the_days_work_as_an_excuse_is_not(said: str, kept: list[str]) -> None:
    assert facts_of(said, at=SAID_AT) == kept


@pytest.mark.parametrize("said", [
    "I'm on antibiotics for weeks.",
    "I'm on this diet for days.",
    "I'm on antibiotics for a week already.",
])
def test_a_span_with_no_count_or_told_as_so_far_gets_no_end_from_today(said: str) -> None:
    (fact,) = facts_of(said, at=SAID_AT)
    assert "until" not in fact
