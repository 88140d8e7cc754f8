"""What ends a stored fact by its own words, even when no slot knows them: a thing sold, written off or
replaced by a new one ("I sold the Civic", "I got a Pixel"), a habit stopped ("I gave up on Spanish"), someone's
death ("passed away", "crossed the rainbow bridge"), a change of someone named first. Pure: keyword rules,
English only.
"""

from __future__ import annotations

import re

from ..slots import PERSON, holder
from ..slots import fold as _fold
from ..slots import slots_of as _single_value_slots_of
from .activities import PETS
from .cues import content_words, is_change, is_ended, is_negated
from .medicine_classes import medicines_of_kind_named
from .subjects import named_subject

__all__ = [
    "POSSESSION_SLOTS",
    "acquired_slots",
    "disposed_thing",
    "disposed_words",
    "ends_habit",
    "ends_ownership",
    "lives_elsewhere",
    "is_loss",
    "named_change",
    "stopped_habit",
    "stopped_words",
]

# "I got a Pixel", "We bought a Toyota", "I upgraded to an iPhone 15": a new phone or car replaces the
# stored one (a "second car", a "work phone" or a gift for someone else does not).
_ACQUIRED = re.compile(
    r"\b(?:got|bought|purchased|picked\s+up|upgraded\s+to|switched\s+to|treated\s+(?:myself|ourselves)\s+to|"
    r"leased|now\s+(?:have|has|drive|drives|use|uses))\s+(?:myself\s+|ourselves\s+)?"
    rf"(?P<thing>(?:a|an|the|my|our|their)\s+(?!(?:second|another|spare|extra|work|company|rental|hire|courtesy|"
    rf"{PERSON})\b)(?:[\w-]+\s*){{1,4}})"
)
POSSESSION_SLOTS = frozenset({"phone", "car"})
"""The slots of a thing the user has one of (a phone, a car), where getting a new one is a change."""
# "I sold the Civic", "We got rid of our old Vespa", "I traded in my Golf": the thing disposed of, whose
# stored ownership fact ends ("User drives an old Honda Civic.") even when no slot knows the word.
_DISPOSED = re.compile(
    # "retired the old moped" (a thing: its article said; "I retired in May" is the job's)
    r"\b(?:sold|got\s+rid\s+of|gave\s+away|given\s+away|traded\s+in|scrapped|returned|wrote\s+off|"
    r"retired(?=\s+(?:my|our|the|that|this)\s)|"
    r"written\s+off|totaled|totalled|donated)\s+(?:(?:my|our|the|that|this|their|his|her)\s+)?(?:(?:old|trusty|beloved|"
    r"little|beat-up|battered|first)\s+)?(?P<thing>[\w-]+(?:\s+(?!(?:and|for|to|in|on|at|last|this|after|"
    r"because|since|when|so|but|yesterday|today|finally)\b)[\w-]+){0,2})"
)
# "the mazda's totaled", "My bike got stolen": the thing disposed of, told as what happened to it.
_DISPOSED_PASSIVE = re.compile(
    r"\b(?:my|our|the|user's)\s+(?:(?:old|trusty|beloved|little|first)\s+)?(?P<thing>[\w-]+(?:\s+[\w-]+)?)"
    r"(?:'s|\s+is|\s+was|\s+got|\s+has\s+been|\s+just\s+got)\s+(?:been\s+|just\s+)?"
    r"(?P<end>totaled|totalled|written\s+off|stolen|scrapped|nicked)\b"
)
# "my beloved corolla finally died on the M6", "the van's dead": a vehicle's end told as a death, which ends only a
# stored fact that the user drives or rides it ("my phone died" is a flat battery, no end of the phone).
_DIED = re.compile(
    r"\b(?:my|our|the|user's)\s+(?:(?:old|trusty|beloved|little|poor|first)\s+)?(?P<thing>[\w-]+(?:\s+[\w-]+)?)"
    r"(?:'s|\s+is|\s+has)?\s+(?:(?:finally|just|completely|officially)\s+)?"
    r"(?:died|dead|conked\s+out|gave\s+up\s+the\s+ghost)\b"
)
# A part of a vehicle, whose dying ("my bike light died", "my motorbike battery died") leaves the vehicle in use.
_PART = frozenset("battery batteries light lights lamp tyre tyres tire tires key keys radio stereo screen clutch engine "
                  "alternator starter horn indicator wiper wipers sat nav satnav charger fob chain brake brakes bell "
                  "motor app heater aircon ac phone".split())
