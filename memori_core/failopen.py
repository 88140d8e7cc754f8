"""What the framework adapters do when memory fails: the one ``strict`` policy.

Every adapter surface (retrievers, prompt injectors, middleware, graph nodes,
memory blocks, capture, the re-ranking postprocessor) takes ``strict: bool``,
default :data:`STRICT_DEFAULT` (``False``):

- ``strict=False`` (fail open): when memori's part of the call fails (the
  store is down or times out, the embedder raises, ranking raises), one
  warning is logged on the adapter's logger and the call goes on as it would
  without memori: a retriever returns nothing, a prompt is left unchanged, a
  capture stores nothing, a postprocessor passes the nodes on by their own score.
- ``strict=True``: the error is raised (capture raises it at the next
  ``flush`` or the adapter's next call: :mod:`memori_core.capture`).

Usage errors (no entity, an ``entity_id``, ``k``, query or context of the
wrong type) are raised whatever ``strict`` says: they are bugs, not outages. A
lone surrogate in a query or turn (half an emoji a client cut) is end-user input:
it is replaced by U+FFFD (:func:`~memori_core.validate.repair_text`) and the
call goes on.

Outages (:class:`OutageBreaker`, one per engine as ``engine.outage``): once a
store call of a fail-open surface timed out or could not connect, every
fail-open surface over that engine skips memory at once for
``RecallEngine(outage_cooldown=...)`` seconds (default
:data:`DEFAULT_OUTAGE_COOLDOWN`) instead of waiting ``timeout`` again on each
call; the first call after that goes to the store again. The error that starts
an outage is logged as a warning, once; the calls it skips log at DEBUG, but for background captures: a turn
not stored is lost without anyone seeing it, so the first capture an outage skips or fails (over the engine, of
any adapter) is warned, once per outage, and when the store answers again a warning says how many were lost.
:class:`FailOpenCall` is one call through this policy.

Waiting before the store (:meth:`FailOpenCall.reaching`): a fail-open call must send its first store request
within the store's request time limit (``ChromaStore.http(timeout=...)``) of its start, whatever it waited for
first (a thread of the engine's pool, another call of the same user holding the user's copy); a call that did
not, or that finds the breaker opened by another call while it waited, fails open without sending it
(:class:`~memori_core.store.deadline.NotReached`). So however many calls are queued behind a stalled server, each
fails open about one ``timeout`` after it began, instead of after every call before it has timed out in turn.

A whole recall's time limit (an adapter's ``timeout=``, :func:`check_timeout`): the store's request time limit
bounds each request, not a recall that makes many (a user's first recall in a process reads all their facts,
about ten seconds at 50,000 facts over a server). With ``timeout`` seconds, :func:`recall_or_empty` /
:func:`arecall_or_empty` wait that long for the recall, which runs on in a daemon thread (so the user's copy it
loads serves the next call), and fail open with :class:`RecallTimedOut` (a ``TimeoutError``: "no answer within
... s"). That is not an outage: the store may well be answering (a large user's first load), so it does not open
the breaker, which would turn memory off for every user of the engine. The recall left running tells the breaker
how the store did once it ends (:meth:`FailOpenCall.outlived`): a store error, a request past the store's own
request time limit or a connection that fails opens it then, as on any call.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import contextvars
import enum
import logging
import math
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .facts import RecalledFact
from .store import deadline
from .store.chroma_client import GATEWAY_STATUSES, clip_text
from .store.deadline import NotReached
from .validate import check_context, check_query, repair_text

ERROR_CHARS = 300
"""Characters of an error's message a fail-open warning quotes at most (:func:`error_text`)."""

T = TypeVar("T")

STRICT_DEFAULT = False
"""Every adapter's default: fail open. Each surface sits on the way to a model call, and memory is extra
context for it: a store outage answers like a question with nothing relevant stored (which the relevance
gate already makes an everyday case), not like an error the app must handle on every call."""


