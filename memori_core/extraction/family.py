"""What the user tells of their family the way people say it, read as the plain statements the rules read.

- A parent or grandparent named the British way, with no "my" ("Mum's settled in", "dad died last year", "Nan
  has dementia"), is the user's: "My mum has settled in", "my dad died last year", "My nan has dementia".
- "'s" after someone of the user's is "is" or "has" when a verb or a place follows ("my sister's coming to stay",
  "my dad's got Parkinson's", "my mum's in a care home"), not a possessive ("my sister's house").
- A relative's lasting condition told by the way ("my mum's dementia is getting worse", "My mother has dementia and
  it's getting harder to cope", "My mum lives with us, she has Alzheimer's", "I look after my dad, who has
  Parkinson's") is the plain fact a careful person keeps: "My mum has dementia" (the rules keep it as the relative's,
  never core: core is the user's own).
- The user's children named without "my" ("Josh is 14 and Ellie is 12" after "I have two kids"): :mod:`.children`.
- A parent moved into a care home ("We finally moved mum into a care home", "Mum's settled into Oakwood care
  home", "my dad is in a nursing home now") is that person's move: "My mum moved into a care home", which the
  rules keep as where they live now and which ends the home a stored fact gave them ("User's mum lives with
  them."), never the user's own.

Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..number_words import number_words
from ..slots import PERSON, holder, placed
from .children import as_child_aged, as_children_counted, as_children_named
from .diagnoses import LASTING_CONDITION
from .genders import may_be
from .grammar import is_verb_form
from .leads import strip_lead
from .patterns import rx, words

__all__ = ["CARE_HOME", "as_family_said"]

# A parent or grandparent as the user names them with no "my", and how "my ..." says it.
_BARE_KIN = {"mum": "mum", "mom": "mom", "mummy": "mum", "mommy": "mom", "mam": "mum", "dad": "dad",
             "daddy": "dad", "nan": "nan", "nana": "nan", "nanna": "nan", "gran": "gran", "granny": "gran",
             "grandma": "grandma", "grandad": "grandad", "granddad": "grandad", "grandpa": "grandpa"}
# "Mum's settled in", "dad died last year", "Mum and I ...": the bare word as the subject, a verb or "and I" after it
# (not "Mum, can you ...": a name called; not "Mum and Dad": two subjects the rules read as one; not "Mum's the
# word", "Dad joke", "Mom jeans": the word in a phrase).
_KIN_FIRST = rx(
    rf"^(?P<kin>{words(*_BARE_KIN)})"
    r"(?P<rest>'s\s+(?!the\b)\S.*|\s+and\s+(?:i|me)\b.*|\s+(?P<next>(?-i:[a-z])[\w']*)\b.*)$"
)
# What may stand between the bare word and its verb: "Mum always says ...", "Dad finally retired".
_BEFORE_VERB = frozenset("always never still just finally recently now really also actually already".split())
# "Mum always says I work too hard", "dad wants me to call": their words or wishes, no fact of theirs or the user's.
_SAYS = rx(r"^\s+(?:(?:always|still|just|really|never|also|actually)\s+)*"
           r"(?:says|said|thinks|thought|reckons|tells|told|keeps\s+saying|asks|asked|wants|wanted)\b")
_MY_ONE = rf"(?:my|our)\s+{placed('best', 'late')}(?:{PERSON})"
# "'s" after someone of the user's: "has" before what has been done, "is" before a place, a state or a doing.
_HAS_NEXT = frozenset(
    "got been gone had done moved settled started finished left retired decided booked passed taken become broken "
    "bought sold lost found changed stopped given agreed".split()
)
_IS_NEXT = frozenset(
    "a an the in at on off away back over home with from out still now just also always never really so very not "
    "due pregnant coming going moving visiting staying flying driving heading arriving getting having doing living "
    "working starting retiring bringing hosting planning recovering struggling settling expecting dating seeing "
    "studying training travelling traveling".split()
)
# "my sister's leaving do", "my mum's coming-of-age": a possessive after all when a thing follows the verb-like word.
_THING_AFTER = rx(r"^\s+(?:do|party|drinks|card|present|gift|bash)\b")
_CONTRACTED = rx(rf"^(?P<who>{_MY_ONE})'s\s+(?P<next>[\w-]+)(?P<rest>.*)$")

CARE_HOME = (
    r"(?:(?:a|an|the)\s+)?(?:(?-i:[A-Z])[\w'-]+\s+){0,3}?(?:(?:care|nursing|residential|retirement|old\s+people's|"
    r"old\s+folks'?|dementia|respite)\s+home|care\s+(?:facility|centre|center)|hospice|assisted[\s-]living"
    r"(?:\s+(?:facility|flat|home|place))?|sheltered\s+(?:housing|accommodation|flat)|memory\s+care"
    r"(?:\s+(?:unit|facility|home))?)"
)
"""A regex of a home for care as a sentence names it ("a care home", "Oakwood care home", "a nursing home",
"sheltered housing", "assisted living")."""
# "We finally moved mum into a care home", "we had to put dad in a home": the user moving someone of theirs in ("a
# home" said of putting someone in one is a care home).
_MOVED_SOMEONE_IN = rx(
    r"^(?:we|i)(?:'ve|\s+have)?\s+(?:(?:finally|just|recently|eventually|now|had\s+to|have\s+had\s+to)\s+)*"
    rf"(?:moved|put|got|placed|settled|took)\s+(?P<who>{_MY_ONE}|{words(*_BARE_KIN)})\s+(?:in|into)\s+"
    rf"(?P<place>{CARE_HOME}|a\s+home\b)(?P<rest>.*)$"
)
# "My mum has settled into Oakwood care home", "my dad went into a nursing home last month".
_WENT_IN = rx(
    rf"^(?P<who>{_MY_ONE})\s+(?:has\s+|have\s+)?(?:(?:finally|just|recently|now)\s+)*"
    rf"(?:moved|gone|went|settled)\s+(?:in|into)\s+(?P<place>{CARE_HOME})(?P<rest>.*)$"
)
# "my dad is in a nursing home now", "Nan lives in sheltered housing": where they live (not "is at the care home
# today", a visit; nor "in a care home for respite this week", a stay).
_LIVES_IN = rx(
    rf"^(?P<who>{_MY_ONE})\s+(?:(?:is|has\s+been|is\s+living)\s+(?:(?:now|still)\s+)?in|lives\s+(?:in|at))\s+"
    rf"(?P<place>{CARE_HOME})(?P<rest>(?!.*\b(?:respite|today|tonight|this\s+week(?:end)?|"
    rf"for\s+(?:a|an|{number_words('three')}|a\s+few|\d+)\s+(?:days?|weeks?|nights?))\b).*)$"
)


_CONDITION_WORDS = rf"(?:(?:early|late|mild|severe|advanced)[\s-](?:stage\s+)?)?(?:{LASTING_CONDITION})"
_CONDITION = rf"(?P<cond>{_CONDITION_WORDS})"
# A relative's lasting condition told by the way, each read as "<who> has <condition>": "my mum's dementia is getting
# worse" (theirs: not "my dad's diabetes test", a test for it); "My mother has dementia and it's getting harder to
# cope" (how it goes, cut off) or "my dad has got Parkinson's"; "I look after my dad, who has Parkinson's" (someone
# the clause names, searched for); "she has Alzheimer's" after a clause naming them.
_THEIR_CONDITION = rx(rf"^(?P<who>{_MY_ONE})'s\s+{_CONDITION}\s+(?:is|has|'s|was|seems|keeps|got|progressed|came)\b")
_PRONOUN_HAS = rx(rf"^(?P<p>he|she)(?:\s+has|\s+has\s+got|'s\s+got)\s+{_CONDITION}\s*[.!]*$")
_MY_ONE_IN = rx(rf"\b(?P<who>{_MY_ONE})\b")
_HAS_CONDITION = rx(
    rf"^(?P<who>{_MY_ONE})\s+has(?:\s+got\s+{_CONDITION}\s*$|(?:\s+got)?\s+(?P<cond2>{_CONDITION_WORDS})"
    r"\s*(?:[,;]\s*|\s+-\s+|\s+(?:and|but|so)\s+)(?:it|it's|that|that's|this|things|life|everything|we|we're)\b)"
)
_WHO_HAS = rx(rf"\b(?P<who>{_MY_ONE}),?\s+who\s+(?:has|has\s+got|'s\s+got|was\s+diagnosed\s+with)\s+{_CONDITION}\b")
# "I have a daughter, Sofia, who is 14", "we have a son named Leo who's 8": who the person is, and their age, which
# changes ("Sofia turned 15"), each a statement of its own.
_HAS_ONE_AGED = rx(
    rf"^(?P<has>(?:i|we)\s+(?:have|'ve\s+got|have\s+got)\s+(?:a|an|one)\s+(?P<kin>(?:{PERSON}))"
    r"(?:,\s+|\s+(?:named|called)\s+)(?P<name>[a-z\u00c0-\u017f][\w\u00c0-\u017f'-]*)),?\s+who(?:\s+is|'s)\s+"
    r"(?P<age>\d{1,3})(?:\s+years?\s+old)?$"
)
# "Mum is 70 and Dad is 72", "my sister lives in Leeds and my brother is in Hull": two of the user's, each with a
# verb of their own, one statement each (the second subject is as much the user's as the first).
_ONE_OF_MINE = rf"(?:{_MY_ONE}|{words(*_BARE_KIN)})"
_TWO_OF_MINE = rx(
    rf"^(?P<first>{_ONE_OF_MINE}(?:'s)?\s+\S.*?)\s*,?\s+and\s+"
    rf"(?P<second>{_ONE_OF_MINE}(?P<s>'s)?\s+(?P<verb>[\w']+)\b.*)$"
)


def _my_kin(said: str) -> str:
    """``said`` with a bare parent or grandparent first said as the user's ("Mum's settled in" -> "My mum's
    settled in"); any other ``said`` as it is."""
    m = _KIN_FIRST.match(said)
    nxt = m.group("next") if m is not None else None
    if m is None or (nxt is not None and not is_verb_form(nxt) and nxt.lower() not in _BEFORE_VERB) \
            or _SAYS.match(m.group("rest")):
        return said
    return f"My {_BARE_KIN[m.group('kin').lower()]}{m.group('rest')}"