_DRIVEN = re.compile(r"^(?:user|i)\s+(?:\w+\s+)?(?:drives|rides|drive|ride)\b")
# "I gave up on Spanish", "I quit the choir", "I dropped out of college": what the user stopped, whose stored
# habit ends ("User is learning Spanish.", "User sings in a choir.") even when no slot knows the word.
_STOPPED = re.compile(
    r"\b(?:quit|stopped(?!\s+by\b)|gave\s+up(?:\s+on)?|given\s+up(?:\s+on)?|dropped\s+out\s+of|kicked|"
    r"cancell?ed|cut\s+out|instead\s+of)\s+"
    r"(?:(?:my|our|the|that|this|their|his|her)\s+)?(?P<thing>[\w-]+(?:\s+(?!(?:and|for|in|on|at|last|this|"
    r"after|because|since|when|so|but|yesterday|today|finally|ago|years?|months?|weeks?)\b)[\w-]+){0,2})"
)
# A switch away from a thing, whoever made it and however the switched thing is named: "User switched from an
# insulin pump to injections.", "My doctor switched me from metformin to Ozempic.", "User's doctor switched the user
# from metformin to Ozempic.", "I changed my diet from vegan to pescatarian.": what was left is the words between
# "from" and "to" (never the new thing, which the same fact says holds now).
# The switched object is the user ("me", "the user") or a thing of theirs ("my diet", "gyms"), never a person or
# pet of theirs ("switched my mum from metformin" is the mum's medicine).
_NOT_THE_USER = rf"(?!(?:{PERSON}|{PETS}|him|her|patients?|clients?|students?|team|staff)\b)"
_SWITCHED_FROM = re.compile(
    r"\b(?:switched|changed|moved|swapped|transitioned|went)\s+(?:(?:me|us|them|the\s+user|"
    rf"(?:my|our|their|the\s+user's)\s+{_NOT_THE_USER}[\w-]+)\s+|{_NOT_THE_USER}[\w-]+\s+)?from\s+"
    r"(?:(?:my|our|the|that|this|their|his|her|an?)\s+)?(?P<thing>[\w-]+(?:\s+(?!(?:to|and|for|in|on|at|last|"
    r"this|after|because|since|when|so|but|yesterday|today|finally|ago|years?|months?|weeks?)\b)[\w-]+){0,2})"
)
# Words too general to tell one habit from another ("stopped drinking" does not end "drinks coffee").
_GENERAL = frozenset("""go goe do doe play use take have has get make work drink eat job thing habit it
    everyth someth anyth all membership subscript contract plan""".split())
# A stored habit or pastime of the user: "User is learning Spanish.", "User sings in a choir.".
_HABIT = re.compile(
    r"^(?:user|i)\s+(?:\w+\s+)?(?:(?:started|began|has\s+started|took\s+up|has\s+taken\s+up)\s+(?:learning|playing|"
    r"practi[cs]ing|taking|doing|studying|attending|going\s+to)|"
    r"is\s+learning|am\s+learning|learns?|stud(?:y|ies)|is\s+studying|plays?|goes|go|"
    r"does|do|practi[cs]es?|attends?|takes?|eats?|drinks?|smokes?|vapes?|uses?|sings?|volunteers?|trains?|wears?|"
    r"is\s+training|coach(?:es)?|collects?|teach(?:es)?|works?|is\s+taking|is\s+doing|belongs?|is\s+a\s+member|"
    r"is\s+on|am\s+on|'m\s+on)\b"
)
# A stored fact that says the user has, got or uses a thing: "User drives an old Honda Civic.", "User got a Pixel.",
# "User's bike is red."
_OWNERSHIP = re.compile(
    r"^(?:user(?:'s\s|\s+(?:\w+\s+)?(?:has|owns|drives|rides|uses|has\s+got|'s\s+got|got|bought)\b)"
    r"|my\s|i\s+(?:\w+\s+)?(?:have|own|drive|ride|use|'ve\s+got|got|bought)\b)"
)
# Someone died: it ends a relationship, and a pet's fact (never a phone's: "my phone died" is no loss).
_LOSS = re.compile(
    r"\b(?:passed\s+away|died|crossed\s+(?:over\s+)?the\s+rainbow\s+bridge|put\s+(?:\w+\s+)?to\s+sleep|"
    rf"had\s+to\s+put\s+\w+\s+down|lost\s+(?:my|our)\s+(?:wife|husband|partner|spouse|fianc[ée]e?|{PETS}|mum|mom|"
    r"mother|dad|father|grandma|grandpa|grandmother|grandfather|son|daughter|brother|sister))\b"
)
# "We lost Mochi last week": a loss of someone named (read with capitals; "lost to Liverpool" is a match).
_LOST_NAMED = re.compile(
    r"\blost\s+(?!(?:I|My|Our|The|It|This|That)\b)[A-Z][a-z\u00e0-\u00ff]+\b(?!\s+(?:to|at|in|on)\b)"
)


