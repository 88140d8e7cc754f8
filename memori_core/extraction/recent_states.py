"""A state begun a few days ago and told as still going on: "my dog has been scratching his ears since Sunday",
"my sister's been in hospital since saturday", "I've been coughing since yesterday". It is news of the week, not a
lasting fact: :func:`recent_state` tells it, and capture drops it. A slot of the user's life ("I've been working at
Google since Monday"), care ("... taking metformin since Monday") or a habit ("running every morning") is kept.
Pure: patterns, English only.
"""

from __future__ import annotations

from ..ranking.care import is_care_fact
from .cues import is_change
from .dates import WEEKDAY
from .patterns import rx
from .slots import slots_of

__all__ = ["recent_state"]

# "since Sunday", "since last Friday", "since yesterday", "since the weekend": a start a few days back at most.
_SINCE_LATELY = rx(
    rf"\bsince\s+(?:(?:last\s+)?{WEEKDAY}|yesterday|last\s+night|this\s+morning|the\s+weekend|the\s+other\s+day)\b"
)
# "has been scratching", "'s been in hospital", "have been off sick": going on since then.
_GOING_ON = rx(
    r"\b(?:has|have|'s|'ve)\s+been\s+(?:[a-z]+ing\b|in\s+(?:the\s+)?(?:hospital|bed|a\s+cast)\b|"
    r"(?:sick|ill|unwell|poorly|off\s+(?:work|sick|school))\b)"
)
_HABIT = rx(r"\b(?:every|each|daily|weekly)\b")
# A pet's passing trouble keeps no slot of the user's: the pet is told elsewhere or not at all.
_PASSING_SLOTS = frozenset({"pets"})


def recent_state(body: str) -> bool:
    """Whether ``body`` tells a state going on since a day or so ago ("my dog has been scratching his ears since
    Sunday"), that is no change, care fact, habit or slot of the user's life."""
    return bool(_SINCE_LATELY.search(body) and _GOING_ON.search(body)) and not (
        _HABIT.search(body) or is_change(body) or is_care_fact(body) or slots_of(body) - _PASSING_SLOTS)
