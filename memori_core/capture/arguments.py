"""An adapter's capture arguments checked: the extractor (default: the rules, storing by a policy) and the bound on
pending captures."""

from __future__ import annotations

from typing import Any

from ..extraction.provenance import DEFAULT_CAPTURE_POLICY, CapturePolicy, check_policy
from ..extraction.rule_based import RuleBasedFactExtractor
from ..extraction.types import FactExtractor

DEFAULT_MAX_PENDING_CAPTURES = 64
"""Captures one adapter may have queued or running before new ones are dropped."""


def _named(name: str, owner: str | None) -> str:
    """``name`` as an error names it: after ``owner`` (the adapter) when given."""
    return name if owner is None else f"{owner}: {name}"


def check_extractor(extractor: Any, policy: CapturePolicy = DEFAULT_CAPTURE_POLICY,
                    owner: str | None = None) -> FactExtractor:
    """``extractor``, or for ``None`` the default :class:`~memori_core.extraction.RuleBasedFactExtractor`, storing by
    ``policy`` (:data:`~memori_core.extraction.provenance.CapturePolicy`: ``"broad"``, the default, or
    ``"strict"``; ``ValueError`` naming ``policy`` for another value, or for a policy other than the default
    given with an ``extractor`` of its own, which stores by its own: ``RuleBasedFactExtractor(policy=...)``).
    ``TypeError`` for an object without an ``extract`` method; an error names ``owner`` when given."""
    chosen = check_policy(policy)
    if extractor is None:
        return RuleBasedFactExtractor(policy=chosen)
    if not callable(getattr(extractor, "extract", None)):
        raise TypeError(f"{_named('extractor', owner)} must have an extract(messages, existing) method, got "
                        f"{type(extractor).__name__}")
    if chosen != DEFAULT_CAPTURE_POLICY:
        raise ValueError(f"policy={chosen!r} is the default extractor's; {type(extractor).__name__} stores by its "
                         "own (for the rules: extractor=RuleBasedFactExtractor(policy=...))")
    return extractor


def check_max_pending(value: Any, owner: str | None = None) -> int:
    """``value`` checked as a positive int (an error names ``owner``, when given, and ``max_pending_captures``):
    ``TypeError`` for another type (a ``bool`` or ``"64"`` included), ``ValueError`` below 1."""
    return _checked_int(value, _named("max_pending_captures", owner), "a positive int", 1)


def check_hold(value: Any, owner: str | None = None) -> int:
    """``value`` checked as an int >= 0: how many of a user's turns an outage kept from the store are held
    (``TypeError`` for another type, ``ValueError`` below 0)."""
    return _checked_int(value, _named("hold", owner), "an int >= 0", 0)


def _checked_int(value: Any, named: str, wanted: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{named} must be {wanted}, got {value!r}")
    if value < least:
        raise ValueError(f"{named} must be {wanted}, got {value!r}")
    return value
