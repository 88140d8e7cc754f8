"""A correction of what was said or stored ("I live in Porto, not Lisbon", "amoxicillin not penicillin") and a
denial of a stored fact ("User is not vegan." of "User is vegan."). Pure: keyword rules, English only.
"""

from __future__ import annotations

import re

from ..slots import fold as _fold
from ..slots import holder
from .cues import content_words, is_negated

__all__ = [
    "bare_correction",
    "corrected_words",
    "denies",
    "without_correction",
]

# "I live in Porto, not Lisbon", "I meant Porto not Lisbon": what the user says was wrong, after what is right.
_CORRECTED = re.compile(
    r"(?:,|\b(?:meant|it's|its|it\s+is|it\s+was|make\s+that)\b.*?)\s+not\s+(?!(?:far|only|just|yet|always|too|so|very|much|bad|sure|really|quite|that|"
    r"exactly|anymore|any|for|because|since|though|ever|even|counting|including)\b)"
    r"(?P<wrong>(?:(?:in|at|a|an|the|as|to)\s+)?[\w'-]+(?:\s+[\w'-]+){0,2}?)\s*[.!]*$"
)


def corrected_words(text: str) -> frozenset[str]:
    """The stemmed content words of what ``text`` corrects ("I live in Porto, not Lisbon" -> ``{"lisbon"}``,
    "I meant Porto, not Lisbon" and "its march 3rd not may" too); empty when it corrects nothing."""
    m = _CORRECTED.search(_fold(text).strip())
    return content_words(m.group("wrong")) if m is not None else frozenset()


def without_correction(fact: str) -> str:
    """``fact`` without the ", not ..." that corrects a stored fact ("User lives in Porto, not Lisbon." -> "User
    lives in Porto."): what holds is the fact; the correction ends the stored one it names."""
    m = _CORRECTED.search(fact.rstrip()) if fact.count(",") else None
    if m is None or not m.group(0).startswith(","):
        return fact
    return fact[: m.start()].rstrip() + "."


# "User is allergic to amoxicillin not penicillin.": a correction typed without its comma, the wrong words last (not
# after an auxiliary or a verb it negates: "User does not eat pork.", "User has decided not to drink.").
_BARE_CORRECTED = re.compile(
    r"(?<=[\w')])\s+not\s+(?!(?:to|far|only|just|yet|always|too|so|very|much|bad|sure|really|quite|that|exactly|"
    r"anymore|any|for|because|since|though|ever|even|counting|including|a\s+lot|at\s+all)\b)"
    r"(?P<wrong>(?:(?:in|at|a|an|the|as)\s+)?[\w'-]+(?:\s+[\w'-]+){0,2}?)\s*[.!]*$",
    re.IGNORECASE,
)
_NEGATED_VERB = re.compile(
    r"\b(?:is|am|are|was|were|be|been|do|does|did|has|have|had|can|could|will|would|should|must|may|might|shall|"
    r"but|and|or|if|why|whether|still|just|also|decided|chose|prefers?|tries|tried|promised|agreed|learned|"
    r"learnt|hopes?|wants?|plans?|asked|told|[a-z]+ing|\w+'(?:m|re|s|ve|d|ll))$",
    re.IGNORECASE,
)


def bare_correction(fact: str) -> tuple[str, frozenset[str]] | None:
    """``(fact without it, the stemmed wrong words)`` when ``fact`` ends in a correction typed without its comma
    ("User is allergic to amoxicillin not penicillin." -> ``("User is allergic to amoxicillin.", {"penicillin"})``);
    ``None`` otherwise, and when the "not" denies a verb ("User does not eat pork.", "User has decided not to
    drink."). Whether it corrects anything is for the stored facts to say: the caller keeps it only when one of
    them holds the wrong words."""
    m = _BARE_CORRECTED.search(fact.rstrip())
    if m is None or _NEGATED_VERB.search(fact[: m.start()].rstrip()):
        return None
    wrong = content_words(m.group("wrong"))
    head = fact[: m.start()].rstrip(" ,")
    if not wrong or not content_words(head) - content_words("User") or wrong & content_words(head):
        return None
    return head + ".", wrong


# The name a fact gives what it speaks of ("User has a cat named Mochi."): a detail a denial of the thing needn't say.
_GIVEN_NAME = re.compile(r"\b(?:called|named)\s+[A-Z][\w-]*|\b[A-Z][a-z\u00e0-\u00ff]+\b")


def denies(new: str, old: str) -> bool:
    """Whether the negated ``new`` denies the stored ``old`` of the same person ("User is not vegan." denies
    "User is vegan."; "User doesn't have a cat anymore." denies "User has a cat named Mochi."): ``old`` is not
    negated itself, ``new`` speaks of nothing ``old`` does not, and says all ``old`` says but the name it gives.
    A denial of a part only ("User doesn't work on Fridays." of "User works on Fridays at the bakery.") is none.

    >>> denies("User is not allergic to peanuts.", "User is allergic to peanuts."), denies(
    ...     "User's sister is not vegan.", "User is vegan.")
    (True, False)
    """
    if not is_negated(new) or is_negated(old) or holder(new) != holder(old):
        return False
    words, said = content_words(new), content_words(old)
    whole = content_words(_GIVEN_NAME.sub(" ", old.split(None, 1)[-1]))  # the first word is the holder
    return bool(words) and words <= said and whole <= words
