"""Items of a list the user labels as about themselves ("About me: 34, software tester, Tallinn, two cats", "quick
bio: Henrik, 41, arborist, Bergen, two teenagers") that :mod:`.lists` kept as they were: the name that opens it, a
place named alone, teenagers counted.

Under such a label every item is the user's, so a capitalised place alone is where they live and a capitalised word
first, before an age, is their name. Without the label none of this holds ("Bergen, two days, rain" is a trip).
:func:`bio_statement` reads one item. Pure: patterns, English only.
"""

from __future__ import annotations

import re
from ..calendar_words import CALENDAR_NAMES
from ..number_words import number_words


__all__ = ["ABOUT_ME_WHY", "bio_statement"]

ABOUT_ME_WHY = r"(?:\s+(?:so\s+you\s+know\s+who\s+(?:you(?:'re|\s+are)\s+talking\s+to|i\s+am)|for\s+context))?"
"""What may follow the label ("quick bio so you know who you're talking to:"), read by :mod:`.lists`."""
_NAME = re.compile(r"^[A-Z][a-z\u00e0-\u00ff'-]+(?:\s+[A-Z][a-z\u00e0-\u00ff'-]+)?$")
_AGE = re.compile(r"^\d{1,2}(?:\s+years\s+old)?$")
# A place named alone: one to three capitalised words ("Bergen", "Cape Town", "Stoke on Trent" is left out).
_PLACE = re.compile(r"^[A-Z][a-z\u00e0-\u00ff'-]+(?:\s+[A-Z][a-z\u00e0-\u00ff'-]+){0,2}$")
# A nationality, a faith or a sign told alone is no place ("British", "Danish", "Catholic", "Pakistani", "Dutch").
_NOT_A_PLACE = re.compile(r"(?:ish|ese|ian|an|i|ch|ic|ew|ist|ese|ox)$")
_NOT_PLACES = frozenset((*CALENDAR_NAMES, "single", "married",
                         "vegan", "vegetarian", "leo", "virgo", "libra", "aries", "taurus", "gemini", "cancer",
                         "scorpio", "sagittarius", "capricorn", "aquarius", "pisces", "retired", "divorced", "widowed"))
_TEENS = re.compile(rf"^(?P<n>{number_words('five')}|\d)\s+(?:teens|teenagers)$", re.IGNORECASE)


def bio_statement(item: str, *, first: bool, next_item: str | None) -> str | None:
    """One ``item`` of a list labelled as the user's as the statement it stands for: the name (``first``, before an
    age), a place ("Bergen" -> "I live in Bergen"), teenagers ("two teenagers" -> "I have two teenage children");
    ``None`` when it is none of these.

    >>> bio_statement("Henrik", first=True, next_item="41"), bio_statement("Bergen", first=False, next_item=None)
    ('My name is Henrik', 'I live in Bergen')
    >>> bio_statement("British", first=False, next_item=None) is None
    True
    """
    text = item.strip()
    if first and _NAME.match(text) and next_item is not None and _AGE.match(next_item.strip()):
        return f"My name is {text}"
    teens = _TEENS.match(text)
    if teens is not None:
        return f"I have {teens.group('n')} teenage children"
    if not first and _PLACE.match(text) and text.split()[0].lower() not in _NOT_PLACES \
            and not _NOT_A_PLACE.search(text.split()[-1].lower()):
        return f"I live in {text}"
    return None
