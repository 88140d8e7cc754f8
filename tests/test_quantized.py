"""The 8-bit copy of a large memory (memori_core/cache/quantized.py), with the real FAISS.

Its candidates are re-scored exactly and an error bound widens the search
until they provably hold the exact dense pool, so:

- alone, :meth:`QuantizedMatrix.top` returns what ``dense_top(matrix[rows] @ q, k, rows)``
  returns, over many queries, with deleted rows, subsets, appended rows,
  duplicate rows and odd dimensions;
- in the engine, a recall that goes through it returns the answers of the
  exact scan over the same cache (ids and order; scores to float32 rounding),
  with sessions, ``where`` filters, expiry and ``dense_limit``, and after adds,
  deletes, updates and compaction.

Speed is measured by benchmarks/bench_quantized.py, never asserted here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from _helpers import TextVectorEmbedder
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.cache import quantized as qmod
from memori_core.ranking.dense import l2_normalise
from memori_core.ranking.pipeline import dense_top
from memori_core.cache.quantized import QuantizedMatrix, worth_searching

pytestmark = pytest.mark.skipif(qmod._faiss() is None, reason="the installed FAISS cannot hold the 8-bit copy")

ENTITY = "big"


def clustered(rng: np.random.Generator, n: int, d: int, centres: int = 40, spread: float = 0.6) -> np.ndarray:
    """Normalised rows around a few centres (dense neighbourhoods, as real memories have)."""
    c = rng.standard_normal((centres, d)).astype(np.float32)
    rows = c[rng.integers(0, centres, n)] + spread * rng.standard_normal((n, d)).astype(np.float32)
    return l2_normalise(rows)


def queries(rng: np.random.Generator, m: np.ndarray, count: int) -> np.ndarray:
    """Queries near stored rows (the hard case: many rows close to the k-th score) and some random ones."""
    near = m[rng.integers(0, m.shape[0], count // 2)] + 0.3 * rng.standard_normal((count // 2, m.shape[1]))
    far = rng.standard_normal((count - count // 2, m.shape[1]))
    return l2_normalise(np.vstack([near, far]).astype(np.float32))


def exact(m: np.ndarray, q: np.ndarray, k: int, rows: np.ndarray | None = None, dead: np.ndarray | None = None):
    if rows is not None:
        return dense_top(m[rows] @ q, k, rows)
    cos = m @ q
    if dead is not None:
        cos[dead] = -np.inf
    return dense_top(cos, k)


@pytest.fixture
def narrow(monkeypatch: pytest.MonkeyPatch) -> None:
    """A first search of a few rows only: the bound then fails often and the search widens."""
    monkeypatch.setattr(qmod, "_MIN_CANDIDATES", 4)
    monkeypatch.setattr(qmod, "_PER_POOL_ROW", 1)


# -- the copy alone -------------------------------------------------------------------------


@pytest.mark.parametrize("k", [1, 5, 50, 200])
def test_pool_is_the_exact_pool_over_many_queries(k: int) -> None:
    rng = np.random.default_rng(k)
    m = clustered(rng, 6000, 64)
    qm = QuantizedMatrix.build(m)
    assert qm is not None and qm.n == 6000 and qm.nbytes >= 6000 * 64
    found = 0
    for q in queries(rng, m, 120):
        got = qm.top(m, q, k)
        if got is None:  # allowed (too many candidates needed), but rare here
            continue
        found += 1
        assert np.array_equal(got, exact(m, q, k))
    assert found >= 100


def test_widening_until_the_bound_proves_the_pool(narrow: None) -> None:
    rng = np.random.default_rng(1)
    m = clustered(rng, 8000, 32, centres=5, spread=0.3)  # crowded: many rows near the k-th score
    qm = QuantizedMatrix.build(m)
    searches: list[int] = []
    real = QuantizedMatrix._search

    def counting(self, qvec, want, params):  # type: ignore[no-untyped-def]
        searches.append(want)
        return real(self, qvec, want, params)

    QuantizedMatrix._search = counting  # type: ignore[method-assign]
    try:
        answered = 0
        for q in queries(rng, m, 80):
            got = qm.top(m, q, 20)
            if got is not None:
                answered += 1
                assert np.array_equal(got, exact(m, q, 20))
    finally:
        QuantizedMatrix._search = real  # type: ignore[method-assign]
    assert answered > 0
    assert len(searches) > 80  # some queries needed a second, wider search


def test_deleted_rows_are_never_in_the_pool() -> None:
    rng = np.random.default_rng(2)
    m = clustered(rng, 5000, 48)
    alive = np.ones(5000, dtype=bool)
    alive[rng.choice(5000, 1500, replace=False)] = False
    m[~alive] = 0.0  # as the cache keeps a deleted row
    qm = QuantizedMatrix.build(m, alive)
    assert qm.n_dead == 1500
    dead = np.flatnonzero(~alive)
    for q in queries(rng, m, 60):
        got = qm.top(m, q, 50)
        assert got is not None and not np.isin(got, dead).any()
        assert np.array_equal(got, exact(m, q, 50, dead=dead))
    # Deleted after the copy was made: sync zeroes their codes; a query right at a deleted row skips it.
    later = np.flatnonzero(alive)[:300]
    target = m[later[0]].copy()
    alive[later] = False
    m[later] = 0.0
    qm.sync(m, alive, int((~alive).sum()))
    assert qm.n_dead == 1800
    dead = np.flatnonzero(~alive)
    got = qm.top(m, target, 10)
    assert got is not None and later[0] not in got
    assert np.array_equal(got, exact(m, target, 10, dead=dead))


def test_deleted_rows_lose_even_to_negative_cosines() -> None:
    # Every live row has a negative cosine with these queries, a deleted (zero) row scores 0: it must still lose.
    rng = np.random.default_rng(12)
    m = l2_normalise(np.abs(clustered(rng, 4000, 32)))
    alive = np.ones(4000, dtype=bool)
    alive[::3] = False
    m[~alive] = 0.0
    qm = QuantizedMatrix.build(m, alive)
    dead = np.flatnonzero(~alive)
    for _ in range(10):
        q = l2_normalise(-np.abs(rng.standard_normal(32)).astype(np.float32))[0]
        got = qm.top(m, q, 40)  # the deleted rows fill every search that is worth it: left to the scan
        assert got is None or (not np.isin(got, dead).any() and np.array_equal(got, exact(m, q, 40, dead=dead)))
    # With more live rows the search widens past the deleted ones and the copy answers.
    big = l2_normalise(np.abs(clustered(rng, 20000, 32)))
    alive = np.ones(20000, dtype=bool)
    alive[rng.choice(20000, 500, replace=False)] = False
    big[~alive] = 0.0
    qm = QuantizedMatrix.build(big, alive)
    dead = np.flatnonzero(~alive)
    for _ in range(10):
        q = l2_normalise(-np.abs(rng.standard_normal(32)).astype(np.float32))[0]
        got = qm.top(big, q, 40)
        assert got is not None and not np.isin(got, dead).any()
        assert np.array_equal(got, exact(big, q, 40, dead=dead))


def test_subsets_in_row_order_and_in_any_order() -> None:
    rng = np.random.default_rng(3)
    m = clustered(rng, 7000, 40)
    qm = QuantizedMatrix.build(m)
    ascending = np.sort(rng.choice(7000, 4500, replace=False))
    by_recency = rng.permutation(ascending)  # recency order, as dense_limit gives it
    for rows in (ascending, by_recency):
        for q in queries(rng, m, 40):
            got = qm.top(m, q, 50, rows)
            assert got is not None and np.isin(got, rows).all()
            assert np.array_equal(got, exact(m, q, 50, rows))


def test_appended_rows_and_rows_beyond_the_scales() -> None:
    rng = np.random.default_rng(4)
    d = 32
    m = clustered(rng, 4000, d)
    qm = QuantizedMatrix.build(m)
    # New rows, some with a value larger than any the scales were measured on: kept as exceptions.
    extra = clustered(rng, 600, d)
    spikes = rng.choice(600, 40, replace=False)
    extra[spikes, rng.integers(0, d, 40)] = 3.0
    extra = l2_normalise(extra)
    both = np.vstack([m, extra])
    alive = np.ones(both.shape[0], dtype=bool)
    qm.sync(both, alive, 0)
    assert qm.n == 4600 and len(qm._exceptions) >= 1
    for q in list(queries(rng, both, 40)) + [both[4000 + int(s)] for s in spikes[:10]]:
        got = qm.top(both, q, 30)
        assert got is not None
        assert np.array_equal(got, exact(both, q, 30))
    assert not qm.stale
    # Many rows beyond the scales, or twice the rows: time for new scales.
    wide = l2_normalise(np.vstack([both, 5 * np.eye(d, dtype=np.float32)[rng.integers(0, d, 100)]
                                   + 0.01 * rng.standard_normal((100, d)).astype(np.float32)]))
    qm.sync(wide, np.ones(wide.shape[0], dtype=bool), 0)
    assert qm.stale
    doubled = np.vstack([wide, clustered(rng, 5000, d)])
    fresh = QuantizedMatrix.build(m)
    fresh.sync(doubled, np.ones(doubled.shape[0], dtype=bool), 0)
    assert fresh.stale


@pytest.mark.parametrize("d", [1, 2, 3, 7, 16, 17, 100, 384, 1100])
def test_dimensions(d: int) -> None:
    rng = np.random.default_rng(d)
    m = clustered(rng, 3000, d, spread=1.0)
    qm = QuantizedMatrix.build(m)
    answered = 0
    for q in queries(rng, m, 30):
        got = qm.top(m, q, 10)
        if got is not None:  # d = 1: every row is +-1, the bound never separates ties: scanned instead
            answered += 1
            assert np.array_equal(got, exact(m, q, 10))
    if d >= 3:
        assert answered == 30


def test_a_dimension_that_is_zero_in_every_row() -> None:
    rng = np.random.default_rng(5)
    m = clustered(rng, 3000, 24)
    m[:, 7] = 0.0
    m = l2_normalise(m)
    qm = QuantizedMatrix.build(m)
    for q in queries(rng, m, 20):
        assert np.array_equal(qm.top(m, q, 10), exact(m, q, 10))


def test_duplicate_rows_tie_as_the_scan_ties_them() -> None:
    rng = np.random.default_rng(6)
    base = clustered(rng, 1500, 32)
    m = np.ascontiguousarray(np.vstack([base, base[::-1], base]))  # every row three times
    qm = QuantizedMatrix.build(m)
    for q in queries(rng, m, 30):
        got = qm.top(m, q, 25)  # 25: a triple is often cut at the boundary
        assert got is not None
        want = exact(m, q, 25)
        assert np.array_equal(np.sort(m[got] @ q), np.sort(m[want] @ q))  # the same scores...
        assert np.array_equal(got, want)  # ...and the same rows: ties go to the lower row


def test_too_many_candidates_is_left_to_the_scan() -> None:
    rng = np.random.default_rng(7)
    m = clustered(rng, 2000, 16)
    qm = QuantizedMatrix.build(m)
    assert not worth_searching(500, 2000)
    assert qm.top(m, m[0], 500) is None
    assert worth_searching(50, 2000) and qm.top(m, m[0], 50) is not None
    assert qm.top(m, m[0], 0).size == 0


# -- the engine -----------------------------------------------------------------------------

WORDS = [f"w{i}" for i in range(150)]


class TopicEmbedder(TextVectorEmbedder):
    """A vector per word (seeded by the word), summed, plus a little noise per text: texts sharing
    words are near each other, as with a real model, and nothing is random between runs."""

    name = "topic-embedder"

    def __init__(self, dim: int = 48) -> None:
        self.dim = dim

    def _seeded(self, text: str) -> np.random.Generator:
        return np.random.default_rng(int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little"))

    def _vec(self, text: str) -> np.ndarray:
        v = 0.3 * self._seeded("noise:" + text).standard_normal(self.dim)
        for w in text.split():
            v += self._seeded(w.strip(".?")).standard_normal(self.dim)
        return v.astype(np.float32)


FAST = RecallConfig(quantized_above=1000)
EXACT = FAST.replace(quantized_above=None)


def fact_text(rng: np.random.Generator) -> str:
    return " ".join(WORDS[int(i)] for i in rng.integers(0, len(WORDS), 4)) + "."


def fill(engine: RecallEngine, n: int, seed: int = 0, entity: str = ENTITY, *, expiring: int = 0) -> list[str]:
    rng = np.random.default_rng(seed)
    texts = [f"{fact_text(rng)[:-1]} n{i}." for i in range(n)]
    ids = [f"f{seed}-{i}" for i in range(n)]
    meta = [{"topic": WORDS[i % 7], "n": i} for i in range(n)]
    sessions = [f"s{seed}-{i // 12}" if i % 5 else None for i in range(n)]
    expires = [timedelta(seconds=-1) if i < expiring else None for i in range(n)]
    # an expired fact was stated before it expired (add refuses an expiry at or before created_at)
    created = datetime.now(timezone.utc) - timedelta(days=1) if expiring else None
    engine.add(entity, texts, ids=ids, metadata=meta, session_id=sessions, expires_at=expires, created_at=created)
    return ids


@pytest.fixture
def fast_engine() -> Iterator[RecallEngine]:
    yield RecallEngine(store=ChromaStore.in_memory(), embedder=TopicEmbedder(), config=FAST)


@pytest.fixture
def fast_calls(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """One entry per search of the copy: True when it answered (False: left to the scan)."""
    calls: list[bool] = []
    real = QuantizedMatrix.top

    def recording(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        out = real(self, *args, **kwargs)
        calls.append(out is not None)
        return out

    monkeypatch.setattr(QuantizedMatrix, "top", recording)
    return calls


def query_texts(seed: int, count: int) -> list[str]:
    rng = np.random.default_rng(1000 + seed)
    out = []
    for i in range(count):
        words = rng.integers(0, len(WORDS), 1 + i % 4)
        out.append(" ".join(WORDS[int(w)] for w in words) + ("?" if i % 2 else ""))
    return out


def assert_same_answers(engine: RecallEngine, texts: list[str], *, limits=(5, 10), **kwargs) -> None:
    """Recall and explain with the copy (engine.config) and with the exact scan, on the same cache."""
    fast_cfg = engine.config
    for text in texts:
        for limit in limits:
            engine.config = fast_cfg
            got = engine.recall(text, ENTITY, limit=limit, **kwargs)
            report = engine.explain(text, ENTITY, limit=limit, **kwargs)
            engine.config = fast_cfg.replace(quantized_above=None)
            try:
                want = engine.recall(text, ENTITY, limit=limit, **kwargs)
                want_report = engine.explain(text, ENTITY, limit=limit, **kwargs)
            finally:
                engine.config = fast_cfg
            assert [f.id for f in got] == [f.id for f in want], text
            for a, b in zip(got, want):
                assert a.cosine == pytest.approx(b.cosine, abs=1e-6)
                assert a.lexical == pytest.approx(b.lexical, abs=1e-9)
                assert a.rank_score == pytest.approx(b.rank_score, abs=1e-6)
            assert [(c.id, c.reason, c.source) for c in report.candidates] == [
                (c.id, c.reason, c.source) for c in want_report.candidates
            ], text
            assert report.rows_scored == want_report.rows_scored


@pytest.mark.slow  # several seconds: left out of `make test-fast`
def test_engine_answers_are_the_exact_answers(fast_engine: RecallEngine, fast_calls: list[bool]) -> None:
    fill(fast_engine, 2500)
    assert_same_answers(fast_engine, query_texts(0, 30))
    assert fast_calls and all(fast_calls)  # every recall went through the copy, none fell back
    cache = fast_engine._cache_for(ENTITY)
    assert cache._quantized is not None and cache.memory_report()["quantized"] == 2500 * 48 + 2500


@pytest.mark.slow  # several seconds: left out of `make test-fast`
def test_engine_with_widening_searches(fast_engine: RecallEngine, fast_calls: list[bool], narrow: None) -> None:
    fill(fast_engine, 2500, seed=1)
    assert_same_answers(fast_engine, query_texts(1, 15), limits=(1, 5, 10))
    assert any(fast_calls)


@pytest.mark.slow  # several seconds: left out of `make test-fast`
def test_engine_query_vectors(fast_engine: RecallEngine, fast_calls: list[bool]) -> None:
    fill(fast_engine, 2200, seed=2)
    rng = np.random.default_rng(2)
    emb = TopicEmbedder()
    for i, text in enumerate(query_texts(2, 20)):
        vec = emb.embed_query(text) + (0.5 * rng.standard_normal(48) if i % 2 else 0)
        assert_same_answers(fast_engine, [text], query_vector=vec.astype(np.float32))
    assert all(fast_calls)


@pytest.mark.slow  # several seconds: left out of `make test-fast`
def test_engine_where_filters_expiry_and_dense_limit(fast_engine: RecallEngine, fast_calls: list[bool]) -> None:
    fill(fast_engine, 3000, seed=3, expiring=200)  # 200 facts expired already: every recall scores a subset
    texts = query_texts(3, 10)
    assert_same_answers(fast_engine, texts)
    assert_same_answers(fast_engine, texts, where={"topic": {"$in": [WORDS[0], WORDS[1], WORDS[2], WORDS[3]]}})
    assert_same_answers(fast_engine, texts, where={"topic": WORDS[1]})  # ~400 rows: below the threshold, scanned
    fast_engine.config = FAST.replace(dense_limit=2500)  # the 2,500 most recent rows, in recency order
    assert_same_answers(fast_engine, texts)
    fast_engine.config = FAST.replace(dense_limit=900)  # below the threshold: scanned
    before = len(fast_calls)
    assert_same_answers(fast_engine, texts)
    assert len(fast_calls) == before
    assert fast_calls and all(fast_calls)


@pytest.mark.slow  # several seconds: left out of `make test-fast`
def test_engine_after_adds_deletes_updates_and_compaction(fast_engine: RecallEngine, fast_calls: list[bool]) -> None:
    ids = fill(fast_engine, 2400, seed=4)
    texts = query_texts(4, 12)
    assert_same_answers(fast_engine, texts)
    copy = fast_engine._cache_for(ENTITY)._quantized
    assert copy is not None
    # Adds (appended to the copy at the next recall), a replacement by id, supersedes, an update of the text.
    more = fill(fast_engine, 300, seed=5)
    fast_engine.add(ENTITY, ["w1 w2 w3 w4 replaced."], ids=[ids[10]])
    fast_engine.add(ENTITY, ["w5 w6 w7 newer."], supersedes=[ids[11], ids[12]])
    fast_engine.update(ENTITY, ids[13], text="w8 w9 w10 edited.")
    fast_engine.update(ENTITY, ids[14], metadata={"topic": "other"})
    fast_engine.delete(ENTITY, ids[100:400] + more[:50])
    cache = fast_engine._cache_for(ENTITY)
    assert cache.n_dead > 0
    assert_same_answers(fast_engine, texts + ["w1 w2 w3 w4", "w8 w9 w10"])
    assert cache._quantized is copy and copy.n == cache.n_rows and copy.n_dead == cache.n_dead
    # Enough deletes to compact: the rows are renumbered and the copy is made again.
    fast_engine.delete(ENTITY, ids[400:1200])
    cache = fast_engine._cache_for(ENTITY)
    assert_same_answers(fast_engine, texts)
    assert cache._quantized is not copy and cache._quantized.n == cache.n_rows
    assert all(fast_calls)


@pytest.mark.slow  # several seconds: left out of `make test-fast`
def test_threshold_boundary(fast_engine: RecallEngine, fast_calls: list[bool]) -> None:
    fill(fast_engine, 2000, seed=6)
    fast_engine.config = RecallConfig(quantized_above=2000)  # "more rows than this": 2,000 is not
    fast_engine.recall("w1 w2", ENTITY)
    cache = fast_engine._cache_for(ENTITY)
    assert cache._quantized is None and not fast_calls
    fast_engine.add(ENTITY, ["w3 w4 one more."])
    fast_engine.recall("w1 w2", ENTITY)
    assert fast_engine._cache_for(ENTITY)._quantized is not None and fast_calls == [True]
    assert_same_answers(fast_engine, query_texts(6, 10))
    # One fact fewer again: scanned exactly.
    fast_engine.delete(ENTITY, ["f6-0"])
    before = len(fast_calls)
    assert_same_answers(fast_engine, query_texts(6, 5))
    assert len(fast_calls) == before


@pytest.mark.slow  # several seconds: left out of `make test-fast`
def test_memori_compat_never_uses_the_copy(fast_calls: list[bool]) -> None:
    compat = RecallConfig.memori_compat()
    assert compat.dense_limit == 1000
    assert compat.quantized_above is not None and compat.dense_limit <= compat.quantized_above
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=TopicEmbedder(), config=compat)
    fill(engine, 2500, seed=7)
    engine.config = compat.replace(quantized_above=0)  # even at 0: 1,000 rows are too few to be worth a search
    for text in query_texts(7, 5):
        engine.recall(text, ENTITY)
    assert engine._cache_for(ENTITY)._quantized is None and not fast_calls


@pytest.mark.slow  # several seconds: left out of `make test-fast`
def test_default_threshold_and_none(fast_engine: RecallEngine, fast_calls: list[bool]) -> None:
    assert RecallConfig().quantized_above == 8_000
    with pytest.raises(ValueError):
        RecallConfig(quantized_above=-1)
    with pytest.raises(TypeError):
        RecallConfig(quantized_above=1.5)  # type: ignore[arg-type]
    fill(fast_engine, 1500, seed=8)
    fast_engine.config = RecallConfig()  # 1,500 rows: below the default threshold
    fast_engine.recall("w1", ENTITY)
    fast_engine.config = RecallConfig(quantized_above=None)
    fast_engine.recall("w1", ENTITY)
    assert fast_engine._cache_for(ENTITY)._quantized is None and not fast_calls


@pytest.mark.slow  # several seconds: left out of `make test-fast`
def test_without_a_usable_faiss_recall_scans(fast_engine: RecallEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    fill(fast_engine, 2000, seed=9)
    monkeypatch.setattr(qmod, "_faiss", lambda: None)
    assert_same_answers(fast_engine, query_texts(9, 5))
    cache = fast_engine._cache_for(ENTITY)
    assert cache._quantized is None and cache.quantized() is None


# -- the copy kept in a snapshot ------------------------------------------------------------


def _snapshotted_cache(tmp_path, monkeypatch: pytest.MonkeyPatch, n: int = 1200, d: int = 32):
    """A canonical cache of ``n`` clustered rows written to a snapshot (which keeps the copy from 100 rows on
    here), and the cache loaded back from it."""
    from memori_core.cache import EntityCache
    from memori_core.facts import StoredFact
    from memori_core.cache import snapshot_format

    monkeypatch.setattr(snapshot_format, "COPY_FROM_ROWS", 100)
    rng = np.random.default_rng(11)
    m = clustered(rng, n, d)
    facts = [StoredFact(f"f{i}", "e", f"fact {i}", "2024-01-01T00:00:00+00:00", seq=i + 1) for i in range(n)]
    cache = EntityCache("e", "r")
    cache.upsert(facts, m)
    path = tmp_path / "e.snap"
    snapshot_format.write_snapshot(path, cache.canonical(), "c")
    snap = snapshot_format.load_snapshot(path, snapshot_format.Expected("e", "r", "c"))
    loaded = EntityCache.from_columns("e", "r", snap.loaded, snap.key, forward=snap.forward, index=snap.index,
                                      stored_copy=snap.copy)
    return snap, loaded, rng


def test_a_snapshot_keeps_the_copy_a_build_would_make(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    snap, loaded, rng = _snapshotted_cache(tmp_path, monkeypatch)
    assert snap.copy is not None and snap.copy[0].dtype == np.uint8
    built = QuantizedMatrix.build(np.asarray(loaded.matrix))
    qm = loaded.quantized()
    assert qm is not None and loaded._stored_copy is None  # taken from the snapshot, once
    for mine, theirs in zip(qm.parts(), built.parts()):  # codes, scale, rho, R: the same copy
        assert np.array_equal(mine, theirs)
    m = np.asarray(loaded.matrix)
    for q in queries(rng, m, 40):
        got = qm.top(m, q, 50)
        assert got is not None and np.array_equal(got, exact(m, q, 50))


def test_a_copy_from_the_snapshot_follows_later_writes(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows appended (some beyond the copy's scales) and deleted after the load, before the copy is first used."""
    from memori_core.facts import StoredFact

    _, loaded, rng = _snapshotted_cache(tmp_path, monkeypatch)
    extra = clustered(rng, 60, 32)
    extra[:3] = l2_normalise(np.eye(32, dtype=np.float32)[:3] * 5 + 0.01)  # new maxima in some dimensions
    loaded.upsert([StoredFact(f"x{i}", "e", f"new {i}", "2024-02-01T00:00:00+00:00", seq=10_000 + i)
                   for i in range(60)], extra)
    loaded.remove([f"f{i}" for i in range(0, 1200, 7)])
    qm = loaded.quantized()
    assert qm is not None and qm.n == loaded.n_rows and qm.n_built == 1200  # the stored copy, brought up to date
    m = np.asarray(loaded.matrix)[: loaded.n_rows]
    dead = ~loaded._alive[: loaded.n_rows]
    for q in queries(rng, m, 40):
        got = qm.top(m, q, 50)
        assert got is not None and np.array_equal(got, exact(m, q, 50, dead=dead))


