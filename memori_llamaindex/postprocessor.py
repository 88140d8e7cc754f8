"""memori's hybrid ranking (dense pool + BM25 + fusion + threshold) for nodes of any retriever."""

from __future__ import annotations

from typing import Any

from llama_index.core.bridge.pydantic import Field, field_validator, model_validator
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import MetadataMode, NodeWithScore, QueryBundle

from memori_core.adapter_args import renamed_k_attribute
from memori_core.config import RecallConfig
from memori_core.failopen import STRICT_DEFAULT, warn_failed
from memori_core.ranking.rerank import RerankedCandidate, as_cosines, rerank

from ._common import check_nodes, logger
from ._fields import CountField, checked_flag
from .retriever import SCORE_METADATA_KEYS

_OWNER = "MemoriHybridPostprocessor"


class MemoriHybridPostprocessor(CountField, BaseNodePostprocessor):
    """Re-rank retrieved nodes with the recall engine's pool sizing, BM25, fusion and threshold.

    >>> reranker = MemoriHybridPostprocessor(k=5, config=RecallConfig())
    >>> query_engine = index.as_query_engine(similarity_top_k=20, node_postprocessors=[reranker])

    Each incoming node's ``score`` is taken as its cosine similarity (as a
    ``VectorStoreIndex`` retriever reports it), so retrieve more nodes than
    ``k`` and let this step pick. With a query, the pool is the
    ``candidate_limit(k, ...)`` best nodes by score; BM25 over the pool's
    texts (``MetadataMode.NONE``: the node text without metadata) is
    max-normalised and fused as ``w_cos * score + w_lex * lexical`` with the
    config's weights; the best ``k`` are returned with the fused score as
    their new ``score``, minus those below ``config.relevance_threshold``.

    - ``k`` is the result count, as on every memori adapter (``None``: ``config.limit``, 5 unless
      configured); ``top_n=``, its old name here, still works with a ``DeprecationWarning``.
    - A node without a score (``None``, or NaN) counts as cosine ``0.0``: it
      can still rank by its words, never by similarity.
    - With a query, a node with no text (``get_content(MetadataMode.NONE)`` blank: an empty ``TextNode``, an
      ``ImageNode`` without text) is dropped: it has no words to judge, and by its score alone it would be
      ranked above the text the query is about. The ranking (pool, BM25 statistics, gate) is over the text
      nodes only, as if it had not been there.
    - Without a query (no bundle, or a blank query string) nothing is
      re-scored: the nodes are ordered by their own score (missing = 0.0,
      ties keep input order), cut to ``k``, and no threshold applies.
    - With ``config.affinity_weight`` > 0 (off by default) a personal question is ranked with affinity, as the
      engine ranks it (:func:`memori_core.rerank`, docs/ranking.md item 40): ``embedder`` (a LlamaIndex
      ``BaseEmbedding``, or any embedder memori accepts; best the one the engine stores with) embeds the pool's
      texts and the query, and is required then (construction fails naming it).
    - ``attach_scores=True`` returns copies of the nodes carrying ``cosine``,
      ``lexical``, ``rank_score`` and ``passed_by`` (the gate rule that kept the node) metadata (hidden from the LLM and the
      embedder); by default the nodes are passed on unchanged apart from the score.
    - If ranking fails (a node whose text cannot be read, say) a warning is logged on the
      ``memori_llamaindex`` logger and the nodes go on as without this step: by their own score, cut
      to ``k``; ``strict=True`` raises instead (:mod:`memori_core.failopen`).
    """

    OLD_K_NAME = "top_n"
    config: RecallConfig = Field(
        default_factory=RecallConfig,
        description="Ranking settings: pool sizing, BM25, fusion weights, tokenizer, relevance threshold.",
    )
    attach_scores: bool = Field(
        default=False, description="Copy nodes and add cosine / lexical / rank_score to their metadata."
    )
    strict: bool = Field(
        default=STRICT_DEFAULT, description="Raise ranking errors instead of warning and passing the nodes on."
    )

    embedder: Any = Field(
        default=None, exclude=True,
        description="Embeds the pool's texts and the query for affinity (needed when config.affinity_weight > 0).",
    )

    top_n = renamed_k_attribute(_OWNER, "top_n")

    _check_flags = field_validator("attach_scores", "strict", mode="before")(checked_flag)

    @model_validator(mode="after")
    def _check_embedder(self) -> MemoriHybridPostprocessor:
        if self.config.affinity_weight > 0 and self.embedder is None:
            raise ValueError(f"{_OWNER}: embedder is required when config.affinity_weight > 0 (it is "
                             f"{self.config.affinity_weight}): affinity reads the nodes' life domains from their "
                             "embeddings; pass embedder=, or a config with affinity_weight=0")
        return self

    @classmethod
    def class_name(cls) -> str:
        """The name LlamaIndex serialises this component under."""
        return _OWNER

    def _limit(self) -> int:
        return self.config.limit if self.k is None else self.k

    def _postprocess_nodes(
        self,
        nodes: list[NodeWithScore],
        query_bundle: QueryBundle | None = None,
    ) -> list[NodeWithScore]:
        check_nodes(nodes, _OWNER)
        if not nodes:
            return []
        query = query_bundle.query_str if query_bundle is not None else ""
        if not (query or "").strip():
            return self._order_by_score(nodes)
        try:
            contents = [n.node.get_content(metadata_mode=MetadataMode.NONE) for n in nodes]
            # A node with no text (an empty TextNode, an ImageNode) has no words to judge: by its score alone it
            # would outrank the text the query is about, and its cosine would open the relevance gate for text
            # that cannot pass on its own. Only text is ranked (and returned).
            text = [i for i, content in enumerate(contents) if content.strip()]
            ranked = rerank(query, [contents[i] for i in text], [nodes[i].score for i in text], self._limit(),
                            self.config, embedder=self.embedder)
        except Exception as exc:
            if self.strict:
                raise
            warn_failed(logger, _OWNER, "re-ranking", None, exc, instead="passing the nodes on by their own score")
            return self._order_by_score(nodes)
        return [self._rescored(nodes[text[c.index]], c) for c in ranked]

    def _order_by_score(self, nodes: list[NodeWithScore]) -> list[NodeWithScore]:
        scores = as_cosines([n.score for n in nodes])
        order = sorted(range(len(nodes)), key=lambda i: -scores[i])
        return [nodes[i] for i in order[: self._limit()]]

    def _rescored(self, original: NodeWithScore, c: RerankedCandidate) -> NodeWithScore:
        node = original.node
        if self.attach_scores:
            node = node.model_copy(deep=False)
            node.metadata = {**node.metadata, "cosine": c.cosine, "lexical": c.lexical, "rank_score": c.rank_score,
                             "passed_by": c.passed_by}
            node.excluded_llm_metadata_keys = _with_keys(node.excluded_llm_metadata_keys)
            node.excluded_embed_metadata_keys = _with_keys(node.excluded_embed_metadata_keys)
        return NodeWithScore(node=node, score=c.rank_score)


def _with_keys(keys: list[str]) -> list[str]:
    return [*keys, *(k for k in SCORE_METADATA_KEYS if k not in keys)]
