"""Which "slot" of a user's life a fact fills (where they live, their job, diet...), and the English cues of a change.

A new fact that announces a change ("I moved to Porto", "I switched to tea", "I'm no longer
vegetarian") replaces the stored fact of the same slot. Pure: keyword rules, English only.
"""

from __future__ import annotations

import re
import unicodedata

from ..text import get_stemmer

__all__ = ["SLOTS", "content_words", "holder", "is_change", "is_ended", "is_negated", "slots_of"]

SLOTS: dict[str, re.Pattern[str]] = {
    "residence": re.compile(
        r"\b(?:live|lives|living|lived|moved|move|moving|relocated|relocating|reside|resides|settled\s+in|based\s+in)\b"
    ),
    "job": re.compile(
        r"\b(?:work|works|working|worked|job|employed|teach|teaches|teaching|barista|nurse|developer|engineer|"
        r"teacher|chef|pilot|vet|doctor|lawyer|accountant|designer|analyst|programmer|student|cashier|"
        r"manager|consultant|architect|scientist|electrician|plumber|waiter|waitress|hired|laid\s+off|fired|"
        r"retired|unemployed|resigned|promoted|career|employer|freelance|freelancer|self-employed)\b"
    ),
    "diet": re.compile(r"\b(?:vegetarian|vegan|pescatarian|carnivore|meat|fish|eggs|dairy|cheese|diet|keto)\b"),
    "relationship": re.compile(
        r"\b(?:single|engaged|married|divorced|girlfriend|boyfriend|fianc[ée]e?|partner|broke\s+up|dating|"
        r"separated|split\s+up|wife|husband|spouse|widowed|ex|ex-\w+|relationship)\b"
    ),
    "smoking": re.compile(r"\b(?:smoke|smokes|smoking|smoked|smoker|cigarettes?|vape|vapes|vaping)\b"),
    "hot_drink": re.compile(r"\b(?:coffee|tea|espresso|decaf)\b"),
    "phone": re.compile(r"\b(?:iphone|android|phone|pixel|samsung)\b"),
    "car": re.compile(r"\b(?:drive|drives|driving|car|corolla|bike\s+to\s+work)\b"),
}
"""Slot name -> the words (casefolded text) that put a fact in it."""

_CHANGE = re.compile(
    r"\b(?:moved|relocated|switched|switching|changed|quit|no\s+longer|anymore|any\s+more|no\s+more|now|"
    r"became|got\s+(?:engaged|married|divorced|separated|together)|broke\s+up|split\s+up|separated|"
    r"(?:are|'re)\s+(?:over|through)|ended\s+(?:it|things)|started\s+(?:dating|seeing)|sold|"
    r"started\s+(?:working|teaching|eating|drinking)|new\s+job|these\s+days|nowadays|instead|"
    r"(?:got|was|been|just\s+got)\s+(?:hired|laid\s+off|fired|promoted)|lost\s+(?:my|our|the)\s+job|"
    r"retired|resigned|left\s+(?:my|the|our)\s+(?:job|company|position|firm)|"
    r"(?:got|took|landed|accepted|started)\s+(?:a|the|my)\s+(?:new\s+)?(?:job|position|role)|"
    r"went\s+(?:vegan|vegetarian|pescatarian|keto)|gave\s+up|stopped|took\s+up)\b"
)
# Something is over. "used to" is not a change cue (_CHANGE): said of the past, it ends the stored fact
# holding its words but no other fact of the slot ("I used to live in Lisbon" ends "lives in Lisbon", not
# "lives in Porto").
_ENDED = re.compile(r"\b(?:used\s+to|no\s+longer|anymore|any\s+more|no\s+more|quit|stopped|gave\s+up)\b")
_NEGATED = re.compile(r"\b(?:no\s+longer|not|never|no\s+more|anymore|any\s+more|used\s+to)\b|n't\b")
# Whose fact it is: "My sister moved to Paris" is not the user's move. A possessive of a person names
# someone else; any other fact (the user's, or "my job", "my car") is the user's.
_PERSON = (
    r"(?:sister|brother|mother|mom|mum|father|dad|parents?|son|daughter|kids?|children|child|baby|wife|husband|"
    r"partner|girlfriend|boyfriend|fianc[ée]e?|spouse|friend|best\s+friend|boss|colleague|coworker|co-worker|"
    r"roommate|flatmate|housemate|neighbou?r|grandma|grandpa|grandmother|grandfather|grandparents|aunt|uncle|"
    r"cousin|niece|nephew|in-laws|step\w+|ex)"
)
_OTHER_HOLDER = re.compile(rf"^(?:user's|my|our)\s+(?:(?:older|younger|little|big|eldest|oldest|youngest|twin)\s+)?"
                           rf"(?P<who>{_PERSON})\b")
_PARTNERS = frozenset("wife husband partner girlfriend boyfriend fiance fiancé fiancee fiancée spouse ex".split())
_FUNCTION = frozenset(
    """user i me my their they is are was were am be been the a an of in at on to for with by from as and or
    that this it its has have had do does did not no longer anymore more never now again since last month
    week year day today s t don doesn didn isn aren wasn""".split()
)


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")


def slots_of(text: str) -> frozenset[str]:
    """The slots ``text`` (a fact or a user message) speaks of (empty when none)."""
    folded = _fold(text)
    return frozenset(name for name, rx in SLOTS.items() if rx.search(folded))


def is_change(text: str) -> bool:
    """Whether ``text`` announces a change ("moved", "switched", "no longer", "now", "quit"...)."""
    return bool(_CHANGE.search(_fold(text)))


def is_negated(text: str) -> bool:
    """Whether ``text`` says something stopped or is not so ("no longer", "not", "n't", "anymore")."""
    return bool(_NEGATED.search(_fold(text)))


def is_ended(text: str) -> bool:
    """Whether ``text`` says something is over ("used to", "no longer", "stopped", "gave up", "quit")."""
    return bool(_ENDED.search(_fold(text)))


def holder(text: str, slot: str | None = None) -> str:
    """Whose fact ``text`` is: ``"user"``, or the person a leading possessive names ("sister" for "User's
    sister moved to Paris."). In the ``relationship`` slot a partner's fact is the user's relationship."""
    m = _OTHER_HOLDER.match(_fold(text).strip())
    if m is None:
        return "user"
    who = m.group("who")
    if slot == "relationship" and who in _PARTNERS:
        return "user"
    return re.sub(r"\s+", " ", who)


def content_words(text: str) -> frozenset[str]:
    """The stemmed content words of ``text`` (function words, "user" and negations left out)."""
    stem = get_stemmer("english")
    words = re.findall(r"\w+", _fold(text).replace("'", " "))
    return frozenset(stem(w) for w in words if w not in _FUNCTION)
