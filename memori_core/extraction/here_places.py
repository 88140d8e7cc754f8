"""Where the user lives, told as "here" after the place was named in the same message.

"How do people in Tromsø cope with no sun? Got here in October for a postdoc", "I am working as mechanical
engineer in Nagoya. I am living here since 2019": the user lives where "here" points, the one place the message
named before it.
:func:`as_here_placed` adds "I live in <place>" after the sentence that says it.

Only the user's own "here" ("I'm living here", "got here in October", "I've been here six years"; not "people who
moved here"), only when exactly one place was named "in" before it, leaving out where someone else is ("my parents in
Lahore"), places of a trip ("to Lisbon", "from Berlin", a sentence of a holiday or a visit) and of the user's past
("I grew up in Texas"). Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..calendar_words import CALENDAR_NAMES
from .patterns import MY_PERSON_NAMED, PLACE_NAME, rx

__all__ = ["as_here_placed", "here_place"]

# The user's own "here": "I am living here", "I'm based here", "I've been here", "got here in October", "moved here".
_MY_HERE = rx(
    r"(?:^|[,.;!?]\s*|\b(?:and|but|so)\s+)(?:i(?:'m|\s+am|'ve\s+been|\s+have\s+been|\s+was)?\s+)?(?:just\s+)?"
    r"(?:living|working|based|settled|got|moved|came|arrived|been|live|work)\s+here\b"
)
# A place a sentence is in: "in Tromsø" (not "from X": a trip's start or where the user grew up; nor "to X": a
# trip's end is no home).
_PLACE = re.compile(rf"\b[Ii]n\s+(?P<place>{PLACE_NAME})")
# A sentence of a trip, a visit or the user's past names no place they live: "We went on holiday in Croatia.", "I
# grew up in Texas.", "Flying to a gig in Berlin tomorrow." (rev39a).
_ELSEWHERE = rx(r"\b(?:born|grew\s+up|raised|holidays?|vacation|trip|flying|flew|fly|visit(?:ed|ing)?|tomorrow|"
                r"used\s+to|went)\b")
# Someone else's place: "my parents in Lahore", "my sister from Leeds", "my parents live in Lahore".
_THEIRS = rx(rf"\b{MY_PERSON_NAMED}\s+"
             r"(?:(?:still\s+)?(?:lives?|living|is|are|stays?|staying|works?|working|based)\s+)?$")
_NOT_A_PLACE = frozenset((*CALENDAR_NAMES, "I", "My", "The", "English", "Spanish", "French", "German"))
_NEGATED = rx(r"\b(?:not|never|n't)\b[^,.;!?]*\bhere\b")


def _sentence_at(text: str, at: int) -> str:
    """The sentence of ``text`` that holds position ``at``."""
    start = max(text.rfind(stop, 0, at) for stop in ".!?") + 1
    ends = [n for n in (text.find(stop, at) for stop in ".!?") if n >= 0]
    return text[start: min(ends) if ends else len(text)]


def here_place(before: str, sentence: str) -> str | None:
    """The place the user's own "here" in ``sentence`` points to: the one place ``before`` (the message up to the
    end of ``sentence``'s "here") names that is not someone else's; ``None`` when none, or more than one.

    >>> here_place("How do people in Tromsø cope with no sun?", "Got here in October for a postdoc.")
    'Tromsø'
    >>> here_place("We went on holiday in Croatia.", "I came here to relax after.") is None
    True
    """
    m = _MY_HERE.search(sentence)
    if m is None or _NEGATED.search(sentence[: m.end()]):
        return None
    text = f"{before} {sentence[: m.start()]}"
    places = []
    for p in _PLACE.finditer(text):
        place = p.group("place")
        if place.split()[0] in _NOT_A_PLACE or _THEIRS.search(text[: p.start()]) \
                or _ELSEWHERE.search(_sentence_at(text, p.start())):
            continue
        if place not in places:
            places.append(place)
    return places[0] if len(places) == 1 else None


def as_here_placed(sentences: Sequence[str]) -> list[str]:
    """``sentences`` (one message's) with "I live in <place>" after the one whose "here" points to a place the
    message named before it (:func:`here_place`); the message as it was otherwise."""
    out: list[str] = []
    done = False
    for n, sentence in enumerate(sentences):
        out.append(sentence)
        if done:
            continue
        place = here_place(" ".join(sentences[:n]), sentence)
        if place is not None:
            out.append(f"I live in {place}")
            done = True
    return out
