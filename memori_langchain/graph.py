"""LangGraph: a recall node and a capture node for ``MessagesState`` graphs, and the helper the model node uses."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import partial
from typing import Annotated, Any

from langchain_core.messages import BaseMessage, SystemMessage, convert_to_messages
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.channels import UntrackedValue
from langgraph.graph import MessagesState
from typing_extensions import NotRequired

from memori_core.adapter_args import check_adapter_args, check_flag
from memori_core.bounded import BoundedRecord
from memori_core.capture import (
    DEFAULT_MAX_PENDING_CAPTURES,
    WaitsForCaptures,
    check_extractor,
    check_max_pending,
)
from memori_core.capture_failures import EntityCaptures
from memori_core.engine import RecallEngine
from memori_core.extraction import FactExtractor, Message
from memori_core.failopen import STRICT_DEFAULT, check_timeout
from memori_core.lanes import ERASURES
from memori_core.placement import SYSTEM, check_placement
from memori_core.query import context_turns
from memori_core.unanswered import MISSED_TURNS_DEFAULT, UNANSWERED_KEPT, UnansweredTurns

from ._messages import (
    capture_metadata,
    human_query_and_context,
    is_human,
    message_said_at,
    messages_with_block,
    turn_to_capture,
)
from ._captured import CAPTURED_KEY
from ._recall import BlockRecall, entity_of_run, logger, thread_of_run

CONTEXT_KEY = "memori_context"

MemoriContext = Annotated[str, UntrackedValue(str)]
"""The type of the state key :func:`memori_recall_node` writes its block to: a ``str`` that LangGraph keeps for
the rest of the run (every node after the recall node reads it, a tool loop's model calls included) and never
writes to a checkpoint (a LangGraph ``UntrackedValue`` channel). Recalled facts are the user's long-term memory,
which ``engine.forget`` / ``delete`` erase; a copy in the checkpointer would outlive them. Declare it in your own
schema as ``memori_context: MemoriContext`` (or use :class:`MemoriState`)."""

_CHANNEL_READER = "__pregel_read"
"""The key of LangGraph's channel reader in a node's run config (``langgraph._internal._constants.CONFIG_KEY_READ``):
``functools.partial(local_read, scratchpad, channels, managed, task)``, whose ``channels`` are the graph's."""
_CHECKPOINTER = "__pregel_checkpointer"
"""The key of the run's checkpointer in a node's run config (``CONFIG_KEY_CHECKPOINTER``); absent or ``None``
without one."""


class MemoriState(MessagesState):
    """``MessagesState`` plus the key the recall node writes its block to, and the one the capture node marks the
    turn it captured in.

    The block lives beside the message history, not in it: it is replaced on
    every turn, never sent back as a message of the conversation, and never
    checkpointed (:data:`MemoriContext`), so the recalled facts stay where
    ``forget`` reaches them. The capture mark (:data:`CAPTURED_KEY`) is a digest
    of the last captured turn, no text: it is checkpointed, so a thread resumed
    by another process (after a restart) or another graph instance does not
    capture that turn again.
    """

    memori_context: NotRequired[MemoriContext]
    memori_captured: NotRequired[str]


def _graph_channels(config: RunnableConfig | None) -> Mapping[str, Any] | None:
    """The channels (state keys) of the graph running a node, read from LangGraph's channel reader in the run
    config (as ``langgraph.prebuilt.ToolNode`` reads them); ``None`` whenever that cannot be told (another
    LangGraph version, a call outside a graph): a missed warning, never a wrong one."""
    read = ((config or {}).get("configurable") or {}).get(_CHANNEL_READER)
    channels = read.args[1] if isinstance(read, partial) and len(read.args) > 1 else None
    return channels if isinstance(channels, Mapping) else None


def _graph_lacks_key(key: str, config: RunnableConfig) -> bool:
    """Whether the graph running a node has no state key ``key``, so LangGraph drops what the node writes there
    (``False`` when that cannot be told)."""
    channels = _graph_channels(config)
    return channels is not None and key not in channels


def _graph_checkpoints_key(key: str, config: RunnableConfig) -> bool:
    """Whether the graph running a node has a checkpointer and a state key ``key`` that it checkpoints (declared
    ``str``, not :data:`MemoriContext`); ``False`` when that cannot be told."""
    channels = _graph_channels(config)
    if channels is None or key not in channels:
        return False
    checkpointer = ((config or {}).get("configurable") or {}).get(_CHECKPOINTER)
    return checkpointer is not None and not isinstance(channels[key], UntrackedValue)


TURN_STARTS_KEPT = 4096
"""How many turns' erase generations the recall nodes of the process keep for the capture nodes (below)."""


class _TurnStarts:
    """The entity's erase generation (:data:`memori_core.lanes.ERASURES`) when a recall node first ran on a turn,
    by (entity, thread id, human message id), for the capture node that stores the turn after the model
    answered it: a ``forget`` meanwhile makes that capture write nothing. Process-wide (a recall node and a
    capture node are made separately); the most recent :data:`TURN_STARTS_KEPT` turns are kept."""

    def __init__(self) -> None:
        self._starts: BoundedRecord[tuple[str, str | None, str], int] = BoundedRecord(TURN_STARTS_KEPT)
        self._lock = threading.Lock()

    def note(self, key: tuple[str, str | None, str]) -> None:
        """Note the entity's generation now, unless the turn was noted already (a recall node in a tool loop)."""
        generation = ERASURES.generation(key[0])
        with self._lock:
            if key in self._starts:
                return
            self._starts.remember(key, generation)

    def take(self, key: tuple[str, str | None, str]) -> int | None:
        """The generation noted for the turn (and forget it), or ``None`` when no recall node saw it."""
        with self._lock:
            return self._starts.pop(key, None)


_TURN_STARTS = _TurnStarts()


def _turn_key(
    entity: str, messages: Sequence[BaseMessage], config: RunnableConfig,
) -> tuple[str, str | None, str] | None:
    """The key of the turn being answered (its last human message's id) for :data:`_TURN_STARTS`; ``None``
    without an id."""
    human = next((m for m in reversed(messages) if is_human(m)), None)
    if human is None or not human.id:
        return None
    return entity, thread_of_run(config), str(human.id)


def memori_recall_node(
    engine: RecallEngine,
    entity_id: str | None = None,
    *,
    k: int | None = None,
    strict: bool = STRICT_DEFAULT,
    key: str = CONTEXT_KEY,
    timeout: float | None = None,
    capture: MemoriCaptureNode | None = None,
) -> RunnableLambda:
    """A graph node that recalls facts for the last human message (with text) into ``state[key]``.

    >>> builder = StateGraph(MemoriState)
    >>> builder.add_node("memori", memori_recall_node(engine, entity_id="user-1"))
    >>> builder.add_node("model", lambda s: {"messages": [model.invoke(with_memori_context(s))]})
    >>> builder.add_edge(START, "memori"); builder.add_edge("memori", "model")

    The node writes the ``<memori_context>`` block ("" when nothing passes the
    threshold) to ``state[key]`` and leaves the messages alone; the model node
    merges it into the system prompt with :func:`with_memori_context`. The
    state schema needs the key: use :class:`MemoriState` or add
    ``memori_context: MemoriContext`` to your own. Declared so, the block lasts
    for the rest of the run (a tool loop's model calls all read it) and is
    never checkpointed: the checkpointer holds no copy of the user's facts
    that ``engine.forget`` / ``delete`` could not erase. A run resumed from a
    checkpoint (after an interrupt) starts without it: route the edge into the
    model node through this node. The node logs a warning, once per node
    (``memori_langchain`` logger), when the graph's state lacks the key (a
    plain ``MessagesState``: LangGraph drops the update, the model gets no
    memory) and when a graph with a checkpointer declares it as a plain ``str``
    (checkpointed).
    The human messages before the last one (up to ``engine.config.context_turns``)
    are read with it, so a follow-up recalls what an earlier turn named.

    ``k``: at most this many recalled facts, plus up to the engine's ``config.core_limit`` core facts
    (``None``: the engine's ``config.limit``, 5 unless configured).
    The entity is ``config["configurable"]["entity_id"]`` (else ``["user_id"]``), else the graph's
    runtime context (``entity_id``, else ``user_id``), else ``entity_id``.
    Recall errors are logged and an empty block is written (``strict=True`` raises).
    ``timeout`` (seconds; default ``None``: no limit but the store's per request) bounds the whole recall: past
    it an empty block is written, as for a failed recall, while the recall finishes in the background and
    serves the next turn.
    ``capture``: the graph's :func:`memori_capture_node` (over the same engine). The node then hands it each
    turn it recalls for, which the capture node keeps until it runs on that turn: a turn whose model node
    raised stops the graph before the capture node, and the user's next answered turn, in whichever thread,
    captures it first (:class:`MemoriCaptureNode`). Without it such a turn is never captured.
    Runs natively async under ``ainvoke`` / ``astream``.
    """
    owner = "memori_recall_node"
    check_adapter_args(owner, engine, entity_id, k)
    check_flag(strict, owner, "strict")
    seconds = check_timeout(timeout, owner)
    if capture is not None and not isinstance(capture, MemoriCaptureNode):
        raise TypeError(f"{owner}: capture must be the graph's memori_capture_node(...) or None, "
                        f"got {type(capture).__name__}")
    if capture is not None and capture._engine is not engine:
        raise ValueError(f"{owner}: capture must be a memori_capture_node over the same engine as this node")
    unchecked = [True]  # until a run has told what the graph's state schema does with ``key``
    unchecked_lock = threading.Lock()

    def _check_schema(config: RunnableConfig) -> None:
        if not unchecked[0] or _graph_channels(config) is None:
            return
        with unchecked_lock:
            if not unchecked[0]:
                return
            unchecked[0] = False
        if _graph_lacks_key(key, config):
            logger.warning(
                "%s: the graph's state has no %r key, so LangGraph drops the block this node writes and the model "
                "gets no memory; build the graph with StateGraph(MemoriState), or add %r: MemoriContext to your "
                "state schema", owner, key, key)
        elif _graph_checkpoints_key(key, config):
            logger.warning(
                "%s: the graph's state declares %r as a checkpointed key, so every checkpoint of a thread keeps "
                "the facts recalled into it, where engine.forget and delete do not reach; declare it as %r: "
                "MemoriContext (from memori_langchain), or use MemoriState, to keep it out of checkpoints",
                owner, key, key)

    def _recall(state: Mapping[str, Any], config: RunnableConfig) -> BlockRecall:
        _check_schema(config)
        entity = entity_of_run(owner, entity_id, config)
        messages = convert_to_messages(state.get("messages") or [])
        turn = _turn_key(entity, messages, config)
        if turn is not None:  # for the capture node: a forget from now on erases this turn too
            _TURN_STARTS.note(turn)
        if capture is not None:  # kept until the capture node runs on it: the model may fail to answer it
            capture._keep_unanswered(entity, messages, state.get(CAPTURED_KEY), thread_of_run(config))
        query, context = human_query_and_context(messages, context_turns(engine))
        return BlockRecall(engine, query, entity, k, strict, owner, context, timeout=seconds)

    def memori_recall(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, str]:
        return {key: _recall(state, config).block()}

    async def amemori_recall(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, str]:
        return {key: await _recall(state, config).ablock()}

    return RunnableLambda(memori_recall, afunc=amemori_recall, name="memori_recall")


_UNRECALLED_WARNED: set[str] = set()
"""The state keys :func:`with_memori_context` has warned about (once per key in the process)."""


def _warn_if_not_recalled(key: str) -> None:
    """Warn, once per key, when the graph run the caller is part of declares ``key`` as :data:`MemoriContext` but
    holds no block in it: no recall node has run since the run started (it was resumed from a checkpoint)."""
    if key in _UNRECALLED_WARNED:
        return
    try:
        from langgraph.config import get_config

        config = get_config()
    except Exception:  # not inside a graph run: a state the app built itself
        return
    channels = _graph_channels(config)
    if channels is None or not isinstance(channels.get(key), UntrackedValue) or key in _UNRECALLED_WARNED:
        return
    _UNRECALLED_WARNED.add(key)
    logger.warning(
        "with_memori_context: the state holds no %r: no recall node has run since this run started (a run "
        "resumed from a checkpoint, after an interrupt, starts without it: it is never checkpointed), so the "
        "model gets no memory; route the edges into the model node through the recall node (tools -> memori -> "
        "model)", key)


def with_memori_context(
    state: Mapping[str, Any],
    system_prompt: str | SystemMessage | None = None,
    *,
    key: str = CONTEXT_KEY,
    placement: str = SYSTEM,
) -> list[BaseMessage]:
    """The messages to send to the model: ``state["messages"]`` with the recalled block in the system prompt.

    ``system_prompt`` (optional: a str or a ``SystemMessage``, as ``create_agent(system_prompt=...)`` takes)
    is put first as a system message. The block is appended to the first system message (as a new text part
    when its content is a list), or a new one is put first; ``placement="last_user"`` appends it to the latest
    human message instead, keeping the system prompt and the earlier conversation a cacheable prefix
    (:mod:`memori_core.placement`). The state is not modified. Called in a graph run whose state declares
    ``key`` as :data:`MemoriContext` but holds no block yet (no recall node ran since the run was resumed
    from a checkpoint), it logs a warning, once per key. A ``state`` that is no mapping, or a
    ``system_prompt`` of another type, is a ``TypeError``; an unknown ``placement`` a ``ValueError``.
    """
    if not isinstance(state, Mapping):
        raise TypeError(f"with_memori_context: state must be the graph state (a mapping with 'messages'), "
                        f"got {type(state).__name__}")
    if system_prompt is not None and not isinstance(system_prompt, (str, SystemMessage)):
        raise TypeError(f"with_memori_context: system_prompt must be a str, a SystemMessage or None, "
                        f"got {type(system_prompt).__name__}")
    messages: Sequence[BaseMessage] = convert_to_messages(state.get("messages") or [])
    if system_prompt is not None:
        system = system_prompt if isinstance(system_prompt, SystemMessage) else SystemMessage(content=system_prompt)
        messages = [system, *messages]
    placement = check_placement(placement, "with_memori_context")
    if key not in state:
        _warn_if_not_recalled(key)
    block = state.get(key) or ""
    return messages_with_block(messages, block, placement)


_Key = tuple[str, str | None, str, bytes]
"""A turn a capture node knows: (entity, thread id or ``None``, human message id, digest of the turn)."""


@dataclass(frozen=True)
class _Begun:
    """A turn a recall node handed to its capture node before the model answered it (``memori_recall_node(...,
    capture=...)``), kept until the capture node runs on it: its key, human message, the messages to capture
    (the assistant message before it, then it), its thread, and when the recall node saw it."""

    key: _Key
    message: BaseMessage
    turn: tuple[Message, ...]
    thread: str | None
    began: datetime


_DROPPED_UNANSWERED = ("a turn no model answered was forgotten before the user's next answered turn could capture "
                       "it: more than {per_user} of the user's turns (or {kept} of all users) were waiting")


class MemoriCaptureNode(WaitsForCaptures, RunnableLambda):
    """The graph node made by :func:`memori_capture_node`: a ``RunnableLambda`` that can also wait for its captures
    (``pending_captures``, ``flush``, ``aflush``), and keep the turns its recall node hands it
    (``memori_recall_node(..., capture=node)``) until it runs on them."""

    _engine: RecallEngine
    _captured: _CapturedTurns
    _unanswered: UnansweredTurns[_Key, _Begun]

    def _keep_unanswered(self, entity: str, messages: Sequence[BaseMessage], mark: Any, thread_id: str | None,
                         ) -> None:
        """Keep the turn a recall node is about to have the model answer (the last human message of
        ``messages``), unless it was captured already (by this node, or marked ``mark`` in the thread's state):
        if the model fails, the user's next answered turn captures it. What the bound forgets is counted as a
        dropped capture."""
        found = _latest_turn(entity, messages, thread_id)
        if found is None or found[2] is None:
            return  # no human message, or one without an id (LangGraph's add_messages gives every one an id)
        message, turn, key = found
        if self._captured.holds(key) or mark == _CapturedTurns.mark(key):
            return
        begun = _Begun(key, message, tuple(turn), thread_id, datetime.now(timezone.utc))
        for lost in self._unanswered.keep(entity, key, begun, ERASURES.generation(entity)):
            self._captures.drop(lost.entity_id, _DROPPED_UNANSWERED.format(per_user=MISSED_TURNS_DEFAULT,
                                                                           kept=UNANSWERED_KEPT))


def _latest_turn(entity: str, messages: Sequence[BaseMessage], thread_id: str | None,
                 ) -> tuple[BaseMessage, list[Message], _Key | None] | None:
    """The turn a capture node captures from ``messages``: the last human message, the messages given to the
    extractor (:func:`turn_to_capture`) and its key (``None`` for a message without an id); ``None`` without a
    human message."""
    last_human = max((i for i, m in enumerate(messages) if is_human(m)), default=None)
    if last_human is None:
        return None
    message = messages[last_human]
    turn = turn_to_capture(messages[: last_human + 1])
    key = _CapturedTurns.key(entity, thread_id, str(message.id), turn) if message.id else None
    return message, turn, key


CAPTURED_TURNS_KEPT = 4096
"""How many captured turns a :func:`memori_capture_node` remembers (most recent first), so that the node running
again on a turn it already captured (a tool loop through it, a replayed checkpoint) does not capture it again."""


class _CapturedTurns:
    """The turns a capture node has captured, the most recent :data:`CAPTURED_TURNS_KEPT` of them.

    A turn is known by whose it is (the entity), its conversation thread (``None`` when the run names none),
    the id of its human message and its text with the assistant message before it (a digest). Two users, or
    two threads, whose front ends both number messages ``"msg-1"`` send two turns; so does one user whose
    front end starts numbering again in a new conversation without a thread id, unless it repeats the turn
    word for word after the same reply.
    """

    def __init__(self) -> None:
        self._keys: BoundedRecord[tuple[str, str | None, str, bytes], None] = BoundedRecord(CAPTURED_TURNS_KEPT)
        self._released: BoundedRecord[tuple[str, str | None, str, bytes], None] = BoundedRecord(
            CAPTURED_TURNS_KEPT)
        self._lock = threading.Lock()

    @staticmethod
    def key(entity: str, thread_id: str | None, message_id: str, turn: Sequence[Message]) -> _Key:
        """The key of a turn (``turn``: the messages given to the extractor, see :func:`turn_to_capture`)."""
        text = "\0".join(f"{m.role}\0{m.text}" for m in turn)
        return entity, thread_id, message_id, hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()

    def claim(self, key: tuple[str, str | None, str, bytes]) -> bool:
        """``True`` the first time ``key`` is claimed (then it is remembered), ``False`` while it is remembered."""
        with self._lock:
            known = key in self._keys
            self._keys.remember(key, None)  # a known key is renewed: the node runs on it again
            if not known:
                self._released.pop(key, None)
            return not known

    def release(self, key: tuple[str, str | None, str, bytes]) -> None:
        """Forget ``key`` (its capture was dropped or failed: a later run may capture the turn)."""
        with self._lock:
            if key in self._keys:
                del self._keys[key]
                self._released.remember(key, None)

    def holds(self, key: _Key) -> bool:
        """Whether this node captured ``key`` (claimed, and not released since)."""
        with self._lock:
            return key in self._keys

    def released(self, key: tuple[str, str | None, str, bytes]) -> bool:
        """Whether this node's capture of ``key`` was dropped or failed since it was last claimed."""
        with self._lock:
            return key in self._released

    @staticmethod
    def mark(key: tuple[str, str | None, str, bytes]) -> str:
        """The :data:`CAPTURED_KEY` mark of a turn: a digest of its key (no text of the turn)."""
        entity, thread_id, message_id, digest = key
        head = "\0".join([entity, thread_id or "", message_id]).encode("utf-8")
        return hashlib.blake2b(head + b"\0" + digest, digest_size=16).hexdigest()


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
    the capture mark below.
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
    ``message_id`` when known, and the thread id as ``session_id``; they are
    dated when the turn was said, the human message's ``additional_kwargs["created_at"]`` (else
    ``response_metadata["created_at"]``: a timezone-aware datetime or an ISO 8601 string with a UTC offset),
    else when the node runs, which is also the "now" the extractor reads "on Thursday" against (a naive or
    unreadable time fails that turn's capture with a warning naming the field). The
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
    chosen = check_extractor(extractor)
    captures = EntityCaptures(owner, logger, strict=strict, max_pending=check_max_pending(max_pending_captures, owner))
    captured = _CapturedTurns()
    # A user's turns no model answered, and the one being answered (kept by the recall node until this node runs).
    unanswered: UnansweredTurns[_Key, _Begun] = UnansweredTurns(MISSED_TURNS_DEFAULT + 1, UNANSWERED_KEPT)
    unchecked = [True]  # until a run has told whether the graph's state can hold the capture mark
    unchecked_lock = threading.Lock()

    def _marks(config: RunnableConfig) -> bool:
        """Whether the graph running the node holds :data:`CAPTURED_KEY` (warned once when it should and does
        not: a checkpointer, so a thread can be resumed elsewhere)."""
        channels = _graph_channels(config)
        if channels is None:
            return False
        if CAPTURED_KEY in channels:
            return True
        if unchecked[0] and ((config or {}).get("configurable") or {}).get(_CHECKPOINTER) is not None:
            with unchecked_lock:
                first, unchecked[0] = unchecked[0], False
            if first:
                logger.warning(
                    "%s: the graph's state has no %r key, so a thread resumed from its checkpoint by another graph "
                    "instance or process (after a restart) has the turn it last captured captured again; build the "
                    "graph with StateGraph(MemoriState), or add %r: str to your state schema",
                    owner, CAPTURED_KEY, CAPTURED_KEY)
        return False

    def hand_over(entity: str, key: _Key | None, message: BaseMessage, turn: Sequence[Message],
                  thread_id: str | None, since: int | None, began: datetime | None) -> bool:
        """Queue the capture of a turn claimed under ``key`` (``None``: a message without an id); ``False`` when
        it was not queued (dropped: the claim is released, a later run may capture it). ``began``: its time
        unless its message says when it was said (``None``: now)."""
        try:
            said_at = message_said_at(message)
        except (TypeError, ValueError) as exc:  # the app's bad time: this turn is not stored (claimed: once)
            captures.refuse(entity, exc)
            return True
        metadata = capture_metadata("langgraph", message, thread_id)
        release = partial(captured.release, key) if key is not None else None  # not stored: capture it again later
        queued = captures.submit(engine, entity, turn, chosen, metadata=metadata, session_id=thread_id,
                                 on_failure=release, since=since, created_at=said_at or began)
        if not queued and release is not None:
            release()
        return queued

    def memori_capture(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        entity = entity_of_run(owner, entity_id, config)
        captures.raise_failure(entity)  # only this entity's: the node may serve many users
        messages = convert_to_messages(state.get("messages") or [])
        thread_id = thread_of_run(config)
        found = _latest_turn(entity, messages, thread_id)
        if found is None:
            return {}
        message, turn, key = found
        if key is not None:
            unanswered.discard(entity, key)  # answered after all
        for missed in unanswered.take(entity):  # the user's turns no model answered, in any thread, oldest first
            begun = missed.turn
            if captured.claim(begun.key):
                hand_over(entity, begun.key, begun.message, begun.turn, begun.thread, missed.since, begun.began)
        mark = _CapturedTurns.mark(key) if key is not None else None
        if key is not None and state.get(CAPTURED_KEY) == mark and not captured.released(key):
            return {}  # captured by an earlier run of this thread: this node's, or another instance's or process's
        if key is not None and not captured.claim(key):
            return {}
        # When a recall node saw the turn before the model answered it, a forget since then erases it too.
        since = _TURN_STARTS.take((entity, thread_id, str(message.id))) if message.id else None
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
