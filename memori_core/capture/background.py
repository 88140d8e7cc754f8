"""One adapter's captures run in the background, bounded, failing open: :class:`BackgroundCapture`."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timezone
from typing import Any

from ..extraction.types import FactExtractor, MessageLike, as_messages, last_said_at
from ..failopen import FailOpenCall, is_outage, warn_failed
from ..lanes import ERASURES, ForgottenError
from ..outage import EARLY_PROBE_AFTER, outage_breaker
from ..store.base import ClosedError
from ..store.deadline import NotReached
from ..validate import check_said_at
from .arguments import DEFAULT_MAX_PENDING_CAPTURES, check_hold, check_max_pending
from .held import OUTAGE_ATTEMPTS, Held, HeldTurns, describe_turns
from .outcomes import CaptureDropped, CaptureStats, FlushResult, HeldTurn
from .turn import capture_facts


_HELD = "the turn is held and captured again once the store answers"

_ALL_CAPTURES: weakref.WeakSet[BackgroundCapture] = weakref.WeakSet()

HELD_AT_EXIT_SECONDS = 10.0
"""At interpreter exit, how long the adapters still holding turns an outage kept from the store wait for them, in
all: each flushes once (the store asked at once whether it answers, one request within the store's request time
limit, then the turns captured again). What the store takes is stored; what it does not is logged, each turn
named (:mod:`memori_core.capture.held`). A process exiting right after an outage (a cron job, a queue worker)
lost those turns with only a warning while the cool-down ran."""

HELD_BEFORE_RECALL_SECONDS = 5.0
"""At most how long a recall of a user whose turns an outage kept from the store waits for them once the store may
answer again (:meth:`BackgroundCapture.store_held_before`): they are handed back before it reads, so that the
first answer after the outage knows what the user said during it ("I moved to Porto" held, then "Where do I
live?" answered from Lisbon). Past it the recall reads without them; they are still stored in the background."""


def _after_fork_in_child() -> None:
    """In a forked child: every adapter's captures start counted from nothing (its held turns start empty too:
    :mod:`memori_core.capture.held`)."""
    for capture in list(_ALL_CAPTURES):
        capture._after_fork_in_child()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


class BackgroundCapture:
    """The captures of one adapter, run in the background with a bound; the adapter's answer never waits for them.

    ``submit`` queues a capture (:func:`capture_facts`) on the engine's
    capture pool (``RecallEngine(capture_workers=...)``, :mod:`memori_core.lanes`) and
    returns at once; captures of one entity run one at a time, in order. At
    most ``max_pending`` captures of this adapter may be queued or running:
    beyond that a new one is dropped with a warning (memory is best effort; an
    unbounded queue would grow without limit behind a slow extractor or store).
    Drops are counted (:attr:`stats`, and the :class:`FlushResult` of the next
    :meth:`flush`), so an app can see turns that were not stored.

    Failures (the extractor, the similar-facts lookup or the store) log one
    warning each through :func:`~memori_core.failopen.warn_failed` and are otherwise ignored; a
    store outage is warned once and the captures that start during the engine's
    outage cool-down are skipped, as failed ones (``on_failure``), without
    reaching the store (:class:`~memori_core.outage.OutageBreaker`): the first
    capture an outage keeps from being stored is warned, once per outage, and how
    many it kept is warned when the store answers again (or at interpreter exit). With ``hold`` (the
    LangChain middleware and capture node, the LlamaIndex memory block), such a turn is held instead and queued again once the store
    answers, at the next :meth:`submit` while the breaker is closed or at :meth:`flush`
    (:mod:`memori_core.capture.held`); ``on_failure`` is then called only if it is given up. With
    ``strict=True`` nothing is logged: the first failure (or dropped capture,
    as :class:`CaptureDropped`) is kept and raised by the next :meth:`flush` /
    :meth:`aflush`, or by the adapter's next call (:meth:`raise_failure`),
    whichever comes first; it cannot go unnoticed, and the answer it happened
    after is not taken back. A capture of a turn that began before a ``forget``
    of its entity writes nothing (:mod:`memori_core.lanes`): it is counted as erased and
    logged at INFO, never raised.

    :meth:`flush` / :meth:`aflush` wait until every capture submitted so far
    has finished: call them before reading what was captured (tests, a batch
    job), or close the engine (``engine.close()`` waits for its captures, with
    a bound). Pending captures also finish at normal interpreter exit, as long as the store answers: at
    close or exit, once the store is found unreachable, those not started are dropped (counted, one warning
    for all: :mod:`memori_core.lanes`). In a forked child the counts start at zero and nothing is held: the
    parent runs and counts what it queued or held.
    """

    def __init__(
        self,
        owner: str,
        logger: logging.Logger,
        *,
        strict: bool = False,
        max_pending: int = DEFAULT_MAX_PENDING_CAPTURES,
        hold: int | HeldTurns = 0,
    ) -> None:
        """``owner`` names the adapter in warnings; ``logger`` is the adapter's logger; ``hold``: how many of each
        user's turns an outage kept from the store are held to be captured again once it answers (0: none; the
        adapters that capture give :data:`~memori_core.capture.held.OUTAGE_TURNS_KEPT`), or the
        :class:`~memori_core.capture.held.HeldTurns` several such objects share (the LlamaIndex memory blocks
        over one engine: what one holds, the next one's captures hand back; :attr:`held` counts them all)."""
        self.owner = owner
        self.logger = logger
        self.strict = strict
        self.max_pending = check_max_pending(max_pending, owner)
        self._pending = 0
        self._counts = {"submitted": 0, "completed": 0, "dropped": 0, "failed": 0, "erased": 0, "refused_facts": 0}
        self._flushed = dict(self._counts)  # the counts the previous flush reported from
        self._failure: BaseException | None = None
        self._done = threading.Condition()
        if isinstance(hold, HeldTurns):
            self._held: HeldTurns | None = hold
        else:
            self._held = HeldTurns(owner, logger, check_hold(hold, owner)) if hold else None
        self._engine: Any = None  # the engine of the last capture submitted (an adapter has one): flush's
        self._handed: dict[BackgroundCapture, None] = {}  # holders of turns handed back since the last flush
        _ALL_CAPTURES.add(self)
        self._set_up()

    def _after_fork_in_child(self) -> None:
        # The parent runs (and counts) the captures it queued and the turns it held; the child's pool starts empty
        # (memori_core.lanes), so its counts start at nothing too, or its flush would wait for the parent's.
        self._done = threading.Condition()
        self._pending = 0
        self._counts = dict.fromkeys(self._counts, 0)
        self._flushed = dict(self._counts)
        self._failure = None
        self._handed = {}

    def _set_up(self) -> None:
        """What a subclass keeps besides the base's state, set up at the end of ``__init__`` (nothing here)."""

    @property
    def pending(self) -> int:
        """Captures submitted and not finished yet."""
        with self._done:
            return self._pending

    @property
    def held(self) -> int:
        """Turns an outage kept from the store, held to be captured again once it answers (``hold``)."""
        return len(self._held) if self._held is not None else 0

    @property
    def stats(self) -> CaptureStats:
        """What became of the captures submitted since this object was made (:class:`CaptureStats`)."""
        held = self.held
        with self._done:
            return CaptureStats(**self._counts, pending=self._pending, held=held)

    def submit(
        self,
        engine: Any,
        entity_id: str,
        messages: Sequence[MessageLike],
        extractor: FactExtractor,
        *,
        metadata: Mapping[str, Any] | None = None,
        session_id: str | None = None,
        on_failure: Callable[[], None] | None = None,
        since: int | None = None,
        created_at: datetime | str | None = None,
        stored: Callable[[], bool] | None = None,
        landed: Callable[[], bool] | None = None,
    ) -> bool:
        """Queue the capture of one turn; ``False`` when it was dropped (``max_pending`` are pending, the engine
        is closed, or its capture pool could not take it). ``on_failure()`` is called once when the turn is not
        stored: its capture failed (a store outage), or it was dropped, here or later (the engine closed before
        it ran); so an adapter that remembers which turns it captured can let a later call capture it again. This
        object makes that call, on every path: an adapter never calls it for a ``False``. Not for a turn whose
        user was forgotten since (erased); with ``hold``, a turn held to be captured again after an outage is
        not failed (yet): ``on_failure`` is called if it is given up.

        ``since`` is the entity's erase generation (``ERASURES.generation(entity_id)``, :mod:`memori_core.lanes`)
        noted when the turn began, before the model answered it; default: now. A ``forget`` of the entity after
        that makes the capture write nothing.

        ``created_at`` is when the turn was said (as for :func:`capture_facts`, which checks it the same way,
        here before anything is queued); default: the ``created_at`` of its last user message that has one,
        else the time of this call. The capture runs later, but its facts are dated, and their relative dates
        read, at the turn's time, not at the time a worker gets to it.

        ``stored()``, for a turn captured again after a failure, says whether the failed attempt's facts are in the
        store after all (a write whose reply was lost): asked in the background, where the store work runs; true
        -> nothing is extracted nor written, and the capture counts as completed. ``landed()`` is the same
        question for a held turn (``hold``), asked only before an attempt that follows one that reached the store.

        With ``hold``, the turns held after an outage are queued first, once the store answers (the engine's
        outage breaker is closed)."""
        said_at = check_said_at(created_at)
        turn = as_messages(messages)  # copied now: the caller's objects may change after we return
        if said_at is None:
            said_at = last_said_at(turn) or datetime.now(timezone.utc)
        generation = ERASURES.generation(entity_id) if since is None else since
        self._engine = engine
        self._handed_to(self._hand_back(engine))
        held = Held(engine, tuple(turn), extractor, dict(metadata or {}), session_id, said_at, on_failure, landed,
                    holder=self)
        return self._queue(entity_id, held, generation, stored, again=False)

    def _hand_back(self, engine: Any, *, due: bool = False, spends: bool = True) -> list[BackgroundCapture]:
        """Queue the held turns again, oldest first, when the store answers: the breaker is closed (or, ``due``, a
        call may probe it now: a flush). Each is queued on (and counted by) the object it was submitted to,
        whichever object's call hands it back; those of users forgotten since are counted there as erased.
        ``spends=False``: their attempts do not count toward giving them up. Returns those objects (none when
        nothing was taken)."""
        if self._held is None or not len(self._held):
            return []
        breaker = outage_breaker(engine)
        if breaker is not None and breaker.is_open and (not due or breaker.retry_in() > 0):
            return []
        taken = self._held.take()
        if taken and breaker is not None and breaker.is_open:  # the cool-down is over: not known to answer yet
            self.logger.info("%s: trying again %d turn(s) a store outage kept from the store: the first asks the "
                             "store whether it answers (those it does not take are held again)", self.owner,
                             len(taken))
        elif taken:
            self.logger.info("%s: capturing again %d turn(s) a store outage kept from the store", self.owner,
                             len(taken))
        holders: list[BackgroundCapture] = []
        for entry in taken:
            turn = entry.turn
            holder = turn.holder if isinstance(turn.holder, BackgroundCapture) else self
            if holder not in holders:
                holders.append(holder)
            if entry.erased:
                holder._count("erased")
                continue
            holder._queue(entry.entity_id, turn, entry.since, turn.landed if turn.may_have_landed else None,
                          again=True, spends=spends)
        return holders

    def holds(self, entity_id: str) -> bool:
        """Whether turns of ``entity_id`` an outage kept from the store are held (``hold``)."""
        return self.held > 0 and any(held_id == entity_id for held_id, _ in self._held.listing())

    def store_held_before(self, engine: Any, entity_id: str, seconds: float = HELD_BEFORE_RECALL_SECONDS, *,
                          timeout: float | None = None) -> bool:
        """Before a recall of ``entity_id``: when turns of that user are held and the store is known to answer, the
        held turns are handed back now and the user's captures waited for, so the recall reads what was said
        during the outage. Known to answer: the breaker is closed, or its cool-down is over and one small read
        (the user's revision record, :meth:`_probe`) answered within the wait; a held turn is never the call
        that asks the store, and an attempt handed back here never counts toward giving it up
        (:data:`~memori_core.capture.held.OUTAGE_ATTEMPTS`). The wait, probe included, lasts at most
        ``seconds``, and at most the recall's ``timeout`` when one is set (the app's latency budget).
        ``True`` when the captures ended in time; ``False`` when none was handed back or the wait ran out
        (the recall reads without them, they are still stored)."""
        if engine is None or engine.closed or not self.holds(entity_id):
            return False
        if timeout is not None:
            seconds = min(seconds, timeout)
        ends = time.monotonic() + seconds
        breaker = outage_breaker(engine)
        if breaker is not None and breaker.is_open:
            if breaker.retry_in() > 0:  # still cooling down: the recall skips memory anyway
                return False
            if not self._probe(engine, ends, after=0.0, entity_id=entity_id, what="look at the store before a recall"):
                return False
        handed = self._hand_back(engine, spends=False)
        if not handed:
            return False
        self._handed_to(handed)
        return bool(engine.capture_lanes.wait_for(entity_id, max(0.0, ends - time.monotonic())))

    def _handed_to(self, holders: list[BackgroundCapture]) -> list[BackgroundCapture]:
        """Note (and return, with those noted before) the objects this one handed held turns back to: its next
        :meth:`flush` waits for their captures too."""
        with self._done:
            self._handed.update(dict.fromkeys(h for h in holders if h is not self))
            return list(self._handed)

    def _count(self, outcome: str) -> None:
        """Count one capture's ``outcome`` that never ran (a held turn erased or dropped) and wake :meth:`flush`."""
        with self._done:
            self._counts[outcome] += 1
            self._done.notify_all()

    def _queue(self, entity_id: str, held: Held, generation: int, stored: Callable[[], bool] | None, *,
               again: bool, spends: bool = True) -> bool:
        """Queue one turn's capture (``again``: a held turn, counted as submitted already; ``spends``: a failed
        attempt counts toward giving it up)."""
        engine, on_failure = held.engine, held.on_failure
        with self._done:
            if not again:
                self._counts["submitted"] += 1
            if self._pending >= self.max_pending:
                full = self._pending
                self._counts["dropped"] += 1
            else:
                full = 0
                self._pending += 1
        if full:
            self._dropped(entity_id, f"{full} captures already pending (max_pending_captures)")
            _call(on_failure)
            return False
        if engine.closed:
            _call(on_failure)
            self._finished("dropped")
            self._dropped(entity_id, "the engine is closed")
            return False
        turn, meta = list(held.turn), dict(held.metadata)

        def erased() -> bool:  # a forget since this turn began: what it said is erased too
            return ERASURES.erased_since(entity_id, generation)

        def lost(outage: bool = False, reached: bool = False) -> str:
            """The outcome of an attempt that stored nothing: held when an outage kept it from the store."""
            if outage and self._hold(entity_id, held.attempted(reached, spends=spends), generation):
                return "held"
            return "failed"

        lanes = engine.capture_lanes

        def job() -> None:
            call = FailOpenCall(engine, strict=self.strict, owner=self.owner, logger=self.logger, what="capture",
                                entity_id=entity_id, background=True, held=self._held is not None,
                                lost_turn=held.token)
            outcome = "completed"
            try:
                if call.skipped:  # the store failed moments ago: not stored, as when it fails now
                    outcome = lost(outage=True)
                    lanes.unreachable(call.error)
                elif erased():
                    outcome = "erased"
                    call.ended()
                else:
                    # Not sent once another call met the store down meanwhile, nor when the engine is closing
                    # over an unreachable store (it would wait timeout for the same failure).
                    # A held turn: a forget of its user any process made since it was held erases it too.
                    said_by = held.submitted_at if again else None
                    with ERASURES.began(entity_id, generation, said_by), \
                            call.reaching(timed=False, stop=lanes.stopping):
                        if stored is None or not stored():
                            capture_facts(engine, entity_id, turn, held.extractor, metadata=meta,
                                          session_id=held.session_id, cancelled=erased, created_at=held.said_at,
                                          on_refused=self._refused)
                    call.succeeded()
                    if erased():  # (capture_facts wrote nothing once it was, or forget erased what it wrote)
                        outcome = "erased"
            except ForgottenError:
                outcome = "erased"
                call.ended()
            except ClosedError:
                outcome = "dropped"
                call.ended()
                self._dropped(entity_id, "the engine was closed before it was stored")
            except NotReached as exc:
                why = lanes.stopping()
                if why is not None:  # the engine is closing over an unreachable store (it logs how many)
                    outcome = "dropped"
                    call.ended()
                    lanes.count_drop()
                    self._dropped(entity_id, f"the engine closed ({why})", quiet=True)
                else:  # the store failed for another call meanwhile: not stored, as if skipped
                    outcome = lost(outage=True)
                    self._failed(entity_id, exc, call, held=outcome == "held")
            except Exception as exc:
                outage = is_outage(exc)
                outcome = lost(outage=outage, reached=True)
                if outage:
                    lanes.unreachable(type(exc).__name__)  # an engine closing drops the captures not started
                self._failed(entity_id, exc, call, held=outcome == "held")
            finally:
                if outcome == "erased":
                    self.logger.info("%s: capture skipped for entity %r: it was forgotten after the turn began",
                                     self.owner, entity_id)
                elif outcome in ("failed", "dropped"):
                    _call(on_failure)  # before flush can see it finished
                self._finished(outcome)

        def dropped_at_close(reason: str) -> None:  # never ran: the engine closed (its log counts them)
            _call(on_failure)
            self._finished("dropped")
            self._dropped(entity_id, f"the engine closed ({reason})", quiet=True)

        try:
            lanes.submit(entity_id, job, dropped_at_close)
        except Exception as exc:
            _call(on_failure)
            if engine.closed:  # closed since the check above
                self._finished("dropped")
                self._dropped(entity_id, "the engine is closed")
            else:  # the pool could not start (interpreter shutting down)
                self._finished("failed")
                self._failed(entity_id, exc)
            return False
        return True

    def _hold(self, entity_id: str, held: Held, generation: int) -> bool:
        """Hold a turn an outage kept from the store, unless this adapter holds none or its attempts that reached
        the store are used up; the turns the bounds let go of are counted as dropped (or erased) and warned."""
        if self._held is None or held.spent >= OUTAGE_ATTEMPTS:
            return False
        held.engine.capture_lanes.on_close(self, BackgroundCapture._held_before_close,
                                           BackgroundCapture._held_after_close)
        for gone in self._held.hold(entity_id, held, generation):
            holder = gone.turn.holder if isinstance(gone.turn.holder, BackgroundCapture) else self
            holder._count("erased" if gone.erased else "dropped")
            if not gone.erased:
                holder._dropped(gone.entity_id, self._held.dropped_message())
                _call(gone.turn.on_failure)
        return True

    def refuse(self, entity_id: str, exc: BaseException) -> None:
        """Count a turn an adapter could not hand over (its message's ``created_at`` is unreadable: ``exc``) as
        submitted and failed, and report it as a failed capture is: a warning, or under ``strict`` kept for
        the next :meth:`flush` or adapter call. The answer is unaffected."""
        with self._done:
            self._counts["submitted"] += 1
            self._counts["failed"] += 1
            self._done.notify_all()
        if self.strict:
            self._keep(exc, entity_id)
        else:
            warn_failed(self.logger, self.owner, "capture", entity_id, exc,
                        instead="the turn is not stored; the answer is unaffected")

    def drop(self, entity_id: str, why: str) -> None:
        """Count a turn an adapter gave up before handing it over (``why``: a turn no model answered that its
        bounded record forgot, :mod:`memori_core.unanswered`) as submitted and dropped, and report it as a
        dropped capture is: a warning, or under ``strict`` kept for the next :meth:`flush` or adapter call."""
        with self._done:
            self._counts["submitted"] += 1
            self._counts["dropped"] += 1
            self._done.notify_all()
        self._dropped(entity_id, why)

    def _refused(self, n: int) -> None:
        """Count ``n`` extracted facts a capture refused to store (:func:`~memori_core.capture.prompt_markup_in`,
        :func:`~memori_core.capture.secret_in`)."""
        with self._done:
            self._counts["refused_facts"] += n

    def _finished(self, outcome: str) -> None:
        """One submitted capture is done (``outcome``: a key of the counts, or ``"held"``: held to be captured again
        after an outage, counted by the record of held turns): wake the waiting :meth:`flush`."""
        with self._done:
            self._pending -= 1
            if outcome != "held":
                self._counts[outcome] += 1
            self._done.notify_all()

    def _dropped(self, entity_id: str, why: str, *, quiet: bool = False) -> None:
        """Report one dropped capture: kept to raise under ``strict``, else a warning (DEBUG when ``quiet``: the
        engine logs how many it dropped at close)."""
        message = f"{self.owner}: capture dropped for entity {entity_id!r}: {why}; the answer is unaffected"
        if self.strict:
            self._keep(CaptureDropped(message), entity_id)
        else:
            self.logger.log(logging.DEBUG if quiet else logging.WARNING, message)

    def _failed(self, entity_id: str, exc: BaseException, call: FailOpenCall | None = None, *,
                held: bool = False) -> None:
        """Report a failed capture (``held``: its turn is held to be captured again once the store answers)."""
        if self.strict:
            self._keep(exc, entity_id)
        elif call is not None:
            call.failed(exc, instead=_HELD if held else "continuing without memory")
        else:
            warn_failed(self.logger, self.owner, "capture", entity_id, exc)

    def _keep(self, exc: BaseException, entity_id: str) -> None:
        """Keep ``exc``, a failed or dropped capture of ``entity_id`` under ``strict``, to raise it later (the
        first one until it is raised)."""
        with self._done:
            if self._failure is None:
                self._failure = exc

    def raise_failure(self) -> None:
        """Raise (and forget) the failure kept under ``strict=True``; nothing when there is none."""
        with self._done:
            exc, self._failure = self._failure, None
        if exc is not None:
            raise exc

    def flush(self, timeout: float | None = None) -> FlushResult:
        """Wait until the captures submitted so far have finished (at most ``timeout`` seconds; ``None``: no limit).

        The result is true when none is pending any more, and counts the
        captures that ended since the previous flush by what became of them
        (:class:`FlushResult`). Under ``strict=True`` a kept failure is raised
        once the wait is over.
        """
        result = self._wait(timeout)
        self.raise_failure()
        return result

    async def aflush(self, timeout: float | None = None) -> FlushResult:
        """Async :meth:`flush`: waits in a worker thread, the event loop keeps running."""
        result = await asyncio.to_thread(self._wait, timeout)
        self.raise_failure()
        return result

    def _probe(self, engine: Any, ends: float | None, *, after: float = EARLY_PROBE_AFTER, entity_id: str | None = None,
               what: str = "flush's look at the store") -> bool:
        """Before a flush hands the held turns back: ask the store once whether it answers (its revision record of
        a user holding a turn, one small read in the store's request time limit, waited for until ``ends``), the
        engine's cool-down ended early once ``after`` seconds passed since the store was last found down
        (:meth:`~memori_core.outage.OutageBreaker.probe_early`; at exit at once). It answers -> the
        breaker closes and the turns go now; it does not -> they stay held, another cool-down starts, and no
        turn spends one of its :data:`~memori_core.capture.held.OUTAGE_ATTEMPTS`. ``True`` when the store answered
        (the breaker is closed). ``entity_id``: whose record is read (default: the first user holding a turn);
        ``what`` names the call in its warning. A flush waited the cool-down
        out before: a process ending right after the store came back lost its held turns."""
        held = self._held
        breaker = outage_breaker(engine)
        if held is None or breaker is None or not breaker.is_open:
            return False
        turns = held.listing()
        if not turns or not breaker.probe_early(after):
            return False
        if entity_id is None:
            entity_id = turns[0][0]
        call = FailOpenCall(engine, strict=False, owner=self.owner, logger=self.logger, what=what, entity_id=entity_id)
        if call.skipped:  # another call is probing now
            return False
        done = threading.Event()

        def look() -> None:
            try:
                call.run(lambda: engine.store.revision(entity_id), None, instead="the held turns stay held")
            finally:
                done.set()

        threading.Thread(target=look, name="memori-flush-probe", daemon=True).start()
        done.wait(None if ends is None else max(0.0, ends - time.monotonic()))
        return not breaker.is_open

    def _wait(self, timeout: float | None, *, at_exit: bool = False) -> FlushResult:
        ends = None if timeout is None else time.monotonic() + timeout
        finished = self._retry_held(self._engine, ends, probe_after=0.0 if at_exit else EARLY_PROBE_AFTER)
        with self._done:
            if finished:
                self._handed.clear()
            since = {k: v - self._flushed[k] for k, v in self._counts.items()}
            self._flushed = dict(self._counts)
            pending = self._pending
        turns = self._held.listing() if self._held is not None else []
        return FlushResult(finished=finished, pending=pending, completed=since["completed"],
                           dropped=since["dropped"], failed=since["failed"], erased=since["erased"], held=len(turns),
                           held_turns=tuple(HeldTurn(entity_id, said_at) for entity_id, said_at in turns))

    def _retry_held(self, engine: Any, ends: float | None, *, probe_after: float) -> bool:
        """Hand the held turns back and wait for them with the captures queued so far (until ``ends``), the store
        asked first whether it answers (:meth:`_probe`, once ``probe_after`` seconds passed since it was found
        down); ``True`` when none of those captures is pending any more."""
        handed = self._hand_back(engine, due=True) if engine is not None else []
        finished = _settled([self, *self._handed_to(handed)], ends)
        if finished and self.held and engine is not None and not engine.closed:
            # Turns still held once the captures queued so far ended (one due to probe the store did it itself):
            # the flush asks the store, and hands them back if it answers.
            again = self._hand_back(engine) if self._probe(engine, ends, after=probe_after) else []
            if again:
                handed += again
                finished = _settled([self, *self._handed_to(again)], ends)
        if handed and finished and self.held:
            # The first of them probed the store; others of other users, run meanwhile, were skipped while it did
            # and held again: once it answered, they go too.
            finished = _settled([self, *self._handed_to(self._hand_back(engine))], ends)
        return finished

    def _held_before_close(self, lanes: Any, seconds: float) -> None:
        """``engine.close()`` of the engine whose capture pool is ``lanes``, before it waits for the captures: the
        held turns get one attempt within ``seconds`` (the store asked at once whether it answers, as a flush at
        exit does); the turns it hands back join the captures close waits for."""
        engine = self._engine
        if self.held and engine is not None and engine.capture_lanes is lanes:
            self._retry_held(engine, time.monotonic() + seconds, probe_after=0.0)

    def _held_after_close(self, lanes: Any) -> None:
        """``engine.close()``, once its capture pool took its last job: the turns of that engine still held can
        never be stored (the engine refuses every call from now on): each is counted as dropped by the object it
        was submitted to, and one warning names them all, by user and said-at time."""
        if self._held is None:
            return
        given_up = self._held.take_where(lambda turn: turn.engine.capture_lanes is lanes)
        lost: list[tuple[str, datetime]] = []
        for entry in given_up:
            holder = entry.turn.holder if isinstance(entry.turn.holder, BackgroundCapture) else self
            if entry.erased:
                holder._count("erased")
                continue
            holder._count("dropped")
            _call(entry.turn.on_failure)
            lost.append((entry.entity_id, entry.turn.said_at))
        if lost:
            self.logger.warning(
                "%s: engine.close(): %d turn(s) whose capture met a store outage were never stored: the store did "
                "not answer when close tried them (the engine is closed, they are dropped): %s",
                self.owner, len(lost), describe_turns(lost))


def _settled(captures: Sequence[BackgroundCapture], ends: float | None) -> bool:
    """Wait until none of ``captures`` has a capture pending (until the monotonic time ``ends``; ``None``: no
    limit): a flush waits for the held turns it handed back to the objects that hold them too."""
    finished = True
    for capture in dict.fromkeys(captures):
        with capture._done:
            left = None if ends is None else max(0.0, ends - time.monotonic())
            finished = capture._done.wait_for(lambda c=capture: c._pending == 0, left) and finished
    return finished


def _flush_held_at_exit() -> None:
    """Interpreter exit, before the capture pools drain: every adapter still holding turns (over an open engine)
    flushes once, within :data:`HELD_AT_EXIT_SECONDS` in all; the turns it hands back are then stored while the
    store answers, as every pending capture is at exit (:mod:`memori_core.lanes`)."""
    ends = time.monotonic() + HELD_AT_EXIT_SECONDS
    for capture in list(_ALL_CAPTURES):
        engine = capture._engine
        if not capture.held or engine is None or engine.closed:
            continue
        try:
            capture._wait(max(0.0, ends - time.monotonic()), at_exit=True)
        except Exception as exc:  # noqa: BLE001 - exit goes on; what is still held is logged after
            warn_failed(capture.logger, capture.owner, "flush at exit", None, exc)


# Registered after memori_core.lanes' own exit hook, so run before it (threading runs them in reverse): the turns
# handed back join the captures the pools drain.
_register_exit = getattr(threading, "_register_atexit", None)
if _register_exit is not None:
    try:
        _register_exit(_flush_held_at_exit)
    except RuntimeError:  # imported while the interpreter is already shutting down
        pass


def _call(callback: Callable[[], None] | None) -> None:
    """An adapter's bookkeeping callback, whose failure must not hide the capture's own outcome."""
    if callback is not None:
        try:
            callback()
        except Exception:  # noqa: BLE001
            pass
