"""What comes after the statement in a sentence, and is left out of the fact.

"I live in Leeds btw", "I'm a nurse, been doing nights for ten years", "I'm visiting Rome next month and would
love some tips", "I'm scared of flying, funny right?": a filler, an aside, a request or a question tag after the
statement says nothing the fact needs. Pure: patterns, English only.
"""

from __future__ import annotations

from ..ranking.care import is_care_fact
from .grammar import is_subjectless_change, is_verb_form
from .patterns import rx
from .slots import is_change, slots_of

__all__ = ["REQUEST_TAIL", "cut_aside", "plain", "without_empty_tail", "without_tag_question"]

# "I'm visiting Rome next month and would love some tips": the request after the statement is cut off.
REQUEST_TAIL = rx(
    r"(?:,\s*|\s+)(?:and|so|but)\s+(?:i\s+|i'm\s+|i\s+am\s+)?(?:really\s+)?"
    r"(?:(?:would|'d)\s+(?:like|love)\b|(?:need|want)\s+(?:\S+\s+){0,5}?"
    r"(?:ideas|suggestions|recommendations|advice|tips|help|options|recipes)\b"
    r"|(?:am\s+|'m\s+)?(?:looking\s+for|wondering)\b)"
    r".*$"
)

# "..., by the way." / "..., as I said.": a tail that adds nothing to the fact; "..., remember that.", "... - please
# keep that in mind": a request to the assistant, never part of the fact.
_EMPTY_TAIL = rx(r"(?:(?:,\s*|\s+)(?:by\s+the\s+way|btw|as\s+i\s+said|like\s+i\s+said|as\s+i\s+mentioned|lol+|"
                 r"ha(?:ha)+|lmao|lmfao|rofl|xd|ugh+|eek|unfortunately|sadly|though|fyi|too|as\s+well|"
                 # an aside to the listener: "..., just so you know", "... if that helps", "..., don't judge"
                 r"(?:just\s+)?so\s+you(?:'re)?\s+(?:know|aware)|just\s+(?:to\s+)?let(?:ting)?\s+you\s+know|"
                 r"for\s+your\s+info(?:rmation)?|for\s+the\s+record|for\s+reference|just\s+saying|as\s+you\s+know|"
                 r"you\s+know|if\s+(?:that|it)\s+(?:helps|matters)|in\s+case\s+(?:that|it)\s+(?:helps|matters)"
                 r"(?:\s+for\s+anything)?|(?:in\s+case|if)\s+you\s+(?:were|are)\s+wondering|if\s+you\s+must\s+know|"
                 r"don't\s+judge(?:\s+me)?|no\s+judge?ment(?:\s+please)?|"
                 r"not\s+sure\s+if\s+i\s+(?:mentioned|said|told\s+you)(?:\s+(?:it|that|this))?(?:\s+before)?|"
                 r"(?:in\s+case|if)\s+i\s+(?:didn't|haven't|never)\s+(?:mention(?:ed)?|say|said|tell\s+you|told\s+you)"
                 r"(?:\s+(?:it|that|this))?(?:\s+before)?|"
                 r"remember|if\s+you\s+remember|you\s+remember)"
                 r"|(?:\s*,\s*|\s+-\s+|\s*[\u2014\u2013]\s*|\s+(?:so|and)\s+)(?:(?:so|and|please|pls)\s+)*"
                 r"(?:remember|note|don't\s+forget|do\s+not\s+forget|(?:keep|bear)\s+(?:(?:that|this|it)\s+)?in\s+mind|"
                 r"make\s+a\s+note(?:\s+of)?|note\s+(?:that|this|it)\s+down)"
                 r"(?:\s+(?:that|this|it))?(?:\s+(?:please|pls|for\s+(?:next\s+time|later|the\s+future)))?)"
                 r"[\s.!]*$")


def without_empty_tail(text: str) -> str:
    """``text`` without the tails that add nothing to a fact (:data:`_EMPTY_TAIL`), one after the other ("I live in
    Leeds btw, not sure if I mentioned" -> "I live in Leeds"); ``text`` itself when nothing would be left."""
    while True:
        cut = _EMPTY_TAIL.sub("", text)
        if cut == text or len(cut.split()) < 2:  # "Me too!" is small talk, not "Me"
            return text
        text = cut


