"""The ranking pipeline: pool -> lexical -> fusion -> neighbour smoothing -> threshold.

Pure functions over numpy arrays, shared by :class:`memori_core.RecallEngine`
(over an entity's cached rows) and :func:`memori_core.ranking.rerank.rerank`
(over candidates found elsewhere). The callers gather the inputs (cosines,
lexical top rows, neighbour links, pool term frequencies); every formula that
turns them into a ranking is here or in the modules this one calls
(:mod:`.lexical` for BM25, :mod:`.fusion` for weights and ordering).

1. :func:`dense_top` / :func:`assemble_pool`: which rows are scored, and why
   (:data:`SOURCE_DENSE`, :data:`SOURCE_LEXICAL`, :data:`SOURCE_NEIGHBOUR`);
2. :func:`score_pool`: BM25 over the pool, max-normalised, fused with the
   cosine, plus the neighbour bonus (:func:`neighbour_bonus`);
3. :func:`select` (what recall returns) and :func:`fates` (what explain reports).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..config import RecallConfig
from .dense import top_k
from .fusion import fuse, fusion_weights, passes_threshold, rank_order
from .lexical import bm25_from_tf

__all__ = [
    "BELOW_THRESHOLD",
    "BEYOND_LIMIT",
    "KEPT",
    "SOURCE_DENSE",
    "SOURCE_LEXICAL",
    "SOURCE_NEIGHBOUR",
    "NeighbourLookup",
    "Pool",
    "PoolScores",
    "assemble_pool",
    "dense_top",
    "fates",
    "neighbour_bonus",
    "score_pool",
    "select",
    "source_label",
]

SOURCE_DENSE, SOURCE_LEXICAL, SOURCE_NEIGHBOUR = 1, 2, 4
"""Source flags of a pool row: among the dense top, the lexical top, or a neighbour that entered the pool."""

KEPT, BELOW_THRESHOLD, BEYOND_LIMIT = "kept", "below threshold", "beyond limit"
"""Fates of a pool row in an explain report."""

NeighbourLookup = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]
"""``rows -> (before, after)``: for each row, the row said just before / after it (``-1``: none)."""


def source_label(flags: int) -> str:
    """``"dense"``, ``"lexical"``, ``"dense+lexical"`` or ``"neighbour"``."""
    if flags & SOURCE_NEIGHBOUR:
        return "neighbour"
    return "+".join(name for bit, name in ((SOURCE_DENSE, "dense"), (SOURCE_LEXICAL, "lexical")) if flags & bit)


@dataclass(frozen=True)
class Pool:
    """The rows to score, in pool order: dense top, then lexical-only rows, then neighbour entrants."""

    rows: np.ndarray
    """Row numbers (int64)."""
    source: np.ndarray
    """Per row, its ``SOURCE_*`` flags (int8)."""
    links: np.ndarray | None
    """``(2, len(rows))``: each row's neighbour before / after (``-1``: none); ``None``: no smoothing."""


@dataclass(frozen=True)
class PoolScores:
    """Every part of every pool row's score, aligned with ``rows`` (pool order)."""

    rows: np.ndarray
    source: np.ndarray
    cosine: np.ndarray
    """float64."""
    bm25: np.ndarray
    """Raw BM25 with the pool's statistics."""
    lexical: np.ndarray
    """``bm25`` normalised to 0..1 (divided by the pool's maximum)."""
    fused: np.ndarray
    """``w_cos * cosine + w_lex * lexical`` (the cosine alone for a blank query)."""
    bonus: np.ndarray
    """Neighbour smoothing bonus."""
    rank_score: np.ndarray
    """``fused + bonus``: what the pool is ranked and thresholded by."""
    query_tokens: list[str]
    w_cos: float
    w_lex: float


# -- 1. the pool --------------------------------------------------------------


def dense_top(cosine: np.ndarray, k: int, rows: np.ndarray | None = None) -> np.ndarray:
    """Rows of the ``k`` best cosines, best first (ties: lower position first).

    ``cosine[i]`` belongs to row ``rows[i]`` (default: row ``i``); ``-inf``
    marks a row that cannot be recalled (deleted) and is never taken.
    """
    top = top_k(cosine, k)
    top = top[~np.isneginf(cosine[top])]
    return top if rows is None else rows[top]


def assemble_pool(
    dense_rows: np.ndarray,
    lexical_rows: np.ndarray | None = None,
    neighbours_of: NeighbourLookup | None = None,
) -> Pool:
    """The pool: ``dense_rows``, then the ``lexical_rows`` not among them, then the session
    neighbours of all of those that are not in the pool yet (first seen first).

    Each row's neighbours come from ``neighbours_of`` (``None``: no smoothing);
    the entrants' own neighbours are looked up too, so that they can lend the
    entrants a bonus.
    """
    rows = np.asarray(dense_rows, dtype=np.int64)
    source = np.full(rows.shape[0], SOURCE_DENSE, dtype=np.int8)
    if lexical_rows is not None and lexical_rows.shape[0]:
        lexical_rows = np.asarray(lexical_rows, dtype=np.int64)
        source[_member(rows, lexical_rows)] |= SOURCE_LEXICAL
        rows, source = _extend(rows, source, lexical_rows[~_member(lexical_rows, rows)], SOURCE_LEXICAL)
    if neighbours_of is None:
        return Pool(rows, source, None)
    before, after = neighbours_of(rows)
    around = np.column_stack((before, after)).ravel()  # each row's before, then its after
    around = around[around >= 0]
    entrants = _first_occurrences(around[~_member(around, rows)])
    rows, source = _extend(rows, source, entrants, SOURCE_NEIGHBOUR)
    if entrants.shape[0]:
        before2, after2 = neighbours_of(entrants)
        before, after = np.concatenate((before, before2)), np.concatenate((after, after2))
    return Pool(rows, source, np.stack((before, after)))


