"""A LlamaIndex retriever over one user's long-term memory."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.callbacks.base import CallbackManager
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from memori_core import RecalledFact, RecallEngine

from ._common import asafe_recall, require_entity, safe_recall

SCORE_METADATA_KEYS: tuple[str, ...] = ("cosine", "lexical", "rank_score")
"""Metadata keys holding the parts of a fact's score."""

DEFAULT_EXCLUDED_LLM_METADATA_KEYS: tuple[str, ...] = (
    "entity_id", *SCORE_METADATA_KEYS, "times_seen", "last_seen", "session_id",
)
"""Bookkeeping the LLM does not need to read; ``created_at`` and user metadata stay visible."""

DEFAULT_EXCLUDED_EMBED_METADATA_KEYS: tuple[str, ...] = (
    "entity_id", "created_at", *SCORE_METADATA_KEYS, "times_seen", "last_seen", "session_id",
)
"""Keys kept out of the text a node is embedded with (if it is ever re-embedded)."""

_OWNER = "MemoriRetriever"


class MemoriRetriever(BaseRetriever):
    """Recall one user's stored facts as LlamaIndex nodes, ranked by memori's hybrid score.

    >>> retriever = MemoriRetriever(engine=engine, entity_id="user-1", similarity_top_k=5)
    >>> query_engine = RetrieverQueryEngine.from_args(retriever, llm=llm)

    Each result is a ``NodeWithScore`` whose ``score`` is the fact's fused
    ``rank_score`` and whose ``TextNode`` has the fact id as ``id_``, the fact
    text as ``text``, and metadata ``entity_id``, ``created_at``, ``cosine``,
    ``lexical``, ``rank_score`` (plus ``times_seen`` / ``last_seen``,
    ``session_id`` when the fact has one, and the fact's own metadata). Only ``created_at`` and the fact's own metadata are
    shown to the LLM unless ``excluded_llm_metadata_keys`` says otherwise.

    The entity is fixed per retriever: pass ``entity_id`` here, or build one
    retriever per request with :meth:`with_entity`. Retrieving without an
    entity raises ``ValueError``. If recall fails (store down, embedder
    error) a warning is logged and no nodes are returned; ``strict=True``
    raises instead. The query bundle's ``embedding`` is not used: the engine
    embeds the query with its own embedder, the one its facts were stored with.
    """

    def __init__(
        self,
        engine: RecallEngine,
        entity_id: str | None = None,
        similarity_top_k: int = 5,
        *,
        strict: bool = False,
        excluded_llm_metadata_keys: Sequence[str] | None = None,
        excluded_embed_metadata_keys: Sequence[str] | None = None,
        callback_manager: CallbackManager | None = None,
        verbose: bool = False,
    ) -> None:
        """``engine``: the :class:`~memori_core.RecallEngine` holding the facts;
        ``entity_id``: whose facts to recall; ``similarity_top_k``: at most this
        many nodes (fewer when the relevance threshold removes some)."""
        if not callable(getattr(engine, "recall", None)) or not callable(getattr(engine, "arecall", None)):
            raise TypeError(f"engine must be a RecallEngine, got {type(engine).__name__}")
        if isinstance(similarity_top_k, bool) or not isinstance(similarity_top_k, int) or similarity_top_k < 1:
            raise ValueError(f"similarity_top_k must be an int >= 1, got {similarity_top_k!r}")
        super().__init__(callback_manager=callback_manager, verbose=verbose)
        self.engine = engine
        self.entity_id = None if entity_id is None else require_entity(entity_id, _OWNER, "")
        self.similarity_top_k = similarity_top_k
        self.strict = bool(strict)
        if excluded_llm_metadata_keys is None:
            excluded_llm_metadata_keys = DEFAULT_EXCLUDED_LLM_METADATA_KEYS
        if excluded_embed_metadata_keys is None:
            excluded_embed_metadata_keys = DEFAULT_EXCLUDED_EMBED_METADATA_KEYS
        self.excluded_llm_metadata_keys = list(excluded_llm_metadata_keys)
        self.excluded_embed_metadata_keys = list(excluded_embed_metadata_keys)

    def with_entity(self, entity_id: str) -> MemoriRetriever:
        """A retriever with the same settings recalling ``entity_id``'s facts (e.g. one per request)."""
        return MemoriRetriever(
            self.engine,
            require_entity(entity_id, _OWNER, "with_entity() needs an entity_id"),
            self.similarity_top_k,
            strict=self.strict,
            excluded_llm_metadata_keys=self.excluded_llm_metadata_keys,
            excluded_embed_metadata_keys=self.excluded_embed_metadata_keys,
            callback_manager=self.callback_manager,
            verbose=self._verbose,
        )

    def _entity(self) -> str:
        return require_entity(
            self.entity_id, _OWNER,
            "pass entity_id=... to MemoriRetriever(...), or use retriever.with_entity(entity_id)",
        )

    def fact_to_node(self, fact: RecalledFact) -> NodeWithScore:
        """The ``NodeWithScore`` for one recalled fact."""
        metadata: dict[str, Any] = dict(fact.metadata)
        metadata["entity_id"] = fact.entity_id
        if fact.created_at:
            metadata["created_at"] = fact.created_at
        metadata["cosine"] = fact.cosine
        metadata["lexical"] = fact.lexical
        metadata["rank_score"] = fact.rank_score
        node = TextNode(
            id_=fact.id,
            text=fact.content,
            metadata=metadata,
            excluded_llm_metadata_keys=list(self.excluded_llm_metadata_keys),
            excluded_embed_metadata_keys=list(self.excluded_embed_metadata_keys),
        )
        return NodeWithScore(node=node, score=fact.rank_score)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        entity_id = self._entity()
        facts = safe_recall(
            self.engine, query_bundle.query_str, entity_id, self.similarity_top_k, strict=self.strict, owner=_OWNER
        )
        return [self.fact_to_node(f) for f in facts]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        entity_id = self._entity()
        facts = await asafe_recall(
            self.engine, query_bundle.query_str, entity_id, self.similarity_top_k, strict=self.strict, owner=_OWNER
        )
        return [self.fact_to_node(f) for f in facts]
