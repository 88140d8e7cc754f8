"""A follow-up's pronoun read as the one the turn before it named: "What should I feed him?" after "We got a puppy, a
beagle named Max." is asked of Max; "What food should I be careful with over there?" after "I'm going to Japan in
March." is asked of Japan.

Blending the turns into the query (:mod:`.conversation`) dilutes every cosine, and a fact the turn before told
word for word is read on the question's own cosine (:func:`.conversation.told_in`), which a bare "him" or "there"
shares with nothing: the pet and the trip were lost. Recall reads such a question as if it named its referent,
the way the user meant it. Only a referent the newest turn names by a capitalised word, and only one: a person or
a pet ("named Max", "called Bolt", "my friend Jo") for "he", "him", "his", "she", "her"; a place ("to Japan", "in
Lisbon") for "there". Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..slots import NAME
from .names import NOT_A_NAME, OPENERS, is_not_a_name

__all__ = ["REFERENT_SHARE", "points_to_something", "told_by", "with_referent"]

# A question's opening word before its verb ("When is Carol coming to stay?") is read as a name here, so that a turn
# opening with one names no single referent. Read as no name, "him" after "Who was the 16th president of the United
# States?" became "the United States", and app-memory dev's all-needed hit fell from 0.845 to 0.841.
_NOT_A_REFERENT = NOT_A_NAME - OPENERS
_CAPITALISED = re.compile(rf"(?<![\w']){NAME}(?:\s+{NAME})?")
# What a place is named after: "to Japan", "in Lisbon", "visiting Rome".
_PLACE_BEFORE = re.compile(r"\b(?:to|in|at|from|near|visit|visiting|around|across)\s+$", re.IGNORECASE)
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)$")
# A name that opens a sentence is told by the verb after it, or by another name: "Pixel has been sneezing", "Max is
# sick", "Tom and Leo are coming".
_SUBJECT_VERB = re.compile(r"^\s+(?:and(?=\s+(?-i:[A-Z]))|is|was|has|had|keeps|kept|seems|won't|doesn't|didn't|can't|just|loves|hates|"
                           r"got|gets|threw|ate|needs|started|turned|turns)\b", re.IGNORECASE)
# Where "there" is gone to: "How do I get there?" -> "to Japan".
_GOES = re.compile(r"\b(?:get|go|going|fly|flying|travel|travelling|traveling|drive|driving|move|moving|walk|take)\s+$",
                   re.IGNORECASE)
_PERSON = re.compile(r"\b(?P<word>he|him|his|she|her)\b", re.IGNORECASE)
# "over there", "out there", or "there" ending the question ("What should I eat there?"), not "Is there ...?"
_THERE = re.compile(r"\b(?:over|out|down|up)\s+there\b|(?<!\bis\s)(?<!\bare\s)\bthere(?=\W*$)", re.IGNORECASE)
# After "her", a word that shows it is no possessive: "What should I get her for her birthday?"
_NOT_OWNED = re.compile(r"^(?:\s*[^\w\s]|\s*$|\s+(?:to|for|with|a|an|the|some|any|on|in|at|about|up|out|off|back|again|now|"
                        r"today|tonight|tomorrow|more|less|every|each|once|twice|or|and|if|when)\b)", re.IGNORECASE)


def _names(turn: str, not_names: frozenset[str] = _NOT_A_REFERENT) -> tuple[list[str], list[str]]:
    """The capitalised names ``turn`` holds, not at a sentence's start: those said as places (after "to", "in"...)
    and the others, each once (``not_names``: the words that are none)."""
    places: dict[str, None] = {}
    others: dict[str, None] = {}
    for m in _CAPITALISED.finditer(turn):
        name, before = m.group(), turn[: m.start()]
        if is_not_a_name(name, not_names) or is_not_a_name(name.split()[0], not_names):
            continue
        if _SENTENCE_START.search(before) and not _SUBJECT_VERB.match(turn[m.end():]):
            continue  # "Went to the park" opens a sentence: any word does
        (places if _PLACE_BEFORE.search(before) else others)[name] = None
    return list(places), list(others)


def with_referent(question: str, read: Sequence[str]) -> str:
    """``question`` with its "him", "her", "he", "she" or "there" read as the one person or place the newest of the
    ``read`` turns (oldest first) names, when it names exactly one such; ``question`` as it is otherwise, and when
    it names someone itself.

    >>> with_referent("What food should I be careful with over there?", ["I'm going to Japan in March."])
    'What food should I be careful with in Japan?'
    """
    # the question's own opening word names no one: "Where is she going to sleep?" asks of the one named before
    if not read or _names(f". {question}", NOT_A_NAME)[1]:
        return question
    places, others = _names(read[-1])
    said = question
    if len(others) == 1 and _PERSON.search(said):
        name = others[0]

        def named(m: re.Match[str]) -> str:
            word = m.group("word").lower()
            if word == "his" or (word == "her" and not _NOT_OWNED.match(said[m.end():])):
                return f"{name}'s"
            return name

        said = _PERSON.sub(named, said)
    if len(places) == 1:
        said = _THERE.sub(lambda m: f"{'to' if _GOES.search(said[: m.start()]) else 'in'} {places[0]}", said)
    return said


# A pronoun standing for something named before: "What should I wear to it?", "Is it safe to do it after dinner?"
# ("they" / "them" mostly stand for people not yet named: "Should I tell them I'm vegan?")
_POINTS = re.compile(r"\b(?:it|its|he|him|his|she|her|their|there)\b", re.IGNORECASE)
# ... less the words that stand for nothing: an existential "there" ("Is there a good pharmacy near me?", "there's")
# and the "it" of the weather or the time ("Do you think it will rain tomorrow?", "What time is it?")
_STANDS_FOR_NOTHING = re.compile(
    r"\b(?:is|are|was|were|will|would|could|might|isn't|aren't|wasn't|weren't)\s+there\b"
    r"|\bthere(?:'s|'re|'ll|\s+(?:is|are|was|were|will|would|might|could|must|should|seems?|has|have|isn't|aren't))\b"
    r"|\bit(?='s\b|\s)(?=(?:'s)?(?:\s+\w+){0,3}?\s+(?:rain\w*|snow\w*|sunny|cloudy|windy|stormy|hot|cold|warm|chilly|"
    r"freezing|humid|foggy|icy|hail\w*|thunder\w*|pouring|drizzl\w*)\b)"
    r"|\bwhat\s+time\s+is\s+it\b|\bit(?:'s|\s+is)\s+(?:\d|noon\b|midnight\b)",
    re.IGNORECASE)
REFERENT_SHARE = 0.75
"""The share of a fact's words (less "User") the turn before must hold for the fact to be what that turn said:
"User started a pottery class on Wednesdays." and "I started a pottery class on Wednesdays." (all), an extractor's
"User attends a pottery class on Wednesdays." (three of four)."""


def points_to_something(question: str) -> bool:
    """Whether ``question`` holds a pronoun ("it", "her", "there"...) that can stand for what the turn before it
    said; not an existential "there" ("Is there a good pharmacy near me?"), the weather's or the time's "it" ("Do
    you think it will rain tomorrow?") or "they" / "them" ("Should I tell them I'm vegan?").

    >>> points_to_something("What should I wear to it?"), points_to_something("What should I wear to a wedding?")
    (True, False)
    """
    return _POINTS.search(_STANDS_FOR_NOTHING.sub(" ", question.replace("\u2019", "'"))) is not None


def told_by(fact_terms: Sequence[str], turn_terms: frozenset[str], ignore: frozenset[str]) -> bool:
    """Whether a turn (its analysed terms) says the fact (its analysed terms, less ``ignore``, such as "user"):
    it holds at least :data:`REFERENT_SHARE` of them. The fact then is what that turn told, which a pronoun in the
    turn after it points to."""
    terms = set(fact_terms) - ignore
    return bool(terms) and len(terms & turn_terms) >= REFERENT_SHARE * len(terms)
