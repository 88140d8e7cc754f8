"""The default extractor: the user's first-person statements as "User ..." facts, by the English rules."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timezone, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..text import normalize_fact_text
from ..ranking.care import is_care_fact
from .core_facts import CoreRule, check_core_rule, is_core_fact
from ..slots import PERSON
from .grammar import is_bare_present, is_past, is_past_statement, is_subjectless_change, is_verb_form
from .leads import strip_lead
from .patterns import rx
from .rules import judge_sentence
from .speech_acts import CONDITIONAL, own_part
from .verdicts import DROP_NOT_FIRST_PERSON, DROP_QUOTED, KEPT_AS_SAID, KEPT_REWRITTEN, SentenceVerdict
from .job_change import as_job_changes, says_where_now
from .retold import as_plain_statements
from .sentences import split_sentences
from .typos import read_as_meant
from .slots import (
    ACTIVITY_SLOTS,
    CONSUMPTION_SLOTS,
    PETS,
    acquired_slots,
    content_words,
    corrected_words,
    denies,
    disposed_thing,
    ends_habit,
    ends_ownership,
    holder,
    is_change,
    is_ended,
    is_exclusive,
    is_loss,
    is_negated,
    is_relationship_status,
    named_change,
    named_subject,
    names_in,
    relationship_stage,
    same_activity,
    slots_of,
)
from .types import DEFAULT_MAX_FACT_CHARS, ExtractedFact, KnownFact, MessageLike, as_messages

__all__ = ["RuleBasedFactExtractor", "split_clauses", "split_pasted"]

# A medical condition is no habit: a habit stated with "only" does not replace it.
_CONDITION = re.compile(r"\b(?:allerg\w*|intoleran\w*|coeliac|celiac|diabet\w*|anaphyla\w*)", re.IGNORECASE)
# A goal or plan is no statement of how things are: a change of its slot ends it only when it names what the goal
# was about ("We moved to Bath" ends "User is planning to move to Bath.", not "User is saving for a house.").
_GOAL = re.compile(
    r"\b(?:saving(?:\s+up)?\s+for|hoping\s+to|hopes\s+to|planning\s+to|plans\s+to|wants?\s+to|would\s+like\s+to|"
    r"dreams?\s+of|looking\s+to|thinking\s+(?:of|about))\b",
    re.IGNORECASE,
)
_OWN_PREGNANCY = re.compile(
    r"^user(?:'s\s+(?:wife|partner|girlfriend|fianc\w*))?(?:\s+and\s+\w+)?\s+(?:is|are)\s+(?:\w+\s+)?"
    r"(?:pregnant|expecting)\b",
    re.IGNORECASE,
)
# Whose the birth is: the user's own child ("User's baby girl Maya was born", "User and Sam had the baby"), not a
# sister's ("User's sister's baby was born").
_OWN_CHILD = re.compile(
    r"^user(?:'s\s+(?:new\s+|first\s+|second\s+|third\s+|little\s+)?(?:baby|son|daughter|twins|child|boy|girl)\b"
    r"|(?:\s+and\s+\w+)?\s+(?:gave|had|welcomed|miscarried|lost)\b)",
    re.IGNORECASE,
)
# What ends a pregnancy: a birth, or a loss ("User had a miscarriage.", "User lost the baby.").
_BIRTH = re.compile(
    r"\b(?:was\s+born|were\s+born|gave\s+birth|had\s+(?:the|our|their|a)\s+baby|baby\s+(?:arrived|came)|"
    r"welcomed\s+(?:a|our|their|baby)|miscarriage|miscarried|stillbirth|stillborn|"
    r"lost\s+(?:the|our|their|a)\s+(?:baby|pregnancy))\b",
    re.IGNORECASE,
)
# "the baby was born last week", "Sofia was born on Tuesday", "the baby arrived": a birth told without whose it
# is, the user's own when a stored fact says the user is expecting.
_BORN_UNSAID = re.compile(
    r"^(?:the\s+baby|baby|(?-i:[A-Z])[a-z\u00e0-\u00ff]+)\s+(?:(?:was|is|got)\s+born|arrived|came)\b",
    re.IGNORECASE,
)
# The partner the user lives with, and not where: "User lives with their husband Rui." (a move takes the partner
# along; roommates or parents it leaves behind).
_LIVES_WITH = re.compile(
    r"^user\s+(?:\w+\s+)?(?:lives|has\s+lived|is\s+living)\s+with\s+(?:their\s+)?(?:wife|husband|partner|spouse|"
    r"fianc[ée]e?)\b(?!.*\b(?:in|at|near)\s)",
    re.IGNORECASE,
)
# "I got promoted", "I got a promotion": a change within the job ("User works at Google." still holds), unless it
# names the new role ("promoted to senior engineer": the stored role no longer holds).
_PROMOTED = re.compile(r"\b(?:promoted|promotion)\b", re.IGNORECASE)
# "User moved from London.": a move told by where from only (no "to"): it ends the home it names.
_MOVED_FROM = re.compile(r"\b(?:moved|relocated)\s+(?:\w+\s+)?from\s+(?P<place>[\w'-]+)(?!.*\b(?:to|into)\b)",
                         re.IGNORECASE)
# Where a relationship ends: every fact told of it ends with it.
_ENDED_STAGES = frozenset({"single", "divorced", "widowed"})
_PROMOTED_TO = re.compile(r"\b(?:promoted|promotion)\s+to\s+\w", re.IGNORECASE)
# "User got promoted to senior engineer." and the employer of the stored job it ends ("User works at Google as an
# engineer."): what the user's job is now.
_PROMOTED_AS = re.compile(
    r"^User\s+(?:just\s+|finally\s+|recently\s+)?(?:got|was|has\s+been)\s+promoted\s+to\s+(?:(?:a|an)\s+)?"
    r"(?P<role>[\w-]+(?:\s+[\w-]+){0,3}?)(?:\s+(?:at|for|with)\s+[^.]+?)?"
    r"(?:\s+(?:today|yesterday|recently|last\s+\w+|this\s+\w+))?\.$"
)
_EMPLOYER = re.compile(r"\b(?P<at>at|for)\s+(?P<employer>(?-i:[A-Z])[\w&'.-]*(?:\s+(?-i:[A-Z])[\w&'.-]*)*)")


def _check_time_zone(value: Any) -> tzinfo | None:
    """``time_zone`` of :class:`RuleBasedFactExtractor`: ``None``, a ``tzinfo``, or an IANA zone name."""
    if value is None or isinstance(value, tzinfo):
        return value
    if isinstance(value, str) and value.strip():
        try:
            return ZoneInfo(value.strip())
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"time_zone {value!r} is not a known IANA time zone (e.g. 'Europe/Lisbon')") from None
    raise TypeError(f"time_zone must be a tzinfo, an IANA zone name or None, got {type(value).__name__}")


def _with_employer(fact: str, ended: Sequence[str]) -> str:
    """``fact`` ("User got promoted to senior engineer.") as the job it gives at the employer the job fact it
    ends names ("User works at Google as a senior engineer."): a promotion keeps the employer. Any other fact,
    or one ending no fact that names an employer, as it is."""
    m = _PROMOTED_AS.match(fact)
    employers = {e.group(0).rstrip(".") for text in ended for e in [_EMPLOYER.search(text)] if e is not None}
    if m is None or len(employers) != 1:
        return fact
    role = m.group("role")
    return f"User works {employers.pop()} as {'an' if role[0].lower() in 'aeiou' else 'a'} {role}."


# "User is engaged.", "User got married.": a new stage, told without whom.
_STAGE_UNNAMED = re.compile(r"^User\s+(?:is|got|just\s+got|has\s+got)\s+(?:now\s+|officially\s+|finally\s+)?"
                            r"(?P<stage>engaged|married)\s*[.!]*$")


def _with_partner(fact: str, ended: Sequence[str]) -> str:
    """``fact`` ("User is engaged.") with the partner the relationship fact it ends names ("User is seeing Leo." ->
    "User is engaged to Leo."): the stage changes, the partner stays. Any other fact as it is."""
    m = _STAGE_UNNAMED.match(fact)
    partner = _partner_of(ended, "") if m is not None else None
    return f"User is {m.group('stage')} to {partner}." if m is not None and partner is not None else fact


_SUBJECT = r"(?:i|i'm|i've|i'll|i'd|my|we|we're|we've|our)\b"
# "I'm vegetarian and my daughter Mia is 7", "I sold my car, I don't drive anymore", "vegetarian — I eat fish",
# "I graduated and now I'm a nurse", "I'm vegan, so no dairy", "I'm an accountant, numbers are my thing",
# "My name's Rebecca, but everyone calls me Becky": a new clause starts a new fact.
_CLAUSE_BREAK = re.compile(
    rf"\s*,?\s+(?:and|but|so)\s+(?=(?:now\s+|then\s+|also\s+)?{_SUBJECT})|\s*,\s+(?={_SUBJECT})"
    rf"|\s*,\s+(?=(?:no\s+more|so)\b)|\s*[\u2014\u2013]\s*|\s+-\s+(?={_SUBJECT})"
    r"|\s*,?\s+(?:but|and)\s+(?=(?:everyone|everybody|people|most\s+people|my\s+friends|friends|they)\s+"
    r"(?:just\s+|all\s+)?call)"
    r"|\s*,\s+(?=(?!(?:i|we|my|our|short|from)\b)[a-z]+(?:\s+[a-z]+)?\s+(?:is|are|was|were|'s|'re)\b)"
    # "my friend Hannah is coming on saturday, she's allergic to shellfish": "she's" starts a clause too
    r"|\s*,\s+(?=(?:he|she|they)(?:'s|'re)\s)"
    # "we did it - Rahul and I got married": a dash before the user and someone else as subject
    r"|\s+-\s+(?=(?:(?:my|our)\s+\w+(?:\s+(?-i:[A-Z])[\w-]+)?|(?-i:[A-Z])[\w-]+)\s+and\s+(?:i|me)\b)"
    # "I left the lab - started a PhD", "I sold the car, got a bike": a change told without its "I"
    r"|(?:\s+-\s+|\s*,\s+)(?=(?:just\s+|finally\s+|recently\s+)?(?:moved|relocated|switched|started|joined|quit|"
    r"retired|graduated|became|sold|bought|got|adopted|left)\b)",
    re.IGNORECASE,
)
# What starts the clause after a break: the user ("I ...", "now I ...", "my ...", "Sam and I ...").
_RIGHT_SUBJECT = re.compile(
    rf"^(?:(?:now|then|also)\s+)?(?:{_SUBJECT}|(?:(?:my|our)\s+\w+(?:\s+(?-i:[A-Z])[\w-]+)?|(?-i:[A-Z])[\w-]+)"
    r"\s+and\s+(?:i|me)\b)",
    re.IGNORECASE,
)
_STARTS_FIRST_PERSON = re.compile(
    rf"^(?:[^,]{{0,20}},\s*)?(?:(?:ugh|oh|so|well|hey|hi|ok|okay|yeah|lol|omg|wow|and|now|then|also)\s+)?"
    rf"(?:{_SUBJECT}|(?:the\s+)?name's\b|(?:the\s+)?name\s+is\b|(?:(?:my|our)\s+)?\w+(?:\s+\w+)?\s+and\s+(?:i|me)\b"
    r"|(?-i:[A-Z])\w+\s+here(?:\s+again)?\s*$|(?:it's|this\s+is)\s+(?-i:[A-Z])\w+\s+again\s*$)",
    re.IGNORECASE,
)
# "My wife and I moved", "My girlfriend Jess and I live together": one subject.
_BARE_POSSESSIVE = re.compile(r"^(?:my|our)\s+[^\s']+(?:\s+(?-i:[A-Z])[\w-]+)?$", re.IGNORECASE)
_BARE_PRONOUN = re.compile(r"^(?:i|me|we)$", re.IGNORECASE)  # "I and my brother run a bakery": one subject
# "I live with my husband and our two dogs": "our two dogs" ends the sentence without a verb, no new clause.
_POSSESSIVE_PHRASE = re.compile(r"^(?:my|our)\s+(?P<words>(?:[\w'-]+\s+){0,2}[\w'-]+)\s*[.!]*$", re.IGNORECASE)


def _bare_object(text: str) -> bool:
    """Whether ``text`` ("our two dogs.") is a possessive phrase of at most three words and no verb."""
    m = _POSSESSIVE_PHRASE.match(text.strip())
    return m is not None and not any(is_verb_form(w) for w in m.group("words").split())
_NAME_THEN_FROM = re.compile(r"^(?P<intro>(?:i'm|i am)\s+[A-Z]\w+),\s+(?P<rest>from\s+.+)$", re.IGNORECASE)
# The roles a stored fact gives a named someone of the user's: "User has a dog called Max.", "User's sister Ana".
_ROLE = rf"{PERSON}|{PETS}"
# "I'm 34, married, a nurse": a list of what the user is, each item a fact of its own.
_PROFILE = re.compile(r"^(?P<subject>i'm|i\s+am)\s+(?P<items>[^,]+(?:(?:\s*,\s*|\s+and\s+)[^,]+)+)$", re.IGNORECASE)
_PROFILE_ITEM = re.compile(
    r"^(?:\d{1,3}(?:\s+years\s+old)?|(?:a|an)\s+[\w-]+(?:\s+[\w-]+){0,3}|married|single|divorced|engaged|widowed|"
    r"separated|retired|unemployed|pregnant|vegan|vegetarian|pescatarian|gluten-free|diabetic|coeliac|celiac|"
    r"left-handed|self-employed|bilingual|(?:from|based\s+in)\s+[A-Z][\w-]+(?:\s+[A-Z][\w-]+)?)$",
    re.IGNORECASE,
)
# "I'm Greta, 29", "Jonas, 41, dad of three, based in Aarhus": a name first, then what the user is.
_NAME_ITEM = re.compile(r"^[A-Z][a-z\u00e0-\u00ff]+$")
_BARE_PROFILE = re.compile(r"^(?P<name>[A-Z][a-z\u00e0-\u00ff]+)\s*,\s*(?P<items>.+)$")
_AGE_ITEM = re.compile(r"^\d{1,3}(?:\s+years\s+old)?$")
# "dad of three", "a mum of two": the user's children.
_PARENT_OF = re.compile(
    r"^(?:a\s+)?(?:proud\s+)?(?:mum|mom|mother|dad|father|parent)\s+of\s+(?P<n>two|three|four|five|six|\d)$",
    re.IGNORECASE,
)
# "Ravi again, the guy with the allotment": a returning user's name, then who they are.
_NAME_THEN_THE_ONE = re.compile(
    r"^(?P<intro>(?:(?:hi|hello|hey)\s*,?\s+)?(?-i:[A-Z])\w+\s+(?:here\s+)?again)\s*[,\u2014\u2013-]\s*"
    r"(?:i'm\s+|i\s+am\s+)?(?P<rest>the\s+(?:one|guy|girl|woman|man|lady|person|mum|mom|dad)\s+.+)$",
    re.IGNORECASE,
)
# "I go by Alex, short for Alexandra": the name used, and the full name.
_NAME_SHORT_FOR = re.compile(
    r"^(?P<intro>.*\b(?:go\s+by|call\s+me|calls\s+me|name\s+is|name's|i'm|i\s+am)\s+(?-i:[A-Z])\w+)"
    r"\s*,?\s+short\s+for\s+(?P<full>(?-i:[A-Z])\w+)[.!]*$",
    re.IGNORECASE,
)


_MY_PERSON = rf"(?:my|our)\s+(?:[\w-]+\s+)?(?:{PERSON})"
"""Someone of the user's, as a sentence names them: "my husband", "our eldest daughter"."""
# "Tom, my husband, has type 1 diabetes": a name, then who the person is to the user, then what is said of them.
_NAME_THEN_ROLE = re.compile(
    rf"^(?P<name>(?-i:[A-Z])[a-z\u00e0-\u00ff]+),\s+(?P<role>{_MY_PERSON}),\s+"
    r"(?P<rest>(?-i:[a-z]).+)$",
    re.IGNORECASE,
)


