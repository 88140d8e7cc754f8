"""Capitalised words that name no one: the one list the ranking reads to tell a name (a person's, a pet's, a place's)
from a word that is only capitalised because it opens a question, is a pronoun or a title, or names a day, a month
or a holiday. Read by :mod:`.implications` (a name the question asks about), :mod:`.intent` (a name the facts
know), :mod:`.own_first` (a question that names no one else) and :mod:`.referents` (the one name the turn before
said). Tables, English only, and the MiniLM vocabulary read once as the ordinary words
(:func:`is_ordinary_word`: a lower case word opening a turn that may be a typed name).
"""

from __future__ import annotations

import functools

from ..calendar_words import MONTH_NAMES, WEEKDAYS
from ..minilm import VOCAB_PATH

__all__ = ["NOT_A_NAME", "OPENERS", "TITLES", "is_not_a_name", "is_ordinary_word"]

OPENERS: frozenset[str] = frozenset("""
    what which who whom whose when where why how let
    can could should would will shall do does did is am are was were has have had
    remind tell give help please plan write make find show suggest recommend
""".split())
"""How a question or a request opens: "When is Carol coming?", "Can Daan and I ...", "Tell me ..."."""

TITLES: frozenset[str] = frozenset("""
    mr mrs ms mx dr prof sir miss madam madame monsieur mme mlle herr frau señor señora senor senora signor signora
""".split())
"""A title before a name ("Herr Huber", "Dr Okafor"): the word after it is the name, the title is none."""

NOT_A_NAME: frozenset[str] = OPENERS | TITLES | frozenset("""
    i i'm i've i'd i'll my our we we've we're we'd you your he she it they his her their its it's
    this that that's these those there there's here everyone nobody somebody someone
    the a an user any anything ok okay so and or nor but yet then just also hi hey thanks if in on at for to with about
    mum mom dad
    christmas easter
""".split()) | frozenset(WEEKDAYS) | frozenset(MONTH_NAMES)
"""Every such word, casefolded ("may" is both the month and a question's opening word)."""


def is_not_a_name(word: str, words: frozenset[str] = NOT_A_NAME) -> bool:
    """Whether the capitalised ``word`` names no one: is one of ``words`` (:data:`NOT_A_NAME`) in any case.

    >>> is_not_a_name("Monday"), is_not_a_name("What"), is_not_a_name("Herr"), is_not_a_name("Rosie")
    (True, True, True, False)
    """
    return word.casefold() in words


@functools.lru_cache(maxsize=1)
def _vocabulary() -> frozenset[str]:
    with open(VOCAB_PATH, encoding="utf-8") as fh:
        return frozenset(line.strip() for line in fh if line.strip().isalpha())


def is_ordinary_word(word: str) -> bool:
    """Whether ``word`` is a whole word of the MiniLM WordPiece vocabulary (in any case): "max", "ginger" and "lucky"
    are, "mylo" and "sigge" are not. A lower case word that opens a turn ("max out my card?", "ginger is supposed to
    help") is read as a typed name only when it is no such word; a capitalised one always may be.

    >>> is_ordinary_word("ginger"), is_ordinary_word("Max"), is_ordinary_word("mylo")
    (True, True, False)
    """
    return word.casefold() in _vocabulary()
