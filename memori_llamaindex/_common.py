"""Entity checks, fail-open recall and message text shared by the LlamaIndex adapters."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole, TextBlock

from memori_core import RecalledFact
from memori_core.failopen import aadd_or_warn, arecall_or_empty, recall_or_empty
from memori_core.validate import check_entity_id

logger = logging.getLogger("memori_llamaindex")


def require_entity(entity_id: Any, owner: str, how: str) -> str:
    """``entity_id`` checked as a non-blank ``str``; a ``ValueError`` saying how to give one when it is ``None``."""
    if entity_id is None:
        raise ValueError(f"{owner} does not know whose memory to use: {how}")
    return check_entity_id(entity_id)


def safe_recall(
    engine: Any, query: str, entity_id: str, limit: int | None, *, strict: bool, owner: str
) -> list[RecalledFact]:
    """``engine.recall``; on failure a warning and ``[]`` (or the exception when ``strict``)."""
    return recall_or_empty(engine, query, entity_id, limit, strict=strict, owner=owner, logger=logger)


async def asafe_recall(
    engine: Any, query: str, entity_id: str, limit: int | None, *, strict: bool, owner: str
) -> list[RecalledFact]:
    """Async :func:`safe_recall` (``engine.arecall``)."""
    return await arecall_or_empty(engine, query, entity_id, limit, strict=strict, owner=owner, logger=logger)


async def asafe_add(
    engine: Any,
    entity_id: str,
    facts: list[str],
    metadata: list[dict[str, Any]],
    session_ids: list[str | None],
    *,
    strict: bool,
    owner: str,
) -> list[str]:
    """``engine.aadd``; on failure a warning and ``[]`` (or the exception when ``strict``)."""
    return await aadd_or_warn(
        engine, entity_id, facts, strict=strict, owner=owner, logger=logger, metadata=metadata, session_id=session_ids
    )


def message_text(message: ChatMessage) -> str:
    """The text parts of a chat message, joined by newlines (images, tool calls etc. are skipped)."""
    return "\n".join(b.text for b in message.blocks if isinstance(b, TextBlock) and b.text).strip()


def latest_user_text(messages: Sequence[ChatMessage] | None) -> str:
    """Text of the last user message (``""`` when there is none, or it holds no text)."""
    for message in reversed(list(messages or [])):
        if message.role == MessageRole.USER:
            return message_text(message)
    return ""
