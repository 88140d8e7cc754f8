"""The turns no model answered (:class:`UnansweredTurns`), kept for their user's next answered turn.

An adapter that captures a turn once the model has answered it (the LangChain ``create_agent`` middleware, the
LangGraph capture node) never captures a turn whose model call raised, or whose streamed answer the client
abandoned, on its own. The thread's checkpoint still holds it, but the user may never come back to that thread
(a new chat after an error page). So the adapter keeps such a turn here, in the process, and the user's next
answered turn, in whichever thread, hands it to capture first. The record is bounded (a user who never comes
back must not hold memory for ever): what it forgets is returned to the adapter, which counts it as a dropped
capture (:attr:`memori_core.capture.CaptureStats.dropped`). A turn of a user forgotten (``engine.forget``) since
it began is never handed out, nor counted: the forget erased it.
"""

from __future__ import annotations

import os
import threading
import weakref
from dataclasses import dataclass
from typing import Generic, TypeVar

from .bounded import BoundedRecord
from .lanes import ERASURES

__all__ = ["MISSED_TURNS_DEFAULT", "UNANSWERED_KEPT", "Unanswered", "UnansweredTurns"]

K = TypeVar("K")
T = TypeVar("T")

MISSED_TURNS_DEFAULT = 3
"""How many of a user's most recent turns no model answered an adapter keeps for the user's next answered turn
(and, for the middleware, how many human turns of a thread it looks back at: ``missed_turns``)."""

UNANSWERED_KEPT = 1024
"""How many turns no model answered one record keeps, over all users; beyond that the oldest is dropped."""


@dataclass(frozen=True)
class Unanswered(Generic[T]):
    """One kept turn: whose it is, what the adapter needs to capture it (``turn``), and the user's erase
    generation when it began (``since``: :data:`memori_core.lanes.ERASURES`)."""

    entity_id: str
    turn: T
    since: int

    @property
    def erased(self) -> bool:
        """Whether the user was forgotten since the turn began (what it said is erased too)."""
        return ERASURES.erased_since(self.entity_id, self.since)


class UnansweredTurns(Generic[K, T]):
    """Each user's turns no model answered, by the adapter's key of a turn: the most recent ``per_entity`` of each
    user and ``most`` in all, oldest first. Safe to share between threads. In a forked child every record starts
    empty: the parent captures what it kept."""

    def __init__(self, per_entity: int = MISSED_TURNS_DEFAULT, most: int = UNANSWERED_KEPT) -> None:
        """``per_entity`` and ``most``: ints >= 1 (``ValueError`` naming the bound otherwise)."""
        for name, value in (("per_entity", per_entity), ("most", most)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"UnansweredTurns: {name} must be an int >= 1, got {value!r}")
        self._lock = threading.Lock()
        self._all: BoundedRecord[tuple[str, K], Unanswered[T]] = BoundedRecord(most)
        self._of: dict[str, BoundedRecord[K, None]] = {}
        self.per_entity = per_entity
        self._most = most
        _ALL.add(self)

    def _after_fork_in_child(self) -> None:
        # The turns kept at the fork are the parent's: its next answered turn of the user captures them. A child that
        # kept them would capture them again (a new lock: a parent thread may have held it).
        self._lock = threading.Lock()
        self._all = BoundedRecord(self._most)
        self._of = {}

    def __len__(self) -> int:
        with self._lock:
            return len(self._all)

    def keep(self, entity_id: str, key: K, turn: T, since: int, *, erased: bool = False) -> list[Unanswered[T]]:
        """Keep ``turn`` (``key``: the adapter's key of it) until the user's next answered turn :meth:`take`s it; a
        turn kept already (a retried call, a recall node run again in a tool loop) keeps what it was kept with
        first (when it began), renewed as the most recent. Returns the turns forgotten to stay within the bounds (never this one), but
        those of users forgotten since they began (unless ``erased``): the adapter counts them as dropped captures."""
        forgotten: list[Unanswered[T]] = []
        with self._lock:
            keys = self._of.get(entity_id)
            if keys is None:
                keys = self._of[entity_id] = BoundedRecord(self.per_entity)
            for old, _ in keys.remember(key, None):
                forgotten.append(self._all.pop((entity_id, old)))
            kept = self._all.get((entity_id, key)) or Unanswered(entity_id, turn, since)
            for (whose, old), entry in self._all.remember((entity_id, key), kept):
                forgotten.append(entry)
                self._forget_key(whose, old)
        return forgotten if erased else [entry for entry in forgotten if not entry.erased]

    def take(self, entity_id: str) -> list[Unanswered[T]]:
        """The user's kept turns, oldest first, no longer kept; those of a forgotten user left out."""
        with self._lock:
            keys = self._of.pop(entity_id, None)
            taken = [self._all.pop((entity_id, key)) for key in keys or ()]
        return [entry for entry in taken if not entry.erased]

    def kept(self) -> list[Unanswered[T]]:
        """Every user's turns kept now, oldest first, still kept (a snapshot)."""
        with self._lock:
            return list(self._all.values())

    def take_all(self) -> list[Unanswered[T]]:
        """Every user's kept turns, oldest first, no longer kept, those of users forgotten since they began
        included (``Unanswered.erased``: the caller counts them)."""
        with self._lock:
            taken = list(self._all.values())
            self._all.clear()
            self._of.clear()
        return taken

    def discard(self, entity_id: str, key: K) -> None:
        """Stop keeping the turn ``key`` (it is being captured: its model answered it after all)."""
        with self._lock:
            if self._all.pop((entity_id, key), None) is not None:
                self._forget_key(entity_id, key)

    def _forget_key(self, entity_id: str, key: K) -> None:
        keys = self._of.get(entity_id)
        if keys is not None:
            keys.pop(key, None)
            if not keys:
                del self._of[entity_id]


_ALL: weakref.WeakSet[UnansweredTurns[object, object]] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    """In a forked child: every record of unanswered turns starts empty (the parent captures what it kept)."""
    for record in list(_ALL):
        record._after_fork_in_child()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
