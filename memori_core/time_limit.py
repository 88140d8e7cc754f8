"""A whole call's time limit: an adapter's ``timeout=`` (:func:`check_timeout`), waited for by :func:`within` /
:func:`awithin`, with :func:`answer_by` telling the work how long it has left.

The store's request time limit bounds each request, not a recall that makes many (a user's first recall in a
process reads all their facts, about ten seconds at 50,000 facts over a server). With ``timeout`` seconds, the
caller waits that long for the work, which runs on in a daemon thread (so the user's copy it loads serves the
next call), and gets :class:`RecallTimedOut` (a ``TimeoutError``: "no answer within ... s"). That is not an
outage (:func:`memori_core.outage.is_outage`): the store may well be answering (a large user's first load), so
it does not open the breaker, which would turn memory off for every user of the engine. A ``late`` callback is
told how the work left running ended (:meth:`memori_core.failopen.FailOpenCall.outlived`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import math
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def check_timeout(value: Any, owner: str) -> float | None:
    """An adapter's ``timeout=``: seconds one whole recall may take (a positive, finite number), or ``None`` (no
    limit but the store's own per request). ``TypeError`` / ``ValueError`` naming ``owner`` and the argument."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{owner}: timeout must be a number of seconds or None, got {type(value).__name__}")
    if not (0 < value and math.isfinite(value)):
        raise ValueError(f"{owner}: timeout must be a positive number of seconds or None, got {value!r}")
    return float(value)


def in_daemon_thread(fn: Callable[[], T]) -> concurrent.futures.Future[T]:
    """Run ``fn`` in a daemon thread (in a copy of the caller's context: a fail-open call's time to reach the store
    goes with it), so a recall that never returns cannot hold up interpreter exit."""
    future: concurrent.futures.Future[T] = concurrent.futures.Future()
    context = contextvars.copy_context()

    def run() -> None:
        if not future.set_running_or_notify_cancel():
            return
        try:
            future.set_result(context.run(fn))
        except BaseException as exc:  # handed to the waiting caller
            future.set_exception(exc)

    threading.Thread(target=run, name="memori-recall", daemon=True).start()
    return future


class RecallTimedOut(TimeoutError):
    """A whole call's time limit (an adapter's ``timeout=``) passed while the call was still running: it runs on in
    the background. Not an outage (:func:`~memori_core.outage.is_outage`): a large cold load over a healthy store
    takes this long too."""


Late = Callable[["concurrent.futures.Future[Any]"], None]
"""Told the outcome of work that outlived its time limit, once it ends
(:meth:`~memori_core.failopen.FailOpenCall.outlived`)."""


_ANSWER_BY: contextvars.ContextVar[float | None] = contextvars.ContextVar("memori_answer_by", default=None)
"""The ``time.monotonic()`` by which the whole call running in this context must have its answer (:func:`within`)."""

FINISH_SHARE = 0.1
"""The share of a whole call's ``timeout`` (at most :data:`FINISH_AT_MOST` seconds) kept, from what
:func:`answer_by` tells, for the work after the wait (choosing, the core facts, handing the answer back)."""

FINISH_AT_MOST = 0.25


def answer_by() -> float | None:
    """Seconds left before the whole call running in this context (an adapter's recall with ``timeout=``) must
    answer, less a share kept to finish (:data:`FINISH_SHARE`); ``None`` without such a limit. The engine waits
    for its judge no longer than this, so a slow judge costs the judge's verdict, not the recall."""
    by = _ANSWER_BY.get()
    return None if by is None else max(0.0, by - time.monotonic())


def _answering_by(fn: Callable[[], T], timeout: float) -> Callable[[], T]:
    """``fn`` run with :func:`answer_by` telling the time left of ``timeout`` seconds from now."""
    by = time.monotonic() + timeout - min(FINISH_AT_MOST, FINISH_SHARE * timeout)

    def run() -> T:
        _ANSWER_BY.set(by)  # in the daemon thread's own copy of the context
        return fn()
    return run


def _no_answer(timeout: float) -> RecallTimedOut:
    return RecallTimedOut(f"no answer within {timeout:g} s")


def within(fn: Callable[[], T], timeout: float | None, late: Late | None = None) -> T:
    """``fn()``, waited for at most ``timeout`` seconds (``None``: called here, without limit); past that it runs
    on in a daemon thread and :class:`RecallTimedOut` ("no answer within ... s") is raised; ``late`` is then
    called with its future once it ends."""
    if timeout is None:
        return fn()
    future = in_daemon_thread(_answering_by(fn, timeout))
    try:
        return future.result(timeout=timeout)
    except concurrent.futures.TimeoutError:
        if future.done():  # fn's own TimeoutError (a store's deadline): reported as it is
            raise
        if late is not None:
            future.add_done_callback(late)
        raise _no_answer(timeout) from None


async def awithin(fn: Callable[[], T], timeout: float, late: Late | None = None) -> T:
    """Async :func:`within`: the event loop waits at most ``timeout`` seconds for ``fn()`` in a daemon thread."""
    future = in_daemon_thread(_answering_by(fn, timeout))
    try:
        return await asyncio.wait_for(asyncio.wrap_future(future), timeout)
    except (asyncio.TimeoutError, concurrent.futures.TimeoutError):
        if future.done():
            raise
        if late is not None:
            future.add_done_callback(late)
        raise _no_answer(timeout) from None
