"""The turns whose capture waits for the agent's tools: a ``create_agent`` turn whose answer calls tools is captured
once they have run, so capture reads what the agent's own ``remember`` stored for it (j7 finding 19)."""

from __future__ import annotations

import hashlib
import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from time import monotonic
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

from ._messages import is_human, message_text

__all__ = ["ALONE_WAITS", "WAITING_KEPT", "AfterTools", "Lane", "Waiting", "asks_for_tools", "lane_of"]

WAITING_KEPT = 4096
"""How many turns may wait for their tools in one middleware at a time; past it the oldest is handed over at once."""

ALONE_WAITS = 300.0
"""Seconds a turn of a run with no thread id waits for its tools before any later model call of the middleware
(any user's, any run's) hands it over to be captured. Such a run's turn is taken by its own run's hooks only, and
a run that ended unseen (another middleware's hook raised, the recursion limit) has no next turn of its own: its
turn waited for ``flush()`` or the engine's close. Five minutes is longer than the tool loop of any one request
(an HTTP request has timed out well before); a turn in a thread waits for that thread's next turn instead (an
interrupt may pause a thread's run for hours)."""


def asks_for_tools(response: Any) -> bool:
    """Whether a model call's answer (a ``ModelResponse``, an ``ExtendedModelResponse`` around one, or an
    ``AIMessage``) calls tools: the agent runs them before its run goes on."""
    response = getattr(response, "model_response", response)
    messages = getattr(response, "result", None)
    if not isinstance(messages, list):
        messages = [response]
    return any(isinstance(m, AIMessage) and m.tool_calls for m in messages)


Lane = tuple[str | None, str | None]
"""Whose turns a run may take: ``(thread, None)`` in a thread; ``(None, run)`` for a run with no thread id, ``run``
naming its own turn (a stateless API's runs are no one thread: another run's turn may be in its tool loop)."""


def lane_of(thread: str | None, messages: Sequence[BaseMessage]) -> Lane:
    """The :data:`Lane` of a run in ``thread`` whose turn is the last human message of ``messages``: with no
    thread, that message's id (else a digest of its text), which only that run's hooks see."""
    if thread is not None:
        return thread, None
    human = next((m for m in reversed(messages) if is_human(m)), None)
    if human is None:
        return None, ""
    if human.id:
        return None, f"id:{human.id}"
    text = message_text(human)
    return None, "text:" + hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


@dataclass(frozen=True)
class Waiting:
    """One turn's capture, as the model call that answered it would have queued it."""

    messages: tuple[BaseMessage, ...]  # up to its human message, the last
    thread: str | None
    since: int  # its entity's erase generation when the turn began
    began: datetime
    run: str | None = None  # with no thread: its run's own turn (:func:`lane_of`)
    kept_at: float = 0.0  # when it began waiting (``time.monotonic()``; set by :meth:`AfterTools.keep`)

    @property
    def lane(self) -> Lane:
        return self.thread, self.run


class AfterTools:
    """The turns of each (entity, :data:`Lane`: its thread, or for a run with no thread, its own turn) whose answer
    called tools, kept until the agent's tools for them have run:
    until a model call of that thread answers without calling tools (the tool loop is over) or raises, the end of the run
    (``after_agent``), a tool of that thread raising (``wrap_tool_call``: the exception may end the run), or, for a
    run that ended otherwise before them, the thread's next turn, a ``flush`` or the engine's close: never another
    thread's (or another thread-less run's) turn, whose capture could replace a fact a run still going is about to
    update; but a thread-less run's turn that waited :data:`ALONE_WAITS` seconds is taken by any later model call
    (:meth:`take_overdue`).
    Thread-safe; past :data:`WAITING_KEPT` turns the oldest is handed back to be captured at once."""

    def __init__(self, kept: int = WAITING_KEPT) -> None:
        self._kept = kept
        self._lock = threading.Lock()
        self._waiting: OrderedDict[tuple[str, Lane], list[Waiting]] = OrderedDict()
        self._count = 0
        _ALL.add(self)

    def _after_fork_in_child(self) -> None:
        # The turns waiting at the fork are the parent's runs': the parent captures them. A child that kept them
        # would capture them again at its own close or flush (a new lock: a parent thread may have held it).
        self._lock = threading.Lock()
        self._waiting = OrderedDict()
        self._count = 0

    def keep(self, entity_id: str, turn: Waiting) -> list[tuple[str, Waiting]]:
        """Keep ``turn``; returns the (entity, turn) pairs the bound let go of, to be captured now."""
        out: list[tuple[str, Waiting]] = []
        turn = replace(turn, kept_at=monotonic())
        with self._lock:
            self._waiting.setdefault((entity_id, turn.lane), []).append(turn)
            self._count += 1
            while self._count > self._kept:
                (entity, lane), turns = next(iter(self._waiting.items()))
                out.append((entity, turns.pop(0)))
                self._count -= 1
                if not turns:
                    del self._waiting[(entity, lane)]
        return out

    @property
    def count(self) -> int:
        """How many turns are kept now."""
        with self._lock:
            return self._count

    def take(self, entity_id: str, lanes: Sequence[Lane] | None = None) -> list[Waiting]:
        """The turns of ``entity_id`` kept for ``lanes`` (``None``: every lane), oldest first, no longer kept."""
        with self._lock:
            keys = [key for key in self._waiting if key[0] == entity_id and (lanes is None or key[1] in lanes)]
            out = [turn for key in keys for turn in self._waiting.pop(key)]
            self._count -= len(out)
        return out

    def take_overdue(self) -> list[tuple[str, Waiting]]:
        """The turns of runs with no thread id that have waited :data:`ALONE_WAITS` seconds or more, with their
        entities, oldest lane first, no longer kept."""
        ends = monotonic() - ALONE_WAITS
        with self._lock:
            keys = [key for key, turns in self._waiting.items() if key[1][0] is None and turns[-1].kept_at <= ends]
            out = [(key[0], turn) for key in keys for turn in self._waiting.pop(key)]
            self._count -= len(out)
        return out

    def take_all(self) -> list[tuple[str, Waiting]]:
        """Every kept turn with its entity, oldest lane first, no longer kept."""
        with self._lock:
            out = [(entity, turn) for (entity, _), turns in self._waiting.items() for turn in turns]
            self._waiting.clear()
            self._count = 0
        return out


_ALL: weakref.WeakSet[AfterTools] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    """In a forked child: every middleware's record of turns waiting for their tools starts empty."""
    for waiting in list(_ALL):
        waiting._after_fork_in_child()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