def split_clauses(sentence: str) -> list[str]:
    """``sentence`` cut where a new first-person clause starts ("I live in Rome and I work as a chef" ->
    two clauses); "My wife and I moved to Berlin" stays whole (the left part is a subject, not a clause)."""
    m = _NAME_THEN_FROM.match(sentence.strip())
    if m is not None:  # "I'm Lars, from Oslo" -> "I'm Lars" and "I'm from Oslo"
        return [m.group("intro"), "I'm " + m.group("rest")]
    m = _NAME_THEN_THE_ONE.match(sentence.strip())
    if m is not None:  # "Ravi again, the guy with the allotment" -> "Ravi again" and "I'm the guy with ..."
        return [m.group("intro"), "I'm " + m.group("rest")]
    m = _NAME_THEN_ROLE.match(sentence.strip())
    if m is not None:  # "Tom, my husband, has type 1 diabetes" -> "My husband Tom has type 1 diabetes"
        return split_clauses(f"{m.group('role')} {m.group('name')} {m.group('rest')}")
    m = _NAME_SHORT_FOR.match(sentence.strip())
    if m is not None:  # "I go by Alex, short for Alexandra" -> "I go by Alex" and "My full name is Alexandra"
        return [*split_clauses(m.group("intro")), "My full name is " + m.group("full")]
    pieces: list[str] = []
    rest = sentence
    while True:
        m = next((b for b in _CLAUSE_BREAK.finditer(rest) if _can_split(rest[: b.start()], rest[b.end():])), None)
        if m is None:
            pieces.append(rest)
            return [c for p in pieces for s in _shared_subject(p.strip()) for o in _one_fact_each(s)
                    for c in _profile(o) if c]
        pieces.append(rest[: m.start()])
        rest = rest[m.end():]


