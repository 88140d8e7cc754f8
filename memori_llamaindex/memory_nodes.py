"""The user's recalled facts added beside the nodes of any query engine (``node_postprocessors=[...]``)."""

from __future__ import annotations

from typing import Any

from llama_index.core.bridge.pydantic import Field, field_validator
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import NodeWithScore, QueryBundle

from memori_core.adapter_args import check_k, named_by_class, resolve_entity_id
from memori_core.engine import RecallEngine
from memori_core.facts import RecalledFact
from memori_core.failopen import STRICT_DEFAULT, FailOpenRecall

from ._common import check_nodes, logger
from ._fields import RecallFields, checked_flag
from .retriever import fact_node

_OWNER = "MemoriMemoryPostprocessor"
_WAYS = ("use postprocessor.with_entity(entity_id)",)

MEMORY_KEY = "memori_memory"
"""Metadata key set to ``True`` on every node this postprocessor adds (hidden from the LLM): how an app tells
the user's memory from the documents among ``response.source_nodes``."""

KIND_KEY = "kind"
"""Metadata key the LLM reads on a memory node, so that it knows the text is about the user, not a document."""

MEMORY_KIND = "memory about the user, from earlier conversations"
"""The value of :data:`KIND_KEY` on a memory node."""

FACT_KIND_KEY = "fact_kind"
"""Where a memory node shows the fact's own ``kind`` metadata: the label under :data:`KIND_KEY` is never replaced
by a fact's metadata."""


class MemoriMemoryPostprocessor(RecallFields, BaseNodePostprocessor):
    """Add the user's relevant stored facts, as nodes marked as memory, to the nodes of any query engine.

    >>> memory = MemoriMemoryPostprocessor(engine=engine, entity_id="user-1", k=3)
    >>> query_engine = index.as_query_engine(llm=llm, node_postprocessors=[memory])

    For each query the engine recalls ``entity_id``'s facts (hybrid ranking and
    relevance gate, as every memori adapter); each fact that passes becomes a
    ``NodeWithScore`` placed **before** the retrieved nodes (so it lands in the
    first chunk a compacting or refining synthesizer sends), with the fact's
    ``rank_score`` as its score, the fact id as node id and the metadata of
    :class:`MemoriRetriever`'s nodes plus ``memori_memory=True`` (hidden from the
    LLM) and ``kind="memory about the user, from earlier conversations"`` (shown to
    the LLM first, next to the text; no metadata of the fact replaces either: a fact's
    own ``kind`` is shown as ``fact_kind``). The synthesizer's own prompt then carries the facts
    beside the documents, whatever its response mode. When no fact passes the gate
    the nodes go on unchanged: memory never removes a document, and an off-topic
    question is answered from the documents alone.

    - ``k``: at most this many facts (``None``: the engine's ``config.limit``, 5 unless configured).
    - A fact whose id is already among the nodes (a :class:`MemoriRetriever` upstream) is not added twice.
    - No query bundle, or a blank query: nothing is added.
    - The entity is fixed per postprocessor: pass ``entity_id``, or make one per request with
      :meth:`with_entity` (a ``QueryBundle`` carries no per-call data).
    - If recall fails (store down, embedder error) a warning is logged on the ``memori_llamaindex``
      logger and the nodes go on unchanged; ``strict=True`` raises instead. ``timeout`` (seconds; ``None``:
      no limit but the store's per request) bounds the whole recall, as on :class:`MemoriRetriever`.
    - ``apostprocess_nodes`` (``aquery``) recalls with ``engine.arecall``.

    Place it after postprocessors that filter by score or re-rank documents (a similarity cutoff made
    for document cosines would judge the facts' fused scores by the wrong scale).
    """

    engine: RecallEngine = Field(description="The recall engine holding the user's facts.", exclude=True)
    entity_id: str = Field(default=None, validate_default=True, description="Whose facts to add.")
    k: int | None = Field(
        default=None, description="At most this many facts; None: the engine's config.limit, 5 unless configured."
    )
    strict: bool = Field(default=STRICT_DEFAULT, description="Raise recall errors instead of warning.")

    @classmethod
    def class_name(cls) -> str:
        """The name LlamaIndex serialises this component under."""
        return _OWNER

    @field_validator("entity_id", mode="before")
    @classmethod
    def _check_entity(cls, value: Any) -> str:
        return resolve_entity_id(_OWNER, value, ways=_WAYS)

    _check_k = field_validator("k", mode="before")(named_by_class(check_k))
    _check_strict = field_validator("strict", mode="before")(checked_flag)

    def with_entity(self, entity_id: str) -> MemoriMemoryPostprocessor:
        """A postprocessor with the same settings adding ``entity_id``'s facts (e.g. one per request)."""
        return MemoriMemoryPostprocessor(engine=self.engine, entity_id=entity_id, k=self.k, strict=self.strict,
                                         timeout=self.timeout)

    def _recall(self, nodes: list[NodeWithScore], query_bundle: QueryBundle | None) -> FailOpenRecall:
        """The recall of one call (the nodes checked first), planned once for both twins (only the I/O differs)."""
        check_nodes(nodes, _OWNER)
        query = query_bundle.query_str if query_bundle is not None else ""
        return FailOpenRecall(self.engine, query, self.entity_id, self.k, self.strict, _OWNER, logger,
                              timeout=self.timeout)

    def _postprocess_nodes(
        self, nodes: list[NodeWithScore], query_bundle: QueryBundle | None = None
    ) -> list[NodeWithScore]:
        return self._with_memory(nodes, self._recall(nodes, query_bundle).run())

    async def _apostprocess_nodes(
        self, nodes: list[NodeWithScore], query_bundle: QueryBundle | None = None
    ) -> list[NodeWithScore]:
        return self._with_memory(nodes, await self._recall(nodes, query_bundle).arun())

    def _with_memory(self, nodes: list[NodeWithScore], facts: list[RecalledFact]) -> list[NodeWithScore]:
        present = {n.node.node_id for n in nodes}
        memory = [memory_node(f) for f in facts if f.id not in present and f.content.strip()]
        return [*memory, *nodes]


def memory_node(fact: RecalledFact) -> NodeWithScore:
    """The node :class:`MemoriMemoryPostprocessor` adds for one recalled fact (see its docstring)."""
    with_score = fact_node(fact)
    node = with_score.node
    own = dict(node.metadata)
    if KIND_KEY in own:  # the fact's own "kind" (say "health") must not replace the label the LLM reads
        own.setdefault(FACT_KIND_KEY, own[KIND_KEY])
        del own[KIND_KEY]
    node.metadata = {KIND_KEY: MEMORY_KIND, **own, MEMORY_KEY: True}
    node.excluded_llm_metadata_keys = [*node.excluded_llm_metadata_keys, MEMORY_KEY]
    node.excluded_embed_metadata_keys = [*node.excluded_embed_metadata_keys, MEMORY_KEY, KIND_KEY]
    return with_score
