"""The one order of rows tied on a score: the earlier written first (``seq``), then by fact id.

Row numbers are the history of one in-process copy (appended, compacted, reloaded, restored from a snapshot), so a
tie broken by row position could make two copies of the same store answer differently. ``seq`` and the id are
what every copy reads from the store; the ids are read only for rows whose ``seq`` repeats, which the engine's
writes never give (a write's ``seq`` is its time in nanoseconds plus the fact's place in it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np

__all__ = ["TieOrder", "Written", "later_first", "written_order"]

TieOrder = Callable[[np.ndarray], np.ndarray]
"""Given row numbers, the positions that put them in tie order (a permutation of ``range(len(rows))``)."""


class Written(Protocol):
    """What the tie order reads of an entity's rows."""

    @property
    def seq(self) -> np.ndarray: ...

    def row_ids(self, rows: np.ndarray) -> Sequence[str]: ...


def written_order(memory: Written) -> TieOrder:
    """The tie order of ``memory``'s rows: by ``seq``, then fact id."""
    seq_all = memory.seq

    def order(rows: np.ndarray) -> np.ndarray:
        seq = seq_all[rows]
        by_seq = np.argsort(seq, kind="stable")
        ordered = seq[by_seq]
        if ordered.shape[0] > 1 and bool((ordered[1:] == ordered[:-1]).any()):
            ids = np.asarray(memory.row_ids(rows), dtype=str)
            return np.lexsort((ids, seq))
        return by_seq

    return order


def later_first(tie: TieOrder) -> TieOrder:
    """``tie`` reversed: the later written first (of rows equally recent, the more recent)."""
    return lambda rows: tie(rows)[::-1]
