"""A fact whose subject does not come first: what the user said before the statement was kept in front of it
("About that, User was diagnosed coeliac in the autumn.", "These days User is on nicotine gum instead.", "New
surname, User took their wife's name when they married.").

A careful note-taker starts the note with whom it is about. :func:`without_opener` cuts what stands before "User"
when it is a lead: a phrase of its own before a comma, or a discourse word ("these days", "ha", "so"). A clause that
the statement depends on ("Since User is fully remote, ...", "If User ...") is no lead and is left. Pure: one
pattern, English only (issue 21, capprec6: read from dev18's stored facts; dev8, dev9, dev12 and dev16 have the
same shape).
"""

from __future__ import annotations

import re

__all__ = ["without_opener"]

# A clause the rest depends on is no lead: "Since User is fully remote they never leave the flat"; nor a time, a
# place or a reason said before the subject, which is content: "In the week of Monday 2025-12-29, User moved to
# Porto.", "Due to their allergy, User avoids nuts.".
_SUBORDINATE = (r"(?:since|because|as|if|when|whenever|while|although|though|unless|until|till|after|before|once|"
                r"so\s+that|in|on|at|by|during|from|over|for|with|within|last|this|next|every|each|back|ago|due|owing|"
                r"thanks|despite|given|\d)")
_OPENER = re.compile(
    rf"^(?!{_SUBORDINATE}\b)(?:(?P<phrase>[^,;:]{{1,48}}),|(?P<word>these\s+days|nowadays|ha|haha|lol|so|and|but|"
    rf"anyway|also|plus|honestly|tbh|oh|well))\s+(?=User\b)",
    re.IGNORECASE,
)


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
    >>> without_opener("User's wife, her rabbit Clover.")
    "User's wife, her rabbit Clover."
    """
    if not isinstance(fact, str):
        raise TypeError(f"fact must be a str, not {type(fact).__name__}")
    if fact.startswith("User"):
        return fact
    m = _OPENER.match(fact)
    return fact[m.end():] if m is not None else fact
