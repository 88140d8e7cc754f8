"""The verbs the rules know: their forms after "I" and after "User", their tense, and a change told without its "I".

Pure: word lists and patterns, English only.
"""

from __future__ import annotations

from .patterns import rx
from .cues import is_change
from .endings import acquired_slots

__all__ = [
    "ADVERBS",
    "AUX",
    "PRESENT_VERBS",
    "is_bare_present",
    "is_past",
    "is_past_statement",
    "is_subjectless_change",
    "is_verb_form",
    "third_person",
]

# Adverbs that may stand between the subject and its verb: "I also really like ...", "we no longer ...".
ADVERBS = (
    r"(?:also|really|just|recently|still|always|never|often|usually|sometimes|currently|actually|mostly|only|now|"
    r"finally|already|even|generally|normally|rarely|seldom|occasionally|absolutely|totally|definitely|truly|"
    r"mainly|barely|hardly|no\s+longer|not|once|first|eventually|regularly|previously|typically|both|strongly|"
    r"deeply|greatly|highly|much|personally|especially|particularly|certainly|simply|genuinely|honestly|"
    r"seriously|kind\s+of|sort\s+of|pretty\s+much|basically|literally|hardly\s+ever|almost\s+never|ever)"
)
# Auxiliaries after "I" and their form after "User".
AUX = {
    "am": "is", "'m": "is", "im": "is", "have": "has", "'ve": "has", "ive": "has", "do": "does", "don't": "doesn't",
    "haven't": "hasn't", "was": "was", "wasn't": "wasn't", "had": "had", "did": "did", "didn't": "didn't",
    "will": "will", "'ll": "will", "won't": "won't", "can": "can", "can't": "can't", "cannot": "cannot",
    "must": "must", "might": "might", "may": "may", "used": "used", "need": "needs", "ain't": "isn't",
}
# Present-tense verbs that rewrite reliably ("I work" -> "User works"); anything else is kept as said.
PRESENT_VERBS = frozenset(
    """live work love like prefer hate dislike enjoy play own study teach speak eat drink cook bake want use
    volunteer practice practise collect paint write swim cycle bike drive walk hike travel visit go take keep sing
    dance watch listen follow avoid attend belong care come commute coach grow knit meditate support suffer struggle
    rent raise run sleep wake wear manage lead mentor know feel get make fly miss plan intend try sell buy shop save
    earn spend host train research design build fix repair code serve share stay celebrate adore identify
    garden camp surf ski climb fish hunt sew draw start begin smoke vape jog foster adopt lift brew ride give read carry
    boulder skate skateboard snowboard kayak dive send call phone ring text feed donate babysit tutor fast pray""".split()
)
_IRREGULAR_PAST = frozenset(
    """went became got took made began bought brought left met grew found felt saw ran gave came knew lost won wrote
    taught spent sold broke chose drove fell forgot quit built caught sang swam rode flew wore held kept slept led
    paid sent spoke stood understood woke drank ate told heard threw hid fed dug cut hurt""".split()
)

# "Just moved to Leeds!", "Got promoted today": a change told without its "I". The verb must carry the
# change: "Left my keys at home again" is not news.
_WEAK_CHANGE = rx(r"\b(?:again|now|instead|these\s+days|nowadays)\b")
_IMPLIED_I = rx(
    r"^(?:just\s+|finally\s+|recently\s+|officially\s+)?(?:moved|relocated|switched|upgraded|swapped|quit|retired|"
    r"started|joined|"
    r"graduated|adopted|bought|sold|got|became|went|gave\s+up|stopped|broke\s+up|split\s+up|left|lost|turned|"
    r"(?:handed|gave|put)\s+in|picked\s+up|leased)\b"
)


def is_bare_present(word: str) -> bool:
    """Whether ``word`` is the bare present form of a verb the rules rewrite ("work", "live", "play")."""
    return word.lower() in PRESENT_VERBS


def is_verb_form(word: str) -> bool:
    """Whether ``word`` is a verb form the rules know ("is", "'s", "teaches", "plays", "moved", "went")."""
    w = word.lower().strip(".,!?;:")
    if w in AUX or w in AUX.values() or w in {"is", "are", "were", "does", "has"} or is_past(w):
        return True
    return "'" in w or any(w == third_person(v).lower() or w == v for v in PRESENT_VERBS)


# "got a Tesla", "bought an iPhone", "picked up a used Corolla": a thing got (not "got my car back", "got the car
# fixed").
_GOT_ONE = rx(r"^(?:just\s+|finally\s+)?(?:got|bought|leased|picked\s+up)\s+(?:a|an)\s")


def is_subjectless_change(text: str) -> bool:
    """Whether ``text`` is a change told without its "I" ("Just moved to Leeds", "Sold the car", "got a Tesla": a
    car or a phone got is a new one): the user's."""
    said = "I " + _WEAK_CHANGE.sub(" ", text)
    return bool(_IMPLIED_I.match(text)) and (is_change(said) or bool(_GOT_ONE.match(text) and acquired_slots(said)))


_MAIN_VERB = rx(rf"\b(?:user|i|we)\s+(?:{ADVERBS}\s+)*(?P<verb>[a-z']+)")


def is_past_statement(text: str) -> bool:
    """Whether ``text`` tells of the past by its main verb ("User played rugby at uni.", "Back in uni I played
    rugby"), not of now ("User plays rugby.", "User has played rugby for years.")."""
    m = _MAIN_VERB.search(text)
    return m is not None and is_past(m.group("verb"))


def third_person(verb: str) -> str:
    """``verb``'s present form after "User" ("work" -> "works", "teach" -> "teaches", "study" -> "studies")."""
    v = verb.lower()
    if v in ("have", "do", "go"):
        return {"have": "has", "do": "does", "go": "goes"}[v]
    if v.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(v) > 1 and v.endswith("y") and v[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def is_past(verb: str) -> bool:
    """Whether ``verb`` is a past form ("went", "moved"; not "need")."""
    v = verb.lower()
    return v in _IRREGULAR_PAST or (len(v) > 3 and v.endswith("ed") and not v.endswith("eed"))


# "she's been", "he's gone right off red meat", "she's got asthma": a participle after "'s", which there is "has".
_PARTICIPLE_AFTER_S = rx(r"^(?:been|gone|got|had|become|taken|given|done|made|grown|started|stopped|decided|finished|"
                         r"joined|switched|turned|lost|found|left|"
                         # "she's moved to Leeds", "he's bought a van": a move or a purchase made
                         r"moved|relocated|bought|sold|adopted|signed|booked|applied|landed|won)\b")


def contracted_verb(rest: str) -> str:
    """What the "'s" of "he's ``rest``" stands for: "has" before a participle ("he's gone right off red meat"), else
    "is" ("she's a nurse").

    >>> contracted_verb("gone right off red meat"), contracted_verb("a nurse"), contracted_verb("got asthma")
    ('has', 'is', 'has')
    """
    return "has" if _PARTICIPLE_AFTER_S.match(rest) else "is"
