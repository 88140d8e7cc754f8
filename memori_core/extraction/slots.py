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

from ..slots import PERSON, SEEING_NAME, SLOTS, holder
from ..slots import fold as _fold
from ..slots import slots_of as _single_value_slots_of
from ..text import get_stemmer

__all__ = [
    "ACTIVITY_SLOTS",
    "CONSUMPTION_SLOTS",
    "POSSESSION_SLOTS",
    "SLOTS",
    "content_words",
    "disposed_words",
    "ends_ownership",
    "holder",
    "is_acquired",
    "is_change",
    "is_ended",
    "is_exclusive",
    "is_loss",
    "is_negated",
    "is_relationship_status",
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
    # a marriage or relationship ended ("Karim and I divorced", "she left me", "we're separating")
    r"divorced|divorcing|separating|getting\s+(?:divorced|separated)|tied\s+the\s+knot|dumped\s+me|"
    r"left\s+me(?!\s+(?:a|an|the|some|his|her|their|its|with|alone|in\s+charge|out|\w+ing)\b)|"
    # a thing given up or swapped ("I swapped coffee for tea", "I traded in the Golf")
    r"swapped|swapping|cut\s+down|traded\s+in|got\s+rid\s+of|upgraded\s+to|"
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
    r"died|rehomed|had\s+to\s+rehome)\b"
)
# Where a relationship stands; the bare partner words ("wife", "boyfriend") only say one exists.
_REL_STATUS = re.compile(
    r"\b(?:single|engaged|engagement|married|marriage|divorced?|divorcing|fianc[ée]e?|broke\s+up|breaking\s+up|"
    r"dating|separated|separating|split\s+up|splitting\s+up|widowed|widow|widower|ex|ex-\w+|relationship|"
    r"tied\s+the\s+knot|seeing\s+(?:someone|somebody|each\s+other|a\s+(?:guy|girl|man|woman|boy|lady))|"
    r"moved\s+in\s+(?:together|with)|moving\s+in\s+(?:together|with)|left\s+me|dumped\s+me|"
    r"(?:not|no\s+longer)\s+together|"
    r"ended\s+(?:it|things)|(?:are|'re)\s+(?:over|through)|"
    r"new\s+(?:boyfriend|girlfriend|partner|husband|wife|fianc[ée]e?))\b"
)
# "I only drink decaf", "I just eat fish": one thing to the exclusion of the others. In a slot of what the
# user eats, drinks or smokes it replaces the stored habit without a change cue; elsewhere "only" is no
# change ("I only work weekends" says nothing against "User works as a nurse.").
_EXCLUSIVE = re.compile(
    r"\b(?:only|just|exclusively)\s+(?:ever\s+)?(?:drink|drinks|eat|eats|have|has|smoke|smokes|vape|vapes)\b"
)
CONSUMPTION_SLOTS = frozenset({"diet", "hot_drink", "alcohol", "smoking"})
"""The slots of what the user eats, drinks or smokes, where an exclusive habit ("only") is a change."""
# "I got a Pixel", "We bought a Toyota", "I upgraded to an iPhone 15": a new phone or car replaces the
# stored one (a "second car", a "work phone" or a gift for someone else does not).
_ACQUIRED = re.compile(
    r"\b(?:got|bought|purchased|picked\s+up|upgraded\s+to|switched\s+to|treated\s+(?:myself|ourselves)\s+to|"
    r"leased|now\s+(?:have|has|drive|drives|use|uses))\s+(?:myself\s+|ourselves\s+)?"
    rf"(?:a|an|the|my|our|their)\s+(?!(?:second|another|spare|extra|work|company|rental|hire|courtesy|{PERSON})\b)"
)
POSSESSION_SLOTS = frozenset({"phone", "car"})
"""The slots of a thing the user has one of (a phone, a car), where getting a new one is a change."""
# "I sold the Civic", "We got rid of our old Vespa", "I traded in my Golf": the thing disposed of, whose
# stored ownership fact ends ("User drives an old Honda Civic.") even when no slot knows the word.
_DISPOSED = re.compile(
    r"\b(?:sold|got\s+rid\s+of|gave\s+away|given\s+away|traded\s+in|scrapped|returned|wrote\s+off|"
    r"written\s+off|totaled|totalled|donated)\s+(?:(?:my|our|the|that|this|their|his|her)\s+)?(?:(?:old|trusty|beloved|"
    r"little|beat-up|battered|first)\s+)?(?P<thing>[\w-]+(?:\s+(?!(?:and|for|to|in|on|at|last|this|after|"
    r"because|since|when|so|but|yesterday|today|finally)\b)[\w-]+){0,2})"
)
# A stored fact that says the user has, got or uses a thing: "User drives an old Honda Civic.", "User got a Pixel.",
# "User's bike is red."
_OWNERSHIP = re.compile(
    r"^(?:user(?:'s\s|\s+(?:\w+\s+)?(?:has|owns|drives|rides|uses|has\s+got|'s\s+got|got|bought)\b)"
    r"|my\s|i\s+(?:\w+\s+)?(?:have|own|drive|ride|use|'ve\s+got|got|bought)\b)"
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


def is_relationship_status(text: str) -> bool:
    """Whether ``text`` says where a relationship stands ("married", "single", "broke up", "engaged", "seeing
    someone", "moved in with", "a new girlfriend", "left me"), not only that a partner exists ("my wife and
    I moved to Berlin" does not): a change of the relationship slot needs one of these."""
    folded = _fold(text)
    return bool(_REL_STATUS.search(folded) or SEEING_NAME.search(text))


def is_exclusive(text: str) -> bool:
    """Whether ``text`` says the user eats, drinks or smokes only one thing ("I only drink decaf")."""
    return bool(_EXCLUSIVE.search(_fold(text)))


def is_acquired(text: str) -> bool:
    """Whether ``text`` says the user got a thing of their own ("I got a Pixel", "We bought a Toyota";
    not "a second car", "a work phone", "my son a bike")."""
    return bool(_ACQUIRED.search(_fold(text)))


def disposed_words(text: str) -> frozenset[str]:
    """The stemmed content words of what ``text`` says was sold, given away, traded in or written off
    ("I finally sold the Civic" -> ``{"civic"}``); empty when it says no such thing."""
    return frozenset(w for m in _DISPOSED.finditer(_fold(text)) for w in content_words(m.group("thing")))


def ends_ownership(new: str, old: str) -> bool:
    """Whether the fact ``new`` disposes of the thing the stored fact ``old`` says the user has or uses ("User
    sold the Civic." ends "User drives an old Honda Civic."): ``old`` is an ownership fact holding a word of
    the thing (:func:`disposed_words`), and both are the same person's."""
    thing = disposed_words(new)
    return bool(thing) and bool(_OWNERSHIP.match(_fold(old).strip())) and bool(thing & content_words(old)) \
        and holder(new) == holder(old)


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
