"""Fail-open engine calls for the framework adapters: memory must never block the model call.

On failure they log one warning on the adapter's logger and return an empty
result; with ``strict=True`` they raise instead. Capture (storing what a turn
said) runs in the background: :mod:`memori_core.capture`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from .facts import RecalledFact


def warn_failed(logger: logging.Logger, owner: str, what: str, entity_id: str, exc: BaseException) -> None:
    """The warning every adapter logs when recall or capture fails."""
    logger.warning(
        "%s: %s failed for entity %r (%s: %s); continuing without memory",
        owner, what, entity_id, type(exc).__name__, exc,
    )


def _context_kwargs(context: Sequence[str] | None) -> dict[str, Any]:
    # No earlier turn: the call is exactly the single-turn one (``context`` is not passed at all).
    return {"context": list(context)} if context else {}


def recall_or_empty(
    engine: Any, query: str, entity_id: str, limit: int | None, *, strict: bool, owner: str, logger: logging.Logger,
    context: Sequence[str] | None = None,
) -> list[RecalledFact]:
    """``engine.recall``; a blank query gives ``[]``, a failure a warning and ``[]`` (unless ``strict``).

    ``context`` (the user turns before ``query``, oldest first) is passed on when it holds any."""
    if not query.strip():
        return []
    try:
        return list(engine.recall(query, entity_id, limit, **_context_kwargs(context)))
    except Exception as exc:
        if strict:
            raise
        warn_failed(logger, owner, "recall", entity_id, exc)
        return []


async def arecall_or_empty(
    engine: Any, query: str, entity_id: str, limit: int | None, *, strict: bool, owner: str, logger: logging.Logger,
    context: Sequence[str] | None = None,
) -> list[RecalledFact]:
    """Async :func:`recall_or_empty` (``engine.arecall``)."""
    if not query.strip():
        return []
    try:
        return list(await engine.arecall(query, entity_id, limit, **_context_kwargs(context)))
    except Exception as exc:
        if strict:
            raise
        warn_failed(logger, owner, "recall", entity_id, exc)
        return []
