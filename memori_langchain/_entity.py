"""Entity resolution and fail-open recall shared by every LangChain adapter."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from langchain_core.runnables import RunnableConfig

from memori_core import RecalledFact, format_context
from memori_core.failopen import aadd_or_warn, add_or_warn, arecall_or_empty, recall_or_empty
from memori_core.text import normalize_fact_text
from memori_core.validate import check_entity_id

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


def _recall_args(engine: Any, limit: int | None, skip_text: str | None) -> tuple[int | None, int | None]:
    """(limit to ask the engine for, limit to keep): one extra when a text is to be skipped."""
    if skip_text is None:
        return limit, limit
    keep = engine.config.limit if limit is None else limit
    return (keep + 1 if keep > 0 else keep), keep


def _block(facts: list[RecalledFact], keep: int | None, skip_text: str | None) -> str:
    if skip_text is not None:
        key = normalize_fact_text(skip_text)
        facts = [f for f in facts if normalize_fact_text(f.content) != key][:keep]
    return format_context(facts)


def recall_block(
    engine: Any,
    query: str,
    entity_id: str,
    limit: int | None,
    *,
    strict: bool,
    owner: str,
    skip_text: str | None = None,
) -> str:
    """The ``<memori_context>`` block for ``query`` ("" when nothing passes); fails open unless ``strict``.

    A recalled fact whose normalised text equals ``skip_text`` (the user turn
    being answered, when turns are captured) is left out.
    """
    ask, keep = _recall_args(engine, limit, skip_text)
    facts = recall_or_empty(engine, query, entity_id, ask, strict=strict, owner=owner, logger=logger)
    return _block(facts, keep, skip_text)


async def arecall_block(
    engine: Any,
    query: str,
    entity_id: str,
    limit: int | None,
    *,
    strict: bool,
    owner: str,
    skip_text: str | None = None,
) -> str:
    """Async :func:`recall_block` (``engine.arecall``)."""
    ask, keep = _recall_args(engine, limit, skip_text)
    facts = await arecall_or_empty(engine, query, entity_id, ask, strict=strict, owner=owner, logger=logger)
    return _block(facts, keep, skip_text)


def capture_fact(
    engine: Any,
    text: str,
    entity_id: str,
    metadata: dict[str, Any],
    *,
    strict: bool,
    owner: str,
    session_id: str | None = None,
) -> None:
    """Store one user turn as a fact (in ``session_id``'s conversation when given); fails open unless ``strict``."""
    if text.strip():
        add_or_warn(engine, entity_id, [text], strict=strict, owner=owner, logger=logger,
                    metadata=metadata, session_id=session_id)


async def acapture_fact(
    engine: Any,
    text: str,
    entity_id: str,
    metadata: dict[str, Any],
    *,
    strict: bool,
    owner: str,
    session_id: str | None = None,
) -> None:
    """Async :func:`capture_fact` (``engine.aadd``)."""
    if text.strip():
        await aadd_or_warn(engine, entity_id, [text], strict=strict, owner=owner, logger=logger,
                           metadata=metadata, session_id=session_id)
