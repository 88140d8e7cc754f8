"""Turns whose capture a store outage kept from the store, held to be captured again once it answers
(:class:`HeldTurns`, a :class:`~memori_core.capture.BackgroundCapture`'s with ``hold=``).

A capture skipped while the engine's outage breaker was open, or failed with an outage error (a timeout, a refused
connection), stored nothing though the turn said something: "Sam and I broke up." lost that way leaves the partner
fact valid for good. An adapter that holds such turns hands them to capture again, in order and with their own
said-at times, once the store answers: at the next capture it queues (any user's) while the breaker is closed,
before the recall of the user's next model call through ``MemoriMiddleware`` once the store is known to answer
(waited for at most :data:`~memori_core.capture.background.HELD_BEFORE_RECALL_SECONDS`, and at most the
middleware's ``timeout``), or at its ``flush()``, which asks the store at once whether it answers (the cool-down ended early) rather than
wait the cool-down out. The record is bounded per user and in all (the oldest dropped, with a warning), lives
in the process only (a forked child starts with none: the parent captures its own); at interpreter exit the
adapters holding turns flush them once more, within :data:`~memori_core.capture.background.HELD_AT_EXIT_SECONDS`,
and what is still held then is logged, each turn named by its user and said-at time. ``engine.close()`` gives
them the same one attempt, within its ``timeout`` (the capture pool's close hooks), and what it leaves held is
dropped and logged the same way.
"""

from __future__ import annotations

import atexit
import itertools
import logging
import os
import time
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from ..extraction.types import FactExtractor, Message
from ..unanswered import UNANSWERED_KEPT, Unanswered, UnansweredTurns

__all__ = ["OUTAGE_ATTEMPTS", "OUTAGE_TURNS_KEPT", "Held", "HeldTurns", "describe_turns"]

OUTAGE_TURNS_KEPT = 8
"""How many of a user's turns an outage kept from the store an adapter holds (the most recent), to capture again
once the store answers; an adapter holds :data:`~memori_core.unanswered.UNANSWERED_KEPT` (1024) in all."""

OUTAGE_ATTEMPTS = 3
"""How many attempts of one turn may reach the store and fail with an outage error before the turn is given up
(attempts skipped by the breaker, or never sent, are not counted, nor those handed back before a recall once the
store was found answering: :meth:`~memori_core.capture.background.BackgroundCapture.store_held_before`): a write
that times out on its own, however often it is tried, is not tried on every turn for ever."""


@dataclass(frozen=True)
class Held:
    """One turn's capture, as it was queued, held after an outage kept it from the store."""

    engine: Any
    turn: tuple[Message, ...]
    extractor: FactExtractor
    metadata: Mapping[str, Any]
    session_id: str | None
    said_at: datetime
    on_failure: Callable[[], None] | None  # the adapter's: called when the turn is given up
    landed: Callable[[], bool] | None  # whether an attempt that failed after reaching the store stored it after all
    reached: int = 0  # attempts that reached the store and failed with an outage error
    spent: int = 0  # those of them that count toward giving the turn up (OUTAGE_ATTEMPTS)
    submitted_at: float = field(default_factory=time.time)  # wall clock: a forget the store records later erases it
    holder: Any = None  # the BackgroundCapture it was submitted to: its outcome is counted there, whoever retries it
    token: object = field(default_factory=object, compare=False, repr=False)  # the same turn, however often retried

    def attempted(self, reached: bool, *, spends: bool = True) -> Held:
        """This turn after one more failed attempt (``reached``: it reached the store; ``spends``: the attempt counts
        toward giving the turn up, not one handed back before a recall once the store was found answering)."""
        if not reached:
            return self
        return replace(self, reached=self.reached + 1, spent=self.spent + (1 if spends else 0))

    @property
    def may_have_landed(self) -> bool:
        """Whether a failed attempt reached the store: its facts may be there (a reply lost on its way back)."""
        return self.reached > 0


_ALL: weakref.WeakSet[HeldTurns] = weakref.WeakSet()


