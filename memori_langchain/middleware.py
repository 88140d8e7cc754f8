"""``MemoriMiddleware``: long-term memory for agents built with ``langchain.agents.create_agent``."""

from __future__ import annotations

import asyncio
import hashlib
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from langchain.agents.middleware import AgentMiddleware, AgentState, ModelRequest, ModelResponse, ToolCallRequest
from langchain_core.messages import BaseMessage, SystemMessage, ToolMessage
from langchain_core.runnables import RunnableConfig, ensure_config
from langgraph.errors import GraphBubbleUp
from langgraph.runtime import Runtime
from langgraph.types import Command
from typing_extensions import NotRequired

from memori_core.adapter_args import CheckedAttribute, check_adapter_args, check_entity_default, check_flag
from memori_core.bounded import BoundedRecord
from memori_core.capture import (
    DEFAULT_MAX_PENDING_CAPTURES,
    OUTAGE_TURNS_KEPT,
    FlushResult,
    WaitsForCaptures,
    check_extractor,
    said_during,
)
from memori_core.capture_failures import EntityCaptures
from memori_core.lanes import ERASURES
from memori_core.engine import RecallEngine
from memori_core.error_log import warn_failed
from memori_core.extraction import FactExtractor
from memori_core.failopen import STRICT_DEFAULT, check_timeout
from memori_core.placement import LAST_USER, SYSTEM, check_placement
from memori_core.query import context_turns
from memori_core.unanswered import MISSED_TURNS_DEFAULT, UNANSWERED_KEPT, UnansweredTurns

from ._after_tools import AfterTools, Lane, Waiting, asks_for_tools, lane_of
from ._messages import (
    capture_metadata,
    captured_from,
    human_query_and_context,
    human_turns_with_block,
    is_ai,
    is_human,
    last_human_text,
    message_said_at,
    message_text as message_text_of,
    messages_with_block,
    state_said_at,
    system_with_block,
    turn_as_of,
    turn_to_capture,
    turn_zone,
)
from ._captured import CAPTURED_KEY
from ._recall import BlockRecall, entity_of_run, logger, thread_of_run

Handler = Callable[[ModelRequest], ModelResponse]
AsyncHandler = Callable[[ModelRequest], Awaitable[ModelResponse]]
ToolHandler = Callable[[ToolCallRequest], ToolMessage | Command[Any]]
AsyncToolHandler = Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]]

TURNS_KEPT = 4096
"""How many turns a :class:`MemoriMiddleware` remembers in the process (captured ones, and when each began)."""

TurnKey = tuple[str, str, str, str]
"""A turn: (entity, thread id or "", human message id or "", digest of its text)."""


class MemoriAgentState(AgentState):
    """The agent state keys :class:`MemoriMiddleware` adds: ``memori_captured``, a digest (no text) of the latest
    human turn of the thread it captured, checkpointed with the thread, so that another process resuming the
    thread does not capture again the turns before it."""

    memori_captured: NotRequired[str]


def check_missed_turns(missed_turns: object, owner: str) -> int:
    """``missed_turns`` as an ``int`` >= 0, else a ``TypeError`` / ``ValueError`` naming the argument."""
    if isinstance(missed_turns, bool) or not isinstance(missed_turns, int):
        raise TypeError(f"{owner}: missed_turns must be an int >= 0, got {type(missed_turns).__name__}")
    if missed_turns < 0:
        raise ValueError(f"{owner}: missed_turns must be >= 0, got {missed_turns}")
    return missed_turns


def _turn_key(entity: str, thread_id: str | None, message: BaseMessage) -> TurnKey:
    text = message_text_of(message)
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
    return entity, thread_id or "", str(message.id or ""), digest


