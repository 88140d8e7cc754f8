"""An injury typed without its "I" ("fell off my bike and broke my left wrist"), read as the user's: "I fell off my
bike and broke my left wrist", which the rules keep like the same words with the "I" (:func:`as_own_injury`).
Pure: patterns, English only.
"""

from __future__ import annotations

from collections.abc import Sequence

from .health import BODY_PART
from .patterns import rx

__all__ = ["as_own_injury"]

_INJURED = r"(?:broke|fractured|sprained|twisted|dislocated|tore|pulled|injured|hurt|cracked|busted|did)"
# "fell off my bike and broke my left wrist", "just sprained my ankle", "came off the horse and cracked a rib".
_BARE_INJURY = rx(
    r"^(?:(?:so|and|well|ugh|just|literally)\s+)*"
    r"(?:(?:fell|came|got\s+knocked)\s+off\s+(?:my|the|a)\s+[\w-]+(?:\s+[\w-]+)?\s+and\s+)?"
    rf"{_INJURED}\s+(?:my|a)\s+{BODY_PART}\b"
)


def as_own_injury(clauses: Sequence[str]) -> list[str]:
    """``clauses`` with an injury told without its "I" as the user's; any other clause as it is.

    >>> as_own_injury(["fell off my bike and broke my left wrist.", "cast for 6 weeks"])
    ['I fell off my bike and broke my left wrist.', 'cast for 6 weeks']
    >>> as_own_injury(["broke my heart when she left"])
    ['broke my heart when she left']
    """
    return [f"I {clause.strip()}" if _BARE_INJURY.match(clause.strip()) else clause for clause in clauses]
