"""One user sentence cut into clauses, one fact each: "I live in Rome and I work as a chef" -> two clauses.

:func:`split_clauses` cuts where a new first-person clause starts, where the same subject goes on with a change
("I sold my Golf and bought a Tesla"), where a list of animals or of what the user is ("I'm 34, married, a nurse")
gives one fact an item; "My wife and I moved to Berlin" stays whole. :func:`own_clauses` gives the clauses of a
whole message, as the plain statements they mean. Pure: patterns, English only.
"""

from __future__ import annotations

import re

from ..number_words import number_words
from .filler import strip_filler
from .grammar import contracted_verb, is_bare_present, is_past, is_subjectless_change, is_verb_form
from .introductions import being_a, role_here
from .leading_clauses import split_leading
from .leads import strip_lead
from .lists import AGE_ITEM as _AGE_ITEM, KIDS, PROFILE_ITEM as _PROFILE_ITEM, split_list, verb_item as _verb_item
from .moments import NOW_WORDS, SOON
from .pasted import split_pasted
from .patterns import I_AM, MY_PERSON, MY_PERSON_NAMED, rx
from .played import split_played
from .rewrite import article
from .restated import corrected_in_message
from .retracted import without_retracted
from .begun_since import TIME_LEAD
from .retold import as_plain_statements
from .activities import PETS
from .consequences import is_consequence
from .cues import is_change
from .endings import acquired_slots
from .family import as_family_said
from .slots import slots_of
from .speech_acts import CONDITIONAL, own_part
from .typos import read_as_meant
from .unmarked_questions import told_of_someone, with_question_marked
from .who_clauses import split_who_clause

__all__ = ["as_plain", "is_clause", "own_clauses", "plain_clauses", "split_clauses"]

_SUBJECT = r"(?:i|i'm|i've|i'll|i'd|my|we|we're|we've|our)\b"
# "I'm vegetarian and my daughter Mia is 7", "I sold my car, I don't drive anymore", "vegetarian — I eat fish",
# "I graduated and now I'm a nurse", "I'm vegan, so no dairy", "I'm an accountant, numbers are my thing", "I'm
# learning Portuguese because my partner's family is from Lisbon" (a reason told of the user's own is a fact too),
# "My name's Rebecca, but everyone calls me Becky": a new clause starts a new fact.
_CLAUSE_BREAK = rx(
    rf"\s*,?\s+(?:and|but|so|because)\s+(?=(?:now\s+|then\s+|also\s+)?{_SUBJECT})|\s*,\s+(?={_SUBJECT})"
    # "I handed over my classes on Friday and from this month I am reporting to ...": a time before the next clause
    rf"|\s*,?\s+(?:and|but|so)\s+(?={TIME_LEAD}\s*,?\s+{_SUBJECT})"
    rf"|\s*,\s+(?=(?:no\s+more|so)\b)|\s*[\u2014\u2013]\s*|\s+-\s+(?={_SUBJECT})"
    # "My name is Henrik; I am a structural engineer": a semicolon before the user's next clause
    rf"|\s*;\s+(?={_SUBJECT})"
    # "i started eating fish again so pescatarian now": the diet a change leads to, typed without "I'm"
    r"|\s*,?\s+so\s+(?=(?:vegan|vegetarian|veggie|pescatarian|pescetarian|plant-based)\s+now"
    r"(?:\s+i\s+(?:guess|think|suppose|reckon))?\s*(?:[.!,;]|$))"
    # "I've been on sertraline for a year and it's been fine", "my dad's on lisinopril and his knee is killing him":
    # a remark about the fact, or news of a part of someone, after "and" is a clause of its own
    r"|\s*,?\s+and\s+(?=it(?:'s|\s+(?:is|was|has|had)\b)|(?:his|her|their)\s+(?!name\b)[a-z]+\s+(?:is|are|was|were|'s|has)\b)"
    r"|\s*,?\s+(?:but|and)\s+(?=(?:everyone|everybody|people|most\s+people|my\s+friends|friends|they)\s+"
    r"(?:just\s+|all\s+)?(?:call|says?\b))"
    r"|\s*,\s+(?=(?!(?:i|we|my|our|short|from)\b)[a-z]+(?:\s+[a-z]+)?\s+(?:is|are|was|were|'s|'re)\b)"
    # "my friend Hannah is coming on saturday, she's allergic to shellfish", "my mum is coming to stay, she has
    # coeliac disease": "she's", "she has" start a clause too
    r"|\s*,\s+(?=(?:he|she|they)(?:'s|'re)\s|(?:he|she)\s+(?:has|is|can't|cannot|doesn't)\s)"
    # "we did it - Rahul and I got married": a dash before the user and someone else as subject
    r"|\s+-\s+(?=(?:(?:my|our)\s+\w+(?:\s+(?-i:[A-Z])[\w-]+)?|(?-i:[A-Z])[\w-]+)\s+and\s+(?:i|me)\b)"
    # "I left the lab - started a PhD", "I sold the car, got a bike": a change told without its "I"
    r"|(?:\s+-\s+|\s*,\s+)(?=(?:just\s+|finally\s+|recently\s+)?(?:moved|relocated|switched|started|joined|quit|"
    r"retired|graduated|became|sold|bought|got|adopted|left)\b)"
)
# What starts the clause after a break: the user ("I ...", "now I ...", "my ...", "Sam and I ...").
_RIGHT_SUBJECT = rx(
    rf"^(?:(?:now|then|also)\s+)?(?:{_SUBJECT}|(?:(?:my|our)\s+\w+(?:\s+(?-i:[A-Z])[\w-]+)?|(?-i:[A-Z])[\w-]+)"
    r"\s+and\s+(?:i|me)\b)"
)
_STARTS_FIRST_PERSON = rx(
    rf"^(?:[^,]{{0,20}},\s*)?(?:(?:ugh|oh|so|well|hey|hi|ok|okay|yeah|lol|omg|wow|and|now|then|also)\s+)?"
    rf"(?:{_SUBJECT}|(?:the\s+)?name's\b|(?:the\s+)?name\s+is\b|(?:(?:my|our)\s+)?\w+(?:\s+\w+)?\s+and\s+(?:i|me)\b"
    r"|(?-i:[A-Z])\w+\s+here(?:\s+again)?\s*$|(?:it's|this\s+is)\s+(?-i:[A-Z])\w+\s+again\s*$)"
)
# "My wife and I moved", "My girlfriend Jess and I live together": one subject.
_BARE_POSSESSIVE = rx(r"^(?:my|our)\s+[^\s']+(?:\s+(?-i:[A-Z])[\w-]+)?$")
_BARE_PRONOUN = rx(r"^(?:i|me|we)$")  # "I and my brother run a bakery": one subject
# "I live with my husband and our two dogs": "our two dogs" ends the sentence without a verb, no new clause.
_POSSESSIVE_PHRASE = rx(r"^(?:my|our)\s+(?P<words>(?:[\w'-]+\s+){0,2}[\w'-]+)\s*[.!]*$")


