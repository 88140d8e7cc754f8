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

Outages (:class:`~memori_core.outage.OutageBreaker`, one per engine as ``engine.outage``: :mod:`memori_core.outage`):
once a store call of a fail-open surface timed out or could not connect, every fail-open surface over that engine
skips memory for ``RecallEngine(outage_cooldown=...)`` seconds. The error that starts
an outage is logged as a warning, once; the calls it skips log at DEBUG, but for background captures: a turn
not stored is lost without anyone seeing it, so the first capture an outage skips or fails (over the engine, of
any adapter) is warned, once per outage, and when the store answers again (or at interpreter exit, if it never
did) a warning says how many were kept from it. The capturing adapters hold those turns and capture them again
once the store answers (:mod:`memori_core.capture.held`).
:class:`FailOpenCall` is one call through this policy.

Waiting before the store (:meth:`FailOpenCall.reaching`): a fail-open call must send its first store request
within the store's request time limit (``ChromaStore.http(timeout=...)``) of its start, whatever it waited for
first (a thread of the engine's pool, another call of the same user holding the user's copy); a call that did
not, or that finds the breaker opened by another call while it waited, fails open without sending it
(:class:`~memori_core.store.deadline.NotReached`). So however many calls are queued behind a stalled server, each
fails open about one ``timeout`` after it began, instead of after every call before it has timed out in turn.

A whole recall's time limit (an adapter's ``timeout=``: :mod:`memori_core.time_limit`): :func:`recall_or_empty` /
:func:`arecall_or_empty` wait that long for the recall, which runs on in a daemon thread, and fail open with
:class:`~memori_core.time_limit.RecallTimedOut`, which does not open the breaker (the store may well be answering a
large user's first load), and is warned once until a call gets its answer in time (a stopped store times out every
recall: :meth:`~memori_core.outage.OutageBreaker.timed_out`), the others at DEBUG. The recall left running tells the breaker how the store did once it ends
(:meth:`FailOpenCall.outlived`): a store error, a request past the store's own request time limit or a connection
that fails opens it then, as on any call.

The names the adapters use from :mod:`memori_core.outage`, :mod:`memori_core.time_limit` and
:mod:`memori_core.error_log` are importable from here too (``__all__``): this module is the policy's one door.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from .error_log import ERROR_CHARS, error_text, warn_briefly, warn_failed
from .facts import RecalledFact
from .outage import DEFAULT_OUTAGE_COOLDOWN, HELD_TURNS_NOTE, OutageBreaker, Verdict, is_outage, outage_breaker
from .store import deadline
from .store.deadline import NotReached
from .time_limit import Late, RecallTimedOut, answer_by, awithin, check_timeout, within
from .validate import check_context, check_query, repair_turns

__all__ = [
    "DEFAULT_OUTAGE_COOLDOWN", "ERROR_CHARS", "STRICT_DEFAULT", "FailOpenCall", "FailOpenRecall", "MemorySkipped",
    "OutageBreaker", "RecallTimedOut",
    "Verdict", "answer_by", "arecall_or_empty", "arecall_within", "awithin", "check_timeout", "error_text",
    "is_outage", "recall_call", "recall_or_empty", "warn_briefly", "warn_failed", "within",
]

T = TypeVar("T")

STRICT_DEFAULT = False
"""Every adapter's default: fail open. Each surface sits on the way to a model call, and memory is extra
context for it: a store outage answers like a question with nothing relevant stored (which the relevance
gate already makes an everyday case), not like an error the app must handle on every call."""


def _recall_kwargs(query: Any, context: Sequence[str] | str | None, owner: str) -> tuple[str, dict[str, Any]] | None:
    """The query a recall reads and its checked keyword arguments, or ``None`` for a blank query (nothing to
    recall). End-user text with a lone surrogate (half an emoji) is repaired (:func:`~memori_core.validate.repair_turns`), not refused:
    the turn goes on, as after any other memory failure.

    No earlier turn: the call is exactly the single-turn one (``context`` is not passed at all). A query or context
    of the wrong type (or a bad value) is a ``TypeError`` (``ValueError``) naming ``owner``, the adapter called (``MemoriRetriever: query must be a
    str, got NoneType``)."""
    try:
        query, context = repair_turns(query, context)
        if not check_query(query).strip():
            return None
        turns = check_context(context)
    except (TypeError, ValueError) as exc:
        raise (TypeError if isinstance(exc, TypeError) else ValueError)(f"{owner}: {exc}") from None
    return query, ({"context": turns} if turns else {})


