"""``MemoriRetriever``: a LangChain retriever over one user's recalled facts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableConfig, ensure_config
from pydantic import ConfigDict, Field

from memori_core import RecalledFact

from ._entity import ENTITY_KEY, resolve_entity_id


def fact_to_document(fact: RecalledFact) -> Document:
    """A recalled fact as a ``Document``: id = fact id, text = fact content, scores in the metadata.

    The fact's own metadata comes first; ``id``, ``entity_id``, ``created_at``,
    ``cosine``, ``lexical`` and ``rank_score`` are set on top of it.
    """
    metadata: dict[str, Any] = {
        **fact.metadata,
        "id": fact.id,
        "entity_id": fact.entity_id,
        "created_at": fact.created_at,
        "cosine": fact.cosine,
        "lexical": fact.lexical,
        "rank_score": fact.rank_score,
    }
    return Document(id=fact.id, page_content=fact.content, metadata=metadata)


class MemoriRetriever(BaseRetriever):
    """Retrieve the stored facts about one user that matter for a query.

    Ranking (dense pool, BM25 re-rank, fusion, relevance threshold) is done by
    the :class:`~memori_core.RecallEngine`; documents come best first, and
    fewer than ``k`` (or none) when fewer facts pass the threshold.

    >>> retriever = MemoriRetriever(engine=engine, entity_id="user-1", k=5)
    >>> retriever.invoke("what should I cook?")
    >>> retriever.invoke("what should I cook?", k=3)  # per-call k
    >>> retriever.invoke("...", config={"configurable": {"entity_id": "user-2"}})
    >>> retriever.invoke("What should I order there?", context=["I'm going to a seafood restaurant."])

    A retriever is given a query string, not the conversation: to recall a
    follow-up with the turns before it, pass them as ``context=`` (earlier
    user turns, oldest first; the engine reads the latest
    ``config.context_turns``), as for :meth:`~memori_core.RecallEngine.recall`.

    The entity is, in order: an ``entity_id=`` keyword of the call,
    ``config["configurable"]["entity_id"]``, the constructor's ``entity_id``.
    Errors of the store or embedder are raised (a retriever does not fail open).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    engine: Any = Field(exclude=True)
    """The :class:`~memori_core.RecallEngine` to recall from."""
    entity_id: str | None = None
    """Whose facts to search when the call's config names no entity."""
    k: int = Field(default=5, ge=0)
    """Maximum number of documents returned (per call: ``invoke(query, k=3)``)."""

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

    @staticmethod
    def _with_config_entity(config: RunnableConfig | None, kwargs: dict[str, Any]) -> dict[str, Any]:
        # BaseRetriever does not hand the run config to _get_relevant_documents,
        # so the configurable entity travels as a keyword argument.
        if kwargs.get(ENTITY_KEY) is None:
            configured = ensure_config(config)["configurable"].get(ENTITY_KEY)
            if configured is not None:
                kwargs = {**kwargs, ENTITY_KEY: configured}
        return kwargs

    def _limit(self, k: int | None) -> int:
        if k is None:
            return self.k
        if isinstance(k, bool) or not isinstance(k, int):
            raise TypeError(f"k must be an int, got {type(k).__name__}")
        return k

    def _entity(self, entity_id: str | None) -> str:
        return resolve_entity_id(self.entity_id, override=entity_id, owner=type(self).__name__)

    @staticmethod
    def _context(context: Sequence[str] | str | None) -> dict[str, Any]:
        return {} if context is None else {"context": context}

    def _get_relevant_documents(
        self,
        query: str,
        *,
        run_manager: CallbackManagerForRetrieverRun,
        k: int | None = None,
        entity_id: str | None = None,
        context: Sequence[str] | str | None = None,
    ) -> list[Document]:
        facts = self.engine.recall(query, self._entity(entity_id), self._limit(k), **self._context(context))
        return [fact_to_document(f) for f in facts]

    async def _aget_relevant_documents(
        self,
        query: str,
        *,
        run_manager: AsyncCallbackManagerForRetrieverRun,
        k: int | None = None,
        entity_id: str | None = None,
        context: Sequence[str] | str | None = None,
    ) -> list[Document]:
        facts = await self.engine.arecall(query, self._entity(entity_id), self._limit(k), **self._context(context))
        return [fact_to_document(f) for f in facts]