def test_a_snapshot_below_the_size_keeps_no_copy(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    from memori_core.cache import snapshot_format

    snap, _, _ = _snapshotted_cache(tmp_path, monkeypatch, n=60)
    assert snap.copy is None
    assert "q.codes" not in snapshot_format.read_header(tmp_path / "e.snap")[0]["arrays"]


def test_duplicate_rows_tie_in_the_given_order_as_the_scan_ties_them() -> None:
    rng = np.random.default_rng(7)
    base = clustered(rng, 1500, 32)
    m = np.ascontiguousarray(np.vstack([base, base[::-1], base]))  # every row three times
    seq = rng.permutation(m.shape[0])  # a written order unrelated to the rows' positions
    tie = lambda rows: np.argsort(seq[rows], kind="stable")  # noqa: E731
    qm = QuantizedMatrix.build(m)
    subset = np.sort(rng.choice(m.shape[0], 3000, replace=False))
    moved = 0
    for q in queries(rng, m, 30):
        got = qm.top(m, q, 25, tie=tie)
        assert got is not None
        assert np.array_equal(got, dense_top(m @ q, 25, tie=tie))  # ties go to the first in written order
        moved += not np.array_equal(got, exact(m, q, 25))
        in_subset = qm.top(m, q, 25, subset, tie)
        assert in_subset is not None and np.array_equal(in_subset, dense_top(m[subset] @ q, 25, subset, tie))
    assert moved  # the order decided some ties that position would have decided otherwise