def _extend(rows: np.ndarray, source: np.ndarray, new: np.ndarray, flag: int) -> tuple[np.ndarray, np.ndarray]:
    if not new.shape[0]:
        return rows, source
    return np.concatenate((rows, new)), np.concatenate((source, np.full(new.shape[0], flag, dtype=np.int8)))


def _member(values: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``np.isin(values, rows)`` for the small arrays of a pool (a sort and a binary search)."""
    if not rows.shape[0]:
        return np.zeros(values.shape[0], dtype=bool)
    sorted_rows = np.sort(rows)
    at = np.minimum(np.searchsorted(sorted_rows, values), sorted_rows.shape[0] - 1)
    return sorted_rows[at] == values


def _first_occurrences(values: np.ndarray) -> np.ndarray:
    """``values`` without repeats, in order of first occurrence."""
    _, first = np.unique(values, return_index=True)
    return values[np.sort(first)]


# -- 2. the scores ------------------------------------------------------------


def score_pool(
    pool: Pool,
    cosine: np.ndarray,
    tf: np.ndarray,
    dl: np.ndarray,
    query_tokens: Sequence[str],
    config: RecallConfig,
    *,
    has_text: bool = True,
) -> PoolScores:
    """Score the pool: BM25 with the pool's statistics, max-normalised, fused with the cosine, smoothed.

    ``cosine``, ``tf`` (pool rows x unique query terms) and ``dl`` (token
    counts) are aligned with ``pool.rows``; ``query_tokens`` (repeats counted)
    choose the fusion weights. Without query text (``has_text=False``) the
    cosine alone is the fused score.
    """
    cosine = cosine.astype(np.float64, copy=False)
    lex = bm25_from_tf(tf, dl, k1=config.k1, b=config.b)
    if has_text:
        w_cos, w_lex = fusion_weights(len(query_tokens), config)
        fused = fuse(cosine, lex.normalised, w_cos, w_lex)
    else:
        w_cos, w_lex = 1.0, 0.0
        fused = cosine.copy()
    if pool.links is None:
        bonus, rank_score = np.zeros_like(fused), fused
    else:
        bonus = neighbour_bonus(pool.rows, fused, pool.links, config.neighbour_weight)
        rank_score = fused + bonus
    return PoolScores(
        rows=pool.rows,
        source=pool.source,
        cosine=cosine,
        bm25=lex.raw,
        lexical=lex.normalised,
        fused=fused,
        bonus=bonus,
        rank_score=rank_score,
        query_tokens=list(query_tokens),
        w_cos=w_cos,
        w_lex=w_lex,
    )


def neighbour_bonus(rows: np.ndarray, fused: np.ndarray, links: np.ndarray, weight: float) -> np.ndarray:
    """``weight`` x the best positive fused score among each row's neighbours in the pool (else 0)."""
    best = _fused_of(links, rows, fused).max(axis=0)  # before / after, one lookup
    return np.where(best > 0, weight * best, 0.0)


def _fused_of(neighbours: np.ndarray, pool: np.ndarray, fused: np.ndarray) -> np.ndarray:
    """Fused score of each neighbour row (any shape) that is in the pool; ``-inf`` for none / not in the pool."""
    order = np.argsort(pool, kind="stable")
    sorted_rows = pool[order]
    at = np.minimum(np.searchsorted(sorted_rows, neighbours), len(sorted_rows) - 1)
    hit = (neighbours >= 0) & (sorted_rows[at] == neighbours)
    return np.where(hit, fused[order[at]], -np.inf)


# -- 3. the outcome -----------------------------------------------------------


def select(scores: PoolScores, limit: int, threshold: float | None) -> np.ndarray:
    """Pool positions that recall returns, best first: the ``limit`` best by
    :func:`~.fusion.rank_order`, less those below ``threshold`` (``None``: no threshold)."""
    top = rank_order(scores.rank_score, scores.cosine, limit)
    return top[passes_threshold(scores.rank_score[top], threshold)]


def fates(scores: PoolScores, limit: int, threshold: float | None) -> tuple[np.ndarray, list[str]]:
    """Every pool position, best first, and its fate (:data:`KEPT`, :data:`BELOW_THRESHOLD`,
    :data:`BEYOND_LIMIT`); the kept ones are exactly :func:`select`'s."""
    order = rank_order(scores.rank_score, scores.cosine)
    passed = passes_threshold(scores.rank_score[order], threshold).tolist()
    fate = [BEYOND_LIMIT if at >= limit else KEPT if ok else BELOW_THRESHOLD for at, ok in enumerate(passed)]
    return order, fate
