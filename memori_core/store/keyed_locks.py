"""One reentrant lock per key (a store's per-entity write locks), created on first use."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Hashable, Iterator

from . import deadline


class KeyedLocks:
    """One reentrant lock per key, created on first use and dropped when its last holder leaves.

    Holders of different keys never wait for each other; the guard around the
    map is held only to find or drop an entry, never while waiting.
    """

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._held: dict[Hashable, tuple[threading.RLock, list[int]]] = {}  # key -> (lock, [holders])

    @contextlib.contextmanager
    def hold(self, key: Hashable) -> Iterator[None]:
        """Hold ``key``'s lock for the ``with`` block; inside a write's deadline (:mod:`.deadline`), wait for it
        no longer than the time left (then :class:`~.deadline.DeadlineExceeded`)."""
        with self._guard:
            lock, holders = self._held.setdefault(key, (threading.RLock(), [0]))
            holders[0] += 1
        try:
            with deadline.holding(lock, "taking the entity's write lock",
                                  "another write of the entity let go of its write lock"):
                yield
        finally:
            with self._guard:
                holders[0] -= 1
                if holders[0] == 0:
                    del self._held[key]
