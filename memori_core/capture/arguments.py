"""An adapter's capture arguments checked: the extractor (default: the rules) and the bound on pending captures."""

from __future__ import annotations

from typing import Any

from ..extraction.rule_based import RuleBasedFactExtractor
from ..extraction.types import FactExtractor

DEFAULT_MAX_PENDING_CAPTURES = 64
"""Captures one adapter may have queued or running before new ones are dropped."""


def check_extractor(extractor: Any) -> FactExtractor:
    """``extractor``, or the default :class:`~memori_core.extraction.RuleBasedFactExtractor` for ``None``."""
    if extractor is None:
        return RuleBasedFactExtractor()
    if not callable(getattr(extractor, "extract", None)):
        raise TypeError(f"extractor must have an extract(messages, existing) method, got {type(extractor).__name__}")
    return extractor


def check_max_pending(value: Any, owner: str | None = None) -> int:
    """``value`` checked as a positive int (an error names ``owner``, when given, and ``max_pending_captures``)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        named = "max_pending_captures" if owner is None else f"{owner}: max_pending_captures"
        raise ValueError(f"{named} must be a positive int, got {value!r}")
    return value
