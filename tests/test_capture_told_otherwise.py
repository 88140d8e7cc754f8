"""Endings and changes told in other words, through capture_facts into a real embedded Chroma store: a proposal is
an engagement, an offer withdrawn or declined ends the offer (never the job), a trip called off ends the plan, a diet
begun "as of today" lasts, a pregnancy's week count stands for the pregnancy, and the junk these used to leave.

Rows of one message -> the facts kept of it are in the case book tests/cases/told_otherwise.toml, run by
test_capture_cases.py."""

from __future__ import annotations

from functools import partial
from datetime import datetime, timezone

import pytest

from _capture import facts_of
from memori_core import RecallEngine, RuleBasedFactExtractor, capture_facts
from memori_core.extraction import Message

RULES = RuleBasedFactExtractor()
NOW = datetime(2026, 12, 5, 15, tzinfo=timezone.utc)


def _captured(engine: RecallEngine, *turns: str) -> tuple[list[str], list[str]]:
    """The valid and the superseded facts after capturing each of ``turns`` as a user message said at ``NOW``."""
    for said in turns:
        capture_facts(engine, "ann", [Message(role="user", text=said, created_at=NOW)], RULES)
    every = engine.list("ann", include_invalid=True)
    return (sorted(f.content for f in every if f.valid_to is None),
            sorted(f.content for f in every if f.valid_to is not None))


_facts = partial(facts_of, at=NOW)  # what the rules keep of one user message said at NOW


# -- (a) a proposal is an engagement --------------------------------------------------------------------------------

@pytest.mark.parametrize("said", [
    "Jake proposed!!", "he proposed last night", "we got engaged", "OMG, Jake proposed last night!!",
    "he popped the question on the beach", "My boyfriend proposed!", "Jake finally proposed to me",
])
def test_a_proposal_after_a_stored_partner_is_an_engagement_that_ends_the_dating_fact(
        engine: RecallEngine, said: str) -> None:
    valid, ended = _captured(engine, "I'm dating Jake.", said)
    assert "User is engaged to Jake." in valid
    assert ended == ["User is dating Jake."]


@pytest.mark.parametrize("said", [
    "my sister got engaged", "Jake proposed a toast", "he proposed we split the bill", "Tom proposed!!",
    "my boss proposed a four day week", "Jake proposed to his girlfriend",
])
def test_a_proposal_of_someone_else_or_of_a_plan_leaves_the_relationship(engine: RecallEngine, said: str) -> None:
    valid, ended = _captured(engine, "I'm dating Jake.", said)
    assert "User is dating Jake." in valid
    assert ended == []
    assert not any("engaged to" in fact for fact in valid)


def test_a_proposal_with_no_partner_stored_is_an_engagement_only_to_the_one_named() -> None:
    assert _facts("he proposed last night") == []  # who, no fact says
    assert _facts("Jake proposed!!") == ["User is engaged to Jake."]  # issue 21: the name is kept


# -- (b) an offer ended in other words ---------------------------------------------------------------------------------

_OFFER = "I got a job offer as a junior UX designer at Dynatrace in Linz."


@pytest.mark.parametrize(("said", "now"), [
    ("Dynatrace withdrew the offer", "User's job offer from Dynatrace was withdrawn."),
    ("ugh, Dynatrace rescinded their offer", "User's job offer from Dynatrace was withdrawn."),
    ("the offer fell through", "User's job offer from Dynatrace fell through."),
    ("the Dynatrace offer got pulled", "User's job offer from Dynatrace was withdrawn."),
    ("I turned it down", "User turned down the job offer from Dynatrace."),
    ("I said no to them", "User turned down the job offer from Dynatrace."),
    ("I declined in the end.", "User turned down the job offer from Dynatrace."),
])
def test_an_offer_withdrawn_or_declined_ends_the_offer_and_never_the_job(
        engine: RecallEngine, said: str, now: str) -> None:
    valid, ended = _captured(engine, "I work at Acme as a designer.", _OFFER, said)
    assert now in valid
    assert "User works at Acme as a designer." in valid
    assert ended == ["User got a job offer as a junior UX designer at Dynatrace in Linz."]


@pytest.mark.parametrize("said", ["Google withdrew the offer", "I said no to dessert", "I turned down the volume"])
def test_an_ending_of_another_offer_or_thing_leaves_the_stored_offer(engine: RecallEngine, said: str) -> None:
    valid, ended = _captured(engine, _OFFER, said)
    assert "User got a job offer as a junior UX designer at Dynatrace in Linz." in valid
    assert ended == []


def test_a_bare_decline_with_no_offer_stored_names_no_offer() -> None:
    assert not any("offer" in fact for fact in _facts("I turned it down"))


# -- (c) a planned trip called off ----------------------------------------------------------------------------------

_PLAN = "I'm planning a trip to Japan in March with my sister Eva."


@pytest.mark.parametrize("said", [
    "We never made it to Japan", "we're not going to japan after all", "the Japan trip got cancelled",
    "our trip to Japan is off", "we called off the trip", "Sadly we cancelled Japan.",
])
def test_a_trip_called_off_ends_the_stored_plan(engine: RecallEngine, said: str) -> None:
    valid, ended = _captured(engine, _PLAN, said)
    assert "User cancelled their trip to Japan." in valid
    assert len(ended) == 1 and "planning a trip to Japan" in ended[0]


