"""Time limits for a whole write, and for a fail-open call to reach the store: every store request made inside
one gets the time that is left.

The engine runs each write inside :func:`within` (twice the store's request
time limit); a store that sends requests bounds each one by
:func:`remaining` and refuses to start one once nothing is left
(:class:`DeadlineExceeded`). Local work that is not a store request (embedding
the facts, the batches of a bulk write) runs inside :func:`paused`, which
gives the time it took back. The deadline is a context variable: it follows
the thread (and ``asyncio`` task) that entered it, not threads it starts.

A call that fails open (the adapters') gets a second kind of limit, :func:`reaching`: the time it may spend
before it *sends its first request* (waiting for a thread of the engine's pool, for another call's lock). A
request that starts later is refused (:class:`NotReached`); the first one gets only the time left, and once it
is sent the limit is spent (the requests after it are bounded as usual). So a call queued behind calls that wait
on a stalled server gives up when its own time is over instead of waiting for each of theirs in turn.
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["DeadlineExceeded", "NotReached", "check", "expired", "paused", "reaching", "remaining", "within"]


class DeadlineExceeded(TimeoutError):
    """A write's time limit passed before one of its requests (or its wait for the entity's write lock) could
    start. The write raises it like any other store timeout: what happened before it is reported as usual."""


class NotReached(DeadlineExceeded):
    """A call given a time to reach the store (:func:`reaching`) did not send its first request in it, or was
    told not to (the store was found unreachable meanwhile): nothing was sent."""


class _Deadline:
    def __init__(self, seconds: float, what: str, parent: _Deadline | None) -> None:
        self.seconds = seconds
        self.what = what
        self.parent = parent
        self.end = time.monotonic() + seconds
        if parent is not None:
            self.end = min(self.end, parent.end)

    def shift(self, seconds: float) -> None:
        node: _Deadline | None = self
        while node is not None:
            node.end += seconds
            node = node.parent


_CURRENT: contextvars.ContextVar[_Deadline | None] = contextvars.ContextVar("memori_deadline", default=None)


class _Reach:
    """The limit of :func:`reaching`: until the first request is sent (``sent``), then spent."""

    def __init__(self, seconds: float | None, what: str, stop: Callable[[], str | None] | None) -> None:
        self.seconds = seconds
        self.what = what
        self.stop = stop
        self.end = time.monotonic() + seconds if seconds is not None else float("inf")
        self.sent = False


_REACH: contextvars.ContextVar[_Reach | None] = contextvars.ContextVar("memori_reach", default=None)


@contextlib.contextmanager
def within(seconds: float | None, what: str = "the write") -> Iterator[None]:
    """Run the block under a deadline ``seconds`` from now (``None``: no deadline; nested: the earlier one)."""
    if seconds is None:
        yield
        return
    if not seconds > 0:
        raise ValueError(f"seconds must be > 0, got {seconds!r}")
    token = _CURRENT.set(_Deadline(float(seconds), what, _CURRENT.get()))
    try:
        yield
    finally:
        _CURRENT.reset(token)


@contextlib.contextmanager
def reaching(seconds: float | None, what: str, stop: Callable[[], str | None] | None = None) -> Iterator[None]:
    """Within the block, the first store request must start within ``seconds`` from now (``None``: no limit), and
    gets no more than the time left; a request (or a wait for a lock) that would start later raises
    :class:`NotReached` naming ``what``. ``stop()``, asked right before that first request, returns why it must
    not be sent (then :class:`NotReached` too), or ``None``. Nested: the outer limit holds."""
    if (seconds is None and stop is None) or _REACH.get() is not None:
        yield
        return
    if seconds is not None and not seconds > 0:
        raise ValueError(f"seconds must be > 0, got {seconds!r}")
    token = _REACH.set(_Reach(float(seconds) if seconds is not None else None, what, stop))
    try:
        yield
    finally:
        _REACH.reset(token)


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """Run the block outside the current deadline (and the time to reach the store): the time it takes is added
    back to them."""
    deadline, reach = _CURRENT.get(), _REACH.get()
    if deadline is None and (reach is None or reach.sent):
        yield
        return
    started = time.monotonic()
    token = _CURRENT.set(None)
    try:
        yield
    finally:
        _CURRENT.reset(token)
        spent = time.monotonic() - started
        if deadline is not None:
            deadline.shift(spent)
        if reach is not None:
            reach.end += spent


def remaining() -> float | None:
    """Seconds left before the current deadline (may be <= 0); ``None`` outside any deadline."""
    deadline = _CURRENT.get()
    return None if deadline is None else deadline.end - time.monotonic()


def check(action: str, *, waiting: bool = False) -> float | None:
    """The seconds left for ``action``, or :class:`DeadlineExceeded` naming it when none are; ``None`` outside
    any deadline. ``action`` is a store request, or with ``waiting`` a wait before one (a lock, another
    process's erase): the first request inside :func:`reaching` spends its limit, a wait does not."""
    now = time.monotonic()
    deadline, reach = _CURRENT.get(), _REACH.get()
    if reach is not None and reach.sent:
        reach = None
    if deadline is None and reach is None:
        return None
    ends = [d.end for d in (deadline, reach) if d is not None and d.end < float("inf")]
    left = min(ends) - now if ends else None
    if left is not None and left <= 0:
        raise expired(action)
    if reach is not None and not waiting:
        why = reach.stop() if reach.stop is not None else None
        if why is not None:
            raise NotReached(f"{reach.what} was not sent to the store: {why}")
        reach.sent = True
    return left


def expired(action: str) -> DeadlineExceeded:
    """The error saying that the current deadline (or the time to reach the store, when that ends first)
    passed before ``action``."""
    deadline, reach = _CURRENT.get(), _REACH.get()
    if (reach is not None and not reach.sent and reach.seconds is not None
            and (deadline is None or reach.end <= deadline.end)):
        return NotReached(f"{reach.what} did not reach the store within {reach.seconds:g} s (the store's request "
                          f"time limit; it waited for a thread or another call of the user) before {action}")
    seconds = f" ({deadline.seconds:g} s, twice the store's request time limit)" if deadline is not None else ""
    what = deadline.what if deadline is not None else "the write"
    return DeadlineExceeded(f"{what} ran out of time{seconds} before {action}")


@contextlib.contextmanager
def holding(lock: Any, taking: str, released_by: str) -> Iterator[None]:
    """Hold ``lock`` (a ``threading`` lock) for the ``with`` block; inside a deadline, wait for it no longer than the
    time left (:func:`check` with ``taking``, then :func:`expired` with ``released_by``, what the caller waited
    for)."""
    left = check(taking, waiting=True)
    if not lock.acquire(timeout=-1 if left is None else left):
        raise expired(released_by)
    try:
        yield
    finally:
        lock.release()
