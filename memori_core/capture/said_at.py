"""When a framework message says it was said: :data:`SAID_AT_KEY` in its metadata, read by :func:`said_at_in`; the
zone it was said in, which the ``<memori_context>`` block writes its times in (:func:`said_zone`); the time a
recall for it reads memory at (:func:`said_as_of`); the time of the turn an agent run is at, for the writes made
in it that take no time of their own (:func:`said_during`, :func:`said_during_turn`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, tzinfo
from typing import Any

from ..validate import check_said_at, turn_as_of

SAID_AT_KEY = "created_at"
"""The key of a framework message's own metadata that says when it was said, read by the adapters' capture:
LangChain's ``additional_kwargs`` (else ``response_metadata``), LlamaIndex's ``ChatMessage.additional_kwargs``.
Its value is a timezone-aware ``datetime`` or an ISO 8601 string with a UTC offset (one without is read as UTC,
with a warning: :func:`~memori_core.validate.check_said_at`)."""


def said_at_in(metadata: Any, where: str, *, warns: bool = True) -> datetime | None:
    """The time under :data:`SAID_AT_KEY` in a message's ``metadata`` mapping (``None`` when there is none),
    checked by :func:`~memori_core.validate.check_said_at` (``warns``: of a time without a zone); its errors
    name ``where``, then the key."""
    if not isinstance(metadata, Mapping) or metadata.get(SAID_AT_KEY) is None:
        return None
    return check_said_at(metadata[SAID_AT_KEY], f'{where}["{SAID_AT_KEY}"]', warns=warns)


def _first_said(metadata: tuple[Any, ...]) -> datetime | None:
    """The first readable time under :data:`SAID_AT_KEY` in these metadata mappings; a time capture refuses is
    passed over, and one without a zone is UTC (capture reports either)."""
    for mapping in metadata:
        try:
            said_at = said_at_in(mapping, "a message's metadata", warns=False)  # capture warns of it
        except (TypeError, ValueError):
            continue
        if said_at is not None:
            return said_at
    return None


def said_zone(*metadata: Any) -> tzinfo | None:
    """The zone of the first readable time under :data:`SAID_AT_KEY` in these metadata mappings (a message's, in the
    order its adapter reads them): the ``tzinfo`` the block's "Stated at" times are written in
    (:func:`~memori_core.context.format_context`); ``None`` when none holds one (the block is then in UTC)."""
    said_at = _first_said(metadata)
    return None if said_at is None else said_at.tzinfo


def said_as_of(*metadata: Any) -> datetime | None:
    """When to read memory for the turn whose message holds these metadata mappings (:func:`said_zone`'s):
    :func:`~memori_core.validate.turn_as_of` of its time (that time for a turn said over a minute ago, a replayed
    chat; ``None``, now, for a live turn or one that says no time)."""
    return turn_as_of(_first_said(metadata))


_TURN_SAID_AT: ContextVar[datetime | None] = ContextVar("memori_turn_said_at", default=None)


@contextmanager
def said_during(when: datetime | None) -> Iterator[None]:
    """Within the block, :func:`said_during_turn` is ``when``: the time the turn an agent run answers was said (its
    last human message's :data:`SAID_AT_KEY`). A LangGraph ``store.put`` takes no time, so a ``MemoriStore`` put
    made in the block (a tool's ``runtime.store.put``) is dated then, by the clock the memory tools' ``remember``
    of the same run is dated by; ``MemoriMiddleware`` opens it around each tool call. ``None``: now."""
    token = _TURN_SAID_AT.set(when)
    try:
        yield
    finally:
        _TURN_SAID_AT.reset(token)


def said_during_turn() -> datetime | None:
    """The time :func:`said_during` set for the code running now, else ``None`` (not
    :func:`memori_core.extraction.turn_said_at`, which reads a turn's messages)."""
    return _TURN_SAID_AT.get()
