"""What comes after the statement in a sentence, and is left out of the fact.

"I live in Leeds btw", "I'm a nurse, been doing nights for ten years", "I'm visiting Rome next month and would
love some tips", "I'm scared of flying, funny right?": a filler, an aside, a request or a question tag after the
statement says nothing the fact needs. Pure: patterns, English only.
"""

from __future__ import annotations

import re

from ..number_words import number_words
from ..ranking.care import is_care_fact
from .grammar import PRESENT_VERBS, is_subjectless_change, is_verb_form, third_person
from .leads import CLINICIAN
from .patterns import rx
from .afterthoughts import without_afterthought
from .cues import is_change
from .slots import slots_of
from .speech_acts import QUESTION_TAIL

__all__ = [
    "REQUEST_TAIL", "asks_to_confirm", "cut_aside", "plain", "without_empty_tail", "without_request",
    "without_tag_question",
]

# "I'm visiting Rome next month and would love some tips": the request after the statement is cut off.
REQUEST_TAIL = rx(
    r"(?:,\s*|\s+)(?:and|so|but)\s+(?:i\s+|i'm\s+|i\s+am\s+)?(?:really\s+)?"
    r"(?:(?:would|'d)\s+(?:like|love)\b|(?:need|want)\s+(?:\S+\s+){0,5}?"
    r"(?:ideas|suggestions|recommendations|advice|tips|help|options|recipes)\b"
    r"|(?:am\s+|'m\s+)?(?:looking\s+for|wondering)\b)"
    r".*$"
    # "..., make sure any recipes are safe", "... so nothing with that", "..., no nuts please": what the assistant is
    # asked to do with the fact
    r"|(?:\s*,\s*(?:so\s+)?|\s+-\s+|\s+so\s+)(?:(?:please|pls|just)\s+)?(?:make\s+sure|ensure|nothing\s+with|"
    r"no\s+[\w'-]+(?:\s+[\w'-]+)?\s+(?:please|pls|thanks)|(?:don't|do\s+not)\s+(?:give|suggest|include|add|put|"
    r"use|recommend|send)\s+me|keep\s+(?:it|them|everything|things|(?:the|any|all|my)\s+[\w'-]+)\s+[\w'-]+-free)\b"
    r".*$"
)


def without_request(text: str) -> str:
    """``text`` without the request after its statement (:data:`REQUEST_TAIL`: "I'm super allergic to peanuts, make
    sure any recipes are safe" -> "I'm super allergic to peanuts"); ``text`` itself when nothing would be left."""
    return REQUEST_TAIL.sub("", text) or text