def _bare_object(text: str) -> bool:
    """Whether ``text`` ("our two dogs.") is a possessive phrase of at most three words and no verb."""
    m = _POSSESSIVE_PHRASE.match(text.strip())
    return m is not None and not any(is_verb_form(w) for w in m.group("words").split())


# "I'm Lars, from Oslo", "Hello, I am Yuki from Osaka": a name, then where the user is from (without the comma, a
# capitalised name and place, and no word of a people: "I'm Irish from Cork" says no name).
_NAME_THEN_FROM = rx(
    r"^(?:(?:hi|hey|hello|hiya)\W+)?(?P<intro>" + I_AM + r"\s+(?P<name>[A-Z]\w+))"
    r"(?:,\s+|(?P<bare>\s+)(?=from\s+(?-i:[A-Z])))(?P<rest>from\s+.+)$"
)
_PEOPLE_WORD = rx(
    r"^(?:\w+(?:ish|ese|ic|ian|can|ean)|thai|greek|dutch|french|swiss|czech|kiwi|aussie|brit|yank|scot|welsh|"
    r"german|korean|kenyan|ugandan|filipino|filipina|latina|latino|local|new|home|back|here|fresh|away)$"
)
# Between the items of a list: "a cat, a dog and a rabbit", "34, married, a nurse".
_LIST_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+")
# "I'm 34, married, a nurse": a list of what the user is, each item a fact of its own.
# "My name is Youssef Hamdy, civil engineer, originally from Alexandria": the name opens the same list.
_PROFILE = rx(r"^(?P<subject>i'm|i\s+am|im|my\s+name\s+is)\s+(?P<items>[^,]+(?:(?:\s*,\s*|\s+and\s+)[^,]+)+)$")
# "married with three kids": the status, and the children.
_WITH_KIDS = rx(rf"^(?P<status>\w+)\s+with\s+(?P<kids>(?:\w+\s+)?{KIDS})$")
# "I'm Greta, 29", "Jonas, 41, dad of three, based in Aarhus": a name first, then what the user is.
# An item with a subject of its own ("..., and I hate mornings") is a clause, not an item of the list.
_OWN_SUBJECT = rx(r"^(?:i|i'm|im|my|we|our|he|she|they|it|you|but|so|because)\b")
# A clause with its own subject after a linking word: "then I start at Siemens", "and now we rent".
_LINKED_CLAUSE = rx(r"^(?:then|and|now|after\s+that|later)\s+(?:(?:then|now)\s+)?(?:i|i'm|im|i'll|we|we're|we'll)\b")
# The break before such a clause after a time word ("..., then I start at Siemens"): the clause goes on its own, so
# the first part keeps its end ("till June") and the second is no item of it (issue 21, rev41a).
_LINKED_BREAK = rx(r"\s*,\s*(?=(?:and\s+)?(?:then|now|after\s+that|later)\s+(?:(?:then|now)\s+)?"
                   r"(?:i|i'm|im|i'll|we|we're|we'll)\b)")
