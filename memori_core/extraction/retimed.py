"""A clock time said again to correct the fact just told: "sorry, 7am" or "7am not 7pm" after "User's shift starts
at 7pm." -> "User's shift starts at 7am." (:func:`retimed`). Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..slots import holder
from .cues import is_negated
from .patterns import rx

__all__ = ["retimed", "times_corrected"]

_TIME = r"\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)"
# "sorry, 7am", "7am not 7pm", "oops I meant 7am", "*7am": nothing but the time meant (and the one it replaces).
_RETIMED = rx(
    r"^\W*(?:(?:sorry|oops|whoops|typo|correction|i\s+meant|i\s+mean|meant|make\s+that)\W*)*"
    rf"(?P<right>{_TIME})(?:\s*,?\s*not\s+(?P<wrong>{_TIME}))?[\s.!]*$"
)
_CLOCK = rx(rf"(?<![\w:.]){_TIME}\b")


def _parts(time: str) -> tuple[str, str]:
    """A clock time as its digits and its half of the day: "7:30 pm" -> ("7:30", "pm")."""
    folded = re.sub(r"\s+", "", time.lower()).replace(".", ":")
    return folded[:-2], folded[-2:]


def _replaced(m: re.Match[str]) -> str:
    """The time a correction replaces: the one it names as wrong, or, when it names none, the same hour in the
    other half of the day ("7pm" of "sorry, 7am")."""
    if m.group("wrong"):
        return m.group("wrong")
    digits, half = _parts(m.group("right"))
    return digits + ("pm" if half == "am" else "am")


def times_corrected(clause: str) -> list[str]:
    """The clock times ``clause`` may correct in a stored fact ("sorry, 7am" -> ``["7pm"]``; "7am not 7pm" ->
    ``["7pm"]``); ``[]`` when it is no time correction.

    >>> times_corrected("sorry, 7am"), times_corrected("I start at 7am")
    (['7pm'], [])
    """
    m = _RETIMED.match(clause.strip())
    return [] if m is None else [_replaced(m)]


def retimed(clause: str, known: Sequence[str]) -> tuple[str, str] | None:
    """``clause`` ("sorry, 7am", "7am not 7pm") as the stored fact of the user's it corrects, with the time meant
    in place of the wrong one, and the correction said plainly ("I meant 7am, not 7pm"): exactly one stored fact
    holds the wrong time (named, or the same hour in the other half of the day), and not the time meant already
    ("7am not 7pm" of "... 7am to 7pm" cannot say which); ``None`` otherwise.

    >>> retimed("sorry, 7am", ["User's shift starts at 7pm."])
    ("User's shift starts at 7am.", 'I meant 7am, not 7pm')
    >>> retimed("7am not 7pm", ["User is on day shifts, 7am to 7pm."]) is None
    True
    """
    m = _RETIMED.match(clause.strip())
    if m is None:
        return None
    right, replaced = m.group("right"), _parts(_replaced(m))
    held = []
    for text in known:
        if holder(text) != "user" or is_negated(text):
            continue
        times = _CLOCK.findall(text)
        wrong = [t for t in times if _parts(t) == replaced]
        if wrong:
            held.append((text, wrong, times))
    if len(held) != 1:
        return None
    text, wrong, times = held[0]
    if len(wrong) != 1 or any(_parts(t) == _parts(right) for t in times):
        return None
    at = _CLOCK.search(text, text.index(wrong[0]))
    return text[:at.start()] + right + text[at.end():], f"I meant {right}, not {wrong[0]}"
