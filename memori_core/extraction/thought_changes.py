"""A change the user only thinks they will make, said after "I think": "I think I'm going vegan", "I think I'll
quit", "I reckon I'm gonna switch to tea". README: a change only thought of is not stored and replaces nothing (the
diet stays "vegetarian" until the user says they went vegan). Not a hedged state ("I think I'm allergic to cats",
"I think I'm pregnant"), which is kept as said. Pure: one pattern over what follows the hedge, English only.
"""

from __future__ import annotations

from .patterns import rx

__all__ = ["is_thought_of_change"]

# "I'm going vegan", "I'm going to quit", "I'll switch", "I'm gonna move", "I will go back to uni": a change to come.
_TO_COME = rx(
    r"^(?:i|we)(?:'ll|\s+will|'m\s+gonna|\s+am\s+gonna|'re\s+gonna|\s+are\s+gonna|'m\s+going\s+to|\s+am\s+going\s+to|"
    r"'re\s+going\s+to|\s+are\s+going\s+to|'m\s+going(?=\s+(?!to\b)[a-z])|\s+am\s+going(?=\s+(?!to\b)[a-z]))\b"
    # "I'm going to be fine", "I'll be ok": no change
    r"(?!\s+(?:be|have\s+to|need|die|cry|throw\s+up|faint|lose\s+it)\b)"
)


def is_thought_of_change(rest: str) -> bool:
    """Whether ``rest``, what the user says after "I think" / "I reckon", is a change they mean to make ("I'm going
    vegan", "I'll quit my job"), not a state they hedge ("I'm allergic to cats").

    >>> is_thought_of_change("I'm going vegan"), is_thought_of_change("I'm allergic to cats")
    (True, False)
    """
    return _TO_COME.match(rest.strip()) is not None