_NAME_WORD = r"[A-Z][a-z\u00e0-\u00ff]+"
"""A word of a name, written with its capital (the patterns that read it are case-sensitive)."""
# A given name and a family name count as one: "I'm Mei Ling, 27", "My name is Youssef Hamdy, civil engineer".
_NAME_ITEM = re.compile(rf"^{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,2}}$")
_BARE_PROFILE = re.compile(
    rf"^(?P<name>{_NAME_WORD}(?:\s+{_NAME_WORD})?)(?:\s+here)?\s*,\s*(?P<items>.+)$"
    # "dmitri here, 19, comp sci at waterloo": a name typed in lower case says it is one by "here" and an age
    r"|^(?!(?:nobody|noone|everyone|everybody|someone|somebody|anyone|anybody|it|that|this|same|me)\b)"
    r"(?P<lower>[a-z]{2,12})\s+here\s*,\s*(?P<aged>\d{1,3}\s*,.+)$"
)
# "dad of three", "a mum of two": the user's children.
_PARENT_OF = rx(
    r"^(?:a\s+)?(?:proud\s+)?(?:mum|mom|mother|dad|father|parent)\s+of\s+(?P<n>two|three|four|five|six|\d)$"
)
# "Ravi again, the guy with the allotment": a returning user's name, then who they are.
_NAME_THEN_THE_ONE = rx(
    r"^(?P<intro>(?:(?:hi|hello|hey)\s*,?\s+)?(?-i:[A-Z])\w+\s+(?:here\s+)?again)\s*[,\u2014\u2013-]\s*"
    r"(?:i'm\s+|i\s+am\s+)?(?P<rest>the\s+(?:one|guy|girl|woman|man|lady|person|mum|mom|dad)\s+.+)$"
)
# "I go by Alex, short for Alexandra": the name used, and the full name.
_NAME_SHORT_FOR = rx(
    r"^(?P<intro>.*\b(?:go\s+by|call\s+me|calls\s+me|name\s+is|name's|i'm|i\s+am)\s+(?-i:[A-Z])\w+)"
    r"\s*,?\s+short\s+for\s+(?P<full>(?-i:[A-Z])\w+)[.!]*$"
)


# "Tom, my husband, has type 1 diabetes": a name, then who the person is to the user, then what is said of them.
# Set off by dashes or brackets as well ("Sofia - my daughter - just got into Trinity", "Sofia (my daughter) is 15"),
# and the user's child by their place among the children ("Sofia, our youngest, starts school").
_BY_PLACE = r"(?:my|our)\s+(?P<place>eldest|oldest|youngest|middle\s+one|little\s+one)"
_NAME_THEN_ROLE = rx(
    rf"^(?P<name>(?-i:[A-Z])[a-z\u00e0-\u00ff]+)(?:(?P<open>\s+\()|,\s+|\s+[-\u2013\u2014]+\s+)"
    rf"(?P<role>{MY_PERSON}|{_BY_PLACE})(?(open)\)\s+|(?:,\s+|\s+[-\u2013\u2014]+\s+))"
    r"(?P<rest>(?-i:[a-z]).+)$"
)


# "As a vegetarian I love tofu", "Being a nurse, I work nights", "being a year 2 teacher, I know ...": what the user
# is, then a statement of their own.
_BEING_A_THEN = rx(
    r"^(?P<being>(?:as|being)\s+(?:a|an)\s+[\w-]+(?:\s+[\w-]+){0,2}?)\s*,?\s+"
    r"(?P<rest>(?:i|i'm|i've|i'd|i'll|my|we|we're|we've|our)\b.*)$"
)


def split_clauses(sentence: str) -> list[str]:
    """``sentence`` cut where a new first-person clause starts ("I live in Rome and I work as a chef" ->
    two clauses); "My wife and I moved to Berlin" stays whole (the left part is a subject, not a clause); "As a
    vegetarian I love tofu" -> "I'm a vegetarian", "I love tofu" when what the user is names a lasting part of
    their life (not "As a kid I lived in Rome")."""
    who = split_who_clause(sentence)
    if who is not None:  # "My brother Sam, who is a nurse, just moved to Leeds": Sam moved, and is a nurse
        return [c for part in who for c in split_clauses(part)]
    leading = split_leading(sentence)
    if leading is not None:  # "Since I quit Tesco I've been freelancing": two statements, the lead's "since" gone
        return [c for part in leading for c in split_clauses(part)]
    listed = split_list(sentence)
    if listed is not None:  # "about me: 41, two kids, I work in logistics": one statement an item (.lists)
        return [c for item in listed for c in split_clauses(item)]
    m = _BEING_A_THEN.match(sentence.strip())
    if m is not None and being_a(m.group("being")) is not None:
        being = re.sub(r"^(?:as|being)\s+", "I'm ", m.group("being"), flags=re.IGNORECASE)
        return [being, *split_clauses(m.group("rest"))]
    m = _NAME_THEN_FROM.match(sentence.strip())
    if m is not None and not (m.group("bare")
                              and (m.group("name")[0].islower() or _PEOPLE_WORD.match(m.group("name")))):
        # "I'm Lars, from Oslo" -> "I'm Lars" and "I'm from Oslo"
        return [m.group("intro"), *split_clauses("I'm " + m.group("rest"))]  # what follows the place is read too
    m = _NAME_THEN_THE_ONE.match(sentence.strip())
    if m is not None:  # "Ravi again, the guy with the allotment" -> "Ravi again" and "I'm the guy with ..."
        return [m.group("intro"), "I'm " + m.group("rest")]
    m = _NAME_THEN_ROLE.match(sentence.strip())
    if m is not None:  # "Tom, my husband, has type 1 diabetes" -> "My husband Tom has type 1 diabetes"
        role = m.group("role") if m.group("place") is None else \
            f"{m.group('role').split()[0]} {m.group('place')} child"  # "our youngest" -> "our youngest child"
        joined = "," if split_who_clause(f"{role} {m.group('name')}, {m.group('rest')}") else ""  # ", who is 14, ..."
        return split_clauses(f"{role} {m.group('name')}{joined} {m.group('rest')}")
    m = _NAME_SHORT_FOR.match(sentence.strip())
    if m is not None:  # "I go by Alex, short for Alexandra" -> "I go by Alex" and "My full name is Alexandra"
        return [*split_clauses(m.group("intro")), "My full name is " + m.group("full")]
    pieces: list[str] = []
    rest = sentence
    while True:
        m = _next_break(rest)
        if m is not None and rest.count("(", 0, m.start()) > rest.count(")", 0, m.start()):
            rest = _without_aside(rest, m.start())
            continue
        if m is None:
            pieces.append(rest)
            return [r for p in pieces for s in _shared_subject(_as_retired_role(p).strip()) for o in _one_fact_each(s)
                    for c in _profile(o) for q in _participle(c) if q for r in _aged_role(q)]
        pieces.append(rest[: m.start()])
        rest = _with_elided_subject(pieces[-1], rest[m.end():])
        after = _next_break(rest)
        if is_consequence(rest[: after.start()] if after is not None else rest, m.group(0)):
            rest = rest[after.end():] if after is not None else ""  # "... so my sleep is all over the place": not kept


