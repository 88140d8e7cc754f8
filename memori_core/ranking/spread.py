"""How many facts the relevance gate lets through once it is open: the spread cut.

The gate (:mod:`.gate`) decides per fact; it keeps every fact among the ``limit`` best whose cosine clears
``gate_keep``, however far below the best kept fact it is. The spread cut drops, of the facts kept on their
cosine alone, those more than ``RecallConfig.gate_spread`` below the best kept fact's gate cosine: when one fact
clearly answers the question, the others that only just clear the bar are more often noise than evidence. The
first fact kept and the facts a second signal vouches for (care facts, implications, a follow-up's best) always
stay. Off by default (``gate_spread=None``): measured on the development sets, every spread that lowered the
facts per abstention question lost needed facts at the same rate (``docs/ranking.md``, item 42).
"""

from __future__ import annotations

import numpy as np

__all__ = ["BELOW_SPREAD", "beyond_spread"]

BELOW_SPREAD = "far below the best kept"
"""Fate of a fact the gate kept on its cosine alone that the spread cut drops (``explain``'s reason)."""


def beyond_spread(gate_cosine: np.ndarray, keep: np.ndarray, vouched: np.ndarray, spread: float | None) -> np.ndarray:
    """Per fact (rank order), whether the spread cut drops it: kept by the gate, not vouched for by a second
    signal, not the first fact kept, and with a gate cosine more than ``spread`` below the best kept one's.
    ``gate_cosine`` is what the gate's cutoffs read (with the third-person lift); ``None`` drops nothing."""
    n = keep.shape[0]
    if spread is None or int(keep.sum()) < 2:
        return np.zeros(n, dtype=bool)
    best = float(gate_cosine[keep].max())
    drop = keep & ~vouched & (gate_cosine < best - spread)
    drop[int(np.argmax(keep))] = False
    return drop
