"""Pool size, fusion, ordering, threshold (ranking.fusion) and dense top-k (ranking.dense)."""

from __future__ import annotations

import numpy as np
import pytest

from _memori_upstream import load_memori_search
from memori_core.config import RecallConfig
from memori_core.ranking.dense import cosine_scores, l2_normalise, top_k
from memori_core.ranking.fusion import candidate_limit, fuse, passes_threshold, rank_order

# -- candidate pool size --------------------------------------------------


@pytest.mark.parametrize(
    ("limit", "rows", "has_text", "expected"),
    [
        (5, 1000, True, 50),  # floor 50 beats 5 * 10
        (10, 1000, True, 100),  # 10 * 10 beats the floor
        (15, 1000, True, 150),
        (5, 30, True, 30),  # fewer rows than the pool: all rows
        (10, 70, True, 70),
        (5, 3, True, 5),  # never below the limit, even with fewer rows
        (1, 1, True, 1),
        (1, 0, True, 1),
        (5, 1000, False, 5),  # no query text: just the limit
        (12, 3, False, 12),
    ],
)
def test_candidate_limit_table(limit, rows, has_text, expected):
    assert candidate_limit(limit, rows, has_text, RecallConfig.memori_compat()) == expected


def test_candidate_limit_follows_config_knobs():
    cfg = RecallConfig(candidate_multiplier=3, candidate_floor=7)
    assert candidate_limit(2, 100, True, cfg) == 7
    assert candidate_limit(4, 100, True, cfg) == 12
    assert candidate_limit(4, 9, True, cfg) == 9


def test_candidate_limit_equals_upstream_on_a_grid():
    upstream = load_memori_search()._core._candidate_limit
    cfg = RecallConfig.memori_compat()
    for limit in range(1, 21):
        for rows in range(0, 401, 7):
            for text in ("coffee", ""):
                assert candidate_limit(limit, rows, bool(text), cfg) == upstream(
                    limit=limit, total_embeddings=rows, query_text=text
                ), (limit, rows, text)


# -- fusion and ordering --------------------------------------------------


def test_fuse_is_linear_in_float64():
    cos = np.array([0.5, -0.2, 1.0], dtype=np.float32)
    lex = np.array([1.0, 0.0, 0.25])
    got = fuse(cos, lex, 0.7, 0.3)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, 0.7 * cos.astype(np.float64) + 0.3 * lex)


def _reference_order(score: np.ndarray, cosine: np.ndarray) -> np.ndarray:
    """Full sort by score desc, then cosine desc, then pool position."""
    return np.array(sorted(range(len(score)), key=lambda i: (-score[i], -cosine[i], i)), dtype=np.int64)


def test_rank_order_ties_break_by_cosine_then_pool_order():
    score = np.array([0.5, 0.9, 0.5, 0.5, 0.1])
    cosine = np.array([0.1, 0.2, 0.3, 0.1, 0.9])
    assert rank_order(score, cosine).tolist() == [1, 2, 0, 3, 4]
    # Ties at the cut are resolved by the full key, not by where the partial sort put them.
    assert rank_order(score, cosine, 2).tolist() == [1, 2]
    assert rank_order(score, cosine, 3).tolist() == [1, 2, 0]
    assert rank_order(score, cosine, 4).tolist() == [1, 2, 0, 3]


def test_rank_order_equals_full_sort_on_random_pools_with_ties():
    rng = np.random.default_rng(8)
    for _ in range(1500):
        n = int(rng.integers(1, 120))
        # Few distinct values, so ties (also at the cut) are frequent.
        score = rng.integers(0, 5, n).astype(np.float64) / 4
        cosine = rng.integers(0, 3, n).astype(np.float64) / 2
        full = _reference_order(score, cosine)
        assert np.array_equal(rank_order(score, cosine), full)
        k = int(rng.integers(1, n + 3))
        assert np.array_equal(rank_order(score, cosine, k), full[:k]), (score, cosine, k)


def test_rank_order_partial_k_on_continuous_scores():
    rng = np.random.default_rng(9)
    score, cosine = rng.random(500), rng.random(500)
    full = _reference_order(score, cosine)
    for k in (1, 5, 50, 499, 500, 800):
        assert np.array_equal(rank_order(score, cosine, k), full[:k])