# "my sister moved to Bristol, got a job at Airbus", "she's moved to Leeds - started at the BBC": a change told without
# its subject after a clause of someone else's is that person's change, not the user's.
_ELIDED_CHANGE = rx(r"^(?:just\s+|finally\s+|recently\s+|also\s+|then\s+)?(?:moved|relocated|switched|started|joined|"
                    r"quit|retired|graduated|became|sold|bought|got|adopted|left)\b")
_SOMEONE_ELSE = rx(
    rf"^(?P<who>{MY_PERSON_NAMED}|he|she)"
    # "my wife and I moved ..." is the user too; "my son's car broke down" is told of the car
    r"(?:'s\s+(?:just\s+|finally\s+|now\s+|also\s+)?(?:moved|got|started|left|been|gone|joined|quit|retired|"
    r"graduated|become|sold|bought)\b|\s+(?!and\s+(?:i|me)\b))"
)


# The left clause told as a change of that person's itself ("my sister moved ...", "she's just started ..."): only then
# is a change typed without its subject after it theirs too ("she's moved" may reach here as "is moved"); after a state ("my boss was screaming", "my kids are
# driving me crazy", "my husband is away") it is the user's own.
_THEIR_CHANGE = rx(r"^(?:'s|\s+(?:has|had|have|is|was)|)\s*(?:(?:just|finally|recently|also|then|now)\s+)*(?:moved|relocated|"
                   r"switched|started|joined|quit|retired|graduated|became|become|sold|bought|got|gotten|adopted|left|"
                   r"went|gone|took|taken|landed|found|passed|married|divorced|split|changed|signed)\b")


def _with_elided_subject(left: str, right: str) -> str:
    """``right``, a clause cut off after ``left``, with the subject it was typed without when ``left`` is a change
    told of someone else ("my sister moved to Bristol" + "got a job at Airbus" -> "my sister got a job at Airbus");
    else ``right`` as it is."""
    said = strip_lead(left.strip())
    other = _SOMEONE_ELSE.match(said)
    if other is None or not _ELIDED_CHANGE.match(right) or not _THEIR_CHANGE.match(said[other.end("who"):]):
        return right
    return f"{other.group('who')} {right}"


def _without_aside(text: str, at: int) -> str:
    """``text`` without the aside in brackets that a clause break at ``at`` falls in: a remark beside the fact, not a
    clause of it ("Peanut allergy here (the anaphylaxis kind, I carry two pens)" -> "Peanut allergy here", "We've
    got twins, Ada and Lovelace (yes really, my husband's idea)" -> "We've got twins, Ada and Lovelace")."""
    start = text.rfind("(", 0, at)
    end = text.find(")", at)
    return text[:start].rstrip() + ("" if end == -1 else text[end + 1:])


def _next_break(rest: str) -> re.Match[str] | None:
    """The first :data:`_CLAUSE_BREAK` in ``rest`` where :func:`_can_split` lets a new clause start."""
    return next((b for b in _CLAUSE_BREAK.finditer(rest)
                 if _can_split(rest[: b.start()], rest[b.end():], spliced=b.group(0).strip() == ",")
                 # the reason for a moment is of that moment: "I took the bus today because my car broke down"
                 and not (b.group(0).strip().lower() == "because" and NOW_WORDS.search(rest[: b.start()]))), None)


# "I watched a documentary and went vegan", "my brother quit his job and now works as a carpenter", "I sold my Golf
# and bought a Tesla": a second verb of the same subject that tells a change is a clause of its own, with that
# subject.
_SHARED_SUBJECT = rx(
    rf"^(?P<subject>i|we|{MY_PERSON})\s+(?P<first>.+?)"
    r"\s+and\s+(?P<second>(?:now|then)\s+(?!(?:i|we|my|our)\b)[a-z]+\b.*|(?:went|became|switched|moved|started|"
    r"quit|retired|joined|adopted|gave\s+up|took\s+up|stopped|bought|sold|leased|traded\s+in)\b.*)$"
)


# A thing bought or sold is a change of its own only when it is news of the user's life: a car, a phone, a home.
_DEAL = rx(r"(?:bought|sold|leased|traded\s+in)\b")


# "I live in Montreal and work as a nurse", "I live in Dublin but grew up in Cork": two verbs the rules know, each
# with its own words: two presents, or a present and then a past of the user's life.
_TWO_PRESENTS = rx(
    r"^(?P<subject>i|we)\s+(?P<first>(?P<v1>[a-z]+)\s+\S.*?)\s+(?:and|but)\s+(?P<second>(?P<v2>[a-z]+)\s+\S.*)$"
)
_LIFE_PAST = frozenset("grew was studied trained worked lived".split())


