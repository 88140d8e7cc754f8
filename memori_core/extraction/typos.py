"""What users type in a hurry, read as they meant it: apostrophes left out ("dont", "im") and a care word
misspelt by one letter ("alergic to shelfish"). Pure, English only.

The rules that follow read words: "I dont eat pork" has no verb they know, and "User is alergic to peanuts."
is no allergy to the core rule nor to recall. An allergy typed in lower case on a phone is as real as one
spelt right, so the sentence is read with the words restored before any rule sees it.
"""

from __future__ import annotations

import re

__all__ = ["CARE_WORDS", "read_as_meant", "restore_apostrophes", "respell_care_words"]

# A contraction typed without its apostrophe, and what it is: "dont" -> "don't", "im" -> "i'm". Only forms that
# are no other English word ("cant", "wont", "ill", "id", "were", "well", "lets", "its" are left alone).
_CONTRACTIONS = {
    "dont": "don't", "doesnt": "doesn't", "didnt": "didn't", "isnt": "isn't", "wasnt": "wasn't", "arent": "aren't",
    "werent": "weren't", "havent": "haven't", "hasnt": "hasn't", "hadnt": "hadn't", "wouldnt": "wouldn't",
    "couldnt": "couldn't", "shouldnt": "shouldn't", "im": "i'm", "ive": "i've", "thats": "that's",
    "whats": "what's", "theyre": "they're", "youre": "you're",
}
_BARE_CONTRACTION = re.compile(r"\b(?:" + "|".join(sorted(_CONTRACTIONS, key=len, reverse=True)) + r")\b",
                               re.IGNORECASE)

CARE_WORDS: frozenset[str] = frozenset(
    """allergic allergy allergies intolerant intolerance intolerances shellfish peanut peanuts penicillin
    vegetarian vegetarians pescatarian pescatarians coeliac celiac anaphylactic anaphylaxis lactose gluten sesame
    diabetic diabetes asthma asthmatic epipen epilepsy epileptic""".split()
)
"""The words of a care fact (an allergy, an intolerance, a diet) that :func:`respell_care_words` puts right when
typed one letter off. Each is six letters or more: a shorter one is one letter from too many other words
("vegan" / "began", "dairy" / "diary")."""

# English words one letter from a care word, which mean what they say: "I train my glutes", "lactase tablets".
_REAL_WORDS = frozenset("glutes lactase diabetics allergen allergens".split())
_WORD = re.compile(r"[A-Za-z]{6,}")


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one letter added, dropped, changed, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k in range(len(short)) if short[k] != long[k]), len(short))
    return short[i:] == long[i + 1:]


def _care_word(word: str) -> str | None:
    """The care word ``word`` is one letter off from (its first letter kept, as typing keeps it), or ``None``
    when it is none, is spelt right, or is as near to two of them."""
    low = word.lower()
    if low in CARE_WORDS or low in _REAL_WORDS:
        return None
    near = {w for w in CARE_WORDS if w[0] == low[0] and _one_edit(low, w)}
    return near.pop() if len(near) == 1 else None


def respell_care_words(text: str) -> str:
    """``text`` with every care word (:data:`CARE_WORDS`) typed one letter off spelt right.

    >>> respell_care_words("Im alergic to shelfish and penuts"), respell_care_words("I train my glutes")
    ('Im allergic to shellfish and peanuts', 'I train my glutes')
    """

    def fix(m: re.Match[str]) -> str:
        word = m.group(0)
        right = _care_word(word)
        if right is None:
            return word
        return right.upper() if word.isupper() else right.capitalize() if word[0].isupper() else right

    return _WORD.sub(fix, text)


def restore_apostrophes(text: str) -> str:
    """``text`` with the contractions typed without their apostrophe restored ("i dont eat pork" -> "i don't eat
    pork", "Im vegan" -> "I'm vegan").

    >>> restore_apostrophes("Im sure i dont eat pork, cant say more")
    "I'm sure i don't eat pork, cant say more"
    """

    def fix(m: re.Match[str]) -> str:
        word = m.group(0)
        said = _CONTRACTIONS[word.lower()]
        if said.startswith("i'"):
            return "I" + said[1:] if word[0].isupper() else said
        return said[:1].upper() + said[1:] if word[0].isupper() else said

    return _BARE_CONTRACTION.sub(fix, text)


def read_as_meant(text: str) -> str:
    """``text`` with its apostrophes restored (:func:`restore_apostrophes`) and its care words spelt right
    (:func:`respell_care_words`)."""
    return respell_care_words(restore_apostrophes(text))