def _uncontracted(said: str) -> str:
    """``said`` with "'s" after someone of the user's written out as "is" or "has" when a verb, a place or a state
    follows ("my sister's coming to stay" -> "my sister is coming to stay", "my dad's got Parkinson's" -> "my dad
    has got Parkinson's"); a possessive ("my sister's house") as it is."""
    m = _CONTRACTED.match(said)
    if m is None or _THING_AFTER.match(m.group("rest")):
        return said
    nxt = m.group("next").lower()
    verb = "has" if nxt in _HAS_NEXT else "is" if nxt in _IS_NEXT or nxt.isdigit() else None  # "mum's 70"
    return said if verb is None else f"{m.group('who')} {verb} {m.group('next')}{m.group('rest')}"


def _into_care(said: str) -> str | None:
    """The plain statement of someone of the user's moving into a home for care, or living in one ("We finally
    moved mum into a care home last weekend" -> "My mum moved into a care home last weekend", "my dad is in a
    nursing home now" -> "My dad lives in a nursing home now"); ``None`` when ``said`` tells of none."""
    m = _MOVED_SOMEONE_IN.match(said) or _WENT_IN.match(said)
    verb = "moved into"
    if m is None:
        m, verb = _LIVES_IN.match(said), "lives in"
    if m is None:
        return None
    who = m.group("who")
    bare = _BARE_KIN.get(who.lower())
    who = f"My {bare}" if bare is not None else re.sub(r"^(?:my|our)\b", "My", who, flags=re.IGNORECASE)
    place = m.group("place")
    place = "a care home" if re.fullmatch(r"a\s+home", place, re.IGNORECASE) else place
    return f"{who} {verb} {place}{m.group('rest')}".rstrip(" .!")