# "..., by the way." / "..., as I said.": a tail that adds nothing to the fact; "..., remember that.", "... - please
# keep that in mind": a request to the assistant, never part of the fact.
_EMPTY_TAIL = rx(r"(?:(?:,\s*|\s+)(?:by\s+the\s+way|btw|as\s+i\s+said|like\s+i\s+said|as\s+i\s+mentioned|lol+|"
                 r"ha(?:ha)+|lmao|lmfao|rofl|xd|ugh+|eek|oops+|whoops+|unfortunately|sadly|though|fyi|too|as\s+well|"
                 # an aside to the listener: "..., just so you know", "... if that helps", "..., don't judge"
                 r"(?:just\s+)?so\s+you(?:'re)?\s+(?:know|aware)|just\s+(?:to\s+)?let(?:ting)?\s+you\s+know|"
                 r"for\s+your\s+info(?:rmation)?|for\s+the\s+record|for\s+reference|just\s+saying|as\s+you\s+know|"
                 r"you\s+know|if\s+(?:that|it)\s+(?:helps|matters|changes\s+anything|makes\s+(?:a|any)\s+difference|"
                 r"is\s+relevant)|in\s+case\s+(?:that|it)\s+(?:helps|matters)"
                 r"(?:\s+for\s+anything)?|(?:in\s+case|if)\s+you\s+(?:were|are)\s+wondering|if\s+you\s+must\s+know|"
                 r"don't\s+judge(?:\s+me)?|no\s+judge?ment(?:\s+please)?|"
                 r"not\s+sure\s+if\s+i\s+(?:mentioned|said|told\s+you)(?:\s+(?:it|that|this))?(?:\s+before)?|"
                 r"(?:in\s+case|if)\s+i\s+(?:didn't|haven't|never)\s+(?:mention(?:ed)?|say|said|tell\s+you|told\s+you)"
                 r"(?:\s+(?:it|that|this))?(?:\s+before)?|"
                 r"remember|if\s+you\s+remember|you\s+remember|"
                 # how much, said vaguely after the fact: "..., like properly", "... and stuff"
                 r"like\s+(?:properly|proper|seriously|really|badly|severely|literally|totally|super|very|so|big\s+time)"
                 r"(?:\s+\w+)?(?=\s*(?:,|[.!]*$))|and\s+(?:everything|stuff|all\s+that|the\s+works)(?=[\s.!]*$))"
                 # "..., epipen and everything": a vague list after a comma
                 r"|\s*,\s*(?:[\w'-]+\s+){1,2}?and\s+(?:everything|stuff|all\s+that|the\s+works)(?=[\s.!]*$)"
                 # what set a change off: "I've gone vegan since watching that documentary"
                 r"|\s+since\s+(?:watching|reading|seeing|hearing|listening\s+to)\s+(?:a|an|the|that|this|my|some)\b.*"
                 r"|(?:\s*,\s*|\s+-\s+|\s*[\u2014\u2013]\s*|\s+(?:so|and)\s+)(?:(?:so|and|please|pls)\s+)*"
                 r"(?:remember|note|don't\s+forget|do\s+not\s+forget|(?:keep|bear)\s+(?:(?:that|this|it)\s+)?in\s+mind|"
                 r"make\s+a\s+note(?:\s+of)?|note\s+(?:that|this|it)\s+down)"
                 r"(?:\s+(?:that|this|it))?(?:\s+(?:please|pls|for\s+(?:next\s+time|later|the\s+future)))?"
                 # an apology after a correction: "..., sorry", "... - my bad" (after a comma or a dash only: "I'm
                 # not sorry" says something)
                 r"|(?:\s*,\s*|\s+-\s+|\s*[\u2014\u2013]\s*)(?:(?:so|really)\s+)?(?:sorry|my\s+bad|my\s+mistake|oops|"
                 r"whoops|apologies)(?:\s+(?:about\s+that|for\s+the\s+confusion|for\s+the\s+mix-?up))?"
                 # a hedge typed after the statement with no comma: "job hunting I guess" (not "what I think")
                 r"|(?<!\bwhat)(?<!\bhow)\s+i\s+(?:guess|think|suppose|reckon)"
                 # an aside on how plain it is: "I stopped running obviously", "I'm vegan, of course"
                 r"|(?:\s*,\s*|\s+)(?:obviously|of\s+course|ofc|apparently|naturally|clearly|lol\s+obviously)"
                 # sympathy or hope after news: "Mia has the flu, poor thing", "..., fingers crossed"
                 r"|(?:\s*,\s*|\s+-\s+)(?:poor\s+(?:thing|baby|girl|boy|guy|kitty|pup|doggo|love)|"
                 r"bless\s+(?:her|him|them)|"
                 r"fingers\s+crossed|touch\s+wood|knock\s+on\s+wood|(?:how\s+)?time\s+flies|can\s+you\s+believe\s+it)"
                 # thanks after the statement: "my back is fine, thanks"
                 r"|(?:\s*,\s*|\s+-\s+)(?:thanks|thank\s+you|thx|ty|cheers)(?:\s+(?:so\s+much|a\s+lot|for\s+asking))?"
                 # who said it, after what they said: "Luna has kidney failure, the vet said"
                 rf"|(?:\s*,\s*|\s+-\s+)(?:(?:so\s+|or\s+so\s+)?(?:the|my|our|her|his|their)\s+)?(?:{CLINICIAN})\s+"
                 r"(?:says|said|thinks|reckons|confirmed|told\s+(?:me|us))"
                 rf"|(?:\s*,\s*|\s+)according\s+to\s+(?:the|my|our|her|his|their)\s+(?:{CLINICIAN}))"
                 r"[\s.!]*$")


def without_empty_tail(text: str) -> str:
    """``text`` without the tails that add nothing to a fact (:data:`_EMPTY_TAIL`), one after the other ("I live in
    Leeds btw, not sure if I mentioned" -> "I live in Leeds"); ``text`` itself when nothing would be left."""
    while True:
        cut = _EMPTY_TAIL.sub("", without_afterthought(text))
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
    rf"|(?:\d+|{number_words('ten')}|a\s+few|several)\s+(?:days?|weeks?|months?|years?)"
    r"\s+\w+(?:\s+now)?\s*[.!]*$"
    # "I'm a cop, 11 years on the force this spring": how long, and where
    rf"|(?:\d+|{number_words('ten')}|a\s+few|several)\s+(?:years?|months?)\s+"
    r"(?:on|in|at|with|into)\b"
    # "..., way too cold for another winter": why
    r"|(?:way\s+|far\s+|much\s+)?too\s+\w+\b"
    # "..., mostly staring at plankton": what it mostly comes to
    r"|(?:mostly|mainly|basically)\s+\w+ing\b"
    # "I'm allergic to penicillin, came out in hives as a kid", "..., learnt that the hard way", "..., found that out
    # the hard way in nursing school": how it was found
    r"|(?:came|went|broke)\s+out\s+in\b|found\s+(?:(?:that|it|this)\s+)?out\b|learn(?:t|ed)\s+(?:that|it|this)\b"
    r"|discovered\s+(?:that|it|this)\b|figured\s+(?:that|it|this)\s+out\b"
    r").*)$"
)


