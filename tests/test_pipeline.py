"""memori_core.ranking.pipeline: pool assembly, scoring, neighbour bonus and selection over plain arrays."""

from __future__ import annotations

import numpy as np
import pytest

from memori_core import RecallConfig
from memori_core.ranking.lexical import bm25_pool
from memori_core.ranking.pipeline import (
    BELOW_THRESHOLD,
    BEYOND_LIMIT,
    KEPT,
    SOURCE_DENSE,
    SOURCE_LEXICAL,
    SOURCE_NEIGHBOUR,
    assemble_pool,
    dense_top,
    fates,
    score_pool,
    select,
    source_label,
)


def chain_neighbours(n: int):
    """Rows 0..n-1 said in one session, in order: row r's neighbours are r-1 and r+1."""

    def lookup(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        before = np.where(rows > 0, rows - 1, -1)
        after = np.where(rows < n - 1, rows + 1, -1)
        return before.astype(np.int64), after.astype(np.int64)

    return lookup


def test_dense_top_skips_minus_inf_and_maps_positions_to_rows() -> None:
    cos = np.array([0.1, -np.inf, 0.9, 0.5], dtype=np.float32)
    assert dense_top(cos, 3).tolist() == [2, 3, 0]
    assert dense_top(cos, 10).tolist() == [2, 3, 0]
    assert dense_top(cos, 2, rows=np.array([40, 41, 42, 43])).tolist() == [42, 43]


def test_pool_is_dense_then_new_lexical_then_neighbours_first_seen_first() -> None:
    pool = assemble_pool(np.array([5, 9]), np.array([9, 2, 5, 14]), chain_neighbours(20))
    # Lexical-only rows 2 and 14 follow the dense rows; then the neighbours of 5, 9, 2, 14
    # in that order (before, then after), skipping rows already in.
    assert pool.rows.tolist() == [5, 9, 2, 14, 4, 6, 8, 10, 1, 3, 13, 15]
    assert pool.source.tolist() == [SOURCE_DENSE | SOURCE_LEXICAL] * 2 + [SOURCE_LEXICAL] * 2 + [SOURCE_NEIGHBOUR] * 8
    assert [source_label(int(f)) for f in pool.source[[0, 2, 4]]] == ["dense+lexical", "lexical", "neighbour"]
    # Links cover every pool row, the entrants included.
    assert pool.links is not None and pool.links.shape == (2, 12)
    assert pool.links[:, 4].tolist() == [3, 5] and pool.links[:, 0].tolist() == [4, 6]


def test_pool_without_lexical_rows_or_neighbours() -> None:
    pool = assemble_pool(np.array([3, 1]))
    assert pool.rows.tolist() == [3, 1] and pool.source.tolist() == [SOURCE_DENSE] * 2 and pool.links is None
    assert assemble_pool(np.array([3, 1]), np.array([], dtype=np.int64)).rows.tolist() == [3, 1]


def test_scores_fuse_normalised_bm25_and_add_the_neighbour_bonus() -> None:
    cfg = RecallConfig(neighbour_weight=0.5)
    docs = [["tea"], ["milk"], ["tea", "tea"]]
    pool = assemble_pool(np.array([0, 1, 2]), None, chain_neighbours(3))
    lex = bm25_pool(["tea"], docs, k1=cfg.k1, b=cfg.b)
    tf = np.array([[1.0], [0.0], [2.0]])
    dl = np.array([1.0, 1.0, 2.0])
    cosine = np.array([0.2, 0.6, 0.1], dtype=np.float32)
    s = score_pool(pool, cosine, tf, dl, ["tea"], cfg)
    assert np.array_equal(s.bm25, lex.raw) and np.array_equal(s.lexical, lex.normalised)
    assert np.array_equal(s.fused, s.w_cos * cosine.astype(np.float64) + s.w_lex * lex.normalised)
    best_neighbour = np.array([s.fused[1], max(s.fused[0], s.fused[2]), s.fused[1]])
    np.testing.assert_array_equal(s.bonus, 0.5 * best_neighbour)
    np.testing.assert_array_equal(s.rank_score, s.fused + s.bonus)


def test_blank_query_ranks_by_cosine_alone() -> None:
    pool = assemble_pool(np.array([0, 1]))
    s = score_pool(pool, np.array([0.3, 0.7]), np.zeros((2, 0)), np.zeros(2), [], RecallConfig(), has_text=False)
    assert s.rank_score.tolist() == [0.3, 0.7] and (s.w_cos, s.w_lex) == (1.0, 0.0)


@pytest.mark.parametrize(("limit", "threshold"), [(2, 0.5), (10, 0.5), (3, None), (1, 0.95)])
def test_fates_agree_with_select(limit: int, threshold: float | None) -> None:
    pool = assemble_pool(np.arange(6))
    s = score_pool(pool, np.array([0.9, 0.2, 0.6, 0.6, 0.8, 0.1]), np.zeros((6, 0)), np.ones(6), [], RecallConfig(),
                   has_text=False)
    order, fate = fates(s, limit, threshold)
    assert order.tolist() == [0, 4, 2, 3, 1, 5]  # ties (2, 3) by pool order
    kept = [int(i) for i, f in zip(order, fate) if f == KEPT]
    assert kept == select(s, limit, threshold).tolist()
    assert all(f == BEYOND_LIMIT for f in fate[limit:])
    assert all(f in (KEPT, BELOW_THRESHOLD) for f in fate[:limit])