@dataclass(frozen=True)
class FailOpenRecall:
    """One adapter call's recall through the policy, planned once: :meth:`run` (``engine.recall``) or :meth:`arun`
    (``engine.arecall``) does its I/O; a blank query gives ``[]``, a failure a warning and ``[]`` (unless
    ``strict``), and so does an outage being waited out (:class:`OutageBreaker`), at once.

    ``context`` (the user turns before ``query``, oldest first) is passed on when it holds any. ``timeout``
    (seconds, :func:`check_timeout`) bounds the whole recall: past it the call fails as a ``TimeoutError``
    (:func:`within`). ``as_of`` (the time of a replayed turn: :func:`~memori_core.capture.said_as_of`) is passed
    on when given. A query or context of the wrong type raises ``TypeError`` before the engine is called,
    ``strict`` or not. An adapter's sync and async twins build the one plan and differ only in calling :meth:`run`
    or :meth:`arun`; :func:`recall_or_empty` / :func:`arecall_or_empty` build and run one in a single call."""

    engine: Any
    query: str
    entity_id: str
    limit: int | None
    strict: bool
    owner: str
    logger: logging.Logger
    context: Sequence[str] | str | None = None
    timeout: float | None = None
    as_of: datetime | None = None
    instead: str = "continuing without memory"  # what a failure's warning says happens instead

    def _begun(self) -> tuple[str, dict[str, Any], FailOpenCall] | None:
        return recall_call(self.engine, self.query, self.entity_id, self.context, strict=self.strict,
                           owner=self.owner, logger=self.logger, as_of=self.as_of)

    def run(self) -> list[RecalledFact]:
        """The facts, recalled with ``engine.recall`` (with a ``timeout``, in a daemon thread: :func:`within`)."""
        begun = self._begun()
        if begun is None:
            return []
        read, kwargs, call = begun
        engine, entity_id, limit, timeout = self.engine, self.entity_id, self.limit, self.timeout

        def recall() -> list[RecalledFact]:
            return list(engine.recall(read, entity_id, limit, **kwargs))

        return call.run(recall if timeout is None else lambda: within(recall, timeout, call.outlived), [],
                        instead=self.instead)

    async def arun(self) -> list[RecalledFact]:
        """The facts, recalled with ``engine.arecall`` (with a ``timeout``, ``engine.recall`` in a daemon thread
        the event loop waits for: :func:`awithin`)."""
        begun = self._begun()
        if begun is None:
            return []
        read, kwargs, call = begun
        return await call.arun(lambda: arecall_within(self.engine, read, self.entity_id, self.limit, kwargs,
                                                      self.timeout, call.outlived), [], instead=self.instead)


def recall_or_empty(
    engine: Any, query: str, entity_id: str, limit: int | None, *, strict: bool, owner: str, logger: logging.Logger,
    context: Sequence[str] | str | None = None, timeout: float | None = None, as_of: datetime | None = None,
) -> list[RecalledFact]:
    """``engine.recall`` failing open: :meth:`FailOpenRecall.run` (the arguments are its fields)."""
    return FailOpenRecall(engine, query, entity_id, limit, strict, owner, logger, context, timeout, as_of).run()


async def arecall_or_empty(
    engine: Any, query: str, entity_id: str, limit: int | None, *, strict: bool, owner: str, logger: logging.Logger,
    context: Sequence[str] | str | None = None, timeout: float | None = None, as_of: datetime | None = None,
) -> list[RecalledFact]:
    """Async :func:`recall_or_empty`: :meth:`FailOpenRecall.arun`."""
    return await FailOpenRecall(engine, query, entity_id, limit, strict, owner, logger, context, timeout,
                                as_of).arun()


def recall_call(
    engine: Any, query: str, entity_id: str, context: Sequence[str] | str | None, *, strict: bool, owner: str,
    logger: logging.Logger, as_of: datetime | None = None,
) -> tuple[str, dict[str, Any], FailOpenCall] | None:
    """A fail-open recall begun: the query to recall (a lone surrogate replaced: :func:`_recall_kwargs`), its
    checked keyword arguments (``context`` when it holds any turn, ``as_of`` when given) and its
    :class:`FailOpenCall`; ``None`` when
    there is nothing to recall (a blank query) or the breaker skips memory. A query or context of the wrong type
    raises ``TypeError``."""
    begun = _recall_kwargs(query, context, owner)
    if begun is None:
        return None
    read, kwargs = begun
    if as_of is not None:
        kwargs = {**kwargs, "as_of": as_of}
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


