"""A state the user says holds until an end the turn names ("I'm in Rome this week", "I'm on holiday until Friday",
"staying with my sister for the next two weeks") is kept as a fact that expires at that end, with the end written out
from the turn's said-at time (issue 21, cap31; tester j10, finding 4).

Rows of one message -> the facts kept of it, and steps through a real store with their expiries, are in the case book
tests/cases/stays.toml (run by test_capture_cases.py); rows of what :func:`away_until` says of a clause are in the
rule book tests/rules/stays.toml (run by test_rule_books.py). The tests here read the end in a zone, and capture
through capture_facts into a real embedded Chroma store."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from _capture import capture_turns, valid_texts
from memori_core import RecallEngine, RuleBasedFactExtractor
from memori_core.extraction import Message
from memori_core.extraction.stays import held_until

SUNDAY_NIGHT = datetime(2026, 8, 9, 21, 0, tzinfo=timezone.utc)
ROME = ZoneInfo("Europe/Rome")


def test_this_week_said_on_a_sunday_ends_that_night_where_the_zone_is_known() -> None:
    held = held_until("User is in Rome this week.", SUNDAY_NIGHT, zone_known=True)
    assert held is not None
    assert held.text == "User is in Rome in the week of Monday 2026-08-03."
    assert held.expires_at == datetime(2026, 8, 10, 0, 0, tzinfo=timezone.utc)


def test_an_end_is_read_in_the_users_zone_and_ends_at_midnight_there() -> None:
    said = datetime(2026, 8, 5, 22, 30, tzinfo=timezone.utc)  # already Thursday in Rome
    rules = RuleBasedFactExtractor(time_zone="Europe/Rome")
    [fact] = rules.extract([Message("user", "I'm on holiday until Friday.", created_at=said)])
    assert fact.text == "User is on holiday until Friday 2026-08-07."
    assert fact.expires_at == datetime(2026, 8, 8, 0, 0, tzinfo=ROME)


def test_a_start_a_habit_or_an_end_already_gone_names_no_end_to_keep_a_fact_until() -> None:
    said = datetime(2026, 8, 5, 10, 0, tzinfo=timezone.utc)
    assert held_until("User starts at Google this week.", said) is None  # what starts holds after it
    assert held_until("User goes to Leeds every weekend.", said) is None
    assert held_until("User is in Rome until 5pm.", said) is None  # no day
    assert held_until("User was off work until Monday.", said) is None


def test_a_stay_told_after_the_home_leaves_the_home_and_is_gone_once_its_end_is_over(ungated: RecallEngine) -> None:
    said = datetime(2026, 8, 5, 10, 0, tzinfo=timezone.utc)
    capture_turns(ungated, "I live in Ottawa.", "I'm in Rome until Friday for a conference.", user="ann", at=said)
    stay = "User is in Rome until Friday 2026-08-07 for a conference."
    assert valid_texts(ungated, "ann") == [stay, "User lives in Ottawa."]
    [fact] = [f for f in ungated.list("ann") if f.content == stay]
    assert fact.expires_at == "2026-08-08T12:00:00+00:00"  # the day over everywhere (no zone known)
    later = [f.content for f in ungated.recall("Where am I?", "ann", as_of=said + timedelta(days=4))]
    assert stay not in later and "User lives in Ottawa." in later
