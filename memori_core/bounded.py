"""A bounded record of recent keys (:class:`BoundedRecord`): what an adapter remembers of the turns it saw, in a
process that may run for months, without growing."""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

__all__ = ["BoundedRecord"]

K = TypeVar("K")
V = TypeVar("V")


class BoundedRecord(OrderedDict[K, V], Generic[K, V]):
    """An ordered mapping that keeps its ``most`` most recently remembered keys, oldest first.

    :meth:`remember` adds a key (or renews a known one) as the most recent and forgets the oldest beyond
    ``most``; reading, ``in``, ``pop`` and ``del`` are the ``OrderedDict``'s. Not locked: a caller shared by
    threads holds its own lock around each use (often over several records at once).
    """

    def __init__(self, most: int) -> None:
        """``most``: how many keys are kept (an int >= 1, else ``ValueError`` naming it)."""
        if isinstance(most, bool) or not isinstance(most, int) or most < 1:
            raise ValueError(f"most must be an int >= 1, got {most!r}")
        super().__init__()
        self.most = most

    def remember(self, key: K, value: V) -> list[tuple[K, V]]:
        """Record ``key`` with ``value`` as the most recent key; returns the oldest entries forgotten to keep
        ``most`` (``[]`` mostly), so that a caller can report what it dropped."""
        self[key] = value
        self.move_to_end(key)
        forgotten: list[tuple[K, V]] = []
        while len(self) > self.most:
            forgotten.append(self.popitem(last=False))
        return forgotten
