"""What the user eats, drinks or smokes: an exclusive habit ("I only drink decaf"), the foods a diet leaves out
("User is on keto." leaves out the carbs) and the foods taken back ("User is back on carbs."), by which a new fact
ends a stored diet without a change cue. Pure: keyword rules, English only.
"""

from __future__ import annotations

import re

from ..slots import fold as _fold
from ..slots import slots_of
from .cues import is_negated

__all__ = [
    "CONSUMPTION_SLOTS",
    "consumed",
    "is_exclusive",
    "left_out",
    "taken_back",
]

# "I only drink decaf", "I just eat fish": one thing to the exclusion of the others. In a slot of what the
# user eats, drinks or smokes it replaces the stored habit without a change cue; elsewhere "only" is no
# change ("I only work weekends" says nothing against "User works as a nurse.").
_EXCLUSIVE = re.compile(
    r"\b(?:only|just|exclusively)\s+(?:ever\s+)?(?:drink|drinks|eat|eats|have|has|smoke|smokes|vape|vapes)\b"
)
CONSUMPTION_SLOTS = frozenset({"diet", "hot_drink", "alcohol", "smoking"})
"""The slots of what the user eats, drinks or smokes, where an exclusive habit ("only") is a change."""


# "at Costa Coffee", "for Brewdog Beer": a drink in the name of where someone works or goes, which is no habit.
_AT_A_NAME = re.compile(r"\b(?:at|for|with|from)\s+(?-i:[A-Z])[\w&'.-]*(?:\s+(?-i:[A-Z])[\w&'.-]*)*")


def consumed(text: str) -> frozenset[str]:
    """The slots of what ``text`` says is eaten, drunk or smoked (:data:`CONSUMPTION_SLOTS`), a drink in a
    workplace's name left out ("User works at Costa Coffee." has none; "User drinks coffee at Costa." has
    ``{"hot_drink"}``)."""
    return slots_of(_AT_A_NAME.sub(" ", text)) & CONSUMPTION_SLOTS


def is_exclusive(text: str) -> bool:
    """Whether ``text`` says the user eats, drinks or smokes only one thing ("I only drink decaf")."""
    return bool(_EXCLUSIVE.search(_fold(text)))


# What a diet leaves out, by the words a user names the food with ("bread" is a carb; "eggs" no meat).
_MEAT = "meat chicken beef pork bacon steak ham lamb turkey sausage burger".split()
_FISH = "fish seafood salmon tuna shellfish prawn shrimp sushi".split()
_DAIRY = "dairy milk cheese butter yoghurt yogurt cream".split()
_CARBS = "carb bread pasta rice potato sugar grain noodle pizza toast sweet dessert".split()
_GLUTEN = "gluten wheat bread pasta pizza toast".split()
_DIET_LEAVES_OUT: dict[str, frozenset[str]] = {
    "vegetarian": frozenset(_MEAT + _FISH),
    "pescatarian": frozenset(_MEAT),
    "vegan": frozenset(_MEAT + _FISH + _DAIRY + ["egg", "honey"]),
    "plant-based": frozenset(_MEAT + _FISH + _DAIRY + ["egg"]),
    "keto": frozenset(_CARBS),
    "low-carb": frozenset(_CARBS),
    "paleo": frozenset(_CARBS + _DAIRY),
    "gluten-free": frozenset(_GLUTEN),
    "dairy-free": frozenset(_DAIRY),
    "lactose-free": frozenset(_DAIRY),
    "sugar-free": frozenset(["sugar", "sweet", "dessert"]),
}
_FOODS = frozenset().union(*_DIET_LEAVES_OUT.values())
_DIET_NAMED = re.compile(r"\b(?P<diet>vegetarian|pescatarian|vegan|plant-based|keto|low-carb|low\s+carb|paleo|"
                         r"gluten-free|dairy-free|lactose-free|sugar-free)\b")
# A stored fact that the user keeps a food out: "User doesn't eat meat.", "User cut out sugar.", "User avoids dairy."
_KEEPS_OUT = re.compile(
    r"\b(?:(?:don't|doesn't|do\s+not|does\s+not|never|no\s+longer|can't|cannot)\s+(?:eat|eats|have|has|touch|touches)|"
    r"avoids?|cut\s+out|gave\s+up|given\s+up|(?:is|am|'m)\s+off|no)\s+(?P<food>[\w-]+(?:\s+[\w-]+)?)"
)
# A food taken back: "User is back on carbs.", "User eats bread again.", "User has started eating meat again.",
# "User is eating dairy again.", "User reintroduced gluten." (what follows the verb, up to four words).
_TAKEN_BACK = re.compile(
    r"\b(?:back\s+(?:on|to(?:\s+eating)?)\s+(?P<on>[\w-]+(?:\s+(?:and\s+)?[\w-]+){0,3})"
    r"|(?:eat|eats|eating|ate|have|has|having|started\s+eating|start\s+eating|began\s+eating)\s+"
    r"(?P<again>[\w-]+(?:\s+(?:and\s+)?[\w-]+){0,3}?)\s+again\b"
    r"|(?:started|start|began)\s+eating\s+(?P<started>[\w-]+(?:\s+(?:and\s+)?[\w-]+){0,3})"
    r"|reintroduc\w*\s+(?P<re>[\w-]+(?:\s+(?:and\s+)?[\w-]+){0,3}))"
)


def _foods(words: str) -> frozenset[str]:
    """The foods of the diet table that ``words`` names, singular ("carbs and bread" -> ``{"carb", "bread"}``)."""
    said = re.findall(r"[\w-]+", words)
    singular = {w[:-3] + "y" if w.endswith("ies") else w[:-2] if w.endswith("oes") else w.rstrip("s") for w in said}
    return frozenset((singular | set(said)) & _FOODS)


def taken_back(fact: str) -> frozenset[str]:
    """The foods ``fact`` says the user eats again ("User is back on carbs." -> ``{"carb"}``, "User has started
    eating meat again." -> ``{"meat"}``); empty when it says no such thing, or denies it.

    >>> sorted(taken_back("User eats bread and pasta again.")), taken_back("User is not back on carbs.")
    (['bread', 'pasta'], frozenset())
    """
    folded = _fold(fact)
    if is_negated(folded):
        return frozenset()
    return frozenset(food for m in _TAKEN_BACK.finditer(folded) for group in m.groupdict().values() if group
                     for food in _foods(group))


def left_out(fact: str) -> frozenset[str] | None:
    """The foods the diet ``fact`` states leaves out ("User is on keto." -> the carbs, "User is vegetarian." -> meat
    and fish, "User doesn't eat pork." -> ``{"pork"}``); ``None`` when ``fact`` states no such diet, or one that
    ended ("User is no longer vegan.")."""
    folded = _fold(fact)
    kept_out = {food for m in _KEEPS_OUT.finditer(folded) for food in _foods(m.group("food"))}
    if kept_out:
        return frozenset(kept_out)
    diets = [_DIET_LEAVES_OUT[re.sub(r"\s+", "-", m.group("diet"))] for m in _DIET_NAMED.finditer(folded)]
    if not diets or is_negated(folded):
        return None
    return frozenset().union(*diets)
