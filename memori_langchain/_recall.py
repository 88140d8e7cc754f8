"""The ``<memori_context>`` block the LangChain adapters put into a prompt, recalled failing open."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from memori_core.context import format_context
from memori_core.engine import RecallEngine
from memori_core.facts import RecalledFact
from memori_core.failopen import arecall_or_empty, recall_or_empty
from memori_core.ranking.core import is_core
from memori_core.text import normalize_fact_text

logger = logging.getLogger("memori_langchain")

_SKIP_SLACK = 4
"""Extra facts asked of recall when some may be left out (one per fact a captured turn may have become)."""


def _recall_args(engine: RecallEngine, limit: int | None, skipping: bool) -> tuple[int | None, int | None]:
    """(limit to ask the engine for, limit to keep): a few extra when facts may be left out."""
    if not skipping:
        return limit, limit
    keep = engine.config.limit if limit is None else limit
    return (keep + _SKIP_SLACK if keep > 0 else keep), keep


def _block(
    engine: RecallEngine, facts: list[RecalledFact], keep: int | None, skip_text: str | None,
    skip_message_id: str | None,
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
        facts = facts[:keep] + core[: engine.config.core_limit]
    return format_context(facts, zone=engine.config.time_zone_label)


def recall_block(
    engine: RecallEngine,
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
    engine: RecallEngine,
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