def acquired_slots(text: str) -> frozenset[str]:
    """The possession slots (:data:`POSSESSION_SLOTS`) of what ``text`` says the user got for themselves ("I
    got a Pixel" -> ``{"phone"}``, "We bought a Toyota" -> ``{"car"}``; not "a second car", "a work phone",
    "my son a Pixel", nor "a ride in a Tesla")."""
    return frozenset(slot for m in _ACQUIRED.finditer(_fold(text))
                     for slot in _single_value_slots_of(m.group("thing")) if slot in POSSESSION_SLOTS
                     and not re.match(r"\S+\s+(?:ride|lift|trip|test\s+drive|go)\b", m.group("thing")))


def disposed_words(text: str) -> frozenset[str]:
    """The stemmed content words of what ``text`` says was sold, given away, traded in, written off or stolen
    ("I finally sold the Civic" -> ``{"civic"}``, "the mazda's totaled" -> ``{"mazda"}``); empty when it says
    no such thing."""
    return _thing_words(_DISPOSED, text) | _thing_words(_DISPOSED_PASSIVE, text)


def disposed_thing(text: str) -> tuple[str, str] | None:
    """``(thing, what happened)`` when ``text`` tells a thing's end as what happened to it ("the mazda's
    totaled" -> ``("mazda", "totaled")``, "my bike got stolen" -> ``("bike", "stolen")``); else ``None``."""
    m = _DISPOSED_PASSIVE.search(_fold(text))
    if m is None:
        return None
    return m.group("thing"), " ".join(m.group("end").split())


def ends_ownership(new: str, old: str) -> bool:
    """Whether the fact ``new`` disposes of the thing the stored fact ``old`` says the user has or uses ("User
    sold the Civic." ends "User drives an old Honda Civic."): ``old`` is an ownership fact holding a word of
    the thing (:func:`disposed_words`), and both are the same person's. A vehicle told dead ("User's beloved corolla
    died on the M6.") ends the fact that the user drives or rides it ("User drives a 2004 corolla.")."""
    return _ends(disposed_words(new), _OWNERSHIP, new, old) or _ends(_dead_vehicle(new), _DRIVEN, new, old)


def _dead_vehicle(text: str) -> frozenset[str]:
    """The head word of each thing :data:`_DIED` finds dead in ``text`` (the last word: "Ford Focus" -> "focus"), but
    none of a part ("bike light", "motorbike battery": the vehicle is still driven)."""
    heads = (m.group("thing").split()[-1] for m in _DIED.finditer(_fold(text)))
    return frozenset(w for head in heads if head not in _PART for w in content_words(head))


# "User's rabbit Hoppel lives by their sister in Freiburg now.": a pet of the user's named, living with someone else now.
_LIVES_ELSEWHERE = re.compile(
    r"^User's\s+(?:[\w-]+\s+){0,2}?(?P<name>[A-Z][\w'-]+)\s+(?:now\s+)?lives\s+(?:with|by|at)\s+"
    r"(?:their|a|an|the)\s+[^.]*\bnow\b"
)


def lives_elsewhere(new: str, old: str) -> bool:
    """Whether ``new`` tells someone the user had, by name, living with someone else now ("User's rabbit Hoppel lives by
    their sister in Freiburg now.") and ``old`` that the user has them ("User has a rabbit, Hoppel.").

    >>> lives_elsewhere("User's rabbit Hoppel lives by their sister in Freiburg now.", "User has a rabbit, Hoppel.")
    True
    >>> lives_elsewhere("User's rabbit Hoppel lives by their sister in Freiburg now.", "User has a cat, Mochi.")
    False
    """
    m = _LIVES_ELSEWHERE.match(new.strip())
    return m is not None and not is_negated(new) and bool(_OWNERSHIP.match(_fold(old).strip())) \
        and re.search(rf"\b{re.escape(m.group('name'))}\b", old) is not None and holder(old) == "user"


