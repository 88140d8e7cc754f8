"""What one write did, recorded as it runs (:class:`CacheUpdate`): its intent on the store's revision record, and
the rows it stored, rewrote or deleted, replayed on the writer's cached copy when the write was the only change
(:meth:`~memori_core.cache.coordinator.Coordinator.writing`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..facts import StoredFact
from .entity import EntityCache
from .entity_writes import Tokens


class CacheUpdate:
    """What one write did, to replay on the writer's cached copy if the write was the only change."""

    def __init__(self, begin: Callable[[], str | None] | None = None) -> None:
        self._ops: list[tuple[str, Any, Any]] = []
        self._begin = begin
        self.reload = False
        self.began = False
        """Whether :meth:`begin` was called: the write may have changed the store."""
        self.intent: str | None = None
        """The write's intent on the store's revision record (shared stores), once :meth:`reserve` or
        :meth:`begin` recorded it."""

        self.committed: str | None = None
        """The token the write's commit left (set once :meth:`Coordinator.writing` committed it)."""
        self.only_change = False
        """Whether the commit found the write the only change since the base it was given."""
        self._reserved = False

    def reserve(self) -> None:
        """Record the write's intent before the write reads what it will change (a shared store), so that a
        ``forget`` in another process sees the write in flight (:meth:`Coordinator.erase`). Raises when it
        cannot: the write must stop there, having changed nothing."""
        if not self._reserved and not self.began and self._begin is not None:
            self.intent = self._begin()
        self._reserved = True

    def unreserve(self) -> None:
        """Forget the intent :meth:`reserve` recorded (its caller took it back from the store)."""
        if not self.began:
            self.intent, self._reserved = None, False

    def begin(self) -> None:
        """Call right before the write's first change to the store: records its intent (a shared store) unless
        :meth:`reserve` did, so that no process serves a copy that may predate it. Raises when it cannot: the
        write must stop there."""
        if self.began:
            return
        if self._begin is not None and not self._reserved:
            self.intent = self._begin()
        self.began = True

    def upsert(self, facts: Sequence[StoredFact], vectors: np.ndarray, tokens: Tokens | None = None) -> None:
        """Facts stored (new, or replacing the same ids) with their raw vectors (and their texts' tokens,
        when :meth:`Coordinator.write_and_tokenise` made them)."""
        if len(facts):
            self._ops.append(("upsert", list(facts), (vectors, tokens)))

    def update_seen(self, facts: Sequence[StoredFact]) -> None:
        """Stored facts whose bookkeeping or metadata were rewritten (text and vector unchanged)."""
        if facts:
            self._ops.append(("update_seen", list(facts), None))

    def remove(self, ids: Sequence[str]) -> None:
        """Facts deleted by id."""
        if ids:
            self._ops.append(("remove", list(ids), None))

    def drop(self) -> None:
        """The write is too large or too broad to replay: the next recall reloads the entity."""
        self.reload = True

    def only_rows(self) -> tuple[list[StoredFact], np.ndarray] | None:
        """The facts and raw vectors of a write that did nothing but store them (``None`` for any other write)."""
        if len(self._ops) == 1 and self._ops[0][0] == "upsert":
            _, facts, (vectors, _) = self._ops[0]
            return facts, vectors
        return None

    def apply(self, cache: EntityCache) -> None:
        """Replay the write on ``cache``, in the order it was done."""
        for op, a, b in self._ops:
            if op == "upsert":
                cache.upsert(a, b[0], tokens=b[1])
            elif op == "update_seen":
                cache.update_seen(a)
            else:
                cache.remove(a)
