"""A time limit for a whole write: every store request made inside it gets the time that is left.

The engine runs each write inside :func:`within` (twice the store's request
time limit); a store that sends requests bounds each one by
:func:`remaining` and refuses to start one once nothing is left
(:class:`DeadlineExceeded`). Local work that is not a store request (embedding
the facts, the batches of a bulk write) runs inside :func:`paused`, which
gives the time it took back. The deadline is a context variable: it follows
the thread (and ``asyncio`` task) that entered it, not threads it starts.
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from collections.abc import Iterator

__all__ = ["DeadlineExceeded", "check", "expired", "paused", "remaining", "within"]


class DeadlineExceeded(TimeoutError):
    """A write's time limit passed before one of its requests (or its wait for the entity's write lock) could
    start. The write raises it like any other store timeout: what happened before it is reported as usual."""


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
def paused() -> Iterator[None]:
    """Run the block outside the current deadline: the time it takes is added back to it."""
    deadline = _CURRENT.get()
    if deadline is None:
        yield
        return
    started = time.monotonic()
    token = _CURRENT.set(None)
    try:
        yield
    finally:
        _CURRENT.reset(token)
        deadline.shift(time.monotonic() - started)


def remaining() -> float | None:
    """Seconds left before the current deadline (may be <= 0); ``None`` outside any deadline."""
    deadline = _CURRENT.get()
    return None if deadline is None else deadline.end - time.monotonic()


def check(action: str) -> float | None:
    """The seconds left for ``action`` (a request, a lock wait), or :class:`DeadlineExceeded` naming it when
    none are; ``None`` outside any deadline."""
    deadline = _CURRENT.get()
    if deadline is None:
        return None
    left = deadline.end - time.monotonic()
    if left <= 0:
        raise expired(action)
    return left


def expired(action: str) -> DeadlineExceeded:
    """The error saying that the current deadline passed before ``action``."""
    deadline = _CURRENT.get()
    seconds = f" ({deadline.seconds:g} s, twice the store's request time limit)" if deadline is not None else ""
    what = deadline.what if deadline is not None else "the write"
    return DeadlineExceeded(f"{what} ran out of time{seconds} before {action}")
