"""BM25 over a candidate pool, max-normalised, and the fusion weights."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .config import RecallConfig


@dataclass(frozen=True)
class LexicalScores:
    """BM25 of each pool document: ``raw`` scores and ``normalised`` (raw / pool max)."""

    raw: np.ndarray
    normalised: np.ndarray


def unique_terms(tokens: Sequence[str]) -> list[str]:
    """Query tokens de-duplicated, first occurrence order kept."""
    return list(dict.fromkeys(tokens))


def bm25_pool(
    query_terms: Sequence[str],
    docs: Sequence[Sequence[str]],
    *,
    k1: float,
    b: float,
) -> LexicalScores:
    """Score every document of the pool against the (unique) query terms.

    Statistics (document count, document frequency, average length) are the
    pool's own, as upstream Memori computes them. No query terms or no match
    in the pool gives all zeros.
    """
    n = len(docs)
    if n == 0 or not query_terms:
        return bm25_from_tf(np.zeros((n, 0)), np.zeros(n), k1=k1, b=b)
    tf = np.array([[doc.count(t) for t in query_terms] for doc in docs], dtype=np.float64)
    dl = np.fromiter((len(doc) for doc in docs), dtype=np.float64, count=n)
    return bm25_from_tf(tf, dl, k1=k1, b=b)


def bm25_from_tf(tf: np.ndarray, dl: np.ndarray, *, k1: float, b: float) -> LexicalScores:
    """BM25 of a pool from its term-frequency matrix ``tf`` (docs x unique query terms) and doc lengths ``dl``."""
    n = tf.shape[0]
    if n == 0 or tf.shape[1] == 0:
        zeros = np.zeros(n, dtype=np.float64)
        return LexicalScores(zeros, zeros.copy())
    avgdl = float(dl.mean())
    norm = (1.0 - b) + b * (dl / avgdl) if avgdl > 0 else np.ones(n)
    df = np.count_nonzero(tf, axis=0).astype(np.float64)
    idf = np.log1p((n - df + 0.5) / (df + 0.5))
    with np.errstate(invalid="ignore", divide="ignore"):
        per_term = np.where(tf > 0, idf * tf * (k1 + 1.0) / (tf + k1 * norm[:, None]), 0.0)
    raw = per_term.sum(axis=1)
    top = float(raw.max())
    if top <= 0.0:
        return LexicalScores(raw, np.zeros(n, dtype=np.float64))
    return LexicalScores(raw, raw / top)


def fusion_weights(query_token_count: int, config: RecallConfig) -> tuple[float, float]:
    """``(w_cos, w_lex)`` for a query with this many tokens (stopwords removed, repeats counted)."""
    short = query_token_count <= config.short_query_max_tokens
    w_lex = config.lex_weight_short if short else config.lex_weight
    lo, hi = config.weight_clamp
    w_lex = max(lo, min(hi, float(w_lex)))
    return 1.0 - w_lex, w_lex
