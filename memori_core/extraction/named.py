"""A clause told of someone or something the user's stored facts name, read as the user's own.

"Max passed away" after "User has a dog called Max." is "My dog Max passed away"; "Marco's birthday is April 19th"
after "User is seeing Marco." is the partner's; "he's coeliac" is the one partner stored; "the baby was born"
after "User is pregnant." is the user's own baby; "the mazda's totaled" the user's car. Pure: patterns, English
only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ..ranking.care import is_care_fact
from ..slots import PARTNERS, PERSON, holder
from .clauses import own_clauses
from .job_change import says_where_now
from .leads import carer_cut, clean, strip_lead
from .tails import without_empty_tail
from .genders import may_be
from .grammar import contracted_verb
from .patterns import rx
from .activities import PETS
from .births import birth_of_someone_named
from .children import CHILD_WORDS, child_called, lists_ages
from .cues import is_negated
from .diets import taken_back
from .endings import disposed_thing, ends_ownership, is_loss, named_change
from .health import health_news
from .named_news import listed_child, named_news
from .other_referents import names_someone_else
from .relationships import ENDED_STAGES, relationship_stage
from .slots import slots_of
from .subjects import named_subject, names_in
from .trips import trip_places
from .verdicts import KEPT_REWRITTEN, SentenceVerdict

__all__ = ["ENDED_STAGES", "OWN_PREGNANCY", "as_the_users", "named_someone", "partner_of", "resolve_same", "told_of",
           "who_plans_name"]

# The user (or their partner) is expecting: "User is pregnant.", "User's wife is expecting twins.", "User's wife
# Anita is pregnant with their first child.", "User is 7 months pregnant with their first."
OWN_PREGNANCY = rx(
    r"^user(?:'s\s+(?:wife|partner|girlfriend|fianc\w*)(?:\s+(?-i:[A-Z])[\w'-]+)?)?(?:\s+and\s+\w+)?\s+(?:is|are)\s+"
    r"(?:\w+\s+){0,3}?"
    r"(?:pregnant|expecting)\b"
)
# "the baby was born last week", "Sofia was born on Tuesday", "the baby arrived": a birth told without whose it
# is, the user's own when a stored fact says the user is expecting.
_BORN_UNSAID = rx(
    r"^(?:the\s+baby|baby|(?-i:[A-Z])[a-z\u00e0-\u00ff]+)\s+(?:(?:was|is|got)\s+born|arrived|came)\b"
)
# The roles a stored fact gives a named someone of the user's: "User has a dog called Max.", "User's sister Ana".
_ROLE = rf"{PERSON}|{PETS}"


# "I'm seeing someone! Her name is Chloé": the name of the someone just told of.
_THEIR_NAME = rx(
    r"^(?:and\s+)?(?:his|her|their)\s+name(?:'s|\s+is)\s+(?P<name>[A-Z][a-z\u00e0-\u00ff]+)\b[.!]*$"
)
_SOMEONE = re.compile(r"\b(?:someone|somebody)(?:\s+new)?\b")


def named_someone(verdicts: list[SentenceVerdict]) -> list[SentenceVerdict]:
    """``verdicts`` with "someone" in a fact replaced by the name a later clause gives them ("User is seeing
    someone." and "Her name is Chloé" -> "User is seeing Chloé.")."""
    out = list(verdicts)
    for i, verdict in enumerate(out):
        m = _THEIR_NAME.match(strip_lead(verdict.sentence).strip())
        if m is None:
            continue
        for j in range(i - 1, -1, -1):
            fact = out[j].fact
            if fact is not None and _SOMEONE.search(fact):
                out[j] = replace(out[j], fact=_SOMEONE.sub(m.group("name"), fact, count=1))
                break
    return out


# "User is going to Rome with their sister Eva in May 2027.", "User's son Leo has a match on ...": who
# someone the user names is, by their role.
_ROLE_AND_NAME = re.compile(
    rf"(?:^User's|\btheir)\s+(?P<role>(?:older\s+|younger\s+|little\s+|big\s+|best\s+)?(?-i:{PERSON}))"
    r"\s+(?P<name>[A-Z][a-z\u00e0-\u00ff]+)\b"
)


def who_plans_name(verdicts: list[SentenceVerdict]) -> list[SentenceVerdict]:
    """``verdicts`` with, after each plan kept until it is over ("User is planning a trip to Lisbon in November
    2026 with their sister Eva."), what it tells for good of who someone it names is ("User's sister is Eva."),
    as if said on its own ("My sister is Eva"): that outlives the plan. Not of a partner (where a relationship
    stands changes in ways a plan does not tell: the plan fact names them while it holds) nor of an ex; a fact
    kept for good already says who."""
    out: list[SentenceVerdict] = []
    for verdict in verdicts:
        out.append(verdict)
        fact = verdict.fact
        if fact is None or verdict.expires_in is None or not fact.startswith("User"):
            continue
        for m in _ROLE_AND_NAME.finditer(fact):
            role = " ".join(m.group("role").split())
            if role.casefold() not in PARTNERS:  # a partner, an ex: a plan does not tell them for good
                said = f"My {role} is {m.group('name')}"
                out.append(SentenceVerdict(said, f"User's {role} is {m.group('name')}.", KEPT_REWRITTEN))
    return out


def _named_care(clause: str) -> tuple[str, str] | None:
    """``(name, the rest)`` when ``clause`` tells a care fact of someone it names first ("Margaret is coeliac"):
    an allergy, a diet, a medication of the user's partner or child is worth keeping, and core."""
    said = named_subject(clause)
    if said is None or not _CARE_VERB.match(said[1]) or not is_care_fact(clause):
        return None
    return said


def _named_health(clause: str) -> tuple[str, str] | None:
    """``(name, the rest)`` when ``clause`` tells news of the health of someone or something it names first ("Luna
    has kidney failure", "Luna is much better", "Mia was diagnosed with asthma"): of a pet or a person of the
    user's, worth keeping until a later state of theirs replaces it."""
    # "the vet says Luna has kidney failure, poor thing": who said it is no part of it; "Luna's been really sick",
    # "Luna's got worms": the name's "'s" is "has"
    told = strip_lead(without_empty_tail(clean(clause)))
    said = named_subject(re.sub(r"^(\W*(?-i:[A-Z])[a-z\u00e0-\u00ff]+)'s\s+(?=(?:been|got)\b)", r"\1 has ",
                                told, flags=re.IGNORECASE))
    if said is None or not health_news(said[1]):
        return None
    return said


# One of the user's people named among several ("User has two kids, Sofia and Leo."): the word for one of them.
_ONE_OF_MANY = {"kids": "child", "children": "child", "girls": "daughter", "daughters": "daughter", "boys": "son",
                "sons": "son", "twins": "child", "grandkids": "grandchild", "grandchildren": "grandchild"}
# What a care fact of a named someone says of them: "is coeliac", "takes warfarin", "can't eat nuts".
_CARE_VERB = re.compile(r"(?:is|has|takes|can't|cannot|doesn't|eats|follows|keeps|avoids|was\s+diagnosed)\b")


# "Marco's birthday is April 19th", "Luis's mom Carmen has celiac": said of someone named, by their name's possessive.
_NAMED_POSSESSIVE = rx(r"^(?P<name>(?-i:[A-Z])[a-z\u00e0-\u00ff]+)'s\s+(?P<rest>(?-i:[a-z]).*)$")
# What is worth keeping of someone named, besides a change or a care fact: their birthday.
_BIRTHDAY = rx(r"\b(?:birthday|born\s+on)\b")
# "Marco moved in with me": the user lives with them now.
_MOVED_IN = rx(r"^(?:just\s+|finally\s+|officially\s+)?moved\s+in\s+(?:with\s+(?:me|us)|here)\b")
# "Luis's mom Carmen": a spouse's parent or sibling is the user's in-law.
_KIN_OF = rx(r"^'s\s+(?P<kin>mom|mum|mother|dad|father|sister|brother)\b\s*(?P<tail>.*)$")
_IN_LAW = {"mom": "mother", "mum": "mother"}
_SPOUSE = rx(r"\b(?:husband|wife|spouse|married)\b")


def _named_about(clause: str) -> tuple[str, str] | None:
    """``(name, the rest)`` when ``clause`` tells, of someone it names first, what is kept of the user's partner
    or child: their job, home or age (a slot), their birthday, that they moved in ("Luis is a high school
    chemistry teacher", "Marco's birthday is April 19th": the rest is "'s birthday is ..."); ``None`` otherwise
    ("Luis is the best" says nothing memory keeps)."""
    said = named_subject(clause)
    if said is None:
        m = _NAMED_POSSESSIVE.match(strip_lead(clause).strip())
        said = (m.group("name"), "'s " + m.group("rest")) if m is not None else None
    if said is None:
        return None
    rest = said[1]
    if slots_of(rest) - {"relationship"} or _BIRTHDAY.search(rest) or _MOVED_IN.match(rest) or is_care_fact(clause):
        return said
    return None


def _told_of_named(clause: str) -> tuple[str, str] | None:
    """``(name, the rest)`` when ``clause`` tells of someone it names first what the user's own facts keep of them
    (a change, a care fact, their job, home, age or birthday, news of their health), with who told the user cut
    first ("Daycare says Eli has a mild egg allergy"); ``None`` otherwise."""
    told = carer_cut(clause)
    return named_change(told) or _named_care(told) or _named_about(told) or _named_health(told) or named_news(told)


# "User and Idris have been together 4 years.": Idris is the partner.
_TOGETHER = re.compile(r"^User\s+and\s+(?P<name>(?-i:[A-Z])[a-z\u00e0-\u00ff]+)\s+(?:have|'ve)\s+been\s+together\b")


def partner_of(known: Sequence[str], pronoun: str) -> str | None:
    """The name of the user's one partner a stored fact names ("User is seeing Leo.", "User's husband is Luis."),
    who ``pronoun`` ("he", "she") may be; ``None`` when there is none, or more than one."""
    names = set()
    for text in known:
        stage = relationship_stage(text)
        if holder(text, "relationship") != "user" or is_negated(text) or stage is None or stage in ENDED_STAGES:
            continue
        m = re.search(r"\b(?:(?P<role>wife|husband|partner|girlfriend|boyfriend|fianc\w*)(?:\s+is)?|married\s+to|"
                      r"engaged\s+to|dating|seeing|together\s+with)\s+(?P<name>(?-i:[A-Z])[a-z\u00e0-\u00ff]+)\b",
                      text, re.IGNORECASE) or _TOGETHER.match(text)
        if m is None:
            continue
        role = m.groupdict().get("role") or ""
        if pronoun and not may_be(pronoun, role, ungendered=True):
            continue  # "he" is no wife, no fiancée
        names.add(m.group("name"))
    return names.pop() if len(names) == 1 else None


_FIRST_WORD = re.compile(r"^(?P<word>[a-z][a-z'-]+)(?P<rest>\s.*)$")


def _as_named(clause: str, known: Sequence[str]) -> str:
    """``clause`` with a name the stored facts give, typed in lower case first, as they write it ("leos bday is
    april 20th" after "User started seeing Leo." -> "Leo's bday is april 20th"); else ``clause``."""
    said = strip_lead(clause)
    m = _FIRST_WORD.match(said)
    if m is None:
        return clause
    word = m.group("word")
    for name in {n for text in known for n in names_in(text)}:
        if word == name.lower():
            return name + m.group("rest")
        if word in (name.lower() + "s", name.lower() + "'s"):
            return f"{name}'s{m.group('rest')}"
    return clause


def _named(clause: str, known: Sequence[str], before: Sequence[str] = ()) -> str | None:
    """``clause`` ("Max passed away last week.") told of someone a stored fact names as the user's ("User has a
    dog called Max.") as the user's own statement ("My dog Max passed away last week."), when it tells a change
    or an ending, a care fact, or of a person their job, home, age or birthday ("Marco's birthday is April 19th"
    after "User is seeing Marco." -> "My partner Marco's birthday is April 19th"; "Luis's mom Carmen has celiac"
    after "User is married to Luis." -> "My mother-in-law Carmen has celiac"); ``None`` otherwise. "he" / "she"
    first is the user's one partner the stored facts name ("hes coeliac" after "User is seeing Leo."), unless a
    clause ``before`` it in the message told of someone else ("my son is 5. he's in reception")."""
    clause = _as_named(clause, known)
    pronoun = re.match(r"^(?P<p>he|she)(?P<be>'s|\s+is)?\s+(?P<rest>\S.*)$", strip_lead(clause), re.IGNORECASE)
    if pronoun is not None:
        if any(names_someone_else(said) for said in before):
            return None
        partner = partner_of(known, pronoun.group("p").lower())
        if partner is None:
            return None
        be = "" if not pronoun.group("be") else " is" if pronoun.group("be").strip() == "is" else \
            " " + contracted_verb(pronoun.group("rest"))
        clause = f"{partner}{be} {pronoun.group('rest')}"
    said = _told_of_named(strip_lead(clause).strip())  # "good news - Glenys has moved to Mumbles!": the news
    if said is None:
        return None
    name, rest = said
    gap = "" if rest.startswith("'s ") else " "
    # "Meera ..." after "User has two grandchildren, Arjun (8) and Meera (5).", "Brooke ..." after "User's two girls
    # Kayla and Brooke are 16 and 14."
    listed = child_called(name, known) or listed_child(name, known)
    if listed is not None:
        return f"My {listed} {name}{gap}{_died(rest)}"
    for text in known:
        role = re.search(rf"\b(?P<role>{_ROLE})(?:\s+(?:is\s+|'s\s+)?(?:called|named)|,|'s\s+name\s+is|\s+is)?\s+"
                         rf"{re.escape(name)}\b", text, re.IGNORECASE)
        # "User is married to Tom.", "User is seeing Jonas.": Tom is the user's partner
        partner = rf"\b(?:married|engaged|dating|seeing|together)\s+(?:to\s+|with\s+)?{re.escape(name)}\b"
        whose = None
        # the user's own (a dog of the user's, their girlfriend Ana), not a sister's dog called Max
        if role is not None and holder(text) in ("user", holder(f"User's {role.group('role')}")):
            whose = role.group("role").lower()
            # "User has two kids, Sofia and Leo.": Sofia is one of them, the user's child
            whose = _ONE_OF_MANY.get(whose, whose)
        elif holder(text) == "user" and re.search(partner, text, re.IGNORECASE):
            whose = "partner"
        if whose is not None:
            kin = _KIN_OF.match(rest)
            if kin is not None and (_SPOUSE.search(text) or whose in ("husband", "wife", "spouse")):
                return f"My {_IN_LAW.get(kin.group('kin').lower(), kin.group('kin').lower())}-in-law {kin.group('tail')}"
            if _MOVED_IN.match(rest):
                return f"I live with my {whose} {name}"
            return f"My {whose} {name}{gap}{_died(rest)}"
        # "User has a 14 year old beagle named Pretzel.", "User's old tabby Biscuit is 17.": the word before the name
        # says what Pretzel is
        kind = re.search(rf"^User\s+(?:has|owns|adopted|got)\b.*?\b(?P<kind>[a-z]+)\s+(?:called|named)\s+"
                         rf"{re.escape(name)}\b|^User's\s+(?:(?:old|little|beloved|sweet|lovely)\s+)*"
                         rf"(?P<kind2>[a-z]+)\s+{re.escape(name)}\b", text)
        if kind is not None and is_loss(clause):
            return f"My {kind.group('kind') or kind.group('kind2')} {name} {_died(rest)}"
    return None


# A death told in other words: "crossed the rainbow bridge last night", "was put to sleep", "had to be put down".
_DIED_IN_OTHER_WORDS = rx(
    r"^(?:(?:finally|peacefully|sadly)\s+)?(?:crossed\s+(?:over\s+)?the\s+rainbow\s+bridge|(?:was|got|had\s+to\s+be)\s+"
    r"put\s+(?:to\s+sleep|down))\b"
)


def _died(rest: str) -> str:
    """What is told of someone named (``rest``), a death told in other words said plainly ("crossed the rainbow
    bridge last night" -> "died": when is the fact's ``created_at``); any other ``rest`` as it is."""
    return "died" if _DIED_IN_OTHER_WORDS.match(rest) else rest


def as_the_users(clause: str, *, told: Sequence[str], known: Sequence[str], before: Sequence[str]) -> str | None:
    """``clause``, told of no one the rules know as the user, as the user's own statement when it tells of someone
    the stored facts or those of the message so far (``told``) name (:func:`_named`), of a thing a stored fact
    (``known``) says the user has, or of a birth while a stored fact says the user is expecting; ``None``
    otherwise. ``before``: the message's clauses before it."""
    return _named(clause, told, before) or _disposed_own(clause, known) or _born_own(clause, known) \
        or birth_of_someone_named(clause, known)  # "Claire's baby arrived" of a stored "... Claire is expecting"


def _born_own(clause: str, known: Sequence[str]) -> str | None:
    """``clause`` ("the baby was born last week", "Sofia was born on Tuesday") told while a stored fact says the
    user is expecting ("User is pregnant.") as the user's own ("Our baby Sofia was born on Tuesday"); ``None``
    otherwise."""
    said = strip_lead(clause)
    if not _BORN_UNSAID.match(said) or not any(OWN_PREGNANCY.match(text) for text in known):
        return None
    rest = re.sub(r"^(?:the\s+)?baby\s+", "", said, flags=re.IGNORECASE)
    return f"Our baby {rest}"


def _disposed_own(clause: str, known: Sequence[str]) -> str | None:
    """``clause`` ("the mazda's totaled", "bike got stolen") told of a thing a stored fact says the user has
    ("User drives a 2012 Mazda 3.") as the user's own statement ("My mazda got totaled"); ``None`` otherwise."""
    said = disposed_thing(clause)
    if said is None:
        return None
    mine = f"My {said[0]} got {said[1]}"
    return mine if any(ends_ownership(mine, text) for text in known) else None


# "at the same firm", "the same hospital": a thing a stored fact names (not "the same way", "the same time").
_NOT_A_THING = r"(?:now|too|again|as|and|but|though|anyway|still|here|there|one|thing|way|time|day|old|age)\b"
_THE_SAME = rx(rf"\bthe\s+same\s+(?:(?!{_NOT_A_THING})[\w-]+\s+)?(?P<head>(?!{_NOT_A_THING})[\w-]+)\b")
# A workplace the stored job names by its name ("User works at Google." for "the same company").
_WORKPLACE = frozenset("company firm employer place office job hospital school practice agency bank store shop".split())
_AT_NAMED = re.compile(r"\b(?:at|for)\s+(?P<org>(?-i:[A-Z])[\w&'.-]*(?:\s+(?-i:[A-Z])[\w&'.-]*)*)")


def resolve_same(fact: str, known: Sequence[str]) -> str:
    """``fact`` with "the same <thing>" said as the user's latest stored fact names it ("User is a solicitor at the
    same firm." after "User works as a paralegal at a law firm in Leeds." -> "User is a solicitor at a law firm in
    Leeds."; "the same company" after "User works at Google." -> "Google"), or as it is when none names one."""
    m = _THE_SAME.search(fact)
    if m is None:
        return fact
    head = m.group("head")
    thing = rx(rf"\b(?:a|an)\s+(?:[\w&'-]+\s+){{0,3}}?{re.escape(head)}\b(?:\s+in\s+(?-i:[A-Z])[\w\u00c0-\u017f-]+)?")
    for text in reversed(known):
        if holder(text) != "user" or is_negated(text):
            continue
        named = thing.search(text)
        if named is None and head.lower() in _WORKPLACE and "job" in slots_of(text):
            named = _AT_NAMED.search(text)
            if named is not None:
                return fact[: m.start()] + named.group("org") + fact[m.end():]
        if named is not None:
            return fact[: m.start()] + named.group(0) + fact[m.end():]
    return fact


_HE_SHE = rx(r"^(?:he|she)(?:'s|\s)")


def told_of(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The slots and names a user message speaks of that its words alone do not show: someone named first, of whom
    it tells what the extractor keeps of the user's people ("Marco is lactose intolerant", "Marco's birthday is
    ...": ``"Marco"``; not "Nibbles is so cute"; a first word typed in lower case, "leos bday is ...", may be a
    name too: ``"Leos"``, ``"Leo"``, which capture looks for with its capital), the user's children when it names
    people with their ages ("Josh is 14 and Ellie is 12": ``"kids"``, ``"children"``...), the partner a "he" / "she"
    first may be (the ``"relationship"`` slot), where the user is now ("im in exeter now": ``"residence"``), the diet a
    food taken back may end ("I'm back on carbs": ``"diet"``). Capture shows the stored facts of these, which the
    rules read the message with."""
    slots: set[str] = set()
    names: set[str] = set()
    for clause in own_clauses(text):
        said = strip_lead(clause)
        subject = _told_of_named(said)
        if subject is not None:  # what the extractor reads with the stored facts naming them
            names.add(subject[0])
        first = _FIRST_WORD.match(said)
        if first is not None and len(first.group("word")) > 2:  # "leos bday is ...": a name typed in lower case
            word = first.group("word").removesuffix("'s")
            names |= {word.capitalize(), word.removesuffix("s").capitalize()}
        if _HE_SHE.match(said):
            slots.add("relationship")
        if says_where_now(clause):
            slots.add("residence")
        if taken_back(said):  # "I'm back on carbs": the stored diet that left them out
            slots.add("diet")
        names |= trip_places(said)  # "Lisbon was amazing!!": the stored plan of a trip there
        if lists_ages(said):  # "Josh is 14 and Ellie is 12": the stored "User has two kids."
            names |= CHILD_WORDS
    return frozenset(slots), frozenset(names)
