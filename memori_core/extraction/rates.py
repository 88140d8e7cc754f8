"""How much of a habit the user has in a day or a week, and the newer rate of the same habit in its place: "down to
5 cigarettes a day" after "User smokes 20 cigarettes a day." (:func:`rerates`). Pure: patterns, English only.
"""

from __future__ import annotations

from ..number_words import number_words
from ..slots import holder
from .counts import singular
from .cues import is_negated
from .patterns import rx

__all__ = ["rate_of", "rerates"]

_NUMBER = (rf"(?:\d{{1,3}}(?:\s*-\s*\d{{1,3}})?|{number_words('twelve')}|fifteen|"
           r"twenty|thirty|forty|a\s+couple\s+of|a\s+few|a|an|half\s+a)")
# Words the same habit is counted by: "a pack a day" is cigarettes, "cigs" and "fags" too.
_SAME = {"pack": "cigarette", "packet": "cigarette", "cig": "cigarette", "ciggie": "cigarette", "fag": "cigarette",
         "cup": "coffee", "espresso": "coffee"}
# "User smokes 20 cigarettes a day.", "User is down to 5 cigarettes a day.", "User drinks 3 coffees a day now.",
# "User smokes a pack a day.": a habit's amount in a span of time.
_RATE = rx(
    r"^user\s+(?:(?:now|still|only|usually|currently|just)\s+)*"
    r"(?:smokes|vapes|drinks|eats|has|takes|is\s+(?:now\s+)?(?:down|up|back)\s+to|is\s+(?:now\s+)?on|"
    r"(?:has\s+)?cut\s+(?:down|back)\s+to)\s+(?:(?:only|just|about|around|roughly|maybe|like)\s+)?"
    rf"(?P<n>{_NUMBER})\s+(?:[a-z-]+\s+)?(?P<thing>(?-i:[a-z])[a-z'-]+)\s+(?:a|per|each|every)\s+(?P<per>day|night|week|"
    r"month)\b"
)


def rate_of(fact: str) -> tuple[str, str, str] | None:
    """``(the thing, in the singular; how many; the span)`` when ``fact`` says how much of a habit the user has in a
    span of time ("User smokes 20 cigarettes a day." -> ``("cigarette", "20", "day")``); ``None`` otherwise.

    >>> rate_of("User smokes a pack a day."), rate_of("User has two dogs.")
    (('cigarette', 'a', 'day'), None)
    """
    m = _RATE.match(fact.strip())
    if m is None:
        return None
    thing = singular(m.group("thing"))
    return _SAME.get(thing, thing), m.group("n").lower(), m.group("per").lower()


def rerates(new: str, old: str) -> bool:
    """Whether ``new``, a rate of a habit of the user's, replaces ``old``, another rate of the same habit ("User is
    down to 5 cigarettes a day." of "User smokes 20 cigarettes a day."; not "User drinks 2 coffees a day.").

    >>> rerates("User is down to 5 cigarettes a day.", "User smokes 20 cigarettes a day.")
    True
    >>> rerates("User's dad smokes 5 cigarettes a day.", "User smokes 20 cigarettes a day.")
    False
    """
    now, before = rate_of(new), rate_of(old)
    if now is None or before is None or now[0] != before[0] or now == before:
        return False
    return not is_negated(new) and not is_negated(old) and holder(new) == holder(old) == "user"
