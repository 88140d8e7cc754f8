"""What a change, a plan or an aside of the user's leaves stored (tester j5's three users over nine weeks): the rows of
``tests/cases/changes_and_plans.toml`` run in test_capture_cases.py; here, when a visit told for a while expires."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from memori_core import RuleBasedFactExtractor
from memori_core.extraction import Message

SAID = datetime(2026, 11, 16, 19, 30, tzinfo=timezone.utc)  # a Monday


def _kept(said: str) -> list[tuple[str, datetime | None]]:
    return [(f.text, f.expires_at) for f in RuleBasedFactExtractor().extract([Message("user", said, created_at=SAID)])]


@pytest.mark.parametrize(("said", "fact", "days"), [
    ("My mum is coming to stay for two weeks, she has coeliac disease. What can I cook when she's here?",
     "User's mum is coming to stay for two weeks.", 14),
    ("my sister is visiting for a few days", "User's sister is visiting for a few days.", 3),
    ("My in-laws are staying for a fortnight", "User's in-laws are staying for a fortnight.", 14),
    ("my brother is coming for the weekend", "User's brother is coming for the weekend.", 3),
])
def test_a_visit_told_for_a_while_expires_two_days_after_that_while(said: str, fact: str, days: int) -> None:
    kept = dict(_kept(said))
    assert kept.get(fact) == SAID + timedelta(days=days + 2), kept


def test_a_trip_for_a_week_in_a_month_named_expires_with_that_month_not_in_a_week() -> None:
    [(fact, expires)] = _kept("I'm going to Rome for a week in May")
    assert fact == "User is going to Rome for a week in May 2027."
    assert expires == datetime(2027, 6, 1, tzinfo=timezone.utc)


def test_a_weekday_visit_expires_when_that_day_is_over() -> None:
    [(fact, expires)] = _kept("my girlfriend jess is coming over saturday")
    assert fact == "User's girlfriend Jess is coming over on Saturday 2026-11-21."
    assert expires is not None and datetime(2026, 11, 22, tzinfo=timezone.utc) <= expires \
        <= datetime(2026, 11, 22, 12, tzinfo=timezone.utc)
