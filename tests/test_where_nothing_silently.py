"""A ``where`` filter that could only match nothing raises a ``ValueError`` naming the key and what ``where``
filters on, instead of returning ``[]`` (tester j10's finding 7): a near miss of a fact's time (``create_at``,
``createdAt``), a field of the fact ``where`` does not filter on (``expires_at``, ``last_seen``), equality with a
date alone, and a ``valid_to`` condition no valid fact meets in a call that reads only valid facts. A user's own
metadata keys, however named, still filter (``$metadata`` for one named like a fact's time). Real Chroma (an
embedded folder), the real LangGraph store and the ``memori`` command."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from _cli import hash_embedder_for_the_cli, run, usage_error  # noqa: F401  (the fixture is autouse)
from _helpers import HashEmbedder
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_langchain import MemoriStore

T0 = datetime(2026, 10, 5, 8, 0, tzinfo=timezone.utc)
Q = "user lives home"


def texts(facts: Any) -> list[str]:
    return sorted(f.content for f in facts)


@pytest.fixture
def eng(tmp_path: Path) -> Iterator[RecallEngine]:
    """Leeds (T0) superseded by York (T0 + 21 days, 18:00), and a stay in Rome with metadata of the user's own."""
    store = ChromaStore(path=tmp_path / "mem")
    engine = RecallEngine(store=store, embedder=HashEmbedder(), config=RecallConfig(gate="off"))
    [leeds] = engine.add("a", "User lives in Leeds.", created_at=T0)
    engine.add("a", "User lives in York.", supersedes=[leeds], created_at=T0 + timedelta(days=21, hours=10))
    engine.add("a", "User is in Rome this week.", created_at=T0 + timedelta(days=22), expires_at=timedelta(days=3),
               metadata={"createdAt": "crm", "created_by": "admin", "treated_at": "clinic", "valid_until": "2027"})
    yield engine
    store.close()


@pytest.mark.parametrize(("key", "meant"), [
    ("create_at", "created_at"), ("createdAt", "created_at"), ("cretaed_at", "created_at"),
    ("valid-to", "valid_to"), ("validFrom", "valid_from"), ("expiresAt", "expires_at"), ("lastSeen", "last_seen"),
])
def test_a_near_miss_of_a_facts_time_is_refused_naming_the_time_meant(eng: RecallEngine, key: str,
                                                                      meant: str) -> None:
    where = {key: {"$gte": "2026-10-01T00:00:00Z"}}
    says = (rf"^where\['{key}'\]: no fact time is called '{key}'; did you mean '{meant}'\? where filters on the "
            r"fact's created_at, valid_from, valid_to, and on your own metadata keys \(one of yours called "
            rf"'{key}': \{{'\$metadata': \{{'{key}': \.\.\.\}}\}}\)$")
    with pytest.raises(ValueError, match=says):
        eng.list("a", where=where)
    with pytest.raises(ValueError, match=says):
        eng.recall(Q, "a", where=where)


@pytest.mark.parametrize("key", ["expires_at", "last_seen", "updated_at", "times_seen", "session_id"])
def test_a_field_of_the_fact_where_does_not_filter_on_is_refused(eng: RecallEngine, key: str) -> None:
    with pytest.raises(ValueError, match=rf"^where\['{key}'\]: '{key}' is a field of the fact that where does not "
                                         r"filter on .* where filters on the fact's created_at, valid_from, valid_to"):
        eng.list("a", where={key: {"$gt": "2026-01-01T00:00:00Z"}})


@pytest.mark.parametrize(("key", "value", "instead"), [
    ("entity_id", "a", r"name the entity in the call"),
    ("entity_id", {"$ne": "a"}, r"name the entity in the call"),  # read as metadata, it kept every fact of "a"
    ("id", "some-id", r"get\(entity_id, ids\) reads facts by id"),
    ("content", "User lives in York.", r"recall\(query, entity_id\) finds facts by what they say"),
])
def test_a_filter_on_the_facts_own_id_entity_or_text_is_refused_saying_what_to_use(
        eng: RecallEngine, key: str, value: Any, instead: str) -> None:
    says = rf"^where\['{key}'\]: '{key}' is a field of the fact, not metadata, .*{instead}"
    with pytest.raises(ValueError, match=says):
        eng.list("a", where={key: value})
    with pytest.raises(ValueError, match=says):
        eng.recall(Q, "a", where={key: value})
    store = MemoriStore(engine=eng)  # the LangGraph store's filters are on its items' own values: taken as they are
    store.put(("memories", "a"), "n1", {"id": "x", "content": "y"})
    assert [item.key for item in store.search(("memories", "a"), filter={"id": "x", "content": "y"})] == ["n1"]


