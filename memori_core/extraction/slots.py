"""Which "slot" of a user's life a fact fills (where they live, their job, diet...), and the English cues of a change.

A new fact that announces a change ("I moved to Porto", "I switched to tea", "I'm no longer
vegetarian") replaces the stored fact of the same slot. Pure: keyword rules, English only.
"""

from __future__ import annotations

import re

from ..slots import SLOTS, holder, slots_of
from ..slots import fold as _fold
from ..text import get_stemmer

__all__ = ["SLOTS", "content_words", "holder", "is_change", "is_ended", "is_negated", "slots_of"]

_CHANGE = re.compile(
    r"\b(?:moved|relocated|switched|switching|changed|quit|no\s+longer|anymore|any\s+more|no\s+more|now|"
    r"became|got\s+(?:engaged|married|divorced|separated|together)|broke\s+up|split\s+up|separated|"
    r"(?:are|'re)\s+(?:over|through)|ended\s+(?:it|things)|started\s+(?:dating|seeing)|sold|"
    r"started\s+(?:working|teaching|eating|drinking)|new\s+job|these\s+days|nowadays|instead|"
    r"(?:got|was|been|just\s+got)\s+(?:hired|laid\s+off|fired|promoted)|lost\s+(?:my|our|the)\s+job|"
    r"retired|resigned|left\s+(?:my|the|our)\s+(?:job|company|position|firm)|"
    r"(?:got|took|landed|accepted|started)\s+(?:a|the|my)\s+(?:new\s+)?(?:job|position|role)|"
    r"went\s+(?:vegan|vegetarian|pescatarian|keto)|gave\s+up|stopped|took\s+up)\b"
)
# Something is over. "used to" is not a change cue (_CHANGE): said of the past, it ends the stored fact
# holding its words but no other fact of the slot ("I used to live in Lisbon" ends "lives in Lisbon", not
# "lives in Porto").
_ENDED = re.compile(r"\b(?:used\s+to|no\s+longer|anymore|any\s+more|no\s+more|quit|stopped|gave\s+up)\b")
_NEGATED = re.compile(r"\b(?:no\s+longer|not|never|no\s+more|anymore|any\s+more|used\s+to)\b|n't\b")
_FUNCTION = frozenset(
    """user i me my their they is are was were am be been the a an of in at on to for with by from as and or
    that this it its has have had do does did not no longer anymore more never now again since last month
    week year day today s t don doesn didn isn aren wasn""".split()
)


def is_change(text: str) -> bool:
    """Whether ``text`` announces a change ("moved", "switched", "no longer", "now", "quit"...)."""
    return bool(_CHANGE.search(_fold(text)))


def is_negated(text: str) -> bool:
    """Whether ``text`` says something stopped or is not so ("no longer", "not", "n't", "anymore")."""
    return bool(_NEGATED.search(_fold(text)))


def is_ended(text: str) -> bool:
    """Whether ``text`` says something is over ("used to", "no longer", "stopped", "gave up", "quit")."""
    return bool(_ENDED.search(_fold(text)))


def content_words(text: str) -> frozenset[str]:
    """The stemmed content words of ``text`` (function words, "user" and negations left out)."""
    stem = get_stemmer("english")
    words = re.findall(r"\w+", _fold(text).replace("'", " "))
    return frozenset(stem(w) for w in words if w not in _FUNCTION)
