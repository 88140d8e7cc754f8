"""LangGraph: a recall node and a capture node for ``MessagesState`` graphs, and the helper the model node uses
(the public names; the capture node is in ``_graph_capture.py``, the state key in ``_graph_state.py``, what the
nodes remember of turns in ``_graph_turns.py``)."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import BaseMessage, SystemMessage, convert_to_messages
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.channels import UntrackedValue

from memori_core.adapter_args import check_adapter_args, check_flag
from memori_core.engine import RecallEngine
from memori_core.failopen import STRICT_DEFAULT, check_timeout
from memori_core.placement import SYSTEM, check_placement
from memori_core.query import context_turns
from memori_core.tool_queries import courtesy_test

from ._captured import CAPTURED_KEY
from ._graph_capture import MemoriCaptureNode, memori_capture_node
from ._graph_state import (
    CONTEXT_KEY,
    MemoriContext,
    MemoriState,
    graph_channels,
    graph_checkpoints_key,
    graph_lacks_key,
)
from ._graph_turns import CAPTURED_TURNS_KEPT, TURN_STARTS, TURN_STARTS_KEPT, turn_key
from ._messages import human_query_and_context, messages_with_block, turn_as_of, turn_zone
from ._recall import BlockRecall, entity_of_run, logger, thread_of_run

__all__ = [
    "CAPTURED_TURNS_KEPT",
    "CONTEXT_KEY",
    "TURN_STARTS_KEPT",
    "MemoriCaptureNode",
    "MemoriContext",
    "MemoriState",
    "memori_capture_node",
    "memori_recall_node",
    "with_memori_context",
]


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
        if not unchecked[0] or graph_channels(config) is None:
            return
        with unchecked_lock:
            if not unchecked[0]:
                return
            unchecked[0] = False
        if graph_lacks_key(key, config):
            logger.warning(
                "%s: the graph's state has no %r key, so LangGraph drops the block this node writes and the model "
                "gets no memory; build the graph with StateGraph(MemoriState), or add %r: MemoriContext to your "
                "state schema", owner, key, key)
        elif graph_checkpoints_key(key, config):
            logger.warning(
                "%s: the graph's state declares %r as a checkpointed key, so every checkpoint of a thread keeps "
                "the facts recalled into it, where engine.forget and delete do not reach; declare it as %r: "
                "MemoriContext (from memori_langchain), or use MemoriState, to keep it out of checkpoints",
                owner, key, key)

    def _recall(state: Mapping[str, Any], config: RunnableConfig) -> BlockRecall:
        _check_schema(config)
        entity = entity_of_run(owner, entity_id, config)
        messages = convert_to_messages(state.get("messages") or [])
        turn = turn_key(entity, messages, config)
        if turn is not None:  # for the capture node: a forget from now on erases this turn too
            TURN_STARTS.note(turn)
        if capture is not None:  # kept until the capture node runs on it: the model may fail to answer it
            capture._keep_unanswered(entity, messages, state.get(CAPTURED_KEY), thread_of_run(config))
        query, context = human_query_and_context(messages, context_turns(engine), courtesy_test(engine))
        return BlockRecall(engine, query, entity, k, strict, owner, context, timeout=seconds, tz=turn_zone(messages),
                           as_of=turn_as_of(messages))

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
    channels = graph_channels(config)
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
