"""How a bulk write reports its progress: ``progress(stage, done, total)``, a callback whose failures never break
the write."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from ..error_log import warn_briefly


logger = logging.getLogger(__name__)

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: stage ``"embed"`` or ``"store"``, facts done of ``total``."""


def _safe_progress(progress: Any) -> Progress | None:
    """``progress`` wrapped so that its failures are logged once and never break a write."""
    if progress is None:
        return None
    if not callable(progress):
        raise TypeError(f"progress must be a callable(stage, done, total) or None, got {type(progress).__name__}")
    failed = False

    def report(stage: str, done: int, total: int) -> None:
        nonlocal failed
        if failed:
            return
        try:
            progress(stage, done, total)
        except Exception as exc:
            failed = True
            warn_briefly(logger, exc, "progress callback raised; no more progress is reported for this call")

    return report