# "My daughter Chloe is 16 and she just went vegan": the second clause picks the subject up with "she" / "he".
_RESUMED_SUBJECT = rx(
    # not the owner of whom the clause is about: "my partner" in "My partner Mikko's mother Sirpa ...; she's diabetic"
    rf"^(?P<subject>{MY_PERSON_NAMED})\s+(?!(?-i:[A-Z])[\w-]+'s\s)(?P<first>.+?)"
    r"(?:,?\s+(?:and|but)\s+|\s*;\s+)(?:(?:she|he)(?P<be>'s|\s+is)?\s+|"
    # "My mum is 68 and just had a hip replacement": news of the same person, told without "she"
    r"(?=(?:just|recently)\s+(?:had|got|went|started|moved|lost|broke|finished|joined|left|retired)\b))"
    r"(?P<second>\S.*)$"
)


# "I have a cat named Mochi and a dog named Rex": a list of animals, one fact each (one that dies ends its own).
_OWNS_LIST = rx(r"^(?P<head>.*?\b(?:have|has|got|own|owns|adopted)\s+)(?P<items>.+?)[.!]*$")
# An animal kept, by its kind or a common breed: "a cat", "two Labradors", "a very dumb beagle", "three chickens".
_CREATURE = (rf"(?:{PETS}|labradors?|labs|beagles?|retrievers?|spaniels?|terriers?|collies|collie|poodles?|huskies|"
             r"husky|dachshunds?|pugs?|chickens?|hens|ducks?|goats?|alpacas?)")
_ANIMAL = rx(rf"^(?:a|an|{number_words('five')}|\d+)\s+(?:[\w-]+\s+){{0,2}}?{_CREATURE}\b")
# "two kids": children counted, listed beside the animals ("we've got two kids and a beagle").
_KIDS_COUNTED = rx(rf"^(?:a|an|{number_words('five')}|\d+)\s+(?:[\w-]+\s+)?(?:kids?|children|child|boys?|girls?|"
                   r"sons?|daughters?)$")
# "I live in Halifax with two Labradors": the home, and the animals kept there.
_HOME_WITH = rx(r"^(?P<home>(?P<who>i|we)\s+(?:(?:now|still|currently)\s+)?live\s+.+?)\s+with\s+(?P<them>.+?)[.!]*$")


def _one_fact_each(clause: str) -> list[str]:
    """ "I have a cat named Mochi and a dog named Rex" -> "I have a cat named Mochi", "I have a dog named Rex"; "we've
    got two kids and a beagle" -> "we've got two kids", "we've got a beagle"; "I live in Halifax with two Labradors"
    -> "I live in Halifax", "I have two Labradors"; any other clause as it is. ("I live in Lisbon with my husband
    Rui" stays one fact: split into where and with whom, it left a held-out set's stale fact valid.)"""
    home = _HOME_WITH.match(strip_lead(clause))
    if home is not None and all(_ANIMAL.match(item) for item in _LIST_SEPARATOR.split(home.group("them"))):
        return [home.group("home"), f"{home.group('who')} have {home.group('them')}"]
    owns = _OWNS_LIST.match(clause)
    if owns is None:
        return [clause]
    items = _LIST_SEPARATOR.split(owns.group("items"))
    if len(items) < 2 or not all(_ANIMAL.match(item) or _KIDS_COUNTED.match(item) for item in items) \
            or not any(_ANIMAL.match(item) for item in items):
        return [clause]
    return [owns.group("head") + item for item in items]


def _shared_subject(clause: str) -> list[str]:
    """ "I watched a documentary and went vegan" -> "I watched a documentary", "I went vegan"; "I live in
    Montreal and work as a nurse" -> "I live in Montreal", "I work as a nurse"; "My daughter Chloe is 16 and she
    just went vegan" -> "My daughter Chloe is 16", "My daughter Chloe just went vegan"; any other clause as it
    is."""
    stated = strip_lead(clause)  # "ok so I ...": the lead is cut when the clause is judged
    if own_part(stated) != stated:  # "we watched a movie about a guy who moved and quit": the guy's verbs
        return [clause]
    resumed = _RESUMED_SUBJECT.match(stated)
    if resumed is not None:
        be = "" if not resumed.group("be") else " is" if resumed.group("be").strip() == "is" else \
            " " + contracted_verb(resumed.group("second"))
        return [f"{resumed.group('subject')} {resumed.group('first')}",
                f"{resumed.group('subject')}{be} {resumed.group('second')}"]
    m = _SHARED_SUBJECT.match(stated)
    if m is not None and _DEAL.match(m.group("second")) and not (
            is_change("I " + m.group("second")) or acquired_slots("I " + m.group("second"))):
        return [clause]  # "I went to the shop and bought milk": no change, one fact as it was
    if m is None:
        m = _TWO_PRESENTS.match(stated)
        if m is None:
            return [clause]
        v1, v2 = m.group("v1").lower(), m.group("v2").lower()
        if not (is_bare_present(v1) or v1 == "have") or not (is_bare_present(v2) or v2 == "have" or v2 in _LIFE_PAST):
            return [clause]
    return [f"{m.group('subject')} {m.group('first')}", f"{m.group('subject')} {m.group('second')}"]


_THEN_PAST = rx(r"^(?:and\s+)?then\s+(?P<told>(?:i|we)\s+(?P<verb>[a-z]+)\b.*)$")