# "... since I was a kid", "... so it hurt", "... so mondays are chaos", "... and still begging lifts off my brother",
# "... and getting really picky", "got an iphone 15 as the replacement": when the fact began, what follows from it,
# how it still goes or what it stands in for, told after it without a comma (not "... and getting married").
_TRAILING_ASIDE = rx(
    r"\s+(?:(?:ever\s+)?since\s+(?:i|we)\s+(?:was|were)\b|and\s+still\s+\w+ing\b"
    r"|as\s+(?:a|the|my|our)\s+replacement(?=\s*(?:[.!,;]|$)|\s+(?:for|so|and)\s)"
    r"|and\s+(?:still\s+)?getting\s+(?:(?:really|very|so|a\s+bit|more|quite|pretty|super)\s+)?"
    r"(?!(?:married|engaged|divorced|ready|better|a|an|the|my|our)\b)[a-z]+\s*[.!]*$"
    r"|so\s+(?:(?:i|we|it|that|there|the|my|our)\b|(?:\w+\s+){1,2}(?:are|is|was|were|gets?)\b)).*$"
)


# "... so any protein shake has to be plant-based", "... so please don't deliver then", "... so anything with a direct
# flight from DEN works", "... so stovetop only": what follows from the fact, told after it without a comma; not a "so"
# of degree or of "or so" (:data:`_NOT_A_CONSEQUENCE` before it: "User is so tired", "for a year or so").
_SO_THEN = rx(
    r"\s+so\s+(?:(?:any|anything|everything|nothing|please|pls|he|she|they|his|her|their|this|these|those|you)\b"
    r"|(?:[\w'-]+\s+){1,3}?(?:has|have|had|can|can't|cannot|must|needs?|works?|will|won't|should)\b"
    r"|[\w-]+(?:\s+[\w-]+)?\s+only\b).*$"
)
_NOT_A_CONSEQUENCE = rx(r"\b(?:is|are|am|was|were|be|been|'m|'re|'s|feel|feels|felt|get|gets|got|look|looks|seem|"
                        r"seems|not|it|that|or|and|just|even|do|did|does)$")


# "... so no cheese boards for us", "..., so Anjali keeps a nut-free house": what follows from a care fact, after
# it (after a care fact only: "I tore my ACL so no more football" says what stopped).
_SO_NO = rx(r"(?:\s+so\s+no\b|\s*,\s*(?:and\s+)?so\s+(?=\S)).*$")


# "..., boxes everywhere", "..., so much cheaper": a few words without a verb after a change, saying how it went.
_BARE_TAIL = rx(r"\s*,\s+(?P<tail>(?-i:[a-z])[\w'-]*(?:\s+[\w'-]+){0,2})\s*[.!]*$")


# "I work two weeks on, two weeks off", "4 days on, 4 days off": a rota, one fact with both halves (issue 21,
# capfix40b); the "off" half reads like a time said after the fact ("..., six months sober now").
_ROTA_ON = rx(rf"\b(?:\d+|{number_words('ten')}|a)\s+(?:days?|nights?|weeks?|months?|shifts?)\s+on\s*$")
_ROTA_OFF = rx(rf"(?:\d+|{number_words('ten')}|a)\s+(?:days?|nights?|weeks?|months?|shifts?)\s+off\b")


def cut_aside(statement: str) -> str:
    """``statement`` without an aside after it (:data:`_ASIDE_TAIL`, :data:`_TRAILING_ASIDE`, :data:`_SO_THEN`, a verbless
    :data:`_BARE_TAIL` after a change); a change told after the comma without its "I" ("..., got promoted") is no
    aside."""
    m = _TRAILING_ASIDE.search(statement)
    if m is not None and m.start() > 0:
        statement = statement[: m.start()]
    m = _SO_THEN.search(statement)
    if m is not None and m.start() > 0 and not _NOT_A_CONSEQUENCE.search(statement[: m.start()]):
        statement = statement[: m.start()]  # "I live in Denver so anything with a direct flight works"
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
    if m is None or m.start() == 0 or is_subjectless_change(m.group("tail")) \
            or (_ROTA_ON.search(statement[: m.start()]) and _ROTA_OFF.match(m.group("tail"))):
        return statement  # "I work two weeks on, two weeks off": a rota's other half, no aside
    head = statement[: m.start()]
    return without_empty_tail(head)


