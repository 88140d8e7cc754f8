"""Every store passes the protocol suite (tests/store_conformance.py), and an engine over the reference store
answers as one over Chroma."""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from _helpers import HashEmbedder
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.store import FactStore, InMemoryFactStore
from memori_core.store.base import RowStore
from store_conformance import InjectedFault, StoreConformance

# -- the suite, once per store ----------------------------------------------------------

_CHROMA_METHOD = {"upsert": "upsert", "update_seen": "update", "delete": "delete"}


class _FailingCollection:
    """A real Chroma collection whose ``method`` raises, before doing anything, for a batch holding ``fact_id``."""

    def __init__(self, collection: Any, method: str, fact_id: str) -> None:
        self._collection, self._method, self._fact_id = collection, method, fact_id

    def __getattr__(self, name: str) -> Any:
        real = getattr(self._collection, name)
        if name != self._method:
            return real

        def call(**kwargs: Any) -> Any:
            if any(i.endswith(f":{self._fact_id}") for i in kwargs.get("ids") or ()):
                raise InjectedFault(f"{name} of a batch holding {self._fact_id} failed")
            return real(**kwargs)

        return call


class _ChromaConformance(StoreConformance):
    def fail_batches_holding(self, store: FactStore, op: str, fact_id: str) -> None:
        assert isinstance(store, ChromaStore)
        store._facts = _FailingCollection(store._facts, _CHROMA_METHOD[op], fact_id)  # noqa: SLF001


class TestChromaInMemory(_ChromaConformance):
    @pytest.fixture
    def store(self) -> Iterator[FactStore]:
        store = ChromaStore.in_memory()
        yield store
        store.close()


class TestChromaInMemoryShared(_ChromaConformance):
    """The shared path (a server's: version slots, write intents) on a real in-memory Chroma collection."""

    @pytest.fixture
    def store(self) -> Iterator[FactStore]:
        store = ChromaStore.in_memory()
        store.shared = True
        yield store
        store.close()


class TestChromaEmbedded(_ChromaConformance):
    @pytest.fixture
    def store(self, tmp_path: Path) -> Iterator[FactStore]:
        store = ChromaStore(path=tmp_path / "db")
        yield store
        store.close()

    def test_when_a_user_was_forgotten_is_still_known_after_the_folder_is_reopened(self, tmp_path: Path) -> None:
        store = ChromaStore(path=tmp_path / "db")
        store.forget("u")
        at = store.forgotten_at("u")
        store.close()
        again = ChromaStore(path=tmp_path / "db")
        try:
            assert at is not None and again.forgotten_at("u") == at
        finally:
            again.close()

    def test_the_cache_folder_is_the_collections_folder_under_snapshots(self, store: FactStore) -> None:
        assert isinstance(store, ChromaStore) and store.cache_folder is not None
        collection_id = str(store._facts.id)  # noqa: SLF001
        assert store.cache_folder.collection_id == collection_id
        assert store.cache_folder.path == Path(store.location).resolve() / "snapshots" / collection_id


class TestInMemoryFactStore(StoreConformance):
    @pytest.fixture
    def store(self) -> Iterator[FactStore]:
        store = InMemoryFactStore()
        yield store
        store.close()

    def fail_batches_holding(self, store: FactStore, op: str, fact_id: str) -> None:
        assert isinstance(store, InMemoryFactStore)

        def before_batch(batch_op: str, entity_id: str, ids: Any) -> None:
            if batch_op == op and fact_id in ids:
                raise InjectedFault(f"{op} of a batch holding {fact_id} failed")

        store.before_batch = before_batch  # type: ignore[method-assign,assignment]

    def test_each_store_is_separate(self, store: FactStore) -> None:
        from store_conformance import fact, vectors

        store.upsert("u", [fact("a")], vectors(1))
        store.bump_revision("u")
        other = InMemoryFactStore()
        assert other.count("u") == 0 and other.revision("u") is None and other.dimension() is None

    def test_a_fact_of_another_entity_or_a_repeated_id_is_refused_before_anything_is_written(
        self, store: FactStore
    ) -> None:
        from store_conformance import fact, vectors

        with pytest.raises(ValueError, match="entity"):
            store.upsert("u", [fact("a"), fact("b", "v")], vectors(2))
        with pytest.raises(ValueError, match="twice"):
            store.upsert("u", [fact("a"), fact("a")], vectors(2))
        assert store.count("u") == 0 and store.dimension() is None


class _RowsOnly(RowStore):
    """A store subclassing only the row protocol: it inherits ``upsert`` and writes in ``_write_rows``."""

    def __init__(self) -> None:
        self.rows: dict[str, Any] = {}

    def _write_rows(self, entity_id: str, facts: Any, embeddings: Any, progress: Any) -> None:
        self.rows.update({f.id: f for f in facts})


def test_a_store_subclassing_only_the_row_protocol_inherits_a_working_upsert() -> None:
    from store_conformance import fact, vectors

    store = _RowsOnly()
    store.upsert("u", [fact("a")], vectors(1))
    assert list(store.rows) == ["a"]
    with pytest.raises(ValueError, match="2 facts but 1 embeddings"):
        store.upsert("u", [fact("b"), fact("c")], vectors(1))
    assert list(store.rows) == ["a"]


def test_the_reference_store_needs_no_chroma() -> None:
    import ast

    import memori_core.store.in_memory as module

    tree = ast.parse(Path(module.__file__).read_text())
    imported = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert not {m for m in imported if "chroma" in m}, imported


