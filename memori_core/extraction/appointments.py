"""An appointment the user needed to book, booked: "User has an Ausländerbehörde appointment on Tuesday 2026-10-06 at
9am." ends "User needs to book an appointment at the Ausländerbehörde." (:func:`books_what_was_needed`), which would
otherwise read as still to do until someone says it is not. Pure: patterns, English only.
"""

from __future__ import annotations

import re

from ..slots import holder
from .cues import content_words
from .patterns import USER_OR_THEIRS, rx

__all__ = ["books_what_was_needed"]

_KINDS = r"(?:appointment|appt|slot|consultation|check-?up|visit)"
# "User needs to book an appointment at the Ausländerbehörde.", "User has to make a dentist appointment.", "User
# still needs to get a GP appointment for their knee.": what is still to book.
_TO_BOOK = rx(
    rf"^(?P<who>{USER_OR_THEIRS})\s+(?:still\s+)?(?:needs?|has|have|wants?|must|should|is\s+trying|is\s+going)\s+"
    rf"to\s+(?:book|make|get|schedule|arrange|sort\s+out|set\s+up)\s+(?:a|an|their|the)\s+(?P<what>.*?\b{_KINDS}\b.*?)"
    r"\s*[.!]*$"
)
# "User has an Ausländerbehörde appointment on ...", "User's dentist appointment is on ...", "User booked an
# appointment with the GP for ...": an appointment the user has, booked.
_BOOKED = rx(
    rf"^(?P<who>{USER_OR_THEIRS})\s+(?:has|booked|got|made|scheduled)\s+(?:a|an|their|the)\s+.*?\b{_KINDS}\b"
    rf"|^(?P<whose>{USER_OR_THEIRS})'s\s+.*?\b{_KINDS}\s+is\s+(?:on|at|for)\b"
)
_BOOKING_WORDS = content_words("book make get schedule arrange sort set up appointment appt slot consultation "
                               "checkup check up visit need needs have has want must should try going still")


def books_what_was_needed(new: str, old: str) -> bool:
    """Whether the new fact ``new`` tells booked the appointment the stored fact ``old`` says is still to book, of the
    same person: every word ``old`` names it by (the place, the kind of doctor) is in ``new``.

    >>> books_what_was_needed("User has an Ausländerbehörde appointment on Tuesday 2026-10-06 at 9am.",
    ...                       "User needs to book an appointment at the Ausländerbehörde.")
    True
    >>> books_what_was_needed("User has a dentist appointment on Friday 2026-10-09.",
    ...                       "User needs to book an appointment at the Ausländerbehörde.")
    False
    """
    before = _TO_BOOK.match(old.strip())
    booked = _BOOKED.match(new.strip())
    if before is None or booked is None or re.search(r"\b(?:not|no|never|cancel\w*)\b", new, re.IGNORECASE):
        return False
    named = content_words(before.group("what")) - _BOOKING_WORDS
    return holder(new) == holder(old) and named <= content_words(new)
