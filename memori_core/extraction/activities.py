"""The slots that hold several things at once (pets, exercise: a cat and a dog, running and yoga), and which
stored fact of them a new one is about.

A change in an activity slot replaces only the stored fact about the same animal or activity
(:func:`same_activity`), or a stored "none" ("User has no pets."). Capture alone uses these slots; the ranking's
newest-of-a-slot tie-break does not. Pure: keyword rules, English only.
"""

from __future__ import annotations

import re

from ..number_words import number_words
from ..calendar_words import WEEKDAY_STEMS
from ..slots import fold as _fold
from ..text import get_stemmer
from .cues import is_negated
from .subjects import names_in

__all__ = [
    "ACTIVITY_SLOTS",
    "DOG_BREEDS",
    "PETS",
    "same_activity",
    "says_how_often",
]

PETS = (
    r"pets?|dogs?|pupp(?:y|ies)|cats?|kittens?|parrots?|hamsters?|rabbits?|bunn(?:y|ies)|guinea\s+pigs?|"
    r"tortoises?|turtles?|goldfish|horses?|lizards?|snakes?|budgies?"
)
"""A regex alternation of the words for a pet (dog, cat, parrot...)."""
DOG_BREEDS = (
    r"labradors?|labs?|beagles?|retrievers?|spaniels?|terriers?|collies?|poodles?|huskies|husky|dachshunds?|pugs?|"
    r"greyhounds?|whippets?|lurchers?|corgis?|bulldogs?|boxers?|schnauzers?|chihuahuas?|cockapoos?|labradoodles?|"
    r"staffies|staffy|alsatians?|rottweilers?|dobermans?|shih\s+tzus?"
)
"""A regex alternation of common dog breeds, which name a pet as "dog" does ("our greyhound Pepper")."""
ACTIVITY_SLOTS: dict[str, re.Pattern[str]] = {
    "pets": re.compile(rf"\b(?:{PETS})\b"),
    "exercise": re.compile(
        r"\b(?:(?:run|runs|running)\b(?!\s+(?:a|an|the|my|our|their|his|her|out|late|errands|into)\b)|"
        r"jog|jogs|jogging|gym|work\s+out|works\s+out|working\s+out|workouts?|exercise|exercises|exercising|"
        r"yoga|pilates|crossfit|marathons?|half-marathons?|5k|10k|weightlifting|lift\s+weights|"
        r"swim|swims|swimming|cycling|boulder|boulders|bouldering|climb|climbs|hike|hikes|boxing|sports?|football|"
        r"soccer|tennis|basketball|volleyball|"
        r"rugby|cricket|golf|hockey|badminton|netball|baseball|softball|climbing|hiking|skiing|snowboarding|"
        r"surfing|rowing|kayaking|karate|judo|taekwondo|jiu-jitsu|kickboxing|martial\s+arts|zumba|"
        r"triathlons?|ultramarathons?|parkrun)\b"
    ),
    # "volunteers at the food bank on Thursdays" beside "volunteers at the hospice on Mondays"
    "volunteering": re.compile(r"\b(?:volunteer|volunteers|volunteering|volunteered)\b"),
}
"""Slot name -> its words, for the slots that hold several things at once."""
# Words that name the whole activity slot: "User has no pets." is replaced by any new pet.
_WHOLE_SLOT = frozenset({"pet", "exercis", "sport", "work out", "workout", "gym"})  # stemmed


def _activity_words(text: str, slot: str) -> frozenset[str]:
    """The words of ``slot`` in ``text``, stemmed ("running" -> "run", "working out" -> "work out")."""
    stem = get_stemmer("english")
    return frozenset(" ".join(stem(w) for w in m.group(0).split()) for m in ACTIVITY_SLOTS[slot].finditer(_fold(text)))


# How often: "3 times a week", "twice a month", "every day", "daily", "most mornings".
_HOW_OFTEN = re.compile(
    rf"\b(?:(?:\d+|{number_words('seven')}|a\s+couple\s+of|a\s+few)\s+(?:times|days|nights|mornings|evenings)|"
    r"once|twice)\s+(?:a|per|every)\s+(?:day|week|month|year|fortnight)\b|\b(?:every\s+(?:day|night|morning|evening|"
    r"week|weekend|other\s+day)|daily|weekly|most\s+(?:days|mornings|evenings|weekends))\b|"
    # the days of the week it is done on: "on Tuesdays and Thursdays", "on Thursdays only"
    rf"\bon\s+(?:{WEEKDAY_STEMS})days\b",
    re.IGNORECASE,
)


def says_how_often(text: str) -> bool:
    """Whether ``text`` says how often a thing is done ("User boulders 3 times a week.", "User runs every day.",
    "User swims on Mondays.")."""
    return bool(_HOW_OFTEN.search(text))


# "two cats", "3 dogs", "several hens": a fact of more than one animal.
_SEVERAL = re.compile(r"\b(?:two|three|four|five|six|several|\d+)\s+(?:[\w-]+\s+)?[a-z]+s\b", re.IGNORECASE)


def same_activity(new: str, old: str, slot: str) -> bool:
    """Whether the facts ``new`` and ``old`` of the activity slot ``slot`` are about the same animal or
    activity: they share a word of the slot ("running" / "runs"), and a name ``old`` gives ("Mochi") is in
    ``new`` too when ``new`` names one; or ``old`` says the user has none of the slot's kind ("User has no pets.")
    and ``new`` says otherwise."""
    old_words = _activity_words(old, slot)
    if is_negated(old) and not is_negated(new) and old_words & _WHOLE_SLOT:
        return True
    if not _activity_words(new, slot) & old_words:
        return False
    # a name only ``old`` gives is the one told of when ``new`` names someone too ("Rex died" leaves "User has a
    # dog called Max."); told by its kind alone ("our old cat died"), it is the animal stored of that kind, unless
    # that fact counts several ("User has two cats, Tom and Jerry.")
    names, named_now = names_in(old), names_in(new)
    if names and not named_now:
        return _SEVERAL.search(old) is None
    return not names or bool(names & named_now)
