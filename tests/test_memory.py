"""The compact cache's columns, its registry bounded in bytes, and its snapshot file round trip."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.cache import EntityCache
from memori_core.facts import StoredFact
from memori_core.filters import matches
from memori_core.cache import entity as entity_mod
from memori_core.cache import entity_writes
from memori_core.cache.registry import DEFAULT_MAX_CACHED_BYTES, CacheRegistry
from memori_core.cache import snapshot_format
from memori_core.cache.snapshot_format import Expected, load_snapshot, write_snapshot
from memori_core.validate import iso_to_ts

from test_cache import PLAIN, STEMMED, World, assert_same, rebuild, snapshot
from test_snapshots import gaussian_embedder

OPEN = RecallConfig(gate="off")


# -- registry -----------------------------------------------------------------------


class Sized:
    def __init__(self, entity_id: str, size: int) -> None:
        self.entity_id, self.size = entity_id, size

    def nbytes(self) -> int:
        return self.size


def test_registry_evicts_least_recently_used_until_under_the_byte_bound() -> None:
    evicted: list[str] = []
    reg: CacheRegistry[Sized] = CacheRegistry(10, 100, on_evict=lambda c: evicted.append(c.entity_id))
    for name in ("a", "b", "c"):
        reg.put(Sized(name, 40))
    assert reg.entities() == ["b", "c"] and evicted == ["a"] and sum(reg.get(e).nbytes() for e in reg.entities()) == 80
    assert reg.get("b") is not None  # b is now the most recently used
    reg.put(Sized("d", 30))
    assert reg.entities() == ["b", "d"] and evicted == ["a", "c"]
    big = Sized("big", 500)
    reg.put(big)  # alone above the bound: kept, everything else evicted
    assert reg.entities() == ["big"] and evicted == ["a", "c", "b", "d"]
    assert reg.get("big") is big


def test_registry_bounds_entities_too_and_remeasures_grown_caches() -> None:
    reg: CacheRegistry[Sized] = CacheRegistry(2, None)
    for name in ("a", "b", "c"):
        reg.put(Sized(name, 10))
    assert reg.entities() == ["b", "c"]
    reg2: CacheRegistry[Sized] = CacheRegistry(10, 100)
    grows = Sized("grows", 10)
    reg2.put(grows)
    reg2.put(Sized("x", 10))
    grows.size = 95  # written in place since it was put
    reg2.put(Sized("y", 10))
    assert reg2.entities() == ["x", "y"]
    with pytest.raises(ValueError):
        CacheRegistry(1, -1)
    assert DEFAULT_MAX_CACHED_BYTES == 1 << 30


def test_engine_cache_is_bounded_in_bytes(tmp_path: Path) -> None:
    store = ChromaStore.in_memory()
    writer = RecallEngine(store=store, embedder=gaussian_embedder, config=OPEN)
    for name in ("a", "b", "c"):
        writer.add(name, [f"{name} fact number {i} about tea" for i in range(200)])
    probe = RecallEngine(store=store, embedder=gaussian_embedder, config=OPEN)
    probe.recall("tea", "a")
    one = probe._coord.caches.get("a").nbytes()  # type: ignore[union-attr]
    engine = RecallEngine(store=store, embedder=gaussian_embedder, config=OPEN, max_cached_bytes=int(2.5 * one))
    for name in ("a", "b", "c"):
        engine.recall("tea", name)
    assert engine._coord.caches.entities() == ["b", "c"]
    engine.recall("tea", "b")
    engine.recall("tea", "a")  # c is the least recently used now
    assert engine._coord.caches.entities() == ["b", "a"]
    unbounded = RecallEngine(store=store, embedder=gaussian_embedder, config=OPEN, max_cached_bytes=None)
    for name in ("a", "b", "c"):
        unbounded.recall("tea", name)
    assert len(unbounded._coord.caches) == 3


# -- compact cache --------------------------------------------------------------------


def random_writes(seed: int, steps: int = 200) -> tuple[EntityCache, dict[str, tuple[StoredFact, np.ndarray]]]:
    """A cache written in place (adds, replacements, sightings with new metadata and expiry, deletes)."""
    w = World(seed)
    cache = EntityCache("e")
    live: dict[str, tuple[StoredFact, np.ndarray]] = {}
    for step in range(steps):
        op = w.rng.random()
        if step == 3:
            cache.index(PLAIN)  # another analyzer's index, kept current too
            cache.matching_rows({"k": 1})  # a where filter's metadata column, kept current too
        if live and op < 0.15:
            victims = w.rng.sample(sorted(live), min(len(live), 2))
            cache.remove(victims)
            for fid in victims:
                del live[fid]
        elif live and op < 0.35:
            fid = w.rng.choice(sorted(live))
            old, vec = live[fid]
            seen = replace(
                old, times_seen=old.times_seen + 1, last_seen=f"2024-02-{w.rng.randint(1, 28):02d}T00:00:00+00:00",
                metadata={"k": w.rng.randint(0, 2)}, expires_at=w.rng.choice([None, "2000-01-01T00:00:00+00:00"]),
            )
            cache.update_seen([seen])
            live[fid] = (seen, vec)
        else:
            fact, vec = w.fact()
            fact = replace(fact, metadata={"k": w.rng.randint(0, 2), "tag": "x"})
            cache.upsert([fact], [vec])
            live[fact.id] = (fact, vec)
    return cache, live


def by_id(cache: EntityCache, rows: np.ndarray) -> set[str]:
    return {cache.facts[int(r)].id for r in rows}  # type: ignore[union-attr]


@pytest.mark.parametrize("seed", range(4))
def test_where_expiry_and_facts_after_in_place_writes_equal_a_fresh_load(seed: int) -> None:
    cache, live = random_writes(seed)
    fresh = rebuild(live, seed)
    assert_same(snapshot(cache), snapshot(fresh))
    now = time.time()
    assert by_id(cache, cache.expired_rows(now)) == by_id(fresh, fresh.expired_rows(now))
    for where in ({"k": 1}, {"k": {"$in": [0, 2]}}, {"tag": "x", "k": 0}, {"missing": None}):
        want = {fid for fid, (f, _) in live.items() if matches(f.metadata, where)}
        assert by_id(cache, cache.matching_rows(where)) == want == by_id(fresh, fresh.matching_rows(where))
    for fid, (fact, _) in live.items():
        assert cache.facts[cache.pos[fid]] == fact


def test_pool_facts_keep_what_the_rows_held_when_taken() -> None:
    w = World(21)
    cache = EntityCache("e")
    batch = [w.fact(session="s") for _ in range(5)]
    cache.upsert([f for f, _ in batch], [v for _, v in batch])
    rows = np.array([cache.pos[f.id] for f, _ in batch])
    pool = cache.pool_facts(rows)
    before = [pool[i] for i in range(len(pool))]
    cache.update_seen([replace(batch[0][0], times_seen=9, metadata={"new": True})])
    cache.remove([batch[1][0].id])
    for _ in range(300):  # enough dead rows and appends to compact and regrow everything
        f, v = w.fact()
        cache.upsert([f], [v])
        cache.remove([f.id])
    assert [pool[i] for i in range(len(pool))] == before == [f for f, _ in batch]
    assert cache.facts[cache.pos[batch[0][0].id]].times_seen == 9


def test_many_sightings_fold_into_the_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(entity_writes, "_FOLD_MIN", 8)
    w = World(22)
    cache = EntityCache("e")
    batch = [w.fact() for _ in range(40)]
    cache.upsert([f for f, _ in batch], [v for _, v in batch])
    seen = [replace(f, times_seen=3, metadata={"n": i}, last_seen="2025-01-01T00:00:00+00:00") for i, (f, _) in enumerate(batch)]
    cache.update_seen(seen)
    assert not cache.overrides  # folded into the string columns
    assert [cache.facts[cache.pos[f.id]] for f in seen] == seen


def test_list_orders_by_created_then_seq_like_a_sort_of_the_facts() -> None:
    rng = random.Random(5)
    store = ChromaStore.in_memory()
    engine = RecallEngine(store=store, embedder=gaussian_embedder, config=OPEN)
    stamps = [f"2024-03-0{rng.randint(1, 3)}T00:00:00+00:00" for _ in range(60)]
    engine.add("u", [f"fact {i}" for i in range(60)], created_at=stamps, session_id=[rng.choice(["a", "b"]) for _ in range(60)])
    facts = engine.list("u", limit=1000)
    assert facts == sorted(facts, key=lambda f: (iso_to_ts(f.created_at), f.seq), reverse=True)
    oldest = engine.list("u", limit=1000, newest_first=False)
    assert oldest == facts[::-1]
    page = engine.list("u", limit=7, offset=10, session_id="a")
    assert page == [f for f in facts if f.session_id == "a"][10:17]
    assert engine.list("u", session_id="never") == []


def test_store_rows_are_columns_with_facts_built_on_request() -> None:
    store = ChromaStore.in_memory()
    engine = RecallEngine(store=store, embedder=gaussian_embedder, config=OPEN)
    engine.add("u", ["User likes tea", "User hikes"], ids=["t", "h"], metadata=[{"a": 1}, None], session_id="s",
               expires_at="2999-01-01T00:00:00+00:00")
    engine.update("u", "t", metadata={"a": 2})
    rows = store.load_entity("u")
    cols = rows.columns
    assert sorted(cols.ids) == ["h", "t"] and cols.embeddings[0].dtype == np.float32
    facts = {f.id: f for f in rows.facts}
    assert facts == {f.id: f for f in engine.get("u", ["t", "h"])}
    assert facts["t"].metadata == {"a": 2} and facts["t"].updated_at and facts["h"].metadata == {}
    assert len(rows.embeddings) == 2 and rows.embeddings[0].shape == (32,)


# -- snapshot round trip ----------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_snapshot_of_an_in_place_written_cache_loads_as_a_fresh_load(tmp_path: Path, seed: int) -> None:
    cache, live = random_writes(seed, steps=400)
    cache.revision = "rev-1"
    path = tmp_path / "e.snap"
    write_snapshot(path, cache.canonical(), "coll")
    snap = load_snapshot(path, Expected("e", "rev-1", "coll"))
    assert snap.key == cache.key
    loaded = EntityCache.from_columns("e", "rev-1", snap.loaded, snap.key, forward=snap.forward, index=snap.index)
    assert loaded.is_canonical() and not loaded.matrix.flags.writeable  # a view of the file
    fresh = rebuild(live, seed)
    assert_same(snapshot(loaded), snapshot(fresh))
    assert_same(snapshot(loaded), snapshot(cache))
    now = time.time()
    assert by_id(loaded, loaded.expired_rows(now)) == by_id(fresh, fresh.expired_rows(now))
    # Writes to a cache loaded from a snapshot copy its arrays first, then go on incrementally.
    w = World(100 + seed)
    extra = [w.fact() for _ in range(30)]
    for c in (loaded, fresh):
        c.upsert([f for f, _ in extra], [v for _, v in extra])
        c.remove([next(iter(live))])
    assert loaded.matrix.flags.writeable
    assert_same(snapshot(loaded), snapshot(fresh))
    for other in (Expected("e", "rev-2", "coll"), Expected("x", "rev-1", "coll"), Expected("e", "rev-1", "other")):
        with pytest.raises(ValueError):
            load_snapshot(path, other)


def _plain_cache(n: int = 300, seed: int = 5) -> EntityCache:
    """A canonical cache of facts with no metadata, update or expiry, each seen once."""
    w = World(seed)
    made = [w.fact() for _ in range(n)]
    cache = EntityCache("e", "r")
    cache.upsert([f for f, _ in made], [v for _, v in made])
    return cache.canonical()


def _load(path: Path, **kw: Any) -> tuple[Any, EntityCache]:
    snap = load_snapshot(path, Expected("e", "r", "c"), **kw)
    return snap, EntityCache.from_columns("e", "r", snap.loaded, snap.key, forward=snap.forward, index=snap.index)


def test_snapshot_leaves_out_zero_arrays_and_writes_equal_arrays_once(tmp_path: Path) -> None:
    cache = _plain_cache()
    path = tmp_path / "e.snap"
    write_snapshot(path, cache, "c")
    header, _ = snapshot_format.read_header(path)
    table = header["arrays"]
    # No fact has a last sighting, an update or an expiry: those offsets are all zero and not stored ...
    assert [table[f"{c}.off"][2] for c in ("last_seen", "updated", "expiry")] == [-1, -1, -1]
    # ... and their (equal) None masks are written once.
    assert table["last_seen.none"][2] == table["updated.none"][2] == table["expiry.none"][2] >= 0
    assert table["texts.off"][0] == "<u4" and table["ids.off"][0] == "<u4"
    assert header["data_size"] < sum(entry[3] for entry in table.values())
    _, loaded = _load(path)
    assert [loaded.facts[r] for r in range(loaded.n_rows)] == [cache.facts[r] for r in range(cache.n_rows)]
    assert_same(snapshot(loaded), snapshot(cache))


def test_texts_of_nul_characters_round_trip(tmp_path: Path) -> None:
    """A string buffer of zero bytes is still written (only zero offsets and masks are left out)."""
    w = World(3)
    made = [w.fact() for _ in range(40)]
    facts = [replace(f, content="\x00" * 8) for f, _ in made]
    cache = EntityCache("e", "r")
    cache.upsert(facts, [v for _, v in made])
    write_snapshot(tmp_path / "e.snap", cache.canonical(), "c")
    _, loaded = _load(tmp_path / "e.snap")
    assert [loaded.facts[r].content for r in range(loaded.n_rows)] == ["\x00" * 8] * 40  # type: ignore[union-attr]


@pytest.mark.parametrize("chunk", [64, 1 << 18])
def test_bounds_gathered_while_checksumming_give_the_same_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    """Offsets, term ids and token counts are checked from the CRC pass's buffer, also when every array
    spans many reads (64-byte reads)."""
    monkeypatch.setattr(snapshot_format, "_CHUNK", chunk)
    cache, live = random_writes(7, steps=300)
    cache.revision = "r"
    write_snapshot(tmp_path / "e.snap", cache.canonical(), "c")
    _, loaded = _load(tmp_path / "e.snap")
    assert_same(snapshot(loaded), snapshot(rebuild(live, 7)))


def _spoil(name: str, a: np.ndarray) -> np.ndarray:
    a = a.copy()
    if name == "texts.off":
        a[len(a) // 2] = a[-1] + 1  # offsets going back down after this row
    elif name == "doc_terms":
        a[-1] = 10_000  # a term id past the vocabulary
    else:  # post_rows
        a[0] = -1
    return a


@pytest.mark.parametrize("chunk", [64, 1 << 18])
@pytest.mark.parametrize(
    ("name", "why"), [("texts.off", "string offsets of texts"), ("doc_terms", "token arrays"), ("post_rows", "token arrays")]
)
def test_a_snapshot_with_an_array_out_of_bounds_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, why: str, chunk: int
) -> None:
    """The file is intact (its CRC is of the bad bytes): only the bounds checks can refuse it."""
    real = snapshot_format.snapshot_arrays

    def spoiled(cache: EntityCache) -> dict[str, np.ndarray]:
        out = real(cache)
        out[name] = _spoil(name, out[name])
        return out

    monkeypatch.setattr(snapshot_format, "snapshot_arrays", spoiled)
    monkeypatch.setattr(snapshot_format, "_CHUNK", chunk)
    write_snapshot(tmp_path / "e.snap", _plain_cache(), "c")
    with pytest.raises(snapshot_format.SnapshotError, match=why):
        load_snapshot(tmp_path / "e.snap", Expected("e", "r", "c"))


def test_rows_read_after_the_snapshot_file_is_replaced_are_the_loaded_ones(tmp_path: Path) -> None:
    """The file is read once, at load: a write that deletes it and a later snapshot renamed over the path
    change nothing for a cache already loaded, and no file is held open."""
    path = tmp_path / "e.snap"
    cache = _plain_cache(seed=1)
    write_snapshot(path, cache, "c")
    _, loaded = _load(path)
    path.unlink()
    write_snapshot(tmp_path / "next.snap", _plain_cache(seed=2), "c")
    (tmp_path / "next.snap").rename(path)
    assert [loaded.facts[r] for r in range(loaded.n_rows)] == [cache.facts[r] for r in range(cache.n_rows)]
    assert isinstance(loaded.columns.texts.raw, bytes)


def test_snapshot_of_an_empty_cache_round_trips(tmp_path: Path) -> None:
    cache = EntityCache("e", "r")
    write_snapshot(tmp_path / "e.snap", cache, "c")
    snap = load_snapshot(tmp_path / "e.snap", Expected("e", "r", "c"))
    loaded = EntityCache.from_columns("e", "r", snap.loaded, snap.key, forward=snap.forward, index=snap.index)
    assert len(loaded) == 0 and loaded.n_rows == 0
    w = World(1)
    f, v = w.fact()
    loaded.upsert([f], [v])
    assert loaded.facts[0] == f and loaded.dim == v.shape[0]


def test_default_key_is_the_config_default() -> None:
    cfg = RecallConfig()
    assert entity_mod.DEFAULT_KEY == (cfg.tokenizer, cfg.stemmer)
    cache = EntityCache("e")
    assert cache.index(STEMMED) is cache.lexicon and cache.index(PLAIN) is not cache.lexicon
