"""An injury typed without its "I" ("fell off my bike and broke my left wrist"), read as the user's: "I fell off my
bike and broke my left wrist", which the rules keep like the same words with the "I" (:func:`as_own_injury`); a cast
taken off ("the cast came off today!!") as the stored injury's part out of it (:func:`as_out_of_cast`). Pure:
patterns, English only.
"""

from __future__ import annotations

from collections.abc import Sequence

import re

from ..slots import holder
from .health import BODY_PART, health_state
from .patterns import rx

__all__ = ["as_out_of_cast", "as_own_injury"]

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


_GEAR = r"(?:cast|sling|splint|boot|brace)"
# "the cast came off today!!", "cast is off", "got my cast off", "finally out of the sling": what held an injury, off.
_CAST_OFF = rx(
    r"^(?:(?:so|and|finally|yay|just|well)\s*,?\s+)*(?:"
    rf"(?:(?:the|my)\s+)?{_GEAR}\s+(?:(?:finally|just|has|have|is|'s|came|come|got\s+taken|was\s+taken)\s+)+off\b"
    rf"|(?:i\s+)?(?:finally\s+|just\s+)?(?:got|had)\s+(?:my|the)\s+{_GEAR}\s+(?:taken\s+)?off\b"
    rf"|(?:i'm\s+|i\s+am\s+)?(?:finally\s+)?out\s+of\s+(?:the|my)\s+{_GEAR}\b)"
)


def as_out_of_cast(clauses: Sequence[str], known: Sequence[str]) -> list[str]:
    """``clauses`` with a cast (a sling, a splint) told as off read as the part of the user's latest stored injury
    out of it ("the cast came off today" after "User broke their left wrist." -> "My wrist is out of the cast"),
    which ends the injury; any other clause as it is, and every clause when no injury of a part is stored.

    >>> as_out_of_cast(["the cast came off today!!"], ["User broke their left wrist."])
    ['My wrist is out of the cast']
    """
    part = next((state[0] for text in reversed(known) if holder(text) == "user"
                 and (state := health_state(text)) is not None and state[1] == "injury"
                 and re.fullmatch(BODY_PART, state[0], re.IGNORECASE)), None)
    if part is None:
        return list(clauses)
    out = []
    for clause in clauses:
        m = _CAST_OFF.match(clause.strip())
        gear = re.search(_GEAR, m.group(0), re.IGNORECASE) if m is not None else None
        out.append(f"My {part} is out of the {gear.group(0).lower()}" if gear is not None else clause)
    return out
