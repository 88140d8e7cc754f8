"""A question about the world keeps a fact that only shares its topic from a stricter cosine (docs/ranking.md 68).

"Are dachshunds prone to ear infections?" after "Sigge has been scratching his ears a lot.", "What's the best way to
clean a trumpet valve?" from a trumpet player, "Does tea count towards water intake?" from a user told to drink
three litres a day: each asks what anyone could ask, and its answer is the same whoever asks. Its embedding falls
short of the general-question shapes (:mod:`.intent`), so the gate reads it at the usual cut, and the fact that
names its topic (the dog, the trumpet, the water) passes on that one word's pull on the cosine (issue 20: 64 of
115 off-topic leaks of the read app sets leaked on their own words, not on their conversation's).

Such a turn (:func:`asks_of_the_world`), asked after other turns of its conversation, is one read on its own words (:func:`~.own_words.read_on_its_own_words`: a
question opening with a question word, for no one in the first person, leaning on nothing before it, asking no
judgement of a case told) that besides

- picks nothing for the asker: no "good", "nice", "fun", "great", "ideal", "worth", "something", "anything", no
  "best" but "the best way to" ("What's a good snack to keep in the car?", "Is Thursday a good afternoon to book a
  hair appointment?" ask for a choice the asker's case decides);
- names no one the memory knows (:func:`~.intent.names_known`: "Does Kenji need a visa?") and nothing a fact says
  is the user's (:func:`~.intent.names_the_askers`: "Why has my dog stopped eating?"), nor by "the X" a thing a
  fact names (:func:`~.own_words.names_what_was_told` read on the facts: "How do I keep the chickens safe from the
  mongoose?" with "The family has a dog and a few chickens.");
- asks no opinion of the assistant ("Do you think a small shop there could work?");
- is no statement opening with a negated verb ("Can't sleep in the bunk again." has no question mark).

Of the facts the gate's plain rules keep for it (cosine, third person, words, score band), one is then kept only
from a gate cosine of ``RecallConfig.gate_world``, unless it is a care fact (:func:`~.care.is_care_fact`: an
allergy, a medicine or a diet bears on a world question about food or medicine, "Can you drink on antibiotics?")
or a fact about someone an earlier turn names (:func:`~.own_words.about_someone_named`). The care, implication,
follow-up and upcoming rules read it as before. A first turn is left to the usual cut: on PrefEval, whose
questions come without a conversation ("What are some must-see spots in Rome?" and a dislike of crowds), the cut on
first turns too lost 8 of 400 answered questions (hit@5 0.863 -> 0.843).

Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from .care import is_care_fact
from .intent import names_known, names_the_askers
from .own_words import about_someone_named, names_what_was_told, read_on_its_own_words

__all__ = ["asks_of_the_world", "picks_for_the_asker", "topic_only"]

# "Can't sleep in the bunk again." opens like "Can ..." yet tells the asker's case: no question without its "?"
_NEGATED_OPENING = re.compile(r"^\W*\w+n['\u2019]t\b(?![^?]*\?\W*$)", re.IGNORECASE)
# the assistant's opinion of the asker's case: "Do you think a small shop there could work?"
_OPINION = re.compile(r"\b(?:do|would)\s+you\s+(?:think|say|reckon)\b", re.IGNORECASE)
_PICK = re.compile(r"\b(?:good|nice|fun|decent|great|ideal|worth|something|anything|best(?!\s+way\s+to\b))\b",
                   re.IGNORECASE)


def picks_for_the_asker(turn: str) -> bool:
    """Whether a turn asks for a choice the asker's case decides: a good, nice, fun or best one, something worth it.

    >>> picks_for_the_asker("What's a good snack for the car?"), picks_for_the_asker("What's the best way to clean a valve?")
    (True, False)
    """
    return _PICK.search(turn) is not None


def asks_of_the_world(turn: str, texts: Iterable[str]) -> bool:
    """Whether ``turn`` asks about the world, not about the user whose facts are ``texts`` (the module docstring).

    >>> asks_of_the_world("Are dachshunds prone to ear infections?", ["User walks his dachshund Sigge."])
    True
    >>> asks_of_the_world("Does Sigge need a coat?", ["User walks his dachshund Sigge."])
    False
    """
    if (picks_for_the_asker(turn) or _OPINION.search(turn) or _NEGATED_OPENING.match(turn)
            or not read_on_its_own_words(turn)):
        return False
    texts = list(texts)
    return not names_known(turn, texts) and not names_the_askers(turn, texts) and not names_what_was_told(turn, texts)


def topic_only(fact: str, earlier: Sequence[str]) -> bool:
    """Whether a world question's stricter cut applies to ``fact``: not a care fact, nor one about someone one of
    the ``earlier`` turns names."""
    return not is_care_fact(fact) and not about_someone_named(fact, earlier)
