"""A fact told as a reminder of what was said before: "we don't eat meat remember", "like I said, nurse, nights",
"as I mentioned, I'm in Tallinn".

The user restates what memory holds, often in other words than the stored fact ("User and their wife are both
vegetarian."): stored again it would be a second fact of the same thing, worded apart, which the next change of that
part of their life may leave behind. So a reminder stores nothing when a stored fact of the user's fills the same slot
of their life (:func:`restates_stored`); with none stored it is told as news (the user thinks it was said). A change
told as a reminder ("remember I'm vegan now"), or a name no stored fact gives ("as I said, I'm Dev - short for
Devendra"), is news all the same. Pure: patterns, English only.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..slots import holder
from .cues import is_change
from .patterns import rx
from .slots import slots_of
from .subjects import names_in

__all__ = ["restates_stored"]

# "..., remember", "remember, ...", "like I said", "as I said", "as I mentioned", "as you know", "I told you".
_REMINDER = rx(
    r"(?:^|[\s,])(?:remember|remember\s+that|(?:like|as)\s+i\s+(?:said|say|mentioned|told\s+you)|"
    r"as\s+(?:you\s+know|mentioned)|i\s+told\s+you)(?=[\s,.!?]|$)"
)


def restates_stored(clause: str, fact: str, known: Sequence[str]) -> bool:
    """Whether ``fact``, kept of ``clause`` told as a reminder, restates a stored fact (``known``) of the same holder
    that fills a slot it fills ("User doesn't eat meat." of "we don't eat meat remember" after "User and their wife
    are both vegetarian."): nothing new to store.

    >>> restates_stored("we don't eat meat remember", "User doesn't eat meat.", ["User and their wife are vegetarian."])
    True
    >>> restates_stored("we don't eat meat", "User doesn't eat meat.", ["User and their wife are vegetarian."])
    False
    """
    if not _REMINDER.search(clause) or is_change(clause):
        return False
    slots = slots_of(fact)
    who = holder(fact)
    if not slots or names_in(fact) - {name for text in known for name in names_in(text)}:
        return False  # "as I said, I'm Dev - short for Devendra": a name no stored fact gives is news
    return any(slots_of(text) & slots and holder(text) == who for text in known)
