"""Which "slot" of a user's life a fact fills (where they live, their job, diet...), and the English cues of a change.

A new fact that announces a change ("I moved to Porto", "I switched to tea", "I'm no longer
vegetarian") replaces the stored fact of the same slot. Pure: keyword rules, English only.

Two kinds of slot. The slots of :data:`memori_core.slots.SLOTS` hold one value at a time (a home, a
job, a diet): a change replaces whatever the slot held. The :data:`ACTIVITY_SLOTS` (pets, exercise)
hold several at once (a cat and a dog, running and yoga): a change there replaces only the stored fact
about the same animal or activity (:func:`same_activity`), or a stored "none" ("User has no pets.").
Capture alone uses the activity slots; the ranking's newest-of-a-slot tie-break does not.
"""

from __future__ import annotations

import re

from ..slots import SLOTS, holder
from ..slots import fold as _fold
from ..slots import slots_of as _single_value_slots_of
from ..text import get_stemmer

__all__ = [
    "ACTIVITY_SLOTS",
    "SLOTS",
    "content_words",
    "holder",
    "is_change",
    "is_ended",
    "is_loss",
    "is_negated",
    "same_activity",
    "slots_of",
]

ACTIVITY_SLOTS: dict[str, re.Pattern[str]] = {
    "pets": re.compile(
        r"\b(?:pets?|dogs?|pupp(?:y|ies)|cats?|kittens?|parrots?|hamsters?|rabbits?|bunn(?:y|ies)|"
        r"guinea\s+pigs?|tortoises?|turtles?|goldfish|horses?|lizards?|snakes?|budgies?)\b"
    ),
    "exercise": re.compile(
        r"\b(?:(?:run|runs|running)\b(?!\s+(?:a|an|the|my|our|their|his|her|out|late|errands|into)\b)|"
        r"jog|jogs|jogging|gym|work\s+out|works\s+out|working\s+out|workouts?|exercise|exercises|exercising|"
        r"yoga|pilates|crossfit|marathons?|half-marathons?|5k|10k|weightlifting|lift\s+weights|"
        r"swim|swims|swimming|cycling|bouldering|boxing|sports?)\b"
    ),
}
"""Slot name -> its words, for the slots that hold several things at once."""

# Words that name the whole activity slot: "User has no pets." is replaced by any new pet.
_WHOLE_SLOT = frozenset({"pet", "exercis", "sport", "work out", "workout", "gym"})  # stemmed

_CHANGE = re.compile(
    r"\b(?:moved|relocated|switched|switching|changed|quit|no\s+longer|anymore|any\s+more|no\s+more|now|"
    r"became|got\s+(?:engaged|married|divorced|separated|together)|broke\s+up|split\s+up|separated|"
    r"(?:are|'re)\s+(?:over|through)|ended\s+(?:it|things)|started\s+(?:dating|seeing)|sold|"
    r"started\s+(?:working|teaching|eating|drinking)|new\s+job|these\s+days|nowadays|instead|"
    r"(?:got|was|been|just\s+got)\s+(?:hired|laid\s+off|fired|promoted)|lost\s+(?:my|our|the)\s+job|"
    r"retired|resigned|left\s+(?:my|the|our)\s+(?:job|company|position|firm)|"
    r"(?:got|took|landed|accepted|started)\s+(?:a|the|my)\s+(?:new\s+)?(?:job|position|role)|"
    r"(?:went|gone|going|go)\s+(?:vegan|vegetarian|pescatarian|keto|paleo|gluten-free|plant-based|sober|"
    r"teetotal|freelance|part-time|full-time|remote)|"
    r"gave\s+up|stopped|took\s+up|"
    # a job ended or begun
    r"made\s+redundant|let\s+go|(?:handed|gave|put)\s+in\s+(?:my|their|our)\s+notice|"
    r"(?:start|starts|started|starting)\s+at|joined|graduated|"
    # a home bought, a habit cut, something taken up again
    r"bought\s+(?:a|an|our|my|the)\s+(?:[\w-]+\s+)?(?:house|flat|home|place|apartment|condo)|"
    r"cut\s+out|cut\s+back|adopted|again|back\s+(?:on|to\s+\w+ing)|"
    r"(?:got|bought|have|'ve\s+got)\s+(?:a|an|my|our)\s+new|"
    r"(?:am|'m|is|are|'re|been)\s+(?:now\s+)?(?:retired|divorced|separated|widowed|sober|unemployed))\b"
)
# Something is over. "used to" is not a change cue (_CHANGE): said of the past, it ends the stored fact
# holding its words but no other fact of the slot ("I used to live in Lisbon" ends "lives in Lisbon", not
# "lives in Porto").
_ENDED = re.compile(
    r"\b(?:used\s+to|no\s+longer|anymore|any\s+more|no\s+more|quit|stopped|gave\s+up|cut\s+out|passed\s+away|"
    r"died)\b"
)
_NEGATED = re.compile(
    r"\b(?:no\s+longer|not|never|no\s+more|anymore|any\s+more|used\s+to)\b|n't\b|\bno\b(?!\s*(?:[,.!;:]|$))"
)
_FUNCTION = frozenset(
    """user i me my their they is are was were am be been the a an of in at on to for with by from as and or
    that this it its has have had do does did not no longer anymore more never now again since last month
    week year day today s t don doesn didn isn aren wasn""".split()
)
# Someone died: it ends a relationship, and a pet's fact (never a phone's: "my phone died" is no loss).
_LOSS = re.compile(r"\b(?:passed\s+away|died|lost\s+(?:my|our)\s+(?:wife|husband|partner|spouse|fianc[ée]e?))\b")
# A name in a fact: a capitalised word after the first ("User has a cat called Mochi.").
_NAME = re.compile(r"(?<!^)(?<![.!?]\s)\b[A-Z][a-z\u00e0-\u00ff]+\b")