class HeldTurns:
    """The held turns of one adapter: the most recent ``per_entity`` of each user, :data:`UNANSWERED_KEPT` in all,
    oldest first (:class:`~memori_core.unanswered.UnansweredTurns`, keyed by arrival). Thread-safe."""

    def __init__(self, owner: str, logger: logging.Logger, per_entity: int) -> None:
        self.owner = owner
        self.logger = logger
        self.per_entity = per_entity
        self._turns: UnansweredTurns[int, Held] = UnansweredTurns(per_entity, UNANSWERED_KEPT)
        self._arrivals = itertools.count()
        _ALL.add(self)

    def __len__(self) -> int:
        return len(self._turns)

    def _after_fork_in_child(self) -> None:
        # The parent captures its held turns again itself; each child retrying them too made one extractor call
        # and one sighting per process for a turn said once. (A new record: a parent thread may have held the lock.)
        self._turns = UnansweredTurns(self.per_entity, UNANSWERED_KEPT)

    def hold(self, entity_id: str, turn: Held, since: int) -> list[Unanswered[Held]]:
        """Hold ``turn`` (``since``: its user's erase generation when it began); returns the turns the bounds let
        go of, those of users forgotten since included (``Unanswered.erased``)."""
        return self._turns.keep(entity_id, next(self._arrivals), turn, since, erased=True)

    def listing(self) -> list[tuple[str, datetime]]:
        """Each held turn's user and said-at time, earliest said first (a snapshot: nothing is taken). Sorted by when
        each turn was said, not when it arrived: two users' turns captured at once arrive in either order."""
        return sorted(((entry.entity_id, entry.turn.said_at) for entry in self._turns.kept()), key=lambda t: (t[1], t[0]))

    def take(self) -> list[Unanswered[Held]]:
        """Every user's held turns, oldest first, no longer held; those of users forgotten since they began
        included (``Unanswered.erased``)."""
        return self._turns.take_all()

    def take_where(self, belongs: Callable[[Held], bool]) -> list[Unanswered[Held]]:
        """The held turns ``belongs`` is true of (those of one engine), oldest first, no longer held; the others
        stay held, in their order. Those of users forgotten since they began included (``Unanswered.erased``)."""
        taken: list[Unanswered[Held]] = []
        for entry in self._turns.take_all():
            if belongs(entry.turn):
                taken.append(entry)
            else:
                self._turns.keep(entry.entity_id, next(self._arrivals), entry.turn, entry.since, erased=True)
        return taken

    def dropped_message(self) -> str:
        """Why a turn the bounds let go of was not stored."""
        return (f"a turn whose capture met a store outage was forgotten before the store answered again: more than "
                f"{self.per_entity} of the user's turns (or {UNANSWERED_KEPT} in all) were held")


def describe_turns(turns: list[tuple[str, datetime]]) -> str:
    """Which turns, for a log line: each user's count and the said-at times of their turns, oldest first."""
    whose: dict[str, list[str]] = {}
    for entity_id, said_at in turns:
        whose.setdefault(entity_id, []).append(said_at.isoformat(timespec="seconds"))
    return "; ".join(f"entity {entity_id!r}: {len(times)} said at {', '.join(times)}"
                     for entity_id, times in whose.items())


def _tell_at_exit() -> None:
    """Interpreter exit (after the capture pools drained, and after the held turns were tried once more:
    :mod:`memori_core.capture.background`): each adapter still holding turns says which."""
    for held in list(_ALL):
        turns = held.listing()
        if turns:
            held.logger.warning(
                "%s: at interpreter exit, %d turn(s) whose capture met a store outage were never stored: the store "
                "did not answer when they were tried at exit (held in this process only, they end with it): %s",
                held.owner, len(turns), describe_turns(turns))


def _after_fork_in_child() -> None:
    """In a forked child: every adapter starts holding nothing (see :meth:`HeldTurns._after_fork_in_child`)."""
    for held in list(_ALL):
        held._after_fork_in_child()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)

atexit.register(_tell_at_exit)  # runs after threading's exit hooks, so after the capture pools drained
