"""What a user has one of at a time, read from the new fact itself: a home, a name, a car they drive.

The change rules end a stored fact when the turn says it changed ("I moved to Porto", "I switched to ...", "... now").
A change told any other way slipped past them: "We live in Porto." after "User lives in Lisbon." left both valid, and
every new wording of a move, a married name or a new car needed a rule of its own. But where a user has one value at a
time, a plain statement of another value, told later, is itself the news: the new home, the new name, the car now
driven (:func:`states_anew`). Only plain present statements of the user's own, with another value and not a part of
the stored one ("Leeds city centre" after "Leeds" is a refinement, read before this; "Leeds" after "Leeds city
centre" says less, not something else).

Pure, English only.
"""

from __future__ import annotations

import re

from .cues import content_words

__all__ = ["states_anew"]

# "User lives in Porto.", "User now lives in Porto.", "User is based in Porto." (a place named in capitals; not "lives
# with", "lives alone", "lives on a boat").
_HOME = re.compile(
    r"^User\s+(?:now\s+|currently\s+)?(?:lives|is\s+living|is\s+based)\s+in\s+(?P<value>[A-Z][^,;]*?)\s*[.!]*$"
)
# "User's name is Elif Aksoy." (not "User's name is on the lease.": a name starts with a capital).
_NAME = re.compile(r"^User's\s+name\s+is\s+(?:now\s+)?(?P<value>[A-Z][^,;]*?)\s*[.!]*$")
# "User drives a 2012 Toyota Vitz.", "User drives an old Corolla." (not "drives to work", "drives a lot").
_CAR = re.compile(
    r"^User\s+(?:now\s+)?drives\s+(?:a|an)\s+(?P<value>(?:(?:old|new|used|\d{4})\s+)*[A-Z][\w-]*(?:\s+[\w-]+)?)\s*[.!]*$"
)
_ONE_AT_A_TIME = (_HOME, _NAME, _CAR)


def states_anew(new: str, old: str) -> bool:
    """Whether ``new``, a fact kept of a later turn, states another value of what ``old`` holds one of at a time.

    >>> states_anew("User lives in Porto.", "User lives in Lisbon.")
    True
    >>> states_anew("User's name is Elif Aksoy.", "User's name is Elif Yildiz.")
    True
    >>> states_anew("User drives a Tesla.", "User drives a Honda Civic.")
    True
    >>> states_anew("User lives in Leeds.", "User lives in Leeds city centre."), states_anew(
    ...     "User's sister lives in Porto.", "User lives in Lisbon.")
    (False, False)
    >>> states_anew("User lives with their wife.", "User lives in Lisbon."), states_anew(
    ...     "User drives to work.", "User drives a Honda Civic.")
    (False, False)
    """
    if not isinstance(new, str) or not isinstance(old, str):
        raise TypeError("new and old must be str")
    for pattern in _ONE_AT_A_TIME:
        now, before = pattern.match(new.strip()), pattern.match(old.strip())
        if now is None or before is None:
            continue
        now_words, before_words = content_words(now.group("value")), content_words(before.group("value"))
        return bool(now_words) and bool(before_words) and not now_words <= before_words \
            and not before_words <= now_words
    return False
