"""How the user tells who they are: their name ("I'm Maya", "Name's Tom", "Bea here again", "I go by Alex"), what
they are ("Retired teacher here.", "As a vegan, ...?"), the one with something ("I'm the one with the parrot").

Pure: patterns, English only.
"""

from __future__ import annotations

import re

from ..number_words import number_words
from ..calendar_words import MONTH_NAMES, WEEKDAYS
from ..ranking.care import is_care_fact
from .patterns import I_AM, rx
from .rewrite import OTHER_FIRST_PERSON, article, end_sentence
from .slots import slots_of
from .speech_acts import SECOND_PERSON
from .verdicts import DROP_SMALL_TALK, KEPT_INTRODUCTION, KEPT_REWRITTEN

__all__ = ["being_a", "introduction", "name_given", "role_here", "the_one", "work_pattern"]

# "I'm Maya, by the way", "My name is Tom", "Name's Dmitri", "You can call me Kai": the user's name.
_NAME = r"(?P<name>[A-Z][a-z\u00e0-\u00ff]+(?:\s+[A-Z][a-z\u00e0-\u00ff]+)?)[.!]*$"
_INTRODUCTION = re.compile(r"^(?:[Ii]'m|[Ii]\s+am)\s+" + _NAME)
_NAME_GIVEN = re.compile(
    r"^(?:(?:[Mm]y\s+|[Tt]he\s+)?(?:[Ff]ull\s+|[Rr]eal\s+)?[Nn]ame\s+is|"
    r"(?:[Mm]y\s+|[Tt]he\s+)?(?:[Ff]ull\s+|[Rr]eal\s+)?[Nn]ame's|"
    r"(?:(?:[Yy]ou\s+can|[Jj]ust|[Pp]lease)\s+)?[Cc]all\s+me)\s+" + _NAME
)
# "Everyone calls me Becky", "everyone just says Seun", "I go by Alex": the name the user goes by.
_NICKNAME = re.compile(
    r"^(?:(?:[Ee]veryone|[Ee]verybody|[Pp]eople|[Mm]ost\s+people|[Mm]y\s+friends|[Ff]riends|[Tt]hey)\s+"
    r"(?:just\s+|all\s+|usually\s+)?(?:calls?\s+me|says)|[Ii]\s+(?:usually\s+)?go\s+by|"
    r"[Ii](?:'m|\s+am)\s+known\s+as)\s+"
    + _NAME
)
# "Bea here again", "Tom here.", "It's Priya again": a returning user saying their name. Words a sentence
# may start with that are no names ("Nobody here", "Spring here already", "It's Monday again") are not.
_NOT_A_NAME = (
    r"(?:Nobody|Noone|Everyone|Everybody|Someone|Somebody|Anyone|Anybody|Nothing|Something|Everything|It|This|"
    r"That|All|Just|Not|Still|Life|Time|Spring|Summer|Autumn|Fall|Winter|Christmas|Easter|Halloween|Today|"
    r"Tonight|" + "|".join(word.capitalize() for word in (*WEEKDAYS, *MONTH_NAMES)) + r"|Same|Back|Again|Rain|"
    r"Snow|Look|Looky|Lookie|Come|Sit|Stay|Wait|Over|Right|Out|Up|Down|In|Around|Nowhere|Somewhere|Everywhere|"
    r"Anywhere|Hello|Hi|Hey)\b"
)
_HERE_AGAIN = re.compile(
    rf"^(?:(?P<name>(?!{_NOT_A_NAME})[A-Z][a-z\u00e0-\u00ff]+)\s+(?:here(?:\s+again)?|again)"
    # "It's Ravi again" ("This is Max!" shows someone else)
    rf"|(?:[Ii]t's|[Ii]t\s+is|[Tt]his\s+is)\s+(?P<name2>(?!{_NOT_A_NAME})[A-Z][a-z\u00e0-\u00ff]+)"
    r"(?:\s+here)?\s+again"
    # typed in lower case, only with "here again": "jess here again"
    rf"|(?P<name3>(?!(?i:{_NOT_A_NAME}))[a-z\u00e0-\u00ff]{{2,}})\s+here\s+again)"
    r"(?:\s+(?:lol|haha|:\)))?[.!]*$"
)
# "Nurse here", "Dad here", "Newbie here": what the user is, not a name.
_NOT_NAMES_HERE = frozenset(
    """newbie noob beginner lurker novice amateur rookie first-timer fellow parent mum mom dad mother father
    grandma grandpa student teacher nurse doctor expat immigrant local tourist visitor customer user reader
    fan""".split()
)

