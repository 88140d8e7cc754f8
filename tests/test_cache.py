"""EntityCache: incremental writes, tombstones and compaction give the same state as a rebuild."""

from __future__ import annotations

import hashlib
import random
from dataclasses import replace

import numpy as np
import pytest

from memori_core import ChromaStore, RecallEngine
from memori_core.cache import EntityCache
from memori_core.facts import StoredFact
from memori_core.ranking.lexical import unique_terms
from memori_core.text import analyzer

from _helpers import CountingStore, HashEmbedder, ungated_engine

WORDS = "apple banana cherry dog eagle fig grape hiking kite lemon mango night ocean piano quilt running".split()
SESSIONS = [None, "s1", "s2", "s3"]
STEMMED = ("unicode", "english")
PLAIN = ("memori", None)
QUERIES = ["apple hiking", "run kites", "ocean night piano", "quilt"]
DIM = 12


class World:
    """Random facts with increasing ``seq`` (like the engine's nanosecond clock)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)
        self.seq = 1_000
        self.n = 0

    def fact(self, fid: str | None = None, session: str | None | bool = False) -> tuple[StoredFact, np.ndarray]:
        self.seq += self.rng.randint(1, 5)
        if fid is None:
            self.n += 1
            fid = f"f{self.n}"
        if session is False:
            session = self.rng.choice(SESSIONS)
        text = " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(1, 6)))
        fact = StoredFact(fid, "e", text, "2024-01-01T00:00:00+00:00", session_id=session, seq=self.seq)
        return fact, self.np_rng.normal(size=DIM).astype(np.float32)


def snapshot(cache: EntityCache, keys=(STEMMED, PLAIN)) -> dict:
    """Everything recall reads, keyed by fact id (row numbers differ between caches)."""
    ids = {row: f.id for row, f in enumerate(cache.facts) if f is not None}
    assert len(ids) == len(cache)
    assert set(cache.pos) == set(ids.values())
    assert all(cache.facts[cache.pos[fid]].id == fid for fid in cache.pos)
    out: dict = {"facts": {}, "bm25": {}, "neighbours": {}, "vectors": {}}
    for row, fid in ids.items():
        f = cache.facts[row]
        out["facts"][fid] = (f.content, f.session_id, f.seq)
        out["vectors"][fid] = cache.matrix[row].copy()
        before, after = cache.neighbours(row)
        out["neighbours"][fid] = (ids.get(before), ids.get(after))
        assert before == -1 or before in ids, "neighbour is a dead row"
        assert after == -1 or after in ids, "neighbour is a dead row"
        # The token lists seen by pool-local BM25 must be this row's own text.
        for key in keys:
            assert cache.tokens(key)[row] == tuple(analyzer(*key)(f.content)), (key, fid)
    for key in keys:
        ix = cache.index(key)
        assert ix.n_rows == cache.n_rows
        for q in QUERIES:
            s = ix.scores(unique_terms(analyzer(*key)(q)), k1=1.2, b=0.4)
            out["bm25"][(key, q)] = {fid: float(s[row]) for row, fid in ids.items()}
            dead = [r for r in range(cache.n_rows) if r not in ids]
            assert not s[dead].any(), "a dead row scores"
    return out


def assert_same(a: dict, b: dict) -> None:
    assert a["facts"] == b["facts"]
    assert a["neighbours"] == b["neighbours"]
    fids = list(a["vectors"])
    if fids:  # every vector within rtol/atol 1e-6 (one array comparison instead of one per fact)
        np.testing.assert_allclose(np.stack([a["vectors"][f] for f in fids]),
                                   np.stack([b["vectors"][f] for f in fids]), rtol=1e-6, atol=1e-6)
    assert a["bm25"].keys() == b["bm25"].keys()
    for k in a["bm25"]:
        # Each score as pytest.approx(expected, rel=1e-9, abs=1e-12) would take it:
        # equal, or within max(1e-9 * |expected|, 1e-12); NaN never matches.
        fids = list(a["bm25"][k])
        got = np.array([a["bm25"][k][fid] for fid in fids], dtype=np.float64)
        want = np.array([b["bm25"][k][fid] for fid in fids], dtype=np.float64)
        with np.errstate(invalid="ignore"):
            ok = (got == want) | (np.abs(got - want) <= np.maximum(1e-9 * np.abs(want), 1e-12))
        assert ok.all(), (k, [(fids[i], got[i], want[i]) for i in np.flatnonzero(~ok)[:5]])


def rebuild(facts: dict[str, tuple[StoredFact, np.ndarray]], seed: int) -> EntityCache:
    """A cache built from scratch from the surviving facts, loaded in a random order."""
    items = list(facts.values())
    random.Random(seed).shuffle(items)
    fresh = EntityCache("e")
    items.sort(key=lambda item: (item[0].session_id is None, item[0].seq))  # a reload's order
    fresh.upsert([f for f, _ in items], [v for _, v in items])
    return fresh


@pytest.mark.parametrize("seed", range(8))
def test_random_add_replace_delete_equals_rebuild(seed: int) -> None:
    w = World(seed)
    cache = EntityCache("e")
    live: dict[str, tuple[StoredFact, np.ndarray]] = {}
    for step in range(160):
        op = w.rng.random()
        if step == 5:
            cache.index(STEMMED)  # one index maintained incrementally from early on
        if live and op < 0.2:
            victims = w.rng.sample(sorted(live), min(len(live), w.rng.randint(1, 3)))
            cache.remove(victims + ["never-existed"])
            for fid in victims:
                del live[fid]
        elif live and op < 0.4:
            fid = w.rng.choice(sorted(live))
            # Replace by id: new text, new seq (as engine.add with ids does), same or another session.
            keep_session = w.rng.random() < 0.6
            fact, vec = w.fact(fid, live[fid][0].session_id if keep_session else False)
            cache.upsert([fact], [vec])
            live[fid] = (fact, vec)
        else:
            batch = [w.fact() for _ in range(w.rng.randint(1, 4))]
            cache.upsert([f for f, _ in batch], [v for _, v in batch])
            live.update({f.id: (f, v) for f, v in batch})
        if step % 40 == 39:
            assert_same(snapshot(cache), snapshot(rebuild(live, step)))
    assert len(cache) == len(live)
    assert_same(snapshot(cache), snapshot(rebuild(live, seed)))


def test_neighbours_follow_session_order_and_skip_deleted_rows() -> None:
    w = World(1)
    facts = [w.fact(f"t{i}", "s") for i in range(5)]
    other = w.fact("x", "other")
    nosession = w.fact("y", None)
    cache = EntityCache("e")
    # Interleave another session and a session-less fact between the turns.
    order = [facts[0], facts[1], other, facts[2], nosession, facts[3], facts[4]]
    cache.upsert([f for f, _ in order], [v for _, v in order])

    def nb(fid: str) -> tuple[str | None, str | None]:
        b, a = cache.neighbours(cache.pos[fid])
        return (cache.facts[b].id if b >= 0 else None, cache.facts[a].id if a >= 0 else None)

    assert nb("t0") == (None, "t1")
    assert nb("t2") == ("t1", "t3")
    assert nb("t4") == ("t3", None)
    assert nb("x") == (None, None)
    assert nb("y") == (None, None)
    cache.remove(["t2", "t3"])
    assert nb("t1") == ("t0", "t4")
    assert nb("t4") == ("t1", None)
    cache.remove(["t0"])
    assert nb("t1") == (None, "t4")


def test_replaced_fact_moves_by_its_seq_like_a_reload() -> None:
    w = World(2)
    turns = [w.fact(f"t{i}", "s") for i in range(4)]
    cache = EntityCache("e")
    cache.upsert([f for f, _ in turns], [v for _, v in turns])
    newer, vec = w.fact("t1", "s")  # replaced later: its seq is now the newest of the session
    cache.upsert([newer], [vec])
    b, a = cache.neighbours(cache.pos["t1"])
    assert (cache.facts[b].id, a) == ("t3", -1)
    assert cache.neighbours(cache.pos["t0"])[1] == cache.pos["t2"]
    # A replacement that keeps its seq keeps its place.
    same_seq = replace(turns[2][0], content="grape kite")
    cache.upsert([same_seq], [turns[2][1]])
    assert [cache.facts[r].id for r in cache.neighbours(cache.pos["t2"])] == ["t0", "t3"]


def test_upsert_links_sessions_by_seq_whatever_the_insertion_order() -> None:
    w = World(3)
    turns = [w.fact(f"t{i}", "s") for i in range(6)]
    shuffled = turns[::-1]
    cache = EntityCache("e")
    cache.upsert([f for f, _ in shuffled], [v for _, v in shuffled])
    for i in range(6):
        b, a = cache.neighbours(cache.pos[f"t{i}"])
        assert (cache.facts[b].id if b >= 0 else None) == (f"t{i-1}" if i > 0 else None)
        assert (cache.facts[a].id if a >= 0 else None) == (f"t{i+1}" if i < 5 else None)


def test_late_older_fact_is_placed_by_seq_past_deleted_rows() -> None:
    w = World(4)
    turns = [w.fact(f"t{i}", "s") for i in range(5)]
    cache = EntityCache("e")
    cache.upsert([f for f, _ in turns[:2] + turns[3:]], [v for _, v in turns[:2] + turns[3:]])
    cache.remove(["t4"])  # a dead row at the end of the session list
    late, vec = turns[2]  # seq between t1 and t3, arriving last
    cache.upsert([late], [vec])
    assert [cache.facts[r].id for r in cache.neighbours(cache.pos["t2"])] == ["t1", "t3"]
    assert cache.facts[cache.neighbours(cache.pos["t3"])[0]].id == "t2"


def _fill(cache: EntityCache, w: World, n: int, session: str | None | bool) -> dict:
    batch = [w.fact(session=session) for _ in range(n)]
    cache.upsert([f for f, _ in batch], [v for _, v in batch])
    return {f.id: (f, v) for f, v in batch}


def test_compaction_triggers_at_256_dead_rows_and_keeps_state() -> None:
    w = World(5)
    cache = EntityCache("e")
    cache.index(STEMMED)
    # Session-less facts first, then session facts: a reload puts them in another order.
    live = _fill(cache, w, 300, None)
    live.update(_fill(cache, w, 300, False))
    ids = list(live)
    w.rng.shuffle(ids)
    doomed = ids[:256]
    cache.remove(doomed[:255])
    for fid in doomed[:255]:
        del live[fid]
    assert cache.n_dead == 255 and cache.n_rows == 600  # below the minimum: tombstones only
    assert_same(snapshot(cache), snapshot(rebuild(live, 0)))
    cache.remove(doomed[255:])
    del live[doomed[255]]
    assert cache.n_dead == 0 and cache.n_rows == len(live) == 344  # compacted
    assert cache.dead_rows().size == 0
    assert_same(snapshot(cache), snapshot(rebuild(live, 1)))
    # Writes after compaction keep working incrementally.
    live.update(_fill(cache, w, 20, "s1"))
    cache.remove([next(iter(live))])
    del live[next(iter(live))]
    assert_same(snapshot(cache), snapshot(rebuild(live, 2)))


def test_compaction_needs_a_quarter_of_the_rows_dead() -> None:
    w = World(6)
    cache = EntityCache("e")
    live = _fill(cache, w, 1200, False)
    ids = list(live)
    cache.remove(ids[:299])
    assert cache.n_dead == 299  # >= 256 but < 25% of 1200
    cache.remove(ids[299:300])
    assert cache.n_dead == 0 and cache.n_rows == 900
    for fid in ids[:300]:
        del live[fid]
    assert_same(snapshot(cache), snapshot(rebuild(live, 3)))


def test_replacements_count_as_dead_rows_for_compaction() -> None:
    w = World(7)
    cache = EntityCache("e")
    live = _fill(cache, w, 400, False)
    for fid in list(live)[:300]:
        fact, vec = w.fact(fid, live[fid][0].session_id)
        cache.upsert([fact], [vec])
        live[fid] = (fact, vec)
    assert cache.n_dead < 256  # compacted on the way
    assert len(cache) == 400
    assert_same(snapshot(cache), snapshot(rebuild(live, 4)))


# -- through the engine ------------------------------------------------------


def random_embedder(texts: list[str]) -> np.ndarray:
    """A Gaussian vector per text, seeded by the text: no two facts tie on cosine.

    (The hashing embedder gives many exactly tied cosines: tests/test_ties.py.)
    """
    seeds = [int.from_bytes(hashlib.blake2b(t.encode(), digest_size=8).digest(), "little") for t in texts]
    return np.stack([np.random.default_rng(s).normal(size=32) for s in seeds]).astype(np.float32)


def assert_same_ranking(a: list[tuple[str, float]], b: list[tuple[str, float]]) -> None:
    """Same scores in the same order; ids may differ only among exactly tied scores (row order breaks ties)."""
    assert [s for _, s in a] == pytest.approx([s for _, s in b], rel=1e-6, abs=1e-7)
    sa, sb = dict(a), dict(b)
    for fid in sa.keys() & sb.keys():
        assert sa[fid] == pytest.approx(sb[fid], rel=1e-6, abs=1e-7), fid
    for fid in sa.keys() ^ sb.keys():  # only at a tied cut
        score = sa.get(fid, sb.get(fid))
        assert score == pytest.approx(a[-1][1], rel=1e-6, abs=1e-7), fid


def _engine_state(engine: RecallEngine, entity: str) -> dict:
    return snapshot(engine._cache_for(entity), keys=(STEMMED,))


def test_engine_random_writes_equal_a_fresh_engine_on_the_same_store() -> None:
    rng = random.Random(11)
    store = ChromaStore.in_memory()
    emb = random_embedder
    engine = RecallEngine(store=store, embedder=emb)
    engine.add("u", ["seed fact about apple"], ids=["seed"], session_id="s1")
    engine.recall("apple", "u")  # load the cache so later writes update it in place
    n = 0
    live: set[str] = {"seed"}
    for step in range(60):
        op = rng.random()
        if live and op < 0.25:
            victims = rng.sample(sorted(live), min(len(live), 2))
            engine.delete("u", victims)
            live -= set(victims)
        elif live and op < 0.5:
            fid = rng.choice(sorted(live))
            text = " ".join(rng.choice(WORDS) for _ in range(4))
            engine.add("u", [text], ids=[fid], session_id=rng.choice(["s1", "s2", None]))
        else:
            k = rng.randint(1, 3)
            fids = [f"n{n + i}" for i in range(k)]
            n += k
            texts = [" ".join(rng.choice(WORDS) for _ in range(4)) + f" {fid}" for fid in fids]
            engine.add("u", texts, ids=fids, session_id=rng.choice(["s1", "s2", None]))
            live |= set(fids)
        if step % 15 == 14:
            engine.recall("apple kite", "u")
    incremental = _engine_state(engine, "u")
    assert set(incremental["facts"]) == live
    fresh = RecallEngine(store=store, embedder=emb)
    assert_same(incremental, _engine_state(fresh, "u"))
    for q in QUERIES:
        a = engine.explain(q, "u", 10)
        b = fresh.explain(q, "u", 10)
        assert a.pool_size == b.pool_size
        assert_same_ranking([(c.id, c.rank_score) for c in a.candidates], [(c.id, c.rank_score) for c in b.candidates])


def test_engine_compaction_keeps_recall_results() -> None:
    store = ChromaStore.in_memory()
    emb = random_embedder
    # These 5-word texts over 16 words tie on BM25 at the pool's cut of 50: ties are broken by seq and id, which
    # the compacted cache and a fresh one agree on (docs/ranking.md item 51).
    engine = ungated_engine(emb, store=store)
    rng = random.Random(12)
    texts = [" ".join(rng.choice(WORDS) for _ in range(5)) + f" item{i}" for i in range(400)]
    ids = [f"i{i}" for i in range(400)]
    engine.add("u", texts[:200], ids=ids[:200])
    engine.recall("apple", "u")  # cache loaded now: session facts are appended after the session-less ones
    for s in range(4):
        engine.add("u", texts[200 + 50 * s : 250 + 50 * s], ids=ids[200 + 50 * s : 250 + 50 * s], session_id=f"s{s}")
    engine.recall("apple", "u")
    cache = engine._coord.caches.get("u")
    engine.delete("u", [fid for i, fid in enumerate(ids) if i % 3])  # 266 rows, both kinds
    assert engine._coord.caches.get("u") is cache and cache.n_dead == 0 and len(cache) == 134  # compacted in place
    fresh = RecallEngine(store=store, embedder=emb, config=engine.config)
    for q in QUERIES + ["item399 mango", "item1 apple"]:
        a = engine.recall(q, "u", 10)
        b = fresh.recall(q, "u", 10)
        assert len(a) == 10
        assert [f.id for f in a] == [f.id for f in b]  # the same facts, ties included
        assert_same_ranking([(f.id, f.rank_score) for f in a], [(f.id, f.rank_score) for f in b])


def test_session_order_follows_seq_when_the_store_returns_rows_out_of_order() -> None:
    store = ChromaStore.in_memory()
    emb = HashEmbedder()
    texts = [f"turn number {i} about {WORDS[i]}" for i in range(6)]
    facts = [
        StoredFact(f"t{i}", "u", texts[i], "2024-01-01T00:00:00+00:00", session_id="s", seq=100 + i)
        for i in range(6)
    ]
    order = [3, 0, 5, 1, 4, 2]
    store.upsert("u", [facts[i] for i in order], emb.embed_documents([texts[i] for i in order]))
    store.bump_revision("u")
    loaded = store.load_entity("u")
    assert [f.id for f in loaded.facts] != [f"t{i}" for i in range(6)]  # really out of order
    engine = RecallEngine(store=store, embedder=emb)
    cache = engine._cache_for("u")
    for i in range(6):
        b, a = cache.neighbours(cache.pos[f"t{i}"])
        assert (cache.facts[b].id if b >= 0 else None) == (f"t{i-1}" if i else None)
        assert (cache.facts[a].id if a >= 0 else None) == (f"t{i+1}" if i < 5 else None)


def test_memory_report_counts_matrix_index_and_neighbours() -> None:
    w = World(13)
    cache = EntityCache("e")
    _fill(cache, w, 50, "s1")
    cache.index(STEMMED)
    small = cache.memory_report()
    assert set(small) == {"matrix", "inverted_index", "neighbours", "columns"}
    assert small["matrix"] == 50 * DIM * 4
    assert all(v > 0 for v in small.values())
    _fill(cache, w, 500, "s2")
    big = cache.memory_report()
    assert all(big[k] > small[k] for k in small)


def _answers(engine: RecallEngine, entity: str) -> list[list[tuple[str, float]]]:
    return [[(f.id, round(f.rank_score, 6)) for f in engine.recall(q, entity, limit=5)]
            for q in ("tea", "dog walk", "Lisbon music", "note 7")]


def test_the_first_write_of_an_entity_becomes_its_copy_as_a_reload_would_build_it(tmp_path) -> None:
    store = CountingStore(path=tmp_path / "m")
    engine = ungated_engine(store=store)
    texts = [f"User note {i} about {w}." for i, w in enumerate(["tea", "dog walk", "Lisbon", "music"] * 30)]
    engine.add("u", texts[:60], session_id="s1")
    engine.add("u", texts[60:])  # a second write is replayed on the copy
    records = engine.export("u", include_vectors=True)  # export reads the store (one load)
    engine.import_("v", records)  # an import is a first write too
    loads = store.loads
    first = (_answers(engine, "u"), _answers(engine, "v"))
    assert store.loads == loads  # neither entity was reloaded for its recalls
    assert engine._coord.caches.get("v").is_canonical()
    store.close()
    again = CountingStore(path=tmp_path / "m", snapshots=False)
    fresh = ungated_engine(store=again)
    assert (_answers(fresh, "u"), _answers(fresh, "v")) == first
    assert again.loads == 2
    again.close()


def test_rows_without_a_revision_are_never_taken_for_an_empty_entity(tmp_path) -> None:
    store = CountingStore(path=tmp_path / "m")
    engine = ungated_engine(store=store)
    engine.add("other", ["User likes tea."])
    # Rows written without their revision record (a crash between the two), for entity "u".
    [fact] = engine.get("other", engine.list("other")[0].id)
    orphan = replace(fact, entity_id="u")
    store.upsert("u", [orphan], HashEmbedder().embed_documents(["User likes tea."]))
    assert store.revision("u") is None and store.count("u") == 1
    engine.add("u", ["User walks the dog."])
    assert sorted(f.content for f in engine.recall("tea dog", "u", limit=5)) == [
        "User likes tea.", "User walks the dog."]
    store.close()


def _start_ids(cache: EntityCache, at: float) -> set[str]:
    return {cache.c.ids[r] for r in cache.starting_rows(at).tolist()}


def test_start_times_are_kept_current_by_writes_without_reading_a_fact() -> None:
    """A recall after a write asks which rows start later (changes told ahead, updated texts): the starts found once
    are kept current by the write itself, with no fact read per row (before: every such row read again)."""
    w = World(3)
    cache = EntityCache("e")
    facts = [replace(w.fact(f"f{i}")[0], valid_from=f"2024-0{1 + i % 3}-15T00:00:00+00:00") for i in range(6)]
    cache.upsert(facts, [w.np_rng.normal(size=DIM).astype(np.float32) for _ in facts])
    feb = 1706745600.0  # 2024-02-01
    assert _start_ids(cache, feb) == {"f1", "f2", "f4", "f5"}
    reads = []
    fact = cache.fact
    cache.fact = lambda row: reads.append(row) or fact(row)  # type: ignore[method-assign]
    told_ahead = replace(w.fact("f9")[0], valid_from="2024-06-01T00:00:00+00:00")
    cache.upsert([told_ahead, replace(facts[1], valid_from=None)], [w.np_rng.normal(size=DIM).astype(np.float32)] * 2)
    cache.remove(["f2"])
    assert _start_ids(cache, feb) == {"f4", "f5", "f9"}
    assert reads == []
    assert cache.next_start(feb) == pytest.approx(1707955200.0)  # 2024-02-15
    live = {fid: (cache.fact(row), cache.c.matrix[row]) for fid, row in cache.pos.items()}
    assert _start_ids(cache, feb) == _start_ids(rebuild(live, 0), feb)  # as a fresh cache finds them
