"""A user message cut into sentences, the unit the rule-based extractor judges."""

from __future__ import annotations

import re

__all__ = ["split_sentences"]

_ABBREVIATIONS = re.compile(
    r"(?:\b(?:mr|mrs|ms|dr|prof|st|jr|sr|vs|etc|approx|e\.g|i\.e)|(?-i:\b[A-Z]))\.$", re.IGNORECASE
)
_SENTENCE_END = re.compile(r"(?<=[.!?\u2026])[\"')\]]*\s+|\n+")


def split_sentences(text: str) -> list[str]:
    """``text`` cut into sentences (at ``. ! ?`` followed by a space, and at line breaks; "Dr. X" stays whole)."""
    pieces = [p.strip() for p in _SENTENCE_END.split(text.strip())]
    out: list[str] = []
    for piece in pieces:
        if not piece:
            continue
        if out and _ABBREVIATIONS.search(out[-1]) and not out[-1].endswith(("?", "!")):
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out
