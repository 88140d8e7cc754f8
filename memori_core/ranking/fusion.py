"""Pool sizing, fusion weights, linear fusion, ordering and the relevance threshold."""

from __future__ import annotations

import numpy as np

from ..config import RecallConfig

__all__ = ["candidate_limit", "fuse", "fusion_weights", "passes_threshold", "rank_order", "with_included"]


def candidate_limit(limit: int, rows: int, has_query_text: bool, config: RecallConfig) -> int:
    """Dense pool size: ``max(limit, min(rows, max(limit * multiplier, floor)))``, or ``limit`` without query text."""
    if not has_query_text:
        return limit
    return max(limit, min(rows, max(limit * config.candidate_multiplier, config.candidate_floor)))


def fusion_weights(query_token_count: int, config: RecallConfig) -> tuple[float, float]:
    """``(w_cos, w_lex)`` for a query with this many tokens (stopwords removed, repeats counted)."""
    short = query_token_count <= config.short_query_max_tokens
    w_lex = config.lex_weight_short if short else config.lex_weight
    lo, hi = config.weight_clamp
    w_lex = max(lo, min(hi, float(w_lex)))
    return 1.0 - w_lex, w_lex


def fuse(cosine: np.ndarray, lexical: np.ndarray, w_cos: float, w_lex: float) -> np.ndarray:
    """Linear fusion ``w_cos * cosine + w_lex * lexical`` in float64."""
    return w_cos * cosine.astype(np.float64) + w_lex * lexical


def rank_order(rank_score: np.ndarray, cosine: np.ndarray, k: int | None = None,
               include: np.ndarray | None = None) -> np.ndarray:
    """Pool positions ordered by rank score, then cosine, then pool order (the engine's pool is in written order,
    :func:`~.ties.written_order`, the same in every copy of a store); the first ``k`` only.

    With ``k`` smaller than the pool a partial sort keeps the work to the top rows. ``include`` (a bool
    mask over the pool) names rows that must be among the first ``k``: the best ``k`` of them are, in
    place of the weakest others, and the ``k`` keep the usual order.
    """
    if include is not None and k is not None and include.any():
        return with_included(rank_order(rank_score, cosine), k, include)
    n = rank_score.shape[0]
    if k is None or k >= n:
        idx = np.arange(n)
    elif k <= 0:
        return np.empty(0, dtype=np.int64)
    else:
        # Everything strictly above the k-th score is in; ties at the boundary are
        # resolved below by the full key, so the cut never depends on argpartition's order.
        kth = np.partition(rank_score, n - k)[n - k]
        idx = np.flatnonzero(rank_score >= kth)
    # lexsort: last key is primary.
    order = np.lexsort((idx, -cosine[idx], -rank_score[idx]))
    out = idx[order]
    return out if k is None else out[:k]


def with_included(order: np.ndarray, k: int, include: np.ndarray, held: np.ndarray | None = None) -> np.ndarray:
    """The first ``k`` of the full ranking ``order`` once the best ``k`` rows ``include`` marks (a bool mask over
    the pool) are among them, in place of the weakest others; in ``order``'s order. ``held`` (pool positions, not
    marked by ``include``, at most ``k``) keep their place: the included rows then take only the others'."""
    if k <= 0:
        return order[:0]
    inside = include[order]
    picked = np.zeros(order.shape[0], dtype=bool)
    room = k
    if held is not None and held.size:
        picked[held] = True
        room -= held.shape[0]
        chosen = order[inside][:room]
        others = order[~inside & ~picked[order]][: room - chosen.shape[0]]
    else:
        chosen = order[inside][:k]
        others = order[~inside][: k - chosen.shape[0]]
    picked[chosen] = True
    picked[others] = True
    return order[picked[order]]


def passes_threshold(rank_score: np.ndarray, threshold: float | None) -> np.ndarray:
    """Boolean mask of scores kept by the relevance threshold (all kept when it is ``None``)."""
    if threshold is None:
        return np.ones(rank_score.shape[0], dtype=bool)
    return rank_score >= threshold
