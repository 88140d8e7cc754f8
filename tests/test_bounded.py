"""``BoundedRecord``: the one bounded record of recent keys the capturing adapters keep (memori_core.bounded)."""

from __future__ import annotations

import pytest

from memori_core.bounded import BoundedRecord


def test_a_record_keeps_its_most_recent_keys_and_returns_those_it_forgets() -> None:
    record: BoundedRecord[str, int] = BoundedRecord(2)
    assert record.remember("a", 1) == [] and record.remember("b", 2) == []
    assert record.remember("c", 3) == [("a", 1)]
    assert list(record.items()) == [("b", 2), ("c", 3)]


def test_remembering_a_known_key_renews_it_so_the_oldest_other_key_goes_first() -> None:
    record: BoundedRecord[str, int] = BoundedRecord(2)
    record.remember("a", 1)
    record.remember("b", 2)
    assert record.remember("a", 10) == []  # renewed, not added: nothing forgotten
    assert record.remember("c", 3) == [("b", 2)]
    assert dict(record) == {"a": 10, "c": 3}


@pytest.mark.parametrize("most", [0, -1, 1.5, True, "3"])
def test_a_bound_that_is_not_a_positive_int_is_refused_naming_it(most: object) -> None:
    with pytest.raises(ValueError, match="most must be an int >= 1"):
        BoundedRecord(most)  # type: ignore[arg-type]