# -- an engine over each store ----------------------------------------------------------------

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=timezone.utc)
TEXTS = [
    "User likes green tea in the morning.", "User plays the cello on weekends.", "User lives in Lisbon.",
    "User is allergic to peanuts.", "User's dog is called Miso.", "User prefers window seats on flights.",
    "User runs ten kilometres on Sundays.", "User works as a nurse at night.", "User collects old maps.",
    "User drinks coffee after lunch.", "User learns Japanese on the train.", "User's sister lives in Kyoto.",
    "User dislikes loud restaurants.", "User bakes sourdough bread.", "User reads science fiction at night.",
]
QUERIES = ["tea or coffee", "music on weekends", "where does the user live", "food allergy", "the dog",
           "night shift", "Japan and Kyoto", "bread"]
# Fields that hold the time of a write (or a nanosecond clock): the same step on two engines differs in them.
CLOCK_FIELDS = {"seq", "last_seen", "updated_at", "valid_from", "valid_to"}


def _plain(value: Any) -> Any:
    """``value`` with objects turned into dicts of their fields, clock fields left out."""
    if hasattr(value, "__dataclass_fields__"):
        value = {k: getattr(value, k) for k in value.__dataclass_fields__ if k != "embedding"}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if k not in CLOCK_FIELDS}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _assert_same(a: Any, b: Any, where: str = "") -> None:
    """Equal, floats to 1e-6."""
    if isinstance(a, float) and isinstance(b, float):
        assert math.isclose(a, b, rel_tol=0, abs_tol=1e-6) or (math.isnan(a) and math.isnan(b)), where
    elif isinstance(a, dict) and isinstance(b, dict):
        assert list(a) == list(b), where
        for k in a:
            _assert_same(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list) and isinstance(b, list):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            _assert_same(x, y, f"{where}[{i}]")
    else:
        assert a == b, where


def _answers(engine: RecallEngine, entity: str) -> dict[str, Any]:
    """What a caller sees of ``entity``: recalls (with and without a filter), explain reports, pages, counts."""
    out: dict[str, Any] = {"count": engine.count(entity)}
    out["recall"] = [engine.recall(q, entity, 6) for q in QUERIES]
    out["where"] = [engine.recall(q, entity, 6, where={"topic": "food"}) for q in QUERIES[:4]]
    reports = [engine.explain(q, entity, 6) for q in QUERIES[:4]]
    out["explain"] = [(r.pool_size, r.rows_scored, r.candidates) for r in reports]
    out["list"] = engine.list(entity, limit=8, offset=2)
    out["export"] = engine.export(entity, include_vectors=True)
    return _plain(out)


def _write_beside(engine: RecallEngine, config: RecallConfig) -> dict[str, Any]:
    """Another engine over the same store writes after ``engine`` loaded its copy, then ``engine`` writes: its copy
    must not just replay its own write (the revision commit says it was not the only change)."""
    engine.recall("tea", "u")
    other = RecallEngine(store=engine.store, embedder=HashEmbedder(), config=config)
    other.add("u", ["User adopted a cat named Tofu."], ids=["cat"], created_at=T0 + timedelta(days=50))
    engine.add("u", ["User bought a tea kettle."], ids=["kettle"], created_at=T0 + timedelta(days=51))
    return _answers(engine, "u")


@pytest.mark.parametrize("config", [RecallConfig(), RecallConfig(gate="off")], ids=["gated", "open"])
def test_an_engine_over_the_reference_store_answers_as_one_over_chroma(config: RecallConfig) -> None:
    engines = [RecallEngine(store=store, embedder=HashEmbedder(), config=config)
               for store in (InMemoryFactStore(), ChromaStore.in_memory())]

    def both(step: Any, what: str) -> None:
        reference, chroma = (_plain(step(e)) for e in engines)
        _assert_same(reference, chroma, what)

    topics = ["food", "music", "place", "food", "pets"]
    both(lambda e: e.add("u", TEXTS, created_at=[T0 + timedelta(days=i) for i in range(len(TEXTS))],
                         metadata=[{"topic": topics[i % 5], "rank": i} for i in range(len(TEXTS))],
                         session_id=[None if i % 4 == 0 else f"s{i // 5}" for i in range(len(TEXTS))]), "add")
    both(lambda e: _answers(e, "u"), "after add")
    both(lambda e: e.add("u", [TEXTS[0].lower(), TEXTS[3]], created_at=T0), "sightings")
    both(lambda e: e.add("u", ["User moved to Porto."], ids=["moved"], created_at=T0 + timedelta(days=40),
                         supersedes=[e.recall("where does the user live", "u", 1)[0].id]), "superseding add")
    both(lambda e: e.update("u", "moved", text="User moved to Porto last spring.").content, "text update")
    both(lambda e: e.update("u", "moved", metadata={"topic": "place", "checked": True}).metadata, "metadata update")
    both(lambda e: e.delete("u", [f.id for f in e.list("u", limit=3, newest_first=False)]), "delete")
    both(lambda e: _answers(e, "u"), "after writes")
    both(lambda e: _answers(RecallEngine(store=e.store, embedder=HashEmbedder(), config=config), "u"),
         "a fresh engine over the same store")
    both(lambda e: _write_beside(e, config), "a second engine's write between two of the first's")
    both(lambda e: e.import_("v", e.export("u", include_vectors=True)), "import")
    both(lambda e: _answers(e, "v"), "after import")
    both(lambda e: (e.forget("u"), e.count("u"), e.recall("tea", "u"), e.count("v")), "forget")
    assert engines[0].count("v") == len(TEXTS) - 1  # 15 added, 1 superseded (kept, invalid), 3 deleted, 3 more added
