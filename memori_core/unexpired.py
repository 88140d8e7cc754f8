"""The newest page of a user's unexpired facts: the answer to a question about what memory holds ("What do you
remember about me?"), given alike by the MCP server's ``recall`` and the agent tools' ``recall_memory``. A fact
past its ``expires_at`` is still stored (``list`` shows it, so it can be forgotten) but no longer holds: twenty
expired notes of a trip must not fill the page and hide the diet and the home."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .facts import StoredFact

__all__ = ["HeldPage", "anewest_unexpired", "newest_unexpired"]

_BATCH = 100
"""How many stored facts one ``list`` call reads while looking for unexpired ones."""


@dataclass(frozen=True)
class HeldPage:
    """Up to a page of a user's unexpired facts, newest first; ``next_offset``: the ``list`` offset of the first
    unexpired fact not shown (``None``: no more)."""

    facts: list[StoredFact]
    next_offset: int | None


def _found(batch: Sequence[StoredFact], offset: int, now: float) -> list[tuple[int, StoredFact]]:
    return [(offset + i, f) for i, f in enumerate(batch) if not f.is_expired(now)]


def _page(found: list[tuple[int, StoredFact]], page: int) -> HeldPage:
    return HeldPage([f for _, f in found[:page]], found[page][0] if len(found) > page else None)


def _check_page(page: int) -> int:
    if isinstance(page, bool) or not isinstance(page, int) or page < 1:
        raise ValueError(f"page must be a positive int, got {page!r}")
    return page


def newest_unexpired(engine: Any, entity_id: str, page: int) -> HeldPage:
    """``entity_id``'s ``page`` newest valid facts not expired now (``engine.list``, read a batch at a time past
    the expired ones)."""
    page, now, found, offset = _check_page(page), time.time(), [], 0
    while len(found) <= page:
        batch = engine.list(entity_id, limit=_BATCH, offset=offset)
        found += _found(batch, offset, now)
        if len(batch) < _BATCH:
            break
        offset += _BATCH
    return _page(found, page)


async def anewest_unexpired(engine: Any, entity_id: str, page: int) -> HeldPage:
    """Async :func:`newest_unexpired`."""
    page, now, found, offset = _check_page(page), time.time(), [], 0
    while len(found) <= page:
        batch = await engine.alist(entity_id, limit=_BATCH, offset=offset)
        found += _found(batch, offset, now)
        if len(batch) < _BATCH:
            break
        offset += _BATCH
    return _page(found, page)
