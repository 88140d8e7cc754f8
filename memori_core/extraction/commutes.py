"""How the user gets to work, one way at a time: a new way told the chat way ends the stored one.

"I drive myself" ("User drives themselves."), "I am driving there since two weeks", "i'm a bus person now" end "User
goes to office by subway line 2 every day." (:func:`changes_commute`): the stored fact says how the user gets to
work, the new one how the user gets about now, by another means. Not a way of the weekend or of one day ("I take
the bus on Sundays"), someone else's, a car owned ("User drives a Honda."), the same means again, or a negation.
Pure: patterns over the two facts, English only.
"""

from __future__ import annotations

from ..slots import holder
from .cues import is_negated
from .patterns import rx

__all__ = ["changes_commute"]

_MEANS = {
    "car": rx(r"\b(?:drives?|driving|drove|car|carpool\w*)\b"),
    "bus": rx(r"\bbus(?:es)?\b"),
    "rail": rx(r"\b(?:subway|metro|tube|train|trains|underground|tram|line\s+\d+|mrt|lrt)\b"),
    "bike": rx(r"\b(?:cycles?|cycling|bikes?|biking|e-?bike|bicycle)\b"),
    "foot": rx(r"\b(?:walks?|walking|on\s+foot)\b"),
    "moped": rx(r"\b(?:moped|scooter|motorbike|motorcycle)\b"),
}
# A stored way to work: "User goes to office by the Metro Bus ...", "User takes the bus to work.", "User commutes on
# a moped.", "User cycles to the office."
_TO_WORK = rx(
    r"^user\s+(?:\w+\s+)?(?:(?:goes|gets|travels|takes|catches|rides|cycles|bikes|walks|drives)\b[^.]*?"
    r"\b(?:to|into)\s+(?:the\s+)?(?:office|work)\b|commutes\b)"
)
# How the user gets about now: "User drives themselves.", "User is driving there ...", "User is a bus person.",
# "User takes the train now.", "User cycles in."
_GETS_ABOUT = rx(
    r"^user\s+(?:now\s+|just\s+|mostly\s+|always\s+)?(?:(?:drives|cycles|bikes|walks)\s+(?:themselves|there|in|"
    r"everywhere|to\s+(?:the\s+)?(?:office|work))|is\s+(?:now\s+)?(?:driving|cycling|biking|walking)\s+(?:there|in|to\s+"
    r"(?:the\s+)?(?:office|work))|is\s+(?:now\s+)?(?:a|an)\s+(?:bus|train|tube|subway|metro|bike|cycling|car)\s+person|"
    r"(?:takes|gets|catches|rides)\s+the\s+(?:bus|train|tube|metro|subway|tram)(?:\s+(?:in|there|to\s+"
    r"(?:the\s+)?(?:office|work)))?\s*(?:now\s*)?[.!]*$|commutes\s+by)"
)
# A way of some days only: "on Sundays", "when it rains", "today".
_SOME_DAYS = rx(r"\b(?:on\s+\w+days?|weekends?|sometimes|occasionally|when\s+it|today|tomorrow|tonight|this\s+week)\b")


def _means(text: str) -> set[str]:
    """The means of getting about ``text`` names (``{"bus", "rail"}`` for "... by the Metro Bus")."""
    return {means for means, words in _MEANS.items() if words.search(text)}


def changes_commute(new: str, old: str) -> bool:
    """Whether ``new``, how the user gets about now, ends ``old``, the user's stored way to work by another means.

    >>> changes_commute("User drives themselves.", "User goes to office by the Metro Bus from Shahdara.")
    True
    >>> changes_commute("User takes the bus on Sundays.", "User drives to work.")
    False
    """
    if not (_GETS_ABOUT.match(new.strip()) and _TO_WORK.match(old.strip())) or _SOME_DAYS.search(new):
        return False
    if holder(new) != "user" or holder(old) != "user" or is_negated(new) or is_negated(old):
        return False
    now, before = _means(new), _means(old)
    return bool(now) and bool(before) and not now & before