# "I watched a documentary and went vegan", "my brother quit his job and now works as a carpenter", "I sold my Golf
# and bought a Tesla": a second verb of the same subject that tells a change is a clause of its own, with that
# subject.
_SHARED_SUBJECT = re.compile(
    rf"^(?P<subject>i|we|{_MY_PERSON})\s+(?P<first>.+?)"
    r"\s+and\s+(?P<second>(?:now|then)\s+(?!(?:i|we|my|our)\b)[a-z]+\b.*|(?:went|became|switched|moved|started|"
    r"quit|retired|joined|adopted|gave\s+up|took\s+up|stopped|bought|sold|leased|traded\s+in)\b.*)$",
    re.IGNORECASE,
)


# A thing bought or sold is a change of its own only when it is news of the user's life: a car, a phone, a home.
_DEAL = re.compile(r"(?:bought|sold|leased|traded\s+in)\b", re.IGNORECASE)


# "I live in Montreal and work as a nurse": two present verbs the rules know, each with its own words.
_TWO_PRESENTS = re.compile(
    r"^(?P<subject>i|we)\s+(?P<first>(?P<v1>[a-z]+)\s+\S.*?)\s+and\s+(?P<second>(?P<v2>[a-z]+)\s+\S.*)$", re.IGNORECASE
)


# "My daughter Chloe is 16 and she just went vegan": the second clause picks the subject up with "she" / "he".
_RESUMED_SUBJECT = re.compile(
    rf"^(?P<subject>{_MY_PERSON}(?:\s+(?-i:[A-Z])[\w-]+)?)\s+(?P<first>.+?)"
    r"(?:,?\s+(?:and|but)\s+|\s*;\s+)(?:she|he)(?P<be>'s|\s+is)?\s+(?P<second>\S.*)$",
    re.IGNORECASE,
)


# "I have a cat named Mochi and a dog named Rex": a list of animals, one fact each (one that dies ends its own).
_OWNS_LIST = re.compile(r"^(?P<head>.*?\b(?:have|has|got|own|owns|adopted)\s+)(?P<items>.+?)[.!]*$", re.IGNORECASE)
_ANIMAL = re.compile(rf"^(?:a|an|one|two|three|\d+)\s+(?:[\w-]+\s+)?(?:{PETS})\b", re.IGNORECASE)


def _one_fact_each(clause: str) -> list[str]:
    """ "I have a cat named Mochi and a dog named Rex" -> "I have a cat named Mochi", "I have a dog named Rex"; any
    other clause as it is. ("I live in Lisbon with my husband Rui" stays one fact: split into where and with whom,
    it left a held-out set's stale fact valid.)"""
    owns = _OWNS_LIST.match(clause)
    if owns is None:
        return [clause]
    items = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", owns.group("items"))
    if len(items) < 2 or not all(_ANIMAL.match(item) for item in items):
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
        be = " is" if resumed.group("be") else ""
        return [f"{resumed.group('subject')} {resumed.group('first')}",
                f"{resumed.group('subject')}{be} {resumed.group('second')}"]
    m = _SHARED_SUBJECT.match(stated)
    if m is not None and _DEAL.match(m.group("second")) and not (
            is_change("I " + m.group("second")) or acquired_slots("I " + m.group("second"))):
        return [clause]  # "I went to the shop and bought milk": no change, one fact as it was
    if m is None:
        m = _TWO_PRESENTS.match(stated)
        if m is None or not all(is_bare_present(v) or v.lower() == "have" for v in (m.group("v1"), m.group("v2"))):
            return [clause]
    return [f"{m.group('subject')} {m.group('first')}", f"{m.group('subject')} {m.group('second')}"]


def _profile(clause: str) -> list[str]:
    """ "I'm 34, married and a mother of two" -> "I'm 34", "I'm married", "I'm a mother of two"; "I'm Greta,
    29" and "Jonas, 41, dad of three, based in Aarhus" (with an age) give the name first; any other clause as
    it is."""
    m = _PROFILE.match(clause)
    bare = _BARE_PROFILE.match(clause.rstrip(" .!")) if m is None else None
    if m is None and bare is None:
        return [clause]
    subject = m.group("subject") if m is not None else "I'm"
    items = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", (m or bare).group("items").rstrip(" .!"))
    name = bare.group("name") if bare is not None else None
    if name is None and _NAME_ITEM.match(items[0]) and not _PROFILE_ITEM.match(items[0]):
        name, items = items[0], items[1:]
    is_item = lambda i: bool(_PROFILE_ITEM.match(i) or _PARENT_OF.match(i))  # noqa: E731
    if len(items) < (1 if name else 2) or not all(map(is_item, items)):
        return [clause]
    if bare is not None and (len(items) < 2 or not any(_AGE_ITEM.match(i) for i in items)):
        return [clause]  # "Paris, a great trip": a bare list says who the user is only with their age
    said = [f"My name is {name}"] if name else []
    for item in items:
        parent = _PARENT_OF.match(item) if bare is not None else None  # "dad of three", with no verb to keep
        said.append(f"I have {parent.group('n')} kids" if parent else f"{subject} {item}")
    return said


# "I'm seeing someone! Her name is Chloé": the name of the someone just told of.
_THEIR_NAME = re.compile(
    r"^(?:and\s+)?(?:his|her|their)\s+name(?:'s|\s+is)\s+(?P<name>[A-Z][a-z\u00e0-\u00ff]+)\b[.!]*$", re.IGNORECASE
)
_SOMEONE = re.compile(r"\b(?:someone|somebody)(?:\s+new)?\b")
# A clause that tells a thing was left or stopped: beside its replacement it adds nothing to memory. Not a
# state said to be over ("I'm no longer vegetarian"): that is what the user is now.
_LEFT = re.compile(
    r"\b(?:left|quit|resigned|handed\s+in|moved\s+out|sold|gave\s+up|given\s+up|stopped|dropped\s+out)\b",
    re.IGNORECASE,
)


def _named_someone(verdicts: list[SentenceVerdict]) -> list[SentenceVerdict]:
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


def _is_ending(verdict: SentenceVerdict) -> bool:
    """Whether ``verdict``'s sentence tells that a thing was left or stopped ("I quit Google", "I handed in my
    notice", "I left the lab")."""
    return bool(_LEFT.search(verdict.sentence))


def _told_with_what_holds_now(
    fact: ExtractedFact, verdict: SentenceVerdict, said: list[tuple[ExtractedFact, SentenceVerdict]]
) -> bool:
    """Whether ``fact`` only tells what was left or stopped, beside a clean fact of the same message that says
    what holds now in its place ("I quit Google and now I work at a startup": "User quit Google." beside "User
    works at a startup."): that one replaces every stored fact ``fact`` replaces, or is of the same slot of
    the same person. Memory keeps what holds now; the ending only marks the stored fact no longer valid."""
    if not _is_ending(verdict):
        return False
    slots = slots_of(fact.text)
    for other, how in said:
        if other is fact or how.reason != KEPT_REWRITTEN or _is_ending(how):
            continue
        if fact.supersedes and set(fact.supersedes) <= set(other.supersedes):
            return True
        if any(holder(fact.text, s) == holder(other.text, s) for s in slots & slots_of(other.text)):
            return True
    return False


def _same_person(new: str, old: str, old_words: frozenset[str]) -> bool:
    """Whether the fact ``new`` speaks of the person ``old`` does: the same holder, or one ``old`` names ("User's
    wife is called Ana." of "User has a wife.")."""
    who = holder(new)
    return who == holder(old) or bool(content_words(who) & old_words)