def warn_failed(
    logger: logging.Logger, owner: str, what: str, entity_id: str | None, exc: BaseException,
    *, instead: str = "continuing without memory",
) -> None:
    """The warning every adapter logs when recall, capture or ranking fails (``entity_id`` when there is one)."""
    whose = f" for entity {entity_id!r}" if entity_id is not None else ""
    logger.warning("%s: %s failed%s (%s: %s); %s", owner, what, whose, type(exc).__name__, error_text(exc), instead)


def warn_briefly(logger: logging.Logger, exc: BaseException, message: str, *args: Any) -> None:
    """Log ``message % args`` as one WARNING line ending in ``exc``'s type and message (:func:`error_text`), and
    ``exc``'s traceback at DEBUG only: the one way memori warns about an error it goes on past.

    During an outage such a warning is logged for every user a call was serving; a traceback with each would
    bury the log (80 lines a user), while the line says what failed and the DEBUG record keeps the detail."""
    logger.warning(message + " (%s: %s)", *args, type(exc).__name__, error_text(exc))
    logger.debug(message + ": traceback", *args, exc_info=(type(exc), exc, exc.__traceback__))


def _recall_kwargs(query: Any, context: Sequence[str] | str | None) -> tuple[str, dict[str, Any]] | None:
    """The query a recall reads and its checked keyword arguments, or ``None`` for a blank query (nothing to
    recall). End-user text with a lone surrogate (half an emoji) is repaired (:func:`repair_text`), not refused:
    the turn goes on, as after any other memory failure.

    No earlier turn: the call is exactly the single-turn one (``context`` is not passed at all)."""
    query = _repaired(query)
    if not check_query(query).strip():
        return None
    if isinstance(context, str):
        context = _repaired(context)
    elif isinstance(context, (list, tuple)):
        context = [_repaired(turn) for turn in context]
    turns = check_context(context)
    return query, ({"context": turns} if turns else {})


