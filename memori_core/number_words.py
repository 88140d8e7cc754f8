"""The English words for small counts ("two weeks", "a couple of days", "three kids"): one table, read by capture's
rules (:mod:`memori_core.extraction`: a span, a stay, a count of children) and the gate's
(:mod:`memori_core.ranking`: how long a told event lasts)."""

from __future__ import annotations

__all__ = ["COUNT_WORDS", "NUMBER_WORDS", "count_of", "number_words"]

NUMBER_WORDS: dict[str, int] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12,
}
"""The numbers written as words, in order, with their values."""

COUNT_WORDS: dict[str, int] = {"a": 1, "an": 1, **NUMBER_WORDS, "a couple of": 2, "couple of": 2, "a few": 3, "few": 3}
"""What a count may be said with besides digits (lower case, single spaces): ``a`` and ``an`` are one, a couple
two, a few three."""


def count_of(said: str) -> int:
    """The count ``said`` names: digits, or a phrase of :data:`COUNT_WORDS` in any case and spacing.

    >>> count_of("12"), count_of("Three"), count_of("a  couple of")
    (12, 3, 2)
    """
    words = " ".join(said.lower().split())
    return int(words) if words.isdigit() else COUNT_WORDS[words]


def number_words(last: str) -> str:
    """A regex alternation of the number words from ``one`` up to ``last``, in order.

    >>> number_words("four")
    'one|two|three|four'
    """
    if last not in NUMBER_WORDS:
        raise ValueError(f"last must be one of {', '.join(NUMBER_WORDS)}, not {last!r}")
    return "|".join(list(NUMBER_WORDS)[: NUMBER_WORDS[last]])
