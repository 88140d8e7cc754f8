"""The English cues of a change ("moved", "switched", "no longer", "now"), of an ending ("used to", "quit", "died"),
of a change only planned ("I'm thinking of switching", "next month") and of a negation; and the content words two
facts are compared by. Pure: keyword rules, English only; the other capture rules read a sentence through these.
"""

from __future__ import annotations

import re

from ..calendar_words import ANY_MONTH as _MONTH
from ..slots import fold as _fold
from ..text import get_stemmer

__all__ = [
    "content_words",
    "is_change",
    "is_ended",
    "is_negated",
    "is_planned",
    "words_within",
]

_CHANGE = re.compile(
    r"\b(?:moved|relocated|switched|switching|changed|quit|no\s+longer|anymore|any\s+more|no\s+more|now|"
    r"became|got\s+(?:engaged|married|divorced|separated|together)|broke\s+up|split\s+up|separated|"
    r"(?:are|'re)\s+(?:over|through)|ended\s+(?:it|things)|started\s+(?:dating|seeing)|sold|"
    r"started\s+(?:working|teaching|eating|drinking)|new\s+job|these\s+days|nowadays|instead|"
    r"(?:got|was|been|just\s+got)\s+(?:hired|laid\s+off|fired|promoted)|lost\s+(?:my|our|the)\s+job|"
    r"retired|resigned|left\s+(?:my|the|our)\s+(?:job|company|position|firm|lab|bank|agency|hospital|clinic|"
    r"practice|school|studio|startup|start-up)|"
    r"(?:got|took|landed|accepted|started)\s+(?:a|an|the|my)\s+(?:new\s+)?(?:(?:full|part)-?time\s+|permanent\s+|"
    r"temporary\s+|remote\s+|in-?office\s+|hybrid\s+|teaching\s+|nursing\s+|summer\s+|weekend\s+|second\s+|side\s+|evening\s+|saturday\s+|holiday\s+|christmas\s+|student\s+)*"
    # "took a local delivery job", "landed a sales job" (not "a nose job", "a paint job")
    r"(?:(?!(?:nose|boob|paint|blow|hand|odd|quick|new)\b)[\w-]+\s+){0,2}?(?:job|position|role)|"
    # studies begun ("started a PhD", "began an apprenticeship") and a job begun as ("I start as a dispatcher")
    r"(?:started|starting|began|begun)\s+(?:a|an|my|the)\s+(?:new\s+)?(?:phd|doctorate|master's|masters|degree|"
    r"course|apprenticeship|internship|residency|traineeship)|(?:start|starts|started|starting)\s+as\s+(?:a|an)\b|"
    # a marriage or relationship ended ("Karim and I divorced", "she left me", "we're separating")
    r"divorced|divorcing|separating|getting\s+(?:divorced|separated|a\s+divorce)|filed\s+for\s+divorce|"
    r"filing\s+for\s+divorce|tied\s+the\s+knot|dumped\s+me|"
    r"left\s+me(?!\s+(?:a|an|the|some|his|her|their|its|with|alone|in\s+charge|out|\w+ing)\b)|"
    # a thing given up or swapped ("I swapped coffee for tea", "I traded in the Golf")
    r"swapped|swapping|cut\s+down|traded\s+in|got\s+rid\s+of|upgraded|"
    r"kicked\s+(?:the\s+habit|it)|(?:smoke|nicotine|alcohol|booze|caffeine)-free|given\s+up|giving\s+up|"
    r"called\s+it\s+(?:quits|off)|broke\s+it\s+off|parted\s+ways|separate\s+ways|met\s+(?:someone|somebody)|"
    r"dropped\s+out|accepted\s+(?:an|a|the|their)\s+(?:job\s+)?offer|turned\s+\d{1,3}|freelancing|"
    r"(?:got|bought|found|moved\s+into)\s+(?:my|our|their)\s+own\s+place|(?:started|begun|began)\s+\w+ing|"
    r"(?:went|gone|going|go|got)\s+back\s+to\s+(?:work|school|uni|university|college|the\s+office)|"
    r"(?:went|gone|going|go)\s+(?:(?:fully|full|completely|totally|100%|strictly)\s+)?"
    r"(?:vegan|vegetarian|pescatarian|keto|paleo|gluten-free|plant-based|sober|"
    r"teetotal|freelance|part-time|full-time|remote)|"
    r"gave\s+up|stopped(?!\s+by\b)|took\s+up|back\s+together|"
    # a job ended or begun
    r"made\s+redundant|let\s+go|(?:handed|gave|put)\s+in\s+(?:my|their|our)\s+notice|"
    r"(?:start|starts|started|starting)\s+at|joined|graduated|"
    # a home bought, a habit cut, something taken up again
    r"bought\s+(?:a|an|our|my|the)\s+(?:[\w-]+\s+)?(?:house|flat|home|place|apartment|condo)|"
    r"cut\s+out|cut\s+back|adopted|again|back\s+(?:on|to\s+\w+ing)|"
    r"(?:got|bought|have|'ve\s+got)\s+(?:a|an|my|our|the)\s+new|"
    r"(?:am|'m|is|are|'re|been)\s+(?:now\s+)?(?:retired|divorced|separated|widowed|sober|unemployed))\b"
)
# A change only thought of or planned: "I'm thinking of switching", "I might move", "planning to quit".
_INTENT = re.compile(
    r"\b(?:thinking\s+(?:about|of)|considering|contemplating|planning\s+(?:to|on)|plan\s+to|might|"
    r"(?:i|we)\s+may|"
    r"would\s+like\s+to|'d\s+like\s+to|want\s+to|wanna|hoping\s+to|hope\s+to|debating|toying\s+with|"
    r"not\s+sure\s+(?:if|whether)|wondering\s+(?:if|whether|about)|"
    # a change still to come: "We're moving to Bath next month", "I'm starting at Google next week"
    r"(?:\bi\s+am|\bwe\s+are|'m|'re)\s+(?:just\s+|finally\s+|actually\s+|also\s+)?\w+ing\b[^.;]*\b"
    r"(?:next\s+(?:week|month|year|spring|summer|autumn|fall|winter|term)|soon|tomorrow|"
    rf"in\s+(?:a\s+(?:few\s+|couple\s+of\s+)?(?:days?|weeks?|months?)|{_MONTH})))\b"
)
# An event that happened once more: "My car broke down again", "I lost my keys again" ("again" is no change
# there); "I eat meat again", "I'm single again", "I started running again" are.
_REPEATED_EVENT = re.compile(
    r"\b(?:broke|fell|lost|forgot|missed|left|dropped|crashed|burned|burnt|spilled|spilt|overslept|forgot|"
    r"happened|failed|cried|(?!(?:start|stopp|quitt|switch|mov|relocat|return|reti|graduat|adopt|divorc|"
    r"separat|marri|engag|promot|hir|fir|join)\w*ed\b)\w+ed)\b.*\bagain\b"
)
# Something is over. "used to" is not a change cue (_CHANGE): said of the past, it ends the stored fact
# holding its words but no other fact of the slot ("I used to live in Lisbon" ends "lives in Lisbon", not
# "lives in Porto").
_ENDED = re.compile(
    r"\b(?:used\s+to|no\s+longer|anymore|any\s+more|no\s+more|quit|stopped(?!\s+by\b)|gave\s+up|cut\s+out|"
    r"passed\s+away|"
    r"died|rehomed|had\s+to\s+rehome|given\s+up|kicked\s+(?:the\s+habit|it)|(?:smoke|nicotine|alcohol|booze)-free|"
    r"dropped\s+out|called\s+it\s+(?:quits|off)|cancell?ed)\b"
)
_NEGATED = re.compile(
    r"\b(?:no\s+longer|not|never|no\s+more|anymore|any\s+more|used\s+to)\b|n't\b|\bno\b(?!\s*(?:[,.!;:]|$))"
)
_FUNCTION = frozenset(
    """user i me my their they is are was were am be been the a an of in at on to for with by from as and or
    that this it its has have had do does did not no longer anymore more never now again since last month
    week year day today s t don doesn didn isn aren wasn""".split()
)


