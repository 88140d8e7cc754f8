"""Which extracted facts are core (worth a few tokens on every turn), and the check of a ``core_rule``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..ranking.care import is_care_fact

__all__ = ["CoreRule", "check_core_rule", "is_core_fact"]


def is_core_fact(text: str) -> bool:
    """Whether a fact is worth injecting on every turn: an allergy or intolerance, a medication (named, or by
    its drug-name stem), a condition that limits food or activity (pregnancy, diabetes, asthma, epilepsy, high
    blood pressure, a doctor's dietary advice), or a dietary restriction (vegetarian, vegan, halal, kosher,
    gluten-free, coeliac, lactose-free, no alcohol...).

    >>> is_core_fact("User is allergic to peanuts."), is_core_fact("User lives in Leeds.")
    (True, False)

    A term right after a negation does not count ("User is not vegan.", "User has no allergies.").
    The rule reads words, not meaning: pass your own ``core_rule`` to an extractor to change it. It is
    the relevance gate's care-fact rule (:func:`memori_core.ranking.care.is_care_fact`).
    """
    return is_care_fact(text)


CoreRule = Callable[[str], bool]
"""``rule(fact_text) -> bool``: whether an extracted fact is core."""


def check_core_rule(rule: Any) -> CoreRule | None:
    """``core_rule`` of an extractor: a callable ``(text) -> bool``, or ``None`` (no fact is marked core)."""
    if rule is not None and not callable(rule):
        raise TypeError(f"core_rule must be a callable(text) -> bool or None, got {type(rule).__name__}")
    return rule
