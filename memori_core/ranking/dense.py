"""Exact cosine scoring of a query against an entity's normalised embedding matrix."""

from __future__ import annotations

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


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` highest scores, best first (partial sort, then sort of the kept rows).

    Ties keep index order (stable), so equal scores rank the earlier row first.
    """
    n = scores.shape[0]
    if k <= 0 or n == 0:
        return np.empty(0, dtype=np.int64)
    if k < n:
        # Everything strictly above the k-th best score is in; of the rows tied
        # with it, the earliest fill the remaining places (argpartition alone
        # would pick an arbitrary subset of the tied rows).
        kth = np.partition(scores, n - k)[n - k]
        above = np.flatnonzero(scores > kth)
        tied = np.flatnonzero(scores == kth)[: k - above.size]
        kept = np.concatenate([above, tied])
        kept.sort()
    else:
        kept = np.arange(n)
    order = np.argsort(-scores[kept], kind="stable")
    return kept[order]
