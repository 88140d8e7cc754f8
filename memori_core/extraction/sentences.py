"""A user message cut into sentences, the unit the rule-based extractor judges."""

from __future__ import annotations

import re

from ..number_words import number_words
from ..calendar_words import MONTH_STARTS, WEEKDAY_STARTS

__all__ = ["split_sentences"]

_ABBREVIATIONS = re.compile(
    r"(?:\b(?:mr|mrs|ms|dr|prof|st|jr|sr|vs|etc|approx|e\.g|i\.e)|(?-i:\b[A-Z]))\.$", re.IGNORECASE
)
_SENTENCE_END = re.compile(r"(?<=[.!?\u2026])[\"')\]]*\s+|\n+")
# A pause typed as an ellipsis before when or where the sentence goes on: "We're moving to Oadby... on January 15".
_TRAILING_PAUSE = re.compile(r"\s*(?:\.{2,}|\u2026)$")
_WHEN = (rf"(?:{MONTH_STARTS}|{WEEKDAY_STARTS})[a-z]*|the\s+\d|\d|"
         rf"(?:a|{number_words('four')}|a\s+few|a\s+couple\s+of)\s+(?:days?|weeks?|months?)|"
         r"(?:week|month|year|spring|summer|autumn|fall|winter|weekend|christmas|easter)\b")
_GOES_ON = re.compile(rf"(?:on|in|by|next|this|from|until|till|after)\s+(?i:(?:the\s+)?(?:{_WHEN}))")


def split_sentences(text: str) -> list[str]:
    """``text`` cut into sentences (at ``. ! ?`` followed by a space, and at line breaks; "Dr. X" stays whole; a pause typed as
    "..." before when, in lower case ("... on January 15", "... next week"), goes on with the sentence)."""
    pieces = [p.strip() for p in _SENTENCE_END.split(text.strip())]
    out: list[str] = []
    for piece in pieces:
        if not piece:
            continue
        if out and _ABBREVIATIONS.search(out[-1]) and not out[-1].endswith(("?", "!")):
            out[-1] = f"{out[-1]} {piece}"
        elif out and _TRAILING_PAUSE.search(out[-1]) and _GOES_ON.match(piece):
            out[-1] = f"{_TRAILING_PAUSE.sub('', out[-1])} {piece}"
        else:
            out.append(piece)
    return out
