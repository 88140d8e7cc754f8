"""A job quit by a generic name: "i quit the café" or "I quit my job" ends "User works as a barista at Ancoats
Coffee.", though the stored fact never says "café" (:func:`quits_the_job`). Pure: patterns, English only.
"""

from __future__ import annotations

from ..slots import holder
from .patterns import rx
from .slots import slots_of

__all__ = ["quits_a_job", "quits_the_job"]

# The roles a kind of workplace is known by: "the café" is where a barista works.
_WORKPLACES: dict[str, str] = {
    "café|cafe|coffee shop|coffee place": r"barista|coffee|caf[ée]",
    "restaurant|kitchen|diner": r"chef|cook|waiter|waitress|server|restaurant|kitchen|diner",
    "bar|pub": r"bartender|barman|barmaid|bar\s+staff|pub|bar",
    "shop|store|supermarket": r"cashier|shop|store|supermarket|retail|sales\s+assistant",
    "hospital|ward": r"nurse|doctor|hospital|ward|porter",
    "school": r"teacher|teaching\s+assistant|school",
    "warehouse": r"warehouse|picker|packer|forklift",
    "call centre|call center": r"call\s+cent(?:re|er)|customer\s+service",
    "office": r"office",
}
_NOUNS = "|".join(_WORKPLACES)
# "User quit the café.", "User has quit their job.", "User walked out of the restaurant.", "User left their job."
_QUIT = rx(
    r"^user\s+(?:(?:just|finally|has|have|officially|actually)\s+)*"
    rf"(?:(?:quit|walked\s+out\s+of)\s+(?:the|their|my)\s+(?P<place>{_NOUNS}|job|work)"
    r"|left\s+(?:the|their|my)\s+(?P<job>job))\b"
)
_ROLES = {noun: rx(rf"\b(?:{roles})\b") for noun, roles in _WORKPLACES.items()}


def quits_the_job(new: str, old: str) -> bool:
    """Whether the new fact ``new`` tells the user quit the job the stored fact ``old`` holds, named generically:
    "their job" (any job of the user's), or the kind of workplace the stored job is at ("the café" for a barista).

    >>> quits_the_job("User quit the café.", "User works as a barista at Ancoats Coffee.")
    True
    >>> quits_the_job("User quit the café.", "User works as a nurse at St Mary's.")
    False
    """
    m = _QUIT.match(new.strip())
    if m is None or "job" not in slots_of(old) or holder(old, "job") != "user":
        return False
    place = (m.group("place") or m.group("job")).lower()
    if place in ("job", "work"):
        return True
    return any(place in noun.split("|") and roles.search(old) for noun, roles in _ROLES.items())


def quits_a_job(fact: str) -> bool:
    """Whether ``fact`` tells the user quit a job named generically ("User quit the café.", "User has quit their
    job."): of the job slot, though no job word is in it.

    >>> quits_a_job("User quit the café."), quits_a_job("User quit the choir.")
    (True, False)
    """
    return _QUIT.match(fact.strip()) is not None
