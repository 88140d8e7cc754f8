"""A fact with no verb of its own: "User's two grandchildren.", "Their wife and their two grandchildren, who User
adores.", "User's two lovely boys, who keep the user busy." A noun phrase, at most with a clause about it, tells
nothing memory can hold (:func:`is_fragment`); the rules drop it. So does what someone said of a bare "it" ("User's
doctor said it was triggering flares."): on its own, the fact never says what "it" is. Pure: patterns, English only.
"""

from __future__ import annotations

import re

from .grammar import is_verb_form
from .patterns import rx

__all__ = ["is_fragment"]

# A noun phrase of someone's, then a clause about it to the end: "User's two grandchildren, who User adores."
_ABOUT_IT = rx(
    r"^(?P<phrase>(?:User's|Their|His|Her)\s+[^,]+?)\s*,\s*(?:who|whom|whose|which|that)\b[^,]*[.!]*$"
)
# A count of someone's and nothing else: "User's two grandchildren.", "Their three kids."
_COUNTED = rx(
    r"^(?P<phrase>(?:User's|Their)\s+(?:two|three|four|five|six|seven|eight|nine|ten|\d+|both|lovely|little|"
    r"beautiful|wonderful)\s+(?:[\w'-]+\s+){0,2}[\w'-]+)\s*[.!]*$"
)

# A preposition and a noun phrase of the user's, nothing else: "For User's engagement.", "With User's sister."
_ONLY_A_PREPOSITION = rx(r"^(?:for|to|with|about|from|after|before)\s+User's\s+(?:[\w'-]+\s+){0,2}[\w'-]+\s*[.!]*$")

# What someone said of "it", "that" or "this", with no more of what it is: "User's doctor said it was triggering
# flares." (not "User's doctor said it is asthma.", which the rules read as the diagnosis before this).
_SAID_OF_IT = rx(
    r"^User's\s+(?:[\w'-]+\s+){1,2}?(?:said|says|thinks|thought|reckons|told\s+the\s+user)\s+(?:that\s+)?"
    r"(?:it|that|this)\s+(?:was|is|were|had|has|might|could|would|will|may|'s)\b"
)


def _has_verb(phrase: str) -> bool:
    """Whether a word of ``phrase`` (its holder left out) is a verb form the rules know, or reads as one ("-ing")."""
    words = re.findall(r"[\w'-]+", phrase)[1:]
    return any(is_verb_form(w) or w.lower().endswith("ing") for w in words)


def is_fragment(fact: str) -> bool:
    """Whether ``fact`` is only a noun phrase of someone's, with at most a clause about it: no statement.

    >>> is_fragment("User's two grandchildren."), is_fragment("Their wife and their two grandchildren, who User adores.")
    (True, True)
    >>> is_fragment("User has two grandchildren."), is_fragment("User's two grandchildren live nearby.")
    (False, False)
    >>> is_fragment("User's sister, who lives in Leeds, is a nurse."), is_fragment("For User's engagement.")
    (False, True)
    """
    said = fact.strip()
    if _SAID_OF_IT.match(said):  # "User's doctor said it was triggering flares.": what "it" is, never said
        return True
    if _ONLY_A_PREPOSITION.match(said):  # "For User's engagement.": what a sentence was for, with no sentence
        return True
    m = _ABOUT_IT.match(said) or _COUNTED.match(said)
    return m is not None and not _has_verb(m.group("phrase"))
