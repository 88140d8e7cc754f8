"""A bounded recency tie-break between facts of one slot: the newer of two conflicting facts wins a near-tie.

When a change was never superseded ("User lives in Lisbon." and, later, "User lives in Porto.", both
valid), both facts answer "where do I live?" about equally well. The newest of the best candidates that
share a slot key (the same person's same slot of life, :func:`memori_core.slots.slot_keys`) gains
``weight`` (``RecallConfig.slot_recency_weight``, at most :data:`MAX_WEIGHT`): it passes the older one
only when their scores were within ``weight`` of each other, and never moves a fact past one of another
slot by more than that. Only the best ``max(2 * limit, 10)`` candidates are read (their texts' slots are
found then), so the cost is a few regular-expression searches per recall, and none with ``weight`` 0.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from ..slots import slot_keys
from .fusion import rank_order
from .pipeline import PoolScores

__all__ = ["MAX_WEIGHT", "newest_of_slot_bonus", "with_slot_recency"]

MAX_WEIGHT = 0.05
"""The largest ``slot_recency_weight`` a config accepts: a tie-break, not a recency ranking."""


def newest_of_slot_bonus(keys: Sequence[frozenset[str]], created: np.ndarray, weight: float) -> np.ndarray:
    """Per candidate, ``weight`` when it is the newest (by ``created``, epoch seconds; the later one on a
    tie of times) of two or more candidates sharing a key of ``keys``, else 0."""
    bonus = np.zeros(len(keys), dtype=np.float64)
    groups: dict[str, list[int]] = {}
    for i, ks in enumerate(keys):
        for k in ks:
            groups.setdefault(k, []).append(i)
    for members in groups.values():
        if len(members) > 1:
            idx = np.asarray(members)
            newest = idx[np.flatnonzero(created[idx] == created[idx].max())[-1]]
            bonus[newest] = weight
    return bonus


def with_slot_recency(scores: PoolScores, text_of: Callable[[int], str], created_of: Callable[[int], float],
                      limit: int, weight: float) -> PoolScores:
    """``scores`` with :func:`newest_of_slot_bonus` over the best ``max(2 * limit, 10)`` candidates added to
    their ``bonus`` and ``rank_score`` (``text_of(i)`` / ``created_of(i)``: pool row ``i``'s text and time).
    Unchanged when ``weight`` is 0 or fewer than two candidates share a slot."""
    if weight <= 0 or scores.rank_score.shape[0] < 2:
        return scores
    top = rank_order(scores.rank_score, scores.cosine, max(2 * limit, 10))
    keys = [slot_keys(text_of(int(i))) for i in top]
    if sum(1 for k in keys if k) < 2:
        return scores
    created = np.asarray([created_of(int(i)) for i in top], dtype=np.float64)
    extra = newest_of_slot_bonus(keys, created, weight)
    if not extra.any():
        return scores
    add = np.zeros_like(scores.rank_score)
    add[top] = extra
    return replace(scores, bonus=scores.bonus + add, rank_score=scores.rank_score + add)