def _named_care(clause: str) -> tuple[str, str] | None:
    """``(name, the rest)`` when ``clause`` tells a care fact of someone it names first ("Margaret is coeliac"):
    an allergy, a diet, a medication of the user's partner or child is worth keeping, and core."""
    said = named_subject(clause)
    if said is None or not _CARE_VERB.match(said[1]) or not is_care_fact(clause):
        return None
    return said


# What a care fact of a named someone says of them: "is coeliac", "takes warfarin", "can't eat nuts".
_CARE_VERB = re.compile(r"(?:is|has|takes|can't|cannot|doesn't|eats|follows|keeps|avoids|was\s+diagnosed)\b")


# "Marco's birthday is April 19th", "Luis's mom Carmen has celiac": said of someone named, by their name's possessive.
_NAMED_POSSESSIVE = re.compile(r"^(?P<name>(?-i:[A-Z])[a-z\u00e0-\u00ff]+)'s\s+(?P<rest>(?-i:[a-z]).*)$", re.IGNORECASE)
# What is worth keeping of someone named, besides a change or a care fact: their birthday.
_BIRTHDAY = re.compile(r"\b(?:birthday|born\s+on)\b", re.IGNORECASE)
# "Marco moved in with me": the user lives with them now.
_MOVED_IN = re.compile(r"^(?:just\s+|finally\s+|officially\s+)?moved\s+in\s+(?:with\s+(?:me|us)|here)\b",
                       re.IGNORECASE)
# "Luis's mom Carmen": a spouse's parent or sibling is the user's in-law.
_KIN_OF = re.compile(r"^'s\s+(?P<kin>mom|mum|mother|dad|father|sister|brother)\b\s*(?P<tail>.*)$", re.IGNORECASE)
_IN_LAW = {"mom": "mother", "mum": "mother"}
_SPOUSE = re.compile(r"\b(?:husband|wife|spouse|married)\b", re.IGNORECASE)


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


def _partner_of(known: Sequence[str], pronoun: str) -> str | None:
    """The name of the user's one partner a stored fact names ("User is seeing Leo.", "User's husband is Luis."),
    who ``pronoun`` ("he", "she") may be; ``None`` when there is none, or more than one."""
    names = set()
    for text in known:
        if holder(text, "relationship") != "user" or is_negated(text) or relationship_stage(text) in (
                None, "single", "divorced", "widowed"):
            continue
        m = re.search(r"\b(?:(?P<role>wife|husband|partner|girlfriend|boyfriend|fianc\w*)(?:\s+is)?|married\s+to|"
                      r"engaged\s+to|dating|seeing|together\s+with)\s+(?P<name>(?-i:[A-Z])[a-z\u00e0-\u00ff]+)\b",
                      text, re.IGNORECASE)
        if m is None:
            continue
        role = (m.group("role") or "").lower()
        if (pronoun == "he" and role in ("wife", "girlfriend")) or (pronoun == "she" and role in ("husband",
                                                                                               "boyfriend")):
            continue
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


# Someone of the user's other than a partner, named in a message: a "he" / "she" after it may be them.
_SOMEONE_ELSE = re.compile(
    r"\b(?:my|our)\s+(?:[\w-]+\s+)?(?:sister|brother|mother|mom|mum|father|dad|parents?|son|daughter|kids?|children|"
    r"child|baby|friend|boss|colleague|coworker|co-worker|roommate|flatmate|housemate|neighbou?r|grandma|grandpa|"
    r"grandmother|grandfather|aunt|uncle|cousin|niece|nephew|mate|manager|teacher|doctor)\b|\b(?:someone|somebody)\b",
    re.IGNORECASE,
)


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
        if any(_SOMEONE_ELSE.search(said) for said in before):
            return None
        partner = _partner_of(known, pronoun.group("p").lower())
        if partner is None:
            return None
        be = " is" if pronoun.group("be") else ""
        clause = f"{partner}{be} {pronoun.group('rest')}"
    said = named_change(clause) or _named_care(clause) or _named_about(clause)
    if said is None:
        return None
    name, rest = said
    gap = "" if rest.startswith("'s ") else " "
    for text in known:
        role = re.search(rf"\b(?P<role>{_ROLE})(?:\s+(?:is\s+|'s\s+)?(?:called|named)|,|'s\s+name\s+is|\s+is)?\s+"
                         rf"{re.escape(name)}\b", text, re.IGNORECASE)
        # "User is married to Tom.", "User is seeing Jonas.": Tom is the user's partner
        partner = rf"\b(?:married|engaged|dating|seeing|together)\s+(?:to\s+|with\s+)?{re.escape(name)}\b"
        whose = None
        # the user's own (a dog of the user's, their girlfriend Ana), not a sister's dog called Max
        if role is not None and holder(text) in ("user", role.group("role").lower()):
            whose = role.group("role").lower()
        elif holder(text) == "user" and re.search(partner, text, re.IGNORECASE):
            whose = "partner"
        if whose is not None:
            kin = _KIN_OF.match(rest)
            if kin is not None and (_SPOUSE.search(text) or whose in ("husband", "wife", "spouse")):
                return f"My {_IN_LAW.get(kin.group('kin').lower(), kin.group('kin').lower())}-in-law {kin.group('tail')}"
            if _MOVED_IN.match(rest):
                return f"I live with my {whose} {name}"
            return f"My {whose} {name}{gap}{rest}"
        # "User has a 14 year old beagle named Pretzel.": the word before the name says what Pretzel is
        kind = re.search(rf"^User\s+(?:has|owns|adopted|got)\b.*?\b(?P<kind>[a-z]+)\s+(?:called|named)\s+"
                         rf"{re.escape(name)}\b", text)
        if kind is not None and is_loss(clause):
            return f"My {kind.group('kind')} {name} {rest}"
    return None


# "I meant Porto, not Lisbon", "Porto, not Lisbon": a correction naming only what is right and what was wrong.
_MEANT = re.compile(
    r"^(?:i\s+(?:meant|mean|meant\s+to\s+say|said)\s+|(?:it's|its|it\s+is|it\s+was|make\s+that)\s+)?"
    r"(?P<right>[\w'-]+(?:\s+[\w'-]+){0,2}?),?\s+not\s+(?P<wrong>[\w'-]+(?:\s+[\w'-]+){0,2}?)[.!]*$",
    re.IGNORECASE,
)


def _meant(clause: str, known: Sequence[str]) -> tuple[str, str] | None:
    """``clause`` ("Actually I meant Porto, not Lisbon") as the stored fact it corrects with the right words in
    place of the wrong ones ("User lives in Porto." of "User lives in Lisbon."; "its march 3rd not may" of
    "User's birthday is may 3rd." -> "User's birthday is march 3rd."), when exactly one stored fact of the
    user's holds the wrong words, and the correction said plainly ("I meant march 3rd, not may": what it ends);
    ``None`` otherwise (the rules cannot tell which fact)."""
    m = _MEANT.match(strip_lead(clause))
    if m is None or content_words(m.group("right")) & content_words(m.group("wrong")):
        return None
    right, wrong_said = m.group("right"), m.group("wrong")
    wrong = re.compile(rf"\b{re.escape(wrong_said)}\b", re.IGNORECASE)
    held = [text for text in known if holder(text) == "user" and not is_negated(text) and wrong.search(text)]
    if len(held) != 1:
        return None
    said = f"I meant {right}, not {wrong_said}"
    # "march 3rd" for "may" in "may 3rd": the words of the right one that follow the wrong one are replaced too
    words = right.split()
    for k in range(1, len(words)):
        rest = r"\s+".join(map(re.escape, words[k:]))
        longer = re.compile(rf"\b{re.escape(wrong_said)}\s+{rest}\b", re.IGNORECASE)
        if longer.search(held[0]):
            return longer.sub(right, held[0], count=1), said
    return wrong.sub(right, held[0], count=1), said


def _born_own(clause: str, known: Sequence[str]) -> str | None:
    """``clause`` ("the baby was born last week", "Sofia was born on Tuesday") told while a stored fact says the
    user is expecting ("User is pregnant.") as the user's own ("Our baby Sofia was born on Tuesday"); ``None``
    otherwise."""
    said = strip_lead(clause)
    if not _BORN_UNSAID.match(said) or not any(_OWN_PREGNANCY.match(text) for text in known):
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


