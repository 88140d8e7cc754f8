"""A month said again to correct the fact just told: "oh wait I meant May" after "User is moving to Berlin in April
2026." -> "User is moving to Berlin in May 2026." (:func:`remonthed`), with the end of the month meant as the
expiry when the fact expired with its month (:func:`month_end`). Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone

from ..calendar_words import ANY_MONTH as _MONTH, MONTH_NAMES
from .cues import is_negated
from .patterns import rx

__all__ = ["month_end", "month_meant", "remonthed"]

# "oh wait I meant May", "sorry, May", "May not April", "*May": nothing but the month meant (and the one it replaces).
_REMONTHED = rx(
    r"^\W*(?:(?:oh|wait|no|sorry|oops|whoops|typo|correction|actually|i\s+meant|i\s+mean|meant|make\s+(?:that|it))"
    rf"\W*)*(?P<right>{_MONTH})(?:\s*,?\s*not\s+(?P<wrong>{_MONTH}))?[\s.!]*$"
)
_IN_FACT = rx(rf"\b(?P<month>{_MONTH})\b(?:\s+(?P<year>\d{{4}}))?")


def month_meant(clause: str) -> str:
    """The month ``clause`` says was meant when it is nothing but that month said again ("oh wait I meant May" ->
    ``"May"``, "sorry, may not april" -> ``"May"``); ``""`` for any other clause ("I may move in May")."""
    m = _REMONTHED.match(clause.strip())
    return "" if m is None else m.group("right").capitalize()


def remonthed(clause: str, known: Sequence[str]) -> tuple[str, str] | None:
    """``clause`` ("oh wait I meant May", "May not April") as the stored fact it corrects, with the month meant in
    place of the other, and the correction said plainly ("I meant May, not April"): exactly one stored fact names
    one other month (the one named as wrong, when one is), and none names the month meant already; ``None``
    otherwise (which fact is meant cannot be told). "May" in a stored fact is read as the month only after "in"
    or before a day or a year.

    >>> remonthed("oh wait I meant May", ["User is moving to Berlin in April 2026."])
    ('User is moving to Berlin in May 2026.', 'I meant May, not April')
    >>> remonthed("I meant May", ["User is moving in April.", "User's birthday is in June."]) is None
    True
    """
    m = _REMONTHED.match(clause.strip())
    if m is None:
        return None
    right, wrong = m.group("right").lower(), (m.group("wrong") or "").lower()
    held = []
    for text in known:
        months = [x for x in _IN_FACT.finditer(text) if _is_month(text, x)]
        if is_negated(text) or not months:
            continue
        if any(x.group("month").lower() == right for x in months):
            return None  # "May" is told already
        held += [(text, x) for x in months if not wrong or x.group("month").lower() == wrong]
    if len(held) != 1:
        return None
    text, x = held[0]
    said = x.group("month")
    return text[: x.start("month")] + right.capitalize() + text[x.end("month"):], f"I meant {right.capitalize()}, not {said}"


def _is_month(text: str, x: re.Match[str]) -> bool:
    """Whether the month word ``x`` found in ``text`` names the month: any but "may", which is a month after "in"
    or with a year or a day next to it ("in May", "May 2026", "May 3rd", "3 May"), not "User may move."."""
    if x.group("month").lower() != "may":
        return True
    before, after = text[: x.start()].rstrip().lower(), text[x.end():].lstrip()
    return bool(x.group("year")) or before.endswith((" in", " of")) or re.match(r"\d", after) is not None \
        or re.search(r"\d(?:st|nd|rd|th)?$", before) is not None


def month_end(fact: str, now: datetime) -> timedelta | None:
    """How long ``fact`` holds when it names a month with its year ("in May 2026") still to come or under way at
    ``now``: until that month is over; ``None`` for any other fact."""
    x = next((x for x in _IN_FACT.finditer(fact) if x.group("year") and _is_month(fact, x)), None)
    if x is None:
        return None
    month, year = MONTH_NAMES.index(x.group("month").lower()) + 1, int(x.group("year"))
    end = datetime(year + (month == 12), month % 12 + 1, 1, tzinfo=timezone.utc)
    return end - now if end > now else None
