"""Where the user lives, told as where their daily trip starts.

People rarely say "I live in Rongai" when asking about a commute; they say "I use matatu from Rongai to town every
day", "I drive in from Midrand every day", "I do Oranmore into Galway in it every morning". A trip the user makes
every day, from a named place to another, starts from home: :func:`as_commute_home` adds "I live in <place>" after
such a clause, and the clause is left as it was for the rules (the commute is a fact of its own).

Only the user's own trip ("I ...", not "my wife drives in from ..."), only every day or every weekday (a weekly
flight from Heathrow starts nowhere the user lives), only a capitalised place that is no day or month ("from Monday
to Friday"). Pure: patterns, English only.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..calendar_words import CALENDAR_NAMES
from .patterns import PLACE_NAME, rx

__all__ = ["as_commute_home", "commute_home"]

# The user's own trip: the clause opens with "I" (after a greeting or a lead cut by a comma).
_OWN = rx(r"^(?:[^,]{0,40},\s*)?(?:and\s+|so\s+|also\s+)?(?:i|we)\s+(?!(?:don't|do\s+not|never|won't|used\s+to)\b)")
_DAILY = rx(r"\b(?:every\s+(?:single\s+)?(?:day|morning|weekday|work\s*day)|each\s+(?:day|morning)|daily)\b")
# "from Rongai to town", "from Pasing into the city", "from Maipú to Providencia".
_FROM_TO = rx(rf"\bfrom\s+(?P<place>{PLACE_NAME})\s+(?:in)?to\s+\S")
# "I drive in from Midrand", "I come in from Kajiado", "I commute in from Slough".
_IN_FROM = rx(rf"\b(?:drive|come|commute|cycle|ride|travel|get)\s+in\s+from\s+(?P<place>{PLACE_NAME})\b")
# "I do Oranmore into Galway in it every morning".
_DO_A_TO_B = rx(rf"^(?:[^,]{{0,40}},\s*)?i\s+do\s+(?:the\s+)?(?P<place>{PLACE_NAME})\s+(?:in)?to\s+(?-i:[A-Z])")
# Places that are no home: the words of the calendar, "Home" itself, a station or an airport named alone.
_NOT_HOME = frozenset((*(n.lower() for n in CALENDAR_NAMES), "home", "work", "school", "uni", "the"))
_NOT_HOME_TAIL = rx(r"\b(?:station|airport|terminal|central|sentral|junction|interchange)$")


def commute_home(clause: str) -> str | None:
    """The place ``clause``, the user's daily trip, starts from (``None`` when it tells no such trip).

    >>> commute_home("I use matatu from Rongai to town every day, around 90 minutes with the traffic")
    'Rongai'
    >>> commute_home("my wife drives in from Midrand every day") is None
    True
    """
    text = clause.strip()
    if not _OWN.match(text) or not _DAILY.search(text):
        return None
    for pattern in (_IN_FROM, _FROM_TO, _DO_A_TO_B):
        m = pattern.search(text)
        if m is not None:
            place = m.group("place").strip()
            if place.split()[0].lower() in _NOT_HOME or _NOT_HOME_TAIL.search(place):
                return None
            return place
    return None


def as_commute_home(clauses: Sequence[str]) -> list[str]:
    """``clauses`` with "I live in <place>" after each one telling the user's daily trip from that place
    (:func:`commute_home`).

    >>> as_commute_home(["oh I don't live there", "I drive in from Midrand every day"])
    ["oh I don't live there", 'I drive in from Midrand every day', 'I live in Midrand']
    """
    out: list[str] = []
    for clause in clauses:
        out.append(clause)
        place = commute_home(clause)
        if place is not None:
            out.append(f"I live in {place}")
    return out
