"""Which "slot" of a user's life a fact fills (where they live, their job, diet...), and the English cues of a change.

A new fact that announces a change ("I moved to Porto", "I switched to tea", "I'm no longer
vegetarian") replaces the stored fact of the same slot. Pure: keyword rules, English only.
"""

from __future__ import annotations

import re
import unicodedata

from ..text import get_stemmer

__all__ = ["SLOTS", "content_words", "is_change", "is_negated", "slots_of"]

SLOTS: dict[str, re.Pattern[str]] = {
    "residence": re.compile(r"\b(?:live|lives|living|lived|moved|move|moving|relocated|reside|resides)\b"),
    "job": re.compile(
        r"\b(?:work|works|working|worked|job|employed|teach|teaches|teaching|barista|nurse|developer|engineer|"
        r"teacher|chef|pilot|vet|doctor|lawyer|accountant|designer|analyst|programmer|student|cashier|"
        r"manager|consultant|architect|scientist|electrician|plumber|waiter|waitress)\b"
    ),
    "diet": re.compile(r"\b(?:vegetarian|vegan|pescatarian|carnivore|meat|fish|eggs|dairy|cheese|diet|keto)\b"),
    "relationship": re.compile(
        r"\b(?:single|engaged|married|divorced|girlfriend|boyfriend|fianc[ée]e?|partner|broke\s+up|dating|"
        r"separated)\b"
    ),
    "smoking": re.compile(r"\b(?:smoke|smokes|smoking|smoked|smoker|cigarettes?|vape|vapes|vaping)\b"),
    "hot_drink": re.compile(r"\b(?:coffee|tea|espresso|decaf)\b"),
    "phone": re.compile(r"\b(?:iphone|android|phone|pixel|samsung)\b"),
    "car": re.compile(r"\b(?:drive|drives|driving|car|corolla|bike\s+to\s+work)\b"),
}
"""Slot name -> the words (casefolded text) that put a fact in it."""

_CHANGE = re.compile(
    r"\b(?:moved|relocated|switched|switching|changed|quit|no\s+longer|anymore|any\s+more|no\s+more|now|"
    r"became|got\s+(?:engaged|married|divorced)|broke\s+up|sold|started\s+(?:working|teaching)|"
    r"new\s+job|these\s+days|instead)\b"
)
_NEGATED = re.compile(r"\b(?:no\s+longer|not|never|no\s+more|anymore|any\s+more)\b|n't\b")
_FUNCTION = frozenset(
    """user i me my their they is are was were am be been the a an of in at on to for with by from as and or
    that this it its has have had do does did not no longer anymore more never now again since last month
    week year day today s t don doesn didn isn aren wasn""".split()
)


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")


def slots_of(text: str) -> frozenset[str]:
    """The slots ``text`` (a fact or a user message) speaks of (empty when none)."""
    folded = _fold(text)
    return frozenset(name for name, rx in SLOTS.items() if rx.search(folded))


def is_change(text: str) -> bool:
    """Whether ``text`` announces a change ("moved", "switched", "no longer", "now", "quit"...)."""
    return bool(_CHANGE.search(_fold(text)))


def is_negated(text: str) -> bool:
    """Whether ``text`` says something stopped or is not so ("no longer", "not", "n't", "anymore")."""
    return bool(_NEGATED.search(_fold(text)))


def content_words(text: str) -> frozenset[str]:
    """The stemmed content words of ``text`` (function words, "user" and negations left out)."""
    stem = get_stemmer("english")
    words = re.findall(r"\w+", _fold(text).replace("'", " "))
    return frozenset(stem(w) for w in words if w not in _FUNCTION)
