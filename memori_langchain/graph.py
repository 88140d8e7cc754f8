"""LangGraph: a recall node for ``MessagesState`` graphs, and the helper the model node uses."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import BaseMessage, SystemMessage, convert_to_messages
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.graph import MessagesState
from typing_extensions import NotRequired

from ._entity import arecall_block, recall_block, resolve_entity_id
from ._messages import last_human_text, messages_with_block

CONTEXT_KEY = "memori_context"


class MemoriState(MessagesState):
    """``MessagesState`` plus the key the recall node writes its block to.

    The block lives beside the message history, not in it: it is replaced on
    every turn and never sent back as a message of the conversation.
    """

    memori_context: NotRequired[str]


def _runtime_context() -> Any:
    """The graph run's runtime context, or ``None`` outside a graph run / without one."""
    try:
        from langgraph.runtime import get_runtime

        runtime = get_runtime()
    except Exception:  # not inside a graph run
        return None
    return getattr(runtime, "context", None)


def memori_recall_node(
    engine: Any,
    entity_id: str | None = None,
    *,
    k: int | None = None,
    strict: bool = False,
    key: str = CONTEXT_KEY,
) -> RunnableLambda:
    """A graph node that recalls facts for the last human message into ``state[key]``.

    >>> builder = StateGraph(MemoriState)
    >>> builder.add_node("memori", memori_recall_node(engine, entity_id="user-1"))
    >>> builder.add_node("model", lambda s: {"messages": [model.invoke(with_memori_context(s))]})
    >>> builder.add_edge(START, "memori"); builder.add_edge("memori", "model")

    The node writes the ``<memori_context>`` block ("" when nothing passes the
    threshold, which also clears last turn's block) to ``state[key]`` and
    leaves the messages alone; the model node merges it into the system prompt
    with :func:`with_memori_context`. The state schema needs the key:
    use :class:`MemoriState` or add ``memori_context: str`` to your own.

    The entity is ``config["configurable"]["entity_id"]``, else the graph's
    runtime context (``entity_id``, else ``user_id``), else ``entity_id``.
    Recall errors are logged and an empty block is written (``strict=True`` raises).
    Runs natively async under ``ainvoke`` / ``astream``.
    """
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 0):
        raise ValueError(f"k must be a non-negative int or None, got {k!r}")
    owner = "memori_recall_node"

    def _query_and_entity(state: Mapping[str, Any], config: RunnableConfig) -> tuple[str, str]:
        entity = resolve_entity_id(entity_id, config, _runtime_context(), owner=owner)
        return last_human_text(convert_to_messages(state.get("messages") or [])), entity

    def memori_recall(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, str]:
        query, entity = _query_and_entity(state, config)
        return {key: recall_block(engine, query, entity, k, strict=strict, owner=owner)}

    async def amemori_recall(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, str]:
        query, entity = _query_and_entity(state, config)
        return {key: await arecall_block(engine, query, entity, k, strict=strict, owner=owner)}

    return RunnableLambda(memori_recall, afunc=amemori_recall, name="memori_recall")


def with_memori_context(
    state: Mapping[str, Any],
    system_prompt: str | None = None,
    *,
    key: str = CONTEXT_KEY,
) -> list[BaseMessage]:
    """The messages to send to the model: ``state["messages"]`` with the recalled block in the system prompt.

    ``system_prompt`` (optional) is put first as a system message. The block
    is appended to the first system message, or a new one is put first. The
    state is not modified.
    """
    messages: Sequence[BaseMessage] = convert_to_messages(state.get("messages") or [])
    if system_prompt is not None:
        messages = [SystemMessage(content=system_prompt), *messages]
    block = state.get(key) or ""
    return messages_with_block(messages, block)
