"""Background writes of one entity, in order; and what keeps a ``forget`` whole against writes begun before it.

Capture (:mod:`memori_core.capture`) stores a turn's facts after the answer, on its engine's capture pool
(:class:`Lanes`, ``RecallEngine(capture_workers=...)``): jobs of one entity run one at a time, in submission
order (a later turn may supersede a fact an earlier one stored), jobs of different entities in parallel.

Erase generations (:data:`ERASURES`, process-wide): ``forget`` counts one more erase of the entity id
(:meth:`EraseGenerations.erase`) before it deletes anything. A write notes the entity's generation when it
begins (an ``add`` when it is called, before it embeds; a capture when its turn began:
:meth:`EraseGenerations.began`), and compares it under the store's write lock for the entity, right before it
writes (:meth:`EraseGenerations.check`, from :meth:`~memori_core.cache.coordinator.Coordinator.writing`). A
``forget`` takes that same lock to delete, after counting the erase, so a write begun before it either wrote
before the delete (and is deleted with the rest) or finds the generation changed and writes nothing
(:class:`ForgottenError`). Only writes of this process are known here: a write still embedding in another
process when the ``forget`` runs is not (docs/stores.md says what holds across processes). A held turn (an
outage kept it from the store) is also held to the store's record of its user's last ``forget``
(``FactStore.forgotten_at``, checked under the write lock): a ``forget`` any process made after the turn was
held makes it write nothing.

Closing (:meth:`Lanes.close_down`: ``engine.close()``, a store's ``close()``, and interpreter exit): the pending
captures are waited for as long as the store answers. Once it is known unreachable (the engine's outage breaker is
open, or a capture meets a timeout or a refused connection meanwhile), every capture that has not started yet is
dropped without trying it (each would wait ``timeout`` for the same failure, one after another), so closing over a
dead server takes about one ``timeout`` however many captures were queued; they are counted by their adapters
(``capture_stats.dropped``) and the engine logs how many, once.

Lock order: ``Lanes._cond`` and the generations' lock are leaves (no other lock is taken while either is held,
but the thread pool's own when a job is handed to it, and no job runs under them); the generations' lock is
taken under the store's write lock (lock 1 of :mod:`memori_core.cache.coordinator`).
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import os
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from .validate import UNNORMALIZED_IDS_ALLOWED

__all__ = ["CARRIED", "DEFAULT_CAPTURE_WORKERS", "ERASURES", "Closing", "EraseGenerations", "ForgottenError", "Lanes",
           "carried_context"]

logger = logging.getLogger(__name__)

def _cores() -> int:
    """The CPUs this process may run on (its affinity where the OS tells it, else the machine's)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)


DEFAULT_CAPTURE_WORKERS = min(32, 8 * _cores())
"""Threads of an engine's capture pool unless ``RecallEngine(capture_workers=...)`` says otherwise: eight per CPU
(16 on a 2-core machine), at most 32. A capture mostly waits (an LLM extractor's model call; over a server, about
ten requests), so it needs more threads than cores; the CPU work (the rules, the embedding, parsing replies) caps
what more threads add, and slows the recalls of the request path a little (tens of milliseconds): a dropped
capture is a turn lost, so the default leans to more threads. docs/stores.md ("Capture throughput") has the
measures behind it (``benchmarks/bench_capture.py``)."""


class ForgottenError(RuntimeError):
    """A write of an entity was refused because the entity was forgotten (``forget``) after the write began:
    nothing of it was written. ``entity_id`` names the entity."""

    def __init__(self, entity_id: str, what: str = "add") -> None:
        self.entity_id = entity_id
        super().__init__(
            f"entity {entity_id!r} was forgotten (forget) after this {what} began: nothing was written; "
            f"{what} the facts again if they are still to be stored after the forget"
        )


_BEGAN: contextvars.ContextVar[Mapping[str, int]] = contextvars.ContextVar("memori_erase_generations", default={})
_SAID_BY: contextvars.ContextVar[Mapping[str, float]] = contextvars.ContextVar("memori_said_by", default={})


class EraseGenerations:
    """How many times each entity id was forgotten in this process, and the check writes make against it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}

    def generation(self, entity_id: str) -> int:
        """How many times ``entity_id`` was forgotten in this process so far."""
        with self._lock:
            return self._counts.get(entity_id, 0)

    def erase(self, entity_id: str) -> None:
        """Count one more erase of ``entity_id`` (``forget`` calls it before it deletes anything)."""
        with self._lock:
            self._counts[entity_id] = self._counts.get(entity_id, 0) + 1

    def since(self, entity_id: str) -> int:
        """The generation a write of ``entity_id`` beginning now is held to: the one :meth:`began` set in this
        context (a capture: when its turn began), else the current one."""
        noted = _BEGAN.get().get(entity_id)
        return noted if noted is not None else self.generation(entity_id)

    def erased_since(self, entity_id: str, since: int) -> bool:
        """Whether ``entity_id`` was forgotten after generation ``since``."""
        return self.generation(entity_id) != since

    def check(self, entity_id: str, since: int | None, what: str = "add") -> None:
        """Raise :class:`ForgottenError` when ``entity_id`` was forgotten after generation ``since`` (``None``:
        nothing to check). Call it under the store's write lock of the entity, right before writing."""
        if since is not None and self.erased_since(entity_id, since):
            raise ForgottenError(entity_id, what)

    def said_by(self, entity_id: str) -> float | None:
        """The wall-clock time (``time.time()``) :meth:`began` set in this context for ``entity_id``'s writes: a
        ``forget`` the store recorded at or after it (in any process) makes them write nothing; else ``None``."""
        return _SAID_BY.get().get(entity_id)

    @contextlib.contextmanager
    def began(self, entity_id: str, generation: int, said_by: float | None = None) -> Iterator[None]:
        """Within the block, writes of ``entity_id`` in this context are held to ``generation`` (a capture's
        turn began then), or to an earlier one already set; with ``said_by`` (a held turn's time, as
        ``time.time()``), also to the forgets the store recorded since then (:meth:`said_by`)."""
        current = _BEGAN.get()
        kept = current.get(entity_id)
        token = _BEGAN.set({**current, entity_id: generation if kept is None else min(kept, generation)})
        said = _SAID_BY.get()
        said_token = None
        if said_by is not None:
            known = said.get(entity_id)
            said_token = _SAID_BY.set({**said, entity_id: said_by if known is None else min(known, said_by)})
        try:
            yield
        finally:
            if said_token is not None:
                _SAID_BY.reset(said_token)
            _BEGAN.reset(token)


ERASURES = EraseGenerations()
"""The process's erase generations: ``forget`` counts, writes check (see the module docstring)."""


_ALL_LANES: weakref.WeakSet[Lanes] = weakref.WeakSet()


def _lanes_after_fork_in_child() -> None:
    for lanes in list(_ALL_LANES):
        lanes._after_fork_in_child()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_lanes_after_fork_in_child)