# A subordinate or prepositional opener: "When I was young", "Since the baby arrived", "Being a nurse".
_SUBORDINATE = rx(
    r"^(?:if|when|whenever|while|since|because|as|after|before|although|though|unless|until|till|once|whether|"
    r"in|on|at|for|with|without|by|from|during|due|being|having|back|growing|like|even|except|apart|other\s+than)\b"
)
_FINITE = frozenset("is are was were 's 're has had did does do can could will would says said isn't wasn't".split())


def is_clause(text: str) -> bool:
    """Whether ``text`` is a clause of its own, with a subject and a finite verb ("Friday was my last day",
    "the lease ended", "Her name is Chloé"), not an opener that bends what follows ("When I was young",
    "Since the baby arrived", "No pets for us")."""
    body = strip_lead(text)
    if not body or _SUBORDINATE.match(body) or CONDITIONAL.match(body):
        return False
    words = re.findall(r"[\w']+", body.lower().replace("'s ", " 's ").replace("'re ", " 're "))
    return any(w in _FINITE or is_past(w) for w in words[1:])


def _can_split(left: str, right: str) -> bool:
    left = left.strip()
    if not left or _BARE_POSSESSIVE.match(left) or _BARE_PRONOUN.match(left) or _bare_object(right):
        return False
    if _STARTS_FIRST_PERSON.match(left) or _STARTS_FIRST_PERSON.match(strip_lead(left)):  # "fyi I quit ..., I ..."
        return True
    if is_subjectless_change(left):  # "Sold the car, I ..."
        return True
    # "Friday was my last day - I'm retired", "the lease ended and I'm back home": a clause of its own, then one
    # of the user's (not an opener that bends it: "When I was young, I lived in Spain")
    return bool(_RIGHT_SUBJECT.match(right)) and is_clause(left)


# A request to work on a text the user pastes after it ("Can you summarise this email from my landlord?", "Please
# translate the following:", "Here's the message my boss sent:"), or the opening of a letter ("Dear tenant,"): what
# follows in the message is someone else's words, whose "I" is not the user.
_PASTE_VERBS = (  # asked only of a text
    r"summari[sz]e|sum\s+up|translate|proofread|proof-read|rewrite|re-?word|paraphrase|edit|shorten|polish|"
    r"reply\s+to|respond\s+to|draft\s+(?:a\s+)?(?:reply|response)\s+to|simplify|format"
)
_TEXT_VERBS = (  # asked of a text when one is named ("check this email"), of news too ("Check it out: I got the job!")
    r"improve|tidy\s+up|check|correct|fix|explain|analy[sz]e|read|look\s+(?:at|over)|answer|make\s+sense\s+of"
)
_TEXTS = (
    r"email|e-mail|mail|message|text|letter|note|post|tweet|comment|review|paragraph|passage|article|essay|"
    r"report|statement|announcement|memo|notice|document|doc|contract|thread|chat|reply|response|bio|speech|"
    r"poem|story|extract|excerpt|quote|transcript|cover\s+letter|notes|"
    r"grammar|spelling|punctuation|wording|phrasing|typos?|sentences?"  # "Fix the grammar: i has moved"
)
_ASK = (
    r"^\W*(?:(?:hi|hey|hello|ok|okay|so)\b\W*)?(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:help\s+me\s+)?|"
    r"please\s+|help\s+me\s+|i\s+(?:need|want|would\s+like|'d\s+like)\s+(?:you\s+)?to\s+)?"
)
_HERE_IS = (
    rf"^\W*(?:here(?:'s|\s+is|\s+are)|this\s+is|below\s+is)\s+(?:the|a|an|my|what|this|that|her|his|their|our)\b"
    rf"[^?!.:]{{0,60}}\b(?:{_TEXTS}|wrote|sent|said|says)\b"
)
# A whole sentence asking for work on a text that follows it: "Can you summarise this email from my landlord?"
_NAMED_TEXT = rf"(?:{_TEXTS}|the\s+following|below)\b"
_PASTE_REQUEST = re.compile(
    rf"{_ASK}(?:(?:{_PASTE_VERBS})\b[^?!]*?\b(?:this|these|that|the\s+following|below|it)\b"
    rf"|(?:{_TEXT_VERBS})\b[^?!]*?\b{_NAMED_TEXT})[^?!]*[?.!:]*\s*$"
    rf"|{_HERE_IS}[^?!.]*[:.]?\s*$",
    re.IGNORECASE,
)
# What leads a text pasted after a colon in the same sentence: "Translate into Spanish: ...", "Here's what my boss
# sent: ..." (not a news lead-in: "Quick update: I moved to Leeds.", "Check it out: I got the job!").
_PASTE_LEAD = re.compile(
    rf"{_ASK}(?:(?:{_PASTE_VERBS})\b|(?:{_TEXT_VERBS})\b[^?!]*?\b{_NAMED_TEXT})[^?!]*$|{_HERE_IS}[^?!.]*$",
    re.IGNORECASE,
)
# Someone else's words relayed, then quoted after a colon or a quote mark: "my friend texted me: I moved to Madrid",
# "The email says: I have moved", "Mum said \"I'm retiring\"". Their "I" is not the user (the user's own words,
# "As I said: ...", are read).
_RELAYED = re.compile(
    r"^\W*(?!.*\b(?:i|we)\b)(?:[\w'-]+\s+){1,4}?(?:just\s+)?(?:texted|messaged|wrote|writes|said|says|told|tells|"
    r"emailed|posted|replied|tweeted|sent|dm'?d|whatsapped|reads|goes)"
    r"(?:\s+(?:me|us|to\s+me|to\s+us|back|this|that|earlier|today|yesterday|last\s+night|just\s+now)){0,2}\s*$",
    re.IGNORECASE,
)
# Where quoted words start in a sentence: after a colon, or at an opening quote mark.
_QUOTE_START = re.compile(r"\s*:\s*|\s+[\"\u201c]")
_LETTER_OPENING = re.compile(r"^(?:dear(?!\s+diary\b)|to\s+whom\s+it\s+may\s+concern)\b", re.IGNORECASE)


def split_pasted(text: str) -> tuple[list[str], list[str]]:
    """The sentences of one message that are the user's own, and those of someone else's text pasted in for the
    assistant to work on or relayed: after a request to work on a text ("Can you summarise this email?",
    "Translate into Spanish: ...", "Fix the grammar: ..."), from a letter's opening ("Dear tenant,") on, or from
    someone else's words quoted ("my friend texted me: I moved to Madrid", "The email says: ...") on.

    >>> split_pasted("I rent. Can you reply to this email? I am selling the flat.")
    (['I rent.', 'Can you reply to this email?'], ['I am selling the flat.'])
    """
    sentences = split_sentences(text)
    for i, sentence in enumerate(sentences):
        if _LETTER_OPENING.match(sentence):
            return sentences[:i], sentences[i:]
        quote = _QUOTE_START.search(sentence)
        head, tail = (sentence[: quote.start()], sentence[quote.end():]) if quote is not None else (sentence, "")
        if tail.strip() and _RELAYED.match(head):
            return sentences[:i], [sentence, *sentences[i + 1 :]]
        if tail.strip() and quote.group(0).strip() == ":" and _PASTE_LEAD.match(head):
            return [*sentences[:i], head + ":"], [tail.strip(), *sentences[i + 1 :]]
        if i + 1 < len(sentences) and _PASTE_REQUEST.match(sentence):
            return sentences[: i + 1], sentences[i + 1 :]
    return sentences, []


# A clinician's change of the user's treatment, told with the user as object: "The doctor switched me from
# warfarin to apixaban.", "My GP put me on statins." -> "I switched from ...", "I'm on statins."
_PRESCRIBED = re.compile(
    r"^\W*(?:the|my|our)\s+(?:doctor|gp|consultant|specialist|cardiologist|diabetologist|nurse|dietitian|"
    r"dietician|psychiatrist|pharmacist)\s+(?:has\s+|just\s+|has\s+just\s+)?"
    r"(?P<verb>switched|changed|put|started|took|taken|has\s+taken)"
    r"\s+me\s+(?:(?P<off>off)(?=\s)\s*|on(?=\s)\s*)?(?P<rest>.+)$",
    re.IGNORECASE,
)
_AND = re.compile(r"\s(?:and|but)\s|;", re.IGNORECASE)


def _as_own_treatment(prescribed: re.Match[str]) -> str:
    """A clinician's change of the user's treatment told as the user's own: "... put me on statins" -> "I'm on
    statins", "... switched me from X to Y" -> "I switched from X to Y", "... took me off X" -> "I stopped taking
    X"."""
    verb, rest = prescribed.group("verb").lower(), prescribed.group("rest")
    if prescribed.group("off"):
        return f"I stopped taking {rest}" if verb in ("took", "taken", "has taken") else f"I'm off {rest}"
    if verb in ("put", "started", "took", "taken", "has taken"):
        return f"I'm on {rest}"
    return f"I {verb} {rest}"


