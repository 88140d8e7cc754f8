"""The gate's third signal: does the question ask about the world, or about the asker?

"What's the capital of Australia?", "How many ounces are in a cup?", "Who invented the ice cream cone?"
ask for knowledge that is the same for every user; "Is satay sauce safe for me?", "Any ideas for the
weekend?", "What should we cook tonight?" ask for an answer shaped by the person. A general question
rarely needs a stored fact, yet its words or the conversation before it often pull some in ("What's a
normal temperature for a cat?" after talking about the user's cat).

A question is **general** when it is a sentence asking something (:func:`reads_as_a_question`; a keyword
search never is), speaks of no one in the first person (:func:`~.care.is_personal`), its embedding is
nearer a general-knowledge question shape than a request for advice, by at least :data:`GENERAL_MARGIN`
(best cosine to :data:`GENERAL_PROTOTYPES` minus best cosine to :data:`ADVICE_PROTOTYPES`), and it is
not about someone the memory knows (:func:`names_known`: a name the question makes its subject or owner,
"When did Caroline...", "Melanie's daughter", that a candidate fact holds, or a capitalised word a
candidate fact starts with, "What inspired John to...?") nor about "the user" in the third person
(:func:`speaks_of_the_user`). For a general question the gate reads the question's own cosine (not the
conversation's) and keeps a fact only from ``gate_general`` on, or when it holds several of the
question's informative words (raw BM25 >= ``gate_general_bm25``, besides the usual words rule).

The prototypes describe question *shapes*, not the topics of any data set; on the app-memory
development set they call 59 of its 66 off-topic turns general and 2 of its 245 turns that need a fact,
and of 40 questions written apart from it (20 of each kind) all 20 general ones and none of the requests
(``tests/test_intent.py`` keeps 30 of them). Two shapes were added after the off-topic follow-ups of two
further app sets showed them read as requests: how long a thing keeps or lasts ("How long does cooked rice
keep in the fridge?") and where a custom comes from ("How do the Dutch celebrate Easter?" is near it too). A
third, how people somewhere celebrate something, was tried and left out: it made "Would a ferry to Corsica be a
good holiday?", a request for the asker, a general question. The tests keep questions of these shapes, written
apart from the sets. A fourth, whether a saying is true ("Is it true you can't wash a cat?", "Does camomile tea
really help you sleep?" is near it too), was added after the sixth set's off-topic turns; "Does this really
work?" beside it cost turns that need a fact ("is lactose-free milk really lactose free?") and was left out.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

import numpy as np

from ..number_words import number_words
from .care import DRUG_NAME, FIRST_PERSON
from .names import is_not_a_name, is_ordinary_word

__all__ = ["ADVICE_PROTOTYPES", "GENERAL_MARGIN", "GENERAL_PROTOTYPES", "asks_an_amount_in_a_unit", "asks_how_to",
           "names_the_askers",
           "asks_what_is_usual",
           "asks_the_way_there", "asks_what_is_left",
           "asks_what_was_told", "general_margin", "is_general", "names_known", "reads_as_a_question", "speaks_of_the_user",
           "subject_names"]

ADVICE_PROTOTYPES: tuple[str, ...] = (
    "What should I do?",
    "Is it a good idea for me to do this?",
    "Can you recommend something I would like?",
    "Any ideas for what we could do this weekend?",
    "Help me plan my week.",
    "What would you suggest for my situation?",
    "Which one should I choose?",
    "Is it okay for me to eat this?",
    "What's a good gift for my partner?",
    "Can you put together a plan for me?",
    "What could the kids and I do today?",
    "Where should we go for dinner?",
)
"""Requests whose answer depends on who asks."""

GENERAL_PROTOTYPES: tuple[str, ...] = (
    "How many of these are in one of those?",
    "Who invented it and when?",
    "What is the difference between the two?",
    "Explain how it works.",
    "What is the capital city of that country?",
    "How do you say this in French?",
    "Why does this happen?",
    "What is the population of that place?",
    "Convert this measurement into other units.",
    "What does this word mean?",
    "How long does it take?",
    "What is twenty percent of this number?",
    "When did this historical event happen?",
    "What is the scientific explanation for it?",
    "Who won the championship?",
    "How far is one city from the other?",
    "How long does this keep before it goes off?",
    "Where does this tradition come from?",
    "Is it true that this is so?",
)
"""Shapes of general-knowledge questions: amounts, definitions, history, science, geography, language."""

GENERAL_MARGIN = 0.02
"""How much nearer a general shape than an advice request (in cosine) a question must be to count as general:
0.05 until 2026-12-06, when follow-ups ending on "then" or picking among "the ones" named stopped counting as
general (:func:`~.conversation.goes_on_from_the_conversation`); at 0.02 the six read app sets' off-topic turns
came out cleaner (dev 0.970 -> 0.985, blind4 0.739 -> 0.783) with no turn that needs a fact lost, at 0.0 three
such turns were lost (docs/ranking.md 27)."""


_AMOUNT_IN = re.compile(
    r"^\W*how\s+(?:many|much)\s+(?:[\w'-]+\s+){1,4}?(?:are\s+|is\s+)?(?:there\s+)?in\s+(?:a|an|one|each|every|1)\b",
    re.IGNORECASE,
)


def asks_an_amount_in_a_unit(question: str) -> bool:
    """Whether an impersonal question asks how many of one thing are in another ("How many weeks are in a
    year?", "How many grams in a cup of rice?"): a general shape read from the words, which the embedding
    misses when the words are also a user's ("User is 26 weeks pregnant.").

    >>> asks_an_amount_in_a_unit("How many weeks are in a year?"), asks_an_amount_in_a_unit("How many weeks left?")
    (True, False)
    """
    return _AMOUNT_IN.match(question) is not None


_USUAL = re.compile(r"\b(?:usually|normally|typically|generally|on\s+average|in\s+general|as\s+a\s+rule)\b",
                    re.IGNORECASE)
# a word that points back at something the conversation named: "How much do they usually go for?"
_POINTS_BACK = re.compile(r"\b(?:that|this|it|its|it's|they|them|their|those|these|there|he|she|him|her|his)\b",
                          re.IGNORECASE)


def asks_what_is_usual(question: str) -> bool:
    """Whether a question asks how things usually are (usually, normally, typically, on average, in general) and
    points back at nothing by a pronoun: "how long do budgies usually live", "how often can a person normally donate
    blood". The caller checks it is impersonal and names no one the memory knows ("How long does Archie usually
    nap?"); "How long does that usually take?" leans on the conversation.

    >>> asks_what_is_usual("What age do babies usually start solids?"), asks_what_is_usual("How long does it usually take?")
    (True, False)
    """
    text = question.replace("\u2019", "'")
    return _USUAL.search(text) is not None and _POINTS_BACK.search(text) is None


# what a question names of the asker's: "the dog", "my car" (a thing the facts say the user has), a medicine a fact holds
# (not a word that only qualifies a measure: "the drive time from Atlanta to Asheville")
# (not a word that only qualifies a measure: "the drive time from Atlanta to Asheville"). The thing is the head noun
# of a short noun phrase: up to three words after the/my/our, stopping at a verb, an adverb or a preposition ("my
# older daughter" -> daughter, "our new puppy" -> puppy, "my son's school" -> school and the son who owns it; "my
# usually busy week" reads nothing: an adverb right after "my" ends the phrase before it has a noun; issue 20 item 3)
_THE_PHRASE = re.compile(r"\b(?:the|my|our)\s+(?=((?:[a-z][\w'\u2019-]*\s+){0,2}[a-z][\w'\u2019-]*))", re.IGNORECASE)
# an adverb by its ending ("usually", "regularly", "frequently", "probably"), not "family", "weekly", "elderly"
_AN_ADVERB = re.compile(r"[a-z]{3,}(?:al|ous|ent|ant|ate|ite|ete|ive|ab|ib|ful|less|ular|ic)ly")
_ENDS_A_PHRASE = frozenset("""
    the a an my our your his her their its this that these those and or but nor so than then if when while as
    of to in on at by for from with about into onto over under after before since until near through across around
    without within during like per via up down out off away back
    is am are was were be been being do does did done have has had having can could will would shall should may
    might must need needs needed get gets got go goes went gone make makes made take takes took keep keeps kept
    eat eats ate drink drinks sleep sleeps live lives last lasts cost costs start starts stop stops see sees
    stay stays take need want wants look looks seem seems feel feels come comes use uses play plays grow grows
    usually normally typically generally often always never ever sometimes still also just even only too very
    really already again soon now once twice i you he she it we they me him us them what which who how where why
""".split())
_DESCRIBES = frozenset("""
    new old older oldest young younger youngest eldest little big bigger small smaller first second third current
    usual favourite favorite local own next last whole other same best worst main only several many few
    good bad nice great
""".split())
# after "the", a word that makes the phrase any one of its kind, not the user's (rev40d finding 4)
_ANY_ONES = frozenset("""
    average typical usual normal ordinary standard best worst cheapest healthiest safest ideal perfect right
""".split())
_MEASURE_WORDS = frozenset("""
    time times cost costs price prices distance length size rate rates fare fares speed limit temperature weather
""".split())
_A_MEDICINE = re.compile(rf"\b{DRUG_NAME}\b", re.IGNORECASE)


def names_the_askers(question: str, texts: Iterable[str]) -> bool:
    """Whether ``question`` names something ``texts`` (the facts) say is the user's: a thing it puts after the/my/our
    that a fact gives the user ("What does the dog usually eat?" and "User's dog Biscuit is on a grain-free diet.",
    "User has a dog."), or a medicine a fact names ("Does metformin usually cause stomach upset?" and "User takes
    metformin twice a day."). A usual-question that does is no general question (rev39b finding 4).

    >>> names_the_askers("What does the dog usually eat?", ["User's dog Biscuit is on a grain-free diet."])
    True
    >>> names_the_askers("How long do dogs usually live?", ["User's dog Biscuit is on a grain-free diet."])
    False
    """
    things = {w for w in _phrase_things(question) if len(w) > 2 and w not in _NOT_A_THING}
    medicines = {m.group(0).lower() for m in _A_MEDICINE.finditer(question)}
    if not things and not medicines:
        return False
    for text in texts:
        if things and any(_owns(m.group(1), things) for m in _OWNED.finditer(text)):
            return True
        if medicines and medicines & {m.group(0).lower() for m in _A_MEDICINE.finditer(text)}:
            return True
    return False


def _phrase_things(question: str) -> set[str]:
    """The head nouns of the short noun phrases a question puts after the/my/our (lower case), and the owners and
    nouns before them ("my son's school": school, son; "the dog food": food, dog); a head that is a measure keeps
    nothing ("the drive time")."""
    out: set[str] = set()
    for m in _THE_PHRASE.finditer(question):
        words = []
        for word in m.group(1).lower().replace("\u2019", "'").split():
            if word in _ENDS_A_PHRASE or _AN_ADVERB.fullmatch(word):
                break
            words.append(word)
        if not words or words[-1] in _MEASURE_WORDS:
            continue
        if m.group(0)[:3].lower() == "the" and (words[0] in _ANY_ONES or any(w.endswith("'s") for w in words)):
            continue  # "the typical cat", "the best dog food", "the neighbour's dog": no thing of the user's
        out.add(words[-1].removesuffix("'s"))
        # an owner ("my son's school") or a noun before the head ("the dog food", "my car battery") is the user's
        # too; a word that only describes ("my older daughter", "our new puppy") is nothing of theirs
        out.update(w.removesuffix("'s") for w in words[:-1] if w not in _DESCRIBES)
    return out


_OWNED = re.compile(r"\b(?:(?:user's|my|our)\s+|(?:user|i)\s+(?:has|have|owns?|keeps?|drives?|rents?)\s+"
                    r"(?:an?\s+|two\s+|three\s+)?)(?=((?:[\w'-]+\s+){0,2}[\w'-]+))", re.IGNORECASE)
"""What a fact says the user has: the (up to three) words after "User's", "my", "our", "User has (a)"... (read
ahead, not taken: "my son and my dog" reads "son and my" and then "dog")."""


_WORD_START = re.compile(r"\w+")


def _owns(words: str, things: set[str]) -> bool:
    """Whether one of ``words`` (what :data:`_OWNED` read) is one of ``things``, or its plural ("dogs", "boxes")."""
    for token in words.lower().split():
        word = _WORD_START.match(token)
        word = "" if word is None else word.group(0)  # "dog's", "dog-friendly": "dog"
        if word in things or (word.endswith("s") and word[:-1] in things) or (word.endswith("es") and word[:-2] in things):
            return True
    return False


_NOT_A_THING = frozenset({"the", "best", "most", "first", "last", "same", "other", "usual", "way", "time", "day",
                          "week", "year", "world", "average"})


_TOLD_BEFORE = re.compile(
    r"\bagain\W*$|\bremind\s+(?:me|us)\b|\bdid\s+(?:i|we)\s+(?:tell|mention|say)\b|"
    r"\bwhat\s+did\s+(?:i|we)\s+(?:tell|say)\b|\b(?:i|we)\s+(?:told|mentioned)\s+you\b|"
    # what someone the memory knows said: "What did the vet say about...?", "What was it the doctor said?"
    r"\bwhat\s+(?:did|does)\s+(?:the|my|our)\s+(?!(?-i:[A-Z]))(?:[\w'-]+\s+){1,5}?(?:say|tell|mention)\b|"
    r"\bwhat\s+was\s+it\s+(?:the|my|our)\s+(?:[\w'-]+\s+){1,3}?said\b",
    re.IGNORECASE,
)


def asks_what_was_told(question: str) -> bool:
    """Whether the question asks the assistant to recall what the asker told it ("When is that conference
    again?", "Remind me what the vet said.", "Did I mention the date?") or what someone in the asker's life said
    ("What did the kidney doctor say about painkillers?"): it is about what the memory holds, never a general
    question, whatever its shape ("What time is the dentist again?" has the shape of "What time is it?").

    >>> [asks_what_was_told(q) for q in ("When is the Kigali conference again?", "When was Kigali founded?")]
    [True, False]
    """
    return _TOLD_BEFORE.search(question.replace("\u2019", "'")) is not None


_WAY_THERE = re.compile(
    r"(?<!\bit )\b(?:get|getting|go|going|drive|driving|fly|flying|travel|travelling|traveling|walk|walking|cycle|"
    r"cycling|ride|riding|head|heading|commute|come|coming|reach)\s+(?:back\s+|over\s+|out\s+|up\s+|down\s+)?there\b",
    re.IGNORECASE,
)


def asks_the_way_there(question: str) -> bool:
    """Whether the question asks about a journey to a place named before ("How long will it take to get there?",
    "What's the cheapest way to get there?", "how many days would it take to drive there"): the answer depends on
    where the asker sets out from and how they travel, so it is never a general question ("How cold does it get
    there in April?" asks about the place).

    >>> asks_the_way_there("What's the best way to get there?"), asks_the_way_there("How cold does it get there?")
    (True, False)
    """
    return _WAY_THERE.search(question) is not None


_LEFT_ON = re.compile(
    r"\bhow\s+(?:much|many)\s+(?!time\b)(?:[\w'-]+\s+){0,2}?(?:is|are)\s+(?:still\s+)?left\s+(?:on|to\s+pay|to\s+go\s+on)\b|"
    r"\bhow\s+(?:much|many)\s+(?:[\w'-]+\s+){0,2}?(?:do|does)\s+(?:i|we|he|she|they)\s+(?:still\s+)?owe\b|"
    # what is in a pot of the asker's: "How much is in the deposit pot now?", "how much have we saved so far?"
    r"\bhow\s+much\s+(?:money\s+|cash\s+)?(?:is|have\s+(?:i|we)\s+got|do\s+(?:i|we)\s+have)\s+in\s+(?:the|my|our)\b|"
    r"\bhow\s+much\s+(?:money\s+)?(?:have|has)\s+(?:i|we)\s+(?:\w+\s+)?saved\b",
    re.IGNORECASE,
)


def asks_what_is_left(question: str) -> bool:
    """Whether the question asks what remains of a debt or a plan of payments ("How much is left on the business
    loan?", "How many instalments are left on the bike?", "How much do we still owe?"): only the asker's memory
    holds it, so it is never a general question, whatever its shape.

    >>> asks_what_is_left("How much is left on the loan?"), asks_what_is_left("How much of the wall is left?")
    (True, False)
    """
    return _LEFT_ON.search(question) is not None


_HOW_DO_I = re.compile(r"^\W*how\s+(?:do|can|could|should|would)\s+i\s+\w+", re.IGNORECASE)


def asks_how_to(question: str) -> bool:
    """Whether the question asks how a thing is done, its "I" anyone's ("How do I convert gallons per acre to
    litres per hectare?", "How can I get candle wax out of wool?"): after "How do I <verb>" no word speaks of the
    asker again. "How do I keep my injections cold?" speaks of the asker's own things and is no such question.

    >>> asks_how_to("How do I calculate compound annual growth rate?"), asks_how_to("How do I get to my office?")
    (True, False)
    """
    text = question.replace("\u2019", "'")
    found = _HOW_DO_I.match(text)
    return found is not None and FIRST_PERSON.search(text, found.end()) is None


_THE_USER = re.compile(
    r"\bthe\s+(?:user|narrator)(?:['\u2019]s\b|\b(?!\s+(?:interface|experience|manual|guide|base|account|"
    r"agreement|name|id|story|stories|journey|research|testing|group|groups|count)\b))",
    re.IGNORECASE,
)


def speaks_of_the_user(question: str) -> bool:
    """Whether the question names the memory's owner in the third person ("What does the user like?", "Which
    trip did the narrator take first?"), as an agent's search or an evaluation's question does: it is about the
    user, never general.

    >>> [speaks_of_the_user(q) for q in ("What does the user eat?", "What do users want?", "Is the user manual online?")]
    [True, False, False]
    """
    return _THE_USER.search(question) is not None


_ASKING_WORD = re.compile(
    r"^\W*(?:what|what's|whats|who|who's|whose|whom|when|where|why|how|which|is|are|was|were|do|does|did|"
    r"can|could|will|would|explain|describe|define|translate|convert|tell|name|list|roughly|approximately)\b",
    re.IGNORECASE,
)


def reads_as_a_question(query: str) -> bool:
    """Whether the query is a sentence asking something: a question or request word first ("Why do bees
    swarm?", "Define entropy."), or a question mark after at least three words. A search such as "peanuts",
    "peanut allergy?" or "allergic lives" is not, and is never read as a general-knowledge question.

    >>> [reads_as_a_question(q) for q in ("Why do bees swarm?", "Define entropy.", "peanut allergy?", "likes")]
    [True, True, False, False]
    """
    words = len(query.split())
    if _ASKING_WORD.match(query) is not None:
        return words >= 2
    return words >= 3 and (query.rstrip().endswith("?") or _CHECKS_A_CLAIM.search(query) is not None)


# a claim told, then checked without a question mark: "the nurse said smear tests start at 25, is that right"
_CHECKS_A_CLAIM = re.compile(r"[,;]\s*(?:is|isn't|was)\s+(?:that|it|this)\s+(?:right|true|correct|accurate|so)\W*$",
                             re.IGNORECASE)


def prototype_texts() -> tuple[list[str], int]:
    """The advice prototypes followed by the general ones, and how many advice prototypes come first."""
    return [*ADVICE_PROTOTYPES, *GENERAL_PROTOTYPES], len(ADVICE_PROTOTYPES)


def general_margin(question: np.ndarray, prototypes: np.ndarray, advice: int) -> float:
    """Best cosine to a general shape minus best cosine to an advice request (``question`` and the rows of
    ``prototypes`` unit vectors, the first ``advice`` rows the advice prototypes)."""
    sims = prototypes @ question
    return float(sims[advice:].max() - sims[:advice].max())


def is_general(question: np.ndarray, prototypes: np.ndarray, advice: int, margin: float = GENERAL_MARGIN) -> bool:
    """Whether an impersonal question's embedding is a general-knowledge shape (see the module docstring);
    the caller checks first that it is impersonal, which costs no embedding."""
    return general_margin(question, prototypes, advice) >= margin


_SUBJECT_NAME = re.compile(
    r"\b(?i:do|does|did|is|was|are|were|has|have|had|will|would|can|could|should|might|may|must)\s+([A-Z][\w-]*)"
    r"|\b([A-Z][\w-]*)['\u2019]s\b"
)


_GROUP_NOUN = re.compile(
    r"\s+(?:citizens?|nationals?|residents?|people|passports?|passport\s+holders?|travell?ers?|tourists?|"
    r"speakers?|students?|drivers?|visitors?|expats?)\b",
    re.IGNORECASE,
)


def subject_names(question: str) -> set[str]:
    """Capitalised words the question makes its subject (right after an auxiliary: "did Caroline", "Is Rosie")
    or owner ("Melanie's"); "I" is not a name.

    >>> sorted(subject_names("When did Caroline visit Melanie's parents in Paris?"))
    ['Caroline', 'Melanie']
    """
    found = {m.group(1) or m.group(2) for m in _SUBJECT_NAME.finditer(question)
             if m.group(2) or _GROUP_NOUN.match(question, m.end(1)) is None}  # "Do French citizens": no one
    return {n for n in found if not is_not_a_name(n)}


# a word a fact holds right after a preposition of place: where something is or goes ("three weeks in Japan", "moved
# to Lisbon", "going to Tonga"), not someone the memory knows; not after of/from/at or a verb of visiting, which take
# people as often ("takes care of Mia", "a lift from Dan", "visiting Priya": rev39b finding 3)
_PLACED = re.compile(r"\b(?:in|to|near|around|across|through|via|into|outside|within|towards?)\s+$", re.IGNORECASE)
# a word a fact holds right after an article, a determiner, a number, an age or an owner: a kind ("User has a Shiba
# Inu named Kumo.", "a 13-year-old Shiba Inu called Kuro", "User's Labrador"), not a name given to someone (issue 20
# item 2: "How long do Shiba Inus usually live?" names no one the memory knows)
# Not after an owner or an age alone: "User's 5-year-old Ava", "My Kemi" give a name (rev40d finding 1); an age
# after an article is a kind's ("a 13-year-old Shiba Inu").
_A_KIND = re.compile(rf"(?:\b(?:a|an|the|this|that|these|those|every|each|some|any|no|{number_words('twelve')})|"
                     r"\b\d+|\b(?:a|an|the)\s+[\w-]+-old)\s+$", re.IGNORECASE)


def _names_someone(names: set[str], text: str) -> bool:
    """Whether ``text`` holds one of ``names`` other than as a place it puts something in ("User and Kenji plan three
    weeks in Japan." names Kenji, not Japan) or as a kind of thing ("User has a Shiba Inu named Kumo." names Kumo,
    not Shiba)."""
    for m in re.finditer(r"\w+", text):
        if (m.group(0) in names and _PLACED.search(text, max(0, m.start() - 12), m.start()) is None
                and _A_KIND.search(text, max(0, m.start() - 24), m.start()) is None):
            return True
    return False


_CAPITALISED = re.compile(r"(?<=\s)([A-Z][a-z][\w-]*)")
_FACT_HEAD = re.compile(r"^\W*([A-Z][\w-]*)")
# a name a fact gives someone after saying who they are to the user ("User's wife Meena", "User's mother-in-law Sue",
# "a dog called Biscuit"): the facts' people besides their heads (issue 20, docs/ranking.md 70)
_RELATION = (r"wife|husband|partner|spouse|fianc[e\u00e9]e?|girlfriend|boyfriend|son|daughter|child|kid|baby|brother|"
             r"sister|sibling|twin|mother|father|mum|mom|dad|parent|grandmother|grandfather|grandma|grandpa|gran|granny|"
             r"nan|nana|grandson|granddaughter|grandchild|niece|nephew|aunt|uncle|cousin|stepson|stepdaughter|"
             r"stepmother|stepfather|friend|colleague|co-?worker|boss|manager|neighbou?r|roommate|flatmate|housemate|"
             r"teacher|coach|tutor|therapist|dog|cat|puppy|kitten|pet|horse|rabbit")
_GIVEN_NAME = re.compile(rf"\b(?:(?:{_RELATION})s?(?:-in-law)?,?(?:\s+(?:named|called))?|named|called)\s+"
                         r"([A-Z][a-z][\w-]*)")
_A_WORD = re.compile(r"[A-Za-z][\w-]*")


@functools.lru_cache(maxsize=65536)
def _fact_people(text: str) -> frozenset[str]:
    """The names (casefolded) one fact gives people: the word it starts with, its speaker or subject, and a name it
    gives after a relation ("User's wife Meena"); read once per fact text (the warm path asks again each turn)."""
    head = _FACT_HEAD.match(text)
    found = {m.group(1).casefold() for m in _GIVEN_NAME.finditer(text)}
    if head is not None:
        found.add(head.group(1).casefold())
    return frozenset(n for n in found if not is_not_a_name(n))


def _typed_names(question: str) -> set[str]:
    """Words (casefolded) the question may name someone by besides :func:`subject_names`: a capitalised word past
    its first, the word opening it, and a lower case word that is no ordinary word ("renata school play..."); a
    possessive's owner ("renata's")."""
    text = question.replace("\u2019", "'")
    found = set()
    for m in _A_WORD.finditer(text):
        word = m.group(0)
        if word[0].isupper() or not is_ordinary_word(word):
            found.add(word.casefold())
    return {w for w in found if not is_not_a_name(w)}


def names_known(question: str, texts: Iterable[str]) -> bool:
    """Whether the question is about someone ``texts`` know: a name it is about (:func:`subject_names`) is a
    word of one of them, or a capitalised word past its first ("What inspired John to join...?") is the
    word one of them starts with, its speaker or subject ("John: I've always...", "John joined..."), or any word of
    it, the first or one typed in lower case ("renata school play is on friday", "Meena says I should rest"), is a
    name a fact gives a person: its head, or after a relation ("User's wife Meena"). A lower case word that is an
    ordinary word ("rose bushes") never counts, nor a place the facts only mention ("User grew up in Chicago.").

    >>> names_known("What inspired John to run?", ["John: I love running."]), names_known(
    ...     "What's the population of Chicago?", ["User grew up in Chicago."])
    (True, False)
    >>> names_known("Meena says I should rest more, is she right?", ["User's wife Meena is a nurse."])
    True
    """
    names = subject_names(question)
    words = {w for w in _CAPITALISED.findall(question) if not is_not_a_name(w)}
    # a possessive typed twice, "Johns's reaction", is John's
    names |= {n[:-1] for n in names if n.endswith("s")}
    words |= {w[:-1] for w in words if w.endswith("s") and question.find(w + "'s") >= 0}
    typed = _typed_names(question)
    if not names and not words and not typed:
        return False  # the common case: no fact is read
    texts = list(texts)
    for text in texts:
        if names and not names.isdisjoint(re.findall(r"\w+", text)) and _names_someone(names, text):
            return True
        head = _FACT_HEAD.match(text)
        if head is not None and head.group(1) in words:
            return True
    return bool(typed) and any(not typed.isdisjoint(_fact_people(text)) for text in texts)
