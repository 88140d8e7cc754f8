"""CSRIndex: whole-memory BM25 kept current by add/remove, checked against the reference ``_bm25.reference_bm25``."""

from __future__ import annotations

import random

import numpy as np
import pytest

from _bm25 import TokenIndex, reference_bm25

VOCAB = [f"w{i}" for i in range(25)]


def random_doc(rng: random.Random) -> list[str]:
    # Skewed word choice so some terms are common and some rare; empty docs happen too.
    return [VOCAB[min(int(rng.expovariate(0.25)), len(VOCAB) - 1)] for _ in range(rng.randint(0, 12))]


def assert_matches_reference(ix: TokenIndex, live: dict[int, list[str]], query: list[str], k1: float, b: float):
    got = ix.scores(query, k1=k1, b=b)
    assert got.shape == (ix.n_rows,)
    ref = dict(zip(live, reference_bm25(query, list(live.values()), k1, b)))  # statistics of the live docs only
    for row in range(ix.n_rows):
        expected = ref.get(row, 0.0)  # removed rows score 0
        assert got[row] == pytest.approx(expected, rel=1e-9, abs=1e-12), (row, query)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("k1,b", [(1.2, 0.4), (1.2, 0.75), (0.9, 0.0), (2.0, 1.0)])
def test_scores_equal_reference_bm25_after_random_adds_and_removes(seed: int, k1: float, b: float) -> None:
    rng = random.Random(seed * 31 + int(10 * b))
    ix = TokenIndex()
    docs: list[list[str]] = []
    live: dict[int, list[str]] = {}
    for step in range(120):
        if live and rng.random() < 0.3:
            row = rng.choice(sorted(live))
            ix.remove(row, docs[row])
            del live[row]
        else:
            doc = random_doc(rng)
            ix.add(len(docs), doc)
            live[len(docs)] = doc
            docs.append(doc)
        if step % 20 == 19:
            query = [rng.choice(VOCAB) for _ in range(rng.randint(1, 4))]
            query = list(dict.fromkeys(query))
            assert_matches_reference(ix, live, query, k1, b)
    assert ix.n_alive == len(live)
    assert ix.total_len == sum(len(d) for d in live.values())
    assert_matches_reference(ix, live, ["w0", "w3", "w17"], k1, b)


def test_removed_row_scores_zero_and_leaves_the_statistics() -> None:
    ix = TokenIndex()
    ix.add(0, ["apple", "pie"])
    ix.add(1, ["apple", "apple", "apple", "apple", "apple", "apple"])
    ix.add(2, ["banana"])
    ix.remove(1, ["apple"] * 6)
    scores = ix.scores(["apple"], k1=1.2, b=0.75)
    assert scores[1] == 0.0
    # Whole-memory statistics of the two live docs only: N=2, df(apple)=1, avgdl=1.5.
    ref = reference_bm25(["apple"], [["apple", "pie"], ["banana"]], 1.2, 0.75)
    assert scores[0] == pytest.approx(ref[0])
    assert scores[2] == 0.0
    # Removing twice changes nothing.
    ix.remove(1, ["apple"] * 6)
    assert ix.n_alive == 2
    assert np.array_equal(ix.scores(["apple"], k1=1.2, b=0.75), scores)


def test_term_only_in_removed_rows_matches_nothing() -> None:
    ix = TokenIndex()
    ix.add(0, ["gone"])
    ix.add(1, ["kept"])
    ix.remove(0, ["gone"])
    assert not ix.scores(["gone"], k1=1.2, b=0.4).any()
    rows, scores = ix.top(["gone"], 5, k1=1.2, b=0.4)
    assert rows.size == 0 and scores.size == 0


def test_all_rows_removed_gives_zeros() -> None:
    ix = TokenIndex()
    ix.add(0, ["a"])
    ix.remove(0, ["a"])
    assert ix.n_alive == 0
    assert np.array_equal(ix.scores(["a"], k1=1.2, b=0.4), np.zeros(1))


def test_rows_must_be_appended_in_order() -> None:
    ix = TokenIndex()
    ix.add(0, ["a"])
    with pytest.raises(ValueError, match="in order"):
        ix.add(2, ["b"])
    with pytest.raises(ValueError):
        ix.add(0, ["b"])


def test_empty_query_scores_nothing() -> None:
    ix = TokenIndex()
    ix.add(0, ["a"])
    assert not ix.scores([], k1=1.2, b=0.4).any()


