"""One writer of a user's statements at a time in this process: :data:`STATEMENTS`.

Capture and an agent's own ``remember`` often hear the same fact in one turn, and run at the same time (capture in
the background, the tool in the agent's loop): each read the user's facts before the other wrote, and the fact was
stored twice, in the user's words and in the model's (j7 finding 19). So each holds its user's statement lock
from its last look at what is stored to the end of its write: capture around its last check and ``add``
(:func:`~memori_core.capture.capture_facts`), a model's write around its plan and ``add`` (the memory tools'
``remember``, MCP ``add``); whichever comes second sees the fact the first stored.

The lock is taken before every lock of the engine (the lock order, :mod:`memori_core.cache.coordinator`) and
never while one is held; nothing that holds it takes it again. It is the process's only: over a store other
processes write to (a Chroma server), each writer also looks again right after its write, still holding it, and
a statement two processes stored at once in other words is kept once (:mod:`.repeats`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import AsyncIterator, Iterator

__all__ = ["STATEMENTS", "StatementLocks"]

_POLL_SECONDS = 0.005
"""How often an async writer waiting for the lock looks again (the loop is never blocked)."""


class StatementLocks:
    """One lock per entity id, made on first use and dropped when its last holder leaves; holders of different
    entities never wait for each other, and the guard of the map is held only to find or drop an entry."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._held: dict[str, tuple[threading.Lock, list[int]]] = {}  # entity -> (lock, [holders and waiters])

    def _enter(self, entity_id: str) -> threading.Lock:
        with self._guard:
            lock, count = self._held.setdefault(entity_id, (threading.Lock(), [0]))
            count[0] += 1
        return lock

    def _leave(self, entity_id: str) -> None:
        with self._guard:
            _, count = self._held[entity_id]
            count[0] -= 1
            if count[0] == 0:
                del self._held[entity_id]

    @contextlib.contextmanager
    def held(self, entity_id: str) -> Iterator[None]:
        """Hold ``entity_id``'s statement lock for the ``with`` block."""
        lock = self._enter(entity_id)
        try:
            with lock:
                yield
        finally:
            self._leave(entity_id)

    @contextlib.asynccontextmanager
    async def aheld(self, entity_id: str) -> AsyncIterator[None]:
        """Async :meth:`held`: waits without blocking the event loop (a cancelled wait holds nothing)."""
        lock = self._enter(entity_id)
        try:
            while not lock.acquire(blocking=False):
                await asyncio.sleep(_POLL_SECONDS)
            try:
                yield
            finally:
                lock.release()
        finally:
            self._leave(entity_id)

    def _after_fork_in_child(self) -> None:
        # A lock a parent's thread held at the fork would never be let go of in the child.
        self._guard = threading.Lock()
        self._held = {}


STATEMENTS = StatementLocks()
"""The process's statement locks (module docstring)."""

if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=STATEMENTS._after_fork_in_child)
