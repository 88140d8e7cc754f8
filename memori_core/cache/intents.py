"""The write intents of this process, whichever engine makes them: those in flight, and the erase marks of its
erases that failed; and a revision token as this process reads it, without its own intents in flight.

A recall that finds one of this process's intents in flight on a revision token serves the copy it holds (the
write has not finished); any other intent is another writer's (:mod:`memori_core.cache.coordinator`, "Writes in
doubt"). The lock of these sets is a leaf (lock 4 of the coordinator's lock order). A forked child starts with
both sets empty: the parent's writes are another process's to it.
"""

from __future__ import annotations

import os
import threading

from ..store.base import join_revision, split_revision

ERASE_SUFFIX = "-erase"
"""The end of an intent id that marks an erase (``forget``, ``delete``) in flight: writers wait for it to end."""

_IN_FLIGHT: set[str] = set()
_IN_FLIGHT_LOCK = threading.Lock()
# The marks of this process's erases that failed (under _IN_FLIGHT_LOCK): its own writes do not wait for them.
_FAILED_MARKS: set[str] = set()
_FAILED_MARKS_KEPT = 4096


def enter(intent: str) -> None:
    """Count ``intent`` as this process's, in flight (from before it is sent, so this process never distrusts it)."""
    with _IN_FLIGHT_LOCK:
        _IN_FLIGHT.add(intent)


def leave(intent: str | None) -> None:
    """``intent``'s write ended (or may have landed without this process knowing): from now on it is another
    writer's, even here."""
    if intent is not None:
        with _IN_FLIGHT_LOCK:
            _IN_FLIGHT.discard(intent)


def fail_mark(mark: str) -> None:
    """The erase that put ``mark`` on the token failed here: this process's writes do not wait for it (its caller
    got the error and must erase again); other processes' do until it settles."""
    with _IN_FLIGHT_LOCK:
        if len(_FAILED_MARKS) >= _FAILED_MARKS_KEPT:
            _FAILED_MARKS.clear()
        _FAILED_MARKS.add(mark)


def own_view(token: str | None) -> tuple[str | None, frozenset[str]]:
    """``token`` without the intents of this process's writes in flight, and the intents left (other writers')."""
    committed, intents = split_revision(token)
    if not intents:
        return token, intents
    with _IN_FLIGHT_LOCK:
        others = intents - _IN_FLIGHT
    return join_revision(committed, others), others


def others(token: str | None) -> frozenset[str]:
    """The intents on ``token`` that are not of this process's writes in flight."""
    return own_view(token)[1]


def others_writes(token: str | None) -> frozenset[str]:
    """The intents on ``token`` of other processes' writes that may write rows (not their erases' marks)."""
    return frozenset(i for i in others(token) if not i.endswith(ERASE_SUFFIX))


def others_erases(token: str | None) -> set[str]:
    """The erase marks on ``token`` a write of this process waits for: not of its erases in flight, nor of those
    that failed here."""
    marks = {i for i in others(token) if i.endswith(ERASE_SUFFIX)}
    if marks:
        with _IN_FLIGHT_LOCK:
            marks -= _FAILED_MARKS
    return marks


def _after_fork_in_child() -> None:
    """In a forked child: the parent's writes in flight and failed erases are another process's to the child
    (not its own), and a thread of the parent may have held their lock at the fork."""
    global _IN_FLIGHT_LOCK
    _IN_FLIGHT.clear()
    _FAILED_MARKS.clear()
    _IN_FLIGHT_LOCK = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