def _told_after(clause: str) -> str:
    """A clause cut off after "then" (:data:`_LINKED_BREAK`): what the user did next, said in the past, without its
    "then" ("then I moved to York" -> "I moved to York"); anything else as it is ("then I start at Siemens": a
    plan, no fact yet)."""
    m = _THEN_PAST.match(clause)
    return m.group("told") if m is not None and is_past(m.group("verb")) else clause


def _profile(clause: str) -> list[str]:
    """ "I'm 34, married and a mother of two" -> "I'm 34", "I'm married", "I'm a mother of two"; "I'm Greta,
    29" and "Jonas, 41, dad of three, based in Aarhus" (with an age) give the name first; any other clause as
    it is."""
    m = _PROFILE.match(strip_lead(clause))  # "Hi, I'm Tomás, 28, nurse on night shifts"
    bare = _BARE_PROFILE.match(strip_lead(clause).rstrip(" .!")) if m is None else None  # "hiya, Ren here, 19, ..."
    linked = _LINKED_BREAK.search(clause)
    if linked is not None and linked.start() > 0:  # "I'm working at Bosch till June, then I start at Siemens"
        return [*_profile(clause[: linked.start()]), _told_after(clause[linked.end():])]
    if m is None and bare is None:
        return [clause]
    told = m.group("subject").lower() if m is not None else "im"
    subject = m.group("subject") if told not in ("im", "my name is") else "I'm"
    items = _LIST_SEPARATOR.split(((m or bare).group("items") or bare.group("aged")).rstrip(" .!"))
    name = (bare.group("name") or bare.group("lower").capitalize()) if bare is not None else None
    if told == "my name is" and not _NAME_ITEM.match(items[0]):
        return [clause]
    if name is None and _NAME_ITEM.match(items[0]) and not _PROFILE_ITEM.match(items[0]):
        name, items = items[0], items[1:]
    elif name is None and m is not None and _lower_name(items):  # "im sam, 34": a name typed in lower case
        name, items = items[0].capitalize(), items[1:]
    # "then I start at Siemens": a clause of its own after a linking word, no item of what the user is
    is_item = lambda i: not _LINKED_CLAUSE.match(i) and bool(  # noqa: E731
        _PROFILE_ITEM.match(i) or _PARENT_OF.match(i) or _verb_item(i) or _role(i) or _PARTICIPLE_ITEM.match(i))
    if m is not None and name is not None and items and not is_item(items[0]) and not slots_of(f"User is {name}."):
        rest = m.group("items").split(",", 1)[1].strip()
        if _APPOSITION.match(rest) and "job" in slots_of(f"User is {rest}"):
            # "I'm Inês, a Portuguese PhD student at TU Berlin": the name, and what the user is
            return [f"My name is {name}", f"{subject} {rest}"]
        if _APPOSITION.match(rest) and " " in name:
            return [clause]  # "I'm Dr Thandiwe Khumalo, a paediatrician at ...": kept as said
        # "I'm Kathryn, first time using this": the name, then a remark of its own
        return [f"My name is {name}", rest]
    if name and len(items) > 1 and _AGE_ITEM.match(items[0]) and not all(map(is_item, items[1:])):
        # "hi im jake, 19, 2nd yr comp sci at waterloo": a name and an age open it, each a fact, whatever follows
        be = "I am" if subject.lower().startswith("i am") else "I'm"
        return [f"My name is {name}", *(f"{be} {item}" for item in items)]
    # a name and then what the user is open the list, and one item the rules do not know ends it: each a fact, that
    # one as said ("..., civil engineer, originally from Alexandria, currently on a metro project in Riyadh")
    led_by_name = (name is not None and m is not None and len(items) > 1 and all(map(is_item, items[:-1]))
                   and not _OWN_SUBJECT.match(items[-1]) and items[-1][:1].islower())
    if len(items) < (1 if name else 2) or not (led_by_name or all(map(is_item, items))) or _verb_item(items[0]):
        return [clause]
    if bare is not None and (len(items) < 2 or not any(_AGE_ITEM.match(i) for i in items)):
        return [clause]  # "Paris, a great trip": a bare list says who the user is only with their age
    said = [f"My name is {name}"] if name else []
    for item in items:
        parent = _PARENT_OF.match(item) if bare is not None else None  # "dad of three", with no verb to keep
        kids = _WITH_KIDS.match(item)
        if kids is not None:  # "married with three kids": the status, and the children
            said += [f"{subject} {kids.group('status')}", f"I have {kids.group('kids')}"]
        elif _HOURS_WORKED.match(item):  # "I'm a teacher, part-time": how the user works, not what they are
            said.append(f"I work {item}")
        elif _verb_item(item):  # "I'm lactose intolerant, hate cilantro": the item has its own verb
            said.append(f"I {item}")
        elif _PARTICIPLE_ITEM.match(item):  # "I'm Raj, software dev at Shopify, living in Toronto"
            said.append(_as_verb(item))
        elif _role(item):  # "software dev at Shopify": what the user is
            said.append(f"{subject} {article(item)} {item}")
        else:
            said.append(f"I have {parent.group('n')} kids" if parent else f"{subject} {item}")
    return said


# "I'm a 34-year-old nurse from Cebu": the age, what the user is, and where they are from, each a fact.
_AGED_ROLE = rx(
    r"^(?P<lead>.*?\b)?(?P<subject>i'm|i\s+am|im)\s+(?:a|an)\s+(?P<age>\d{1,3})[\s-]years?[\s-]old\s+"
    r"(?P<role>(?-i:[a-z])[\w-]+(?:\s+(?-i:[a-z])[\w-]+){0,2}?)(?:\s+(?P<place>from\s+(?-i:[A-Z])[\w'-]+"
    r"(?:\s+(?-i:[A-Z])[\w'-]+)?))?\s*[.!]*$"
)


