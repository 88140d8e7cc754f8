"""A month corrected and a booking told with its day (tester j12, issue 21): "oh wait I meant May" corrects the
one stored fact holding another month, and the corrected plan still expires, with the month meant; "I booked a
flight to Rome on the 4th" is the plan of that day and expires after it. Captured through the rules with the
turn's said-at time, as capture reads them; the rows of each rule are in ``tests/rules/corrections_and_repeats.toml``
and ``tests/rules/dated_plans.toml``."""

from __future__ import annotations

from datetime import datetime, timezone

from _capture import RULES, Stored
from memori_core.extraction import Message
from memori_core.extraction.remonthed import remonthed

SAID = datetime(2026, 3, 2, 10, 0, tzinfo=timezone.utc)  # a Monday
"""When the turns here are said: every day and month they name is written out from it."""


def extracted(said: str, stored: list[Stored] = ()) -> list[tuple[str, tuple[str, ...], str | None]]:
    """What the rules keep of ``said`` (said at :data:`SAID`) with ``stored`` shown: text, ids ended, expiry."""
    return [(f.text, f.supersedes, None if f.expires_at is None else f.expires_at.isoformat())
            for f in RULES.extract([Message("user", said, created_at=SAID)], list(stored))]


def test_a_month_said_again_corrects_the_plan_just_told_and_it_expires_with_the_month_meant() -> None:
    plan = Stored("plan", "User is moving to Berlin in April 2026.")
    assert extracted("oh wait I meant May", [plan, Stored("home", "User lives in Leeds.")]) == [
        ("User is moving to Berlin in May 2026.", ("plan",), "2026-06-01T00:00:00+00:00")]
    assert extracted("sorry, May not April", [Stored("wed", "User's sister's wedding is in April 2026.")]) == [
        ("User's sister's wedding is in May 2026.", ("wed",), "2026-06-01T00:00:00+00:00")]


def test_a_month_said_again_of_a_lasting_fact_keeps_it_lasting() -> None:
    assert extracted("I meant May", [Stored("bd", "User's birthday is in April.")]) == [
        ("User's birthday is in May.", ("bd",), None)]


def test_a_month_said_again_corrects_nothing_when_it_cannot_tell_which_fact_or_it_is_told_already() -> None:
    two = ["User is moving to Berlin in April 2026.", "User's birthday is in June."]
    assert remonthed("oh wait I meant May", two) is None
    assert remonthed("I meant May", ["User is moving in May 2026.", "User's exam is in June 2026."]) is None
    assert remonthed("May not April", ["User's birthday is in June."]) is None
    assert remonthed("I meant May", ["User may move to Leeds."]) is None
    assert extracted("oh wait I meant May", [Stored(str(n), t) for n, t in enumerate(two)]) == []


def test_a_booking_told_with_its_day_is_the_plan_of_that_day_and_expires_after_it() -> None:
    assert extracted("I booked a flight to Rome on the 4th") == [
        ("User has a flight to Rome on Wednesday 2026-03-04.", (), "2026-03-05T12:00:00+00:00")]
    assert extracted("I've got the dentist on 12 March") == [
        ("User has a dentist appointment on Thursday 2026-03-12.", (), "2026-03-13T12:00:00+00:00")]


def test_a_booking_with_no_day_or_no_thing_booked_is_no_dated_plan() -> None:
    assert extracted("I booked a flight to Rome") == [("User booked a flight to Rome.", (), None)]
    assert [expiry for _, _, expiry in extracted("I got a promotion on Friday")] == [None]
    assert extracted("should I book a flight to Rome on the 4th?") == []
