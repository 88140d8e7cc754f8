"""The LangGraph capture node (:func:`memori_capture_node`, :class:`MemoriCaptureNode`): it stores the facts of the
user turn just answered, in the background, once per turn."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from functools import partial
from typing import Any

from langchain_core.messages import BaseMessage, convert_to_messages
from langchain_core.runnables import RunnableConfig, RunnableLambda

from memori_core.adapter_args import check_adapter_args, check_flag
from memori_core.capture import (
    DEFAULT_MAX_PENDING_CAPTURES,
    OUTAGE_TURNS_KEPT,
    WaitsForCaptures,
    check_extractor,
    check_max_pending,
)
from memori_core.capture_failures import EntityCaptures
from memori_core.engine import RecallEngine
from memori_core.extraction import FactExtractor, Message
from memori_core.failopen import STRICT_DEFAULT
from memori_core.lanes import ERASURES
from memori_core.unanswered import MISSED_TURNS_DEFAULT, UNANSWERED_KEPT, UnansweredTurns

from ._captured import CAPTURED_KEY
from ._graph_state import graph_channels, run_has_checkpointer
from ._graph_turns import TURN_STARTS, Begun, CapturedTurns, TurnKey, latest_turn
from ._messages import capture_metadata, captured_from, message_said_at
from ._recall import entity_of_run, logger, thread_of_run

_DROPPED_UNANSWERED = ("a turn no model answered was forgotten before the user's next answered turn could capture "
                       "it: more than {per_user} of the user's turns (or {kept} of all users) were waiting")


class MemoriCaptureNode(WaitsForCaptures, RunnableLambda):
    """The graph node made by :func:`memori_capture_node`: a ``RunnableLambda`` that can also wait for its captures
    (``pending_captures``, ``flush``, ``aflush``), and keep the turns its recall node hands it
    (``memori_recall_node(..., capture=node)``) until it runs on them."""

    _engine: RecallEngine
    _captured: CapturedTurns
    _unanswered: UnansweredTurns[TurnKey, Begun]

    def _keep_unanswered(self, entity: str, messages: Sequence[BaseMessage], mark: Any, thread_id: str | None,
                         ) -> None:
        """Keep the turn a recall node is about to have the model answer (the last human message of
        ``messages``), unless it was captured already (by this node, or marked ``mark`` in the thread's state):
        if the model fails, the user's next answered turn captures it. What the bound forgets is counted as a
        dropped capture."""
        found = latest_turn(entity, messages, thread_id)
        if found is None or found[2] is None:
            return  # no human message, or one without an id (LangGraph's add_messages gives every one an id)
        message, turn, key = found
        if self._captured.holds(key) or mark == CapturedTurns.mark(key):
            return
        begun = Begun(key, message, tuple(turn), thread_id, datetime.now(timezone.utc))
        for lost in self._unanswered.keep(entity, key, begun, ERASURES.generation(entity)):
            self._captures.drop(lost.entity_id, _DROPPED_UNANSWERED.format(per_user=MISSED_TURNS_DEFAULT,
                                                                           kept=UNANSWERED_KEPT))


def memori_capture_node(
    engine: RecallEngine,
    entity_id: str | None = None,
    *,
    extractor: FactExtractor | None = None,
    strict: bool = STRICT_DEFAULT,
    max_pending_captures: int = DEFAULT_MAX_PENDING_CAPTURES,
) -> MemoriCaptureNode:
    """A graph node, put after the model node, that stores the facts of the user turn just answered.

    >>> capture = memori_capture_node(engine, entity_id="user-1")
    >>> builder.add_node("capture", capture)
    >>> builder.add_edge("model", "capture"); builder.add_edge("capture", END)
    >>> graph.invoke(...); capture.flush()        # wait for the background capture (tests, shutdown)

    When the node runs, the last human message of ``state["messages"]`` (with
    the assistant message before it as context) goes to ``extractor``
    (default :class:`~memori_core.extraction.RuleBasedFactExtractor`: the
    user's statements about themselves as "User ..." facts; questions,
    greetings and instructions are never stored). Extraction and storage run
    in the background, at most ``max_pending_captures`` at a time (more are
    dropped with a warning): the node returns at once, and changes no state but
    the capture mark below. A turn whose capture a store outage kept from the store is held and captured
    once the store answers, in order with its own time, at the node's next capture or ``flush()``
    (:mod:`memori_core.capture.held`: ``OUTAGE_TURNS_KEPT`` of each user, the oldest dropped with a warning).
    A turn is captured once however often the node runs on it (a tool loop
    through the node, a replayed checkpoint): the node remembers the last
    ``CAPTURED_TURNS_KEPT`` turns it captured by their entity, thread id,
    human message id and text, so another user's or another thread's message
    with the same id is a turn of its own (a message without an id is
    captured on every run). A thread resumed from its checkpoint by another
    graph instance or process (after a restart: ``graph.invoke(None, config)``,
    ``Command(resume=...)``) still holds the turn it last captured: the node
    writes a digest of that turn to ``state["memori_captured"]``
    (:data:`CAPTURED_KEY`, checkpointed; declared by :class:`MemoriState`, or
    add ``memori_captured: str`` to your schema), and a node that finds its
    turn marked there does not capture it again (unless that node's own capture
    of it failed or was dropped). A graph with a checkpointer whose state lacks
    the key logs a warning, once per node. Facts get
    metadata ``source="langgraph"``, ``role="user"``, ``thread_id`` and
    ``message_id`` when known, and the thread id as ``session_id`` (the run config's ``thread_id``, else the
    graph's thread, else the config's ``session_id``: in a plain chain, outside a graph, the node captures
    the messages it is given the same way); they are
    dated when the turn was said, the human message's ``additional_kwargs["created_at"]`` (else
    ``response_metadata["created_at"]``: a timezone-aware datetime or an ISO 8601 string with a UTC offset),
    else when the node runs, which is also the "now" the extractor reads "on Thursday" against (a time
    without a zone is UTC, with a ``NaiveTimeWarning``; an unreadable one fails that turn's capture with a
    warning naming the field). The
    model node failing stops the graph before this node; given to the graph's
    recall node (``memori_recall_node(engine, capture=node)``), the node keeps
    each turn the recall node saw until it runs on it, and on the user's next
    answered turn, in whichever thread, captures the turns no model answered
    first: the 3 latest of each user (``MISSED_TURNS_DEFAULT``), ``UNANSWERED_KEPT``
    of all users; one the bound forgets is counted as dropped in
    :attr:`~MemoriCaptureNode.capture_stats`, with a warning. Without that, only
    answered turns are captured. A turn whose user is forgotten (``engine.forget``) after a
    :func:`memori_recall_node` ran on it is not captured (without a recall node,
    the turn counts from when this node runs).

    The entity is resolved as for :func:`memori_recall_node`. Failures log a
    warning; with ``strict=True`` the first one of each entity is raised by the next
    :meth:`MemoriCaptureNode.flush` / ``aflush`` or the node's next run for that entity (never in
    another user's run).
    """
    owner = "memori_capture_node"
    check_adapter_args(owner, engine, entity_id)
    check_flag(strict, owner, "strict")
    chosen = check_extractor(extractor, owner=owner)
    captures = EntityCaptures(owner, logger, strict=strict, max_pending=check_max_pending(max_pending_captures, owner),
                              hold=OUTAGE_TURNS_KEPT)
    captured = CapturedTurns()
    # A user's turns no model answered, and the one being answered (kept by the recall node until this node runs).
    unanswered: UnansweredTurns[TurnKey, Begun] = UnansweredTurns(MISSED_TURNS_DEFAULT + 1, UNANSWERED_KEPT)
    unchecked = [True]  # until a run has told whether the graph's state can hold the capture mark
    unchecked_lock = threading.Lock()

    def _marks(config: RunnableConfig) -> bool:
        """Whether the graph running the node holds :data:`CAPTURED_KEY` (warned once when it should and does
        not: a checkpointer, so a thread can be resumed elsewhere)."""
        channels = graph_channels(config)
        if channels is None:
            return False
        if CAPTURED_KEY in channels:
            return True
        if unchecked[0] and run_has_checkpointer(config):
            with unchecked_lock:
                first, unchecked[0] = unchecked[0], False
            if first:
                logger.warning(
                    "%s: the graph's state has no %r key, so a thread resumed from its checkpoint by another graph "
                    "instance or process (after a restart) has the turn it last captured captured again; build the "
                    "graph with StateGraph(MemoriState), or add %r: str to your state schema",
                    owner, CAPTURED_KEY, CAPTURED_KEY)
        return False

    def hand_over(entity: str, key: TurnKey | None, message: BaseMessage, turn: Sequence[Message],
                  thread_id: str | None, since: int | None, began: datetime | None) -> bool:
        """Queue the capture of a turn claimed under ``key`` (``None``: a message without an id); ``False`` when
        it was not queued (dropped: the capture released the claim, a later run may capture it). ``began``: its
        time unless its message says when it was said (``None``: now)."""
        try:
            said_at = message_said_at(message)
        except (TypeError, ValueError) as exc:  # the app's bad time: this turn is not stored (claimed: once)
            captures.refuse(entity, exc)
            return True
        metadata = capture_metadata("langgraph", message, thread_id)
        release = partial(captured.release, key) if key is not None else None  # not stored: capture it again later
        return captures.submit(engine, entity, turn, chosen, metadata=metadata, session_id=thread_id,
                               on_failure=release, since=since, created_at=said_at or began,
                               landed=captured_from(engine, entity, metadata))

    def memori_capture(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        entity = entity_of_run(owner, entity_id, config)
        captures.raise_failure(entity)  # only this entity's: the node may serve many users
        messages = convert_to_messages(state.get("messages") or [])
        thread_id = thread_of_run(config)
        found = latest_turn(entity, messages, thread_id)
        if found is None:
            return {}
        message, turn, key = found
        if key is not None:
            unanswered.discard(entity, key)  # answered after all
        for missed in unanswered.take(entity):  # the user's turns no model answered, in any thread, oldest first
            begun = missed.turn
            if captured.claim(begun.key):
                hand_over(entity, begun.key, begun.message, begun.turn, begun.thread, missed.since, begun.began)
        mark = CapturedTurns.mark(key) if key is not None else None
        if key is not None and state.get(CAPTURED_KEY) == mark and not captured.released(key):
            return {}  # captured by an earlier run of this thread: this node's, or another instance's or process's
        if key is not None and not captured.claim(key):
            return {}
        # When a recall node saw the turn before the model answered it, a forget since then erases it too.
        since = TURN_STARTS.take((entity, thread_id, str(message.id))) if message.id else None
        if not hand_over(entity, key, message, turn, thread_id, since, None):
            return {}
        return {CAPTURED_KEY: mark} if mark is not None and _marks(config) else {}

    async def amemori_capture(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        return memori_capture(state, config)  # only queues work: nothing to await

    node = MemoriCaptureNode(memori_capture, afunc=amemori_capture, name="memori_capture")
    node._captures = captures
    node._engine = engine
    node._captured = captured
    node._unanswered = unanswered
    return node
