"""Capture's rules for issue 21's faults of slots, counts, fragments and relatives beyond the rows of
``tests/cases/shifts_counts_and_fragments.toml`` and ``tests/rules/shifts_counts_and_fragments.toml``: a plan's time
corrected keeps the plan's end, read from the fact recall showed the extractor; a verbless fragment is dropped for a
reason the rules' explanation names."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from _capture import RULES, capture_turns
from _helpers import ungated_engine
from memori_core.extraction import DROP_UNCLEAR, Message
from memori_core.extraction.rates import rate_of
from memori_core.extraction.retimed import retimed


@pytest.mark.parametrize(("said", "known", "corrected"), [
    ("sorry, 7am", ["User's shift starts at 7pm.", "User lives in Leeds."],
     ("User's shift starts at 7am.", "I meant 7am, not 7pm")),
    ("8pm not 8am", ["User's alarm is set for 8am every day."],
     ("User's alarm is set for 8pm every day.", "I meant 8pm, not 8am")),
    ("sorry, 7am", [], None),
    ("sorry, 7am", ["User's sister's shift starts at 7pm."], None),  # someone else's
    ("sorry, 7am", ["User's shift starts at 7pm.", "User's alarm is set for 7pm."], None),  # which one?
    ("sorry, 7am", ["User is on day shifts, 7am to 7pm."], None),
])
def test_a_time_said_again_corrects_the_one_fact_of_the_users_holding_the_wrong_time(
        said: str, known: list[str], corrected: tuple[str, str] | None) -> None:
    assert retimed(said, known) == corrected


@pytest.mark.parametrize(("fact", "rate"), [
    ("User smokes 20 cigarettes a day.", ("cigarette", "20", "day")),
    ("User is down to 5 cigarettes a day.", ("cigarette", "5", "day")),
    ("User smokes a pack a day.", ("cigarette", "a", "day")),
    ("User drinks 3 coffees a week now.", ("coffee", "3", "week")),
    ("User has two dogs.", None),
    ("User's dad smokes.", None),
])
def test_a_habits_rate_is_its_thing_its_amount_and_its_span(fact: str, rate: tuple[str, str, str] | None) -> None:
    assert rate_of(fact) == rate


def test_a_plans_time_corrected_keeps_the_day_and_the_end_of_the_plan() -> None:
    engine = ungated_engine()
    said = datetime.now(timezone.utc).replace(microsecond=0) - timedelta(hours=1)
    capture_turns(engine, "My shift starts at 7pm tomorrow.", at=said)
    [plan] = engine.list("u1")
    capture_turns(engine, "sorry, 7am not 7pm", at=said + timedelta(minutes=5))
    [corrected] = engine.list("u1")
    assert "7am" in corrected.content and corrected.content.replace("7am", "7pm") == plan.content
    assert plan.expires_at is not None and corrected.expires_at == plan.expires_at
    assert [f.content for f in engine.list("u1", include_invalid=True) if f.valid_to] == [plan.content]


def test_a_correction_of_a_plan_shown_with_its_end_in_metadata_ends_when_the_plan_does() -> None:
    class Shown:  # as recall shows a fact: its expiry in its metadata
        id = "plan"
        content = "User's shift starts at 7pm on Wednesday 2026-11-04."
        metadata = {"expires_at": "2026-11-05T12:00:00+00:00"}

    said = datetime(2026, 11, 3, 18, 30, tzinfo=timezone.utc)
    [fact] = RULES.extract([Message("user", "7am", created_at=said)], [Shown()])
    assert fact.text == "User's shift starts at 7am on Wednesday 2026-11-04."
    assert fact.supersedes == ("plan",)
    assert fact.expires_at == datetime(2026, 11, 5, 12, tzinfo=timezone.utc)


@pytest.mark.parametrize("shown_end", ["2026-11-05T12:00:00", "2026-11-05T13:00:00+01:00",
                                       datetime(2026, 11, 5, 12)])
def test_a_corrected_plans_end_shown_without_a_zone_or_in_another_is_the_same_time_in_utc(
        shown_end: str | datetime) -> None:
    class Shown:  # a stored time without a zone is UTC, as memori writes it (validate.parse_utc)
        id = "plan"
        content = "User's shift starts at 7pm on Wednesday 2026-11-04."
        expires_at = shown_end

    said = datetime(2026, 11, 3, 18, 30, tzinfo=timezone.utc)
    [fact] = RULES.extract([Message("user", "7am", created_at=said)], [Shown()])
    assert fact.supersedes == ("plan",)
    assert fact.expires_at == datetime(2026, 11, 5, 12, tzinfo=timezone.utc) and fact.expires_at.tzinfo == timezone.utc


def test_the_shown_facts_expiries_are_read_only_for_a_correction_that_ends_one() -> None:
    read: list[str] = []

    class Shown:
        def __init__(self, id: str, content: str) -> None:
            self.id, self.content = id, content

        @property
        def expires_at(self) -> str:
            read.append(self.id)
            return "2026-11-05T12:00:00+00:00"

    shown = [Shown("plan", "User's shift starts at 7pm on Wednesday 2026-11-04."), Shown("home", "User lives in Leeds.")]
    said = datetime(2026, 11, 3, 18, 30, tzinfo=timezone.utc)
    RULES.extract([Message("user", "I'm vegetarian.", created_at=said)], shown)
    assert read == []
    RULES.extract([Message("user", "7am", created_at=said)], shown)
    assert read == ["plan"]


def test_a_verbless_fragment_is_dropped_as_keeping_nothing_clear() -> None:
    verdicts = RULES.explain("My wife and our two grandchildren, who we adore.")
    assert [v.fact for v in verdicts] == [None]
    assert verdicts[0].reason == DROP_UNCLEAR