# Words of emphasis that say how the user feels about a fact, not what it is: "User is officially retired."; with
# the comma before one that ends the fact ("User lives in Porto, actually.": no "Porto,." left).
_EMPHASIS = rx(
    r"(?:\s*,(?=\s*\w+[.!]?$))?\s+(?:finally|officially|actually|basically|literally|honestly|fully|completely|"
    r"totally|absolutely|definitely|seriously|genuinely)\b(?=\s|[.!]?$)"
)
# "User does live in Porto." ("I do still live in Porto"): the "do" of emphasis before a present verb, which the plain
# statement drops ("User lives in Porto."). Only when a function word follows the verb, or nothing does, or the verb
# is one of feeling or having (:data:`_TAKES_A_THING`): "I do volunteer work", "I do dance classes", "I do code
# reviews" do the work, the classes, the reviews (issue 21, rev41a: "User volunteers work at the food bank.").
_EMPHATIC_DO = re.compile(
    r"^(?P<head>User(?:'s\s+[a-z][\w-]*(?:\s+[A-Z][\w-]*)?)?)\s+(?P<aux>does|do)\s+(?P<verb>[a-z]+)\b"
    r"(?=\s*(?:[.!?,;]|$)|\s+(?P<next>[\w']+))"
)
_FUNCTION_WORDS = frozenset(
    "in at to on for with from by near into onto about of over under around across through after before since "
    "until till a an the my your his her their our its this that these those some any all every each no "
    "it them him me us you here there so very too really still just now again together every".split()
)
# verbs whose object may be any noun ("do love pizza", "do need a break"), not a noun themselves before it
_TAKES_A_THING = frozenset(
    "have love like hate enjoy miss need want own prefer know mind remember believe understand appreciate".split()
)

# "User has got a dog." ("I've got a dog", "we've got two cats"): what the user has, said plainly ("User has a
# dog."); not a change told with "got" ("User has got married"; "has got a new job", "a promotion", "a raise", "a
# place at Oxford": what they received, said with an article too, issue 21, rev41a).
_HAS_GOT = rx(
    r"^(?P<head>User(?:'s\s+[a-z][\w-]*(?:\s+[A-Z][\w-]*)?)?\s+(?:has|have))\s+got\s+"
    r"(?=(?:a|an|two|three|four|five|six|seven|eight|nine|ten|\d+|some|no|one)\s)"
    r"(?!(?:an?|the)\s+(?:(?:new|better|big|huge|small|pay|full|permanent|temporary)\s+)?(?:job|promotion|raise|"
    r"pay\s+rise|rise|bonus|transfer|scholarship|offer|place|spot|position|role|grant|award|prize|contract|visa|"
    r"loan|mortgage|diagnosis|result|letter|call|invite|invitation|interview|degree|certificate|licen[cs]e)s?\b)"
)


def _without_emphatic_do(m: re.Match[str]) -> str:
    verb, after = m.group("verb"), (m.group("next") or "").lower()
    if verb != "have" and verb not in PRESENT_VERBS:
        return m.group(0)  # "User does yoga."
    if after and after not in _FUNCTION_WORDS and verb not in _TAKES_A_THING:
        return m.group(0)  # "User does volunteer work ...": the work is what they do
    if m.group("aux") == "do" and m.group("head") != "User":
        return f"{m.group('head')} {verb}"  # "User's kids love pizza."
    return f"{m.group('head')} {'has' if verb == 'have' else third_person(verb)}"


# "User is also allergic to shellfish.", "User still lives in Paris.", "User's sister really loves jazz.": a word
# after the subject (or its auxiliary) that ties the fact to what was said before, or stresses it; left in, the fact
# neither repeats nor replaces the same fact said plainly. Not "really" after a negation ("User doesn't really eat
# meat" is weaker than "doesn't eat"), nor "too" before what it measures ("User is too tired").
_SUBJECT_THEN_FILLER = re.compile(
    r"^(?P<head>User(?:'s\s+[a-z][\w-]*(?:\s+[A-Z][\w-]*)?)?"
    r"(?:\s+(?P<aux>is|are|has|have|had|was|were|does|do|did|can|will|would|could|"
    r"isn't|aren't|hasn't|haven't|doesn't|don't|didn't|wasn't|weren't|can't|won't|(?:is|are|does|do|has|have)\s+not))?)"
    r"\s+(?P<filler>also|still|really)(?=\s+[\w'])"
)


