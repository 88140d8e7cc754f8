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
cosine, as it does for a general question and for a turn telling news. Pure: patterns, English only.
"""

from __future__ import annotations

import re

from .care import for_the_asker
from .conversation import goes_on_from_the_conversation, leans_on_the_conversation
from .intent import asks_the_way_there, asks_what_is_left, asks_what_was_told, reads_as_a_question, speaks_of_the_user

__all__ = ["adds_to_the_question_before", "asks_a_judgement", "read_on_its_own_words"]

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
