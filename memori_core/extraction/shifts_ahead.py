"""A shift pattern told with the time it starts, in the present: "I'm working nights from Monday", "I work earlies
from next week".

The present with "from <a time to come>" is a change to come, as "I'm switching to nights from Monday" is; read as
a place ("User is from Monday.") or a job ("User is a working nights.") it stored two wrong facts.
:func:`as_shift_ahead` says it as that switch, which the rules date and keep as a change of the shift. A time gone
by ("from last week", "since Monday") is read by :mod:`.begun_since`. Pure: patterns, English only.
"""

from __future__ import annotations

from .dates import WEEKDAY
from .patterns import rx

__all__ = ["as_shift_ahead"]

_SHIFT = (r"(?:(?:the\s+)?(?:day|night|early|late|evening|morning|afternoon|weekend)\s*-?\s*shifts?"
          r"|days|nights|earlies|lates)")
_AHEAD = (rf"(?:next\s+(?:week|month|{WEEKDAY})|{WEEKDAY}|the\s+\d{{1,2}}(?:st|nd|rd|th)|tomorrow"
          r"|the\s+(?:start|beginning)\s+of\s+next\s+(?:week|month))")
_WORKING_FROM = rx(
    rf"^(?:i'm|im|i\s+am)\s+(?:working|on|doing)\s+(?P<shift>{_SHIFT})\s+(?:from|starting)\s+(?P<when>{_AHEAD})$"
    rf"|^i\s+(?:work|do)\s+(?P<shift2>{_SHIFT})\s+(?:from|starting)\s+(?P<when2>{_AHEAD})$"
)


def as_shift_ahead(clause: str) -> list[str] | None:
    """``clause`` (a user's clause, its lead cut) as the switch of shift it tells, ``None`` when it tells none.

    >>> as_shift_ahead("I'm working nights from Monday")
    ["I'm switching to nights from Monday"]
    >>> as_shift_ahead("I'm working nights") is None
    True
    """
    m = _WORKING_FROM.match(clause.strip().rstrip(" .!"))
    if m is None:
        return None
    return [f"I'm switching to {m.group('shift') or m.group('shift2')} from {m.group('when') or m.group('when2')}"]
