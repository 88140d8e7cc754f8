"""BM25 for the tests: the whole-memory index fed token strings, and the formula written out by hand (the oracle
that the pool's BM25 and the index are checked against)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

__all__ = ["TokenIndex", "reference_bm25"]


class TokenIndex:
    """A :class:`~memori_core.cache.postings.CSRIndex` grown from empty, fed token strings instead of term ids
    (how the cache indexes an analyzer other than its own)."""

    def __init__(self) -> None:
        from memori_core.cache.postings import CSRIndex

        self.csr = CSRIndex.empty()

    def add(self, row: int, tokens: Sequence[str]) -> None:
        self.csr.add(row, [self.csr.term_id(t) for t in tokens])

    def remove(self, row: int, tokens: Sequence[str]) -> None:
        self.csr.remove(row, [self.csr.term_id(t) for t in tokens])

    def __getattr__(self, name: str) -> Any:
        return getattr(self.csr, name)


def reference_bm25(query: Sequence[str], docs: Sequence[Sequence[str]], k1: float, b: float) -> list[float]:
    """BM25 of every doc in ``docs`` over their own statistics, written out term by term as docs/ranking.md
    section 3 gives it (raw scores, Lucene's idf ``ln(1 + (N - df + 0.5) / (df + 0.5))``, each query term once):
    the oracle of the pool's BM25 and of the whole-memory index (pass the live docs only)."""
    n = len(docs)
    avgdl = sum(len(d) for d in docs) / n if n else 0.0
    terms = list(dict.fromkeys(query))
    df = {t: sum(1 for d in docs if t in d) for t in terms}
    scores = []
    for doc in docs:
        norm = (1.0 - b + b * len(doc) / avgdl) if avgdl > 0 else 1.0
        score = 0.0
        for t in terms:
            tf = list(doc).count(t)
            if tf:
                idf = math.log(1.0 + (n - df[t] + 0.5) / (df[t] + 0.5))
                score += idf * tf * (k1 + 1.0) / (tf + k1 * norm)
        scores.append(score)
    return scores
