"""memori's hybrid ranking (dense pool + BM25 + fusion + threshold) for nodes of any retriever."""

from __future__ import annotations

from llama_index.core.bridge.pydantic import Field
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import MetadataMode, NodeWithScore, QueryBundle

from memori_core import RecallConfig
from memori_core.ranking.rerank import RerankedCandidate, as_cosines, rerank

from .retriever import SCORE_METADATA_KEYS


class MemoriHybridPostprocessor(BaseNodePostprocessor):
    """Re-rank retrieved nodes with the recall engine's pool sizing, BM25, fusion and threshold.

    >>> reranker = MemoriHybridPostprocessor(top_n=5, config=RecallConfig())
    >>> query_engine = index.as_query_engine(similarity_top_k=20, node_postprocessors=[reranker])

    Each incoming node's ``score`` is taken as its cosine similarity (as a
    ``VectorStoreIndex`` retriever reports it), so retrieve more nodes than
    ``top_n`` and let this step pick. With a query, the pool is the
    ``candidate_limit(top_n, ...)`` best nodes by score; BM25 over the pool's
    texts (``MetadataMode.NONE``: the node text without metadata) is
    max-normalised and fused as ``w_cos * score + w_lex * lexical`` with the
    config's weights; the best ``top_n`` are returned with the fused score as
    their new ``score``, minus those below ``config.relevance_threshold``.

    - A node without a score (``None``, or NaN) counts as cosine ``0.0``: it
      can still rank by its words, never by similarity.
    - Without a query (no bundle, or a blank query string) nothing is
      re-scored: the nodes are ordered by their own score (missing = 0.0,
      ties keep input order), cut to ``top_n``, and no threshold applies.
    - ``attach_scores=True`` returns copies of the nodes carrying ``cosine``,
      ``lexical`` and ``rank_score`` metadata (hidden from the LLM and the
      embedder); by default the nodes are passed on unchanged apart from the score.
    """

    top_n: int = Field(default=5, ge=1, description="Return at most this many nodes.")
    config: RecallConfig = Field(
        default_factory=RecallConfig,
        description="Ranking settings: pool sizing, BM25, fusion weights, tokenizer, relevance threshold.",
    )
    attach_scores: bool = Field(
        default=False, description="Copy nodes and add cosine / lexical / rank_score to their metadata."
    )

    @classmethod
    def class_name(cls) -> str:
        return "MemoriHybridPostprocessor"

    def _postprocess_nodes(
        self,
        nodes: list[NodeWithScore],
        query_bundle: QueryBundle | None = None,
    ) -> list[NodeWithScore]:
        if not nodes:
            return []
        query = query_bundle.query_str if query_bundle is not None else ""
        if not (query or "").strip():
            return self._order_by_score(nodes)
        ranked = rerank(
            query,
            [n.node.get_content(metadata_mode=MetadataMode.NONE) for n in nodes],
            [n.score for n in nodes],
            self.top_n,
            self.config,
        )
        return [self._rescored(nodes[c.index], c) for c in ranked]

    def _order_by_score(self, nodes: list[NodeWithScore]) -> list[NodeWithScore]:
        scores = as_cosines([n.score for n in nodes])
        order = sorted(range(len(nodes)), key=lambda i: -scores[i])
        return [nodes[i] for i in order[: self.top_n]]

    def _rescored(self, original: NodeWithScore, c: RerankedCandidate) -> NodeWithScore:
        node = original.node
        if self.attach_scores:
            node = node.model_copy(deep=False)
            node.metadata = {**node.metadata, "cosine": c.cosine, "lexical": c.lexical, "rank_score": c.rank_score}
            node.excluded_llm_metadata_keys = _with_keys(node.excluded_llm_metadata_keys)
            node.excluded_embed_metadata_keys = _with_keys(node.excluded_embed_metadata_keys)
        return NodeWithScore(node=node, score=c.rank_score)


def _with_keys(keys: list[str]) -> list[str]:
    return [*keys, *(k for k in SCORE_METADATA_KEYS if k not in keys)]
