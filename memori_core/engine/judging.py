"""The judge on the read path: its arguments checked, its verdict on a recall's best candidates (what it was
shown, what it called relevant, or why it failed), and the call itself, on a thread of its own bounded by
``judge_timeout`` and :data:`MAX_JUDGE_CALLS`."""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..config import RecallConfig
from ..error_log import warn_briefly
from ..judge import Judge, UnreadableJudgement, as_indices
from ..ranking.judged import judge_pool
from ..time_limit import answer_by
from .scored import _Scored

logger = logging.getLogger(__name__)

MAX_JUDGE_CALLS = 16
"""Judge calls one engine lets run at once. A call past ``judge_timeout`` keeps its thread until the judge
returns; with this many still running, recall falls back to the gate at once instead of starting another."""


def _check_judge(judge: Any, judge_timeout: Any) -> float:
    """``judge`` must be callable or ``None``; ``judge_timeout`` a positive, finite number of seconds."""
    if judge is not None and not callable(judge):
        raise TypeError(f"judge must be a callable(query, facts, context) -> indices or None, "
                        f"got {type(judge).__name__}")
    if isinstance(judge_timeout, bool) or not isinstance(judge_timeout, (int, float)):
        raise TypeError(f"judge_timeout must be a number of seconds, got {type(judge_timeout).__name__}")
    if not (0 < judge_timeout < float("inf")):
        raise ValueError(f"judge_timeout must be a positive, finite number of seconds, got {judge_timeout!r}")
    return float(judge_timeout)


