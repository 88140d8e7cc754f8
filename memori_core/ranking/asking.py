"""The words of asking: what a request says about how it asks, not what it is about, and the word a query names
the user by.

"Can you suggest some great new PC games for me to try?" shares "try" with "I try to support myself by playing
piano." and "game" with "I host a game night monthly.": in a small memory each such word carries BM25 weight, and
the gate's words rule (:func:`~.gate.decide`: a fact holding most of the question's informative words opens the
gate) would keep the fact on a word any request uses. The gate reads BM25 without these words
(:func:`gate_columns`); the ranking keeps them (they still order facts that share a topic). "user" in a query is
the memory's owner, whom every fact names ("User lives in Porto."): :func:`query_terms` leaves it out of the
lexical terms of every recall.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from ..text import analyzer
from .gate import USER_WORD

__all__ = ["ASKING_WORDS", "gate_columns", "query_terms"]

ASKING_WORDS = (
    "recommend recommendation recommendations suggest suggestion suggestions advise advice tip tips idea ideas "
    "option options way ways good great best better nice new cool fun interesting interested interest "
    "something anything thing things some any look looking try trying help find need want like love enjoy "
    "prefer consider considering get getting make know think"
)
"""The words of a request for advice ("Can you recommend some good ways to ...", "I'm looking to try
something new"), in plain English: the analyzer in use gives their terms."""


@functools.lru_cache(maxsize=16)
def _asking_terms(tokenizer: str, stemmer: str | None) -> frozenset[str]:
    return frozenset(analyzer(tokenizer, stemmer)(ASKING_WORDS))


def gate_columns(terms: Sequence[str], tokenizer: str, stemmer: str | None) -> np.ndarray | None:
    """For each query term (the columns of the pool's term frequencies), whether the gate's words rule reads it
    (bool array); ``None`` when it reads them all (no word of asking among them)."""
    asking = _asking_terms(tokenizer, stemmer)
    keep = np.fromiter((t not in asking for t in terms), dtype=bool, count=len(terms))
    return None if keep.all() else keep


def query_terms(query: str, tokenizer: str, stemmer: str | None) -> list[str]:
    """The lexical terms of ``query``: the analyzer's, without the word facts name the user by
    (:data:`~memori_core.ranking.gate.USER_WORD`). Every fact about the user starts with "User" ("User lives in
    Porto.", "User's partner ..."), so in a query ("user allergies", "user's city", as a model writes a memory
    search) it means "my": it matched every fact, and normalised BM25 made that a near-perfect lexical match for
    all of them. The facts keep the term; only the query drops it. Upstream Memori's tokenizer (``"memori"``,
    :meth:`RecallConfig.memori_compat`) keeps it, as upstream does."""
    analyze = analyzer(tokenizer, stemmer)
    if tokenizer == "memori":
        return analyze(query)
    subject = frozenset(analyze(USER_WORD))
    return [t for t in analyze(query) if t not in subject]
