"""Where a relationship stands ("single", "dating", "engaged", "married", "divorced", "widowed") and whether a
sentence says so at all, not only that a partner exists. Pure: keyword rules, English only.
"""

from __future__ import annotations

import re

from ..slots import SEEING_NAME
from ..slots import fold as _fold
from .cues import is_negated

__all__ = [
    "ENDED_STAGES",
    "PARTNERED",
    "another_stage",
    "is_relationship_status",
    "relationship_stage",
]

# Where a relationship stands; the bare partner words ("wife", "boyfriend") only say one exists.
_REL_STATUS = re.compile(
    r"\b(?:single|engaged|engagement|married|marriage|divorced?|divorcing|fianc[ée]e?|broke\s+up|breaking\s+up|"
    r"dating|separated|separating|split\s+up|splitting\s+up|widowed|widow|widower|ex|ex-\w+|relationship|"
    r"tied\s+the\s+knot|seeing\s+(?:someone|somebody|each\s+other|a\s+(?:guy|girl|man|woman|boy|lady))|"
    r"moved\s+in\s+(?:together|with)|moving\s+in\s+(?:together|with)|left\s+me|dumped\s+me|"
    r"(?:not|no\s+longer)\s+together|back\s+together|"
    r"ended\s+(?:it|things)|(?:are|'re)\s+(?:over|through)|called\s+it\s+(?:quits|off)|broke\s+it\s+off|"
    r"parted\s+ways|separate\s+ways|met\s+(?:someone|somebody)|"
    r"new\s+(?:boyfriend|girlfriend|partner|husband|wife|fianc[ée]e?))\b"
)
PARTNERED = "partnered"
"""The stage of "User's partner is Sam.": together, no more said."""
# The stages of a relationship, the first found wins ("User and their wife divorced" is "divorced").
_STAGES = (
    ("widowed", re.compile(r"\b(?:widowed|widow|widower)\b")),
    ("divorced", re.compile(r"\b(?:divorced?|divorcing|separated|separating)\b")),
    ("single", re.compile(r"\b(?:single|broke\s+up|split\s+up|called\s+it\s+(?:quits|off)|broke\s+it\s+off|"
                          r"parted\s+ways|dumped)\b")),
    ("engaged", re.compile(r"\b(?:engaged|fianc[ée]e?)\b")),
    ("married", re.compile(r"\b(?:married|wife|husband|spouse|tied\s+the\s+knot)\b")),
    ("dating", re.compile(r"\b(?:dating|girlfriend|boyfriend|back\s+together|(?:have|has|'ve)\s+been\s+together|"
                          r"seeing\s+(?:someone|somebody|each\s+other|"
                          r"a\s+(?:guy|girl|man|woman|boy|lady))|in\s+a\s+relationship|met\s+(?:someone|somebody))\b")),
    # "User's partner is Sam.", "User has a partner named Sam.": together, at a stage the word leaves open (a
    # partner may be a girlfriend, a fiancée or a spouse); not a business or tennis partner, nor what is told of the
    # partner ("User's partner Marco is a chef.", "... Marco's birthday is ...")
    (PARTNERED, re.compile(r"\b(?:user's|my|their|our|ha(?:s|ve)\s+a)\s+(?:partner|other\s+half|significant\s+other)"
                           r"(?:\s+is\s+[\w-]+|'s\s+name\s+is\s+[\w-]+|,?\s+(?:named|called)\s+[\w-]+)?\s*[.!]?\s*$")),
)
ENDED_STAGES = frozenset({"single", "divorced", "widowed"})
"""Where a relationship ends: every fact told of it ends with it."""
# A wedding still to come: "I'm getting married next summer", "we'll be married in June". Who says so is engaged now.
_WEDDING_TO_COME = re.compile(r"\b(?:getting|get|will\s+be|'ll\s+be|to\s+be)\s+married\b")
# A stage said of the past: "I was married before", "used to be engaged".
_PAST_STAGE = re.compile(r"\b(?:was|were|used\s+to\s+be|previously|before|first|ex|ex-\w+|late)\b")


def relationship_stage(text: str) -> str | None:
    """The stage of a relationship ``text`` states ("single", "dating", "engaged", "married", "divorced",
    "widowed"), or ``None`` when it states none, or only in the past or negated ("I was married before", "I've
    never been married"). A wedding to come is the engagement it says holds now ("I'm getting married in June").
    """
    folded = _fold(text)
    if is_negated(text) or _PAST_STAGE.search(folded):
        return None
    if _WEDDING_TO_COME.search(folded):
        return "engaged"
    found = [stage for stage, rx in _STAGES if rx.search(folded)]
    return found[0] if found else (("dating" if SEEING_NAME.search(text) else None))


def another_stage(stage: str | None, before: str | None) -> bool:
    """Whether ``stage`` is a change from the stage ``before`` (both from :func:`relationship_stage`): they differ, and
    it is not :data:`PARTNERED` beside a stage of being together ("My partner is a teacher." after "User is married
    to Dev."), which it may be.

    >>> another_stage("single", "partnered"), another_stage("partnered", "married"), another_stage("engaged", "dating")
    (True, False, True)
    """
    if stage is None or before is None or stage == before:
        return False
    return PARTNERED not in (stage, before) or bool({stage, before} & ENDED_STAGES)


def is_relationship_status(text: str) -> bool:
    """Whether ``text`` says where a relationship stands ("married", "single", "broke up", "engaged", "seeing
    someone", "moved in with", "a new girlfriend", "left me"), not only that a partner exists ("my wife and
    I moved to Berlin" does not): a change of the relationship slot needs one of these."""
    folded = _fold(text)
    return bool(_REL_STATUS.search(folded) or SEEING_NAME.search(text))