# "Retired teacher here.", "Night-shift nurse here.": what the user is.
# "Peanut allergy here (the anaphylaxis kind)": an aside in brackets after it is a detail of it.
_ROLE_HERE = rx(r"^(?P<what>(?:[\w-]+\s+){1,2}[\w-]+)\s+here(?:\s*\([^()]*\)?)?[.!]*$")
# "Peanut allergy here", "Lactose intolerance here": a condition the user has, named by its noun.
_CONDITION_NOUN = rx(r"^(?:allergy|allergies|intolerance|intolerances)$")
# "I'm the one with the parrot", "I'm the guy who keeps bees": how the user tells who they are.
_THE_ONE = rx(
    r"^" + I_AM + r"\s+the\s+(?:one|guy|girl|woman|man|lady|person|mum|mom|dad)\s+"
    r"(?:(?:with|who\s+has|who's\s+got|that\s+has)\s+(?P<thing>(?!(?:me|you|him|her|them|us|it)\b).+)"
    r"|(?:who|that)\s+(?P<verb>(?:is|was|has|had|does|did|[a-z]+s|[a-z]+ed))\b(?P<rest>.*))$"
)
# "As a vegan", "Being a nurse": what the user is, said before a question.
_AS_A = rx(r"^(?:as|being)\s+(?P<article>a|an)\s+(?P<what>[\w-]+(?:\s+[\w-]+){0,2})$")
# "As someone with a severe peanut allergy", "as a person with coeliac disease": what the user has, the same way.
_AS_SOMEONE_WITH = rx(
    r"^as\s+(?:someone|somebody|a\s+person|a\s+guy|a\s+woman|a\s+man|one)\s+(?:with|who\s+has)\s+"
    r"(?P<what>(?!(?:you|him|her|them|it|kids|children|no)\b)(?:[\w-]+\s+){0,3}[\w-]+)$"
)


def _what_here(word: str) -> str | None:
    """For "<word> here": the fact when ``word`` says what the user is ("Vegetarian here" -> "User is
    vegetarian.", "Nurse here" -> "User is a nurse."), ``""`` when it is no name and no fact ("Newbie here"),
    ``None`` when it may be a name."""
    low = word.lower()
    if is_care_fact(f"User is {low}.") or slots_of(f"User is {low}.") - {"job"}:
        return f"User is {low}."
    if slots_of(f"User is a {low}.") & {"job"}:
        return f"User is {article(low)} {low}."
    return "" if low in _NOT_NAMES_HERE else None


def name_given(body: str) -> tuple[str | None, str] | None:
    """The verdict for a sentence that gives the user's name ("My name is Tom", "Everyone calls me Becky", "Bea
    here again"; "Vegetarian here." says what the user is, "Newbie here" nothing); ``None`` for any other."""
    named = _NAME_GIVEN.match(body)
    if named is not None:
        full = "full name" if re.search(r"\b(?:full|real)\s+name", body, re.IGNORECASE) else "name"
        return f"User's {full} is {named.group('name')}.", KEPT_INTRODUCTION
    named = _NICKNAME.match(body)
    if named is not None:
        return f"User goes by {named.group('name')}.", KEPT_INTRODUCTION
    named = _HERE_AGAIN.match(body)
    if named is not None:
        name = named.group("name") or named.group("name2") or named.group("name3").capitalize()
        what = _what_here(name)  # "Vegetarian here." is no name: "User is vegetarian."
        if what is not None:
            return what or None, KEPT_REWRITTEN if what else DROP_SMALL_TALK
        return f"User's name is {name}.", KEPT_INTRODUCTION
    return None


def introduction(body: str) -> str | None:
    """The fact of "I'm Maya" ("User's name is Maya."), ``None`` for any other sentence."""
    intro = _INTRODUCTION.match(body)
    return f"User's name is {intro.group('name')}." if intro is not None else None


def role_here(body: str) -> str | None:
    """The fact of "Retired teacher here." ("User is a retired teacher."), ``None`` for any other sentence."""
    m = _ROLE_HERE.match(body)
    if m is None or re.match(r"(?:no|not|nothing|none)\b", m.group("what"), re.IGNORECASE) \
            or not _what_here(m.group("what").split()[-1]):  # "No pets here" says what the user has not
        return None
    what = m.group("what").lower()
    if _CONDITION_NOUN.match(what.split()[-1]):  # "Peanut allergy here" -> "User has a peanut allergy."
        return end_sentence(f"User has {'' if what.endswith('s') else article(what) + ' '}{what}")
    if not slots_of(f"User is a {what.split()[-1]}.") & {"job"}:  # "Lactose intolerant here": no "a" before a state
        return end_sentence(f"User is {what}")
    return end_sentence(f"User is {article(what)} {what}")


