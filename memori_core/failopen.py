"""What the framework adapters do when memory fails: the one ``strict`` policy.

Every adapter surface (retrievers, prompt injectors, middleware, graph nodes,
memory blocks, capture, the re-ranking postprocessor) takes ``strict: bool``,
default :data:`STRICT_DEFAULT` (``False``):

- ``strict=False`` (fail open): when memori's part of the call fails (the
  store is down or times out, the embedder raises, ranking raises), one
  warning is logged on the adapter's logger and the call goes on as it would
  without memori: a retriever returns nothing, a prompt is left unchanged, a
  capture stores nothing, a postprocessor passes the nodes on by their own score.
- ``strict=True``: the error is raised (capture raises it at the next
  ``flush`` or the adapter's next call: :mod:`memori_core.capture`).

Usage errors (no entity, an ``entity_id``, ``k``, query or context of the
wrong type) are raised whatever ``strict`` says: they are bugs, not outages.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from .facts import RecalledFact
from .validate import check_context, check_query

STRICT_DEFAULT = False
"""Every adapter's default: fail open. Each surface sits on the way to a model call, and memory is extra
context for it: a store outage answers like a question with nothing relevant stored (which the relevance
gate already makes an everyday case), not like an error the app must handle on every call."""


def warn_failed(
    logger: logging.Logger, owner: str, what: str, entity_id: str | None, exc: BaseException,
    *, instead: str = "continuing without memory",
) -> None:
    """The warning every adapter logs when recall, capture or ranking fails (``entity_id`` when there is one)."""
    whose = f" for entity {entity_id!r}" if entity_id is not None else ""
    logger.warning("%s: %s failed%s (%s: %s); %s", owner, what, whose, type(exc).__name__, exc, instead)


def _recall_kwargs(query: Any, context: Sequence[str] | str | None) -> dict[str, Any] | None:
    """The checked keyword arguments of a recall, or ``None`` for a blank query (nothing to recall).

    No earlier turn: the call is exactly the single-turn one (``context`` is not passed at all)."""
    if not check_query(query).strip():
        return None
    turns = check_context(context)
    return {"context": turns} if turns else {}


def recall_or_empty(
    engine: Any, query: str, entity_id: str, limit: int | None, *, strict: bool, owner: str, logger: logging.Logger,
    context: Sequence[str] | str | None = None,
) -> list[RecalledFact]:
    """``engine.recall``; a blank query gives ``[]``, a failure a warning and ``[]`` (unless ``strict``).

    ``context`` (the user turns before ``query``, oldest first) is passed on when it holds any. A query or
    context of the wrong type raises ``TypeError`` before the engine is called, ``strict`` or not."""
    kwargs = _recall_kwargs(query, context)
    if kwargs is None:
        return []
    try:
        return list(engine.recall(query, entity_id, limit, **kwargs))
    except Exception as exc:
        if strict:
            raise
        warn_failed(logger, owner, "recall", entity_id, exc)
        return []


async def arecall_or_empty(
    engine: Any, query: str, entity_id: str, limit: int | None, *, strict: bool, owner: str, logger: logging.Logger,
    context: Sequence[str] | str | None = None,
) -> list[RecalledFact]:
    """Async :func:`recall_or_empty` (``engine.arecall``)."""
    kwargs = _recall_kwargs(query, context)
    if kwargs is None:
        return []
    try:
        return list(await engine.arecall(query, entity_id, limit, **kwargs))
    except Exception as exc:
        if strict:
            raise
        warn_failed(logger, owner, "recall", entity_id, exc)
        return []
