"""The threads an engine's async methods run on: reads on one bounded pool, writes on another.

A write can hold its thread for a long time (a bulk ``aadd`` or ``aimport_`` embeds every fact: minutes for a
large profile), so with one pool for everything a few bulk imports would make every other user's ``arecall``
wait for a free thread. Each engine therefore has two pools, made on first use:

* **reads** (``arecall``, ``anearest``, ``aexplain``, ``acount``, ``alist``, ``aget``, ``ahistory``): at most
  ``read_workers`` threads, never taken by a write;
* **writes and whole-user transfers** (``aadd``, ``aupdate``, ``aexpire``, ``adelete``, ``arestore``, ``aforget``,
  ``aimport_``, ``aexport``): at most ``write_workers`` threads; more wait for one of them.

So an engine runs at most ``read_workers + write_workers`` threads for its async methods, none of them the
event loop's default executor's (calls waiting on a slow store never starve unrelated ``to_thread`` work).

Cancelling a write (``task.cancel()``, ``asyncio.wait_for`` or ``asyncio.timeout`` around ``aadd``, a client that
disconnected) stops the caller's wait, not the write: :meth:`AsyncWorkers.run_to_end` shields it, so a write once
called runs to its end, whether it was running or still waiting for a thread (a thread cannot be stopped half-way
through a write, and a write that ran or not depending on how busy the pool was could not be reasoned about). The
caller gets its ``CancelledError`` at once; an error the write raises afterwards is logged as a warning, since no
caller is left to see it. Only the event loop's own shutdown (``asyncio.run`` returning) drops a write still
waiting for a thread.

A process forked from one whose pools were started (gunicorn ``--preload``, a ``fork`` multiprocessing pool)
inherits pool objects without their threads, which would never run a job: the child gets new pools on first use.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import os
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal, TypeVar

from ..error_log import warn_briefly

__all__ = ["READ", "WRITE", "AsyncWorkers", "check_workers"]

T = TypeVar("T")
Kind = Literal["read", "write"]
READ: Kind = "read"
WRITE: Kind = "write"

_ALL: weakref.WeakSet[AsyncWorkers] = weakref.WeakSet()

logger = logging.getLogger(__name__)


def check_workers(value: Any, name: str) -> int:
    """``value`` as a number of threads (an int >= 1), else ``ValueError`` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be an int >= 1, got {value!r}")
    return value


class AsyncWorkers:
    """An engine's two thread pools (module docstring): :meth:`run` a blocking call on the read or write pool."""

    def __init__(self, read_workers: int, write_workers: int) -> None:
        """At most ``read_workers`` threads for reads and ``write_workers`` for writes (validated)."""
        self.sizes: dict[Kind, int] = {
            READ: check_workers(read_workers, "async_workers"),
            WRITE: check_workers(write_workers, "async_write_workers"),
        }
        self._pools: dict[Kind, ThreadPoolExecutor] = {}
        self._lock = threading.Lock()
        _ALL.add(self)

    def _pool(self, kind: Kind) -> ThreadPoolExecutor:
        with self._lock:
            pool = self._pools.get(kind)
            if pool is None:
                pool = ThreadPoolExecutor(self.sizes[kind], thread_name_prefix=f"memori-{kind}")
                self._pools[kind] = pool
            return pool

    async def run(self, kind: Kind, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` on a thread of the ``kind`` pool, in a copy of the caller's context."""
        call = functools.partial(contextvars.copy_context().run, fn, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._pool(kind), call)

    async def run_to_end(self, kind: Kind, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """:meth:`run`, shielded from the caller's cancellation (module docstring): once called, ``fn`` runs to its
        end; a cancelled caller gets ``CancelledError`` at once, and what ``fn`` raises afterwards is logged."""
        job = asyncio.ensure_future(self.run(kind, fn, *args, **kwargs))
        try:
            return await asyncio.shield(job)
        except asyncio.CancelledError:
            job.add_done_callback(functools.partial(_orphaned, getattr(fn, "__name__", "a write")))
            raise

    def shutdown(self) -> None:
        """Let the pools' threads end once their current jobs are done (the engine is closed: no new job comes)."""
        with self._lock:
            pools, self._pools = list(self._pools.values()), {}
        for pool in pools:
            pool.shutdown(wait=False)

    def _after_fork_in_child(self) -> None:
        # The parent's pools have no thread here (and their locks may have been held at the fork): new ones are
        # made on first use. The old ones are dropped without shutdown(), which would wait for those threads.
        self._pools = {}
        self._lock = threading.Lock()


def _orphaned(name: str, job: asyncio.Future[Any]) -> None:
    """The end of a write whose caller was cancelled: its error, if any, is logged (no one else can see it)."""
    if job.cancelled():
        return
    exc = job.exception()
    if exc is not None:
        warn_briefly(logger, exc, "%s, whose caller was cancelled, failed", name)


def _after_fork_in_child() -> None:
    for workers in list(_ALL):
        workers._after_fork_in_child()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
