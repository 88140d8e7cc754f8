"""Re-rank candidates found elsewhere with the engine's pool sizing, BM25, fusion and threshold.

Framework adapters use this to apply memori's hybrid ranking to results of
another retriever (for example a vector index): each candidate brings its text
and a similarity score that stands in for the cosine.

>>> from memori_core import RecallConfig
>>> from memori_core.rerank import rerank
>>> hits = rerank("blue", ["Lives in New York City.", "Favorite color is blue."], [0.9, 0.8],
...               limit=5, config=RecallConfig.memori_compat())
>>> [(h.index, round(h.rank_score, 2)) for h in hits]
[(1, 0.86), (0, 0.63)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .config import RecallConfig
from .dense import top_k
from .lexical import bm25_pool, fusion_weights, unique_terms
from .ranking import candidate_limit, fuse, passes_threshold, rank_order
from .stemming import analyzer
from .validate import check_limit, check_query


@dataclass(frozen=True)
class RerankedCandidate:
    """One candidate after re-ranking, with every part of its score."""

    index: int
    """Position of the candidate in the input sequences."""
    cosine: float
    """The similarity the candidate came with (non-finite or missing scores count as 0)."""
    bm25: float
    """Raw BM25 over the candidate pool."""
    lexical: float
    """``bm25`` divided by the pool's maximum (0..1)."""
    rank_score: float
    """``w_cos * cosine + w_lex * lexical``; the cosine alone when there is no query text."""


def as_cosines(scores: Sequence[float | None]) -> np.ndarray:
    """Scores as a float64 array; ``None``, NaN and infinities become ``0.0``."""
    out = np.zeros(len(scores), dtype=np.float64)
    for i, s in enumerate(scores):
        if s is None or isinstance(s, bool):
            continue
        value = float(s)
        if math.isfinite(value):
            out[i] = value
    return out


def _lexical_extra(
    q_terms: Sequence[str], docs: Sequence[Sequence[str]], k: int, taken: set[int], cfg: RecallConfig
) -> list[int]:
    """The union pool's lexical half: the ``k`` best positive BM25 scores over all candidates
    (statistics of the whole candidate set), best first, ties by position; those not already pooled."""
    raw = bm25_pool(q_terms, docs, k1=cfg.k1, b=cfg.b).raw
    hits = np.flatnonzero(raw > 0)
    best = hits[np.argsort(-raw[hits], kind="stable")][:k]
    return [int(i) for i in best if int(i) not in taken]


def rerank(
    query: str,
    contents: Sequence[str],
    cosines: Sequence[float | None],
    limit: int | None = None,
    config: RecallConfig | None = None,
    *,
    apply_threshold: bool = True,
) -> list[RerankedCandidate]:
    """Rank ``(content, cosine)`` candidates as :meth:`RecallEngine.recall` ranks an entity's facts.

    The pool is the ``candidate_limit(limit, n, ...)`` best candidates by
    cosine (``P``); with ``config.pool == "union"`` the ``P`` best candidates
    by BM25 over all of them join it, as the engine adds the BM25 top ``P`` of
    an entity's whole memory. BM25 is then computed over the pool with the
    config's tokenizer, stemmer, ``k1`` and ``b``, max-normalised, and fused
    with the cosine using the config's weights for the query's length.
    Neighbour smoothing does not apply (candidates carry no session order).
    The best ``limit`` are returned, best first (ties: higher cosine, then
    pool order), without those below ``config.relevance_threshold`` unless
    ``apply_threshold`` is false.

    A blank query ranks by cosine alone (``rank_score = cosine``). ``limit``
    defaults to ``config.limit``; ``limit <= 0`` or no candidates returns ``[]``.
    """
    cfg = config if config is not None else RecallConfig()
    query = check_query(query)
    limit = check_limit(limit, cfg.limit)
    if len(contents) != len(cosines):
        raise ValueError(f"{len(contents)} contents but {len(cosines)} cosines")
    for i, text in enumerate(contents):
        if not isinstance(text, str):
            raise TypeError(f"contents[{i}] must be a str, got {type(text).__name__}")
    n = len(contents)
    if n == 0 or limit <= 0:
        return []

    cos_all = as_cosines(cosines)
    has_text = bool(query.strip())
    pool_n = candidate_limit(limit, n, has_text, cfg)
    rows = top_k(cos_all, pool_n).tolist()
    if has_text:
        analyze = analyzer(cfg.tokenizer, cfg.stemmer)
        q_tokens = analyze(query)
        q_terms = unique_terms(q_tokens)
        if cfg.pool == "union" and q_terms and pool_n < n:
            docs = [analyze(text) for text in contents]
            rows += _lexical_extra(q_terms, docs, pool_n, set(rows), cfg)
            pool_docs = [docs[i] for i in rows]
        else:
            pool_docs = [analyze(contents[i]) for i in rows]
        pool = np.asarray(rows, dtype=np.int64)
        lex = bm25_pool(q_terms, pool_docs, k1=cfg.k1, b=cfg.b)
        w_cos, w_lex = fusion_weights(len(q_tokens), cfg)
        cosine = cos_all[pool]
        raw, lexical = lex.raw, lex.normalised
        score = fuse(cosine, lexical, w_cos, w_lex)
    else:
        pool = np.asarray(rows, dtype=np.int64)
        cosine = cos_all[pool]
        raw = lexical = np.zeros(pool.shape[0], dtype=np.float64)
        score = cosine.copy()

    top = rank_order(score, cosine, limit)
    if apply_threshold:
        top = top[passes_threshold(score[top], cfg.relevance_threshold)]
    return [
        RerankedCandidate(
            index=int(pool[i]),
            cosine=float(cosine[i]),
            bm25=float(raw[i]),
            lexical=float(lexical[i]),
            rank_score=float(score[i]),
        )
        for i in top
    ]
