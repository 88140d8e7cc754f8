"""Recency between facts that say the same thing: the newer statement ranks first.

Two rules, over the best candidates only:

- **Restatement** (:func:`with_restatements`, ``RecallConfig.restatement_terms``, on by default): among
  the best candidates, when a newer one holds every query term an older one holds, and those are at
  least ``restatement_terms`` terms, it answers the question at least as fully and more recently ("I got
  pre-approved for $350,000 from Wells Fargo" in March; "remember when I got pre-approved for $400,000 from
  Wells Fargo?" in November): the newest such restatement is lifted just above the older fact. Only the
  :data:`RESTATEMENT_WINDOW` best candidates are read; it reads no text (the query terms' counts are already
  in the pool), and a fact whose match is three words or fewer never moves anything. A question about *when*
  something happened (:func:`asks_when`) is left alone: its answer is the first telling, which carries the
  event's date, not a later "remember when ...".
- **Slot tie-break** (:func:`with_slot_recency`, ``RecallConfig.slot_recency_weight``, off by default),
  described below.

A bounded recency tie-break between facts of one slot: the newer of two conflicting facts wins a near-tie.

When a change was never superseded ("User lives in Lisbon." and, later, "User lives in Porto.", both
valid), both facts answer "where do I live?" about equally well. The newest of the best candidates that
share a slot key (the same person's same slot of life, :func:`memori_core.slots.slot_keys`; newest: the later
said, a fact said again counting from its last saying, which the engine passes as the times) gains
``weight`` (``RecallConfig.slot_recency_weight``, at most :data:`MAX_WEIGHT`): it passes the older one
only when their scores were within ``weight`` of each other, and never moves a fact past one of another
slot by more than that. Only the best ``max(2 * limit, 10)`` candidates are read (their texts' slots are
found then), so the cost is a few regular-expression searches per recall, and none with ``weight`` 0.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from ..slots import slot_keys
from .fusion import rank_order
from .pipeline import PoolScores

__all__ = ["MAX_WEIGHT", "RESTATEMENT_WINDOW", "asks_when", "newest_of_slot_bonus", "restatement_lift",
           "with_restatements", "with_slot_recency"]

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


def with_slot_recency(scores: PoolScores, text_of: Callable[[int], str], created: np.ndarray, limit: int,
                      weight: float) -> PoolScores:
    """``scores`` with :func:`newest_of_slot_bonus` over the best ``max(2 * limit, 10)`` candidates added to
    their ``bonus`` and ``rank_score`` (``text_of(i)``: pool row ``i``'s text; ``created``: each pool row's time,
    epoch seconds). Unchanged when ``weight`` is 0 or fewer than two candidates share a slot."""
    if weight <= 0 or scores.rank_score.shape[0] < 2:
        return scores
    top = rank_order(scores.rank_score, scores.cosine, max(2 * limit, 10))
    keys = [slot_keys(text_of(int(i))) for i in top]
    if sum(1 for k in keys if k) < 2:
        return scores
    return _with_bonus(scores, top, newest_of_slot_bonus(keys, created[top], weight))


def _with_bonus(scores: PoolScores, top: np.ndarray, extra: np.ndarray) -> PoolScores:
    """``scores`` with ``extra`` (aligned with the pool rows ``top``) added to their ``bonus`` and
    ``rank_score``; ``scores`` itself when ``extra`` is all zero."""
    if not extra.any():
        return scores
    add = np.zeros_like(scores.rank_score)
    add[top] = extra
    return replace(scores, bonus=scores.bonus + add, rank_score=scores.rank_score + add)


_WHEN = re.compile(
    r"(?:^|[.!?]\s+)\W*when\b|\bwhen (?:did|was|were|do|does|is|are|will|would|have|has|had)\b"
    r"|\b(?:what|which) (?:year|month|date|day)\b|\bhow long ago\b|\bsince when\b",
    re.IGNORECASE,
)


RESTATEMENT_WINDOW = 10
"""Restatements are looked for among this many best candidates, whatever the recall's ``limit``: a fixed
window keeps a short recall the head of a longer one (a store's pages, ``offset``)."""


def asks_when(query: str) -> bool:
    """Whether an English question asks when something happened ("When did I ...", "What year ...", "How long
    ago ..."): then the first telling is the answer, and restatements are not lifted above it. A "when" that
    opens a clause ("... pre-approved for when I got my mortgage") does not count."""
    return _WHEN.search(query) is not None


def restatement_lift(held: np.ndarray, created: np.ndarray, score: np.ndarray, min_terms: int) -> np.ndarray:
    """Per candidate, the bonus that lifts it just above the best-scored older candidate whose latest
    restatement it is, else 0.

    ``held`` (candidates x query terms, bool): which query terms each candidate holds; ``created`` its time
    (epoch seconds), ``score`` its rank score. Candidate ``b`` restates ``a`` when ``b`` is strictly newer
    and holds every term ``a`` holds, ``a`` holding at least ``min_terms``; only the newest restatement of
    ``a`` (the later candidate on a tie of times) is lifted above it: the ones in between are outdated too.
    """
    n = held.shape[0]
    lift = np.zeros(n, dtype=np.float64)
    enough = held.sum(axis=1) >= min_terms
    if n < 2 or not enough.any():
        return lift
    # restates[b, a]: b is newer than a and no term of a is missing from b.
    covers = ~(held[None, :, :] & ~held[:, None, :]).any(axis=2)
    restates = covers & enough[None, :] & (created[:, None] > created[None, :])
    has = restates.any(axis=0)
    if not has.any():
        return lift
    when = np.where(restates, created[:, None], -np.inf)
    latest = n - 1 - np.argmax(when[::-1], axis=0)  # per a: its newest restatement (the later one on a tie)
    mine = (latest[None, :] == np.arange(n)[:, None]) & has[None, :]
    target = np.where(mine, score[None, :], -np.inf).max(axis=1)
    lifted = target > score
    # A hair above the one it restates: far below any real score difference.
    lift[lifted] = target[lifted] - score[lifted] + 1e-9 * (1.0 + np.abs(target[lifted]))
    return lift


def with_restatements(scores: PoolScores, tf: np.ndarray, created: np.ndarray, min_terms: int | None) -> PoolScores:
    """``scores`` with :func:`restatement_lift` over the :data:`RESTATEMENT_WINDOW` best candidates added to
    their ``bonus`` and ``rank_score`` (``tf``: pool rows x unique query terms, as scored; ``created``: each
    pool row's time, epoch seconds). ``min_terms=None``: off."""
    if min_terms is None or scores.rank_score.shape[0] < 2 or tf.ndim != 2 or tf.shape[1] < min_terms:
        return scores
    top = rank_order(scores.rank_score, scores.cosine, RESTATEMENT_WINDOW)
    lift = restatement_lift(tf[top] > 0, created[top], scores.rank_score[top].astype(np.float64), min_terms)
    return _with_bonus(scores, top, lift)
