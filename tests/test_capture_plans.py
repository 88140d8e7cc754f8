"""Rule-based capture keeps a plan as a plan, through capture_facts into a real embedded Chroma store (tester j2,
findings 3 and 8): a plan for a month named, in the user's words ("I'm planning a trip to Lisbon in November"),
is written out with its year and expires when that month ends; a plan shared with someone named ("My girlfriend
Anika and I are going to Japan in March!") is a plan, not a wish; what a plan tells for good of who someone is
outlives it.

Rows of steps (messages, then the valid facts, their expiries and a recall they leave) are in the case book
tests/cases/plans.toml, run by test_capture_cases.py."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from _capture import capture_turns, valid_texts
from _helpers import ungated_engine
from memori_core import RecallEngine

# A Monday in October 2026; the turns are read as said then (a month named is the next one, this one included).
SAID = datetime(2026, 10, 12, 9, 0, tzinfo=timezone.utc)


def _said(engine: RecallEngine, *turns: str, user: str = "u1") -> dict[str, str | None]:
    """Capture each turn in order for ``user``, a day apart from :data:`SAID`; the user's valid facts afterwards,
    text -> expiry (ISO, ``None`` for a fact kept for good). Valid when the last turn was said, not now: a change
    told ahead whose start the clock has passed since is not valid yet then."""
    capture_turns(engine, *turns, user=user, at=SAID, apart=timedelta(days=1))
    held = set(valid_texts(engine, user, at=SAID + timedelta(days=len(turns) - 1)))
    return {f.content: f.expires_at for f in engine.list(user, include_invalid=True) if f.content in held}


def _month_end(year: int, month: int) -> str:
    """The first moment after ``month`` of ``year``, in UTC, as a stored expiry reads."""
    after = datetime(year + (month == 12), month % 12 + 1, 1, tzinfo=timezone.utc)
    return after.isoformat()


# -- a plan for a month named expires when that month ends ---------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "fact", "ends"),
    [
        ("I'm planning a trip to Lisbon in November", "User is planning a trip to Lisbon in November 2026.",
         (2026, 11)),
        ("We're planning to visit Japan in March", "User is planning to visit Japan in March 2027.", (2027, 3)),
        ("We plan to go to Iceland in June", "User plans to go to Iceland in June 2027.", (2027, 6)),
        ("I have a trip to Rome in May", "User has a trip to Rome in May 2027.", (2027, 5)),
        ("We've got a holiday in Greece in August", "User has got a holiday in Greece in August 2027.", (2027, 8)),
        ("I'm off to Japan in March!", "User is off to Japan in March 2027.", (2027, 3)),
        ("I'm planning to move to Berlin in mid-June", "User is planning to move to Berlin in mid-June 2027.",
         (2027, 6)),
        ("I'm going to Japan solo in October", "User is going to Japan solo in October 2026.", (2026, 10)),  # this one
    ],
)
def test_a_plan_for_a_month_named_is_written_out_with_its_year_and_expires_when_it_ends(
    said: str, fact: str, ends: tuple[int, int]
) -> None:
    assert _said(ungated_engine(), said) == {fact: _month_end(*ends)}


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        ("I'm planning to learn Spanish", {"User is planning to learn Spanish.": None}),  # no day: kept for good
        ("I moved to Berlin in March", {"User lives in Berlin.": None}),  # done, not planned
        ("I'm off to bed", {}),  # leave-taking
        ("I'm off dairy now", {"User is off dairy.": None}),
    ],
)
def test_what_names_no_month_to_come_is_no_expiring_plan(said: str, facts: dict[str, str | None]) -> None:
    assert _said(ungated_engine(), said) == facts


@pytest.mark.parametrize(
    ("said", "fact", "expires"),
    [
        ("My daughter has a dentist appointment tomorrow",
         "User's daughter has a dentist appointment on Tuesday 2026-10-13.", "2026-10-14T12:00:00+00:00"),
        ("My husband has a job interview on Friday",
         "User's husband has a job interview on Friday 2026-10-16.", "2026-10-17T12:00:00+00:00"),
    ],
)
def test_someone_elses_appointment_says_its_day_and_expires_after_it(said: str, fact: str, expires: str) -> None:
    assert _said(ungated_engine(), said) == {fact: expires}


def test_someone_elses_weekly_event_is_kept_for_good() -> None:
    assert _said(ungated_engine(), "My son has football practice every Saturday") == {
        "User's son has football practice every Saturday.": None}


def test_a_dated_plan_is_no_longer_recalled_once_its_month_is_over() -> None:
    engine = ungated_engine()
    _said(engine, "I live in Graz.", "I'm planning a trip to Lisbon in November")
    during = [f.content for f in engine.recall("Where am I travelling?", "u1",
                                                as_of=datetime(2026, 11, 20, tzinfo=timezone.utc))]
    after = [f.content for f in engine.recall("Where am I travelling?", "u1",
                                               as_of=datetime(2026, 12, 2, tzinfo=timezone.utc))]
    assert "User is planning a trip to Lisbon in November 2026." in during
    assert after == ["User lives in Graz."]


# -- a plan shared with someone named ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "fact", "ends"),
    [
        ("My girlfriend Anika and I are going to Japan in March!",
         "User and their girlfriend Anika are going to Japan in March 2027.", (2027, 3)),
        ("Ana and I are moving to Berlin next month", "User and Ana are moving to Berlin in November 2026.",
         (2026, 11)),
        ("My wife and I are going to move to Berlin in May",
         "User and their wife are going to move to Berlin in May 2027.", (2027, 5)),
        ("me and sarah are planning a trip to Peru in July", "User and Sarah are planning a trip to Peru in July 2027.",
         (2027, 7)),
    ],
)
def test_a_plan_shared_with_someone_is_a_plan_that_names_them_until_it_is_over(
    said: str, fact: str, ends: tuple[int, int]
) -> None:
    assert _said(ungated_engine(), said) == {fact: _month_end(*ends)}


@pytest.mark.parametrize(
    "said",
    [
        "My sister and I want to open a bakery",  # a wish
        "Me and Tom are going to try for a baby",  # an intent
        "Ana and I are going to the cinema tomorrow",  # soon over
        "Tom and I are stuck in traffic",  # a moment
    ],
)
def test_a_wish_an_intent_or_a_moment_shared_with_someone_stores_nothing(said: str) -> None:
    assert _said(ungated_engine(), said) == {}


def test_a_wedding_planned_with_the_partner_leaves_the_engagement() -> None:
    engine = ungated_engine()
    facts = _said(engine, "Tom and I got engaged!", "Tom and I are getting married in June")
    assert facts == {"User is engaged to Tom.": None,
                     "User and Tom are getting married in June 2027.": _month_end(2027, 6)}


# -- who a plan names, for good ------------------------------------------------------------------------------------


def test_a_plan_with_a_partner_names_them_only_in_the_plan() -> None:
    # where a relationship stands changes in ways a plan does not tell: no lasting "User's girlfriend is Anika."
    facts = _said(ungated_engine(), "My girlfriend Anika and I are going to Japan in March!")
    assert list(facts) == ["User and their girlfriend Anika are going to Japan in March 2027."]


# -- a trip told as taken ends its plan ----------------------------------------------------------------------------

_LIFE = ("I live in Graz.", "I work as a barista at Café Sacher.", "I have a cat named Luna.", "I'm vegetarian.",
         "I play tennis on Sundays.", "I drink coffee every morning.", "My brother lives in Vienna.")


@pytest.mark.parametrize(
    ("told", "now"),
    [
        ("Lisbon was amazing!! we ate so many pastéis de nata", "User went to Lisbon with their sister Eva."),
        ("Just got back from Lisbon, what a trip", "User went to Lisbon with their sister Eva."),
        ("We're back from Lisbon!", "User went to Lisbon with their sister Eva."),
        ("The Lisbon trip was great", "User went to Lisbon with their sister Eva."),
        ("We had the best time in Lisbon", "User had the best time in Lisbon."),
        # said on Tuesday 2026-10-20 (the ninth turn, a day apart from SAID)
        ("I went to Lisbon last week", "User went to Lisbon in the week of Monday 2026-10-12."),
    ],
)
def test_a_trip_told_as_taken_ends_its_plan_among_many_stored_facts(told: str, now: str) -> None:
    engine = ungated_engine()
    facts = _said(engine, *_LIFE, "I'm planning a trip to Lisbon in November with my sister Eva", told)
    assert now in facts and facts[now] is None
    assert not any("planning" in fact for fact in facts)  # the plan is history now
    assert "User's sister is Eva." in facts


def test_a_trip_shared_with_a_partner_told_as_taken_says_with_whom() -> None:
    engine = ungated_engine()
    facts = _said(engine, "My girlfriend Anika and I are going to Japan in March!", "Japan was incredible")
    assert facts == {"User and their girlfriend Anika went to Japan.": None}


@pytest.mark.parametrize(
    "told",
    [
        "Lisbon is beautiful in spring",  # no trip told
        "I was in Lisbon in 2019",  # a trip of long ago
        "Lisbon was amazing the last time I went",
        "My sister went to Lisbon last week",  # someone else's
        "Porto was amazing!!",  # another place
        "Eva was sick all week",  # someone, not a place of the plan
        "Was Lisbon nice?",  # a question
    ],
)
def test_what_tells_no_taking_of_the_planned_trip_leaves_the_plan(told: str) -> None:
    engine = ungated_engine()
    facts = _said(engine, "I'm planning a trip to Lisbon in November", told)
    assert "User is planning a trip to Lisbon in November 2026." in facts


# -- a job offer is not the job ------------------------------------------------------------------------------------

_BARISTA = "I work as a barista at Café Sacher"


@pytest.mark.parametrize(
    ("offer", "stored"),
    [
        ("I got a job offer as a junior UX designer at Dynatrace in Linz",
         "User got a job offer as a junior UX designer at Dynatrace in Linz."),
        ("I've been offered a role at Spotify as a data analyst",
         "User has been offered a role at Spotify as a data analyst."),
        ("Got a job offer from Meta!!", "User got a job offer from Meta."),
        ("I have an offer from Stripe", "User has an offer from Stripe."),
        ("I was offered a job at Google", "User was offered a job at Google."),
    ],
)
def test_a_job_offer_is_stored_beside_the_job_it_does_not_replace(offer: str, stored: str) -> None:
    engine = ungated_engine()
    facts = _said(engine, *_LIFE, _BARISTA, offer)
    assert "User works as a barista at Café Sacher." in facts and stored in facts
    assert all(f.valid_to is None for f in engine.list("u1", include_invalid=True))  # nothing ended


@pytest.mark.parametrize(
    ("offer", "started", "job"),
    [
        ("I got a job offer as a junior UX designer at Dynatrace in Linz", "I started at Dynatrace today!",
         "User works at Dynatrace in Linz as a junior UX designer."),
        ("I've been offered a role at Spotify as a data analyst", "I got a job at Spotify",
         "User works at Spotify as a data analyst."),
        ("I got a job offer from Meta", "Started at Meta this week!", "User works at Meta."),  # no role offered
    ],
)
def test_a_job_begun_where_it_was_offered_ends_the_offer_and_the_old_job_and_keeps_the_role(
    offer: str, started: str, job: str
) -> None:
    engine = ungated_engine()
    facts = _said(engine, *_LIFE, _BARISTA, offer, started)
    assert job in facts
    assert not any("barista" in fact or "offer" in fact for fact in facts)


@pytest.mark.parametrize(
    ("said", "offer_ends"),
    [
        ("I turned down the Dynatrace offer", True),
        ("I declined the offer", True),  # the only offer stored
        ("I turned down the offer from Siemens", False),  # another employer's
        ("I started at Google", False),  # a job elsewhere ends the job, not the offer
        ("I'm starting at Dynatrace next month", False),  # still to come
        ("I quit Café Sacher", False),
        ("I got promoted to head barista", False),
    ],
)
def test_an_offer_ends_when_turned_down_not_when_another_job_changes(said: str, offer_ends: bool) -> None:
    engine = ungated_engine()
    facts = _said(engine, _BARISTA, "I got a job offer as a junior UX designer at Dynatrace in Linz", said)
    assert ("User got a job offer as a junior UX designer at Dynatrace in Linz." not in facts) is offer_ends


def test_an_offer_accepted_is_still_a_change_of_job() -> None:
    facts = _said(ungated_engine(), "I work as a software engineer at Amazon", "I've accepted an offer from Microsoft.")
    assert list(facts) == ["User has accepted an offer from Microsoft."]
