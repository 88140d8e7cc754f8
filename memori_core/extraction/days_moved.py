"""A change of the days the user does something, told as a move: "I've moved to Thursdays only at the food bank",
"I've cut back to Mondays at the shop", "switched to weekends at the gym".

Read as a move it was a home ("User lives in Thursdays.", which ended the real one). It is what the user does there
now, on those days: the doing named by a stored fact about the same place ("User has started volunteering at the
Dingwall food bank on Tuesdays and Thursdays." gives "I volunteer at the food bank on Thursdays only now"), else
being there ("I'm at the gym on weekends now"). Told as a change ("now"), the new days end the old ones (the
activity slots of :mod:`.activities`). Pure: patterns, English only.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..calendar_words import WEEKDAY_STEMS
from .leads import strip_lead
from .patterns import rx

__all__ = ["as_days_moved"]

_DAYS = rf"(?:{WEEKDAY_STEMS})days|weekends|weekdays"
_MOVED_DAYS = rx(
    r"^(?:(?:i've|i\u2019ve|i\s+have|i|ive)\s+)?(?:(?:just|now|finally)\s+)?(?:moved|switched|cut\s+(?:back|down)|"
    r"changed|gone\s+(?:down|back)|dropped(?:\s+down)?)\s+to\s+"
    rf"(?P<days>(?:{_DAYS})(?:\s*(?:,|and|&)\s*(?:{_DAYS}))*)(?P<only>\s+only)?\s+(?:at|with|for)\s+"
    r"(?P<place>(?:the|my|our)\s+[\w'-]+(?:\s+[\w'-]+){0,2})\s*[.!]*$"
)
# The doing a stored fact names, as the user would say it now.
_DOINGS = (("volunteer", "volunteer"), ("work", "work"), ("teach", "teach"), ("coach", "coach"),
           ("help", "help out"), ("train", "train"), ("play", "play"))


def _doing_at(place: str, known: Sequence[str]) -> str | None:
    """What a stored fact of the user's says they do at ``place`` ("volunteer"), or ``None``."""
    where = " ".join(place.lower().split()[1:])
    for fact in known:
        said = fact.lower()
        if said.startswith("user ") and where in said:
            for stem, doing in _DOINGS:
                if rx(rf"\b{stem}(?:s|ing|ed)?\b").search(said):
                    return doing
    return None


def _as_days(clause: str, known: Sequence[str]) -> str | None:
    """``clause`` as what the user does on the days it moves them to, or ``None``."""
    m = _MOVED_DAYS.match(strip_lead(clause).strip())
    if m is None:
        return None
    place, only = m.group("place"), " only" if m.group("only") else ""
    days = " ".join(w[:1].upper() + w[1:] if w.lower() != "and" else w for w in m.group("days").split())
    at = "the " + " ".join(place.split()[1:])
    doing = _doing_at(place, known)
    if doing is None:
        return f"I'm at {at} on {days}{only} now"
    return f"I {doing} at {at} on {days}{only} now"


def as_days_moved(clauses: Sequence[str], known: Sequence[str]) -> list[str]:
    """``clauses`` with a change of the days the user does something, told as a move, as what they do on the new
    days (see the module's doc); any other clause as it is.

    >>> as_days_moved(["I've moved to Thursdays only at the food bank"],
    ...               ["User volunteers at the Dingwall food bank on Tuesdays and Thursdays."])
    ['I volunteer at the food bank on Thursdays only now']
    >>> as_days_moved(["I moved to Leeds"], [])
    ['I moved to Leeds']
    """
    return [_as_days(clause, known) or clause for clause in clauses]
