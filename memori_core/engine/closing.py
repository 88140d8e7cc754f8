"""How a :class:`~memori_core.engine.RecallEngine` closes: its captures are waited for (with a bound), then it and
its store refuse every call with :class:`~memori_core.store.base.ClosedError` naming what was closed."""

from __future__ import annotations

from typing import Any

from ..store.base import ClosedError, refused_once_closed

CLOSE_TIMEOUT = 10.0
"""Seconds ``engine.close()`` (or the store's ``close()``) waits at most for the engine's pending captures; those
still pending then are dropped (counted by their adapters, one warning each)."""

HELD_AT_CLOSE_SECONDS = 10.0
"""Seconds ``engine.close()`` gives, at most and out of its ``timeout``, to the turns its adapters hold after a
store outage (:mod:`memori_core.capture.held`): the store is asked once whether it answers (the cool-down ended
early, as a ``flush`` does) and, if it does, they are queued; the turns still held then are given up, each named
in one warning."""


def engine_closed_error(closed_by: str, what: str) -> ClosedError:
    """The error a call ``what`` of an engine closed by ``closed_by`` raises."""
    return ClosedError(f"RecallEngine is closed ({closed_by}): {what} cannot run; make a new store and engine "
                       "(close an engine only when the app stops using it)")


def _closed_engine_error(engine: Any, what: str) -> ClosedError | None:
    """The error a call ``what`` of ``engine`` raises once it is closed (``engine._closed_by`` set); else ``None``."""
    closed_by = engine._closed_by
    return None if closed_by is None else engine_closed_error(closed_by, what)


when_open = refused_once_closed(_closed_engine_error)
"""An engine method that raises :class:`ClosedError` once the engine is closed (``self._closed_by`` set)."""
