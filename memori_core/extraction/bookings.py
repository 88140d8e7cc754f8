"""A booking told with its day, as the plan it is: "I booked a flight to Rome on the 4th" -> "I have a flight to Rome
on the 4th", "I've got the dentist on 12 March" -> "I have a dentist appointment on 12 March". Read as said, the
first was dropped as a passing act and the second kept for good ("User has got the dentist on 12 March."); as a plan
with its day the rules write the day out and let it expire when the day is over. A booking with no day ("I booked
a flight to Rome") is left as it is. A trip told in the present tense with its day ("We fly on the 20th", "I leave
for Lisbon on Friday") is the plan it is too ("We're flying on the 20th"), not a habit kept for good. Pure:
patterns, English only.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..calendar_words import ANY_MONTH as _MONTH
from .dates import WEEKDAY
from .leads import CLINICIAN
from .patterns import rx

__all__ = ["as_bookings"]

_NTH = r"\d{1,2}(?:st|nd|rd|th)?"
# "the 4th", "the 4th of May", "12 March", "March 12th", "Friday", "next Tuesday", "tomorrow": the day it is on.
_DAY = (
    rf"(?:the\s+{_NTH}(?:\s+of\s+(?:{_MONTH}))?|{_NTH}\s+(?:of\s+)?(?:{_MONTH})|(?:{_MONTH})\s+{_NTH}"
    rf"|(?:(?:this|next|this\s+coming)\s+)?{WEEKDAY}|tomorrow)"
)
_BOOKED = rx(
    r"^(?:i\s+|i've\s+|i\s+have\s+|we\s+|we've\s+)?(?:just\s+|finally\s+)?(?:booked|got|scheduled)\s+"
    r"(?P<what>(?:a|an|the|my|our)\s+(?:[\w'-]+\s+){0,6}?)"
    rf"(?:on|for)\s+(?P<day>{_DAY})\b(?P<rest>[^?]*?)[\s.!]*$"
)
_CLINICIAN_ONLY = rx(rf"^(?:a|an|the|my|our)\s+(?P<who>{CLINICIAN})\s*$")
# What is booked for a day: a trip, a stay, a table, an appointment (not "got a promotion for Friday").
_BOOKABLE = rx(
    r"\b(?:flights?|train|trains|tickets?|hotel|room|table|appointment|appt|slot|consultation|check-?up|scan|"
    r"session|lesson|class|test|exam|interview|haircut|massage|ferry|coach|bus|taxi|cab|car|tour|viewing|"
    rf"{CLINICIAN})\b"
)


def _as_booking(clause: str) -> str | None:
    """``clause`` as the plan "I have <it> on <day>" when it tells a thing booked for a day; ``None`` otherwise."""
    m = _BOOKED.match(clause.strip())
    if m is None or not _BOOKABLE.search(m.group("what")):
        return None
    what = m.group("what").strip()
    doctor = _CLINICIAN_ONLY.match(what)
    if doctor is not None:  # "the dentist": an appointment with them
        thing = f"a {doctor.group('who').lower()} appointment"
    else:
        article, noun = what.split(None, 1)
        thing = f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}" if article.lower() in ("the", "my", "our") \
            else what
    return f"I have {thing} on {m.group('day')}{m.group('rest')}"


# "We fly on the 20th", "I leave for Lisbon on Friday", "we fly out tomorrow": a trip's day, told in the present tense
# (not "I fly on Fridays", a habit: a weekday's plural is no day).
_TRIP_ON_DAY = rx(
    r"^(?P<who>i|we)\s+(?P<verb>fly|leave|travel|drive|sail|depart|head|go)"
    r"(?P<out>(?:\s+(?:out|off|back|home|up|down)){0,2})"
    rf"(?P<where>(?:\s+(?:to|for|from)\s+[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]*)*)?)\s+(?P<day>(?:on\s+)?{_DAY})\b(?!s)"
    r"(?P<rest>[^?]*?)[\s.!]*$"
)
_ING = {"fly": "flying", "leave": "leaving", "travel": "travelling", "drive": "driving", "sail": "sailing",
        "depart": "departing", "head": "heading", "go": "going"}


def _as_trip_on_day(clause: str) -> str | None:
    """``clause`` as the plan "We're flying <...> on <day>" when it tells a trip's day in the present tense; ``None``
    otherwise."""
    m = _TRIP_ON_DAY.match(clause.strip())
    if m is None:
        return None
    who = "I'm" if m.group("who").lower() == "i" else "We're"
    return (f"{who} {_ING[m.group('verb').lower()]}{m.group('out') or ''}{m.group('where')} {m.group('day')}"
            f"{m.group('rest')}")


def as_bookings(clauses: Sequence[str]) -> list[str]:
    """``clauses`` with each that tells a thing booked for a day ("I booked a flight to Rome on the 4th"), or a trip's
    day in the present tense ("We fly on the 20th"), said as the plan it is ("I have a flight to Rome on the 4th",
    "We're flying on the 20th"); any other as it is.

    >>> as_bookings(["I booked a flight to Rome on the 4th", "I booked a flight to Rome"])
    ['I have a flight to Rome on the 4th', 'I booked a flight to Rome']
    >>> as_bookings(["I've got the dentist on 12 March", "We fly on the 20th", "I fly on Fridays"])
    ['I have a dentist appointment on 12 March', "We're flying on the 20th", 'I fly on Fridays']
    """
    return [_as_booking(c) or _as_trip_on_day(c) or c for c in clauses]