def slots_of(text: str) -> frozenset[str]:
    """The slots ``text`` (a fact or a user message) speaks of: those of :data:`memori_core.slots.SLOTS`
    and the :data:`ACTIVITY_SLOTS` (empty when none)."""
    folded = _fold(text)
    return _single_value_slots_of(text) | frozenset(n for n, rx in ACTIVITY_SLOTS.items() if rx.search(folded))


def _activity_words(text: str, slot: str) -> frozenset[str]:
    """The words of ``slot`` in ``text``, stemmed ("running" -> "run", "working out" -> "work out")."""
    stem = get_stemmer("english")
    return frozenset(" ".join(stem(w) for w in m.group(0).split()) for m in ACTIVITY_SLOTS[slot].finditer(_fold(text)))


def same_activity(new: str, old: str, slot: str) -> bool:
    """Whether the facts ``new`` and ``old`` of the activity slot ``slot`` are about the same animal or
    activity: they share a word of the slot ("running" / "runs"), and a name ``old`` gives ("Mochi") is in
    ``new`` too; or ``old`` says the user has none of the slot's kind ("User has no pets.") and ``new``
    says otherwise."""
    old_words = _activity_words(old, slot)
    if is_negated(old) and not is_negated(new) and old_words & _WHOLE_SLOT:
        return True
    if not _activity_words(new, slot) & old_words:
        return False
    names = set(_NAME.findall(old))
    return not names or bool(names & set(_NAME.findall(new)))


def is_loss(text: str) -> bool:
    """Whether ``text`` says someone died ("passed away", "died", "lost my husband")."""
    return bool(_LOSS.search(_fold(text)))


def is_change(text: str) -> bool:
    """Whether ``text`` announces a change ("moved", "switched", "no longer", "now", "quit", "passed away",
    "started at", "again"...)."""
    return bool(_CHANGE.search(_fold(text)))


def is_negated(text: str) -> bool:
    """Whether ``text`` says something stopped or is not so ("no longer", "not", "n't", "no", "anymore")."""
    return bool(_NEGATED.search(_fold(text)))


def is_ended(text: str) -> bool:
    """Whether ``text`` says something is over ("used to", "no longer", "stopped", "gave up", "quit", "died")."""
    return bool(_ENDED.search(_fold(text)))


def content_words(text: str) -> frozenset[str]:
    """The stemmed content words of ``text`` (function words, "user" and negations left out)."""
    stem = get_stemmer("english")
    words = re.findall(r"\w+", _fold(text).replace("'", " "))
    return frozenset(stem(w) for w in words if w not in _FUNCTION)
