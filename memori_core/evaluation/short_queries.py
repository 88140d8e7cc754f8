"""Short queries: a question cut to its rarest words, as a user typing a keyword or two would ask."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")


def words(text: str) -> list[str]:
    """The words of ``text`` (letters and digits, inner apostrophes kept), as written."""
    return _WORD.findall(text)


def document_frequency(texts: Iterable[str]) -> Counter[str]:
    """In how many of ``texts`` each lower-cased word occurs."""
    df: Counter[str] = Counter()
    for text in texts:
        df.update({w.lower() for w in words(text)})
    return df


def rarest_words(question: str, df: Counter[str], n: int) -> str:
    """The ``n`` words of ``question`` with the lowest document frequency (earlier first on ties),
    in the question's order; ``""`` for a question without words."""
    ws = words(question)
    keep = sorted(range(len(ws)), key=lambda i: (df[ws[i].lower()], i))[:n]
    return " ".join(ws[i] for i in sorted(keep))
