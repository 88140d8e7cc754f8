"""Background writes of one entity, in order, and what ``forget`` does about those still to come.

Capture (:mod:`memori_core.capture`) stores a turn's facts after the answer, on a small process-wide pool: jobs
of one entity run one at a time, in submission order (a later turn may supersede a fact an earlier one stored).
A ``forget`` must not be undone by a capture of a turn said before it: :meth:`Lanes.settle` marks the entity
erased, so a job submitted before is skipped (it checks :meth:`Lanes.erased_since` when it starts and again right
before it writes), and waits for the job running meanwhile to end before the engine erases. Only jobs of this
process are known here: a capture running in another process is not.

Lock order: ``Lanes._cond`` is a leaf (no other lock is taken while it is held, and no job runs under it).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

__all__ = ["LANES", "SETTLE_TIMEOUT", "WORKERS", "Lanes"]

WORKERS = 4
"""Threads of the process-wide pool; jobs of different entities run in parallel on them."""

SETTLE_TIMEOUT = 30.0
"""How long ``forget`` waits at most for a capture of the entity that is running (an extractor's model call); one
still running after that writes nothing (it checks again right before it writes)."""

_Key = tuple[int, str]  # (id of the engine, entity id)


class Lanes:
    """A process-wide pool where jobs of one key (an engine's entity) run one at a time, in submission order."""

    def __init__(self, workers: int) -> None:
        self._workers = workers
        self._cond = threading.Condition()
        self._waiting: dict[_Key, deque[Callable[[], None]]] = {}
        self._erasures: dict[str, int] = {}
        self._pool: ThreadPoolExecutor | None = None
        self._local = threading.local()

    def erasures(self, entity_id: str) -> int:
        """How many times ``entity_id`` was erased in this process (:meth:`settle`): a job notes it when
        submitted and compares with :meth:`erased_since`."""
        with self._cond:
            return self._erasures.get(entity_id, 0)

    def erased_since(self, entity_id: str, erasures: int) -> bool:
        """Whether ``entity_id`` was erased since :meth:`erasures` gave ``erasures``."""
        return self.erasures(entity_id) != erasures

    def submit(self, key: _Key, job: Callable[[], None]) -> None:
        """Run ``job`` after the jobs of ``key`` submitted before it."""
        with self._cond:
            queue = self._waiting.get(key)
            if queue is not None:  # a job of this key is running: it will run this one next
                queue.append(job)
                return
            self._waiting[key] = deque()
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self._workers, thread_name_prefix="memori-capture")
            pool = self._pool
        pool.submit(self._drain, key, job)

    def settle(self, entity_id: str, timeout: float = SETTLE_TIMEOUT) -> bool:
        """Mark ``entity_id`` erased (jobs submitted before write nothing) and wait, at most ``timeout`` seconds,
        until none of its jobs is queued or running. ``True`` when none is; a job of the entity that calls it
        does not wait for itself."""
        with self._cond:
            self._erasures[entity_id] = self._erasures.get(entity_id, 0) + 1
            own = getattr(self._local, "key", None)
            if own is not None and own[1] == entity_id:
                return False
            return self._cond.wait_for(lambda: not any(k[1] == entity_id for k in self._waiting), timeout)

    def _drain(self, key: _Key, job: Callable[[], None]) -> None:
        self._local.key = key
        try:
            while True:
                try:
                    job()
                except BaseException:  # jobs handle their own errors; never lose the lane
                    pass
                with self._cond:
                    queue = self._waiting[key]
                    if not queue:
                        del self._waiting[key]
                        self._cond.notify_all()
                        return
                    job = queue.popleft()
        finally:
            self._local.key = None


LANES = Lanes(WORKERS)
"""The process's lanes: capture submits to them, ``forget`` settles them."""
