"""The judge on the read path: its arguments checked, its verdict on a recall's best candidates (what it was
shown, what it called relevant, or why it failed), and the call itself, on a thread of its own bounded by
``judge_timeout`` and :data:`MAX_JUDGE_CALLS`."""

from __future__ import annotations

import contextvars
import logging
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..config import RecallConfig
from ..failopen import warn_briefly
from ..judge import Judge, UnreadableJudgement, as_indices
from ..ranking.judged import judge_pool
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

    def _judgement(self, query: str, scored: _Scored, limit: int, turns: list[str]) -> _Judgement | None:
        """The judge's verdict on the best candidates (``turns``: the earlier turns it is shown); ``None``
        when no judge applies (none set, the gate off, no candidate). A failure is logged and returned."""
        if self.judge is None or self.config.gate == "off":
            return None
        seen = judge_pool(scored.scores, limit, self.config)
        if seen.shape[0] == 0:
            return None
        facts = [scored.facts[i].content for i in seen.tolist()]
        try:
            answer = self._call_judge(query, facts, turns)
        except TimeoutError as exc:
            logger.warning("judge gave no answer (%s); the gate decides instead", exc)
            return _Judgement(seen, None, f"timed out: {exc}")
        except UnreadableJudgement as exc:  # a model's reply that names no fact: routine, no traceback
            logger.warning("judge's reply could not be read (%s); the gate decides instead", exc)
            return _Judgement(seen, None, f"could not be read: {exc}")
        except Exception as exc:
            warn_briefly(logger, exc, "judge raised an error; the gate decides instead")
            return _Judgement(seen, None, f"raised {type(exc).__name__}: {exc}")
        relevant = as_indices(answer, len(facts))
        if relevant is None:
            failure = f"answered {_short_repr(answer)}, not a list of indices 0..{len(facts) - 1}"
            logger.warning("judge %s; the gate decides instead", failure)
            return _Judgement(seen, None, failure)
        return _Judgement(seen, relevant)

    def _call_judge(self, query: str, facts: list[str], context: list[str]) -> Any:
        """``judge(query, facts, context)`` on a thread of its own, waited for at most ``judge_timeout``
        seconds (``TimeoutError`` after that). The thread is a daemon, so a judge that never returns holds
        only that thread, never the recall nor the interpreter's exit; at most :data:`MAX_JUDGE_CALLS` run
        at once."""
        judge = self.judge
        assert judge is not None
        if not self._judge_slots.acquire(blocking=False):
            raise TimeoutError(f"{MAX_JUDGE_CALLS} earlier judge calls are still running")
        result: list[Any] = []
        error: list[Exception] = []
        done = threading.Event()

        def run() -> None:
            try:
                result.append(judge(query, list(facts), list(context)))
            except Exception as exc:
                error.append(exc)
            finally:
                self._judge_slots.release()
                done.set()

        worker = threading.Thread(target=contextvars.copy_context().run, args=(run,), name="memori-judge",
                                  daemon=True)
        try:
            worker.start()
        except BaseException:
            self._judge_slots.release()
            raise
        if not done.wait(self.judge_timeout):
            raise TimeoutError(f"nothing within judge_timeout={self.judge_timeout:g} s")
        if error:
            raise error[0]
        if not result:
            raise RuntimeError("the judge's thread ended without an answer")
        return result[0]
