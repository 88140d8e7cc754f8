"""How the extraction rules write their patterns: case-insensitive regular expressions, word lists longest first."""

from __future__ import annotations

import re

__all__ = ["rx", "words"]


def rx(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled case-insensitive, as every English rule reads a sentence."""
    return re.compile(pattern, re.IGNORECASE)


def words(*items: str) -> str:
    """An alternation of words/phrases, longest first (spaces match any run of spaces)."""
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(items, key=len, reverse=True))
