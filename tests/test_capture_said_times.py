"""Capture: the relative times of a lasting fact ("last month", "two weeks ago", "due next month") written out from
the day the turn was said, so that read months later the fact still names the right time; and the words that only
look like such a time ("last name", "the last week", a band called "Last Year") kept as said.

Every turn here is said at a pinned time (:data:`_capture.SAID_AT`, Friday 2026-08-07), never the wall clock.

Rows of one message -> the facts kept of it are in the case book tests/cases/said_times.toml, run by
test_capture_cases.py."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from _capture import RULES, SAID_AT, capture_turns, core_texts, facts_of
from _helpers import ungated_engine
from memori_core.extraction import Message
from memori_core.extraction.dates import DUE_MARGIN, date_said


# -- what a tester found stored verbatim, captured into a real store ---------------------------------------------


def test_the_lasting_facts_a_tester_found_name_their_times_from_the_day_said() -> None:
    engine = ungated_engine()
    capture_turns(engine, "I got married last year.", "I moved here two weeks ago.", "My dog Biscuit died last week.",
                  "I became a vegetarian this year.", "I quit smoking three days ago.", at=SAID_AT)
    capture_turns(engine, "I went vegan this month.", user="u2", at=SAID_AT)  # one diet a user: another user's
    stored = {f.content: f for user in ("u1", "u2") for f in engine.list(user)}
    assert sorted(stored) == [
        "User became a vegetarian in 2026.",
        "User got married in 2025.",
        "User moved here in the week of Monday 2026-07-20.",
        "User quit smoking on Tuesday 2026-08-04.",
        "User went vegan in August 2026.",
        "User's dog Biscuit died in the week of Monday 2026-07-27.",
    ]
    assert all(f.expires_at is None for f in stored.values())  # what happened stays true
    # a diet is core (injected on every turn): it names its year and month, not "this year" or "this month"
    assert "User became a vegetarian in 2026." in core_texts(engine)
    assert core_texts(engine, "u2") == ["User went vegan in August 2026."]


def test_the_day_said_is_the_turns_own_day_in_its_offset() -> None:
    # 00:30 on 1 August in UTC+2 is still 31 July in UTC: "last month" is July, as the user counts it
    late = datetime(2026, 8, 1, 0, 30, tzinfo=timezone(timedelta(hours=2)))
    assert facts_of("I went vegan last month.", late) == ["User went vegan in July 2026."]
    assert facts_of("I went vegan last month.", late.astimezone(timezone.utc)) == ["User went vegan in June 2026."]


# -- what is due: written out, and over when that time is --------------------------------------------------------


def test_a_pregnancy_due_next_month_names_the_month_and_expires_two_weeks_after_it() -> None:
    [fact] = RULES.extract([Message("user", "I'm pregnant, due next month.", created_at=SAID_AT)])
    assert fact.text == "User is pregnant, due in September 2026."
    # the end of 30 September everywhere on Earth (the zone is not known), and the margin for a late baby
    assert fact.expires_at == datetime(2026, 10, 1, 12, tzinfo=timezone.utc) + DUE_MARGIN
    assert DUE_MARGIN == timedelta(days=14)


@pytest.mark.parametrize(
    ("said", "fact", "over"),
    [
        ("We're expecting twins, due in March.", "User is expecting twins, due in March 2027.", datetime(2027, 4, 1)),
        ("I'm pregnant, due on the 14th.", "User is pregnant, due on Friday 2026-08-14.", datetime(2026, 8, 15)),
        ("My baby is due next week.", "User's baby is due in the week of Monday 2026-08-10.", datetime(2026, 8, 17)),
    ],
)
def test_a_pregnancy_with_a_due_date_expires_two_weeks_after_that_time(said: str, fact: str, over: datetime) -> None:
    [kept] = RULES.extract([Message("user", said, created_at=SAID_AT)])
    assert kept.text == fact
    assert kept.expires_at == over.replace(hour=12, tzinfo=timezone.utc) + DUE_MARGIN


def test_something_else_due_expires_when_its_time_is_over_with_no_margin() -> None:
    [essay] = RULES.extract([Message("user", "My essay is due next month.", created_at=SAID_AT)])
    assert essay.text == "User's essay is due in September 2026."
    assert essay.expires_at == datetime(2026, 10, 1, 12, tzinfo=timezone.utc)


def test_due_to_is_no_due_date() -> None:
    [fact] = RULES.extract([Message("user", "I'm due to start at the hospital.", created_at=SAID_AT)])
    assert fact.text == "User is due to start at the hospital." and fact.expires_at is None


# -- words that only look like a time: kept as said --------------------------------------------------------------


@pytest.mark.parametrize(
    "fact",
    [
        "The last time User went to Rome it rained.",
        "User's last day at the bakery was sad.",
        "User's band \u201cLast Month\u201d plays on Fridays.",
        "User's sister's book is called 'A Year Ago'.",
        "User goes running every last Friday of the month.",
        "User moved to Porto last summer.",  # a season the rules do not resolve
        "User has been vegan for a few years.",
    ],
)
def test_date_said_leaves_a_fact_with_no_time_counted_from_today_as_it_is(fact: str) -> None:
    dated = date_said(fact, SAID_AT)
    assert dated.text == fact and dated.expires_at is None
