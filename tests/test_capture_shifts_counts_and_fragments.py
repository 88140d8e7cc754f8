"""Capture's rules for issue 21's faults of slots, counts, fragments and relatives beyond the rows of
``tests/cases/shifts_counts_and_fragments.toml`` and ``tests/rules/shifts_counts_and_fragments.toml``: a habit's
rate read as its thing, its amount and its span."""

from __future__ import annotations

import pytest

from memori_core.extraction.rates import rate_of


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