def _without_filler_adverb(m: re.Match[str]) -> str:
    aux = m.group("aux") or ""
    if m.group("filler") == "really" and ("n't" in aux or aux.endswith("not")):
        return m.group(0)
    return m.group("head")


def plain(fact: str) -> str:
    """The rewritten ``fact`` without words of emphasis ("User is officially retired." -> "User is retired.") and
    without an "also", "still" or "really" after its subject ("User is also allergic to shellfish." -> "User is
    allergic to shellfish.", "User still lives in Paris." -> "User lives in Paris."), without the "do" of emphasis
    ("User does live in Porto." -> "User lives in Porto.", "User's kids do love pizza." -> "User's kids love
    pizza.", not "User does volunteer work.") and with "has got" of what the user has said plainly ("User has got a
    dog." -> "User has a dog.", not "User has got a promotion.")."""
    fact = _SUBJECT_THEN_FILLER.sub(_without_filler_adverb, _EMPHASIS.sub("", fact))
    return _HAS_GOT.sub(r"\g<head> ", _EMPHATIC_DO.sub(_without_emphatic_do, fact))


# "..., funny right?", "..., crazy, isn't it?", "..., you know?", "..., huh?": a tag after a statement, asking only to
# agree with how it is told (the statement stands).
_TAG_QUESTION = rx(
    r"(?:\s*,\s*|\s+)(?:(?:(?:so|pretty|kinda|kind\s+of|a\s+bit)\s+)?(?:funny|crazy|weird|ironic|wild|mad|sad|"
    r"typical|classic|insane|silly|strange|odd|hilarious|cute|ridiculous)\s*,?\s+"
    r"(?:right|huh|eh|innit|isn't\s+it|ain't\s+it|no|yeah)"
    r"|huh|eh|innit|ain't\s+it|don't\s+you\s+think|you\s+know)\s*\?+\s*$"
)
# "..., right?", "... correct?", "..., isn't it?", "..., aren't I?", "..., is that right?": a bare tag asking the
# listener to confirm the statement; the user asks whether it holds, and states nothing ("..., is that ok?" asks
# about a statement that stands).
_CONFIRMING_TAG = rx(
    r"(?:\s*,\s*|\s+)(?:right|correct|yes|yeah|yea|yep|no|true|or\s+not|(?:am\s+i|is\s+that|isn't\s+that)\s+"
    r"(?:right|correct|true|so)|(?:is|isn't|was|wasn't)\s+(?:it|that)|"
    r"(?:am|aren't|ain't|do|don't|did|didn't|can|can't|could|couldn't|should|shouldn't|will|won't|have|haven't|"
    r"was|wasn't)\s+i)\s*[?!]*\?[?!]*\s*$"
)


def asks_to_confirm(text: str) -> bool:
    """Whether ``text`` is a statement ending in a bare tag asking the listener to confirm it ("I'm not allowed to
    take ibuprofen while pregnant right?", "I can eat shrimp, correct?", "..., isn't it?"): a question, not a
    statement; not when the tag only asks to agree with how it is told ("I'm afraid of knives, crazy right?"), nor
    when it ends a question of its own ("I'm lactose intolerant, can I have ice cream or not?").

    >>> asks_to_confirm("I can't take ibuprofen, right?"), asks_to_confirm("I'm scared of flying, funny right?")
    (True, False)
    """
    tag = _CONFIRMING_TAG.search(text)
    if tag is None or tag.start() == 0 or _TAG_QUESTION.search(text) is not None:
        return False
    return QUESTION_TAIL.match(text[: tag.start()]) is None


# "..., so what should I cook for him", "... but how do I start": a question typed without its "?"; after a comma
# also "what's a cute cheap date idea", "any tips": a request, never part of the fact.
_UNMARKED_QUESTION = rx(
    r"(?:\s*,\s*|\s+)(?:so|but|and)\s+(?:what|how|where|which|who|when)\s+(?:should|can|could|would|shall|do)\s+"
    r"(?:i|we)\b[^.!]*[.!]*$"
    r"|\s*,\s*(?:what(?:'s|s|\s+is|\s+are)\s+(?:a|an|the|some|good|any)\b|any\s+(?:good\s+)?"
    r"(?:ideas?|tips|suggestions|recommendations|advice)\b)[^.!?]*[.!]*$"
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