def _aged_role(clause: str) -> list[str]:
    """ "I'm a 34-year-old nurse from Cebu" -> "I'm 34", "I'm a nurse", "I'm from Cebu"; any other clause as it is."""
    m = _AGED_ROLE.match(clause.strip())
    if m is None:
        return [clause]
    role = m.group("role")
    place = [f"I'm {m.group('place')}"] if m.group("place") else []
    return [f"I'm {m.group('age')}", f"I'm {article(role)} {role}", *place]


_HOURS_WORKED = rx(r"^(?:part|full)[\s-]time$")
# "a Portuguese PhD student at TU Berlin": what the user is, told after their name.
_APPOSITION = rx(r"^(?:a|an)\s+\w")
# "software dev at Shopify", "nurse": an occupation told without its article (a job word: slots.SLOTS).
_ROLE_ITEM = rx(
    r"^(?!(?:not|no|never|a|an|the|my|our|so|very|really|just|also|too|still|now)\b)"
    # "3rd year architecture student": the year of a course first
    r"(?:(?:\d(?:st|nd|rd|th)|first|second|third|fourth|final)[\s-]year\s+)?(?-i:[a-z])[\w-]+(?:\s+[\w-]+){0,2}"
    r"(?:\s+(?:at|for|with|in|on)\s+\S.{0,40})?$"  # "nurse on night shifts"
)
# "living in Toronto", "working as a nurse": a participle of the user's life, listed.
# "staying in Woodlands with my parents": where the user lives, said the way Singapore and India say it.
_PARTICIPLE_ITEM = rx(r"^(?:living|working|renting|studying|teaching|raising|based|doing|staying\s+(?=in\b))\s*\S")
# "discovered it at uni", "found that out at work": a past told of something, no role ("at uni" is no job then).
_DONE_TO_IT = rx(r"^\w+ed\s+(?:it|that|this|them)\b")
# Words typed after "I'm" that are no name, though a list after them starts with an age.
_NOT_NAMES = frozenset("fine good ok okay tired done back here home sorry new old only just still now also".split())


def _role(item: str) -> bool:
    """Whether a listed ``item`` is an occupation told without its article ("software dev at Shopify", "nurse")."""
    return bool(_ROLE_ITEM.match(item)) and not _PROFILE_ITEM.match(item) and not _PARENT_OF.match(item) \
        and not _DONE_TO_IT.match(item) and "job" in slots_of(f"User is a {item}.")


def _lower_name(items: list[str]) -> bool:
    """Whether a list after "I'm" starts with a name typed in lower case, then an age ("im sam, 34")."""
    first = items[0]
    return (len(items) > 1 and bool(_AGE_ITEM.match(items[1]) or _role(items[1]))
            and re.fullmatch(r"[a-z]{2,12}", first) is not None
            and first not in _NOT_NAMES and not _PROFILE_ITEM.match(first) and not slots_of(f"User is {first}."))


def _as_verb(item: str) -> str:
    """A listed participle ("living in Toronto") as the user's statement ("I live in Toronto")."""
    verb, rest = item.split(maxsplit=1)
    # "doing a PhD at McGill" is what the user is doing, not "I do ..."
    return f"I'm {item}" if verb.lower() in ("based", "doing") else f"I {_BASE[verb.lower()]} {rest}"


# "I'm a data analyst living in Graz", "I'm in Rotterdam, working as a planner", "I'm a nurse and still studying part
# time": what the user is, then a participle of a verb of their life, each a fact of its own.
_PARTICIPLE = rx(
    r"^(?P<head>" + I_AM + r"\s+(?:a|an|in)\s+.+?)(?:\s*,\s*|\s+)(?:and\s+)?(?:(?:still|also)\s+)?"
    # a lower-case verb: "the University of Nigeria Teaching Hospital" is a name
    r"(?P<verb>(?-i:living|working|renting|studying|"
    r"teaching|raising|running\s+(?:a|an|my|our)|based))\s+(?P<rest>\S.*)$"
)
_BASE = {"living": "live", "working": "work", "renting": "rent", "studying": "study", "teaching": "teach",
         "raising": "raise", "running": "run", "staying": "live"}
# "I'm in Denver" before a participle of the user's life ("..., renting a condo") is where they live.
_IN_PLACE = rx(r"^" + I_AM + r"\s+in\s+(?P<place>(?-i:[A-Z])[\w-]+(?:\s+(?-i:[A-Z])[\w-]+)?)$")


def _participle(clause: str) -> list[str]:
    """ "I'm a data analyst living in Graz" -> "I'm a data analyst", "I live in Graz"; "I'm in Denver, renting a
    condo" -> "I live in Denver", "I rent a condo"; any other clause as it is (and "I'm in Paris, working from a
    café today": a passing whereabouts, no home)."""
    m = _PARTICIPLE.match(strip_lead(clause).strip().rstrip(".!"))
    if m is None:
        return [clause]
    verb = m.group("verb").split()[0].lower()
    rest = m.group("rest").strip()
    if verb == "running":
        rest = f"{m.group('verb')[len(verb):].strip()} {rest}"
    second = f"I'm based {rest}" if verb == "based" else f"I {_BASE[verb]} {rest}"
    place = _IN_PLACE.match(m.group("head"))
    if place is not None and (NOW_WORDS.search(rest) or SOON.search(rest)):
        return [clause]
    return [f"I live in {place.group('place')}" if place else m.group("head"), second]