def _mark(key: TurnKey) -> str:
    """The :data:`CAPTURED_KEY` mark of a turn: a digest of its key."""
    return hashlib.blake2b("\0".join(key).encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _answered(messages: Sequence[BaseMessage], index: int) -> bool:
    """Whether a model answered the human message at ``index``: an AI message follows it before the next human
    message. A turn whose model call raised, or whose streamed answer was abandoned, has none."""
    for message in messages[index + 1:]:
        if is_human(message):
            return False
        if is_ai(message):
            return True
    return False


@dataclass(frozen=True)
class _Missed:
    """A turn no model answered, kept for its user's next answered turn (:mod:`memori_core.unanswered`)."""

    messages: tuple[BaseMessage, ...]  # its human message, after the message before it (the turn to capture)
    thread: str | None
    began: datetime  # when its first model call began: its time unless its message says when it was said


_DROPPED_UNANSWERED = ("a turn no model answered was forgotten before the user's next answered turn could capture "
                       "it: more than missed_turns of the user's turns (or {kept} of all users) were waiting")


class _Turns:
    """The turns a middleware captured and when each turn's first model call began (the entity's erase
    generation then, and the time), the most recent :data:`TURNS_KEPT` of each, in this process."""

    def __init__(self) -> None:
        self._captured: BoundedRecord[TurnKey, None] = BoundedRecord(TURNS_KEPT)
        self._began: BoundedRecord[TurnKey, tuple[int, datetime]] = BoundedRecord(TURNS_KEPT)
        self._lock = threading.Lock()

    def note_began(self, key: TurnKey, generation: int, began: datetime) -> None:
        with self._lock:
            if key not in self._began:
                self._began.remember(key, (generation, began))

    def began(self, key: TurnKey) -> tuple[int, datetime] | None:
        with self._lock:
            return self._began.get(key)

    def captured(self, key: TurnKey) -> bool:
        with self._lock:
            return key in self._captured

    def claim(self, key: TurnKey) -> bool:
        """``True`` the first time (the turn is then remembered as captured), ``False`` after."""
        with self._lock:
            if key in self._captured:
                return False
            self._captured.remember(key, None)
            return True


class MemoriMiddleware(WaitsForCaptures, AgentMiddleware[MemoriAgentState, Any]):
    """Recall the user's relevant facts before every model call of an agent.

    >>> agent = create_agent(model, tools, middleware=[MemoriMiddleware(engine=engine, entity_id="user-1")])

    Before each model call (tool-loop calls included) the facts relevant to
    the last human message with text (an image-only turn is skipped), read with up to ``engine.config.context_turns``
    human messages before it (AI, system and tool messages are not read), are
    appended to the system message of that call only, through ``request.override(system_message=...)``: the block is
    never written into the agent's state or message history. An agent without a system prompt whose input
    messages hold the app's own ``SystemMessage`` gets the block appended to the first of them, after the
    app's instructions as :class:`MemoriContextInjector` puts it (in that call's copy of the messages,
    ``request.override(messages=...)``); with neither, the block is a new system message.

    With ``capture=True``, once the model call that answers a user turn has
    succeeded (the call whose last input message is that human message;
    tool-loop calls capture nothing), or, when that answer calls tools, once the tool loop is over (a model call of
    the thread that answers without calling tools, or the end of the run; when a tool or a model call raises, at
    once, since the exception may end the run; never between two tool calls, where it could replace a fact the
    model recalled and is about to update; a run that ended elsewhere, in another middleware's hook, at the
    recursion limit or at a human-in-the-loop interrupt, at the thread's next turn, :meth:`flush` or
    ``engine.close()``, never at another thread's turn, which cannot tell whether that run is still going; with no
    thread id, each run takes only its own turn, and any later model call takes one that waited
    :data:`~memori_langchain._after_tools.ALONE_WAITS` (five minutes): such a run has no next turn of its own):
    capture then reads what the agent's own ``remember`` stored, and stores the fact once, in the agent's
    words), the turn is handed to ``extractor``
    (default :class:`~memori_core.extraction.RuleBasedFactExtractor`: only
    the user's statements about themselves, as "User ..." facts; questions,
    greetings and instructions are never stored) and what it returns is
    stored, in the background: the answer never waits for extraction or
    storage. At most ``max_pending_captures`` captures wait at a time; more
    are dropped with a warning, and counted (:attr:`capture_stats`). A turn
    whose capture a store outage kept from the store (skipped by the engine's outage breaker, or failed with a
    timeout or a refused connection) is held in the process and captured once the store answers: at the next
    capture this middleware queues while the breaker is closed (any user's turn), before the recall of the user's next
    model call once the store is known to answer (the breaker closed, or a small read after the cool-down answered;
    waited for at most :data:`~memori_core.capture.background.HELD_BEFORE_RECALL_SECONDS`, and at most ``timeout``
    when set: that answer knows what was said during the outage), or at :meth:`flush`; in
    order, with its own said-at time, once (an attempt that reached the store and may have stored it is
    looked for first, by its message id). It holds the latest
    :data:`~memori_core.capture.OUTAGE_TURNS_KEPT` of each user (1024 in all): the oldest is dropped with a
    warning and counted; ``capture_stats.held`` says how many wait, and what is still held at interpreter
    exit is logged. Call
    :meth:`flush` / :meth:`aflush` to wait for them (before reading what was
    captured; ``engine.close()`` waits for them at shutdown). A turn the
    model is answering when its user is forgotten (``engine.forget``) is not
    captured. The facts are dated when the turn was said: the human message's
    ``additional_kwargs["created_at"]`` (else ``response_metadata["created_at"]``; a timezone-aware
    datetime or an ISO 8601 string with a UTC offset), else when the model call answering it began; that
    time is also the "now" the extractor reads "on Thursday" against. A time without a zone is
    UTC (with a ``NaiveTimeWarning``); an unreadable one fails that turn's capture (a warning naming the
    field, or under ``strict`` the next call raises it). Facts'
    metadata records ``source``, ``role``, and ``thread_id`` / ``message_id``
    when known; the thread id is also their ``session_id``, so the turns of
    one conversation are kept in order as a session by the engine. An
    extractor with ``uses_existing_facts`` (``LLMFactExtractor``) is shown the
    user's most similar stored facts and may supersede some of them.
    Facts captured from the turn being answered (or identical to it) are not
    injected back into its own later model calls.
    A turn no model answered (its call raised, or the client abandoned its
    streamed answer) is captured, with ``capture=True``, by its user's next
    answered turn, before that turn: in whichever thread (the user may open a
    new chat after an error), when this middleware saw the call fail in this
    process (it keeps the ``missed_turns`` latest such turns of each user, and
    :data:`~memori_core.unanswered.UNANSWERED_KEPT` of all users; a turn the bound forgets is
    counted as dropped in :attr:`capture_stats`, with a warning); and from the
    checkpointed thread, by the next answered turn of that thread (a thread
    another process saw fail), when it is among the ``missed_turns`` human
    messages before that turn, no AI message follows it, and it was never
    captured. It is dated by its own ``created_at``, else from when its call
    began. A turn is captured once: the middleware
    remembers the turns it captured in the process, and marks the latest one in
    the agent's state (``memori_captured``, a digest with no text, checkpointed),
    so another process resuming the thread skips every turn up to it.

    What is injected does not depend on ``capture``: it is the facts of
    ``engine.recall(query, entity, k, context=...)`` (``k`` recalled facts, plus
    up to ``engine.config.core_limit`` core facts), minus, with ``capture=True``,
    those the turn being answered became (their slots are not refilled: recall
    is never asked for more than ``k``, since the relevance gate judges the top
    ``k`` candidates and a larger request could change what passes).

    Order matters: list ``MemoriMiddleware`` **after** any middleware that sets
    or replaces the system prompt (``@dynamic_prompt``, or one that calls
    ``request.override(system_message=...)``). Middleware listed first wraps
    the ones after it, so a prompt middleware listed later receives the request
    that already holds the block and, by replacing the system message, drops
    it: the model then gets no memory, and nothing can tell this middleware so.
    ``create_agent(..., system_prompt=...)`` needs no care.

    ``placement="last_user"`` appends the block to the latest human message of that call's copy of the
    messages instead (``request.override(messages=...)``; the system message when there is no human
    message), so the system prompt and the earlier conversation stay a prefix a provider's prompt cache keeps
    hitting on, tool-loop calls included (:mod:`memori_core.placement`). The state never holds the block.

    The entity is, in order: ``config["configurable"]["entity_id"]`` (else ``["user_id"]``), the
    agent's runtime context (``entity_id``, else ``user_id``; a mapping or an
    object), the constructor's ``entity_id``; none -> ``ValueError``.
    Recall or capture errors are logged and the model is called without
    memory; ``strict=True`` raises recall errors, and a capture failure is
    raised by the next :meth:`flush` / :meth:`aflush` or the next model call
    through this middleware for the same entity, whichever comes first: one
    middleware serving many users never raises one user's failure in another's
    call (:class:`memori_core.capture_failures.EntityCaptures`). ``timeout`` (seconds; default ``None``: no limit but the
    store's per request) bounds each model call's whole recall: past it the model is called without the block
    (a warning, or ``TimeoutError`` under ``strict``), while the recall finishes in the background and serves
    the next call.
    """

    state_schema = MemoriAgentState

    entity_id = CheckedAttribute(check_entity_default)  # checked whenever set, as by the constructor

    def __init__(
        self,
        engine: RecallEngine,
        entity_id: str | None = None,
        *,
        k: int | None = None,
        capture: bool = False,
        strict: bool = STRICT_DEFAULT,
        extractor: FactExtractor | None = None,
        max_pending_captures: int = DEFAULT_MAX_PENDING_CAPTURES,
        placement: str = SYSTEM,
        timeout: float | None = None,
        missed_turns: int = MISSED_TURNS_DEFAULT,
    ) -> None:
        """``k``: at most this many recalled facts are injected, plus up to the engine's ``config.core_limit``
        core facts (``None``: the engine's ``config.limit``, 5 unless configured);
        ``extractor`` and ``max_pending_captures`` apply with ``capture=True``; ``placement``: where the block
        goes, ``"system"`` (the system message) or ``"last_user"`` (the latest human message); ``timeout``:
        seconds one model call's whole recall may take (``None``: no limit but the store's per request);
        ``missed_turns``: with ``capture=True``, how many human turns before the one being answered are looked at
        for turns no model answered, which are captured with it (``0``: none)."""
        super().__init__()
        self.engine, self.entity_id, self.k = check_adapter_args("MemoriMiddleware", engine, entity_id, k)
        self.placement = check_placement(placement, "MemoriMiddleware")
        self.timeout = check_timeout(timeout, "MemoriMiddleware")
        self.capture = check_flag(capture, "MemoriMiddleware", "capture")
        self.missed_turns = check_missed_turns(missed_turns, "MemoriMiddleware")
        self.strict = check_flag(strict, "MemoriMiddleware", "strict")
        self.extractor = check_extractor(extractor, owner="MemoriMiddleware")
        self._captures = EntityCaptures(
            "MemoriMiddleware", logger, strict=strict, max_pending=max_pending_captures, hold=OUTAGE_TURNS_KEPT
        )
        self.tools = []
        self._turns = _Turns()
        self._after_tools = AfterTools()
        # At the engine's close: the turns still waiting for their tools (a run that ended unseen) are captured
        # before close waits for the captures (held weakly: a middleware gone is not called).
        self.engine.capture_lanes.on_close(self, MemoriMiddleware._tools_ran_before_close,
                                           MemoriMiddleware._tools_ran_after_close)
        self._unanswered: UnansweredTurns[TurnKey, _Missed] | None = (
            UnansweredTurns(self.missed_turns, UNANSWERED_KEPT) if self.missed_turns else None)

    # -- helpers ------------------------------------------------------------

    def _entity(self, request: ModelRequest | ToolCallRequest, config: RunnableConfig) -> str:
        context = getattr(getattr(request, "runtime", None), "context", None)
        return entity_of_run("MemoriMiddleware", self.entity_id, config, context)

    def _recall(self, request: ModelRequest, config: RunnableConfig, entity: str) -> BlockRecall:
        query, context = human_query_and_context(request.messages, context_turns(self.engine))
        return BlockRecall(self.engine, query, entity, self.k, self.strict, self.name, context,
                           skip_text=self._skip(request), skip_message_id=self._skip_message(request),
                           skip_thread_id=self._thread(request, config), timeout=self.timeout,
                           tz=turn_zone(request.messages), as_of=turn_as_of(request.messages))

    def _with_block(self, request: ModelRequest, block: str) -> ModelRequest:
        if not block:
            return request
        if self.placement == LAST_USER:
            messages, placed = human_turns_with_block(request.messages, block, LAST_USER)
            if placed:  # this call's copy of the messages; the agent's state keeps its own
                return request.override(messages=messages)
        if request.system_message is None and any(isinstance(m, SystemMessage) for m in request.messages):
            # No system prompt, but the app's own SystemMessage is in the messages: the block goes after its
            # instructions there, as MemoriContextInjector puts it (this call's copy; the state keeps its own).
            return request.override(messages=messages_with_block(request.messages, block))
        return request.override(system_message=system_with_block(request.system_message, block))

    def _skip(self, request: ModelRequest) -> str | None:
        # With capture on, the turn being answered may already be stored (the same
        # statement made before, or an older raw-turn capture): not news to the model.
        # That turn is the last human message, even when the query is an earlier one (an image-only turn).
        return (last_human_text(request.messages) or None) if self.capture else None

    def _skip_message(self, request: ModelRequest) -> str | None:
        # ... and so are the facts captured from it (a tool-loop call after capture finished).
        if not self.capture:
            return None
        for message in reversed(request.messages):
            if is_human(message):
                return str(message.id) if message.id else None
        return None

    def _thread(self, request: ModelRequest | ToolCallRequest, config: RunnableConfig) -> str | None:
        return thread_of_run(config, getattr(request, "runtime", None))

    def _capture(self, request: ModelRequest, config: RunnableConfig, entity: str, since: int,
                 began: datetime, response: Any) -> None:
        # ``since``: the entity's erase generation before the model was called, so that a forget while the
        # model answered makes the turn's capture write nothing (memori_core.lanes). ``began``: when that call
        # began, the turn's time unless its message says when it was said.
        if not self.capture:
            return
        messages = request.messages
        if not turn_to_capture(messages):
            return
        thread = self._thread(request, config)
        lane = lane_of(thread, messages)
        # A turn of this thread whose run ended after its tools with no hook of this middleware's seeing it end
        # (another middleware's hook raised, the recursion limit): that run is over. Never another thread's (nor,
        # with no thread id, another run's): its run may be between its model's recall_memory and update_memory
        # (flush() and the engine's close take those).
        self._after_tools_ran(entity, [lane])
        # Thread-less runs' turns that waited ALONE_WAITS: their runs ended unseen (none of them has a next turn).
        self._all_tools_ran(self._after_tools.take_overdue())
        if self._unanswered is not None:
            # The user's turns no model answered, in any thread (this one's too): the oldest first.
            self._unanswered.discard(entity, _turn_key(entity, thread, messages[-1]))
            for missed in self._unanswered.take(entity):
                turn = missed.turn
                self._submit(turn.messages, entity, turn.thread, missed.since, turn.began)
        for index in self._missed(messages, request.state, entity, thread):
            # A turn no model answered (its call raised, or its stream was abandoned): captured now, counted
            # from when its own call began when this process saw it (a forget since then erases it too).
            noted = self._turns.began(_turn_key(entity, thread, messages[index]))
            self._submit(messages[: index + 1], entity, thread, *(noted or (since, began)))
        if not asks_for_tools(response):
            self._submit(messages, entity, thread, since, began)
            return
        # The agent runs the tools the answer calls before its run goes on: the turn is captured once they have run,
        # so capture reads what they stored (a ``remember`` of the same fact in the model's words).
        for other, turn in self._after_tools.keep(entity, Waiting(tuple(messages), thread, since, began, lane[1])):
            self._submit(turn.messages, other, turn.thread, turn.since, turn.began)

    def _tool_loop_over(self, request: ModelRequest, config: RunnableConfig, entity: str) -> None:
        """Queue the captures of the turns of the call's thread that waited for their tools: the call answered
        without calling more (the agent's tool loop is over) or raised (the run may end here). Not at each call of
        the loop: a turn captured between a model's ``recall_memory`` and its ``update_memory`` could replace the
        fact the model is about to update."""
        if self.capture:
            self._after_tools_ran(entity, [lane_of(self._thread(request, config), request.messages)])

    def _after_tools_ran(self, entity: str, lanes: Sequence[Lane] | None = None) -> None:
        """Queue the captures of ``entity``'s turns that waited for their tools, in ``lanes`` (``None``: all): a
        thread's, or a thread-less run's own (:func:`~memori_langchain._after_tools.lane_of`)."""
        for turn in self._after_tools.take(entity, lanes):
            self._submit(turn.messages, entity, turn.thread, turn.since, turn.began)

    def _missed(self, messages: Sequence[BaseMessage], state: Mapping[str, Any] | None, entity: str,
                thread: str | None) -> list[int]:
        """The indexes of the human turns before the last message, among the ``missed_turns`` latest, that no
        model answered and that were never captured: after the turn marked in the state (captured by this
        middleware in any process), and not captured by this one in this process."""
        if self.missed_turns == 0:
            return []
        humans = [i for i, m in enumerate(messages[:-1]) if is_human(m) and not _summary(m)][-self.missed_turns:]
        mark = (state or {}).get(CAPTURED_KEY)
        if mark:
            for position, index in enumerate(humans):
                if _mark(_turn_key(entity, thread, messages[index])) == mark:
                    humans = humans[position + 1:]
                    break
        return [i for i in humans if not _answered(messages, i)
                and not self._turns.captured(_turn_key(entity, thread, messages[i]))]

    def _submit(self, messages: Sequence[BaseMessage], entity: str, thread: str | None, since: int,
                began: datetime) -> None:
        """Queue the capture of the turn ending ``messages`` (its last message, a human one), once."""
        message = messages[-1]
        if not self._turns.claim(_turn_key(entity, thread, message)):
            return
        try:
            said_at = message_said_at(message)
        except (TypeError, ValueError) as exc:  # the app's bad time: this turn is not stored, the answer stands
            self._captures.refuse(entity, exc)
            return
        metadata = capture_metadata("langchain", message, thread)
        self._captures.submit(self.engine, entity, turn_to_capture(messages), self.extractor, metadata=metadata,
                              session_id=metadata.get("thread_id"), since=since, created_at=said_at or began,
                              landed=captured_from(self.engine, entity, metadata))

    def _keep_unanswered(self, request: ModelRequest, config: RunnableConfig, entity: str, since: int,
                         began: datetime) -> None:
        """Keep the turn of a model call that raised (or was cancelled) for the user's next answered turn, in any
        thread: unless capture is off, the call was a tool-loop one (its turn was captured when its first call
        succeeded) or the turn was captured already. A turn the bound forgets is counted as dropped."""
        if not self.capture or self._unanswered is None or not turn_to_capture(request.messages):
            return
        thread = self._thread(request, config)
        key = _turn_key(entity, thread, request.messages[-1])
        if self._turns.captured(key):
            return
        generation, at = self._turns.began(key) or (since, began)  # a retried call: its turn began with the first
        missed = _Missed(tuple(request.messages[-2:]), thread, at)
        for lost in self._unanswered.keep(entity, key, missed, generation):
            self._captures.drop(lost.entity_id, _DROPPED_UNANSWERED.format(kept=UNANSWERED_KEPT))

    def _call_answered(self, request: ModelRequest, config: RunnableConfig, entity: str, since: int,
                       began: datetime, response: Any) -> None:
        """After a model call that answered (sync or async): queue its turn's capture, and the captures that
        waited for the tool loop when the answer calls no tool."""
        self._capture(request, config, entity, since, began, response)
        if not asks_for_tools(response):
            self._tool_loop_over(request, config, entity)

    def _call_raised(self, request: ModelRequest, config: RunnableConfig, entity: str, since: int,
                     began: datetime) -> None:
        """After a model call that raised or was cancelled (sync or async): keep its turn for the next answered
        one, and queue the captures that waited for the tool loop (the run may end here)."""
        self._keep_unanswered(request, config, entity, since, began)
        self._tool_loop_over(request, config, entity)

    def _begin_call(self, request: ModelRequest) -> tuple[RunnableConfig, str, int, datetime]:
        """A model call begun: its run config and entity (the entity's failed ``strict`` capture raised first),
        the entity's erase generation and the time now, noted for the turn the call answers."""
        config = ensure_config()
        entity = self._entity(request, config)
        self._captures.raise_failure(entity)
        since, began = ERASURES.generation(entity), datetime.now(timezone.utc)
        self._note_began(request, config, entity, since, began)
        return config, entity, since, began

    def _note_began(self, request: ModelRequest, config: RunnableConfig, entity: str, since: int,
                    began: datetime) -> None:
        # When the turn's first model call began: if that call fails, the next turn captures it as of then.
        if self.capture and self.missed_turns and request.messages and is_human(request.messages[-1]):
            key = _turn_key(entity, self._thread(request, config), request.messages[-1])
            self._turns.note_began(key, since, began)

    def _tool_raised(self, request: ToolCallRequest) -> None:
        """Queue the capture of the turns of the tool call's thread that waited for their tools; a failure to find
        them is logged, never raised over the tool's own exception."""
        if not self.capture:
            return
        config = getattr(request.runtime, "config", None)
        try:
            messages = (getattr(request, "state", None) or {}).get("messages") or []
            self._after_tools_ran(self._entity(request, config), [lane_of(self._thread(request, config), messages)])
        except Exception as exc:  # noqa: BLE001 - the tool's exception is the one the app must see
            warn_failed(logger, "MemoriMiddleware", "capture after a tool raised", None, exc,
                        instead="the turn is captured at the user's next turn or flush()")

    def _captured_mark(self, state: Mapping[str, Any], runtime: Runtime[Any],
                       run_ended: bool = False) -> dict[str, Any] | None:
        """The state update marking the thread's latest human turn when this middleware captured it; at the end of
        the run (``run_ended``), the run's turns that waited for their tools are queued first."""
        if not self.capture:
            return None
        last = next((m for m in reversed(state.get("messages") or []) if is_human(m)), None)
        if last is None:
            return None
        config = ensure_config()
        entity = entity_of_run("MemoriMiddleware", self.entity_id, config, getattr(runtime, "context", None))
        thread = thread_of_run(config, runtime)
        if run_ended:
            self._after_tools_ran(entity, [lane_of(thread, state.get("messages") or [])])
        key = _turn_key(entity, thread, last)
        if not self._turns.captured(key) or state.get(CAPTURED_KEY) == _mark(key):
            return None
        return {CAPTURED_KEY: _mark(key)}

    # -- hooks --------------------------------------------------------------

    def wrap_model_call(self, request: ModelRequest, handler: Handler) -> ModelResponse:
        """Inject the block into this call's system message, call the model, then queue the turn's capture."""
        config, entity, since, began = self._begin_call(request)
        if self.capture:  # the user's turns an outage held, stored before this recall reads
            self._captures.store_held_before(self.engine, entity, timeout=self.timeout)
        try:
            response = handler(self._with_block(request, self._recall(request, config, entity).block()))
        except BaseException:  # no answer: the user's next answered turn captures this one
            self._call_raised(request, config, entity, since, began)
            raise
        self._call_answered(request, config, entity, since, began, response)
        return response

    async def awrap_model_call(self, request: ModelRequest, handler: AsyncHandler) -> ModelResponse:
        """Async :meth:`wrap_model_call` (``engine.arecall``; the capture is queued the same way)."""
        config, entity, since, began = self._begin_call(request)
        if self.capture and self._captures.holds(entity):  # (the wait in a worker thread: the loop goes on)
            await asyncio.to_thread(self._captures.store_held_before, self.engine, entity, timeout=self.timeout)
        try:
            response = await handler(self._with_block(request, await self._recall(request, config, entity).ablock()))
        except BaseException:  # a raised call, or a stream the client abandoned (cancelled)
            self._call_raised(request, config, entity, since, began)
            raise
        self._call_answered(request, config, entity, since, began, response)
        return response

    def wrap_tool_call(self, request: ToolCallRequest, handler: ToolHandler) -> ToolMessage | Command[Any]:
        """Run the tool; when it raises, the turn whose answer called it is captured at once: the exception may end
        the run, with no model call or ``after_agent`` after it. The tool runs at the time of the run's turn
        (:func:`~memori_core.capture.said_at.said_during`): a ``MemoriStore`` put it makes is dated as the memory
        tools' ``remember`` of the turn is."""
        try:
            with said_during(state_said_at(request.state)):
                return handler(request)
        except GraphBubbleUp:  # an interrupt pauses the run: its resumed run captures the turn
            raise
        except BaseException:
            self._tool_raised(request)
            raise

    async def awrap_tool_call(self, request: ToolCallRequest, handler: AsyncToolHandler) -> ToolMessage | Command[Any]:
        """Async :meth:`wrap_tool_call`."""
        try:
            with said_during(state_said_at(request.state)):
                return await handler(request)
        except GraphBubbleUp:
            raise
        except BaseException:
            self._tool_raised(request)
            raise

    def after_model(self, state: MemoriAgentState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Mark the turn just captured in the state (:data:`CAPTURED_KEY`, checkpointed with the thread)."""
        return self._captured_mark(state, runtime)

    async def aafter_model(self, state: MemoriAgentState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Async :meth:`after_model`."""
        return self._captured_mark(state, runtime)

    def after_agent(self, state: MemoriAgentState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """At the end of the run: queue the capture of its turn if it waited for tools the run ended after (a tool
        that returns directly, structured output), and mark it in the state."""
        return self._captured_mark(state, runtime, run_ended=True)

    async def aafter_agent(self, state: MemoriAgentState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Async :meth:`after_agent`."""
        return self._captured_mark(state, runtime, run_ended=True)

    def flush(self, timeout: float | None = None) -> FlushResult:
        """Queue the captures of turns still waiting for their tools (a run that ended before them), then wait until
        every capture submitted so far has finished (:meth:`WaitsForCaptures.flush`)."""
        self._all_tools_ran()
        return super().flush(timeout)

    async def aflush(self, timeout: float | None = None) -> FlushResult:
        """Async :meth:`flush`."""
        self._all_tools_ran()
        return await super().aflush(timeout)

    def _all_tools_ran(self, turns: Sequence[tuple[str, Waiting]] | None = None) -> None:
        """Queue the captures of ``turns`` (default: every turn waiting for its tools)."""
        for entity, turn in self._after_tools.take_all() if turns is None else turns:
            self._submit(turn.messages, entity, turn.thread, turn.since, turn.began)

    def _tools_ran_before_close(self, lanes: Any, seconds: float) -> None:
        """``engine.close()``, before it waits for the captures: the turns still waiting for their tools (a run that
        ended with no hook of this middleware's seeing it end, a human-in-the-loop interrupt never resumed) are
        queued, so close waits for them as for any capture."""
        if self.engine.capture_lanes is lanes:
            self._all_tools_ran()

    def _tools_ran_after_close(self, lanes: Any) -> None:
        """``engine.close()``, once its capture pool took its last job: a turn that began waiting for its tools
        meanwhile can never be stored: counted as dropped, with a warning."""
        if self.engine.capture_lanes is not lanes:
            return
        for entity, _ in self._after_tools.take_all():
            self._captures.drop(entity, "its run's tools had not run when the engine closed")


def _summary(message: BaseMessage) -> bool:
    """Whether ``message`` is the summary ``SummarizationMiddleware`` puts in place of earlier turns."""
    return (getattr(message, "additional_kwargs", None) or {}).get("lc_source") == "summarization"
