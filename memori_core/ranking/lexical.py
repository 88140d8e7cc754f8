"""BM25: the one per-term weight, pool scoring with max-normalisation, and the lexical top rows.

The variant is :data:`BM25_VARIANT`. Two scorers share :func:`bm25_term_weight`:
:func:`bm25_from_tf` (statistics of a candidate pool, as upstream Memori
computes them) and :class:`memori_core.cache.postings.CSRIndex` (statistics of
an entity's whole memory).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .dense import top_k

__all__ = [
    "BM25_VARIANT",
    "LexicalScores",
    "bm25_from_tf",
    "bm25_idf",
    "bm25_pool",
    "bm25_term_weight",
    "max_normalise",
    "term_frequencies",
    "top_positive",
    "unique_terms",
]

BM25_VARIANT = "lucene-classic"
"""Name of the BM25 variant scored here: Lucene's idf with the classic ``(k1 + 1)`` tf numerator.

* idf: ``ln(1 + (N - df + 0.5) / (df + 0.5))`` (Lucene's; never negative, unlike Robertson's
  ``ln((N - df + 0.5) / (df + 0.5))``, so a term in every document still counts a little);
* tf: ``tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))`` with exact document lengths.

This is Lucene's ``BM25Similarity`` before Lucene 8 (which dropped the constant ``(k1 + 1)``)
without its lossy length encoding, and upstream Memori's formula. In ``bm25s`` terms it is
``BM25(method="atire", idf_method="lucene")`` exactly, and ``(k1 + 1)`` times
``BM25(method="lucene")`` (whose tf part has no ``(k1 + 1)``); ``tests/test_bm25_oracle.py``
checks both. The constant factor changes no ranking, and the pool's max-normalised score not at all.
"""


@dataclass(frozen=True)
class LexicalScores:
    """BM25 of each pool document: ``raw`` scores and ``normalised``: raw divided by ``max(pool maximum,
    lexical_floor x the summed idf of the query terms found in the pool)`` (:func:`bm25_from_tf`)."""

    raw: np.ndarray
    normalised: np.ndarray


def unique_terms(tokens: Sequence[str]) -> list[str]:
    """Query tokens de-duplicated, first occurrence order kept."""
    return list(dict.fromkeys(tokens))


def bm25_idf(n_docs: float, df: np.ndarray | float) -> np.ndarray:
    """Lucene idf ``ln(1 + (N - df + 0.5) / (df + 0.5))`` of terms found in ``df`` of ``n_docs`` documents."""
    return np.log1p((n_docs - df + 0.5) / (df + 0.5))


def bm25_term_weight(
    tf: np.ndarray, dl: np.ndarray, avgdl: float, idf: np.ndarray | float, *, k1: float, b: float
) -> np.ndarray:
    """The :data:`BM25_VARIANT` weight of a term in documents: ``idf * tf (k1 + 1) / (tf + k1 (1 - b + b dl / avgdl))``.

    ``tf``, ``dl`` and ``idf`` broadcast against each other (e.g. ``tf`` docs x
    terms, ``dl`` docs x 1, ``idf`` terms). With ``avgdl == 0`` (every document
    empty) the length factor is 1. Callers mask ``tf == 0`` themselves where it
    can occur (``0 / 0`` when ``b == 1`` and ``dl == 0``).
    """
    if avgdl > 0:
        norm = (1.0 - b) + b * (dl / avgdl)
    else:
        norm = np.ones_like(dl, dtype=np.float64)
    return idf * tf * (k1 + 1.0) / (tf + k1 * norm)


def term_frequencies(query_terms: Sequence[str], docs: Sequence[Sequence[str]]) -> tuple[np.ndarray, np.ndarray]:
    """Term frequencies (``len(docs)`` x ``len(query_terms)``, float64) and document lengths of tokenised docs."""
    n = len(docs)
    if n == 0 or not query_terms:
        return np.zeros((n, 0)), np.zeros(n)
    tf = np.array([[doc.count(t) for t in query_terms] for doc in docs], dtype=np.float64)
    dl = np.fromiter((len(doc) for doc in docs), dtype=np.float64, count=n)
    return tf, dl


def max_normalise(raw: np.ndarray, floor: float = 0.0) -> np.ndarray:
    """``raw / max(raw.max(), floor)``; all zeros when no score is positive (or there are none)."""
    if raw.shape[0] == 0:
        return np.zeros(0, dtype=np.float64)
    top = float(raw.max())
    if top <= 0.0:
        return np.zeros(raw.shape[0], dtype=np.float64)
    return raw / max(top, floor)


def bm25_from_tf(tf: np.ndarray, dl: np.ndarray, *, k1: float, b: float, floor: float = 0.0) -> LexicalScores:
    """BM25 of a pool from its term-frequency matrix ``tf`` (docs x unique query terms) and doc lengths ``dl``.

    Statistics (document count, document frequency, average length) are the
    pool's own, as upstream Memori computes them. The scores are divided by
    the pool's maximum, or by ``floor`` x the sum of the idf of the query
    terms that occur in the pool when that is larger (the BM25 of an
    average-length document holding each of those terms once): with
    ``floor > 0`` a fact matching only a common word of the query is not the
    "perfect" lexical match just because nothing matches better.
    """
    n = tf.shape[0]
    if n == 0 or tf.shape[1] == 0:
        zeros = np.zeros(n, dtype=np.float64)
        return LexicalScores(zeros, zeros.copy())
    df = np.count_nonzero(tf, axis=0).astype(np.float64)
    idf = bm25_idf(n, df)
    with np.errstate(invalid="ignore", divide="ignore"):
        weight = bm25_term_weight(tf, dl[:, None], float(dl.mean()), idf, k1=k1, b=b)
        per_term = np.where(tf > 0, weight, 0.0)
    raw = per_term.sum(axis=1)
    return LexicalScores(raw, max_normalise(raw, floor * float(idf[df > 0].sum()) if floor > 0 else 0.0))


def bm25_pool(
    query_terms: Sequence[str],
    docs: Sequence[Sequence[str]],
    *,
    k1: float,
    b: float,
) -> LexicalScores:
    """Score every tokenised document of the pool against the (unique) query terms.

    No query terms or no match in the pool gives all zeros.
    """
    tf, dl = term_frequencies(query_terms, docs)
    return bm25_from_tf(tf, dl, k1=k1, b=b)


def top_positive(scores: np.ndarray, k: int, tie: Callable[[np.ndarray], np.ndarray] | None = None) -> np.ndarray:
    """Positions of the ``k`` best positive scores, best first (ties: in ``tie`` order, else lower position first)."""
    hits = np.flatnonzero(scores > 0)
    # top_k keeps the first in tie order among those tied at the cut (argpartition would not).
    return hits[top_k(scores[hits], k, None if tie is None else lambda at: tie(hits[at]))]
