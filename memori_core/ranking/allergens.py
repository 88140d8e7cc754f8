"""A food the user is allergic to, named in the question: "allergic to avocado and banana" and "she's making her
famous banana bread" (MiniLM: cosine 0.14 in a long question). The tables (:mod:`.concerns`) know the common
allergens and what they hide in; this reads the allergen the fact itself names, whatever it is.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence

import numpy as np

__all__ = ["allergens", "allergen_rows"]

# "allergic to avocado and banana: ...", "has an allergy to kiwis", "intolerant to fructose"
_ALLERGY = re.compile(r"\b(?:allergic|allergy|allergies|intolerant|intolerance|reacts?\s+badly)\s+to\s+([^.;:()\n]{1,60})",
                      re.IGNORECASE)
_WORD = re.compile(r"[a-z]+")
# where the list of foods ends: "allergic to penicillin and has hay fever"
_LIST_ENDS = re.compile(r"\b(?:has|have|had|is|are|was|were|takes?|took|gets?|got|needs?|uses?|carr(?:y|ies)|can|cannot|"
                        r"can't|must|should|which|who|that|so|but|because|since|when|if|like)\b", re.IGNORECASE)
# words of the list that name no food
_NOT_ALLERGEN = frozenset({
    "and", "or", "the", "a", "an", "any", "all", "some", "most", "other", "others", "raw", "fresh", "cooked", "whole",
    "his", "her", "their", "my", "our", "also", "both", "which", "that", "so", "but", "as", "well", "too", "even",
    "small", "tiny", "amounts", "traces", "trace", "severely", "mildly", "very", "food", "foods", "kinds", "kind",
    "of", "in", "with", "from", "it", "them", "gives", "give", "makes", "make", "her", "him", "me", "mouth", "throat",
    "swell", "swells", "itch", "itches", "hives", "rash", "since", "when", "if", "after", "medicine", "medicines",
    "including", "especially", "such", "like", "etc",
})


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("oes", "shes", "ches")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word


@functools.lru_cache(maxsize=4096)
def allergens(fact: str) -> frozenset[str]:
    """The foods a fact says someone is allergic or intolerant to, one word each, singular ("allergic to avocado and
    bananas" -> ``{"avocado", "banana"}``); empty for any other fact.

    >>> sorted(allergens("I'm allergic to avocado and banana: my mouth itches.")), allergens("User lives in Leeds.")
    (['avocado', 'banana'], frozenset())
    """
    out: set[str] = set()
    for m in _ALLERGY.finditer(fact):
        foods = _LIST_ENDS.split(m.group(1), maxsplit=1)[0].lower()
        out.update(_singular(w) for w in _WORD.findall(foods) if w not in _NOT_ALLERGEN and len(w) > 2)
    return frozenset(out)


def allergen_rows(question: str, facts: Sequence[str],
                  whose: Callable[[str], bool] = lambda fact: True) -> tuple[np.ndarray, list[str]]:
    """The facts whose allergens (:func:`allergens`) the question names as a word (bool array), among those of the
    one it is about (``whose``), and those allergens."""
    words = {_singular(w) for w in _WORD.findall(question.lower())}
    rows = np.zeros(len(facts), dtype=bool)
    held: set[str] = set()
    for i, text in enumerate(facts):
        hit = allergens(text) & words
        if hit and whose(text):
            rows[i] = True
            held |= hit
    return rows, sorted(held)
