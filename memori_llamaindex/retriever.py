"""A LlamaIndex retriever over one user's long-term memory."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.callbacks.base import CallbackManager
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from memori_core.adapter_args import (
    CheckedAttribute,
    check_adapter_args,
    check_entity_default,
    check_flag,
    check_k,
    renamed_k,
    renamed_k_attribute,
    resolve_entity_id,
)
from memori_core.engine import RecallEngine
from memori_core.facts import RecalledFact
from memori_core.failopen import STRICT_DEFAULT, FailOpenRecall, check_timeout
from memori_core.metadata_keys import BOOKKEEPING_METADATA_KEYS
from memori_core.metadata_keys import CAPTURE_METADATA_KEYS as CAPTURE_METADATA_KEYS  # its former home was here

from ._common import logger

SCORE_METADATA_KEYS: tuple[str, ...] = ("cosine", "lexical", "rank_score", "passed_by")
"""Metadata keys holding the parts of a fact's score and the rule that brought it in
(:attr:`~memori_core.RecalledFact.passed_by`)."""

DEFAULT_EXCLUDED_LLM_METADATA_KEYS: tuple[str, ...] = ("entity_id", *SCORE_METADATA_KEYS, *BOOKKEEPING_METADATA_KEYS)
"""Bookkeeping the LLM does not need to read: the entity, the score parts and every key memori-recall writes or
adds itself (:data:`memori_core.metadata_keys.BOOKKEEPING_METADATA_KEYS`: capture's keys, ``core``, a LangGraph
store item, recall's counters); ``created_at``, ``valid_from``, ``restored_at``, ``valid_to`` and the rest of the user metadata stay
visible."""

DEFAULT_EXCLUDED_EMBED_METADATA_KEYS: tuple[str, ...] = (
    "entity_id", "created_at", "valid_from", "restored_at", "valid_to", *SCORE_METADATA_KEYS, *BOOKKEEPING_METADATA_KEYS,
)
"""Keys kept out of the text a node is embedded with (if it is ever re-embedded)."""

_OWNER = "MemoriRetriever"
_WAYS = ("use retriever.with_entity(entity_id)",)


class MemoriRetriever(BaseRetriever):
    """Recall one user's stored facts as LlamaIndex nodes, ranked by memori's hybrid score.

    >>> retriever = MemoriRetriever(engine=engine, entity_id="user-1", k=5)
    >>> query_engine = RetrieverQueryEngine.from_args(retriever, llm=llm)

    Each result is a ``NodeWithScore`` whose ``score`` is the fact's fused
    ``rank_score`` and whose ``TextNode`` has the fact id as ``id_``, the fact
    text as ``text``, and metadata ``entity_id``, ``created_at``, ``cosine``,
    ``lexical``, ``rank_score``, ``passed_by`` (the rule that brought the fact in, docs/ranking.md) (plus ``times_seen`` / ``last_seen``,
    ``session_id`` when the fact has one, ``valid_from`` when its current text became valid after ``created_at``,
    an updated text, ``restored_at`` when a restore made it valid again, ``valid_to`` when a fact recalled for a
    question about the past is no longer true, and the fact's own metadata). Only
    ``created_at``, ``valid_from``, ``restored_at``, ``valid_to`` and the fact's own metadata are shown to the LLM unless
    ``excluded_llm_metadata_keys`` says otherwise.

    ``k`` is the result count, as on every memori adapter (``similarity_top_k=``, its old name here, still
    works with a ``DeprecationWarning``). The entity is fixed per retriever: pass ``entity_id`` here, or
    build one retriever per request with :meth:`with_entity`. Retrieving without an entity raises
    ``ValueError``. If recall fails (store down, embedder error) a warning is logged and no nodes are
    returned, as for every memori adapter; ``strict=True`` raises instead (:mod:`memori_core.failopen`).
    ``timeout`` (seconds; default ``None``: no limit but the store's per request) bounds the whole recall,
    as ``MemoriRecall(timeout=...)`` does: past it no nodes are returned (a user's first recall in a process
    over a server reads all their facts, which takes seconds for a large user; it runs on in the background).
    The query bundle's ``embedding`` is not used: the engine embeds the query with its own embedder, the
    one its facts were stored with.
    """

    def __init__(
        self,
        engine: RecallEngine,
        entity_id: str | None = None,
        k: int | None = None,
        *,
        strict: bool = STRICT_DEFAULT,
        timeout: float | None = None,
        excluded_llm_metadata_keys: Sequence[str] | None = None,
        excluded_embed_metadata_keys: Sequence[str] | None = None,
        callback_manager: CallbackManager | None = None,
        verbose: bool = False,
        similarity_top_k: int | None = None,
    ) -> None:
        """``engine``: the :class:`~memori_core.RecallEngine` holding the facts;
        ``entity_id``: whose facts to recall; ``k``: at most this many nodes (fewer when the relevance
        threshold removes some; ``None``: the engine's ``config.limit``, 5 unless configured);
        ``timeout``: seconds one whole recall may take (``None``: no limit but the store's per request);
        ``similarity_top_k``: deprecated name of ``k``."""
        k = renamed_k(_OWNER, k, "similarity_top_k", similarity_top_k)
        self.engine, self.entity_id, self.k = check_adapter_args(_OWNER, engine, entity_id, k)
        super().__init__(callback_manager=callback_manager, verbose=verbose)
        self.strict = strict
        self.timeout = timeout
        if excluded_llm_metadata_keys is None:
            excluded_llm_metadata_keys = DEFAULT_EXCLUDED_LLM_METADATA_KEYS
        if excluded_embed_metadata_keys is None:
            excluded_embed_metadata_keys = DEFAULT_EXCLUDED_EMBED_METADATA_KEYS
        self.excluded_llm_metadata_keys = list(excluded_llm_metadata_keys)
        self.excluded_embed_metadata_keys = list(excluded_embed_metadata_keys)

    similarity_top_k = renamed_k_attribute(_OWNER, "similarity_top_k")

    # Checked whenever set, as by the constructor (``retriever.entity_id = " bob"`` raises).
    entity_id = CheckedAttribute(check_entity_default)
    k = CheckedAttribute(check_k)
    timeout = CheckedAttribute(check_timeout)
    strict = CheckedAttribute(lambda value, owner: check_flag(value, owner, "strict"))

    def with_entity(self, entity_id: str) -> MemoriRetriever:
        """A retriever with the same settings recalling ``entity_id``'s facts (e.g. one per request)."""
        return MemoriRetriever(
            self.engine,
            resolve_entity_id(_OWNER, entity_id, ways=_WAYS),
            self.k,
            strict=self.strict,
            timeout=self.timeout,
            excluded_llm_metadata_keys=self.excluded_llm_metadata_keys,
            excluded_embed_metadata_keys=self.excluded_embed_metadata_keys,
            callback_manager=self.callback_manager,
            verbose=self._verbose,
        )

    def retrieve(self, str_or_query_bundle: str | QueryBundle) -> list[NodeWithScore]:
        """The nodes for a query (a ``str`` or a ``QueryBundle``); anything else is a ``TypeError`` naming the
        retriever, raised before LlamaIndex's instrumentation event would refuse it with a pydantic error."""
        return super().retrieve(_checked_query(str_or_query_bundle))

    async def aretrieve(self, str_or_query_bundle: str | QueryBundle) -> list[NodeWithScore]:
        """Async :meth:`retrieve`."""
        return await super().aretrieve(_checked_query(str_or_query_bundle))

    def fact_to_node(self, fact: RecalledFact) -> NodeWithScore:
        """The ``NodeWithScore`` for one recalled fact."""
        return fact_node(fact, self.excluded_llm_metadata_keys, self.excluded_embed_metadata_keys)

    def _recall(self, query_bundle: QueryBundle) -> FailOpenRecall:
        """The recall of one query, planned once for both twins (only the I/O differs)."""
        entity_id = resolve_entity_id(_OWNER, self.entity_id, ways=_WAYS)
        return FailOpenRecall(self.engine, query_bundle.query_str, entity_id, self.k, self.strict, _OWNER, logger,
                              timeout=self.timeout)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return [self.fact_to_node(f) for f in self._recall(query_bundle).run()]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return [self.fact_to_node(f) for f in await self._recall(query_bundle).arun()]


def _checked_query(query: Any) -> str | QueryBundle:
    if not isinstance(query, (str, QueryBundle)):
        raise TypeError(f"{_OWNER}: query must be a str or a QueryBundle, got {type(query).__name__}")
    return query


def fact_node(
    fact: RecalledFact,
    excluded_llm_metadata_keys: Sequence[str] = DEFAULT_EXCLUDED_LLM_METADATA_KEYS,
    excluded_embed_metadata_keys: Sequence[str] = DEFAULT_EXCLUDED_EMBED_METADATA_KEYS,
) -> NodeWithScore:
    """One recalled fact as a ``NodeWithScore``: the fact id as ``id_``, its text, ``rank_score`` as the
    score, and the metadata :class:`MemoriRetriever` documents (the listed keys hidden from the LLM / embedder)."""
    metadata: dict[str, Any] = dict(fact.metadata)
    metadata["entity_id"] = fact.entity_id
    if fact.created_at:
        metadata["created_at"] = fact.created_at
    if fact.valid_from:
        metadata["valid_from"] = fact.valid_from  # the LLM reads when an updated text became true
    if fact.restored_at:
        metadata["restored_at"] = fact.restored_at  # and when a restored fact became true again
    if fact.valid_to:
        metadata["valid_to"] = fact.valid_to  # a fact recalled for a question about the past: no longer true since
    metadata["cosine"] = fact.cosine
    metadata["lexical"] = fact.lexical
    metadata["rank_score"] = fact.rank_score
    metadata["passed_by"] = fact.passed_by
    node = TextNode(
        id_=fact.id,
        text=fact.content,
        metadata=metadata,
        excluded_llm_metadata_keys=list(excluded_llm_metadata_keys),
        excluded_embed_metadata_keys=list(excluded_embed_metadata_keys),
    )
    return NodeWithScore(node=node, score=fact.rank_score)
