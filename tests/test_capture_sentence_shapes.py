"""The capture findings on sentence shapes and counts (issue 21) that the case and rule books
(``tests/cases/sentence_shapes.toml``, ``tests/rules/sentence_shapes.toml``) cannot write as rows: what a count read
from a fact is, and a loss no stored count can be read with."""

from __future__ import annotations

import pytest

from memori_core.extraction.counts import count_held, count_left


@pytest.mark.parametrize(
    ("fact", "held"),
    [
        ("User has got three hives at the bottom of the garden.", ("hive", 3)),
        ("User keeps 2 rescue dogs.", ("dog", 2)),
        ("User has two cats, Tom and Jerry.", ("cat", 2)),
        ("User is down to one hive.", ("hive", 1)),
        ("User has three children.", ("child", 3)),
        ("User has 12 chickens in the yard.", ("chicken", 12)),
        ("User now has 3 beehives.", ("beehive", 3)),
    ],
)
def test_a_count_of_the_users_gives_the_thing_in_the_singular_and_how_many(fact: str, held: tuple[str, int]) -> None:
    assert count_held(fact) == held


@pytest.mark.parametrize(
    ("fact", "told"),
    [
        ("User lost two hives.", ["User has two cats."]),  # no count of hives is told
        ("User lost four hives.", ["User has three hives."]),  # more than were told
        ("User is down to one.", ["User has two cats.", "User has three hives."]),  # which thing is not said
        ("User is down to one.", []),
        ("User lives in Leeds.", ["User has three hives."]),
    ],
)
def test_a_loss_no_told_count_can_be_read_with_gives_no_count(fact: str, told: list[str]) -> None:
    assert count_left(fact, told) is None
