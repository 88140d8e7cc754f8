"""A relative the question names, and the facts about them: "Is Machu Picchu doable for my mum?" is answered by
"Carmen had a hip replacement last year", which never says "mum" (MiniLM: cosine 0.26).

A fact names the relative by the word ("User's father Olav (81) ...", "My mother Hoda is coming ...") and then,
often, by their name alone ("Olav uses oxygen at night."): :func:`kin_rows` opens both, the few best ranked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from ..slots import placed
from .care import KIN

__all__ = ["MOST_OF_KIN", "kin_named", "kin_rows", "relative_of"]

_RELATIVES = ("mother", "father", "wife", "husband", "partner", "son", "daughter", "sister", "brother", "grandmother",
              "grandfather", "grandson", "granddaughter", "aunt", "uncle", "niece", "nephew", "cousin", "fiance",
              "fiancee", "girlfriend", "boyfriend", "stepmother", "stepfather", "stepson", "stepdaughter",
              "mother-in-law", "father-in-law", "sister-in-law", "brother-in-law")
_PARENT_WORDS = tuple(w for w, kin in KIN.items() if kin in ("mother", "father", "grandmother", "grandfather"))
_ANY_KIN = "|".join(sorted({*_RELATIVES, *_PARENT_WORDS}, key=len, reverse=True))
_AGE = placed()  # "my eldest son"
# "my mum", "our eldest son", "my husband's"; or a parent word on its own, which in a chat is the asker's ("Dad turns
# 82 next Saturday", "what date does mama arrive?"), unless someone else's ("at their dad's", "her mum")
_IN_QUESTION = re.compile(
    rf"\b(?:my|our)\s+{_AGE}(?P<kin>{_ANY_KIN})\b|"
    rf"(?<!\bhis\s)(?<!\bher\s)(?<!\btheir\s)(?<!\byour\s)(?<!\bthe\s)(?<!\ba\s)(?<!'s\s)"
    rf"\b(?P<parent>{'|'.join(sorted(_PARENT_WORDS, key=len, reverse=True))})\b",
    re.IGNORECASE)
# how a fact names the user's relative, with the name it gives: "User's father Olav (81)", "My husband Marc is"
_IN_FACT = re.compile(
    rf"\b(?:user's|my|our|i\s+have\s+a)\s+{_AGE}(?P<kin>{_ANY_KIN})\b(?:,?\s+(?P<name>(?-i:[A-Z][a-z][\w-]+)))?",
    re.IGNORECASE)
MOST_OF_KIN = 3
"""A relative the question names opens at most this many facts about them, the best ranked."""


def kin_named(question: str) -> frozenset[str]:
    """The asker's relatives a question names, in the words facts use ("my mum" -> ``{"mother"}``).

    >>> sorted(kin_named("Is the walk doable for my mum and Dad?")), sorted(kin_named("The kids are at their dad's."))
    (['father', 'mother'], [])
    """
    return frozenset(_folded(m.group("kin") or m.group("parent")) for m in _IN_QUESTION.finditer(question))


def relative_of(fact: str) -> str | None:
    """The relative a fact is about when it opens by naming one as the user's ("User's father Olav (81) ...", "My
    mother Hoda is coming ..."): the relation ("father"); ``None`` otherwise.

    >>> relative_of("My mother Hoda is coming on Friday."), relative_of("User's car is a Golf.")
    ('mother', None)
    """
    m = _IN_FACT.match(fact.lstrip())
    return None if m is None else _folded(m.group("kin"))


def _folded(word: str) -> str:
    word = word.lower()
    return KIN.get(word, word)


def kin_rows(kin: frozenset[str], facts: Sequence[str], rank: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """The facts about the relatives ``kin`` (those naming them as the user's, and those holding the name such a
    fact gives them), the :data:`MOST_OF_KIN` best by ``rank`` for each, and the relatives found."""
    rows = np.zeros(len(facts), dtype=bool)
    if not kin:
        return rows, []
    about: dict[str, set[int]] = {}
    names: dict[str, set[str]] = {}
    for i, text in enumerate(facts):
        for m in _IN_FACT.finditer(text):
            who = _folded(m.group("kin"))
            if who in kin:
                about.setdefault(who, set()).add(i)
                if m.group("name"):
                    names.setdefault(who, set()).add(m.group("name"))
    for who, called in names.items():
        word = re.compile(r"\b(?:" + "|".join(map(re.escape, called)) + r")\b")
        about[who].update(i for i, text in enumerate(facts) if word.search(text))
    for at in about.values():
        rows[sorted(at, key=lambda i: -rank[i])[:MOST_OF_KIN]] = True
    return rows, sorted(about)