# "I'm a postman, been doing it for thirty years", "I'm allergic to penicillin, it came up at the pharmacy",
# "I'm 34, if that matters": an aside after the statement, about something else or told without a subject.
_ASIDE_TAIL = rx(
    r"(?:\s*,\s*|\s+-\s+)(?P<tail>(?:(?:(?:always|never|still|already|just|actually)\s+)?"
    r"(?:been|got|had|have|haven't|hasn't|did|didn't|was|wasn't)\b"
    r"|(?:if|unless|in\s+case|as\s+long\s+as|whatever|whenever|which)\b"
    r"|(?:it|he|she|they|this|that|there)(?:'s|'re|'ll|'d|\s+\w+)|its\s+\w+"
    r"|the\s+\w+\s+\w+(?:s|ed)\b"
    # "..., seems nice", "..., trying to be healthy": said of the fact, without a subject
    r"|(?:seems|looks|sounds|feels|trying\s+to|hoping\s+to|wish\s+me\s+luck)\b"
    # "..., six months sober now", "..., two years clean": how long, said after the fact
    r"|(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|several)\s+(?:days?|weeks?|months?|years?)"
    r"\s+\w+(?:\s+now)?\s*[.!]*$"
    # "I'm a cop, 11 years on the force this spring": how long, and where
    r"|(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|several)\s+(?:years?|months?)\s+"
    r"(?:on|in|at|with|into)\b"
    # "..., way too cold for another winter": why
    r"|(?:way\s+|far\s+|much\s+)?too\s+\w+\b"
    r").*)$"
)


# "... since I was a kid", "... so it hurt", "... so mondays are chaos": when the fact began, or what follows
# from it, told after it without a comma.
_TRAILING_ASIDE = rx(
    r"\s+(?:(?:ever\s+)?since\s+(?:i|we)\s+(?:was|were)\b"
    r"|so\s+(?:(?:i|we|it|that|there|the|my|our)\b|(?:\w+\s+){1,2}(?:are|is|was|were|gets?)\b)).*$"
)


# "... so no cheese boards for us": what a care fact rules out, after it (what follows a care fact only: "I tore
# my ACL so no more football" says what stopped).
_SO_NO = rx(r"\s+so\s+no\b.*$")


# "..., boxes everywhere", "..., so much cheaper": a few words without a verb after a change, saying how it went.
_BARE_TAIL = rx(r"\s*,\s+(?P<tail>(?-i:[a-z])[\w'-]*(?:\s+[\w'-]+){0,2})\s*[.!]*$")


def cut_aside(statement: str) -> str:
    """``statement`` without an aside after it (:data:`_ASIDE_TAIL`, :data:`_TRAILING_ASIDE`, a verbless
    :data:`_BARE_TAIL` after a change); a change told after the comma without its "I" ("..., got promoted") is no
    aside."""
    m = _TRAILING_ASIDE.search(statement)
    if m is not None and m.start() > 0:
        statement = statement[: m.start()]
    m = _SO_NO.search(statement)
    if m is not None and m.start() > 0 and is_care_fact(statement[: m.start()]):
        statement = statement[: m.start()]  # "Marco is lactose intolerant so no cheese boards for us"
    m = _BARE_TAIL.search(statement)
    head = statement[: m.start()] if m is not None else ""
    # "we moved to Porto, boxes everywhere": how it went, not what changed; a job's tail names the job ("I got a
    # new job, nursing assistant")
    if m is not None and head and is_change(head) and "job" not in slots_of(head) \
            and not any(is_verb_form(w) for w in m.group("tail").split()) \
            and not (slots_of(m.group("tail")) or is_care_fact(m.group("tail"))):
        statement = head
    m = _ASIDE_TAIL.search(statement)
    if m is None or m.start() == 0 or is_subjectless_change(m.group("tail")):
        return statement
    head = statement[: m.start()]
    return without_empty_tail(head)


# Words of emphasis that say how the user feels about a fact, not what it is: "User is officially retired."
_EMPHASIS = rx(
    r"\s+(?:finally|officially|actually|basically|literally|honestly|fully|completely|totally|absolutely|"
    r"definitely|seriously|genuinely)\b(?=\s|[.!]?$)"
)


def plain(fact: str) -> str:
    """The rewritten ``fact`` without words of emphasis ("User is officially retired." -> "User is retired.")."""
    return _EMPHASIS.sub("", fact)


# "..., right?", "..., funny right?", "..., isn't it?": a tag after a statement, asking only to agree.
_TAG_QUESTION = rx(
    r"(?:\s*,\s*|\s+)(?:(?:funny|crazy|weird|ironic|wild|mad|sad|typical|classic|ha|haha|lol)\s+)?"
    r"(?:right|huh|eh|innit|isn't\s+it|ain't\s+it|don't\s+you\s+think|you\s+know)\s*\?+\s*$"
)


# "..., so what should I cook for him", "... but how do I start": a question typed without its "?".
_UNMARKED_QUESTION = rx(
    r"(?:\s*,\s*|\s+)(?:so|but|and)\s+(?:what|how|where|which|who|when)\s+(?:should|can|could|would|shall|do)\s+"
    r"(?:i|we)\b[^.!]*[.!]*$"
)


def without_tag_question(text: str) -> str:
    """``text`` without a question after the statement that asks nothing of its own: one typed without its "?"
    ("my friend Tom is vegan so what should I cook for him"), a tag asking only to agree ("I'm scared of flying,
    funny right?")."""
    unmarked = _UNMARKED_QUESTION.search(text)
    if unmarked is not None and unmarked.start() > 0:
        text = text[: unmarked.start()]
    tag = _TAG_QUESTION.search(text)
    if tag is not None and tag.start() > 0 and not text[: tag.start()].rstrip().endswith("?"):
        text = text[: tag.start()]
    return text