@pytest.mark.parametrize("k", [0, -1])
def test_rank_order_non_positive_k_is_empty(k):
    assert rank_order(np.array([0.3, 0.2]), np.array([0.1, 0.1]), k).size == 0


def test_rank_order_empty_pool():
    assert rank_order(np.zeros(0), np.zeros(0)).size == 0
    assert rank_order(np.zeros(0), np.zeros(0), 5).size == 0


def test_passes_threshold_is_inclusive_and_none_keeps_everything():
    scores = np.array([0.05, 0.1, 0.2, -0.3])
    assert passes_threshold(scores, 0.1).tolist() == [False, True, True, False]
    assert passes_threshold(scores, None).tolist() == [True, True, True, True]
    assert passes_threshold(scores, 0.0).tolist() == [True, True, True, False]
    assert passes_threshold(np.zeros(0), None).shape == (0,)


# -- dense ----------------------------------------------------------------


def test_top_k_equals_a_stable_full_argsort():
    rng = np.random.default_rng(10)
    for _ in range(2000):
        n = int(rng.integers(1, 100))
        if rng.random() < 0.5:
            scores = rng.integers(0, 4, n).astype(np.float32)  # many ties, also across the cut
        else:
            scores = rng.standard_normal(n).astype(np.float32)
        k = int(rng.integers(1, n + 3))
        want = np.argsort(-scores, kind="stable")[:k]
        assert np.array_equal(top_k(scores, k), want), (scores, k)


def test_top_k_keeps_the_earliest_of_tied_rows_at_the_cut():
    scores = np.array([1.0, 2.0, 1.0, 1.0, 1.0, 0.0])
    assert top_k(scores, 3).tolist() == [1, 0, 2]
    # Equal recency (facts added in one call) keeps the earliest rows, whatever the array size.
    assert top_k(np.ones(1000), 5).tolist() == [0, 1, 2, 3, 4]


@pytest.mark.parametrize(("n", "k"), [(0, 3), (5, 0), (5, -2)])
def test_top_k_empty_cases(n, k):
    assert top_k(np.ones(n), k).size == 0


def test_l2_normalise_unit_rows_and_zero_rows_stay_zero():
    m = np.array([[3.0, 4.0], [0.0, 0.0], [-1.0, 0.0]])
    got = l2_normalise(m)
    assert got.dtype == np.float32 and got.flags["C_CONTIGUOUS"]
    np.testing.assert_allclose(got, [[0.6, 0.8], [0.0, 0.0], [-1.0, 0.0]])
    assert l2_normalise(np.array([0.0, 2.0])).tolist() == [[0.0, 1.0]]  # 1-d input becomes one row


def test_cosine_scores_are_cosines():
    rng = np.random.default_rng(11)
    raw = rng.standard_normal((50, 16))
    q = rng.standard_normal(16)
    got = cosine_scores(l2_normalise(raw), l2_normalise(q)[0])
    want = raw @ q / (np.linalg.norm(raw, axis=1) * np.linalg.norm(q))
    np.testing.assert_allclose(got, want, atol=1e-6)


def test_top_k_of_cosine_scores_equals_faiss_exact_inner_product_search():
    faiss = pytest.importorskip("faiss")
    rng = np.random.default_rng(12)
    for n, d in ((1, 8), (60, 16), (1000, 32)):
        matrix = l2_normalise(rng.standard_normal((n, d)))
        index = faiss.IndexFlatIP(d)  # the oracle: FAISS's exact inner-product search
        index.add(matrix.astype(np.float32))
        for _ in range(10):
            q = l2_normalise(rng.standard_normal(d))[0]
            exact = cosine_scores(matrix, q)
            for k in (1, 5, 50, n + 10):
                scores, idx = index.search(q[None, :].astype(np.float32), min(k, n))
                want = top_k(exact, k)
                got = idx[0]
                # FAISS scores in float32: where two rows tie to within its precision it may list them in either
                # order, so the ids must agree everywhere except between rows whose exact scores are that close.
                differ = got != want
                assert np.all(np.abs(exact[got[differ]] - exact[want[differ]]) < 1e-6)
                np.testing.assert_allclose(scores[0], exact[want], atol=1e-5)
