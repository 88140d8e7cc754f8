"""How the extraction rules write their patterns: case-insensitive regular expressions, word lists longest first."""

from __future__ import annotations

import re

from ..slots import PERSON

__all__ = ["CAPITAL_WORD", "I_AM", "I_OR_WE_ARE", "MY_PERSON", "MY_PERSON_NAMED", "OWN_WORDS", "PARTNER_WORD", "PLACE_NAME",
           "USER_OR_THEIRS", "rx", "words"]

PLACE_NAME = r"(?-i:[A-Z])[\w'\u00c0-\u00ff-]+(?:\s+(?-i:[A-Z])[\w'\u00c0-\u00ff-]+){0,2}"
"""A place as a sentence names it, capitalised whatever the case of the rest: "Lisbon", "New York", "São Paulo"."""
CAPITAL_WORD = r"(?-i:[A-Z])[\w\u00c0-\u017f'-]+"
"""A word written with its capital, as a name is, whatever the case the rest of the pattern reads: "Lisbon", "Zoë",
"O'Brien"."""
I_AM = r"(?:i'm|i\s+am|im)"
"""The user saying "I am" as chat types it: "I'm", "I am", "im"."""
I_OR_WE_ARE = r"(?:i'm|i\s+am|im|we're|we\s+are)"
""":data:`I_AM`, or the household's "we're" / "we are"."""
OWN_WORDS = r"(?:i|i'm|im|i've|i'd|my|we|we're|we've|our)"
"""The words a clause of the user's own opens with, as chat types them: "I", "I'm", "im", "my", "we", "our" ...
Followed by ``\b`` as every rule reads it, "i" and "we" also take in "i'll", "we'd" and the like; a rule adds what
else it counts as the user's ("me", "ive", "mine")."""
MY_PERSON = rf"(?:my|our)\s+(?:[\w-]+\s+)?(?:{PERSON})"
"""One of the user's people as chat names them, with at most one word before the kin word: "my sister", "our little
boy", "my best friend"."""
MY_PERSON_NAMED = rf"{MY_PERSON}(?:\s+(?-i:[A-Z])[\w-]+)?"
""":data:`MY_PERSON`, and their name when it follows: "my husband Tom", "our daughter Maya"."""
PARTNER_WORD = r"(?:wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|spouse)"
"""The word for the user's partner, as a stored fact or a sentence names them: "wife", "boyfriend", "fiancée"."""
USER_OR_THEIRS = r"User(?:'s\s+[\w' -]+?)?"
"""The subject of a stored fact: the user, or one of theirs told by the user's: "User", "User's son Eli"."""


def rx(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled case-insensitive, as every English rule reads a sentence."""
    return re.compile(pattern, re.IGNORECASE)


def words(*items: str) -> str:
    """An alternation of words/phrases, longest first (spaces match any run of spaces)."""
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(items, key=len, reverse=True))
