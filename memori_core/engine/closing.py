"""How a :class:`~memori_core.engine.RecallEngine` closes: its captures are waited for (with a bound), then it and
its store refuse every call with :class:`~memori_core.store.base.ClosedError` naming what was closed."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

from ..store.base import ClosedError

CLOSE_TIMEOUT = 10.0
"""Seconds ``engine.close()`` (or the store's ``close()``) waits at most for the engine's pending captures; those
still pending then are dropped (counted by their adapters, one warning each)."""

_Method = TypeVar("_Method", bound=Callable[..., Any])


def engine_closed_error(closed_by: str, what: str) -> ClosedError:
    """The error a call ``what`` of an engine closed by ``closed_by`` raises."""
    return ClosedError(f"RecallEngine is closed ({closed_by}): {what} cannot run; make a new store and engine "
                       "(close an engine only when the app stops using it)")


def when_open(method: _Method) -> _Method:
    """An engine method that raises :class:`ClosedError` once the engine is closed (``self._closed_by`` set)."""

    @functools.wraps(method)
    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        closed_by = self._closed_by
        if closed_by is not None:
            raise engine_closed_error(closed_by, method.__name__)
        return method(self, *args, **kwargs)

    return cast(_Method, run)
