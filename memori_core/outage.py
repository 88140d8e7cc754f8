"""The outage breaker (:class:`OutageBreaker`, one per engine as ``engine.outage``) and what counts as an outage
(:func:`is_outage`).

Once a store call of a fail-open surface timed out or could not connect, every fail-open surface over that
engine skips memory at once for ``RecallEngine(outage_cooldown=...)`` seconds (default
:data:`DEFAULT_OUTAGE_COOLDOWN`) instead of waiting ``timeout`` again on each call; the first call after that goes
to the store again. How the adapters log an outage, and count the background captures it loses, is
:class:`memori_core.failopen.FailOpenCall`'s part.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import enum
import logging
import sys
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .store.chroma_client import GATEWAY_STATUSES
from .time_limit import RecallTimedOut

DEFAULT_OUTAGE_COOLDOWN = 10.0
"""Seconds the fail-open adapters skip memory after a store call timed out or could not connect
(``RecallEngine(outage_cooldown=...)``; 0 turns the breaker off). Chosen by measurement (docs/stores.md,
"When the server stops answering"): with the default 4 s ``timeout``, an outage costs one call in every
10 s the full timeout instead of every call paying it twice, and memory is back at most 10 s after the
server is."""


EARLY_PROBE_AFTER = 1.0
"""Seconds after the store was last found down before a capture adapter's ``flush`` with turns held may ask it
again ahead of the cool-down (:meth:`OutageBreaker.probe_early`): a restarted server is found at once, and a loop
that flushes after every turn during an outage asks at most once a second (a hung server costs each such ask up
to the store's request ``timeout``, within the flush's own)."""

HELD_TURNS_NOTE = ("MemoriMiddleware, memori_capture_node and MemoriMemoryBlock hold theirs and capture them again on "
                   "a next turn or flush(); other background captures are not stored")
"""What becomes of the background captures an outage kept from the store, as the warnings counting them say."""

logger = logging.getLogger(__name__)


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
        self._found_down = 0.0  # when the store was last found down (the opening error, or a failed probe)
        self._probing = False
        self._outages = 0
        self._error = ""
        self._lost = 0  # background captures not stored during the current outage
        self._lost_told = False  # whether the first of them was warned about
        self._lost_turns: set[object] = set()  # the held turns among them: each counted once per outage
        self._timeouts = 0  # whole calls' time limits passed since a call last got its answer in time
        self._ended: OutageEnd | None = None
        _BREAKERS.add(self)

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

    def probe_early(self, after: float = EARLY_PROBE_AFTER) -> bool:
        """End the cool-down now, so that the next call is the probe, once ``after`` seconds have passed since the
        store was last found down (the error that opened the breaker, or the last probe): for a caller that waits
        for the store anyway (a capture adapter's ``flush`` with turns held), which would otherwise find them kept
        until the cool-down ends. ``False`` (nothing changed) when the breaker is closed, a probe is running, or
        the store was found down less than ``after`` seconds ago (a flush after every turn asks at most that
        often)."""
        with self._lock:
            now = self._clock()
            if self._until is None or self._probing or now - self._found_down < after:
                return False
            self._until = min(self._until, now)
            return True

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

    def settle(self, admission: Admission, error: BaseException | None, *, late: bool = False) -> Verdict:
        """Record how an admitted call ended (``error``: what it raised, ``None`` when it succeeded; ``late``: the
        work of a call that had given up at its time limit, :meth:`timed_out`, ended only now)."""
        outage = error is not None and is_outage(error)
        with self._lock:
            if error is None and not late:
                self._timeouts = 0  # a call got its answer in time: the next time limit passing is news
            current = admission.outage == self._outages
            if admission.probe and current:
                self._probing = False
            if not outage:
                if error is None and admission.probe and current and self._until is not None:
                    self._until = None
                    self._ended = OutageEnd(self._lost, self._clock() - self._since)
                    self._lost = 0
                    self._lost_turns.clear()
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
                self._found_down = now
                self._lost, self._lost_told = 0, False
                self._lost_turns.clear()
                return Verdict.OPENED
            if admission.probe and current:
                self._until, self._error, self._found_down = now + self._cooldown, type(error).__name__, now
                return Verdict.STILL_DOWN
            return Verdict.KNOWN

    def timed_out(self) -> bool:
        """Count one fail-open call whose whole time limit passed (:class:`~memori_core.time_limit.RecallTimedOut`:
        not an outage, it opens nothing); ``True`` for the first since a call last got its answer in time (the one
        to warn about: while the store is down every recall times out, and each would warn)."""
        with self._lock:
            self._timeouts += 1
            return self._timeouts == 1

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

    def capture_lost(self, turn: object = None) -> bool:
        """Count one background capture the current outage kept from being stored; ``True`` for the first of the
        outage (the one to warn about), and when no outage is open any more (its count was told already).
        ``turn``: a held turn's own token, counted once per outage however often it is skipped again."""
        with self._lock:
            if self._until is None:
                return True
            if turn is not None:
                if turn in self._lost_turns:
                    return False
                self._lost_turns.add(turn)
            self._lost += 1
            first, self._lost_told = not self._lost_told, True
            return first

    def unanswered_at_exit(self) -> OutageEnd | None:
        """The outage still open, when it kept background captures from the store: how many, and for how long
        (what its recovery would have logged), else ``None``."""
        with self._lock:
            if self._until is None or not self._lost:
                return None
            return OutageEnd(self._lost, self._clock() - self._since)

    def told_at_close(self) -> OutageEnd | None:
        """:meth:`unanswered_at_exit`, for an engine closing during the outage: the count is handed over (to be
        logged then) and no longer kept, so interpreter exit does not say it again."""
        with self._lock:
            if self._until is None or not self._lost:
                return None
            told = OutageEnd(self._lost, self._clock() - self._since)
            self._lost = 0
            return told

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


_BREAKERS: weakref.WeakSet[OutageBreaker] = weakref.WeakSet()


def _tell_at_exit() -> None:
    """Interpreter exit: an outage that never ended says how many background captures it kept from the store, as
    its recovery would have."""
    for breaker in list(_BREAKERS):
        open_outage = breaker.unanswered_at_exit()
        if open_outage is not None:
            logger.warning("at interpreter exit: the store had not answered again after %.0f s down (%s); background "
                           "captures skipped or failed meanwhile: %d (not stored; the adapters that held some say "
                           "how many they still hold)", open_outage.seconds, breaker.error, open_outage.lost_captures)


atexit.register(_tell_at_exit)
