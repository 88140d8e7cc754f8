"""Rows tied on a score are ordered by what the store knows (``seq``, then id), not by where a copy holds them.

A copy of an entity's memory that was compacted, written to (deletes, the same facts added again) or restored from
a snapshot holds its rows in another order than a fresh load; each test compares such a copy with a fresh engine
over the same store, at limits 5 and 10, over facts that tie exactly: the same words in another order give the
same hashed vector (the same cosine) and the same BM25 score (docs/ranking.md item 51).
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np

from _helpers import HashEmbedder, ungated_engine
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.ranking.dense import top_k
from memori_core.ranking.ties import written_order

WORD_SETS = ["apple banana cherry dog eagle", "fig grape hiking kite lemon", "mango night ocean piano dog",
             "quilt running apple kite sun"]
QUERIES = ["apple dog", "night kite", "piano dog", "grape", "banana ocean"]


def tied_texts() -> list[str]:
    """480 facts in 4 groups of 120: each group the same five words in every order (all tied with each other)."""
    return [" ".join(p) for words in WORD_SETS for p in itertools.permutations(words.split())]


def shuffled(n: int, seed: int) -> list[int]:
    order = list(range(n))
    random.Random(seed).shuffle(order)
    return order


def ranked_ids(engine: RecallEngine, limit: int) -> list[list[str]]:
    return [[f.id for f in engine.recall(q, "u", limit)] for q in QUERIES]


def assert_as_fresh(engine: RecallEngine, store: object) -> None:
    fresh = RecallEngine(store=store, embedder=engine.embedder, config=engine.config)
    for limit in (5, 10):
        assert ranked_ids(engine, limit) == ranked_ids(fresh, limit), limit


def tied_engine(seed: int) -> tuple[ChromaStore, RecallEngine, list[str], list[str], list[int]]:
    """An ungated engine over a new in-memory store (pool floor 20), the tied texts, their ids and a shuffled order
    of them (``seed``)."""
    store = ChromaStore.in_memory()
    engine = ungated_engine(HashEmbedder(), store=store, candidate_floor=20)
    texts = tied_texts()
    return store, engine, texts, [f"t{i}" for i in range(len(texts))], shuffled(len(texts), seed)


def test_compacted_copy_ranks_tied_facts_as_a_fresh_engine() -> None:
    store, engine, texts, ids, order = tied_engine(1)
    first, rest = order[:240], order[240:]
    engine.add("u", [texts[i] for i in first], ids=[ids[i] for i in first])
    engine.recall("apple", "u")  # the copy is loaded: the session facts below are appended after these
    for s in range(4):
        part = rest[60 * s: 60 * s + 60]
        engine.add("u", [texts[i] for i in part], ids=[ids[i] for i in part], session_id=f"s{s}")
    engine.recall("apple", "u")
    cache = engine._coord.caches.get("u")
    engine.delete("u", [ids[i] for i in order if i % 3])  # 320 of 480: the copy compacts
    assert engine._coord.caches.get("u") is cache and cache.n_dead == 0  # compacted in place, not reloaded
    assert_as_fresh(engine, store)


def test_deleted_then_added_again_ranks_tied_facts_as_a_fresh_engine() -> None:
    store, engine, texts, ids, order = tied_engine(2)
    engine.add("u", [texts[i] for i in order[:240]], ids=[ids[i] for i in order[:240]])
    engine.recall("apple", "u")
    engine.add("u", [texts[i] for i in order[240:]], ids=[ids[i] for i in order[240:]], session_id="s")
    again = order[:50] + order[300:350]
    engine.delete("u", [ids[i] for i in again])
    engine.add("u", [texts[i] for i in again], ids=[ids[i] for i in again])  # later seq: appended rows
    assert engine._coord.caches.get("u") is not None
    assert_as_fresh(engine, store)


def test_snapshot_restore_ranks_tied_facts_as_a_load_from_chroma(tmp_path: Path) -> None:
    config = RecallConfig(gate="off", candidate_floor=20)
    texts = tied_texts()
    order = shuffled(len(texts), 3)
    # Imported records that share their seq: only the id tells them apart, in any copy.
    records = [{"id": f"t{i}", "text": texts[i], "seq": 7, "session_id": None if i % 2 else "s"} for i in order]
    store = ChromaStore(path=tmp_path / "db")
    engine = RecallEngine(store=store, embedder=HashEmbedder(), config=config)
    engine.import_("u", records[:240])
    engine.recall("apple", "u")
    engine.import_("u", records[240:])  # appended to the loaded copy
    written = ranked_ids(engine, 10)
    store.close()  # writes the copy's snapshot
    restored_store = ChromaStore(path=tmp_path / "db")
    restored = RecallEngine(store=restored_store, embedder=HashEmbedder(), config=config)
    from_snapshot = [ranked_ids(restored, limit) for limit in (5, 10)]
    restored_store.close()
    chroma_store = ChromaStore(path=tmp_path / "db", snapshots=False)
    fresh = RecallEngine(store=chroma_store, embedder=HashEmbedder(), config=config)
    from_chroma = [ranked_ids(fresh, limit) for limit in (5, 10)]
    chroma_store.close()
    assert from_snapshot == from_chroma
    assert written == from_chroma[1]


def test_tied_scores_follow_seq_then_id_at_the_cut_and_in_order() -> None:
    class Rows:
        seq = np.array([5, 3, 3, 9, 1])
        ids = ["e", "d", "c", "b", "a"]

        def row_ids(self, rows: np.ndarray) -> list[str]:
            return [self.ids[r] for r in rows]

    scores = np.array([1.0, 1.0, 1.0, 1.0, 0.5])
    # seq 3 twice: "c" (row 2) before "d" (row 1); then seq 5 (row 0); row 3's seq 9 is cut.
    assert top_k(scores, 3, written_order(Rows())).tolist() == [2, 1, 0]
    assert top_k(scores, 3).tolist() == [0, 1, 2]  # without an order: by position, as before
