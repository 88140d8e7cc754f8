"""The user's shift pattern at work, one thing at a time: "I'm on day shifts now" after "User works night shifts."
ends the night shifts, though neither fact names the job (:func:`changes_shift`). Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..slots import holder
from .cues import is_negated
from .patterns import rx

__all__ = [
    "as_shift_now",
    "changes_shift",
    "is_only_a_shift",
    "shift_told_anew",
    "one_at_a_time",
    "shift_kind",
    "users_shift_now",
]

# A pattern of shifts, not one shift ("covering a day shift tomorrow"): "night shifts", "on nights", "working
# earlies", "switched to the early shift".
_KINDS = r"(?:day|night|early|late|evening|morning|afternoon|graveyard|swing|weekend)"
_SHIFT = rx(
    rf"\b(?P<kind>{_KINDS})\s*-?\s*shifts\b"
    rf"|\b(?:to|onto|on|work|works|working)\s+(?:the\s+)?(?P<moved>{_KINDS})\s*-?\s*shift\b"
    r"|\b(?:on|work|works|working|doing|do|does)\s+(?:(?:the|permanent|mostly|only)\s+)?(?P<bare>days|nights|earlies|"
    r"lates)\b"
)
_SAME = {"days": "day", "nights": "night", "graveyard": "night", "earlies": "early", "lates": "late"}
# What no longer holds, only held once or holds for a day: "User used to work nights." says no shift of now.
_ONCE = rx(r"\b(?:used\s+to|no\s+longer|anymore|any\s+more|stopped|quit|today|tonight|tomorrow|this\s+week)\b")


def shift_kind(fact: str) -> str | None:
    """The shift pattern ``fact`` says the user works ("day", "night", "early" ...), or ``None``.

    >>> shift_kind("User works night shifts, three 12s a week."), shift_kind("User is on days now.")
    ('night', 'day')
    """
    m = _SHIFT.search(fact)
    if m is None:
        return None
    kind = (m.group("kind") or m.group("moved") or m.group("bare")).lower()
    return _SAME.get(kind, kind)


# A fact that says the shift pattern and nothing of the job: "User works the early shift now.", "User switched to
# day shifts.", "User is on nights now, 7am to 7pm." (a time of day or a count of shifts may follow).
_ONLY_SHIFT = rx(
    r"^user\s+(?:(?:is|has|just|now|also|finally|mostly|only|been|got|gone|went|moved|switched|changed|"
    r"back|working|works|work|doing|does|on|onto|to|the|permanent|permanently)\s+)*"
    rf"(?:{_KINDS}\s*-?\s*shifts?|days|nights|earlies|lates)"
    r"(?:\s+(?:now|again|instead|permanently|from\s+now\s+on))*"
    r"(?:\s*,?\s*(?:\d{1,2}(?::\d\d)?\s*(?:am|pm)?\s*(?:to|-|–)\s*\d{1,2}(?::\d\d)?\s*(?:am|pm)?"
    r"|(?:three|four|five|two|\d)\s+(?:12s|shifts|nights|days)(?:\s+a\s+week)?))*"
    r"\s*\.?$"
)


# A shift held now, said plainly: "User works night shifts.", "User is on days now.", "User does earlies.", "User
# switched to day shifts."; not a wish, plan, feeling or past one ("User wants to work day shifts.", "User hates
# working nights.", "User worked night shifts in 2025.", "User will be on nights from September.").
_HELD_NOW = rx(
    r"^user\s+(?:(?:now|currently|still|mostly|only|also|usually|always|normally|permanently|just|finally)\s+)*"
    r"(?:works|does|is\s+(?:(?:now|currently|still|mostly|only|permanently|back)\s+)*(?:on|working|doing)"
    r"|(?:has\s+)?(?:switched|moved|changed|gone|went)\s+(?:back\s+)?(?:to|onto|over\s+to))\b"
)


def users_shift_now(fact: str) -> str | None:
    """The shift pattern ``fact`` says the user works now (:func:`shift_kind`), or ``None``: none told, someone
    else's, negated, over or for a day only ("User used to work nights.", "User is on nights this week.").

    >>> users_shift_now("User works day shifts at the hospital."), users_shift_now("User used to work nights.")
    ('day', None)
    >>> users_shift_now("User wants to work day shifts."), users_shift_now("User hates working nights.")
    (None, None)
    """
    kind = shift_kind(fact)
    if kind is None or is_negated(fact) or _ONCE.search(fact) or holder(fact) != "user" \
            or not _HELD_NOW.match(fact.strip()):
        return None
    return kind


def is_only_a_shift(fact: str) -> bool:
    """Whether ``fact`` tells the user's shift pattern and nothing of the job itself ("User works the early shift
    now."): a change of shifts, which leaves the job ("User works as an ER nurse.") as it is.

    >>> is_only_a_shift("User works the early shift now."), is_only_a_shift("User works nights as a security guard.")
    (True, False)
    """
    return _ONLY_SHIFT.match(fact.strip()) is not None


def changes_shift(new: str, old: str) -> bool:
    """Whether the new fact ``new`` tells the user's shift pattern now, another than the stored fact ``old`` tells
    ("User is on day shifts now." after "User works night shifts."): one pattern at a time, so it ends the old one.

    >>> changes_shift("User switched to day shifts.", "User works night shifts, three 12s a week.")
    True
    >>> changes_shift("User's husband works night shifts.", "User works day shifts.")
    False
    """
    return one_at_a_time(new, old, shift_kind, _ONCE)


def shift_told_anew(new: str, stored: str) -> bool:
    """Whether ``new`` tells a shift pattern the user works now that the stored fact ``stored``, though it holds the
    same words, does not: a feeling, a wish or a past one of it ("User is on nights." after "User hates working
    nights."), so ``new`` says something ``stored`` did not.

    >>> shift_told_anew("User is on nights.", "User hates working nights.")
    True
    >>> shift_told_anew("User is on nights.", "User works nights.")
    False
    """
    return users_shift_now(new) is not None and users_shift_now(stored) is None


def one_at_a_time(new: str, old: str, value_of: Callable[[str], str | None], once: re.Pattern[str]) -> bool:
    """Whether ``new`` tells another value than ``old`` of a thing the user has one of at a time (``value_of``
    reads it: a shift pattern, a route), neither fact told as over nor as holding once (``once``), both the
    user's."""
    value, before = value_of(new), value_of(old)
    if value is None or before is None or value == before:
        return False
    if is_negated(new) or once.search(new) or once.search(old) or is_negated(old):
        return False
    return holder(new) == holder(old) == "user"


# "at the moment", "right now", "currently": said of a shift pattern, what holds for weeks, not a passing moment.
_FOR_NOW = rx(r"\s*,?\s*\b(?:at\s+the\s+moment|right\s+now|currently|for\s+now|these\s+days|at\s+present)\b")


def as_shift_now(clauses: Sequence[str]) -> list[str]:
    """``clauses`` with a shift pattern told as held "at the moment" ("I'm on night shifts at the moment, 7pm to
    7am") as the pattern the user works ("I'm on night shifts, 7pm to 7am"): the rules read "at the moment" as a
    passing state and kept nothing. A clause of one shift ("covering a day shift right now") or of no shift as it is.

    >>> as_shift_now(["I'm on night shifts at the moment, 7pm to 7am"]), as_shift_now(["I'm in pain right now"])
    (["I'm on night shifts, 7pm to 7am"], ["I'm in pain right now"])
    """
    out = []
    for clause in clauses:
        first = clause.split(",", 1)[0]
        if shift_kind(first) is not None and not _ONCE.search(clause) and _FOR_NOW.search(first):
            clause = _FOR_NOW.sub("", clause, count=1)
        out.append(clause)
    return out