@pytest.mark.parametrize("seed", range(4))
def test_top_is_the_best_positive_rows_in_score_order(seed: int) -> None:
    rng = random.Random(100 + seed)
    ix = TokenIndex()
    docs = []
    for row in range(200):
        doc = random_doc(rng)
        ix.add(row, doc)
        docs.append(doc)
    for row in rng.sample(range(200), 40):
        ix.remove(row, docs[row])
    query = ["w2", "w9"]
    full = ix.scores(query, k1=1.2, b=0.4)
    for k in (1, 7, 30, 500):
        rows, scores = ix.top(query, k, k1=1.2, b=0.4)
        positive = np.flatnonzero(full > 0)
        assert rows.size == min(k, positive.size)
        assert np.all(scores > 0)
        assert np.array_equal(scores, full[rows])
        assert np.all(np.diff(scores) <= 0)  # best first
        # Nothing left out scores higher than the last one taken.
        left_out = np.setdiff1d(positive, rows)
        if rows.size and left_out.size:
            assert full[left_out].max() <= scores[-1]


def test_top_ties_rank_lower_rows_first_even_at_the_cut() -> None:
    ix = TokenIndex()
    for row in range(300):
        ix.add(row, ["same"])
    rows, scores = ix.top(["same"], 10, k1=1.2, b=0.75)
    assert rows.tolist() == list(range(10))
    assert np.all(scores == scores[0])
    # Mixed: every third row has a second matching word and scores higher.
    ix2 = TokenIndex()
    for row in range(300):
        ix2.add(row, ["x", "y"] if row % 3 == 0 else ["x", "z"])
    rows, _ = ix2.top(["x", "y"], 105, k1=1.2, b=0.75)
    assert rows[:100].tolist() == list(range(0, 300, 3))
    assert rows[100:].tolist() == [1, 2, 4, 5, 7]


def test_top_with_k_zero_is_empty() -> None:
    ix = TokenIndex()
    ix.add(0, ["a"])
    rows, scores = ix.top(["a"], 0, k1=1.2, b=0.4)
    assert rows.size == 0 and scores.size == 0


def test_nbytes_is_positive_and_grows_with_postings() -> None:
    ix = TokenIndex()
    ix.add(0, ["a", "b"])
    small = ix.nbytes()
    assert small > 0
    for row in range(1, 500):
        ix.add(row, ["a", "b", f"t{row % 50}"])
    big = ix.nbytes()
    assert big > small
    # More postings of existing terms alone also grow it.
    for row in range(500, 1500):
        ix.add(row, ["a", "b"])
    assert ix.nbytes() > big


# -- CSRIndex: the same statistics and floats from CSR postings of term ids ------------


def _csr_of(docs: list[list[str]]):
    from memori_core.cache.postings import CSRIndex

    vocab: dict[str, int] = {}
    ids = [[vocab.setdefault(t, len(vocab)) for t in d] for d in docs]
    ptr = np.zeros(len(docs) + 1, dtype=np.int64)
    np.cumsum([len(d) for d in ids], out=ptr[1:])
    flat = np.asarray([t for d in ids for t in d], dtype=np.int32)
    return CSRIndex.build(vocab, ptr, flat), vocab


@pytest.mark.parametrize("seed", range(5))
def test_csr_index_built_then_appended_equals_one_grown_from_empty(seed: int) -> None:
    rng = random.Random(seed)
    docs = [random_doc(rng) for _ in range(80)]
    csr, vocab = _csr_of(docs[:50])  # built vectorised from the first 50 rows...
    plain = TokenIndex()
    for row, doc in enumerate(docs[:50]):
        plain.add(row, doc)
    for row, doc in enumerate(docs[50:], start=50):  # ...the rest appended row by row
        csr.add(row, [csr.term_id(t) for t in doc])
        plain.add(row, doc)
    for row in rng.sample(range(80), 20):
        csr.remove(row, [vocab[t] for t in docs[row]])
        plain.remove(row, docs[row])
    assert csr.n_rows == plain.n_rows and csr.n_alive == plain.n_alive and csr.total_len == plain.total_len
    for _ in range(15):
        query = list(dict.fromkeys(rng.choice(VOCAB + ["unseen"]) for _ in range(rng.randint(1, 4))))
        np.testing.assert_array_equal(csr.scores(query, k1=1.2, b=0.75), plain.scores(query, k1=1.2, b=0.75))
        a_rows, a_scores = csr.top(query, 10, k1=1.2, b=0.4)
        b_rows, b_scores = plain.top(query, 10, k1=1.2, b=0.4)
        assert a_rows.tolist() == b_rows.tolist() and a_scores.tolist() == b_scores.tolist()
        pool = np.asarray(sorted(rng.sample(range(80), 25)), dtype=np.int64)
        for x, y in zip(csr.pool_tf(query, pool), plain.pool_tf(query, pool)):
            np.testing.assert_array_equal(x, y)


def test_csr_postings_hold_rows_ascending_with_term_counts() -> None:
    csr, vocab = _csr_of([["a", "b", "a"], [], ["b"], ["a"]])
    rows, tfs = csr.postings(vocab["a"])
    assert rows.tolist() == [0, 3] and tfs.tolist() == [2, 1]
    rows, tfs = csr.postings(vocab["b"])
    assert rows.tolist() == [0, 2] and tfs.tolist() == [1, 1]
    assert csr.df[: len(vocab)].tolist() == [2, 2]