def _repaired(text: Any) -> Any:
    return repair_text(text) if isinstance(text, str) else text


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
    the background. Not an outage (:func:`is_outage`): a large cold load over a healthy store takes this long too."""


Late = Callable[["concurrent.futures.Future[Any]"], None]
"""Told the outcome of work that outlived its time limit, once it ends (:meth:`FailOpenCall.outlived`)."""


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


def recall_or_empty(
    engine: Any, query: str, entity_id: str, limit: int | None, *, strict: bool, owner: str, logger: logging.Logger,
    context: Sequence[str] | str | None = None, timeout: float | None = None,
) -> list[RecalledFact]:
    """``engine.recall``; a blank query gives ``[]``, a failure a warning and ``[]`` (unless ``strict``), and so
    does an outage being waited out (:class:`OutageBreaker`), at once.

    ``context`` (the user turns before ``query``, oldest first) is passed on when it holds any. ``timeout``
    (seconds, :func:`check_timeout`) bounds the whole recall: past it the call fails as a ``TimeoutError``
    (:func:`within`). A query or context of the wrong type raises ``TypeError`` before the engine is called,
    ``strict`` or not."""
    begun = recall_call(engine, query, entity_id, context, strict=strict, owner=owner, logger=logger)
    if begun is None:
        return []
    read, kwargs, call = begun
    return call.run(lambda: list(within(lambda: engine.recall(read, entity_id, limit, **kwargs), timeout,
                                        call.outlived)), [])


async def arecall_or_empty(
    engine: Any, query: str, entity_id: str, limit: int | None, *, strict: bool, owner: str, logger: logging.Logger,
    context: Sequence[str] | str | None = None, timeout: float | None = None,
) -> list[RecalledFact]:
    """Async :func:`recall_or_empty` (``engine.arecall``; with a ``timeout``, ``engine.recall`` in a daemon
    thread the event loop waits for: :func:`awithin`)."""
    begun = recall_call(engine, query, entity_id, context, strict=strict, owner=owner, logger=logger)
    if begun is None:
        return []
    read, kwargs, call = begun
    return await call.arun(lambda: arecall_within(engine, read, entity_id, limit, kwargs, timeout, call.outlived),
                           [])


def recall_call(
    engine: Any, query: str, entity_id: str, context: Sequence[str] | str | None, *, strict: bool, owner: str,
    logger: logging.Logger,
) -> tuple[str, dict[str, Any], FailOpenCall] | None:
    """A fail-open recall begun: the query to recall (a lone surrogate replaced: :func:`_recall_kwargs`), its
    checked keyword arguments (``context`` when it holds any turn) and its :class:`FailOpenCall`; ``None`` when
    there is nothing to recall (a blank query) or the breaker skips memory. A query or context of the wrong type
    raises ``TypeError``."""
    begun = _recall_kwargs(query, context)
    if begun is None:
        return None
    read, kwargs = begun
    call = FailOpenCall(engine, strict=strict, owner=owner, logger=logger, what="recall", entity_id=entity_id)
    return None if call.skipped else (read, kwargs, call)


async def arecall_within(
    engine: Any, query: str, entity_id: str, limit: int | None, kwargs: dict[str, Any], timeout: float | None,
    late: Late | None = None,
) -> list[RecalledFact]:
    """``engine.arecall``; with a ``timeout``, ``engine.recall`` in a daemon thread the event loop waits for at
    most that long (:func:`awithin`; ``late`` is told how a recall that outlived it ended)."""
    if timeout is None:
        return list(await engine.arecall(query, entity_id, limit, **kwargs))
    return list(await awithin(lambda: engine.recall(query, entity_id, limit, **kwargs), timeout, late))


# -- the outage breaker --------------------------------------------------------------------------------------

DEFAULT_OUTAGE_COOLDOWN = 10.0
"""Seconds the fail-open adapters skip memory after a store call timed out or could not connect
(``RecallEngine(outage_cooldown=...)``; 0 turns the breaker off). Chosen by measurement (docs/stores.md,
"When the server stops answering"): with the default 4 s ``timeout``, an outage costs one call in every
10 s the full timeout instead of every call paying it twice, and memory is back at most 10 s after the
server is."""


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` says the store could not be reached or did not answer in time: a timeout (an httpx
    timeout, a write's deadline, a wait that gave up), a failed connection (refused, reset, a server gone
    mid-reply) or a gateway's HTTP 502, 503 or 504 (a proxy in front of the server cannot reach it). Errors the store answered with, and the embedder's or ranking's errors, are not outages, nor is a whole recall's
    time limit passing (:class:`RecallTimedOut`: the store may be answering all along)."""
    if isinstance(exc, RecallTimedOut):
        return False
    if isinstance(exc, (TimeoutError, ConnectionError, asyncio.TimeoutError, concurrent.futures.TimeoutError)):
        return True
    httpx = sys.modules.get("httpx")  # not imported: no httpx error can have been raised
    if httpx is None:
        return False
    if isinstance(exc, (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError)):
        return True
    # A gateway's 502/503/504 that a client turned into another error (chromadb raises a bare Exception
    # while handling the httpx.HTTPStatusError): the server could not be reached.
    seen: BaseException | None = exc
    for _ in range(8):
        if seen is None:
            break
        if isinstance(seen, httpx.HTTPStatusError) and seen.response.status_code in GATEWAY_STATUSES:
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def error_text(exc: BaseException) -> str:
    """``exc``'s message for a log line: one line, HTML tags removed, at most 300 characters (a proxy's error
    page, or a server's long answer, is not copied into the log whole)."""
    return clip_text(str(exc), ERROR_CHARS)


@dataclass(frozen=True)
class Admission:
    """A call's leave to go to the store (:meth:`OutageBreaker.admit`): ``probe`` when it is the first call
    after a cool-down; ``outage`` counts the outages the breaker had opened for when it was given."""

    probe: bool
    outage: int