Job = Callable[[], None]
OnDrop = Callable[[str], None]
BeforeClose = Callable[[Any, "Lanes", float], None]
AfterClose = Callable[[Any, "Lanes"], None]

CARRIED: tuple[contextvars.ContextVar[Any], ...] = (UNNORMALIZED_IDS_ALLOWED,)
"""The context variables a job takes from the code that submitted it, with their values at :meth:`Lanes.submit`:
the memori settings that decide what a capture may do (an app inside
:func:`~memori_core.validate.unnormalized_entity_ids` has its captures stored under the ids it allows).

Nothing else of the submitter's context goes with the job. A capture outlives the call that queued it, and a
framework's context is that call's: LangChain's run config in a context variable would make a capture's extractor
model call a child of the agent's run, its reply streamed to the user (``stream_mode="messages"``) as if the
agent's model had said it; memori's own per-call limits (:mod:`memori_core.store.deadline`) would cut a capture
short by the time left to the call that queued it."""

_UNSET = object()


def carried_context() -> contextvars.Context:
    """A new context holding the caller's values of :data:`CARRIED` and nothing else, for a job run later on
    another thread."""
    context = contextvars.Context()
    for var in CARRIED:
        value = var.get(_UNSET)
        if value is not _UNSET:
            context.run(var.set, value)
    return context


_Item = tuple[Job, OnDrop | None, contextvars.Context]


@dataclass(frozen=True)
class Closing:
    """What :meth:`Lanes.close_down` found: whether no job was left (``finished``), how many jobs were dropped
    without running or will be (``dropped``, and why: ``reason``), how many are still running (they end on their
    own), and how many met the store unreachable while it waited (``unreached``: failed captures)."""

    finished: bool
    dropped: int
    running: int
    unreached: int
    reason: str | None

    def describe(self) -> str:
        """One sentence for the log: what was dropped, why, and what still runs."""
        parts = []
        if self.dropped:
            parts.append(f"{self.dropped} background captures were dropped without being stored ({self.reason})")
        if self.unreached:
            parts.append(f"{self.unreached} failed: the store was unreachable")
        if self.running:
            parts.append(f"{self.running} background captures still running are left to end on their own (one "
                         "that needs the engine after it closed is dropped)")
        return "; ".join(parts) + "; their adapters count them (capture_stats)"