def _short_repr(value: Any, width: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"


@dataclass(frozen=True)
class _Judgement:
    """What the judge said about one recall's best candidates."""

    seen: np.ndarray  # pool positions it was shown, best first
    relevant: list[int] | None  # indices into ``seen`` it called relevant; None: it failed, the gate decides
    failure: str = ""  # why it failed


class Judging:
    """The judge's part of :class:`~memori_core.engine.RecallEngine`'s reads (a mixin: the state is the engine's)."""

    config: RecallConfig
    judge: Judge | None
    judge_timeout: float
    _judge_slots: threading.BoundedSemaphore

    def _judge_pool(self, scored: _Scored, limit: int) -> tuple[np.ndarray, list[str]] | None:
        """The candidates the judge is shown (pool positions, best first, and their texts); ``None`` when no judge
        applies (none set, the gate off, no candidate)."""
        if self.judge is None or self.config.gate == "off":
            return None
        seen = judge_pool(scored.scores, limit, self.config)
        if seen.shape[0] == 0:
            return None
        return seen, [scored.facts[i].content for i in seen.tolist()]

    def _judgement(self, query: str, scored: _Scored, limit: int, turns: list[str]) -> _Judgement | None:
        """The judge's verdict on the best candidates (``turns``: the earlier turns it is shown); ``None``
        when no judge applies (none set, the gate off, no candidate). A failure is logged and returned."""
        started = self._judge_started(query, scored, limit, turns)
        if started is None or isinstance(started, _Judgement):
            return started
        seen, facts, future, wait = started
        try:
            answer = _answer_of(future, future.result_within(wait), wait)
        except Exception as exc:
            return _failed_judgement(seen, exc)
        return _verdict(seen, facts, answer)

    async def _ajudgement(self, query: str, scored: _Scored, limit: int, turns: list[str]) -> _Judgement | None:
        """Async :meth:`_judgement`: the event loop waits for the judge, not a thread of the engine's read pool (a
        slow judge would otherwise hold one per recall, and recalls queued behind them would fail open with no
        memory at all)."""
        started = self._judge_started(query, scored, limit, turns)
        if started is None or isinstance(started, _Judgement):
            return started
        seen, facts, future, wait = started
        try:
            answer = _answer_of(future, await future.aresult_within(wait), wait)
        except Exception as exc:
            return _failed_judgement(seen, exc)
        return _verdict(seen, facts, answer)

    def _judge_started(self, query: str, scored: _Scored, limit: int, turns: list[str]
                       ) -> tuple[np.ndarray, list[str], _JudgeCall, float] | _Judgement | None:
        """The judge called on the best candidates and how long to wait for it: the candidates shown, their
        texts, the call and the wait; ``None`` when no judge applies, a failed judgement when it could not start."""
        shown = self._judge_pool(scored, limit)
        if shown is None:
            return None
        seen, facts = shown
        try:
            return seen, facts, self._start_judge(query, facts, turns), self._judge_wait()
        except Exception as exc:
            return _failed_judgement(seen, exc)

    def _judge_wait(self) -> float:
        """Seconds to wait for the judge: ``judge_timeout``, or less when the whole recall must answer sooner (an
        adapter's ``timeout=``, :func:`~memori_core.time_limit.answer_by`): the gate's selection and the core
        facts are then returned in time, instead of the recall being given up with nothing."""
        left = answer_by()
        if left is None:
            return self.judge_timeout
        return max(0.0, min(self.judge_timeout, left))

    def _start_judge(self, query: str, facts: list[str], context: list[str]) -> _JudgeCall:
        """``judge(query, facts, context)`` started on a thread of its own. The thread is a daemon, so a judge that
        never returns holds only that thread, never the recall nor the interpreter's exit; at most
        :data:`MAX_JUDGE_CALLS` run at once (``TimeoutError`` at once beyond that)."""
        judge = self.judge
        assert judge is not None
        if not self._judge_slots.acquire(blocking=False):
            raise TimeoutError(f"{MAX_JUDGE_CALLS} earlier judge calls are still running")
        call = _JudgeCall(self.judge_timeout)

        def run() -> None:
            try:
                call.result.append(judge(query, list(facts), list(context)))
            except Exception as exc:
                call.error.append(exc)
            finally:
                self._judge_slots.release()
                call.done.set()

        worker = threading.Thread(target=contextvars.copy_context().run, args=(run,), name="memori-judge",
                                  daemon=True)
        try:
            worker.start()
        except BaseException:
            self._judge_slots.release()
            raise
        return call


class _JudgeCall:
    """One judge call running on its thread: what it returned or raised, once ``done``."""

    def __init__(self, judge_timeout: float) -> None:
        self.judge_timeout = judge_timeout
        self.result: list[Any] = []
        self.error: list[Exception] = []
        self.done = threading.Event()

    def result_within(self, seconds: float) -> bool:
        """Whether the judge ended within ``seconds``."""
        return self.done.wait(seconds)

    async def aresult_within(self, seconds: float) -> bool:
        """Async :meth:`result_within`: polled on the event loop (no thread is held while the judge runs)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        while not self.done.is_set():
            left = end - loop.time()
            if left <= 0:
                return False
            await asyncio.sleep(min(_POLL, left))
        return True


_POLL = 0.01
"""Seconds between an async recall's looks at whether its judge has answered."""


def _answer_of(call: _JudgeCall, ended: bool, waited: float) -> Any:
    """The judge's answer, or what it raised; ``TimeoutError`` when it had not ended after ``waited`` seconds."""
    if not ended:
        raise TimeoutError(f"nothing within judge_timeout={call.judge_timeout:g} s" if waited >= call.judge_timeout
                           else f"nothing within the {waited:.2g} s the recall's own time limit left")
    if call.error:
        raise call.error[0]
    if not call.result:
        raise RuntimeError("the judge's thread ended without an answer")
    return call.result[0]


def _failed_judgement(seen: np.ndarray, exc: Exception) -> _Judgement:
    """A judge that failed (``exc``), logged: the gate decides."""
    if isinstance(exc, TimeoutError):
        logger.warning("judge gave no answer (%s); the gate decides instead", exc)
        return _Judgement(seen, None, f"timed out: {exc}")
    if isinstance(exc, UnreadableJudgement):  # a model's reply that names no fact: routine, no traceback
        logger.warning("judge's reply could not be read (%s); the gate decides instead", exc)
        return _Judgement(seen, None, f"could not be read: {exc}")
    warn_briefly(logger, exc, "judge raised an error; the gate decides instead")
    return _Judgement(seen, None, f"raised {type(exc).__name__}: {exc}")


def _verdict(seen: np.ndarray, facts: list[str], answer: Any) -> _Judgement:
    """The judge's ``answer`` read: the facts it called relevant, or a failure (logged) when it names none."""
    relevant = as_indices(answer, len(facts))
    if relevant is None:
        failure = f"answered {_short_repr(answer)}, not a list of indices 0..{len(facts) - 1}"
        logger.warning("judge %s; the gate decides instead", failure)
        return _Judgement(seen, None, failure)
    return _Judgement(seen, relevant)