class MemorySkipped(ConnectionError):
    """A call the outage breaker kept from the store (it failed moments ago), raised by a surface that does not
    fail open (:meth:`FailOpenCall.skipped_error`): nothing was sent."""


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

    __slots__ = ("breaker", "admission", "strict", "owner", "logger", "what", "entity_id", "limit", "background",
                 "held", "lost_turn")

    def __init__(self, engine: Any, *, strict: bool, owner: str, logger: logging.Logger, what: str,
                 entity_id: str | None, background: bool = False, held: bool = False, lost_turn: object = None
                 ) -> None:
        """``background``: a background capture, whose turn is not stored when the call skips or fails during an
        outage without the app seeing it: the first of each outage is warned (:meth:`OutageBreaker.capture_lost`);
        ``held``: its adapter holds such turns to capture them again once the store answers (the warning says so);
        ``lost_turn``: the held turn's own token, so a turn skipped again is counted once per outage."""
        self.lost_turn = lost_turn
        self.strict, self.owner, self.logger, self.what, self.entity_id = strict, owner, logger, what, entity_id
        self.background, self.held = background, held
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
        if not self.background or self.breaker is None or not self.breaker.capture_lost(self.lost_turn):
            return False
        self.logger.warning("%s: %s for entity %r not stored: %s; %s (warned once per outage; how many is logged "
                            "when it answers)", self.owner, self.what, self.entity_id, why, self._lost_turns())
        return True

    def _lost_turns(self) -> str:
        """What becomes of the turns an outage keeps from the store, for this call's adapter."""
        if self.held:
            return ("it and the turns captured until the store answers again are held, and captured again once it "
                    "answers (capture_stats.held)")
        return "the turns captured until the store answers again are not stored either"

    @property
    def error(self) -> str:
        """For a skipped call, the type name of the error the store failed with."""
        return self.breaker.error if self.breaker is not None else ""

    def succeeded(self, *, late: bool = False) -> None:
        """The call got its answer from the store (``late``: after the call had given up at its time limit)."""
        if self.admission is not None and self.breaker is not None:
            if self.breaker.settle(self.admission, None, late=late) is Verdict.RECOVERED:
                self.logger.info("%s: the store answers again; memory is used again", self.owner)
                ended = self.breaker.last_outage
                if ended is not None and ended.lost_captures:
                    self.logger.warning(
                        "%s: the store answers again after %.0f s down; background captures skipped or failed "
                        "meanwhile: %d (%s)", self.owner, ended.seconds, ended.lost_captures, HELD_TURNS_NOTE)

    def raised(self, exc: BaseException) -> None:
        """The call failed and its caller raises ``exc`` itself (a surface that never fails open, such as a
        LangGraph store's writes): the breaker learns from it as from a fail-open call's error (an outage opens
        it for the other calls), and nothing is logged here."""
        if self.admission is None or self.breaker is None:
            return
        if isinstance(exc, (RecallTimedOut, NotReached)):
            self.breaker.release(self.admission)  # says nothing of the store
        else:
            self.breaker.settle(self.admission, exc)

    def skipped_error(self, done: str) -> MemorySkipped:
        """For a skipped call whose caller raises rather than fails open: the error saying so (``done``: what
        did not happen, "written", "read")."""
        assert self.breaker is not None
        return MemorySkipped(
            f"{self.owner}: {self.what} for entity {self.entity_id!r} not sent: the memory store failed "
            f"{self.breaker.down_for():.1f} s ago ({self.breaker.error}) and is tried again in "
            f"{self.breaker.retry_in():.1f} s (RecallEngine(outage_cooldown=...)); nothing was {done}")

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
            self.succeeded(late=True)
        elif isinstance(error, Exception):
            self.failed(error, instead="the recall had outlived its timeout")

    def failed(self, exc: BaseException, *, instead: str = "continuing without memory") -> None:
        """The call failed: raise ``exc`` when ``strict``; else log it as the policy says (the error that
        opens the breaker with a warning saying for how long memory is skipped, a probe's at INFO, others
        of the same outage at DEBUG) and return. A whole call's time limit (:class:`RecallTimedOut`) is warned
        and settles nothing: the work runs on, and :meth:`outlived` settles the call once it ends. Like an outage's
        errors it is warned once: the first since a call last got its answer in time
        (:meth:`~memori_core.outage.OutageBreaker.timed_out`), the others at DEBUG."""
        if self.strict:
            raise exc
        if isinstance(exc, RecallTimedOut):
            first = True
            if self.breaker is not None:
                if self.admission is not None and self.admission.probe:
                    self.breaker.release(self.admission)  # the next call may probe; the late outcome still counts
                first = self.breaker.timed_out()
            # Named as the TimeoutError it is (the class only tells it from a store's own timeout).
            if first:
                self.logger.warning("%s: %s failed for entity %r (TimeoutError: %s); %s; it runs on in the "
                                    "background (not an outage: the store may be answering a large load); calls "
                                    "that time out until one gets its answer in time are logged at DEBUG",
                                    self.owner, self.what, self.entity_id, exc, instead)
            else:
                self.logger.debug("%s: %s failed for entity %r (TimeoutError: %s); %s; it runs on in the background "
                                  "(timeouts already reported)", self.owner, self.what, self.entity_id, exc, instead)
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
                self.breaker.capture_lost(self.lost_turn)
                fate = "held too" if self.held else "not stored either"
                lost = (f"; the turns captured until the store answers again are {fate} (how many is logged when it "
                        "answers)")
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