def is_change(text: str) -> bool:
    """Whether ``text`` announces a change ("moved", "switched", "no longer", "now", "quit", "passed away",
    "started at", "again"...). Not a change only thought of ("I'm thinking of switching to decaf", "I might
    move"), nor "again" after an event ("My car broke down again": it happened once more)."""
    folded = _fold(text)
    if _INTENT.search(folded):
        return False
    if _REPEATED_EVENT.search(folded):
        folded = re.sub(r"\bagain\b", " ", folded)
    return bool(_CHANGE.search(folded))


def is_planned(text: str) -> bool:
    """Whether ``text`` tells a change only thought of or still to come ("I'm thinking of switching", "I'm
    leaving Google next month")."""
    return bool(_INTENT.search(_fold(text)))


def is_negated(text: str) -> bool:
    """Whether ``text`` says something stopped or is not so ("no longer", "not", "n't", "no", "anymore")."""
    return bool(_NEGATED.search(_fold(text)))


def is_ended(text: str) -> bool:
    """Whether ``text`` says something is over ("used to", "no longer", "stopped", "gave up", "quit", "died"),
    not only thought of ("I'm planning to quit")."""
    folded = _fold(text)
    return bool(_ENDED.search(folded)) and not _INTENT.search(folded)


_CLOCK_WORD = re.compile(r"^(?P<hour>\d{1,2})(?P<half>am|pm)?$")


def _same_hour(word: str, other: str) -> bool:
    """Whether ``word`` and ``other`` name the same hour, one with its "am" / "pm" and one bare ("7", "7pm"; not
    "7am" and "7pm")."""
    a, b = _CLOCK_WORD.match(word), _CLOCK_WORD.match(other)
    return a is not None and b is not None and a.group("hour") == b.group("hour") \
        and (a.group("half") is None) != (b.group("half") is None)


def words_within(words: frozenset[str], old: frozenset[str]) -> bool:
    """Whether every one of ``words`` (:func:`content_words`) is in ``old``, an hour told bare matching the same
    hour with its "am" / "pm" ("every tuesday at 7" is within "every Tuesday at 7pm", as a model writes it down).

    >>> words_within(frozenset({"tuesday", "7"}), frozenset({"tuesday", "7pm"}))
    True
    >>> words_within(frozenset({"7am"}), frozenset({"7pm"}))
    False
    """
    return all(word in old or any(_same_hour(word, other) for other in old) for word in words)


def content_words(text: str) -> frozenset[str]:
    """The stemmed content words of ``text`` (function words, "user" and negations left out)."""
    stem = get_stemmer("english")
    words = re.findall(r"\w+", _fold(text).replace("'", " "))
    return frozenset(stem(w) for w in words if w not in _FUNCTION)
