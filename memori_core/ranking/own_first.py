"""The asker's own facts before facts about someone else, on a question the asker asks about themselves.

"What medication am I on?" may keep both "User takes levothyroxine." and "User's wife Priya is allergic to
penicillin." (the implication rule keeps the second: a medicine question and a drug allergy), and rank the wife's
first. Both may matter; but the question is the asker's, and the model reads the block top down. On a question in
the first person singular ("I", "me", "my") that names no one else, the facts recall chose that are about another
person (:func:`~.care.kin_holder`, :func:`~.kin.relative_of`: a relative; a friend, a colleague, a neighbour) move after the
asker's own, each group in rank order. Only the order changes: what is kept is the gate's. A turn that brings in
anyone else is left as ranked: "we" or "our" (the household, whose facts are the asker's too), a third person ("he's
coming to stay"), "the kids", "the family", or a name ("Linda says I never hear her", "Marco and I"). Pure: patterns,
English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from .care import kin_holder, names_them, outside_holder
from .implications import asked_about, asked_slots
from .kin import kin_named, relative_of
from .names import is_not_a_name
from ..slots import slot_keys

__all__ = ["asks_for_oneself", "own_first"]

_SINGULAR = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|im|me|my|mine|myself)\b", re.IGNORECASE)
# Someone else in the turn: "we", a third person ("he's coming", "for her"), the household ("the kids", "the family",
# "everyone at home"), or a name ("Linda says", "Marco and I"): a capitalised word not opening a sentence.
_OTHERS = re.compile(
    r"\b(?:we|we're|we've|we'd|we'll|us|our|ours|ourselves|he|he's|she|she's|him|her|hers|his|they|they're|them|"
    r"their|theirs|who|kids?|children|child|grand(?:children|kids)|family|everyone|everybody|baby|guests?|friends?|partner|together)\b",
    re.IGNORECASE)
_NAME = re.compile(r"\b[A-Z][a-z]+\b")  # a capitalised word, unless it names no one (.names)


def asks_for_oneself(question: str) -> bool:
    """Whether ``question`` asks about the asker alone: in the first person singular, not plural, naming no
    relative and asking about no one else (:func:`~.implications.asked_about`).

    >>> [asks_for_oneself(q) for q in ("What medication am I on?", "What can we cook?", "Is my mum diabetic?")]
    [True, False, False]
    """
    text = question.replace("\u2019", "'").strip()
    return (_SINGULAR.search(text) is not None and _OTHERS.search(text) is None
            and all(is_not_a_name(w) for w in _NAME.findall(text)) and not kin_named(text) and asked_about(text) is None)


def own_first(question: str, texts: Sequence[str], read: Sequence[str] = ()) -> np.ndarray | None:
    """For the facts recall chose (``texts``, in rank order), the order that puts the asker's own before those about
    someone else neither the question nor the turns ``read`` with it name, when ``question`` asks about the asker
    alone (:func:`asks_for_oneself`); ``None`` when the order stays (positions into ``texts`` otherwise).

    >>> own_first("What medication am I on?", ["User's wife Priya is allergic to penicillin.", "User takes metformin."])
    array([1, 0])
    """
    if len(texts) < 2 or not asks_for_oneself(question):
        return None
    said = "\n".join((question, *read))
    mine = _own_slots(question) if _ASKS_FOR_OWN_SLOT.search(question) is not None else frozenset()
    other = np.fromiter((_about_someone_else(t, question if _fills_for_another(t, mine) else said) for t in texts),
                        dtype=bool, count=len(texts))
    if not other.any() or other.all() or not other[: int((~other).sum())].any():
        return None  # none, all, or already after the asker's own
    return np.concatenate((np.flatnonzero(~other), np.flatnonzero(other)))


# A question that asks for the asker's own slot in so many words: "Where do I live?", "What city do I live in?",
# "Where am I working now?", "What's my job?", "What do I do for a living?". "Any events near me?" or "the weather in
# my city" ask about where the asker is, which the turns before may tell ("I'm staying with my sister in Paris").
_ASKS_FOR_OWN_SLOT = re.compile(
    r"\b(?:where|what|which)\b[^?.!]*?\b(?:do|did|am)\s+i\s+(?:(?:currently|still|now)\s+)?"
    r"(?:live|living|work|working|based)\b"
    r"|\bwhat(?:'s|\s+is|\s+was)\s+my\s+(?:job|address|occupation|profession|employer|workplace|home\s*town)\b"
    r"|\bwhat\s+do\s+i\s+do\s+for\s+(?:a\s+)?(?:living|work)\b",
    re.IGNORECASE)


def _own_slots(question: str) -> frozenset[str]:
    """The slots of the asker's own life the question asks to recall ("residence" for "Where do I live?")."""
    return frozenset(k.split(":", 1)[1] for k in asked_slots(question) if k.startswith("user:"))


def _fills_for_another(text: str, slots: frozenset[str]) -> bool:
    """Whether a fact fills one of ``slots`` for someone other than the user ("User's sister lives in Paris." for
    "residence"): a question asking for the asker's own slot in so many words (:data:`_ASKS_FOR_OWN_SLOT`) is not
    about them, even when the turns before named them ("My sister moved to Paris." then "Where do I live?"); one
    asking about where the asker is ("Any events near me tonight?" after "I'm staying with my sister in Paris.")
    reads the turns before as usual."""
    return bool(slots) and any(k.split(":", 1)[1] in slots and not k.startswith("user:") for k in slot_keys(text))


# Who "User's X" / "My X" is when X is a person outside the family (a relative is read by kin.relative_of).
_PERSON = re.compile(r"\b(?:friend|colleague|co-?worker|boss|manager|neighbou?r|flatmate|roommate|housemate|landlord|"
                     r"landlady|classmate|teammate|client|tenant|employee|assistant|ex|ex-\w+)s?\b", re.IGNORECASE)


def _about_someone_else(text: str, said: str) -> bool:
    """Whether a fact is about another person (a relative, "User's wife Priya", "My mother Hoda"; a friend, a
    colleague, a neighbour) whom the turns ``said`` do not name."""
    who = kin_holder(text) or relative_of(text)
    if who is None:
        other = outside_holder(text)
        who = other if other is not None and _PERSON.search(other) else None
    return who is not None and not names_them(who, said)
