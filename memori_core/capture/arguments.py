"""An adapter's capture arguments checked: the extractor (default: the rules, storing by a policy) and the bound on
pending captures."""

from __future__ import annotations

from typing import Any

from ..extraction.provenance import DEFAULT_CAPTURE_POLICY, CapturePolicy, check_policy
from ..extraction.rule_based import RuleBasedFactExtractor
from ..extraction.types import FactExtractor

DEFAULT_MAX_PENDING_CAPTURES = 64
"""Captures one adapter may have queued or running before new ones are dropped."""


def check_extractor(extractor: Any, policy: CapturePolicy = DEFAULT_CAPTURE_POLICY) -> FactExtractor:
    """``extractor``, or for ``None`` the default :class:`~memori_core.extraction.RuleBasedFactExtractor`, storing by
    ``policy`` (:data:`~memori_core.extraction.provenance.CapturePolicy`: ``"broad"``, the default, or
    ``"strict"``; ``ValueError`` naming ``policy`` for another value, or for a policy other than the default
    given with an ``extractor`` of its own, which stores by its own: ``RuleBasedFactExtractor(policy=...)``)."""
    chosen = check_policy(policy)
    if extractor is None:
        return RuleBasedFactExtractor(policy=chosen)
    if not callable(getattr(extractor, "extract", None)):
        raise TypeError(f"extractor must have an extract(messages, existing) method, got {type(extractor).__name__}")
    if chosen != DEFAULT_CAPTURE_POLICY:
        raise ValueError(f"policy={chosen!r} is the default extractor's; {type(extractor).__name__} stores by its "
                         "own (for the rules: extractor=RuleBasedFactExtractor(policy=...))")
    return extractor


def check_max_pending(value: Any, owner: str | None = None) -> int:
    """``value`` checked as a positive int (an error names ``owner``, when given, and ``max_pending_captures``)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        named = "max_pending_captures" if owner is None else f"{owner}: max_pending_captures"
        raise ValueError(f"{named} must be a positive int, got {value!r}")
    return value


def check_hold(value: Any, owner: str | None = None) -> int:
    """``value`` checked as an int >= 0: how many of a user's turns an outage kept from the store are held."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        named = "hold" if owner is None else f"{owner}: hold"
        raise ValueError(f"{named} must be an int >= 0, got {value!r}")
    return value