@pytest.mark.parametrize("said", [
    "the Japan trip got postponed until May", "I've never been to Japan before", "we cancelled the trip to Italy",
    "my sister's Japan trip got cancelled", "we cancelled our dinner plans", "I cancelled the hotel",
])
def test_a_trip_put_off_or_another_thing_cancelled_leaves_the_plan(engine: RecallEngine, said: str) -> None:
    valid, ended = _captured(engine, _PLAN, said)
    assert any("planning a trip to Japan" in fact for fact in valid)
    assert ended == []
    assert "User cancelled their trip to Japan." not in valid


# -- (d) a diet begun "as of today" -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("said", "now"), [
    ("I'm vegan as of today", "User went vegan on Saturday 2026-12-05."),
    ("vegetarian from today", "User went vegetarian on Saturday 2026-12-05."),
    ("starting today I'm off dairy", "User went off dairy on Saturday 2026-12-05."),
    ("From today on, I'm gluten-free!", "User went gluten-free on Saturday 2026-12-05."),
    ("As of today I'm pescatarian.", "User went pescatarian on Saturday 2026-12-05."),
])
def test_a_diet_begun_today_is_a_lasting_core_change_with_its_day(engine: RecallEngine, said: str, now: str) -> None:
    capture_facts(engine, "ann", [Message(role="user", text=said, created_at=NOW)], RULES)
    [fact] = engine.list("ann")
    assert fact.content == now
    assert fact.metadata.get("core") and fact.expires_at is None


def test_a_diet_begun_today_ends_the_stored_diet(engine: RecallEngine) -> None:
    valid, ended = _captured(engine, "I'm vegetarian.", "I'm vegan as of today")
    assert valid == ["User went vegan on Saturday 2026-12-05."]
    assert ended == ["User is vegetarian."]


# -- (e) a pregnancy's week count is the one core fact of it ----------------------------------------------------------

@pytest.mark.parametrize("said", ["I'm 30 weeks now", "I'm 30 weeks pregnant!", "im 30 weeks along today"])
def test_a_week_count_replaces_the_plain_pregnancy_so_one_core_fact_says_both(
        engine: RecallEngine, said: str) -> None:
    valid, ended = _captured(engine, "I'm pregnant!", said)
    assert valid == ["User is 30 weeks pregnant (as of Saturday 2026-12-05)."]
    assert ended == ["User is pregnant."]
    assert [f.content for f in engine.list("ann") if f.metadata.get("core")] == valid


def test_a_pregnancy_told_with_its_weeks_in_one_message_is_one_fact() -> None:
    assert _facts("I'm pregnant! I'm 12 weeks now") == ["User is 12 weeks pregnant (as of Saturday 2026-12-05)."]


def test_a_week_count_leaves_a_pregnancy_fact_that_says_more(engine: RecallEngine) -> None:
    valid, ended = _captured(engine, "I'm pregnant with twins.", "I'm 30 weeks now")
    assert "User is pregnant with twins." in valid and ended == []


@pytest.mark.parametrize(("said", "now"), [
    ("I'm not pregnant anymore", "User is not pregnant anymore."),
    ("the baby was born on Tuesday, her name is Asha", "User had a baby daughter named Asha."),
])
def test_a_birth_or_an_ending_still_ends_the_week_count(engine: RecallEngine, said: str, now: str) -> None:
    valid, ended = _captured(engine, "I'm pregnant!", "I'm 30 weeks now", said)
    assert now in valid
    assert not any("pregnant (as of" in fact for fact in valid)
    assert "User is 30 weeks pregnant (as of Saturday 2026-12-05)." in ended


# -- (f) junk that used to be stored -------------------------------------------------------------------------------


def test_someone_elses_friendship_is_not_rewritten_as_the_users() -> None:
    assert not any(f.startswith("User has been friends") for f in _facts("My sister and Sam have been friends for years"))


@pytest.mark.parametrize(("said", "fact"), [
    ("My cat Luna has been sick, vet says kidney failure.", "User's cat Luna has kidney failure."),
    ("my dad's been unwell - the doctor thinks it's pneumonia", "User's dad has pneumonia."),
    ("Luna's been really sick, the vet said it's an ear infection", "User's cat Luna has an ear infection."),
])
def test_what_the_clinician_found_is_the_fact_not_that_they_were_ill(
        engine: RecallEngine, said: str, fact: str) -> None:
    valid, _ = _captured(engine, "I have a cat named Luna.", said)
    assert fact in valid
    assert not any("sick" in f or "says" in f or "unwell" in f for f in valid)


def test_a_clinician_saying_it_is_nothing_lasting_gives_no_diagnosis() -> None:
    assert not any("has just a cold" in f for f in _facts("My son has been ill, doctor says it's just a cold"))


# -- (g) a day typed after "in" ---------------------------------------------------------------------------------------


def test_a_month_or_a_year_after_in_stays_a_month() -> None:
    assert _facts("I have a wedding in May 2027") == ["User has a wedding in May 2027."]
