"""A fact whose subject does not come first: what the user said before the statement was kept in front of it ("About
that, User was diagnosed coeliac in the autumn.", "These days User is on nicotine gum instead.", "New surname, User
took their wife's name when they married.").

A careful note-taker starts the note with whom it is about. :func:`without_opener` cuts what stands before "User" when
it is a discourse lead ("about that,", "these days", "ha", "so", "new surname,"). Any other phrase before the subject is
content the statement depends on ("Since User is fully remote, ...", "Except for fish, ...") and is left. Pure: one
pattern, English only (issue 21, capprec6: read from dev18's stored facts; dev8, dev9, dev12 and dev16 have the same
shape).
"""

from __future__ import annotations

import re

from ..validate import check_str

__all__ = ["without_opener"]

# Only a discourse lead is cut ("About that,", "Anyway,", "These days", "New surname,", "No more rugby for them,").
# Every other phrase before the subject is content the statement depends on, kept: a clause ("Since User is fully
# remote, ..."), a time or a frequency ("Years ago,", "Twice a week,", "Most weekends,"), a place, a reason ("Due to
# their allergy,"), or an exception that changes the meaning ("Except for fish, User doesn't eat meat.", "Without
# their inhaler, ...", "Other than their knee, ...", "Unlike their sister, ...") (rev39a).
_LEAD = (r"(?:about\s+that|anyway|ha+|haha|lol|so|oh|ok|okay|well|honestly|tbh|btw|fyi|and|but|also|plus|"
         r"confession|fun\s+fact|(?:quick\s+|small\s+)?update|side\s+note|full\s+disclosure|heads\s+up|"
         r"for\s+the\s+record|to\s+be\s+(?:fair|honest)|frankly|admittedly|"
         r"these\s+days|nowadays|new\s+[\w-]+|no\s+more\s+[\w-]+(?:\s+[\w-]+)?\s+for\s+(?:User|them))")
_OPENER = re.compile(rf"^{_LEAD}(?:,|\s+-|\s*!)?\s+(?=User\b)", re.IGNORECASE)


def without_opener(fact: str) -> str:
    """``fact`` from its subject "User" on, when only a lead stands before it; else ``fact`` as it is.

    >>> without_opener("About that, User was diagnosed coeliac in the autumn.")
    'User was diagnosed coeliac in the autumn.'
    >>> without_opener("These days User is on nicotine gum instead.")
    'User is on nicotine gum instead.'
    >>> without_opener("Since User is fully remote they never leave the flat.")
    'Since User is fully remote they never leave the flat.'
    >>> without_opener("In the week of Monday 2025-12-29, User moved to Porto.")
    'In the week of Monday 2025-12-29, User moved to Porto.'
    >>> without_opener("Except for fish, User doesn't eat meat.")
    "Except for fish, User doesn't eat meat."
    >>> without_opener("User's wife, her rabbit Clover.")
    "User's wife, her rabbit Clover."
    """
    check_str(fact, "fact")
    if fact.startswith("User"):
        return fact
    m = _OPENER.match(fact)
    return fact[m.end():] if m is not None else fact