def _condition(said: str, before: str | None) -> list[str] | None:
    """The plain statements of a relative's lasting condition ``said`` tells ("my mum's dementia is getting worse"
    -> ``["My mum has dementia"]``; "I look after my dad, who has Parkinson's" -> the clause, and "My dad has
    Parkinson's"); ``before``: the one of the user's the clause before named, whom a "she" / "he" first is.
    ``None`` when it tells of none."""
    m = _THEIR_CONDITION.match(said) or _HAS_CONDITION.match(said)
    if m is not None:
        return [f"{_capital(m.group('who'))} has {m.group('cond') or m.group('cond2')}"]
    m = _WHO_HAS.search(said)
    if m is not None:
        return [said[: m.end("who")], f"{_capital(m.group('who'))} has {m.group('cond')}"]
    m = _PRONOUN_HAS.match(said)
    if m is None or before is None:
        return None
    if not may_be(m.group("p"), holder(f"User's {before.split(maxsplit=1)[1]}"), ungendered=True):
        return None  # "My dad lives with us, she has dementia": not him; "my friend ..., she ..." may be
    return [f"{_capital(before)} has {m.group('cond')}"]


def _aged(said: str) -> list[str] | None:
    """``said`` as who the user has and their age ("I have a daughter, Sofia, who is 14" -> ``["I have a daughter,
    Sofia", "My daughter Sofia is 14"]``); ``None`` when it tells of no one's age so."""
    m = _HAS_ONE_AGED.match(said)
    if m is None:
        return None
    name = m.group("name")
    name = name[:1].upper() + name[1:]
    return [said[: m.start("name")] + name, f"My {m.group('kin').lower()} {name} is {m.group('age')}"]