def test_session_id_points_at_lists_own_argument(eng: RecallEngine) -> None:
    with pytest.raises(ValueError, match=r"list\(\.\.\., session_id=\.\.\.\) narrows to one session"):
        eng.list("a", where={"session_id": "s-1"})


def test_the_users_own_keys_filter_as_before_and_one_named_like_a_time_under_metadata(eng: RecallEngine) -> None:
    rome = ["User is in Rome this week."]
    for key, value in [("created_by", "admin"), ("treated_at", "clinic"), ("valid_until", "2027")]:
        assert texts(eng.list("a", where={key: value})) == rome, key  # near, but not a slip of a fact's time
        assert texts(eng.list("a", where={key: "other"})) == [], key
    assert texts(eng.list("a", where={"$metadata": {"createdAt": "crm"}})) == rome
    assert texts(eng.recall(Q, "a", where={"$metadata": {"createdAt": {"$in": ["crm", "x"]}},
                                           "created_at": {"$gte": T0 + timedelta(days=1)}})) == rome
    assert texts(eng.list("a", where={"$metadata": {"createdAt": "other"}})) == []
    with pytest.raises(TypeError, match=r"^where\['\$metadata'\] must be a non-empty dict"):
        eng.list("a", where={"$metadata": {}})


def test_equality_with_a_date_alone_is_refused_with_the_days_range(eng: RecallEngine) -> None:
    for cond in ("2026-10-26", {"$eq": "2026-10-26"}, {"$ne": "2026-10-26"}):
        with pytest.raises(ValueError, match=r"^where\['created_at'\].* is the date '2026-10-26': equality compares "
                                             r"one instant .*\{'\$gte': '2026-10-26T00:00:00Z', '\$lt': "
                                             r"'2026-10-27T00:00:00Z'\}"):
            eng.list("a", where={"created_at": cond})
    day = {"$gte": "2026-10-26T00:00:00Z", "$lt": "2026-10-27T00:00:00Z"}  # the range the error gives
    assert texts(eng.list("a", where={"created_at": day}, include_invalid=True)) == ["User lives in York."]


def test_a_valid_to_condition_no_valid_fact_meets_needs_include_invalid_or_as_of(eng: RecallEngine) -> None:
    for cond in ({"$lte": "2026-12-31T00:00:00Z"}, {"$ne": None}, "2026-10-26T18:00:00Z"):
        with pytest.raises(ValueError, match=r"^where\['valid_to'\] .* keeps only facts no longer valid .* which "
                                             r"list leaves out: pass include_invalid=True \(memori list --all\)"):
            eng.list("a", where={"valid_to": cond})
        with pytest.raises(ValueError, match=r"which recall leaves out: pass as_of="):
            eng.recall(Q, "a", where={"valid_to": cond})
        assert texts(eng.list("a", where={"valid_to": cond}, include_invalid=True)) == ["User lives in Leeds."]
    then = T0 + timedelta(days=10)
    assert texts(eng.recall(Q, "a", where={"valid_to": {"$lte": "2026-12-31T00:00:00Z"}}, as_of=then)) == [
        "User lives in Leeds."]
    # Conditions a valid fact meets read as before.
    assert texts(eng.list("a", where={"valid_to": None})) == ["User is in Rome this week.", "User lives in York."]
    assert "User lives in York." in texts(eng.recall(Q, "a", where={"valid_to": {"$gt": T0}}))


def test_the_langgraph_stores_filters_read_the_items_own_fields_as_they_are() -> None:
    store = MemoriStore(RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder()),
                        namespace=("memories", "{user_id}"))
    store.put(("memories", "a"), "k", {"content": "User likes tea.", "createdAt": "crm", "expires_at": "x"})
    found = store.search(("memories", "a"), filter={"createdAt": "crm", "expires_at": "x"})
    assert [i.key for i in found] == ["k"]


def test_the_cli_names_a_near_miss_key_of_list_where(tmp_path: Path, capsys) -> None:
    folder = str(tmp_path / "mem")
    assert run(["add", "-e", "a", "--path", folder, "User lives in Leeds."], capsys)[0] == 0
    err = usage_error(["list", "-e", "a", "--path", folder, "--where", '{"createdAt": {"$gte": "2026-01-01"}}'],
                      capsys)
    assert "argument --where: where['createdAt']: no fact time is called 'createdAt'; did you mean 'created_at'?" in err
    code, _, err = run(["list", "-e", "a", "--path", folder, "--where", '{"valid_to": {"$ne": null}}'], capsys)
    assert code == 2 and "pass include_invalid=True (memori list --all)" in err
