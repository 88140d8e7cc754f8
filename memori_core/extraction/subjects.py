"""Someone a clause or a fact names: a named subject first ("Sadly, Ana moved out") and the names a fact gives
("User has a cat called Mochi."). Pure: read with capitals, English only.
"""

from __future__ import annotations

import re

from ..calendar_words import MONTH_NAMES, WEEKDAYS

__all__ = [
    "named_subject",
    "names_in",
]

# "Max passed away", "Sadly, Ana moved out": a named someone as the subject of a clause (not "I", "My"...).
_NAMED_SUBJECT = re.compile(
    r"^(?:(?:so|and|but|oh|well|sadly|unfortunately|anyway|update|news|bad\s+news|sad\s+news)\s*[,:!-]*\s+)*"
    r"(?P<name>(?-i:(?!(?:I|My|We|Our|The|This|That|It|He|She|They|There|Here|What|When|Just|Got|Had)\b)"
    r"[A-Z][a-z\u00e0-\u00ff]+))\s+(?P<rest>(?-i:[a-z]).*)$",
    re.IGNORECASE,
)
# A name in a fact: a capitalised word after the first ("User has a cat called Mochi."), not a day or month.
_NAME = re.compile(
    r"(?<!^)(?<![.!?]\s)\b(?!(?:" + "|".join(name.capitalize() for name in WEEKDAYS + MONTH_NAMES) + r")s?\b)"
    r"[A-Z][a-z\u00e0-\u00ff]+\b"
)


def named_subject(clause: str) -> tuple[str, str] | None:
    """``(name, the rest)`` when ``clause`` is said of someone it names first ("Sadly, Ana moved out" ->
    ``("Ana", "moved out")``; not "I ...", "My ...", "The ..."); ``None`` otherwise."""
    m = _NAMED_SUBJECT.match(clause.strip())
    return (m.group("name"), m.group("rest")) if m is not None else None


def names_in(text: str) -> frozenset[str]:
    """The names ``text`` gives (capitalised words after the first, not days or months): ``{"Mochi"}`` for
    "User has a cat called Mochi."."""
    return frozenset(_NAME.findall(text))