# "I lied about being vegan", "I was only joking about living in Lisbon": the user takes back what they said, a
# denial of it ("I'm not vegan", "I don't live in Lisbon").
_RETRACTED = re.compile(
    r"^(?:i\s+(?:lied|was\s+(?:just\s+|only\s+)?(?:lying|kidding|joking))|(?:just|only)\s+(?:kidding|joking))"
    r"\s+about\s+(?:(?P<being>being)|(?P<having>having)|(?P<verb>[a-z]+ing))\s+(?P<rest>\S.*?)[.!]*$",
    re.IGNORECASE,
)


def _as_denial(clause: str) -> str | None:
    """``clause`` when it takes back what the user said ("I lied about being vegan"), as the denial it is ("I'm
    not vegan"; "I was kidding about living in Lisbon" -> "I don't live in Lisbon"); ``None`` for any other
    clause, or a verb the rules do not rewrite."""
    m = _RETRACTED.match(strip_lead(clause))
    if m is None:
        return None
    rest = m.group("rest")
    if m.group("being"):
        return f"I'm not {rest}"
    if m.group("having"):
        return f"I don't have {rest}"
    gerund = m.group("verb").lower()
    base = next((v for v in (gerund[:-3], gerund[:-3] + "e", gerund[:-4]) if is_bare_present(v)), None)
    return f"I don't {base} {rest}" if base is not None else None


def _says_more(verdict: SentenceVerdict, text: str) -> bool:
    """Whether the stored fact ``text`` says more than the new fact could replace, so that replacing it would
    lose what still holds: a care fact (an allergy, a medication) replaced by a fact that is none and is about
    no diet, unless the new fact ends the relationship the stored one is about (a former partner's coeliac
    disease is no care fact of the user's household) ("Arjun turned 5" after "User's son Arjun is 4 and he's allergic to peanuts."), or a fact of two
    parts joined by "and" / "but" replaced by a new age ("Leela turned 8" after "User's daughter Leela is 7
    and obsessed with dinosaurs.")."""
    said = verdict.sentence
    if is_negated(said) or is_ended(said):
        return False  # "I'm not vegetarian any more" ends the care fact it names
    if relationship_stage(verdict.fact) in _ENDED_STAGES and relationship_stage(text) is not None:
        return False  # "Tom and I broke up" ends what the user told of the partner, "... Tom is coeliac." too
    new_slots = slots_of(verdict.fact)
    if is_care_fact(text) and not is_care_fact(verdict.fact) and not new_slots & CONSUMPTION_SLOTS:
        return True
    return "age" in new_slots and _AND.search(text) is not None


def _clauses(text: str) -> list[str]:
    """The user's own clauses of one message (pasted text left out), as the plain statements they mean."""
    own, _ = split_pasted(read_as_meant(text))
    return as_plain_statements([c for sentence in own for c in split_clauses(sentence)], split_clauses)


def plain_reading(text: str) -> str:
    """A user message as the plain statements the rules read it as ("doctor says the diabetes is gone, I can stop
    the metformin" -> "I no longer have diabetes. I stopped taking metformin"): capture looks up the stored facts
    these end.

    >>> plain_reading("I can stop the metformin")
    'I stopped taking metformin'
    """
    return ". ".join(_clauses(text))


_HE_SHE = re.compile(r"^(?:he|she)(?:'s|\s)", re.IGNORECASE)


