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


def test_a_verbless_fragment_is_dropped_as_keeping_nothing_clear() -> None:
    verdicts = RULES.explain("My wife and our two grandchildren, who we adore.")
    assert [v.fact for v in verdicts] == [None]
    assert verdicts[0].reason == DROP_UNCLEAR
