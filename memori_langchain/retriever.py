"""``MemoriRetriever``: a LangChain retriever over one user's recalled facts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableConfig, ensure_config

from memori_core.adapter_args import ENTITY_KEY, check_k, configured_entity_id
from memori_core.facts import RecalledFact
from memori_core.failopen import FailOpenRecall

from ._fields import MemoriFields
from ._recall import entity_of_run, logger


def fact_to_document(fact: RecalledFact) -> Document:
    """A recalled fact as a ``Document``: id = fact id, text = fact content, scores in the metadata.

    The fact's own metadata comes first; ``id``, ``entity_id``, ``created_at``,
    ``valid_from`` (when the current text became valid, if later than ``created_at``: an updated text;
    else ``None``), ``restored_at`` (when a restore last made the fact valid again; else ``None``), ``valid_to``
    (when a fact recalled for a question about the past stopped being true; else ``None``), ``cosine``,
    ``lexical``, ``rank_score`` and ``passed_by`` (the rule that brought the fact in: ``"cosine"``, ``"words"``,
    ``"core"``...; :attr:`~memori_core.RecalledFact.passed_by`) are set on top of it.
    """
    metadata: dict[str, Any] = {
        **fact.metadata,
        "id": fact.id,
        "entity_id": fact.entity_id,
        "created_at": fact.created_at,
        "valid_from": fact.valid_from,
        "restored_at": fact.restored_at,
        "valid_to": fact.valid_to,
        "cosine": fact.cosine,
        "lexical": fact.lexical,
        "rank_score": fact.rank_score,
        "passed_by": fact.passed_by,
    }
    return Document(id=fact.id, page_content=fact.content, metadata=metadata)


class MemoriRetriever(MemoriFields, BaseRetriever):
    """Retrieve the stored facts about one user that matter for a query.

    Ranking (dense pool, BM25 re-rank, fusion, relevance threshold) is done by
    the :class:`~memori_core.RecallEngine`; documents come best first, and
    fewer than ``k`` (or none) when fewer facts pass the threshold. ``k``
    counts the recalled facts: the user's core facts (``add(..., core=True)``)
    that recall appends after them come too, up to the engine's
    ``config.core_limit`` (3), so up to ``k + core_limit`` documents
    (``RecallConfig(core_limit=0)`` makes ``k`` a hard cap; ``k=0``: none).

    >>> retriever = MemoriRetriever(engine=engine, entity_id="user-1", k=5)
    >>> retriever.invoke("what should I cook?")
    >>> retriever.invoke("what should I cook?", k=3)  # per-call k
    >>> retriever.invoke("...", config={"configurable": {"entity_id": "user-2"}})
    >>> retriever.invoke("What should I order there?", context=["I'm going to a seafood restaurant."])

    A retriever is given a query string, not the conversation: to recall a
    follow-up with the turns before it, pass them as ``context=`` (earlier
    user turns, oldest first; the engine reads the latest
    ``config.context_turns``), as for :meth:`~memori_core.RecallEngine.recall`.

    ``k`` defaults to ``None``: the engine's ``config.limit`` (5 unless configured).
    The entity is, in order: an ``entity_id=`` keyword of the call,
    ``config["configurable"]["entity_id"]`` (else its ``"user_id"``), the runtime context of the
    LangGraph run the call is part of (``entity_id``, else ``user_id``: a
    retriever tool in a ``create_agent(..., context_schema=...)`` agent reads
    the agent's context, as ``memory_tools`` and ``MemoriMiddleware`` do), the
    constructor's ``entity_id``.
    If recall fails (store down, embedder error) a warning is logged on the
    ``memori_langchain`` logger and no documents are returned, as for every
    memori adapter; ``strict=True`` raises instead (:mod:`memori_core.failopen`). ``timeout`` (seconds;
    default ``None``: no limit but the store's per request) bounds the whole recall: past it no documents are
    returned, while the recall finishes in the background and serves the next call.
    """

    def _get_ls_params(self, **kwargs: Any) -> Any:
        params = super()._get_ls_params(**kwargs)
        params["ls_retriever_name"] = "memori"
        return params

    def invoke(self, input: str, config: RunnableConfig | None = None, **kwargs: Any) -> list[Document]:
        """Documents for ``input``; keyword arguments ``k`` and ``entity_id`` override the fields,
        ``context`` (earlier user turns, oldest first) is read with the query."""
        return super().invoke(input, config, **self._with_config_entity(config, kwargs))

    async def ainvoke(self, input: str, config: RunnableConfig | None = None, **kwargs: Any) -> list[Document]:
        """Async :meth:`invoke` (native: uses ``engine.arecall``)."""
        return await super().ainvoke(input, config, **self._with_config_entity(config, kwargs))

    def _with_config_entity(self, config: RunnableConfig | None, kwargs: dict[str, Any]) -> dict[str, Any]:
        # BaseRetriever does not hand the run config to _get_relevant_documents, so the entity the config names
        # (checked here, naming its key) travels as the ``entity_id`` keyword: the order stays that of
        # entity_of_run (the call's keyword, the config, the runtime context, the constructor).
        if kwargs.get(ENTITY_KEY) is None:
            configured = configured_entity_id(type(self).__name__, ensure_config(config))
            if configured is not None:
                kwargs = {**kwargs, ENTITY_KEY: configured}
        return kwargs

    def _recall(self, query: str, *, k: int | None = None, entity_id: str | None = None,
                context: Sequence[str] | str | None = None) -> FailOpenRecall:
        """The recall of one call, planned once for both twins (only the I/O differs): the per-call ``k``,
        ``entity_id`` and ``context`` (what :meth:`invoke` takes besides the query) over the fields."""
        owner = type(self).__name__
        limit = self.k if k is None else check_k(k, owner)
        # The run config's entity came in as ``entity_id`` (:meth:`_with_config_entity`).
        entity = entity_of_run(owner, self.entity_id, explicit=entity_id)
        return FailOpenRecall(self.engine, query, entity, limit, self.strict, owner, logger, context, self.timeout)

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun, **options: Any
    ) -> list[Document]:
        # ``options``: the call's keywords (:meth:`_recall` names them; another one is a TypeError).
        return [fact_to_document(f) for f in self._recall(query, **options).run()]

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun, **options: Any
    ) -> list[Document]:
        return [fact_to_document(f) for f in await self._recall(query, **options).arun()]
