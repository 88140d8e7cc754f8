"""The gate's fourth signal: what a question implies for the user's constraints, situation and interests.

A fact whose concerns (:mod:`.concerns`: "User has coeliac disease." -> gluten; "Can I have a beer at the pub?"
-> gluten) meet the question's (:func:`with_implied`) is kept by the gate and ranked into the ``limit`` best,
for a personal question about what to do (:func:`asks_what_to_do`; not a general one: "What is satay sauce made
of?" asks for no one's allergy). A follow-up that names no concern goes on with those of the question it follows
(:func:`asks_for_advice`). A name the question uses ("Can I take Dash on a long hike?") opens the few facts that
hold it (:func:`named_rows`), a relative ("my mum", "Dad") the best ranked few facts about them (:mod:`.kin`), a
weekday or month the few facts that name it (:func:`day_rows`), a question asking to be reminded of the asker's own
thing the facts of that slot (:func:`slot_rows`), an everyday domain its words open ("Can I repot my orchids
now?": home and garden) the best ranked few facts of the asker's constraints there (:mod:`.everyday`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from ..calendar_words import ANY_MONTH_TITLED, ANY_WEEKDAY as _DAY_ALT, WEEKDAYS as _WEEKDAYS, WORKDAY_STEMS
from ..config import RecallConfig
from ..slots import PERSON, placed, slot_keys
from .allergens import allergen_rows
from .care import FROM_HOME, asks_the_sky_here, for_the_asker, named_by, names_them
from .concerns import ADDED_CONCERNS, fact_concerns, question_concerns
from .conversation import (asks_something, changes_the_plan, goes_on_from_the_conversation, leans_on_the_conversation,
                           points_back)
from .everyday import asks_for_suggestions, everyday_rows
from .kin import kin_named, kin_rows
from .names import TITLES, is_not_a_name, is_ordinary_word
from .pipeline import PoolScores, limit_best

__all__ = ["MOST_NAMED", "asked_about", "asked_slots", "fed_to", "one_of_theirs", "gift_for", "not_about_them", "asks_about_named",
           "asks_for_advice", "asks_to_be_reminded", "asks_to_recall", "day_rows", "named_days", "asks_what_to_do", "goes_on", "recalls_the_asker", "thread_of", "implied_rows",
           "given_names", "is_the_askers_own", "named_rows", "named_words", "typed_words", "with_implied"]


_TOLD_PAST = re.compile(r"\b(?:did|was|were|had|went|attended|created|visited)\b", re.IGNORECASE)
# what the asker may do now, whatever the story before it: "My back is sore since I was digging, what can I take?"
# (or asks for tips on it: "Last year I was shaky by the afternoon. Any tips to get through it?")
_ASKS_NOW = re.compile(r"\b(?:can|could|should|shall)\s+(?:i|we)\b(?!\s+have\s+\w+(?:ed|en)\b)|\bwhat\s+do\s+(?:i|we)\s+do\b|"
                       r"\bany\s+(?:tips|advice|ideas|suggestions)\b|\bhow\s+(?:do|can|should)\s+(?:i|we)\b",
                       re.IGNORECASE)


def asks_what_to_do(question: str) -> bool:
    """Whether the question asks, in the first person, about what the asker may or should do ("Can I have a
    beer at the pub?", "What should I order?"), not about what happened ("What was the date of the first BBQ I
    went to?", where the user's diet would only push the answer out; a question of what the asker can or should
    do now still is, after a story told in the past: "My back is sore since I was digging, what can I take?") or
    about the world ("What is satay made of?").

    >>> asks_what_to_do("Is pad thai safe for me?"), asks_what_to_do("When did I go to the BBQ?")
    (True, False)
    """
    return for_the_asker(question) and (_TOLD_PAST.search(question) is None or _ASKS_NOW.search(question) is not None)


def asks_for_advice(turn: str) -> bool:
    """Whether a user's turn is a question (a question mark, or the words a question starts with) that
    :func:`asks_what_to_do`: "What should I grab for lunch?" is, "I get seasick on boats." is not.

    >>> asks_for_advice("Stopping for lunch. What should I grab?"), asks_for_advice("I get seasick on boats.")
    (True, False)
    """
    return asks_something(turn) and asks_what_to_do(turn)


def implied_rows(question: str, facts: Sequence[str], conversation: str | None = None,
                 asked: frozenset[str] | None = None) -> np.ndarray:
    """For each fact (in order), whether the question touches a concern it constrains, for the one the fact is
    about (:func:`~.care.named_by`: the user's household, or someone the question or its ``conversation`` names)
    (bool array); all ``False`` without a concern in the question, which is the common case and reads no fact.
    ``asked``: the concerns to read (default: the question's)."""
    if asked is None:
        asked = question_concerns(question)
    if not asked:
        return np.zeros(len(facts), dtype=bool)
    said = question if conversation is None else f"{question}\n{conversation}"
    return np.fromiter((not asked.isdisjoint(fact_concerns(f)) and named_by(f, said) for f in facts),
                       dtype=bool, count=len(facts))


def with_implied(query: str, scores: PoolScores, texts: Callable[[], Sequence[str]],
                 before: str | None = None, told: Callable[[str, str], bool] | None = None,
                 conversation: str | None = None, limit: int | None = None,
                 config: RecallConfig | None = None) -> PoolScores:
    """``scores`` with the facts whose concerns the question touches marked ``implied`` (and the concerns met,
    for ``explain``); unchanged when there are none. The question is ``query`` when it :func:`asks_what_to_do`;
    for a follow-up that names no concern of its own, it goes on with ``before`` (the user's turn before it,
    read with its conversation) when that turn is about what the user will do (a question asking to be reminded of
    the asker's own thing, :func:`asked_slots`, never goes on from it), a question ("What about
    something to drink with it?" after "What should I grab for lunch?") or a plan ("And what should I order?"
    after "We're going to a seafood place tonight."). A fact that statement tells itself (``told(fact, turn)``:
    "I get seasick on boats." tells "User gets seasick on boats.") is not implied by it: the model reads that
    turn anyway. Someone else's fact is implied only when the question or the ``conversation`` (the earlier turns
    read with it) names them (:func:`~.care.named_by`). An everyday domain the question opens (:mod:`.everyday`)
    vouches only for facts among the ``limit`` best the gate reads once the facts the other rules force in are
    among them, with the facts ``config``'s yield holds (:func:`~.pipeline.yield_held`; all with ``None``): it keeps a fact the cosine would drop, and never pushes one out. ``texts()`` gives the pool rows' texts in pool order; it is called only when the question
    names a concern or a name (their concerns are cached per text). The caller checks that the relevance gate
    applies."""
    slots = asked_slots(query)
    question = query if asks_what_to_do(query) else None
    statement = None
    # A follow-up goes on from the turns before when it names no concern of its own, or when it is no question of
    # what to do by itself ("How about the satay skewers?" after "What should I order?").
    if (before is not None and not slots and (question is None or not question_concerns(query) - ADDED_CONCERNS
                                              or changes_the_plan(query))
            and asks_what_to_do(before)):
        question = f"{query}\n{before}"
        statement = None if asks_for_advice(before) else before
    subject = (_NAME_ASKED.match(query) or _NAME_OPENS.match(query)) if question is None else None
    if subject is not None and subject.re is _NAME_OPENS and not _may_be_typed_name(subject.group(1)):
        subject = None  # "ginger is supposed to help with nausea": no name
    if question is None and not slots and subject is None:
        return scores
    asked: frozenset[str] = frozenset()
    if question is not None:
        # a follow-up goes on with the topic of the turn before, not with what that turn added to it (what to pack)
        asked = question_concerns(question)
        if question != query:
            asked -= (question_concerns(before or "") & ADDED_CONCERNS) - question_concerns(query)
        names = named_words(query) | _gift_kin(query)
        typed = typed_words(query) - {n.lower() for n in names}
    else:
        names = frozenset(n for n in subject.groups() if not is_not_a_name(n)) if subject is not None else frozenset()
        typed = frozenset()
        if subject is not None and subject.re is _NAME_OPENS:
            # "bess is limping", "Sigge has been scratching": a name the facts give, in any case
            typed, names = frozenset(n.lower() for n in names), frozenset()
    days = named_days(query) if question is not None else frozenset()
    kin = kin_named(question) if question is not None else frozenset()
    if not asked and not names and not typed and not slots and not days and not kin and question is None:
        return scores
    facts = texts()
    said = question if conversation is None else f"{question}\n{conversation}"
    rows = implied_rows(question, facts, conversation, asked) if asked else np.zeros(len(facts), dtype=bool)
    if rows.any() and (fed := fed_to(query)) is not None:
        # "What do I feed my dog?": the eater is not the asker, whose own diet, allergies and medicines bear on
        # nothing here (the core facts' rule in engine/reads.py reads fed_to the same way), unless the fact names
        # the one fed ("User is vegetarian, like her son.")
        for i in np.flatnonzero(rows).tolist():
            if is_the_askers_own(facts[i]) and not names_them(fed, facts[i]):
                rows[i] = False
    if statement is not None and told is not None:
        for i in np.flatnonzero(rows).tolist():
            if told(facts[i], statement):
                rows[i] = False
    met = set().union(*(fact_concerns(facts[i]) for i in np.flatnonzero(rows).tolist())) & asked
    # what the question names opens the few facts holding it: a name, a relative, a day, a slot of the asker's
    openers: tuple[tuple[str, Callable[[], tuple[np.ndarray, list[str]]] | None], ...] = (
        ("name", (lambda: named_rows(names, facts, typed)) if names or typed else None),
        ("kin", (lambda: kin_rows(kin, facts, scores.rank_score)) if kin else None),
        ("day", (lambda: day_rows(days, facts)) if days else None),
        ("slot", (lambda: slot_rows(slots, facts, scores.rank_score,
                                    unless=only_locates if for_the_home(query) else None)) if slots else None),
        ("allergen", (lambda: allergen_rows(query, facts, lambda f: named_by(f, said))) if question is not None else None))
    theirs = False  # a name or kin word the question uses opened a fact of someone else's (not the asker's name)
    for label, opened in openers:
        if opened is not None:
            extra, held = opened()
            theirs = theirs or (label in ("name", "kin") and bool(held) and not any(
                _OWN_NAME.match(facts[i]) for i in np.flatnonzero(extra).tolist()))
            rows |= extra
            met |= {f"{label} {h}" for h in held}
    if question is not None and not asks_for_suggestions(question) and not asks_to_recall(query):
        # an everyday domain the question's words open: the best ranked few facts of the asker's constraints there,
        # among those no rule above opened (named in explain only where the vocabulary alone lets one through), not a
        # fact the statement it goes on from tells itself; only among the limit best the ranking holds: forced in
        # from below, a domain's fact pushed a needed one out of the five (docs/ranking.md item 52)
        # a question for someone else (a gift, a meal for them) reads their facts, not the asker's own tastes
        # ("Is it ok to give Lucky some chocolate?": Lucky's fact, held by the name, not the asker's diet), unless the
        # asker speaks of themself too ("Can Max and I share a pizza?")
        other = (gift_for(query) or fed_to(query) or one_of_theirs(query, facts)
                 or (theirs and _ASKER.search(query.replace("\u2019", "'")) is None) or None)

        def fits(fact: str) -> bool:
            return (named_by(fact, said) and not (other is not None and _THE_ASKERS_OWN.match(fact))
                    and not (statement is not None and told is not None and told(fact, statement)))
        within = None
        if limit is not None:
            within = np.zeros(len(facts), dtype=bool)
            # the limit best the gate reads once the rows other rules force in are among them, with the facts the
            # gate holds in place of them (pipeline.yield_held): vouching for these changes no row of the limit
            # best, so neither a fact another rule brought from below nor one held on a confident cosine goes
            within[limit_best(replace(scores, implied=rows), limit, config)] = True
        extra, held = everyday_rows(question, facts, scores.rank_score, fits, taken=rows, within=within)
        rows |= extra
        met |= {f"everyday {h}" for h in held}
    if not rows.any():
        return scores
    return replace(scores, implied=rows, concerns=tuple(sorted(met)))


_NAMED = re.compile(r"(?<=\s)(?<![.!?:;]\s)([A-Z][a-z][\w-]*)")
_WORD = re.compile(r"[\w-]+")
# a question whose subject is a name: "Can Bruno come along on the hike?", "Does Kasia need a visa?" (someone or a
# pet of the asker's, when the user's facts hold the name)
# a name that owns the subject ("Will Sarah's wedding have vegan options?") is not whom the question is for: the
# asker eats at Sarah's wedding
_NAME_ASKED = re.compile(r"^\W*(?i:can|could|should|would|will|does|did|is|has|may|might|must)\s+([A-Z][a-z][\w-]*)\b(?!')")
# a turn told of a name it opens with: "Sigge has been scratching his ears a lot.", "bess is limping on her back
# leg" (someone or a pet of the asker's when the facts give that name; item 57)
_NAME_OPENS = re.compile(r"^\W*([A-Za-z][a-z][\w-]*)\s+(?:is|was|has|had|keeps|kept|seems|looks|won't|can't|isn't|"
                         r"hasn't|wasn't|didn't|doesn't|got|ate|threw|just|started|stopped|needs|wants)\b")
MOST_NAMED = 2
"""A name the question uses opens the facts that hold it when at most this many do: "Can Rosie eat grapes?" opens
"User has a Labrador called Rosie."; a name in every fact (a speaker's) says nothing about which matters."""


def _gift_kin(question: str) -> frozenset[str]:
    """The kin word of a gift's receiver ("a good present for my brother" -> ``{"brother"}``): the few facts naming
    them say their age and tastes. A name is among :func:`named_words` already."""
    who = gift_for(question)
    return frozenset((who,)) if who is not None and who.islower() else frozenset()


def named_words(question: str) -> frozenset[str]:
    """Capitalised words past a sentence's first that may name a person, a pet or a place ("Dash", "Annecy");
    days, months, pronouns and titles are left out."""
    return frozenset(n for n in _NAMED.findall(question) if not is_not_a_name(n))


_DAY_IN_QUESTION = re.compile(r"\b(" + "|".join(_WEEKDAYS) + r")s?\b", re.IGNORECASE)
_MONTH_IN_QUESTION = re.compile(rf"(?<=\s)({ANY_MONTH_TITLED})\b")  # "May", not "may" or a sentence's first word


def named_days(question: str) -> frozenset[str]:
    """The weekdays and months a question names ("the extra Saturday overtime", "a class on Wednesday nights",
    "in May"), lower case: a plan on that day meets what the user does on it."""
    return frozenset(m.lower() for m in (*_DAY_IN_QUESTION.findall(question), *_MONTH_IN_QUESTION.findall(question)))


@functools.lru_cache(maxsize=64)
def _day_re(day: str) -> re.Pattern[str]:
    if day in _WEEKDAYS:
        return re.compile(rf"\b{day}s?\b", re.IGNORECASE)
    return re.compile(rf"\b{day.capitalize()}\b")


# a span of the week: "Tuesday to Saturday", "from Friday sunset to Saturday sunset", "Monday through Thursday"
_DAY_SPAN = re.compile(rf"\b({_DAY_ALT})s?(?:\s+\w+)?\s+(?:to|through|till|until|thru)\s+({_DAY_ALT})s?\b", re.IGNORECASE)
_WEEKDAYS_WORD = re.compile(r"\bweekdays\b", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def _spanned(text: str) -> frozenset[str]:
    """The weekdays a fact covers without naming them: those inside a span ("Tuesday to Saturday" covers Wednesday)
    and Monday to Friday for "weekdays"."""
    out: set[str] = set(_WEEKDAYS[:5]) if _WEEKDAYS_WORD.search(text) else set()
    for first, last in _DAY_SPAN.findall(text):
        i, j = _WEEKDAYS.index(first.lower()), _WEEKDAYS.index(last.lower())
        out.update(_WEEKDAYS[(i + k) % 7] for k in range((j - i) % 7 + 1))
    return frozenset(out)


def day_rows(days: frozenset[str], facts: Sequence[str]) -> tuple[np.ndarray, list[str]]:
    """The facts naming one of ``days`` (bool array: "User's daughter plays netball on Saturday mornings." for a
    question about Saturday), or covering a weekday inside a span or as "weekdays" ("shifts are Tuesday to
    Saturday" for a question about Wednesday), for each day named by at most :data:`MOST_NAMED` facts, and those
    days."""
    holding: dict[str, list[int]] = {d: [i for i, text in enumerate(facts)
                                         if _day_re(d).search(text) or d in _spanned(text)] for d in days}
    return _held_by_few(holding, len(facts), MOST_NAMED)


def asks_about_named(question: str, facts: Callable[[], Sequence[str]]) -> bool:
    """Whether the question's subject is a name the user's facts hold ("Can Bruno come along on the hike?" with
    "User has a Labrador called Bruno."): asked in a chat, it is about the asker's own people or pets. ``facts()``
    is called only when the question starts so."""
    m = _NAME_ASKED.match(question)
    if m is not None and not is_not_a_name(m.group(1)):
        name = m.group(1)
        return any(name in text and name in _WORD.findall(text) for text in facts())
    m = _NAME_OPENS.match(question)
    if m is None or is_not_a_name(m.group(1)) or not _may_be_typed_name(m.group(1)):
        return False
    name = m.group(1).lower()  # "bess is limping": a name the facts give, typed in any case
    return any(name in text.lower() and name in given_names(text) for text in facts())


def named_rows(names: frozenset[str], facts: Sequence[str],
               typed: frozenset[str] = frozenset()) -> tuple[np.ndarray, list[str]]:
    """The facts holding one of ``names`` as a word (bool array), or giving one of ``typed`` (lower case words the
    asker may have typed a name as) as a name (:func:`given_names`), for each name held by at most
    :data:`MOST_NAMED` facts, and those names."""
    if typed:
        # only a name some fact of the pool gives can be one the asker typed (read once per pool)
        typed = typed & _pool_given_names(tuple(facts))
    holding: dict[str, list[int]] = {n: [] for n in names | typed}
    if not holding:
        return np.zeros(len(facts), dtype=bool), []
    for i, text in enumerate(facts):
        if any(n in text for n in names):  # a substring test first: most facts hold no name of the question
            for w in names.intersection(_WORD.findall(text)):
                holding[w].append(i)
        if typed and any(t in text.lower() for t in typed):
            for w in typed.intersection(given_names(text)):
                holding[w].append(i)
    return _held_by_few(holding, len(facts), MOST_NAMED)


@functools.lru_cache(maxsize=16)
def _pool_given_names(facts: tuple[str, ...]) -> frozenset[str]:
    """The names the facts of a pool give (:func:`given_names`), for the few pools recalls read in turn."""
    return frozenset().union(*map(given_names, facts))


_CAPITALISED_WORD = re.compile(r"\b([A-Z][a-z][\w-]*)")
_LAST_WORD = re.compile(r"([A-Za-z]+)\W*$")
# words before a capitalised word that make it a place's, a title's or a kind's rather than a given name ("lives in
# Aberdeen", "the Bell Centre", "a Southern Baptist", "every Obon", "her Methodist church")
_NOT_BEFORE_A_NAME = frozenset("""
    the a an in at on of to for from by with near into onto off across around through about over under via
    his her my our their its your every each this that these those some any no per than as
    """.split())


@functools.lru_cache(maxsize=8192)
def given_names(fact: str) -> frozenset[str]:
    """The names a fact gives someone or a pet (lower case): a capitalised word past the fact's first that follows a
    lower case word other than an article, a preposition or a possessive ("daughter Kirsty", "a Labrador called
    Mylo", "greyhounds, Rocket and Bess"), or a title ("give Herr Huber his insulin": Huber, not Herr), not a place
    ("lives in Aberdeen") nor a kind ("a Southern Baptist").

    >>> sorted(given_names("User lives with two retired greyhounds, Rocket and Bess, in Aberdeen."))
    ['bess', 'rocket']
    """
    out = set()
    for m in _CAPITALISED_WORD.finditer(fact):
        before = _LAST_WORD.search(fact, 0, m.start())
        if m.start() == 0 or before is None:
            continue
        if not before.group(1).islower() and before.group(1).casefold() not in TITLES:  # "Herr Huber": Huber's
            continue
        if before.group(1) in _NOT_BEFORE_A_NAME or is_not_a_name(m.group(1)):
            continue
        out.add(m.group(1).lower())
    return frozenset(out)


_LOWER_WORD = re.compile(r"(?<![\w'-])([a-z][a-z-]{2,})(?![\w'-])")


def typed_words(question: str) -> frozenset[str]:
    """The words of a question that may be a name typed in lower case and are no ordinary word ("can I still walk mylo
    every morning", "bess is limping"; not "rocky road cake"), and its first word: :func:`named_words` reads only the capitalised words past a sentence's first,
    so an asker who types in lower case, or opens with the name, named no one. Read only against the names the
    facts give (:func:`given_names`), never as a word the fact merely holds."""
    first = re.match(r"\W*([A-Za-z][a-z][\w-]*)\b(?!['\u2019]s\b)", question)
    opening = _OPENING_WORD.match(question)
    # an ordinary word typed in lower case is that word ("rocky road cake", "how long", "green bean"), whichever pet
    # or relative a fact names with it; only a word no vocabulary holds ("walk mylo") may be a name typed so
    words = {w for w in _LOWER_WORD.findall(question, opening.end() if opening is not None else 0)
             if not is_not_a_name(w) and not is_ordinary_word(w)}
    # not an owner ("Angel's class has a trip, can we afford it?"): the question is for the asker, as with _NAME_ASKED
    if first is not None and not is_not_a_name(first.group(1)) and _may_be_typed_name(first.group(1)):
        words.add(first.group(1).lower())
    return frozenset(words)


_OPENING_WORD = re.compile(r"\W*[\w'\u2019-]+")


def _may_be_typed_name(first: str) -> bool:
    """Whether a turn's first word may be a name: capitalised ("Sigge has been scratching"), or in lower case no
    ordinary word ("mylo has been limping"; not "max out my credit card", "ginger is supposed to help")."""
    return first[0].isupper() or not is_ordinary_word(first)


def _held_by_few(holding: dict[str, list[int]], n: int, most: int) -> tuple[np.ndarray, list[str]]:
    """Of ``holding`` (a name or slot -> the positions of the facts holding it, among ``n``), the facts of each one
    held by at most ``most`` facts (bool array), and those names or slots: one that many facts hold says nothing
    about which matters."""
    rows = np.zeros(n, dtype=bool)
    held = sorted(k for k, at in holding.items() if 0 < len(at) <= most)
    for k in held:
        rows[holding[k]] = True
    return rows, held


MOST_OF_SLOT = 2
"""A question about a slot of someone's life opens at most this many facts of that slot: "Where do I work?" opens
"User works at Meta." (MiniLM: cosine 0.15); of a slot that more facts fill, the best ranked."""


_MODAL = r"(?:should|shall|could|can|would|will|might|must|may)"
_ABOUT_ME = re.compile(
    r"^\W*(?:(?:where|what|who|which|when|how(?:\s+(?:old|long|many|much|far))?)"
    r"(?:'s|\s+(?:do|does|did|am|is|are|was|were|have|has|had))?\s+"
    rf"(?:(?!{_MODAL}\b)[\w']+\s+){{0,3}}?(?:i|my|me)\b|(?:do|did|am|was|have|had)\s+i\b|(?:is|are|was|were)\s+my\b)",
    re.IGNORECASE,
)


_MY_THING = re.compile(r"\b(?:my|our)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+", re.IGNORECASE)
# the asker's work named by what it is to them rather than by the word "job": "my new role", "the new job", "my
# first week at the new position", "my boss"; a team, a company or an office only when new ("my team" is as often
# the one the asker supports), and no "role model" or "boss fight"
_MY_WORK = re.compile(
    r"\b(?:(?:my|our)\s+(?:(?:new|current|first)\s+)?(?:job|role|position|boss|line\s+manager|manager|"
    r"employer|workplace|colleagues|co-?workers|coworkers)|"
    r"(?:my|our|the)\s+new\s+(?:job|role|position|team|company|office|boss|manager|employer|workplace))\b"
    r"(?!\s+(?:model|fight|battle|level)s?\b)"
    # a working day of the asker's to plan is mostly the job's hours: "Help me plan my Monday", "plan my workday"
    rf"|\bplan\s+(?:out\s+)?(?:my|our)\s+(?:{WORKDAY_STEMS})day\b|\bplan\s+(?:out\s+)?(?:my|our)\s+work(?:ing\s+)?day\b",
    re.IGNORECASE)
# the asker's own place, used rather than named: "the weather in my city", "events in my town", "near me", "the
# weather where I live", "Do I need a licence to fish here?"
_MY_PLACE = re.compile(r"\b(?:my|our)\s+(?:city|town|village|neighbou?rhood|area|local\s+area|place|hometown|home\s+town|"
                       r"suburb|street|region)\b|\bnear\s+(?:me|us)\b|"
                       # "the weather where I live", "a day trip from where we're based", "the town I live in"
                       r"\bwhere\s+(?:i|we)(?:'m|\s+am|'re|\s+are)?\s+(?:live|living|staying|based)\b|"
                       r"\b(?:city|town|village|area|country|place)\s+(?:i|we)\s+live\s+in\b|"
                       r"\b(?:around\s+|over\s+|out\s+)?here\b|\blocally\b|\b(?:close\s+to|near)\s+(?:my\s+|our\s+)?home\b|"
                       # the way to work or a drive starts at home: "how do I get to work?", "how long is the drive?"
                       r"\bget\s+to\s+(?:work|the\s+office)\b|\bmy\s+commute\b|\bcommute\s+to\s+work\b|"
                       r"\bhow\s+long\s+(?:is|will\s+be|would\s+be)\s+the\s+drive\b|"
                       # what to plant or sow now depends on where: the season and the climate
                       r"\b(?:plant|sow|grow)\w*\s+(?:\w+\s+){0,3}?now\b|\bthis\s+time\s+of\s+(?:the\s+)?year\b|"
                       rf"{FROM_HOME.pattern}", re.IGNORECASE)


def recalls_the_asker(question: str) -> bool:
    """Whether the question asks about the asker's own things or doings ("What instrument do I play?", "Where's my
    passport?", "How old am I?"), not what they should do ("What should I cook?" is not).

    >>> recalls_the_asker("What instrument do I play?"), recalls_the_asker("What should I cook?")
    (True, False)
    """
    return _ABOUT_ME.match(question.replace("\u2019", "'")) is not None


# what marks a question of what to do among those about the asker's own things: a modal ("What time should I
# leave?"), a need or a plan ("Do I need a visa?", "What do I need to pack?"), a choice ("What's better for my
# breakfast, ...?"), a case to weigh ("What if I took the train?", "What about my pension then?", "if I save 3,000
# a month"), the best way ("the best time to plant"), "how do I ...", "what do I do / say / cook", tonight's plan
_WHAT_TO_DO = re.compile(r"\b(?:should|shall|could|can|would|might|must|ought)\b|\bneed\b|\b(?:have|want|going)\s+to\b|"
                         r"\b(?:better|best|right|good)\s+(?:way|time|place|for|option)\b|\bbetter\b|"
                         r"\bwhat\s+if\b|\b(?:what|how)\s+about\b|\bif\s+(?:i|we)\b|\btonight\b|"
                         r"\bhow\s+(?:do|does)\s+(?:i|we)\b|\bwhat\s+(?:do|does)\s+(?:i|we)\s+(?:do|say|tell|cook|make|wear|bring)\b",
                         re.IGNORECASE)
# a question that sends the memory back to what was said: "Can you remind me what color ...", "in our previous chat"
_SENDS_BACK = re.compile(r"\bremind\s+me\b|\b(?:previous|earlier|last)\s+(?:conversation|chat)\b|"
                         r"\bwe\s+(?:discussed|talked\s+about)\b", re.IGNORECASE)


# what the asker does to a thing of theirs, asked in the present: "When do I plant my tomatoes?", "What do I feed my
# dog?" ask what to do (the season, the dog's stomach), unlike "Where do I keep my passport?", "What do I call my
# boss?" or a habit told before ("What do I usually have for breakfast?", "When do I next see my GP?") (rev37c)
_DOES_TO_MINE = re.compile(r"\b(?:what|when|where|how)\s+do\s+(?:i|we)\s+(?!(?:have|own|keep|know|call|like|love|prefer|see|"
                           r"meet|visit|live|work|play|attend|go|get|spend|pay|usually|normally|often|always|typically|"
                           r"ever|still|next|last|first)\b)[a-z]+\s+(?:my|our)\b(?!.*\b(?:usually|normally|next|last|every)\b)",
                           re.IGNORECASE)


def asks_to_recall(question: str) -> bool:
    """Whether the question asks the memory to report the asker's own thing or doing ("What is the name of my
    hamster?", "How often do I go to yoga?", "How much have I spent on my bike this year?", "Can you remind me what
    we said about ...?"), with no word of what to do in it (a modal, a need, "the best way", "how do I"): the
    answer is a told fact the cosine finds, not the asker's situation in a domain (docs/ranking.md item 52).

    >>> asks_to_recall("How often do I attend yoga classes?"), asks_to_recall("How do I keep my tomatoes alive?")
    (True, False)
    >>> asks_to_recall("When do I plant my tomatoes?"), asks_to_recall("Where do I keep my passport?")
    (False, True)
    """
    text = question.replace("\u2019", "'")
    return _SENDS_BACK.search(text) is not None or (recalls_the_asker(text) and _WHAT_TO_DO.search(text) is None
                                                    and _DOES_TO_MINE.search(text) is None)


def goes_on(turn: str) -> bool:
    """Whether a user's turn goes on from the turns before it, so that it shares their concerns: it says so by its
    words ("How about the satay?", "Pad thai or green curry?", "...there?"), or it is a short turn or a request for
    advice ("What starter would you suggest?" after "I'm planning a dinner party") that does not ask about the
    asker's own things ("What instrument do I play?" after "Can I eat satay?" is a question of its own).

    >>> goes_on("How about the satay?"), goes_on("What starter would you suggest?"), goes_on("What instrument do I play?")
    (True, True, False)
    """
    return (goes_on_from_the_conversation(turn) or points_back(turn)
            or (not recalls_the_asker(turn) and (leans_on_the_conversation(turn) or asks_for_advice(turn))))


def thread_of(read: Sequence[str]) -> list[str]:
    """The turns of ``read`` (oldest first) a follow-up goes on from, newest first: the newest, and older ones
    while the turn after them :func:`goes_on` from them, up to the turn that opened the topic. "And a main course?"
    after "I'm planning a dinner party." and "What starter would you suggest?" goes on from both.

    >>> thread_of(["I moved to Porto.", "I'm at a Thai place.", "What should I order?"])
    ['What should I order?', "I'm at a Thai place."]
    """
    out: list[str] = []
    for turn in reversed(read):
        out.append(turn)
        if not goes_on(turn):
            break
    return out


# "What medication does my dad take?", "Is my wife allergic to anything?", "What is Bob allergic to?": the question's
# subject is someone else; a name must be followed by what a person is or does ("Does Pilates help?" is no one).
_ASKED_ABOUT = re.compile(
    r"^\W*(?:(?:what|where|who|which|when|how(?:\s+(?:much|many|old|long|often))?)(?:\s+[\w'-]+){0,2}?"
    r"\s+(?:does|did|is|was|has|had|can|should|will|do|are|were|have)\s+|"
    r"(?:does|did|is|was|has|can|should|will|do|are|were|have)\s+)"
    # "my brother", "my brothers", "the grandsons": one of the asker's people or several
    rf"(?:(?:my|our|the)\s+{placed()}(?P<who>{PERSON}s?)\b(?!')"
    r"|(?P<name>(?-i:[A-Z][a-z]+))\s+(?=(?:allergic|intolerant|take|takes|taking|live|lives|living|work|works|"
    r"working|eat|eats|drink|drinks|like|likes|love|loves|hate|hates|study|studies|do|play|plays|need|needs)\b))",
    re.IGNORECASE,
)
_ASKER_TOO = re.compile(r"\b(?:i|me|myself|we|us)\b", re.IGNORECASE)  # "What can my wife and I cook?"


def asked_about(question: str) -> str | None:
    """The person a question asks about when it is someone else than the asker ("What medication does my dad
    take?" -> ``"dad"``, "What is Bob allergic to?" -> ``"Bob"``), else ``None`` ("What can my wife and I cook?"
    asks for both; "What's my sister's job?" is read by :func:`asked_slots`).

    >>> asked_about("Where does my brother live?"), asked_about("Where do I live?")
    ('brother', None)
    """
    text = question.replace("\u2019", "'")
    m = _ASKED_ABOUT.match(text)
    if m is None or _ASKER_TOO.search(text[m.end():]) is not None:
        return None
    return m.group("who") or m.group("name")


_GIFT_FOR = re.compile(
    r"\b(?:gifts?|presents?)\b(?:\s+ideas?)?\s+(?:for|(?:should|could|can|shall|do)\s+(?:i|we)\s+(?:get|buy|give)(?:\s+for)?)"
    # the receiver, not the word after it: "a present for my mom for Mother's Day" is for "mom"
    r"\s+(?:(?:my|our|the)\s+(?:[\w-]+\s+)?(?!(?:for|to|on|at|in|this|next|and|or|who|that|with|because|but|so)\b)"
    r"(?P<who>[\w-]+)|(?P<name>(?-i:[A-Z][a-z]+))\b)"
    # a gift asked for without the word: "What should I get the grandsons for Christmas?", "what to buy my sister
    # for her birthday"
    rf"|\b(?:get|buy|give)\s+(?:my|our|the)\s+(?:[\w-]+\s+)?(?P<kin>{PERSON}s?)\s+for\s+(?:(?:her|his|their|the)\s+)?"
    r"(?:christmas|xmas|(?:\w+(?:st|nd|rd|th)\s+)?birthday|bday|anniversary|graduation|mother's\s+day|"
    r"father's\s+day|valentine's(?:\s+day)?|eid|diwali|hanukkah|the\s+holidays)\b",
    re.IGNORECASE,
)


def gift_for(question: str) -> str | None:
    """The person a request for a gift is for ("What's a good gift for my grandson?" -> ``"grandson"``, "Any
    present ideas for Sam?" -> ``"Sam"``), else ``None``: the asker's allergies and medicines do not bear on it.

    >>> gift_for("What's a good gift for my grandson? He loves dinosaurs."), gift_for("Any gift ideas?")
    ('grandson', None)
    >>> gift_for("What gift should I get Kuba?"), gift_for("What should I get the grandsons for Christmas?")
    ('Kuba', 'grandsons')
    >>> gift_for("What gift should I get for my sister?")
    'sister'
    """
    m = _GIFT_FOR.search(question.replace("\u2019", "'"))
    return None if m is None else (m.group("who") or m.group("name") or m.group("kin"))


# "What should I feed him?", "What can I feed Rex?", "feeding my son tonight": food for someone else, a pet, a
# child, a sourdough starter ("it"); not "feed myself", "feed us", nor a meal the asker shares: "the family", "my
# family of four", "the two of us", "the kids" (a family dinner, as "cook for the kids" is: rev39b finding 5). The
# shared meal's words are refused at each word of the fed one, and a person's word is never the adjective before it
# ("feed my baby solids": the baby).
_SHARED = (r"(?:for|to|on|at|in|of|this|next|and|or|with|tonight|today|tomorrow|family|families|household|everyone|"
           r"everybody|crowd|guests?|kids|children|us)(?![\w-])")
_FED_TO = re.compile(
    r"\bfeed(?:ing)?\s+(?:(?P<pronoun>him|her|them|it)\b"
    r"|(?:my|our|the|his|her|their)\s+(?![\w-]+\s+of\s+(?:us|we|them)\b)"
    rf"(?:(?!{_SHARED}|(?:baby|babies|child|son|sons|daughters?|toddlers?|dogs?|cats?|puppy|puppies|kittens?|"
    r"husband|wife|partner|boy|girl|boys|girls)\b)[\w-]+\s+)?"
    rf"(?!{_SHARED})(?P<who>[\w-]+)\b"
    r"|(?P<name>(?-i:[A-Z][a-z]+))\b)"
    r"(?!\s+(?:and|&)\s+(?:me|myself|i|us|ourselves)\b)",
    re.IGNORECASE,
)


def fed_to(question: str) -> str | None:
    """Whom a question asks what to feed when it is not the asker ("What should I feed him?" -> ``"him"``, "What
    can I feed Rex?" -> ``"Rex"``), else ``None``: the asker's own allergies and medicines do not bear on a dog's
    dinner or a child's, as they do not on a gift (:func:`gift_for`).

    >>> fed_to("What should I feed him?"), fed_to("What should I feed my son for lunch?"), fed_to("What can I eat?")
    ('him', 'son', None)
    >>> fed_to("What should I feed the kids and me?"), fed_to("How do I feed the family on a budget?")
    (None, None)
    """
    m = _FED_TO.search(question.replace("\u2019", "'"))
    return None if m is None else (m.group("pronoun") or m.group("who") or m.group("name"))


# The asker in a question: "Can Adam and I share pancakes?", "Should we take Miso?", "my office party".
_ASKER = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|us|our|ours|ourselves)\b", re.IGNORECASE)
# The one a question is for, besides its subject ("Can Adam have pancakes?", :data:`_NAME_ASKED`): "Is it ok for Ruben
# to have wine?", "What brand of food would suit Miso?", "Any snacks for Adam?"; not an owner ("Felipe's family").
_FOR_NAME = re.compile(r"\b(?:for|suit|suits|fit|fits)\s+((?-i:[A-Z][a-z][\w-]*))(?:\s+to\b|(?=\W*$))")
# "User's name is Maya.", "User is called Maya": the asker's own name
_OWN_NAME = re.compile(r"^\s*User(?:'s\s+(?:first\s+|full\s+)?name\s+is|\s+is\s+called|\s+goes\s+by)\b", re.IGNORECASE)


def one_of_theirs(question: str, facts: Sequence[str]) -> str | None:
    """The asker's person or pet a question is for when it does not speak of the asker at all: its subject ("Can
    Adam have pancakes?" with "User's son Adam is allergic to eggs." -> ``"Adam"``) or the one it is for ("What
    brand of food would suit Miso?" with "User's cat Miso is fussy." -> ``"Miso"``); else ``None`` ("Can Adam and I
    share pancakes?", "a dessert when Felipe's family comes", "Will Sarah's wedding have vegan options?", a name no fact holds, the asker's own name). The asker's own allergies and medicines do not bear on it, as they do not on
    what to feed someone (:func:`fed_to`).

    >>> one_of_theirs("Can Adam have pancakes?", ["User's son Adam is allergic to eggs.", "User has asthma."])
    'Adam'
    >>> one_of_theirs("Can I have pancakes?", ["User's son Adam is allergic to eggs."]) is None
    True
    >>> one_of_theirs("What's the food like in Japan?", ["User is going to Japan in March."]) is None
    True
    """
    text = question.replace("\u2019", "'")
    if _ASKER.search(text) is not None:
        return None
    m = _NAME_ASKED.match(text)
    names = ([m.group(1)] if m is not None else []) + [n.group(1) for n in _FOR_NAME.finditer(text)]
    for name in dict.fromkeys(n for n in names if not is_not_a_name(n)):
        holding = [f for f in facts if name in f and name in _WORD.findall(f)]
        if any(_OWN_NAME.match(f) for f in holding):
            continue
        # held as someone of the asker's ("User's son Adam", "a cat called Miso"), not as a place ("User is going
        # to Japan.": "What's the food like in Japan?" is the asker's trip)
        theirs = re.compile(rf"\bUser's\s+(?:[\w-]+\s+){{0,2}}?{re.escape(name)}\b|\b(?:called|named)\s+{re.escape(name)}\b")
        if any(theirs.search(f) for f in holding):
            return name
    return None


def not_about_them(who: str, facts: Sequence[str]) -> np.ndarray:
    """For each fact, whether it is the asker's own (written about "User" itself, not "User's ...") and does not
    name ``who`` (:func:`asked_about`): a question about the asker's dad is not answered by the asker's own
    medication, whatever its cosine (bool array)."""
    word = re.compile(rf"\b{re.escape(who)}\b", re.IGNORECASE)
    return np.fromiter((bool(_USER_ITSELF.match(f)) and word.search(f) is None for f in facts), dtype=bool,
                       count=len(facts))


_USER_ITSELF = re.compile(r"^\s*User\b(?!['\u2019]s\b)")
# the asker's own fact, "User ..." or in the asker's words ("I play the guitar."), not "User's sister ..."
_THE_ASKERS_OWN = re.compile(r"^\W*(?:User\b(?!['\u2019]s\b)|I\b)")


def is_the_askers_own(fact: str) -> bool:
    """Whether a fact is about the asker themself ("User is vegetarian.", "I'm allergic to cashews."), not about
    someone or a pet of theirs: "User's son Leo is allergic to eggs.", "User has a beagle called Rusty who has
    diabetes." (a name the fact gives, :func:`given_names`), "User has two cats." (a pet's fact)."""
    return (_THE_ASKERS_OWN.match(fact) is not None and not given_names(fact)
            and "pets" not in fact_concerns(fact))


def asks_to_be_reminded(question: str) -> bool:
    """Whether the question asks the assistant to recall a slot of the asker's ("Where do I live?", "What's my
    job?", "Do I have a car?"): it names its need itself, so in a chat it is read on its own words, not with the
    turns before it ("What's my job?" after "Is a ham sandwich OK for me?" is not about food).

    >>> asks_to_be_reminded("What's my job?"), asks_to_be_reminded("What do I need to bring there?")
    (True, False)
    """
    return recalls_the_asker(question) and bool(slot_keys(question))


def asked_slots(question: str) -> frozenset[str]:
    """The slot keys (:func:`memori_core.slots.slot_keys`: ``"user:job"``) a question asks the assistant to recall
    about the asker: "Where do I work?", "What do I do for a living?", "What's my sister's job?" (``"sister:job"``),
    "Do I have a car?"; or of the asker's own thing it names ("Any tips for my job?", "My car makes a weird noise,
    what should I do?"); empty for a request for advice that names none ("What should I cook?", "Can you suggest a
    wine?"), where the other signals judge, and for a statement. A question that uses the asker's place ("the
    weather in my city", "events near me") asks for where the asker lives.

    >>> sorted(asked_slots("Where do I work?")), sorted(asked_slots("What should I drink tonight?"))
    (['user:job'], [])
    """
    text = question.replace("\u2019", "'")
    if _ABOUT_ME.match(text) is not None:
        keys = slot_keys(question)
        who = asked_about(text)
        if who is not None and not who[:1].isupper():
            # "Where does my brother live?" asks for the brother's home, not the asker's
            whose = " ".join(who.casefold().split())
            keys = frozenset(f"{whose}:{k.split(':', 1)[1]}" if k.startswith("user:") and k != "user:relationship"
                             else k for k in keys)
    elif not asks_something(text):
        return frozenset()
    else:
        # "Any tips for my job?", "My car makes a weird noise, what should I do?": the user's own one, named
        keys = frozenset(k for m in _MY_THING.finditer(text) for k in slot_keys(m.group()) if k.startswith("user:"))
    if _MY_WORK.search(text):
        keys |= {"user:job"}
    # "What's the weather like in my city today?", "How far is the airport from my place?": where the user lives
    return keys | {"user:residence"} if _MY_PLACE.search(text) or asks_the_sky_here(text) else keys


# a fact that only says where the home is: "I live in Philadelphia.", "User is moving to Hawaii when she retires."
_ONLY_LOCATES = re.compile(r"^\W*(?:User|I)(?:'m|\s+am|\s+is)?\s+(?:\w+\s+)?(?:live[sd]?|living|moving|moved|based|settled|"
                           r"relocating)\s+(?:\w+\s+){0,2}?(?:in|near|to|on|at|by|outside)\b(?![^.]*\b(?:home|house|flat|"
                           r"apartment|room|garden|balcony|decor|furni\w*)\b)", re.IGNORECASE)


def for_the_home(question: str) -> bool:
    """Whether the question asks for things to be suggested for the asker's home or a room of it ("Can you suggest
    a rug for my living room?", "What are some flooring options for my home?"), not about the home as a place
    ("walks near my home", :data:`_MY_PLACE`): the home's kind and what the asker keeps out of it bear on the
    answer, the town it is in does not (docs/ranking.md item 58).

    >>> for_the_home("What are some cozy rug options for my living room?"), for_the_home("Any walks near my home?")
    (True, False)
    """
    return (asks_for_suggestions(question) and _MY_PLACE.search(question) is None
            and "user:residence" in asked_slots(question))


def only_locates(fact: str) -> bool:
    """Whether a fact only says where the asker lives or will live ("I live in Philadelphia.", "User is moving to
    Hawaii when she retires."), with nothing of the home itself ("I have a huge house.", "I keep leather out of my
    home.").

    >>> only_locates("I live in philaelphia."), only_locates("I avoid using synthetic materials in my home.")
    (True, False)
    """
    return _ONLY_LOCATES.search(fact) is not None


def slot_rows(keys: frozenset[str], facts: Sequence[str],
              rank: np.ndarray | None = None,
              unless: Callable[[str], bool] | None = None) -> tuple[np.ndarray, list[str]]:
    """The facts holding one of the slot ``keys`` (bool array), for each key held by at most :data:`MOST_OF_SLOT`
    facts, and those keys. With ``rank`` (the facts' rank scores), a key more facts hold opens its
    :data:`MOST_OF_SLOT` best ranked: "Am I married?" after months of facts about a partner (his birthday, his job,
    a trip together) still gets the two that read most like the question. A fact for which ``unless`` holds is
    not read."""
    holding: dict[str, list[int]] = {k: [] for k in keys}
    for i, text in enumerate(facts):
        if unless is not None and unless(text):
            continue
        for k in slot_keys(text) & keys:
            holding[k].append(i)
    if rank is not None:
        holding = {k: sorted(at, key=lambda i: -rank[i])[:MOST_OF_SLOT] for k, at in holding.items()}
    return _held_by_few(holding, len(facts), MOST_OF_SLOT)