class Lanes:
    """A pool where jobs of one entity run one at a time, in submission order (an engine's captures)."""

    def __init__(self, workers: int, name: str = "memori-capture", *,
                 unreachable: Callable[[], str | None] | None = None) -> None:
        """``workers``: threads, started on the first job. ``unreachable()`` names the error the store is failing
        with while it is known to be down (the engine's outage breaker is open), else ``None``: at
        :meth:`close_down` the jobs not started then are dropped at once."""
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"capture_workers must be an int >= 1, got {workers!r}")
        self.workers = workers
        self._name = name
        self._unreachable_now = unreachable
        self._cond = threading.Condition()
        self._waiting: dict[str, deque[_Item]] = {}
        self._pending = 0
        self._running = 0
        self._pool: ThreadPoolExecutor | None = None
        self._shut = False
        self._closing = False
        self._drop_reason: str | None = None  # set while closing once the store is down: jobs not started drop
        self._dropped = 0
        self._unreached = 0
        # Objects with work of their own to end at close (an adapter's held turns), weakly: (before, after) hooks.
        self._close_hooks: weakref.WeakKeyDictionary[Any, tuple[BeforeClose, AfterClose]] = \
            weakref.WeakKeyDictionary()
        _ALL_LANES.add(self)

    @property
    def pending(self) -> int:
        """Jobs submitted and not finished yet (queued or running)."""
        with self._cond:
            return self._pending

    def submit(self, entity_id: str, job: Job, on_drop: OnDrop | None = None) -> None:
        """Run ``job`` after the jobs of ``entity_id`` submitted before it; or, when it is dropped at
        :meth:`close_down` before it started, call ``on_drop(reason)`` instead. Raises ``RuntimeError`` once
        :meth:`shutdown` was called (or the interpreter is shutting down). The job runs in a context holding the
        caller's values of :data:`CARRIED` (:func:`carried_context`)."""
        item: _Item = (job, on_drop, carried_context())
        with self._cond:
            if self._shut:
                raise RuntimeError("the capture pool is shut down (its engine was closed)")
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix=self._name)
            queue = self._waiting.get(entity_id)
            if queue is not None:  # a job of this entity is running: it will run this one next
                queue.append(item)
            else:  # (under the lock, so that no job is queued behind one the pool refuses)
                self._pool.submit(self._drain, entity_id, item)
                self._waiting[entity_id] = deque()
            self._pending += 1

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until no job is queued or running (at most ``timeout`` seconds; ``None``: no limit); ``True``
        when none is."""
        with self._cond:
            return self._cond.wait_for(lambda: self._pending == 0, timeout)

    def wait_for(self, entity_id: str, timeout: float | None) -> bool:
        """Wait until no job of ``entity_id`` is queued or running (at most ``timeout`` seconds; ``None``: no
        limit); ``True`` when none is."""
        with self._cond:
            return self._cond.wait_for(lambda: entity_id not in self._waiting, timeout)

    def stopping(self) -> str | None:
        """Why jobs are being dropped (the engine is closing over an unreachable store), else ``None``: a job
        asks before its first store request."""
        with self._cond:
            return self._drop_reason

    def count_drop(self) -> None:
        """A running job dropped itself before its first store request (it asked :meth:`stopping`)."""
        with self._cond:
            self._dropped += 1

    def unreachable(self, error: str) -> None:
        """A job found the store unreachable (``error``: the error's type name): while closing, the jobs that have
        not started are dropped from now on instead of each waiting for the same failure."""
        with self._cond:
            if self._closing:
                self._unreached += 1
                if self._drop_reason is None:
                    self._drop_reason = f"the store is unreachable: {error}"

    def on_close(self, owner: Any, before: BeforeClose, after: AfterClose) -> None:
        """At the engine's close, call ``before(owner, self, seconds)`` ahead of :meth:`close_down` (work of the
        owner's to hand to this pool while the store may still take it, within ``seconds``) and
        ``after(owner, self)`` once the pool took its last job (what is left of it is given up). Held weakly:
        an owner gone is not called. Registering an owner again replaces its hooks."""
        with self._cond:
            self._close_hooks[owner] = (before, after)

    def before_close(self, seconds: float) -> None:
        """Run every owner's ``before`` hook (:meth:`on_close`), within ``seconds`` in all."""
        ends = time.monotonic() + seconds
        for owner, (before, _) in self._hooks():
            try:
                before(owner, self, max(0.0, ends - time.monotonic()))
            except Exception as exc:  # noqa: BLE001 - closing goes on; the owner's after hook reports what is left
                logger.warning("closing the capture pool: %s failed: %s", type(owner).__name__, exc)

    def after_close(self) -> None:
        """Run every owner's ``after`` hook (:meth:`on_close`)."""
        for owner, (_, after) in self._hooks():
            try:
                after(owner, self)
            except Exception as exc:  # noqa: BLE001
                logger.warning("closing the capture pool: %s failed: %s", type(owner).__name__, exc)

    def _hooks(self) -> list[tuple[Any, tuple[BeforeClose, AfterClose]]]:
        with self._cond:
            return list(self._close_hooks.items())

    def close_down(self, timeout: float | None) -> Closing:
        """Wait for the jobs (at most ``timeout`` seconds; ``None``: no limit) while the store answers: when it is
        known down already (``unreachable()``) or found down meanwhile (:meth:`unreachable`), the jobs not
        started are dropped without running; so are those left when ``timeout`` ends. Running jobs are never
        interrupted. New jobs are still taken (:meth:`shutdown` refuses them)."""
        down = self._unreachable_now() if self._unreachable_now is not None else None
        with self._cond:
            self._closing = True
            if down is not None and self._drop_reason is None:
                self._drop_reason = f"the store is unreachable: {down}"
        finished = self.wait(timeout)
        with self._cond:
            if not finished and self._drop_reason is None:
                self._drop_reason = f"still pending after {timeout:g} s"
            # Every job not running now is dropped (the reason is never cleared): those dropped so far are counted.
            not_started = self._pending - self._running
            return Closing(finished, self._dropped + not_started, self._running, self._unreached, self._drop_reason)

    def shutdown(self) -> None:
        """Take no new job: :meth:`submit` raises ``RuntimeError`` from now on; jobs queued still run (or are
        dropped, after :meth:`close_down` found the store down)."""
        with self._cond:
            self._shut = True
            pool = self._pool
        if pool is not None:
            pool.shutdown(wait=False)

    def _after_fork_in_child(self) -> None:
        # A forked child inherits the pool object without its threads (it would never run a job) and the parent's
        # queue (the parent runs those captures): it starts empty, with a pool of its own made on first use. The
        # close hooks stay: their owners (an adapter built before the fork, gunicorn --preload) are the child's
        # copies, whose work at close is the child's own (each owner leaves what it inherited to the parent).
        self._cond = threading.Condition()
        self._waiting = {}
        self._pending = self._running = self._dropped = self._unreached = 0
        self._closing, self._drop_reason = False, None
        self._pool = None
        self._close_hooks = weakref.WeakKeyDictionary(self._close_hooks)

    def _drain(self, entity_id: str, item: _Item) -> None:
        while True:
            job, on_drop, context = item
            with self._cond:
                reason = self._drop_reason
                if reason is None:
                    self._running += 1
            if reason is None:
                try:
                    context.run(job)
                except BaseException:  # jobs handle their own errors; never lose the lane
                    pass
            elif on_drop is not None:
                try:
                    on_drop(reason)
                except BaseException:  # the adapter's bookkeeping must not lose the lane either
                    pass
            with self._cond:
                if reason is None:
                    self._running -= 1
                else:
                    self._dropped += 1
                self._pending -= 1
                self._cond.notify_all()
                queue = self._waiting[entity_id]
                if not queue:
                    del self._waiting[entity_id]
                    return
                item = queue.popleft()


def _close_down_at_exit() -> None:
    """Interpreter exit, before the pools' threads are joined: the pending captures of engines still open are
    waited for as at ``close()`` but without a time limit (they are still stored while the store answers), and
    dropped once it is found unreachable, with one warning saying how many."""
    for lanes in list(_ALL_LANES):
        if lanes._shut or not lanes.pending:
            continue
        closing = lanes.close_down(None)
        if closing.dropped or closing.unreached:
            logger.warning("at interpreter exit: %s", closing.describe())


_register_exit = getattr(threading, "_register_atexit", None)  # runs before non-daemon threads are joined
if _register_exit is not None:
    with contextlib.suppress(RuntimeError):  # imported while the interpreter is already shutting down
        _register_exit(_close_down_at_exit)