def told_of(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The slots and names a user message speaks of that its words alone do not show: someone named first, of whom
    it tells what the extractor keeps of the user's people ("Marco is lactose intolerant", "Marco's birthday is
    ...": ``"Marco"``; not "Nibbles is so cute"; a first word typed in lower case, "leos bday is ...", may be a
    name too: ``"Leos"``, ``"Leo"``, which capture looks for with its capital), the partner a "he" / "she" first
    may be (the
    ``"relationship"`` slot), where the user is now ("im in exeter now": ``"residence"``). Capture shows the
    stored facts of these, which the rules read the message with."""
    slots: set[str] = set()
    names: set[str] = set()
    for clause in _clauses(text):
        said = strip_lead(clause)
        subject = named_change(said) or _named_care(said) or _named_about(said)
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
    return frozenset(slots), frozenset(names)


class RuleBasedFactExtractor:
    """The default extractor: first-person statements about the user, as "User ..." facts; no model, no I/O.

    >>> RuleBasedFactExtractor().extract([("user", "Thanks! I'm vegetarian and my daughter Mia is 7. Any ideas?")])
    [ExtractedFact(text='User is vegetarian.', supersedes=(), core=True), ExtractedFact(text="User's daughter Mia is 7.", supersedes=(), core=False)]

    Each user message is cut into sentences, and a sentence into clauses
    where a new first-person clause starts (:func:`split_clauses`: "I live in
    Rome and I work as a chef" gives two facts; "I have a cat named Mochi
    and a dog named Rex" one per animal, "I live in Lisbon with my husband
    Rui" where and with whom); a clause is kept only when,
    once leading interjections, discourse markers and news lead-ins ("Oh,",
    "Thanks!", "Just so you know,", "Quick update:", "Bad news -", "Guess
    what,", "Turns out") are cut, it is a statement whose subject is the user
    ("I ...", "My ...", "We ...", "Our ...", or "Last month I ..."), or a
    change told without its "I" ("Just moved to Leeds!", "Got promoted"), or
    a statement typed without it ("Work in IT.", "Allergic to cats.",
    "Been vegan for 3 years now.", "Vegetarian here.").
    Dropped: questions (a question clause
    after a statement is cut off: "I'm vegetarian, what should I cook?" keeps
    "I'm vegetarian"), greetings / thanks / small talk ("I'm good", "I see"),
    instructions and requests ("write me a poem", "can you ...", "I need a
    recipe", "I'm looking for ..."), anything addressed to the assistant
    (you / your: "I think you should ..."), hypotheticals and wishes ("If I
    were rich ...", "I'd love ...", "I wish ..."), opinions that are not about
    the user ("I think it will rain"), encouragement and resolve ("We've got
    this!", "I won't give up on my dreams"), talk about the conversation ("We
    spoke last week about ..."), dreams, games and stories ("In my dream I
    moved to Tokyo", "My character in the game moved to Paris"), someone
    else's words pasted or relayed (:func:`split_pasted`: "my friend texted
    me: I moved to Madrid"). A hedged statement about the user ("I
    think I'm allergic to cats") is kept as said; what a sentence tells of
    someone else after a noun ("a movie about a guy who moved to Paris")
    changes no stored fact.

    Rewrites: "I'm/I am X" -> "User is X", "I have" -> "User has", "I work"
    -> "User works" (for common verbs), "I moved" -> "User moved", "My X" ->
    "User's X"; a later "my" becomes "their". "We" and "our" are the user's
    household: "We rent a flat" -> "User rents a flat.", "Our cat died" ->
    "User's cat died." ("We're both teachers" is kept as said). When the
    sentence has another first-person pronoun, or an unknown verb, it is kept
    as said. Curly apostrophes count as straight ones. Assistant messages are
    ignored.

    Passing moments are dropped ("I'm tired today", "I'm at the airport at
    the moment", "I just had lunch", "My train leaves in 20 minutes", "I have
    a headache", "I'm on vacation until Friday"), and so are passing states
    and whereabouts ("I'm drunk", "I'm on my period", "I'm stressed out", "I'm
    on the bus", "I'm stuck in traffic", "I'm at work"); a mood of the weeks
    ("I'm stressed about work these days") is kept for two weeks
    (:data:`~memori_core.extraction.moments.MOOD_LIFETIME`). What holds for good
    is kept ("I'm diabetic", "I'm pregnant", "I'm on medication for ...", and
    "I'm sober", read as not drinking: "sober tonight" is a moment). An
    appointment ("I have a meeting at 3pm tomorrow", "My exam is on
    Thursday", "a dentist appointment at 4", "on the 14th", "I have a date
    tonight") is kept with its day written out ("User has a meeting at 3pm on
    Sunday 2026-12-06.": :func:`~memori_core.extraction.dates.anchor_plan`)
    and an ``expires_at`` at the end of that day, read in ``time_zone`` (when
    it is not given: in UTC, and the day ends when it has ended everywhere,
    at 12:00 UTC the next day). "I'm
    Maya, by the way", "Name's Maya", "You can call me Maya", "Maya here
    again" and "It's Maya again" become "User's name is Maya."; "Everyone
    calls me Becky" and "I go by Becky" become "User goes by Becky."; "I'm
    the one with the parrot" becomes "User has a parrot.".

    Stored facts (``existing``, shown by capture) are used three ways:
    a fact that announces a change ("moved", "switched", "quit", "no longer",
    "not ... anymore", "now", "broke up", "got laid off", "made redundant",
    "started at", "retired", "graduated", "went keto", "bought a house",
    "again" of a state, :func:`~memori_core.extraction.slots.is_change`; not
    a change only thought of, "I'm thinking of switching")
    supersedes the stored facts of the same slot (where the user lives, their
    job, diet, relationship, smoking, coffee/tea, alcohol, commute, phone,
    car, age: :data:`~memori_core.extraction.slots.SLOTS`) held by the same person
    (:func:`~memori_core.extraction.slots.holder`: "My sister moved" is not the
    user's move; "My husband passed away" ends the user's marriage). The
    relationship changes only with its stage ("married", "engaged",
    "single", "broke up", "seeing someone": "My wife and I moved to Berlin"
    leaves the marriage), and a new stage replaces another without a change
    word ("We're engaged!"). What the user eats or drinks changes with "only"
    too ("I only drink decaf"), a phone or car when a new one is got ("I got
    a Pixel"). A thing sold, traded in or returned ends the stored fact that
    the user has, drives or uses it ("I sold the Civic"), a habit stopped the
    stored habit naming it ("I gave up on Spanish"), even when no slot knows
    the word; a change told of someone the stored facts name ("Max passed
    away" after "User has a dog called Max.") is the user's. In the
    slots that hold several things at once (pets, exercise:
    :data:`~memori_core.extraction.slots.ACTIVITY_SLOTS`) only the fact about
    the same animal or activity is replaced, when it ended ("I've stopped
    running", "our cat Mochi passed away"), and a stored "none" ("User has no
    pets.") when one is named. A negated or ended fact ("I don't play tennis
    anymore", "I used to live in Lisbon") also replaces those holding its
    words, and a plain denial the stored fact of the same person it denies
    (:func:`~memori_core.extraction.slots.denies`: "I'm not vegan", "I lied
    about being vegan", "Just kidding, I don't live in Lisbon"). A correction
    ("I live in Porto, not Lisbon", "I meant Porto, not Lisbon": the one stored
    fact of the user's holding "Lisbon", with "Porto" in its place) replaces
    the stored fact holding what it says was wrong. "Ana and I broke
    up" is the user's statement ("User and Ana broke up."). a fact that only
    refines a stored one of the same person ("User has a golden retriever
    called Bo." after "User has a golden retriever.") replaces it; a fact
    whose words a stored fact of the same person already holds ("I'm an
    architect" after "User works as an architect.") is not stored again.

    When no clean fact can be said, nothing is stored: a sentence that would be
    kept as said must be short and of a known slot of the user's life or a care
    fact (``DROP_UNCLEAR``); a fact pointing to no one named ("My physio
    recommended it.", "We share her flat") is dropped (``DROP_UNRESOLVED``);
    an aside after the statement ("I'm a nurse, been doing nights for ten
    years") is left out of the fact; a thing left or stopped told beside what
    holds now in its place ("I quit Google and now I work at a startup") is not
    stored, the new fact ends the stored one.

    Texting style is read as meant before any rule (:mod:`.typos`): "dont"
    and "im" get their apostrophe, a care word one letter off is spelt right
    ("alergic to shelfish" -> "User is allergic to shellfish.", core). A
    promotion is a change within the job: "I got promoted" ends no job fact,
    "I got promoted to senior engineer" ends the stored role and is held at
    the employer that fact names ("User works at Google as a senior
    engineer.").

    What the user tells in their own words is read as the plain statements it
    means (:mod:`.retold`): "wait no, I'm not allergic to shellfish, that's my
    brother Sam" denies the user's allergy and stores the brother's; "doctor
    says the gestational diabetes is gone", "I can stop the metformin", "the
    vegetarian thing wasn't working for me" end the stored condition, medicine
    and diet; "met someone! his name is Marco" is "User is seeing Marco.", and
    what is said later of Marco by name, or by "he" / "she" when he is the one
    partner stored, is the partner's ("User's partner Marco is lactose
    intolerant."); "im in exeter now" is a move when a home is stored; "I lied
    about being sober" ends what it takes back. Someone's view of the user
    ("my mum thinks I'm still vegan"), a joke ("..., april fools", "jk"), a
    craving, a self-rating, a bare "I caved" and an outing with no day are
    not stored; asides to the listener ("..., just so you know") are left out.

    The rules are English only: other languages give no fact (never a
    half-understood one).

    A kept fact is ``core`` when ``core_rule(fact_text)`` says so (default
    :func:`is_core_fact`: allergies, intolerances, medication, dietary
    restrictions); capture then stores it with ``core=True`` and recall
    injects it on every turn. ``core_rule=None`` marks no fact core.
    """

    uses_existing_facts = True
    """Capture shows the rules the user's similar and same-slot stored facts: changes supersede them,
    refinements replace them, repeats are not stored again."""

    def __init__(
        self,
        *,
        max_chars: int = DEFAULT_MAX_FACT_CHARS,
        core_rule: CoreRule | None = is_core_fact,
        time_zone: tzinfo | str | None = None,
    ) -> None:
        """``max_chars``: a longer sentence is not a fact (a paste, a story) and is dropped. ``core_rule``:
        which kept facts are core (``None``: none). ``time_zone``: the users' zone (a ``tzinfo`` or an IANA name
        such as ``"Europe/Lisbon"``), in which a plan's "tomorrow" or "on Monday" is read and its day ends;
        ``None`` (default): not known, read in UTC (in the offset of a message's ``created_at`` when it has
        one), and a plan expires when its day has ended everywhere."""
        if isinstance(max_chars, bool) or not isinstance(max_chars, int) or max_chars < 1:
            raise ValueError(f"max_chars must be a positive int, got {max_chars!r}")
        self.max_chars = max_chars
        self.core_rule = check_core_rule(core_rule)
        self.time_zone = _check_time_zone(time_zone)

    def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
        """The kept facts of the user messages in ``messages``, in order, without repeats. A plan's day is read
        against each message's ``created_at`` (:class:`~memori_core.extraction.Message`; in ``time_zone`` when it
        is set, else in the time's own offset), or now when it has none."""
        facts: list[ExtractedFact] = []
        seen: set[str] = set()
        known = [(f.id, f.content, content_words(f.content)) for f in existing]
        default_now = datetime.now(self.time_zone or timezone.utc)
        for message in as_messages(messages):
            if message.role not in ("user", "human"):
                continue
            now = self._said_at(message.created_at) or default_now
            said: list[tuple[ExtractedFact, SentenceVerdict]] = []
            for verdict in self.explain(message.text, known=[text for _, text, _ in known], now=now):
                if verdict.fact is None:
                    continue
                key = normalize_fact_text(verdict.fact)
                if key in seen:
                    continue
                seen.add(key)
                words = content_words(verdict.fact)
                if any(words and words <= old and normalize_fact_text(text) != key
                       and is_negated(text) == is_negated(verdict.fact) and holder(verdict.fact) == holder(text)
                       for _, text, old in known):
                    continue  # a stored fact already says it (of the same person: not "User's sister is vegan.")
                core = self.core_rule is not None and bool(self.core_rule(verdict.fact))
                expires = now + verdict.expires_in if verdict.expires_in is not None else None
                ended = [(fid, text) for fid, text, old in known
                         if normalize_fact_text(text) != key and self._replaces(verdict, words, text, old)]
                replaced = tuple(fid for fid, _ in ended)
                text = _with_partner(_with_employer(verdict.fact, [text for _, text in ended]),
                                     [text for _, text in ended])
                said.append((ExtractedFact(text, supersedes=replaced, core=core, expires_at=expires), verdict))
            facts += [fact for fact, verdict in said if not _told_with_what_holds_now(fact, verdict, said)]
        return facts

    def _said_at(self, when: datetime | None) -> datetime | None:
        """A message's ``created_at`` in ``time_zone`` (as given when the zone is not known)."""
        if when is None or self.time_zone is None:
            return when
        return when.astimezone(self.time_zone)

    @staticmethod
    def _replaces(verdict: SentenceVerdict, words: frozenset[str], text: str, old: frozenset[str]) -> bool:
        """Whether the new fact of ``verdict`` (content ``words``) replaces the stored fact ``text``."""
        if verdict.expires_in is not None or not old:
            return False
        own = own_part(verdict.fact)
        if own != verdict.fact:  # "User watched a movie about a guy who moved to Paris.": only the user's part
            verdict, words = replace(verdict, fact=own, sentence=own), content_words(own)
        if _OWN_PREGNANCY.match(text) and _BIRTH.search(verdict.fact) and _OWN_CHILD.match(verdict.fact):
            return True  # "Our baby girl Maya was born last week": "User is pregnant." no longer holds
        if _says_more(verdict, text):
            return False
        wrong = corrected_words(verdict.sentence)
        if wrong and wrong <= old and not wrong & words and holder(verdict.fact) == holder(text) \
                and (old - wrong <= words or slots_of(verdict.fact) & slots_of(text)):
            return True  # "I live in Porto, not Lisbon" ends "User lives in Lisbon."
        # a refinement: "has a golden retriever" -> "... called Bo", by the same person ("User's sister is
        # vegetarian." refines nothing of "User is vegetarian.")
        if old < words and verdict.reason != KEPT_AS_SAID and _same_person(verdict.fact, text, old):
            return True
        said = verdict.sentence
        changed, ended = is_change(said), is_ended(said)
        if ends_ownership(verdict.fact, text):  # "I sold the Civic": "User drives an old Honda Civic." ends
            return True
        if ends_habit(verdict.fact, text):  # "I gave up on Spanish": "User is learning Spanish." ends
            return True
        if is_loss(said) and names_in(verdict.fact) & names_in(text) and holder(verdict.fact) == holder(text):
            return True  # "We lost Mochi": "User has a cat called Mochi." ends
        # A change replaces the same slot of the same person only: "My sister moved" leaves the user's home.
        # In a slot that holds several things (pets, exercise) only the fact about the same one, when it
        # ended ("I stopped running") or was a "none" ("User has no pets." before "We adopted a dog").
        # What the user eats or drinks changes with "only" too ("I only drink decaf"), a phone or a car
        # when a new one is got ("I got a Pixel").
        for slot in slots_of(verdict.fact) & slots_of(text):
            if holder(verdict.fact, slot) != holder(text, slot):
                continue
            if slot != "relationship" and _CONDITION.search(text) and not _CONDITION.search(verdict.fact):
                continue  # a condition is no diet: "I went keto" leaves "User has coeliac disease."
            moved_from = _MOVED_FROM.search(verdict.fact) if slot == "residence" else None
            if moved_from is not None and moved_from.group("place").casefold() not in text.casefold():
                continue  # "I moved from London" ends a home in London, not "User lives in Leeds."
            if slot == "residence" and bool(_LIVES_WITH.match(text)) != bool(_LIVES_WITH.match(verdict.fact)):
                continue  # a move changes where, not with whom: "I moved to Porto" leaves "User lives with Rui.",
                # "Marco moved in with me" leaves "User lives in Leeds."
            if _GOAL.search(text) and not _GOAL.search(verdict.fact) and not words & old:
                continue  # "We moved to Bristol" leaves "User is saving for a deposit on a house."
            if slot == "job" and _PROMOTED.search(said) and not _PROMOTED_TO.search(said):
                continue  # "I got promoted" leaves "User works at Google."; "promoted to manager" is a new role
            if slot in ACTIVITY_SLOTS:
                # "We adopted a dog" after "User has no pets.": the "none" no longer holds; "I played rugby
                # at uni" after "User used to play rugby." tells the same past, nothing new
                flipped = is_negated(text) and not is_negated(verdict.fact) \
                    and (changed or not is_past_statement(verdict.fact))
                if (flipped or ended) and same_activity(verdict.fact, text, slot):
                    return True
            elif slot == "relationship":  # "My wife and I moved to Berlin" is no change of the marriage
                # an ending ends all the user told of the relationship ("Tom and I broke up": "User's boyfriend
                # Tom is a chef."); another change only where it stands ("Marco moved in with me" ends "User is
                # seeing Marco.", not "User's partner Marco's birthday is April 19th.")
                ends = is_loss(said) or relationship_stage(verdict.fact) in _ENDED_STAGES \
                    or relationship_stage(said) in _ENDED_STAGES
                stands = relationship_stage(text) is not None or is_relationship_status(text)
                if (is_loss(said) or (changed and is_relationship_status(said))) and (ends or stands):
                    return True
                # a new stage replaces another ("Chris and I are engaged" after "User is dating Chris.")
                stage, before = relationship_stage(verdict.fact), relationship_stage(text)
                if stage is not None and before is not None and stage != before:
                    return True
            elif changed:
                return True
            elif slot in CONSUMPTION_SLOTS and is_exclusive(said) and not is_negated(said) \
                    and not _CONDITION.search(text):  # "I only eat rice" leaves "User is coeliac."
                return True
            elif slot in acquired_slots(said) and not is_negated(said):
                return True
        if denies(verdict.fact, text) and (changed or ended or verdict.reason == KEPT_REWRITTEN):
            return True  # "I'm not vegan" ends "User is vegan." (a hedge, "I think I'm not allergic", ends nothing)
        if _RETRACTED.match(strip_lead(said)) and holder(verdict.fact) == holder(text) \
                and slots_of(verdict.fact) & slots_of(text) - {"relationship"}:
            return True  # "I lied about being sober" ends "User doesn't drink anymore." (what it takes back)
        if not (changed or ended):
            return False
        # "I don't play tennis anymore" ends "User plays tennis on Sundays." (not a sister's "anymore")
        return is_negated(said) and len(words & old) >= min(2, len(old)) and holder(verdict.fact) == holder(text)

    def explain(
        self, text: str, *, known: Sequence[str] = (), now: datetime | None = None
    ) -> list[SentenceVerdict]:
        """The decision for every clause of one user message: the fact kept (or ``None``) and the reason.

        ``known``: the user's stored facts. A change told of someone or something they name ("Max passed
        away", after "User has a dog called Max.") is read as the user's ("My dog Max passed away").
        ``now``: when the message was said (default: now, in ``time_zone``); a plan's day is resolved against it.
        """
        when = now if now is not None else datetime.now(self.time_zone or timezone.utc)
        if when.tzinfo is None:
            raise ValueError(f"now must be a timezone-aware datetime, got {now!r}")
        verdicts = []
        own, pasted = split_pasted(read_as_meant(text))
        # a change of employer in the user's words, as the plain statements the rules read (.job_change)
        # what the user tells in their own words ("wait no, that's my brother", "met someone! his name is Marco"), as
        # the plain statements the rules read (.retold)
        clauses = as_job_changes(as_plain_statements([c for sentence in own for c in split_clauses(sentence)],
                                                     split_clauses), known)
        told = list(known)  # the stored facts, and those of this message so far ("I started seeing Leo", "Leo is a nurse")
        for n, clause in enumerate(clauses):
            prescribed = _PRESCRIBED.match(clause)
            denial = _as_denial(clause)
            if prescribed is not None:  # "My doctor switched me from warfarin to apixaban."
                verdict = replace(self.judge(_as_own_treatment(prescribed), now=when), sentence=clause)
            elif denial is not None:  # "I lied about being vegan."
                verdict = replace(self.judge(denial, now=when), sentence=clause)
            else:
                verdict = self.judge(clause, now=when)
            if verdict.fact is None and known:
                meant = _meant(clause, known)
                if meant is not None:  # "Actually I meant Porto, not Lisbon."
                    verdict = SentenceVerdict(meant[1], meant[0], KEPT_REWRITTEN)
            if verdict.fact is None and verdict.reason == DROP_NOT_FIRST_PERSON and told:
                named = _named(clause, told, clauses[:n]) or _disposed_own(clause, known) \
                    or _born_own(clause, known)
                if named is not None:
                    verdict = replace(self.judge(named, now=when), sentence=clause)
            if verdict.fact is not None:
                told.append(verdict.fact)
            verdicts.append(verdict)
        return _named_someone(verdicts) + [SentenceVerdict(sentence, None, DROP_QUOTED) for sentence in pasted]

    def judge(self, sentence: str, *, now: datetime | None = None) -> SentenceVerdict:
        """The decision for one sentence (:func:`~memori_core.extraction.rules.judge_sentence`), said at ``now``
        (default: now, in ``time_zone``)."""
        when = now if now is not None else datetime.now(self.time_zone or timezone.utc)
        return judge_sentence(sentence, self.max_chars, now=when, zone_known=self.time_zone is not None)
