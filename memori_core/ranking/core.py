"""Core facts: the few facts worth a few tokens on every turn (an allergy, a medication, a diet).

A fact is core when its own user metadata holds ``"core": True`` (``add(..., core=True)`` sets it,
``update(..., core=...)`` sets or clears it, a caller may also set it by hand). After the ranking
and the gate have chosen what recall returns, up to ``RecallConfig.core_limit`` core facts that
were not chosen are appended, most relevant first: whatever the question about the user, they reach the
prompt. The engine appends none to a courtesy turn, nor to a question about someone else ("What does my husband
like for breakfast?": :func:`~memori_core.ranking.implications.asked_about`; "A gift for my grandson?":
:func:`~memori_core.ranking.implications.gift_for`); to a question about the world (by its shape) or a turn that
tells rather than asks ("Big news, I got the job!"; not one qualifying the asker's request just made) only those
whose concerns its words touch (:func:`core_touched`: "What's in a Caesar salad?" keeps the egg allergy, "How many
grams of sugar are in a can of cola?" metformin and not the peanut allergy, "What's the capital of Peru?" nothing).

Pure functions over numpy arrays: the engine gathers the core rows that may be recalled (live, not
expired, matching ``where``) with their cosines to the query and their recency.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..facts import CORE_KEY, is_core
from .concerns import fact_concerns

__all__ = ["CORE", "CORE_KEY", "core_picks", "core_touched", "is_core"]

CORE = "core (injected)"
"""Fate (``explain``) of a core fact appended after the recalled ones (``kept`` is true)."""



def core_picks(cosine: np.ndarray, recency: np.ndarray, chosen: np.ndarray, limit: int) -> np.ndarray:
    """Positions of the core facts to append, in the order they are appended.

    ``cosine`` (to the query) and ``recency`` (epoch seconds) describe the core facts that may be
    recalled; ``chosen`` (bool) marks those the ranking already returns. At most ``limit`` of the
    others are picked: best cosine first, a tie going to the more recent fact, then to the lower position.
    """
    if limit <= 0 or cosine.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    free = np.flatnonzero(~np.asarray(chosen, dtype=bool))
    if free.shape[0] == 0:
        return free.astype(np.int64)
    # lexsort: last key first; stable, so equal keys keep position order.
    order = np.lexsort((-np.asarray(recency, dtype=np.float64)[free], -np.asarray(cosine, dtype=np.float64)[free]))
    return free[order[:limit]].astype(np.int64)


def core_touched(texts: Sequence[str], concerns: frozenset[str]) -> np.ndarray:
    """Which core facts (``texts``) a question about the world keeps: those whose own concerns
    (:func:`~memori_core.ranking.concerns.fact_concerns`) meet the question's ``concerns`` (bool per fact).

    >>> core_touched(["User is allergic to eggs.", "User has coeliac disease."], frozenset({"egg"})).tolist()
    [True, False]
    """
    if not concerns:
        return np.zeros(len(texts), dtype=bool)
    return np.fromiter((not fact_concerns(t).isdisjoint(concerns) for t in texts), dtype=bool, count=len(texts))