def being_a(head: str) -> str | None:
    """The fact of "As a vegan", "Being a nurse" or "As someone with coeliac disease", said before a question ("User
    is a vegan.", "User has coeliac disease."), ``None`` for any other words."""
    having = _AS_SOMEONE_WITH.match(head.strip())
    if having is not None:  # "As someone with a severe peanut allergy, is satay ...?"
        return end_sentence(f"User has {having.group('what')}")
    being = _AS_A.match(head)
    if being is None or not _what_here(being.group("what").split()[-1]):
        return None
    return end_sentence(f"User is {being.group('article')} {being.group('what')}")


def the_one(body: str) -> str | None:
    """ "I'm the one with the parrot" -> "User has a parrot."; "I'm the guy who keeps bees" -> "User keeps bees.";
    ``None`` for any other sentence, or one that tells of someone else."""
    m = _THE_ONE.match(body)
    if m is None:
        return None
    told = m.group("rest") if m.group("verb") is not None else m.group("thing")
    if OTHER_FIRST_PERSON.search(told) or SECOND_PERSON.search(told):
        return None
    told = re.sub(r"\bmy\b", "their", told, flags=re.IGNORECASE)
    if m.group("verb") is not None:
        return end_sentence(f"User {m.group('verb')}{told}")
    the = re.match(r"the\s+(?P<rest>(?P<word>[\w-]+).*)$", told, re.IGNORECASE)
    if the is not None:  # "the parrot" -> "a parrot"; "the twins", "the three cats" stay without an article
        word, rest = the.group("word").lower(), the.group("rest")
        plural = word.endswith("s") and not word.endswith("ss") or word.isdigit() or word in _COUNTS
        told = rest if plural else f"{article(word)} {rest}"
    return end_sentence(f"User has {told}")


_COUNTS = frozenset("two three four five six seven eight nine ten twin twins".split())


# "I'm an ICU nurse at Manchester Royal, mostly on nights at the moment, three 12-hour shifts a week": what the user
# works as, then how they work it, each a fact of its own.
_JOB_THEN_PATTERN = rx(
    r"^(?P<job>" + I_AM + r"\s+(?:a|an)\s+[^,]+?|i\s+work\s+(?:as|at|for|in)\s+[^,]+?)\s*,\s*(?P<items>[^,].*?)[.!]*$"
)
_SHIFT_ITEM = rx(
    r"^(?P<how>(?:(?:mostly|mainly|usually|currently|now|still|often|always|only)\s+)?)(?:on|doing|working)\s+"
    r"(?P<what>(?:nights?|night\s+shifts?|days|day\s+shifts?|earlies|lates|weekends|nights\s+and\s+weekends|"
    r"earlies\s+and\s+lates)(?:\s+and\s+(?:weekends|nights|days|earlies|lates))?"
    r"(?:\s+(?:at\s+the\s+moment|right\s+now|for\s+now|these\s+days|mostly))?)$"
)
_HOURS_ITEM = rx(
    rf"^(?:(?:usually|mostly|about|around|roughly)\s+)?(?:(?:{number_words('seven')}|\d{{1,2}})\s+"
    r"(?:(?:\d{1,2}|eight|ten|twelve)[\s-]hour\s+|long\s+|night\s+|day\s+)?(?:shifts|days|nights)\s+(?:a|per)\s+week|"
    r"\d{1,2}\s+hours\s+(?:a|per)\s+week|part[\s-]time|full[\s-]time)$"
)


def work_pattern(clause: str) -> list[str] | None:
    """ "I'm an ICU nurse at Manchester Royal, mostly on nights, three 12-hour shifts a week" -> "I'm an ICU nurse at
    Manchester Royal", "I mostly work nights, three 12-hour shifts a week": what the user works as, then how
    (nights, shifts, hours: every item after the job must be one); ``None`` for any other clause."""
    m = _JOB_THEN_PATTERN.match(clause.strip())
    if m is None:
        return None
    told = re.sub(r"^i\s+work\b", "User works", re.sub(r"^" + I_AM + r"\b", "User is", m.group("job"), flags=re.I),
                  flags=re.I)
    if "job" not in slots_of(end_sentence(told)):  # "I'm a mum, on nights with the baby": no job
        return None
    items = [item.strip() for item in re.split(r"\s*,\s*|\s+and\s+(?=\w+\s+(?:\d|\w+-hour))", m.group("items"))]
    said, how = [], ""
    for item in items:
        shift = _SHIFT_ITEM.match(item)
        if shift is not None:
            how = how or shift.group("how").strip()
            said.append(shift.group("what"))
        elif _HOURS_ITEM.match(item):
            said.append(item)
        else:
            return None
    return [m.group("job"), f"I {how + ' ' if how else ''}work {', '.join(said)}"]