class Verdict(enum.Enum):
    """What one admitted call's outcome did to the breaker (:meth:`OutageBreaker.settle`)."""

    ANSWERED = "answered"  # the store answered (or the call failed for another reason): nothing changed
    RECOVERED = "recovered"  # the probe after a cool-down succeeded: the breaker is closed again
    OPENED = "opened"  # the first outage error: the breaker opened for a cool-down
    STILL_DOWN = "still down"  # the probe failed too: another cool-down
    KNOWN = "known"  # an outage error of a call that began before the breaker opened (already reported)
    FAILED = "failed"  # an outage error with the breaker off (cool-down 0)


class OutageBreaker:
    """What the fail-open adapters of one engine (``engine.outage``) do while its store is unreachable.

    A store call that times out or cannot connect (:func:`is_outage`) *opens* the breaker: for ``cooldown``
    seconds every fail-open call over the engine (recall, capture, the memory tools, ``MemoriRecall``)
    skips memory at once, as if it had failed, instead of waiting ``timeout`` for the same answer. The
    first call after the cool-down goes to the store (the *probe*; calls made while it runs still skip):
    when it succeeds the breaker closes, when it fails with an outage error another cool-down starts.
    Nothing is cached: a skipped call returns no memory at all, and after the cool-down the store answers.
    ``strict=True`` calls never consult it. ``cooldown=0`` turns it off (every call goes to the store).
    """

    def __init__(self, cooldown: float = DEFAULT_OUTAGE_COOLDOWN, *, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        """``clock`` (seconds, monotonic) is for tests."""
        self._lock = threading.Lock()
        self._until: float | None = None  # None: closed
        self.cooldown = cooldown
        self._clock = clock
        self._since = 0.0  # when the current outage was first seen
        self._probing = False
        self._outages = 0
        self._error = ""
        self._lost = 0  # background captures not stored during the current outage
        self._lost_told = False  # whether the first of them was warned about
        self._ended: OutageEnd | None = None

    @property
    def cooldown(self) -> float:
        """Seconds memory is skipped after an outage error (0: the breaker is off)."""
        return self._cooldown

    @cooldown.setter
    def cooldown(self, value: float) -> None:
        seconds = check_cooldown(value)
        with self._lock:
            self._cooldown = seconds
            if seconds == 0:
                self._until = None  # off: closed for good

    @property
    def is_open(self) -> bool:
        """Whether an outage is being waited out (calls skip memory, or one probe is running)."""
        with self._lock:
            return self._until is not None

    @property
    def error(self) -> str:
        """The type name of the error that opened the breaker last (``""`` before any)."""
        return self._error

    def retry_in(self) -> float:
        """Seconds until the next probe may go to the store (0 when closed or due)."""
        with self._lock:
            return 0.0 if self._until is None else max(0.0, self._until - self._clock())

    def admit(self) -> Admission | None:
        """Leave for one call to go to the store, or ``None``: skip memory (the breaker is open, or the probe
        after it is running). Every admission is passed to :meth:`settle` once the call is over."""
        with self._lock:
            if self._until is None or self._cooldown == 0:
                return Admission(False, self._outages)
            if self._probing or self._clock() < self._until:
                return None
            self._probing = True
            return Admission(True, self._outages)

    def settle(self, admission: Admission, error: BaseException | None) -> Verdict:
        """Record how an admitted call ended (``error``: what it raised, ``None`` when it succeeded)."""
        outage = error is not None and is_outage(error)
        with self._lock:
            current = admission.outage == self._outages
            if admission.probe and current:
                self._probing = False
            if not outage:
                if error is None and admission.probe and current and self._until is not None:
                    self._until = None
                    self._ended = OutageEnd(self._lost, self._clock() - self._since)
                    self._lost = 0
                    return Verdict.RECOVERED
                return Verdict.ANSWERED
            assert error is not None
            if self._cooldown == 0:
                return Verdict.FAILED
            now = self._clock()
            if self._until is None:
                if not current:
                    return Verdict.KNOWN  # began before an outage that has ended since
                self._outages += 1
                self._until, self._since, self._error = now + self._cooldown, now, type(error).__name__
                self._lost, self._lost_told = 0, False
                return Verdict.OPENED
            if admission.probe and current:
                self._until, self._error = now + self._cooldown, type(error).__name__
                return Verdict.STILL_DOWN
            return Verdict.KNOWN

    def release(self, admission: Admission) -> None:
        """An admitted call ended without telling whether the store answers: a probe lets the next call probe."""
        with self._lock:
            if admission.probe and admission.outage == self._outages:
                self._probing = False

    def opened_since(self, admission: Admission) -> bool:
        """Whether an outage is being waited out that began after ``admission`` was given (another call met it
        while this one waited): the call would wait ``timeout`` for the same failure."""
        with self._lock:
            return self._until is not None and admission.outage != self._outages

    def down_for(self) -> float:
        """Seconds since the current outage was first seen (0 when closed)."""
        with self._lock:
            return 0.0 if self._until is None else self._clock() - self._since

    def capture_lost(self) -> bool:
        """Count one background capture the current outage kept from being stored; ``True`` for the first of the
        outage (the one to warn about), and when no outage is open any more (its count was told already)."""
        with self._lock:
            if self._until is None:
                return True
            self._lost += 1
            first, self._lost_told = not self._lost_told, True
            return first

    @property
    def last_outage(self) -> OutageEnd | None:
        """How the most recent outage that ended went (``None`` before one did)."""
        with self._lock:
            return self._ended


@dataclass(frozen=True)
class OutageEnd:
    """An outage that ended (the store answered a probe): how many background captures it kept from being
    stored (``lost_captures``) and how long it lasted (``seconds``, from the error that opened it)."""

    lost_captures: int
    seconds: float


def check_cooldown(value: Any, name: str = "outage_cooldown") -> float:
    """``value`` as seconds: a finite number >= 0 (0 turns the breaker off); ``TypeError`` / ``ValueError``
    naming ``name`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number of seconds, got {type(value).__name__}")
    if not (0 <= value < float("inf")):
        raise ValueError(f"{name} must be a finite number of seconds >= 0 (0: off), got {value!r}")
    return float(value)


def outage_breaker(engine: Any) -> OutageBreaker | None:
    """The engine's breaker (``engine.outage``), or ``None`` for an object that has none."""
    breaker = getattr(engine, "outage", None)
    return breaker if isinstance(breaker, OutageBreaker) else None


class FailOpenCall:
    """One fail-open call to memory through the engine's :class:`OutageBreaker`, with the policy's logging.

    >>> call = FailOpenCall(engine, strict=False, owner="MyAdapter", logger=log, what="recall", entity_id="u1")
    >>> if call.skipped:
    ...     return []                      # the store failed moments ago: no memory, no wait
    >>> try:
    ...     facts = engine.recall(...)
    ... except Exception as exc:
    ...     call.failed(exc)               # raises when strict; else logs (once per outage)
    ...     return []
    >>> call.succeeded()

    :meth:`run` / :meth:`arun` do that around one piece of work (``call.run(lambda: engine.recall(...), [])``).
    A ``strict`` call never skips and never touches the breaker: it goes to the store and its error is raised.
    """

    __slots__ = ("breaker", "admission", "strict", "owner", "logger", "what", "entity_id", "limit", "background")

    def __init__(self, engine: Any, *, strict: bool, owner: str, logger: logging.Logger, what: str,
                 entity_id: str | None, background: bool = False) -> None:
        """``background``: a background capture, whose turn is lost when the call skips or fails during an outage
        without the app seeing it: the first of each outage is warned (:meth:`OutageBreaker.capture_lost`)."""
        self.strict, self.owner, self.logger, self.what, self.entity_id = strict, owner, logger, what, entity_id
        self.background = background
        limit = getattr(getattr(engine, "store", None), "request_timeout", None)
        self.limit: float | None = (float(limit) if isinstance(limit, (int, float)) and not isinstance(limit, bool)
                                    and limit > 0 else None)
        """The store's request time limit: the time the call has to reach the store (:meth:`reaching`)."""
        self.breaker = None if strict else outage_breaker(engine)
        self.admission = self.breaker.admit() if self.breaker is not None else None
        if self.skipped:
            assert self.breaker is not None
            why = (f"the store failed {self.breaker.down_for():.1f} s ago ({self.breaker.error}); tried again in "
                   f"{self.breaker.retry_in():.1f} s")
            if not self._warned_lost(why):
                logger.debug("%s: %s skipped for entity %r: %s", owner, what, entity_id, why)

    @property
    def skipped(self) -> bool:
        """Whether memory is skipped for this call (the breaker is open): do not call the store."""
        return self.breaker is not None and self.admission is None

    def reaching(self, *, timed: bool = True, stop: Callable[[], str | None] | None = None
                 ) -> contextlib.AbstractContextManager[None]:
        """Run the call's store work inside: its first store request must start within the store's request time
        limit of the call's start (unless not ``timed``: a background capture waits its turn), and is not sent
        when the breaker opened for another call meanwhile, or when ``stop()`` names a reason; each raises
        :class:`~memori_core.store.deadline.NotReached`, which :meth:`failed` reports as a call that failed open
        without reaching the store. A ``strict`` call has none of this (it waits its turn)."""
        if self.strict:
            return contextlib.nullcontext()
        seconds = self.limit if timed else None

        def stopped() -> str | None:
            return self._overtaken() or (stop() if stop is not None else None)

        return deadline.reaching(seconds, f"the {self.what}", stopped)

    def _overtaken(self) -> str | None:
        if self.breaker is None or self.admission is None or not self.breaker.opened_since(self.admission):
            return None
        return (f"the store failed for another call while this one waited ({self.breaker.error}); memory is "
                f"skipped for {self.breaker.retry_in():.1f} s")

    def _warned_lost(self, why: str) -> bool:
        """For a background capture lost to the outage (``why``), count it; the first of the outage is warned
        here (``True``), the others are left to the caller's DEBUG line (``False``)."""
        if not self.background or self.breaker is None or not self.breaker.capture_lost():
            return False
        self.logger.warning(
            "%s: %s for entity %r not stored: %s; the turns captured until the store answers again are not "
            "stored either (warned once per outage; how many is logged when it answers)", self.owner, self.what,
            self.entity_id, why)
        return True

    @property
    def error(self) -> str:
        """For a skipped call, the type name of the error the store failed with."""
        return self.breaker.error if self.breaker is not None else ""

    def succeeded(self) -> None:
        """The call got its answer from the store."""
        if self.admission is not None and self.breaker is not None:
            if self.breaker.settle(self.admission, None) is Verdict.RECOVERED:
                self.logger.info("%s: the store answers again; memory is used again", self.owner)
                ended = self.breaker.last_outage
                if ended is not None and ended.lost_captures:
                    self.logger.warning(
                        "%s: the store answers again after %.0f s down; background captures skipped or failed "
                        "meanwhile: %d (those turns are not stored)", self.owner, ended.seconds, ended.lost_captures)

    def ended(self) -> None:
        """The call ended without telling whether the store answers (it did not reach it, or raised a usage
        error the caller raises as it is): the breaker learns nothing from it."""
        if self.admission is not None and self.breaker is not None:
            self.breaker.release(self.admission)

    def run(self, work: Callable[[], T], default: T, *, instead: str = "continuing without memory") -> T:
        """``work()`` inside :meth:`reaching`: its result, the call :meth:`succeeded`; when it raises, the call
        :meth:`failed` (raised when ``strict``) and ``default`` is returned."""
        try:
            with self.reaching():
                result = work()
        except Exception as exc:
            self.failed(exc, instead=instead)
            return default
        self.succeeded()
        return result

    async def arun(self, work: Callable[[], Awaitable[T]], default: T, *,
                   instead: str = "continuing without memory") -> T:
        """Async :meth:`run`: ``work()`` is awaited."""
        try:
            with self.reaching():
                result = await work()
        except Exception as exc:
            self.failed(exc, instead=instead)
            return default
        self.succeeded()
        return result

    def outlived(self, future: concurrent.futures.Future[Any]) -> None:
        """The work of this call, which outlived the call's time limit (:class:`RecallTimedOut`, already reported),
        ended: tell the breaker how the store did, as if the call had waited for it. Its error is logged as
        :meth:`failed` logs one (an outage's opening warning); a ``strict`` call raised already: nothing."""
        if self.strict:
            return
        error = None if future.cancelled() else future.exception()
        if error is None:
            self.succeeded()
        elif isinstance(error, Exception):
            self.failed(error, instead="the recall had outlived its timeout")

    def failed(self, exc: BaseException, *, instead: str = "continuing without memory") -> None:
        """The call failed: raise ``exc`` when ``strict``; else log it as the policy says (the error that
        opens the breaker with a warning saying for how long memory is skipped, a probe's at INFO, others
        of the same outage at DEBUG) and return. A whole call's time limit (:class:`RecallTimedOut`) is warned
        and settles nothing: the work runs on, and :meth:`outlived` settles the call once it ends."""
        if self.strict:
            raise exc
        if isinstance(exc, RecallTimedOut):
            if self.admission is not None and self.admission.probe and self.breaker is not None:
                self.breaker.release(self.admission)  # the next call may probe; the late outcome still counts
            # Named as the TimeoutError it is (the class only tells it from a store's own timeout).
            self.logger.warning("%s: %s failed for entity %r (TimeoutError: %s); %s; it runs on in the background "
                                "(not an outage: the store may be answering a large load)", self.owner, self.what,
                                self.entity_id, exc, instead)
            return
        if isinstance(exc, NotReached):  # never sent: says nothing of the store, the breaker learns nothing
            self.ended()
            if self.breaker is not None and self.breaker.is_open:
                if not self._warned_lost(str(exc)):
                    self.logger.debug("%s: %s skipped for entity %r: %s", self.owner, self.what, self.entity_id, exc)
            else:
                warn_failed(self.logger, self.owner, self.what, self.entity_id, exc, instead=instead)
            return
        verdict = (self.breaker.settle(self.admission, exc)
                   if self.breaker is not None and self.admission is not None else Verdict.FAILED)
        if verdict is Verdict.OPENED:
            assert self.breaker is not None
            lost = ""
            if self.background:  # this warning tells the outage's captures are lost: it is the first one's
                self.breaker.capture_lost()
                lost = ("; the turns captured until the store answers again are not stored either (how many is "
                        "logged when it answers)")
            warn_failed(self.logger, self.owner, self.what, self.entity_id, exc,
                        instead=f"{instead}; memory is skipped for {self.breaker.cooldown:g} s, then the "
                                f"store is tried again (RecallEngine(outage_cooldown=...)){lost}")
        elif verdict is Verdict.STILL_DOWN:
            assert self.breaker is not None
            if not self._warned_lost(f"it failed again ({type(exc).__name__}: {error_text(exc)})"):
                self.logger.info("%s: %s failed again for entity %r (%s: %s); memory is skipped for another %g s",
                                 self.owner, self.what, self.entity_id, type(exc).__name__, error_text(exc),
                                 self.breaker.cooldown)
        elif verdict is Verdict.KNOWN:
            if not self._warned_lost(f"it failed ({type(exc).__name__}) during an outage already reported"):
                self.logger.debug("%s: %s failed for entity %r (%s) during an outage already reported",
                                  self.owner, self.what, self.entity_id, type(exc).__name__)
        else:
            warn_failed(self.logger, self.owner, self.what, self.entity_id, exc, instead=instead)
