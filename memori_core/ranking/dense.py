"""Exact cosine scoring of a query against an entity's normalised embedding matrix."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["cosine_scores", "l2_normalise", "top_k"]


def l2_normalise(matrix: np.ndarray) -> np.ndarray:
    """Row-wise L2 normalisation to float32; zero rows stay zero (they score 0)."""
    m = np.asarray(matrix, dtype=np.float32)
    if m.ndim == 1:
        m = m[None, :]
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(m / norms, dtype=np.float32)


def cosine_scores(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Cosine of ``query`` (normalised, 1-d) against every row of ``matrix`` (normalised)."""
    return matrix @ query


def top_k(scores: np.ndarray, k: int, tie: Callable[[np.ndarray], np.ndarray] | None = None) -> np.ndarray:
    """Indices of the ``k`` highest scores, best first (partial sort, then sort of the kept rows).

    Equal scores are ordered by ``tie`` (given indices, the positions that put them in order:
    :func:`~.ties.written_order`), both at the cut and among the kept; without it by index (stable).
    """
    n = scores.shape[0]
    if k <= 0 or n == 0:
        return np.empty(0, dtype=np.int64)
    if k < n:
        # Everything strictly above the k-th best score is in; of the rows tied
        # with it, the first in tie order fill the remaining places (argpartition
        # alone would pick an arbitrary subset of the tied rows).
        kth = np.partition(scores, n - k)[n - k]
        above = np.flatnonzero(scores > kth)
        tied = np.flatnonzero(scores == kth)
        need = k - above.size
        if tie is not None and tied.size > need:
            tied = tied[tie(tied)]
        kept = np.concatenate([above, tied[:need]])
        kept.sort()
    else:
        kept = np.arange(n)
    order = np.argsort(-scores[kept], kind="stable")
    out = kept[order]
    if tie is not None and out.shape[0] > 1:
        ranked = scores[out]
        if bool((ranked[1:] == ranked[:-1]).any()):  # equal scores among the kept: ordered by ``tie``
            kept = kept[tie(kept)]
            out = kept[np.argsort(-scores[kept], kind="stable")]
    return out
