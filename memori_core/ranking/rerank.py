"""Re-rank candidates found elsewhere with the engine's pool sizing, BM25, fusion and threshold.

Framework adapters use this to apply memori's hybrid ranking to results of
another retriever (for example a vector index): each candidate brings its text
and a similarity score that stands in for the cosine. The public import path
is ``memori_core.rerank``.

>>> from memori_core import RecallConfig
>>> from memori_core import rerank
>>> hits = rerank("blue", ["Lives in New York City.", "Favorite color is blue."], [0.9, 0.8],
...               limit=5, config=RecallConfig.memori_compat())
>>> [(h.index, round(h.rank_score, 2)) for h in hits]
[(1, 0.86), (0, 0.63)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..config import RecallConfig
from ..text import analyzer
from ..validate import check_limit, check_query
from .affinity import asks_personally, with_affinity
from .domain_vectors import rerank_affinity
from .fusion import candidate_limit
from .implications import with_implied
from .lexical import bm25_pool, term_frequencies, top_positive, unique_terms
from .gate import rule_names
from .pipeline import assemble_pool, dense_top, score_pool, select_with_rules

__all__ = ["RerankedCandidate", "as_cosines", "rerank"]


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
    """``bm25`` normalised to 0..1 (divided by ``max(pool maximum, lexical_floor x summed idf)``)."""
    rank_score: float
    """``w_cos * cosine + w_lex * lexical`` plus ``affinity``; the cosine alone when there is no query text."""
    affinity: float = 0.0
    """What a personal question's ranking added (:mod:`.affinity`, ``config.affinity_weight`` > 0): the
    engine's ``explain`` column ``affin``. 0 without it."""
    passed_by: str = ""
    """The gate rule that kept the candidate (:attr:`memori_core.facts.RecalledFact.passed_by`); ``""`` when
    ``apply_threshold`` is false (no gate)."""


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


def rerank(
    query: str,
    contents: Sequence[str],
    cosines: Sequence[float | None],
    limit: int | None = None,
    config: RecallConfig | None = None,
    *,
    apply_threshold: bool = True,
    embedder: Any | None = None,
) -> list[RerankedCandidate]:
    """Rank ``(content, cosine)`` candidates as :meth:`RecallEngine.recall` ranks an entity's facts.

    The pool is the ``candidate_limit(limit, n, ...)`` best candidates by
    cosine (``P``); with ``config.pool == "union"`` the ``P`` best candidates
    by BM25 over all of them join it, as the engine adds the BM25 top ``P`` of
    an entity's whole memory. BM25 is then computed over the pool with the
    config's tokenizer, stemmer, ``k1`` and ``b``, max-normalised, and fused
    with the cosine using the config's weights for the query's length.
    Neighbour smoothing does not apply (candidates carry no session order). Under the relevance gate, a
    fact whose concerns the question touches (a care fact or a limitation) is ranked into the ``limit`` best
    and kept (:mod:`.implications`), as the engine does.
    The best ``limit`` are returned, best first (ties: higher cosine, then
    pool order), without those below ``config.relevance_threshold`` unless
    ``apply_threshold`` is false.

    With ``config.affinity_weight`` > 0 a personal question's ranking adds the life domains it shares with each
    pool candidate and its care facts, as the engine's does (:mod:`.affinity`, docs/ranking.md item 40), read
    from ``embedder``'s embeddings of the pool's texts and of the query (an :class:`~memori_core.Embedder`, a
    LangChain ``Embeddings``, a LlamaIndex ``BaseEmbedding`` or a callable; required then, and best the one the
    engine stores with, else the domains differ). It orders the candidates; the gate reads the score without it.
    Its length rules read the pool's texts as the engine's read its pool, so they match when the candidates are
    the facts the engine would gather; other candidates make another pool, and so another median for the
    chat-turn rule (as they make another BM25).

    A blank query ranks by cosine alone (``rank_score = cosine``). ``limit``
    defaults to ``config.limit``; ``limit=0`` or no candidates returns ``[]`` (a negative one raises ``ValueError``).
    """
    cfg = config if config is not None else RecallConfig()
    query = check_query(query)
    limit = check_limit(limit, cfg.limit)
    if cfg.affinity_weight > 0 and embedder is None:
        raise ValueError(f"embedder is required when config.affinity_weight > 0 (it is {cfg.affinity_weight}): "
                         "affinity reads the candidates' life domains from their embeddings; pass the embedder "
                         "the engine uses, or a config with affinity_weight=0")
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
    dense_rows = dense_top(cos_all, pool_n)
    q_tokens: list[str] = []
    if has_text:
        analyze = analyzer(cfg.tokenizer, cfg.stemmer)
        q_tokens = analyze(query)
        q_terms = unique_terms(q_tokens)
        if cfg.pool == "union" and q_terms and pool_n < n:
            # The lexical half of the pool, with the statistics of all the candidates.
            docs = [analyze(text) for text in contents]
            lexical_rows = top_positive(bm25_pool(q_terms, docs, k1=cfg.k1, b=cfg.b).raw, pool_n)
            pool = assemble_pool(dense_rows, lexical_rows)
            pool_docs = [docs[i] for i in pool.rows.tolist()]
        else:
            pool = assemble_pool(dense_rows)
            pool_docs = [analyze(contents[i]) for i in pool.rows.tolist()]
        tf, dl = term_frequencies(q_terms, pool_docs)
    else:
        pool = assemble_pool(dense_rows)
        tf, dl = np.zeros((pool.rows.shape[0], 0)), np.zeros(pool.rows.shape[0])  # no query terms
    scores = score_pool(pool, cos_all[pool.rows], tf, dl, q_tokens, cfg, has_text=has_text)
    if embedder is not None and cfg.affinity_weight > 0 and asks_personally(query):
        texts = [contents[i] for i in scores.rows.tolist()]
        scores = with_affinity(scores, rerank_affinity(query, texts, embedder, cfg.affinity_weight))
    if apply_threshold and cfg.gate == "relevance" and cfg.gate_implied and has_text:
        scores = with_implied(query, scores, lambda: [contents[i] for i in scores.rows.tolist()], limit=limit,
                              config=cfg)
    top, codes = select_with_rules(scores, limit, cfg if apply_threshold else None)
    return [
        RerankedCandidate(
            index=int(scores.rows[i]),
            cosine=float(scores.cosine[i]),
            bm25=float(scores.bm25[i]),
            lexical=float(scores.lexical[i]),
            rank_score=float(scores.rank_score[i]),
            affinity=0.0 if scores.affinity is None else float(scores.affinity[i]),
            passed_by=rule if apply_threshold else "",
        )
        for i, rule in zip(top.tolist(), rule_names(codes))
    ]
