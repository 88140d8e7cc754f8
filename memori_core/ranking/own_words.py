"""A question read on its own words after a conversation: it asks about the world and does not go on from it.

"How long do you boil an egg?" after "I'm trying to eat more protein for my training." asks what any cook would
ask; the diet told before it is no part of its answer. Read with its conversation, the gate's cosine is the larger
of the question's and the conversation's, and the conversation pulls in the facts it was about (issue 20: 31 of 35
off-topic leaks of four app sets were such questions). A turn like that is read on its own words when:

- it is a sentence asking something (:func:`~.intent.reads_as_a_question`);
- it speaks of no one in the first person, is not a request or an opinion asked for the asker, and does not ask
  whether a thing is okay, safe or a good idea (:func:`~.care.for_the_asker`);
- it neither leans on the conversation nor goes on from it (:func:`~.conversation.leans_on_the_conversation`:
  "and", "what about", "it", "that", "there", "them", a short turn or a bare choice;
  :func:`~.conversation.goes_on_from_the_conversation`: "he", "her", "... then?");
- it adds nothing to what was asked before it: no "too", "as well", "also", "either" ("Would melatonin help Ruben
  too?", "Is coconut oil in sunscreen a problem too?");
- it asks no judgement of the case just told: whether a thing would help, or is "ok or not" ("What kind of mouse
  would help?"; "Does camomile tea really help you sleep?" asks of the world and is read on its own words);
- it does not ask what the asker's memory holds: what the asker told (:func:`~.intent.asks_what_was_told`), the way
  to a place named before (:func:`~.intent.asks_the_way_there`), what is left of a debt
  (:func:`~.intent.asks_what_is_left`), or "the user" (:func:`~.intent.speaks_of_the_user`);
- it does not pick among the things of a plan named before by "which ... the ..." ("Which dates does the plan have
  to cover?": the plan is the one just asked for);
- it opens with a question word: a fragment ("quick dinner idea with shrimp?", "rent a car or use the ferries?") is
  a request about the case told, and so is a question ending on a choice after a comma ("What's the cheapest route,
  Emirates through Dubai or Ethiopian through Addis?").

Such a turn is still searched along its conversation (the pool is the same); only the gate reads the question's own
cosine, as it does for a general question and for a turn telling news. Two things keep the conversation in it
(issue 20, gatefix40: "What goes well with tofu?" after "I'm cooking dinner for Sam tonight." needs Sam's peanut
allergy):

- a question whose "the X" names a thing an earlier turn named ("How much notice does the landlord have to give?"
  after "Got a letter from the landlord.") goes on from it and is not read on its own words
  (:func:`names_what_was_told`);
- a fact about someone an earlier turn names (a name, a relation: "Sam is allergic to peanuts.", "User's daughter Ava
  is lactose intolerant." after "Making Ava's lunchbox") keeps the conversation's cosine
  (:func:`about_someone_named`): a plan told for a person is read with what the memory holds of them.

Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .care import for_the_asker, kin_holder, names_holder, outside_holder
from .conversation import goes_on_from_the_conversation, leans_on_the_conversation
from .intent import asks_the_way_there, asks_what_is_left, asks_what_was_told, reads_as_a_question, speaks_of_the_user

__all__ = ["about_someone_named", "adds_to_the_question_before", "asks_a_judgement", "names_what_was_told",
           "read_on_its_own_words"]

_ADDS = re.compile(r"\b(?:too|as\s+well|also|either|aswell)\b", re.IGNORECASE)


def adds_to_the_question_before(turn: str) -> bool:
    """Whether a turn asks the question before it again of one more thing: "too", "as well", "also", "either"
    ("Would melatonin help Ruben too?", "Is the stairmaster ok as well?").

    >>> adds_to_the_question_before("Is coconut oil a problem too?"), adds_to_the_question_before("Why is it hot?")
    (True, False)
    """
    return _ADDS.search(turn.replace("\u2019", "'")) is not None


# whether a thing would help the case just told: "What kind of mouse would help?", "Could a humidifier help with that?"
# ("Does camomile tea really help you sleep?" asks of the world); "ok or not?" of a thing named
_JUDGEMENT = re.compile(r"\b(?:would|will|could|might|may)\s+(?:[\w'-]+\s+){0,4}?help\b|\bok(?:ay)?\s+or\s+not\b",
                        re.IGNORECASE)


def asks_a_judgement(turn: str) -> bool:
    """Whether a turn asks whether a thing would help ("would", "could", "might"), or whether it is "ok or not": a
    judgement of the case the conversation told, not a fact about the world ("Does camomile tea help you sleep?").

    >>> asks_a_judgement("What kind of mouse would help?"), asks_a_judgement("Where does malva pudding come from?")
    (True, False)
    """
    return _JUDGEMENT.search(turn.replace("\u2019", "'")) is not None


# "which dates does the plan have to cover": picks among what a plan, a trip or a list named before holds
_PICKS_FROM_THE_NAMED = re.compile(r"^\W*which\s+(?:[\w'-]+\s+){1,3}?(?:does|do|did|is|are|will|should)\s+the\b",
                                   re.IGNORECASE)
_QUESTION_WORD = re.compile(r"^\W*(?:what|what's|whats|who|who's|whose|when|where|why|how|which|is|are|was|were|do|does|"
                            r"did|can|could|will|would|should|has|have)\b", re.IGNORECASE)
_CHOICE_AFTER_A_COMMA = re.compile(r",\s*(?:[\w'-]+\s+){0,5}[\w'-]+\s+or\s+(?:[\w'-]+\s*){1,5}\W*$", re.IGNORECASE)


def read_on_its_own_words(turn: str) -> bool:
    """Whether a turn asked after others is read on its own words (the module docstring): a question about the
    world that speaks of no one, leans on nothing before it, adds to no question before it and asks no judgement
    of the case told.

    >>> read_on_its_own_words("How long do you boil an egg?")
    True
    >>> [read_on_its_own_words(t) for t in ("What should I order there?", "Would melatonin help Ruben too?",
    ...                                     "Is it safe for me to fly?")]
    [False, False, False]
    """
    text = turn.replace("\u2019", "'")
    return (reads_as_a_question(text) and _QUESTION_WORD.match(text) is not None
            and _CHOICE_AFTER_A_COMMA.search(text) is None and not for_the_asker(text) and not leans_on_the_conversation(text)
            and not goes_on_from_the_conversation(text) and not adds_to_the_question_before(text)
            and not asks_a_judgement(text) and _PICKS_FROM_THE_NAMED.search(text) is None
            and not asks_what_was_told(text) and not asks_the_way_there(text) and not asks_what_is_left(text)
            and not speaks_of_the_user(text))


# "the X" of a question: the word after "the", past the words that only rank or place ("the best paella", "the
# night before"): a thing an earlier turn named is the one the question goes on from
_THE_THING = re.compile(r"\bthe\s+((?:[\w'-]+\s+){0,2}?)([a-z][\w'-]*)", re.IGNORECASE)
_RANKS = frozenset({"best", "worst", "most", "least", "first", "last", "next", "same", "other", "whole", "top", "main",
                    "usual", "average", "right", "wrong", "only", "very", "new", "old", "biggest", "cheapest",
                    "easiest", "fastest", "quickest", "safest", "healthiest", "nearest", "closest", "oldest",
                    "longest", "shortest", "highest", "lowest", "largest", "smallest", "world", "uk", "us", "way",
                    "time", "day", "night", "week", "year", "difference", "rest", "end", "start", "beginning"})
_TURN_WORD = re.compile(r"[a-z][\w'-]*")


def _bare(word: str) -> str:
    """A word without its possessive or plural ending: "landlord's" -> "landlord", "games" -> "game"."""
    word = word.lower().replace("\u2019", "'").removesuffix("'s").removesuffix("'")
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word


def names_what_was_told(turn: str, earlier: Sequence[str]) -> bool:
    """Whether ``turn`` names by "the X" a thing one of the ``earlier`` turns named ("What time does the game
    start?" after "Going to the Tigers game tonight!"): the question goes on from that turn.

    >>> names_what_was_told("What time does the game start?", ["Going to the Tigers game tonight!"])
    True
    >>> names_what_was_told("What's the best paella in Valencia?", ["Taking my husband out for his birthday."])
    False
    """
    things = set()
    for m in _THE_THING.finditer(turn.replace("\u2019", "'")):
        words = [*m.group(1).split(), m.group(2)]
        named = [w for w in words if _bare(w) not in _RANKS and not w.lower().endswith("est")]
        if named:
            things.add(_bare(named[0]))
    if not things:
        return False
    told = {_bare(w) for t in earlier for w in _TURN_WORD.findall(t.lower().replace("\u2019", "'"))}
    return not things.isdisjoint(told)


# a fact whose subject is a name ("Sam is allergic to peanuts.", "Ava's school ..."), or the user's relation with a
# name ("User's daughter Ava ...", "User's best friend Nora ...")
_LEAD_NAME = re.compile(r"^\W*([A-Z][a-z][\w-]*)(?:['\u2019]s)?\b")
_RELATION_AND_NAME = re.compile(r"^\W*user['\u2019]s\s+((?:[a-z][\w-]*\s+){1,3}?[A-Z][a-z][\w-]*)\b", re.IGNORECASE)
_NOT_A_NAME = frozenset({"User", "The", "A", "An", "His", "Her", "Their", "Our", "My", "This", "That", "These",
                         "Those", "There", "It", "Its", "Every", "Each", "Most", "Some", "All", "No", "One", "Both",
                         "In", "On", "At", "For", "When", "If", "After", "Before", "Since", "Until"})


def _holders(fact: str) -> list[str]:
    """Who other than the user a fact is about, as a relation, a name or both ("daughter Ava", "mum", "Sam")."""
    found = [h for h in (kin_holder(fact), outside_holder(fact)) if h]
    lead = _LEAD_NAME.match(fact)
    if lead is not None and lead.group(1) not in _NOT_A_NAME:
        found.append(lead.group(1))
    named = _RELATION_AND_NAME.match(fact)
    if named is not None and named.group(1).split()[-1][:1].isupper():
        found.append(named.group(1))
    return found


def about_someone_named(fact: str, earlier: Sequence[str]) -> bool:
    """Whether ``fact`` is about someone other than the user whom one of the ``earlier`` turns names by a name or a
    relation ("Sam is allergic to peanuts." after "I'm cooking dinner for Sam tonight."; "User's mum is coeliac."
    after "Taking my mum out for lunch"). The user's own facts are not: "I" names everyone's asker.

    >>> about_someone_named("Sam is allergic to peanuts.", ["I'm cooking dinner for Sam tonight."])
    True
    >>> about_someone_named("User is allergic to shellfish.", ["Should I take her to the vet?"])
    False
    """
    holders = _holders(fact)
    if not holders or not earlier:
        return False
    said = "\n".join(earlier)
    return any(names_holder(h, said) for h in holders)
