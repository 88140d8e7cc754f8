"""Which words for someone of the user's say a woman, which a man, and which leave it open: the one list a "he" or a
"she" is read against (:mod:`.family`, :mod:`.pronoun_referents`, :mod:`.named`). Pure: English words only.
"""

from __future__ import annotations

import re

from .patterns import words

__all__ = ["MEN", "WOMEN", "gender_of", "gendered_words", "may_be"]

WOMEN: frozenset[str] = frozenset("""
    mother mum mom mummy mommy mam sister daughter wife girlfriend fiancée fiancee aunt auntie aunty niece
    grandmother grandma nan nana nanna gran granny granddaughter stepmother stepmum stepmom stepdaughter stepsister
    mother-in-law sister-in-law daughter-in-law
""".split())
"""The words (lower case) for someone of the user's that say a woman: "she"."""
MEN: frozenset[str] = frozenset("""
    father dad daddy brother son husband boyfriend fiancé fiance uncle nephew
    grandfather grandpa grandad granddad grandson stepfather stepdad stepson stepbrother
    father-in-law brother-in-law son-in-law
""".split())
"""The words (lower case) for someone of the user's that say a man: "he"."""
_GENDERS = {"she": WOMEN, "he": MEN}
# "great-grandmother", "great great aunt": a generation further back is the same gender.
_GREAT = re.compile(r"^(?:great[\s-]+)+")


def gender_of(word: str) -> str | None:
    """``"she"`` or ``"he"`` for a word for someone of the user's that says a woman or a man ("mum",
    "mother-in-law", "great-grandfather"); ``None`` for a word that leaves it open ("partner", "friend", "cousin")."""
    kin = _GREAT.sub("", " ".join(word.casefold().split()))
    return next((pronoun for pronoun, kins in _GENDERS.items() if kin in kins), None)


def may_be(pronoun: str, word: str, *, ungendered: bool) -> bool:
    """Whether ``pronoun`` ("he", "she") may refer to someone the user calls ``word``: ``word`` says that gender,
    or, when ``ungendered``, says none ("partner", "friend"). A rule that already has its one candidate passes
    ``ungendered=True`` (only the other gender rules them out: "my friend ... she"); one that looks for whom a
    pronoun is among several passes ``False`` (someone whose gender is not said is never guessed to be "she").

    >>> may_be("she", "mum", ungendered=False), may_be("she", "friend", ungendered=True), may_be("he", "wife", ungendered=True)
    (True, True, False)
    """
    gender = gender_of(word)
    return gender == pronoun.casefold() if gender is not None else ungendered


def gendered_words() -> str:
    """A regex alternation of every word of :data:`WOMEN` and :data:`MEN`, longest first ("mother-in-law" before
    "mother")."""
    return words(*WOMEN, *MEN)