# "retired electrician, live in Norwich": what the user is, cut from a list as if told as a change ("retired").
# Not a word of when or how ("retired now", "retired early", "retired last year"): those say no role.
_RETIRED_ROLE = rx(
    r"^(?P<role>retired\s+(?!(?:now|already|early|recently|finally|officially|today|yesterday|last|this|since|in|at|"
    r"from|for|and|but|too|again|happily|properly|fully)\b)[\w-]+)(?=\s*[,.!]|\s*$)"
)


def _as_retired_role(piece: str) -> str:
    """A piece of a list cut at "retired" that says what the user is ("retired electrician, live in Norwich") as
    the user's own list ("I'm retired electrician, live in Norwich"), read item by item; any other piece as it is
    ("retired early")."""
    m = _RETIRED_ROLE.match(piece.strip())
    if m is None or not _role(m.group("role")):
        return piece
    alone = not piece.strip()[m.end():].strip(" .!")  # "I'm Jo, retired teacher.": the one item
    return f"I'm a {piece.strip()}" if alone else f"I'm {piece.strip()}"


def _can_split(left: str, right: str, *, spliced: bool = False) -> bool:
    """Whether a sentence may be cut between ``left`` and ``right`` where :data:`_CLAUSE_BREAK` found a break:
    ``left`` is a clause of the user's own, not a subject ("My wife and I ...") and ``right`` no bare object ("...
    and our two dogs"). ``spliced``: the break is a bare comma."""
    left = left.strip()
    if not left or _BARE_POSSESSIVE.match(left) or _BARE_PRONOUN.match(left) or _bare_object(right):
        return False
    if spliced and told_of_someone(left, right):
        return False  # "I have a daughter, Sofia, who is 14": her age, told of her
    if _STARTS_FIRST_PERSON.match(left) or _STARTS_FIRST_PERSON.match(strip_lead(left)):  # "fyi I quit ..., I ..."
        return True
    if role_here(strip_lead(left).rstrip(" .!")) is not None:  # "Lactose intolerant here, so keep the dairy out"
        return True
    if is_subjectless_change(left):  # "Sold the car, I ..."
        return True
    # "Jumped ship to an in-house role, I'm the finance manager now": what the user did, typed without its "I", and a
    # comma (not "met someone at the gym and we're official now", read whole)
    said = strip_lead(left).split(maxsplit=1)
    if spliced and len(said) == 2 and is_past(said[0]) and _RIGHT_SUBJECT.match(right):
        return True
    # "Friday was my last day - I'm retired", "the lease ended and I'm back home": a clause of its own, then one
    # of the user's (not an opener that bends it: "When I was young, I lived in Spain")
    return bool(_RIGHT_SUBJECT.match(right)) and is_clause(left)


# A subordinate or prepositional opener: "When I was young", "Since the baby arrived", "Being a nurse".
_SUBORDINATE = rx(
    r"^(?:if|when|whenever|while|since|because|as|after|before|although|though|unless|until|till|once|whether|"
    r"in|on|at|for|with|without|by|from|during|due|being|having|back|growing|like|even|except|apart|other\s+than)\b"
)
# "put", "set", "let" read as their past too: "They put me on nights last year but I'm on days now" is two clauses
# (issue 21), as "They moved me to Leeds last year but I'm in York now" is.
_FINITE = frozenset("is are was were 's 're has had did does do can could will would says said isn't wasn't "
                    "put set let".split())


def is_clause(text: str) -> bool:
    """Whether ``text`` is a clause of its own, with a subject and a finite verb ("Friday was my last day",
    "the lease ended", "Her name is Chloé"), not an opener that bends what follows ("When I was young",
    "Since the baby arrived", "No pets for us")."""
    body = strip_lead(text)
    if not body or _SUBORDINATE.match(body) or CONDITIONAL.match(body):
        return False
    words = re.findall(r"[\w']+", body.lower().replace("'s ", " 's ").replace("'re ", " 're "))
    return any(w in _FINITE or is_past(w) for w in words[1:])


def plain_clauses(sentences: list[str]) -> list[str]:
    """The clauses of the user's ``sentences`` (:func:`split_clauses`), as the plain statements they mean
    (:func:`as_plain`), what they tell of the user's family the way people say it read first
    (:func:`~memori_core.extraction.family.as_family_said`)."""
    return as_plain(as_family_said([c for sentence in sentences
                                    for c in split_clauses(with_question_marked(sentence))]))


def as_plain(clauses: list[str]) -> list[str]:
    """The user's ``clauses`` (already split: :func:`split_clauses`) as the plain statements they mean
    (:func:`~memori_core.extraction.retold.as_plain_statements`), a correction of one of them applied to it
    (:func:`~memori_core.extraction.restated.corrected_in_message`), one the user takes back left out
    (:func:`~memori_core.extraction.retracted.without_retracted`)."""
    return corrected_in_message(as_plain_statements(without_retracted(clauses), split_clauses))


def own_clauses(text: str) -> list[str]:
    """The user's own clauses of one message (pasted or quoted text and a game set up left out), as the plain
    statements they mean."""
    own, _ = split_pasted(strip_filler(read_as_meant(text)))
    return plain_clauses(split_played(own)[0])
