"""How memori logs an error it goes on past: one WARNING line naming the error's type and a clipped message
(:func:`error_text`), its traceback at DEBUG only; :func:`warn_failed` is the line every fail-open adapter logs
when recall, capture or ranking fails (:mod:`memori_core.failopen`)."""

from __future__ import annotations

import logging
from typing import Any

from .store.chroma_client import clip_text

ERROR_CHARS = 300
"""Characters of an error's message a fail-open warning quotes at most (:func:`error_text`)."""


def warn_failed(
    logger: logging.Logger, owner: str, what: str, entity_id: str | None, exc: BaseException,
    *, instead: str = "continuing without memory",
) -> None:
    """The warning every adapter logs when recall, capture or ranking fails (``entity_id`` when there is one)."""
    whose = f" for entity {entity_id!r}" if entity_id is not None else ""
    logger.warning("%s: %s failed%s (%s: %s); %s", owner, what, whose, type(exc).__name__, error_text(exc), instead)


def warn_briefly(logger: logging.Logger, exc: BaseException, message: str, *args: Any) -> None:
    """Log ``message % args`` as one WARNING line ending in ``exc``'s type and message (:func:`error_text`), and
    ``exc``'s traceback at DEBUG only: the one way memori warns about an error it goes on past.

    During an outage such a warning is logged for every user a call was serving; a traceback with each would
    bury the log (80 lines a user), while the line says what failed and the DEBUG record keeps the detail."""
    logger.warning(message + " (%s: %s)", *args, type(exc).__name__, error_text(exc))
    logger.debug(message + ": traceback", *args, exc_info=(type(exc), exc, exc.__traceback__))


def error_text(exc: BaseException) -> str:
    """``exc``'s message for a log line: one line, HTML tags removed, at most 300 characters (a proxy's error
    page, or a server's long answer, is not copied into the log whole)."""
    return clip_text(str(exc), ERROR_CHARS)
