"""When a framework message says it was said: :data:`SAID_AT_KEY` in its metadata, read by :func:`said_at_in`."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from ..validate import check_said_at

SAID_AT_KEY = "created_at"
"""The key of a framework message's own metadata that says when it was said, read by the adapters' capture:
LangChain's ``additional_kwargs`` (else ``response_metadata``), LlamaIndex's ``ChatMessage.additional_kwargs``.
Its value is a timezone-aware ``datetime`` or an ISO 8601 string with a UTC offset
(:func:`~memori_core.validate.check_said_at`)."""


def said_at_in(metadata: Any, where: str) -> datetime | None:
    """The time under :data:`SAID_AT_KEY` in a message's ``metadata`` mapping (``None`` when there is none),
    checked by :func:`~memori_core.validate.check_said_at`; its errors name ``where``, then the key."""
    if not isinstance(metadata, Mapping) or metadata.get(SAID_AT_KEY) is None:
        return None
    return check_said_at(metadata[SAID_AT_KEY], f'{where}["{SAID_AT_KEY}"]')
