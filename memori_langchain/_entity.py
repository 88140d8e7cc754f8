"""Entity resolution, fail-open recall and the turn to capture, shared by the LangChain adapters."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig

from memori_core import RecalledFact, format_context
from memori_core.extraction import Message
from memori_core.failopen import arecall_or_empty, recall_or_empty
from memori_core.ranking.core import is_core
from memori_core.text import normalize_fact_text
from memori_core.validate import check_entity_id

from ._messages import message_text

logger = logging.getLogger("memori_langchain")

ENTITY_KEY = "entity_id"
"""Key read from ``config["configurable"]`` (and from an agent's runtime context)."""

_CONTEXT_KEYS = ("entity_id", "user_id")


def _from_context(context: Any) -> Any:
    """``entity_id`` (else ``user_id``) of a runtime context: a mapping or any object with those attributes."""
    if context is None:
        return None
    for key in _CONTEXT_KEYS:
        if isinstance(context, Mapping):
            value = context.get(key)
        else:
            value = getattr(context, key, None)
        if value is not None:
            return value
    return None


def resolve_entity_id(
    default: str | None,
    config: RunnableConfig | None = None,
    context: Any = None,
    *,
    owner: str,
    override: Any = None,
) -> str:
    """The entity to recall for, from the most specific source that names one.

    Order: ``override`` (an explicit per-call argument), then
    ``config["configurable"]["entity_id"]``, then the runtime ``context``
    (``entity_id``, else ``user_id``), then ``default`` (the constructor's
    ``entity_id``). Raises ``ValueError`` naming the ways to give one when none
    does, and ``TypeError`` / ``ValueError`` for an id that is not a non-blank str.
    """
    configurable = (config or {}).get("configurable") or {}
    for value in (override, configurable.get(ENTITY_KEY), _from_context(context), default):
        if value is not None:
            return check_entity_id(value)
    ways = f"pass entity_id=... to {owner}(...), or per call config={{'configurable': {{'entity_id': ...}}}}"
    if owner in ("MemoriMiddleware", "memori_recall_node"):
        ways += ", or run with a context that has an entity_id or user_id"
    raise ValueError(f"{owner} does not know whose memory to use: {ways}")


_SKIP_SLACK = 4
"""Extra facts asked of recall when some may be left out (one per fact a captured turn may have become)."""


def _recall_args(engine: Any, limit: int | None, skipping: bool) -> tuple[int | None, int | None]:
    """(limit to ask the engine for, limit to keep): a few extra when facts may be left out."""
    if not skipping:
        return limit, limit
    keep = engine.config.limit if limit is None else limit
    return (keep + _SKIP_SLACK if keep > 0 else keep), keep


def _block(
    engine: Any, facts: list[RecalledFact], keep: int | None, skip_text: str | None, skip_message_id: str | None
) -> str:
    if skip_text is not None or skip_message_id is not None:
        key = normalize_fact_text(skip_text) if skip_text is not None else None
        facts = [
            f for f in facts
            if (key is None or normalize_fact_text(f.content) != key)
            and (skip_message_id is None or f.metadata.get("message_id") != skip_message_id)
        ]
        # The first ``keep``, then the core facts after them (recall appends those beyond its limit).
        core = [f for f in facts[keep:] if is_core(f.metadata)] if keep is not None else []
        facts = facts[:keep] + core[: getattr(engine.config, "core_limit", 0)]
    return format_context(facts, zone=engine.config.time_zone_label)


def recall_block(
    engine: Any,
    query: str,
    entity_id: str,
    limit: int | None,
    *,
    strict: bool,
    owner: str,
    skip_text: str | None = None,
    skip_message_id: str | None = None,
    context: Sequence[str] | None = None,
) -> str:
    """The ``<memori_context>`` block for ``query`` ("" when nothing passes); fails open unless ``strict``.

    ``context`` (the human turns before ``query``, oldest first) is passed to recall when it holds any.

    When turns are captured, what the turn being answered already became is
    not news to the model: a recalled fact whose normalised text equals
    ``skip_text`` (that turn), or that was captured from the message
    ``skip_message_id`` (its ``metadata["message_id"]``), is left out.
    """
    ask, keep = _recall_args(engine, limit, skip_text is not None or skip_message_id is not None)
    facts = recall_or_empty(engine, query, entity_id, ask, strict=strict, owner=owner, logger=logger,
                            context=context)
    return _block(engine, facts, keep, skip_text, skip_message_id)


async def arecall_block(
    engine: Any,
    query: str,
    entity_id: str,
    limit: int | None,
    *,
    strict: bool,
    owner: str,
    skip_text: str | None = None,
    skip_message_id: str | None = None,
    context: Sequence[str] | None = None,
) -> str:
    """Async :func:`recall_block` (``engine.arecall``)."""
    ask, keep = _recall_args(engine, limit, skip_text is not None or skip_message_id is not None)
    facts = await arecall_or_empty(engine, query, entity_id, ask, strict=strict, owner=owner, logger=logger,
                                   context=context)
    return _block(engine, facts, keep, skip_text, skip_message_id)


def turn_to_capture(messages: Sequence[BaseMessage]) -> list[Message]:
    """The turn to extract facts from: the last message if it is a human one, after the assistant message
    it answers (context for a short reply like "Rex"); ``[]`` when the last message is not human."""
    if not messages or not isinstance(messages[-1], HumanMessage):
        return []
    turn = [Message("user", message_text(messages[-1]))]
    if len(messages) > 1 and isinstance(messages[-2], AIMessage) and message_text(messages[-2]).strip():
        turn.insert(0, Message("assistant", message_text(messages[-2])))
    return turn
