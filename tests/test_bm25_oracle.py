"""Our BM25 against an independent implementation: bm25s, on pre-tokenised random corpora.

Our variant (``memori_core.ranking.lexical.BM25_VARIANT``) is Lucene's idf with
the classic ``(k1 + 1)`` tf numerator: exactly ``bm25s.BM25(method="atire",
idf_method="lucene")``, and ``(k1 + 1)`` times ``bm25s.BM25(method="lucene")``.
Both scorers are checked: the inverted index over an entity's whole memory
(live rows only) and the pool scorer (the pool's own statistics).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

bm25s = pytest.importorskip("bm25s")

from _bm25 import TokenIndex  # noqa: E402
from memori_core.ranking.lexical import bm25_from_tf, bm25_pool  # noqa: E402

EVERY = "every"  # in every document of a corpus
NOWHERE = "nowhere"  # in no document
PARAMS = [(1.2, 0.4), (1.2, 0.75), (0.9, 0.0), (2.0, 1.0), (0.5, 0.3)]
SEEDS = range(4)
TOL = {"rtol": 1e-9, "atol": 1e-12}


def random_corpus(seed: int) -> list[list[str]]:
    """A few dozen documents over a small vocabulary (so terms repeat), lengths 1..30,
    each holding ``EVERY`` one to three times; one rare word in a single document."""
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(rng.randint(5, 12))]
    docs = []
    for _ in range(rng.randint(8, 70)):
        doc = [vocab[min(int(rng.expovariate(0.4)), len(vocab) - 1)] for _ in range(rng.choice([0, 2, 5, 12, 29]))]
        for _ in range(rng.randint(1, 3)):
            doc.insert(rng.randint(0, len(doc)), EVERY)
        docs.append(doc)
    docs[rng.randrange(len(docs))].append("rare")
    return docs


def queries(docs: list[list[str]], seed: int) -> list[list[str]]:
    """Unique-term queries: single common / rare / absent terms and random mixes of them."""
    rng = random.Random(seed + 1000)
    vocab = sorted({t for d in docs for t in d} - {EVERY, "rare"})
    out = [[EVERY], ["rare"], [NOWHERE], [EVERY, NOWHERE], vocab[:1], vocab[-2:], [EVERY, "rare", *vocab[:3]]]
    for _ in range(8):
        out.append(list(dict.fromkeys(rng.choice([*vocab, EVERY, "rare", NOWHERE]) for _ in range(rng.randint(1, 5)))))
    return out


def oracle(docs: list[list[str]], query: list[str], k1: float, b: float, method: str, idf_method: str) -> np.ndarray:
    """bm25s scores of every document (float64 index, query terms unknown to the corpus ignored)."""
    model = bm25s.BM25(k1=k1, b=b, method=method, idf_method=idf_method, dtype="float64")
    model.index([list(d) for d in docs], show_progress=False)
    return np.asarray(model.get_scores(list(query)), dtype=np.float64)


def ours_same_variant(docs: list[list[str]], query: list[str], k1: float, b: float) -> np.ndarray:
    return oracle(docs, query, k1, b, method="atire", idf_method="lucene")


def indexed(docs: list[list[str]]) -> TokenIndex:
    ix = TokenIndex()
    for row, doc in enumerate(docs):
        ix.add(row, doc)
    return ix


def k1_plus_1_times_lucene(docs: list[list[str]], query: list[str], k1: float, b: float) -> np.ndarray:
    return (k1 + 1.0) * oracle(docs, query, k1, b, method="lucene", idf_method="lucene")


# Our variant in bm25s's two spellings of it (the module docstring).
BM25S_SPELLINGS = {
    "atire tf with lucene idf": ours_same_variant,
    "k1+1 times lucene": k1_plus_1_times_lucene,
}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("k1", "b"), PARAMS)
@pytest.mark.parametrize("spelling", BM25S_SPELLINGS)
def test_inverted_index_scores_equal_bm25s(spelling: str, seed: int, k1: float, b: float) -> None:
    docs = random_corpus(seed)
    ix = indexed(docs)
    for query in queries(docs, seed):
        np.testing.assert_allclose(ix.scores(query, k1=k1, b=b), BM25S_SPELLINGS[spelling](docs, query, k1, b), **TOL)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("k1", "b"), PARAMS)
def test_pool_bm25_raw_equals_bm25s_over_the_pool_docs(seed: int, k1: float, b: float) -> None:
    # The pool's own statistics: bm25s indexes only the pool's documents.
    docs = random_corpus(seed)
    ix = indexed(docs)
    rng = random.Random(seed + 7)
    for query in queries(docs, seed):
        rows = np.asarray(rng.sample(range(len(docs)), rng.randint(1, len(docs))), dtype=np.int64)
        pool_docs = [docs[r] for r in rows]
        want = ours_same_variant(pool_docs, query, k1, b)
        np.testing.assert_allclose(bm25_pool(query, pool_docs, k1=k1, b=b).raw, want, **TOL)
        # The engine's union path reads the pool's term counts from the index instead of the documents.
        tf, dl = ix.pool_tf(query, rows)
        np.testing.assert_allclose(bm25_from_tf(tf, dl, k1=k1, b=b).raw, want, **TOL)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("k1", "b"), [(1.2, 0.4), (2.0, 1.0)])
def test_dead_rows_score_zero_and_statistics_are_those_of_the_live_rows(seed: int, k1: float, b: float) -> None:
    docs = random_corpus(seed)
    ix = indexed(docs)
    rng = random.Random(seed + 13)
    dead = sorted(rng.sample(range(len(docs)), len(docs) // 3))
    for row in dead:
        ix.remove(row, docs[row])
    live = [r for r in range(len(docs)) if r not in set(dead)]
    live_docs = [docs[r] for r in live]
    for query in queries(docs, seed):
        got = ix.scores(query, k1=k1, b=b)
        assert not got[dead].any()
        np.testing.assert_allclose(got[live], ours_same_variant(live_docs, query, k1, b), **TOL)
        # The pool scorer over live rows read from that index agrees too.
        tf, dl = ix.pool_tf(query, np.asarray(live, dtype=np.int64))
        np.testing.assert_allclose(bm25_from_tf(tf, dl, k1=k1, b=b).raw, ours_same_variant(live_docs, query, k1, b), **TOL)


def test_term_in_every_document_scores_positive_and_term_in_none_scores_zero() -> None:
    docs = random_corpus(0)
    ix = indexed(docs)
    every = ix.scores([EVERY], k1=1.2, b=0.75)
    assert (every > 0).all()  # Lucene's idf stays positive at df == N (Robertson's would be <= 0)
    np.testing.assert_allclose(every, ours_same_variant(docs, [EVERY], 1.2, 0.75), **TOL)
    assert not ix.scores([NOWHERE], k1=1.2, b=0.75).any()
    assert not bm25_pool([NOWHERE], docs, k1=1.2, b=0.75).raw.any()
    # ...and adding an absent term to a query changes no score.
    both = ix.scores([EVERY, NOWHERE], k1=1.2, b=0.75)
    assert np.array_equal(both, every)


def test_oracle_tells_the_variants_apart() -> None:
    # Guard against a vacuous oracle: the variants bm25s offers really differ on these corpora.
    docs = random_corpus(1)
    query = [EVERY, "w0", "w1"]
    ours = indexed(docs).scores(query, k1=1.2, b=0.75)
    assert ours.max() > 0
    for method, idf_method in [("robertson", "robertson"), ("atire", "atire"), ("lucene", "lucene")]:
        other = oracle(docs, query, 1.2, 0.75, method=method, idf_method=idf_method)
        assert not np.allclose(ours, other, **TOL), method