def stopped_words(text: str) -> frozenset[str]:
    """The stemmed content words of what ``text`` says the user stopped, quit or gave up ("I gave up on
    Spanish" -> ``{"spanish"}``), without the words too general to tell habits apart ("drinking")."""
    return (_thing_words(_STOPPED, text) | _thing_words(_SWITCHED_FROM, text)) - _GENERAL


def ends_habit(new: str, old: str) -> bool:
    """Whether the fact ``new`` says the user stopped the habit the stored fact ``old`` states ("User gave up on
    Spanish." ends "User is learning Spanish."): ``old`` is a habit or pastime holding a word of what stopped
    (:func:`stopped_words`), and both are the same person's. A medicine stopped by its kind ends the stored
    medicine of that kind ("User stopped taking the statins." ends "User takes atorvastatin every evening.")."""
    thing = stopped_words(new)
    return _ends(thing | medicines_of_kind_named(new, old) if thing else thing, _HABIT, new, old)


def _thing_words(rx: re.Pattern[str], text: str) -> frozenset[str]:
    """The stemmed content words of every ``thing`` group ``rx`` finds in ``text``."""
    return frozenset(w for m in rx.finditer(_fold(text)) for w in content_words(m.group("thing")))


def _ends(thing: frozenset[str], kind: re.Pattern[str], new: str, old: str) -> bool:
    """Whether ``new``, which ends ``thing``, ends the stored fact ``old``: ``old`` is of ``kind`` (an ownership
    or a habit), holds a word of ``thing``, and both are the same person's."""
    return bool(thing) and bool(kind.match(_fold(old).strip())) and bool(thing & content_words(old)) \
        and holder(new) == holder(old)


def named_change(clause: str) -> tuple[str, str] | None:
    """``(name, the rest)`` when ``clause`` tells a change, an ending or a loss of someone it names first ("Max
    passed away last week" -> ``("Max", "passed away last week")``; "Sadly, Ana moved out"); ``None``
    otherwise."""
    if not (is_change(clause) or is_ended(clause) or is_loss(clause)):
        return None
    return named_subject(clause)


def is_loss(text: str) -> bool:
    """Whether ``text`` says someone died ("passed away", "died", "lost my husband", "we lost Mochi")."""
    return bool(_LOSS.search(_fold(text)) or _LOST_NAMED.search(text))


# A stored habit told with its own present verb: "User wears glasses.", "User drinks coffee every morning.".
_HABIT_VERB = re.compile(r"^User\s+(?:\w+ly\s+)?(?P<verb>[a-z]+)\s")


def _gerund(verb: str) -> str | None:
    """The "-ing" form of a present "-s" ``verb`` ("wears" -> "wearing", "uses" -> "using", "runs" -> "running");
    ``None`` for a verb not in that form ("is", "has")."""
    if verb in ("is", "has", "was", "does", "goes") or not verb.endswith("s") or verb.endswith("ss"):
        return None
    base = verb[:-3] + "y" if verb.endswith("ies") else verb[:-2] if verb.endswith(("shes", "ches", "xes")) else verb[:-1]
    if base.endswith("ie"):
        return base[:-2] + "ying"
    if base.endswith("e") and not base.endswith("ee"):
        return base[:-1] + "ing"
    if len(base) <= 4 and re.search(r"[^aeiou][aeiou][bdgmnprt]$", base):
        return base + base[-1] + "ing"
    return base + "ing"


def stopped_habit(thing: str, stored: str) -> str | None:
    """What "no more ``thing``" says of the stored habit ``stored`` of the user's that holds a word of it, in the
    habit's own verb ("glasses" of "User wears glasses." -> "I stopped wearing glasses"); ``None`` when ``stored``
    is no such habit (another person's, a negated one, one without a word of ``thing``, or told with no verb of its
    own: "User is learning Spanish.").

    >>> stopped_habit("coffee", "User drinks coffee every morning."), stopped_habit("coffee", "User likes tea.")
    ('I stopped drinking coffee', None)
    """
    words = content_words(thing) - _GENERAL
    head = stored.split(",", 1)[0]  # "User wears glasses, can't see without them.": the habit itself is not negated
    if not words or holder(stored) != "user" or is_negated(head) or not _HABIT.match(_fold(stored).strip()) \
            or not words & content_words(stored):
        return None
    m = _HABIT_VERB.match(stored)
    gerund = _gerund(m.group("verb")) if m is not None else None
    return f"I stopped {gerund} {thing}" if gerund is not None else None
