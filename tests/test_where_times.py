"""``where`` on a fact's own times (issue 21): ``created_at``, ``valid_from`` and ``valid_to`` with ``$eq $ne $gt
$gte $lt $lte``, datetimes (naive: UTC) or ISO 8601 strings normalised to UTC; in recall, explain and list, over an
embedded Chroma store and the reference store; bad input named."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import nullcontext
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from _helpers import HashEmbedder
from memori_core import ChromaStore, NaiveTimeWarning, RecallConfig, RecallEngine
from memori_core.filters import check_where
from memori_core.store import InMemoryFactStore

T0 = datetime(2026, 1, 5, 10, 0, tzinfo=timezone.utc)
Q = "user lives cat job"


def texts(facts: Any) -> list[str]:
    return sorted(f.content for f in facts)


@pytest.fixture(params=["embedded-chroma", "reference"])
def eng(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RecallEngine]:
    store = ChromaStore(path=tmp_path / "mem") if request.param == "embedded-chroma" else InMemoryFactStore()
    yield RecallEngine(store=store, embedder=HashEmbedder(), config=RecallConfig(gate="off"))
    if isinstance(store, ChromaStore):
        store.close()


@pytest.fixture
def seeded(eng: RecallEngine) -> dict[str, str]:
    """Lisbon (T0), a cat (T0 + 31 days), Porto replacing Lisbon (T0 + 55 days), a job (T0 + 90 days)."""
    (lisbon,) = eng.add("u", "User lives in Lisbon.", created_at=T0)
    (cat,) = eng.add("u", "User has a cat.", created_at=T0 + timedelta(days=31), metadata={"topic": "pets"})
    (porto,) = eng.add("u", "User lives in Porto.", created_at=T0 + timedelta(days=55), supersedes=[lisbon])
    (job,) = eng.add("u", "User works as a nurse.", created_at=T0 + timedelta(days=90))
    return {"lisbon": lisbon, "cat": cat, "porto": porto, "job": job}


def test_recall_keeps_the_facts_stated_in_a_created_at_range(eng: RecallEngine, seeded: dict[str, str]) -> None:
    feb = "2026-02-01T00:00:00Z"
    assert texts(eng.recall(Q, "u", 10, where={"created_at": {"$gte": feb}})) == [
        "User has a cat.", "User lives in Porto.", "User works as a nurse."]
    assert texts(eng.recall(Q, "u", 10, where={"created_at": {"$gte": feb, "$lt": T0 + timedelta(days=60)}})) == [
        "User has a cat.", "User lives in Porto."]
    # Lisbon was stated before February but is no longer valid: recall leaves it out whatever the filter.
    assert texts(eng.recall(Q, "u", 10, where={"created_at": {"$lt": feb}})) == []
    assert texts(eng.recall(Q, "u", 10, where={"created_at": {"$lte": T0 + timedelta(days=31)}})) == [
        "User has a cat."]
    assert texts(eng.recall(Q, "u", 10, where={"created_at": {"$gt": T0 + timedelta(days=31)}})) == [
        "User lives in Porto.", "User works as a nurse."]


def test_times_in_other_zones_and_naive_datetimes_are_compared_as_utc(eng: RecallEngine,
                                                                     seeded: dict[str, str]) -> None:
    cat_time = T0 + timedelta(days=31)  # 2026-02-05 10:00 UTC
    same = ["2026-02-05T11:00:00+01:00", "2026-02-05T10:00:00Z", cat_time.replace(tzinfo=None),
            cat_time.astimezone(timezone(timedelta(hours=-5)))]
    for when in same:
        with pytest.warns(NaiveTimeWarning) if isinstance(when, datetime) and when.tzinfo is None else nullcontext():
            assert texts(eng.recall(Q, "u", 10, where={"created_at": when})) == ["User has a cat."], when
            assert "User has a cat." not in texts(eng.recall(Q, "u", 10, where={"created_at": {"$ne": when}})), when


def test_valid_to_ranges_read_history_in_list_and_as_of_recall(eng: RecallEngine, seeded: dict[str, str]) -> None:
    moved = T0 + timedelta(days=55)
    everything = {"include_invalid": True, "limit": 100}
    assert texts(eng.list("u", where={"valid_to": {"$ne": None}}, **everything)) == ["User lives in Lisbon."]
    assert texts(eng.list("u", where={"valid_to": None}, **everything)) == [
        "User has a cat.", "User lives in Porto.", "User works as a nurse."]
    assert texts(eng.list("u", where={"valid_to": {"$lte": moved.isoformat()}}, **everything)) == [
        "User lives in Lisbon."]
    # A fact still valid has no end: it is after every time.
    assert texts(eng.list("u", where={"valid_to": {"$gt": moved}}, **everything)) == [
        "User has a cat.", "User lives in Porto.", "User works as a nurse."]
    # As of mid-February Lisbon was valid; the filter keeps the facts that stopped being valid by March.
    feb = T0 + timedelta(days=40)
    assert texts(eng.recall(Q, "u", 10, as_of=feb, where={"valid_to": {"$lt": "2026-03-15T00:00:00Z"}})) == [
        "User lives in Lisbon."]
    assert texts(eng.recall(Q, "u", 10, as_of=feb, where={"valid_to": None})) == ["User has a cat."]


def test_valid_from_is_the_update_time_for_an_updated_text(eng: RecallEngine, seeded: dict[str, str]) -> None:
    before = datetime.now(timezone.utc) - timedelta(seconds=1)
    eng.update("u", seeded["job"], text="User works as a midwife.")
    assert texts(eng.recall(Q, "u", 10, where={"valid_from": {"$gte": before}})) == ["User works as a midwife."]
    # Its statement time is unchanged; every other fact is valid from its created_at.
    assert texts(eng.recall(Q, "u", 10, where={"created_at": {"$gte": before}})) == []
    assert texts(eng.recall(Q, "u", 10, where={"valid_from": {"$lt": before}})) == [
        "User has a cat.", "User lives in Porto."]


def test_explain_and_metadata_filters_combine_with_times(eng: RecallEngine, seeded: dict[str, str]) -> None:
    where = {"topic": "pets", "created_at": {"$gte": "2026-02-01T00:00:00Z"}}
    assert texts(eng.recall(Q, "u", 10, where=where)) == ["User has a cat."]
    report = eng.explain(Q, "u", 10, where={"created_at": {"$gt": "2026-03-01T00:00:00Z"}})
    # Only the facts the filter allows are candidates at all.
    assert sorted(c.content for c in report.candidates) == ["User lives in Porto.", "User works as a nurse."]
    assert all(c.kept for c in report.candidates)


def test_a_write_after_a_filtered_recall_is_seen_by_the_same_filter(eng: RecallEngine,
                                                                    seeded: dict[str, str]) -> None:
    where = {"created_at": {"$gte": T0 + timedelta(days=100)}}
    assert texts(eng.recall(Q, "u", 10, where=where)) == []
    eng.add("u", "User has a dog.", created_at=T0 + timedelta(days=120))
    assert texts(eng.recall(Q, "u", 10, where=where)) == ["User has a dog."]


@pytest.mark.parametrize(
    ("where", "error", "message"),
    [
        ({"created_at": {"$in": ["2026-01-01"]}}, ValueError, r"where\['created_at'\]\['\$in'\].*\$gt"),
        ({"created_at": {"$gt": 5}}, TypeError, r"where\['created_at'\]\['\$gt'\] must be a datetime"),
        ({"valid_to": "yesterday"}, ValueError, r"where\['valid_to'\] 'yesterday' is not an ISO 8601"),
        ({"created_at": {"$gt": None}}, TypeError, r"where\['created_at'\]\['\$gt'\]"),
        ({"valid_from": {"day": 3}}, ValueError, r"where\['valid_from'\]: a fact's time has no fields"),
        ({"created_at": {}}, ValueError, r"where\['created_at'\] is an empty dict"),
    ],
)
def test_bad_time_conditions_raise_naming_the_argument(eng: RecallEngine, where: dict, error: type,
                                                       message: str) -> None:
    with pytest.raises(error, match=message):
        eng.recall(Q, "u", where=where)
    with pytest.raises(error, match=message):
        eng.list("u", where=where)


def test_checked_time_filters_are_utc_strings_and_checking_again_changes_nothing() -> None:
    checked = check_where({"created_at": {"$gte": datetime(2026, 1, 1, 1, 0, tzinfo=timezone(timedelta(hours=1)))},
                           "valid_to": None})
    assert checked == {"created_at": {"$gte": "2026-01-01T00:00:00+00:00"}, "valid_to": {"$eq": None}}
    assert check_where(checked) == checked


def test_a_metadata_key_named_like_a_time_is_refused_so_where_only_ever_reads_the_fact_time(
    eng: RecallEngine
) -> None:
    with pytest.raises(ValueError, match=r"metadata #0 uses reserved key\(s\) \['created_at'\]"):
        eng.add("u", "User has a cat.", created_at=T0, metadata={"created_at": "1999-01-01T00:00:00Z"})
    assert eng.count("u") == 0
    eng.add("u", "User has a cat.", created_at=T0)
    assert texts(eng.recall(Q, "u", where={"created_at": T0})) == ["User has a cat."]
