"""What follows from a fact, told after it with "so": "I work nights as a porter so my sleep is all over the place",
"I'm type 1 diabetic so I have to be careful with carbs". The clause after "so" says how the fact weighs on the
user's days, not a fact of its own a careful listener would keep; storing it keeps a remark ("User's sleep is all
over the place.") as a lasting fact. It is kept when it tells a change ("so I moved to Leeds"), what holds now ("so
I cycle now"), a plan ("so I'm gonna start my own business"), or a fact of a slot or of care ("so I rent a flat in
Leeds", "so I take insulin").

Pure: patterns, English only.
"""

from __future__ import annotations

from ..ranking.care import is_care_fact
from .cues import is_change
from .patterns import I_OR_WE_ARE, rx
from .slots import slots_of

__all__ = ["is_consequence"]

# "now", "these days", "from now on": the clause says what holds from then on, a fact of its own.
_SO = rx(r"^,?\s*so$")
_NOW = rx(r"\b(?:now|these\s+days|nowadays|from\s+now\s+on|from\s+here\s+on|anymore|any\s+more|no\s+longer)\b")
# "so I'm gonna start my own business", "so I'm planning to move": a plan the fact leads to, a fact of its own.
_PLAN = rx(r"^" + I_OR_WE_ARE + r"\s+(?:gonna|going\s+to|planning|about\s+to)\b|^(?:i|we)(?:'ll|\s+will)\b")


def is_consequence(said: str, joined_by: str) -> bool:
    """Whether the clause ``said``, joined to the one before it by ``joined_by`` (the break's own words: "so",
    ", so", " and "), only tells what follows from that clause: "so" joins it, and it tells no change, nothing of
    now, no plan, and no fact of a slot or of care."""
    if _SO.match(joined_by.strip()) is None:
        return False
    return not (is_change(said) or _NOW.search(said) or _PLAN.match(said.strip()) or slots_of(said)
                or is_care_fact(said))