def _capital(who: str) -> str:
    """``who`` ("my mum", "our dad") as the subject of a plain statement ("My mum")."""
    return re.sub(r"^(?:my|our)\b", "My", who, flags=re.IGNORECASE)


def _as_stored(said: str, known: Sequence[str]) -> str:
    """``said`` ("My mum has dementia") with the one of the user's it names first in the word the stored facts
    call them by ("My mother has dementia" after "User's mother lives with the user."): one person, one name."""
    m = re.match(rf"^(?:my|our)\s+(?P<kin>{PERSON})\b", said, re.IGNORECASE)
    if m is None:
        return said
    whose = holder(said)  # the whole word: "my mother-in-law" is not "my mum"
    for text in reversed(known):
        stored = re.match(rf"^User's\s+(?P<kin>{PERSON})\b", text, re.IGNORECASE)
        if stored is not None and holder(text) == whose:
            return f"My {stored.group('kin')}{said[m.end():]}"
    return said


def _each_of_two(clause: str) -> list[str]:
    """``clause`` as one statement for each of two of the user's it tells of with a verb each ("Mum is 70 and Dad is
    72" -> ``["Mum is 70", "Dad is 72"]``); ``[clause]`` for any other clause ("Mum and Dad are 70": one verb)."""
    m = _TWO_OF_MINE.match(strip_lead(clause).rstrip(" .!"))
    if m is None or not (m.group("s") or is_verb_form(m.group("verb"))):
        return [clause]
    return [m.group("first"), m.group("second")]


def _plain(clause: str, before: str | None) -> list[str]:
    """One clause as the plain statements it means (the module docstring), or as it is when it tells of none of
    it; ``before``: the one of the user's the clause before named."""
    said = strip_lead(clause).rstrip(" .!")
    told = _uncontracted(_my_kin(said))
    care = _into_care(told)
    if care is not None:
        return [care]
    condition = _condition(told, before) or _aged(told)
    if condition is not None:
        return condition
    return [told] if told != said else [clause]


def _named_one(said: str) -> str | None:
    """The one of the user's ``said`` names, when it names one only ("my mum" in "I'm my mum's carer")."""
    found = {m.group("who").lower() for m in _MY_ONE_IN.finditer(said)}
    return found.pop() if len(found) == 1 else None


def as_family_said(clauses: Sequence[str], known: Sequence[str] = ()) -> list[str]:
    """The user's ``clauses`` (one message, split) with each that tells of their family the way people say it
    replaced by the plain statements it means (see the module docstring), someone of theirs named in the word the
    stored facts (``known``) call them by; any other clause as it is.

    >>> as_family_said(["Mum's settled into Oakwood care home", "I live in Leeds"])
    ['My mum moved into Oakwood care home', 'I live in Leeds']
    >>> as_family_said(["my mum's dementia is getting worse"], ["User's mother lives with the user."])
    ['My mother has dementia']
    """
    out: list[str] = []
    before: str | None = None
    for clause in (part for whole in clauses for part in _each_of_two(whole)):
        plain = _plain(clause, before)
        out += [_as_stored(said, known) if said is not clause else said for said in plain]
        before = _named_one(strip_lead(plain[-1]))
    return as_child_aged(as_children_counted(as_children_named(out, known), known))
