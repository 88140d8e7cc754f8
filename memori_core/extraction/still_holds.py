"""What of a stored fact a change ends still holds: kept as a fact of its own, so a supersede drops only the part
that changed.

- A move ends a fact that holds the city the user left as where they work or who they are ("User is an architect
  in Helsinki." after "User has moved into their flat in Tampere.": :func:`left_the_place`); the rest of it holds
  ("User is an architect."). The old fact stays as history, superseded.

Pure: patterns, English only.
"""

from __future__ import annotations

import re

from ..slots import holder
from .cues import is_negated
from .patterns import rx

__all__ = ["left_the_place", "still_holds"]

_CITY = r"(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?"
# Where the user lives now, told as a present state ("User lives in Leicester.", "User has moved into their flat in
# Tampere."), not a plan ("User is moving to Tampere in November.").
_NOW_LIVES = rx(
    r"^User\s+(?:now\s+)?(?:lives|is\s+living|is\s+based|(?:has\s+)?(?:just\s+|finally\s+)?moved)\b"
    rf"[^.]*?\b(?:in|to)\s+(?P<place>{_CITY})\s*(?:now\s*)?\.?$"
)
# Who the user is, placed in a city: "User is an architect in Helsinki.", "User is Ama, a pharmacist in Birmingham,
# originally from Kumasi." (not "User is in Rome this week.", "User is on a trip in Rome.").
_PLACED = re.compile(
    rf"^User\s+is\s+(?P<who>(?:[A-Z][\w'-]+,\s+)?an?\s+[\w'-]+(?:\s+[\w'-]+){{0,3}}?)\s+in\s+(?P<place>{_CITY})"
    r"(?P<rest>\s*(?:,[^.]*)?\.?)$"
)
_PASSING = rx(r"\b(?:trip|holiday|vacation|visit\w*|conference|staying|visitor|tourist|guest)\b")


def _placed(old: str) -> re.Match[str] | None:
    m = _PLACED.match(old.strip())
    return None if m is None or _PASSING.search(m.group("who")) or is_negated(old) else m


def left_the_place(new: str, old: str) -> bool:
    """Whether ``new`` tells the user lives in another city now than the one ``old`` places who they are in.

    >>> left_the_place("User has moved into their flat in Tampere.", "User is an architect in Helsinki.")
    True
    >>> left_the_place("User lives in Helsinki.", "User is an architect in Helsinki.")
    False
    """
    now, before = _NOW_LIVES.match(new.strip()), _placed(old)
    if now is None or before is None or is_negated(new):
        return False
    if now.group("place").casefold() == before.group("place").casefold():
        return False
    return holder(new) == holder(old) == "user"


def still_holds(new: str, old: str) -> list[str]:
    """What of ``old``, a stored fact ``new`` ends, still holds, as facts to keep (``[]`` when nothing does).

    >>> still_holds("User lives in Leicester.", "User is Ama, a pharmacist in Birmingham, originally from Kumasi.")
    ['User is Ama, a pharmacist, originally from Kumasi.']
    """
    kept = []
    placed = _placed(old) if left_the_place(new, old) else None
    if placed is not None:
        kept.append(f"User is {placed.group('who')}{placed.group('rest').rstrip('.')}.")
    return kept
