"""Ranking: exact dense scores, BM25, fusion and the pipeline that combines them.

Pure functions over numpy arrays (no store, no locks), shared by
:class:`memori_core.RecallEngine` and :func:`memori_core.rerank`:

* :mod:`.dense`: cosine scores, top-k, L2 normalisation;
* :mod:`.lexical`: BM25 (variant :data:`~.lexical.BM25_VARIANT`) and its max-normalisation;
* :mod:`.fusion`: pool size, fusion weights, linear fusion, ordering, threshold;
* :mod:`.pipeline`: pool -> lexical -> fusion -> neighbour smoothing -> threshold;
* :mod:`.judged`: with a judge (:mod:`memori_core.judge`), what it sees and what recall then keeps;
* :mod:`.rerank`: the pipeline over candidates found by another retriever (``from memori_core import rerank``;
  not re-exported here, so that ``ranking.rerank`` stays the module).
"""

from .dense import cosine_scores, l2_normalise, top_k
from .fusion import candidate_limit, fuse, fusion_weights, passes_threshold, rank_order
from .lexical import (
    BM25_VARIANT,
    LexicalScores,
    bm25_from_tf,
    bm25_idf,
    bm25_pool,
    bm25_term_weight,
    max_normalise,
    term_frequencies,
    top_positive,
    unique_terms,
)
from .pipeline import (
    SOURCE_DENSE,
    SOURCE_LEXICAL,
    SOURCE_NEIGHBOUR,
    Pool,
    PoolScores,
    assemble_pool,
    dense_top,
    fates,
    neighbour_hops,
    score_pool,
    select,
    source_label,
)

__all__ = [
    "BM25_VARIANT",
    "SOURCE_DENSE",
    "SOURCE_LEXICAL",
    "SOURCE_NEIGHBOUR",
    "LexicalScores",
    "Pool",
    "PoolScores",
    "assemble_pool",
    "bm25_from_tf",
    "bm25_idf",
    "bm25_pool",
    "bm25_term_weight",
    "candidate_limit",
    "cosine_scores",
    "dense_top",
    "fates",
    "neighbour_hops",
    "fuse",
    "fusion_weights",
    "l2_normalise",
    "max_normalise",
    "passes_threshold",
    "rank_order",
    "score_pool",
    "select",
    "source_label",
    "term_frequencies",
    "top_k",
    "top_positive",
    "unique_terms",
]
