"""A query engine over the user's memory that still answers, without memory, when nothing is relevant."""

from __future__ import annotations

import llama_index.core.instrumentation as instrument
from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.base.response.schema import RESPONSE_TYPE
from llama_index.core.callbacks.base import CallbackManager
from llama_index.core.callbacks.schema import CBEventType, EventPayload
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.prompts.mixin import PromptMixinType
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.response_synthesizers import BaseSynthesizer
from llama_index.core.response_synthesizers.generation import Generation
from llama_index.core.schema import QueryBundle

dispatcher = instrument.get_dispatcher(__name__)


class MemoriQueryEngine(RetrieverQueryEngine):
    """``RetrieverQueryEngine`` for a memory-only retriever: with no node to answer from, the LLM answers alone.

    >>> retriever = MemoriRetriever(engine=engine, entity_id="user-1")
    >>> query_engine = MemoriQueryEngine.from_args(retriever, llm=llm)

    A plain ``RetrieverQueryEngine`` answers ``Empty Response`` without calling the
    LLM when its retriever gives no node, which a :class:`MemoriRetriever` does
    whenever no stored fact passes the relevance gate (an off-topic question, a new
    user). This engine behaves exactly like ``RetrieverQueryEngine`` (same
    ``from_args``, synthesizer, postprocessors, sync, async and streaming) when there
    are nodes; when there are none after the postprocessors, it sends the question to
    the synthesizer's LLM alone, through LlamaIndex's ``Generation`` synthesizer (its
    ``simple_template``, ``"{query_str}"`` by default), so the answer is the one the
    LLM gives without memory, with no source nodes.

    Any retriever works; the fallback is about having no context, not about memori.
    """

    def __init__(
        self,
        retriever: BaseRetriever,
        response_synthesizer: BaseSynthesizer | None = None,
        node_postprocessors: list[BaseNodePostprocessor] | None = None,
        callback_manager: CallbackManager | None = None,
    ) -> None:
        """The arguments of ``RetrieverQueryEngine``; the no-context answer uses ``response_synthesizer``'s LLM."""
        super().__init__(retriever, response_synthesizer, node_postprocessors, callback_manager)
        synthesizer = self._response_synthesizer
        self._without_context = Generation(
            llm=getattr(synthesizer, "_llm", None),
            callback_manager=self.callback_manager,
            streaming=bool(getattr(synthesizer, "_streaming", False)),
        )

    @property
    def fallback_synthesizer(self) -> Generation:
        """The synthesizer that answers when no node was found; its prompt is
        ``"fallback_synthesizer:simple_template"`` in ``get_prompts()`` / ``update_prompts()``."""
        return self._without_context

    def _get_prompt_modules(self) -> PromptMixinType:
        return {**super()._get_prompt_modules(), "fallback_synthesizer": self._without_context}

    def with_retriever(self, retriever: BaseRetriever) -> MemoriQueryEngine:
        """The same engine over another retriever (e.g. ``retriever.with_entity(...)`` per request).

        The copy shares this engine's synthesizer, postprocessors and fallback synthesizer, so it answers with
        the same prompts, including a fallback prompt set with ``update_prompts`` (and a later
        ``update_prompts`` on either engine changes both, as it does for the main synthesizer)."""
        engine = MemoriQueryEngine(
            retriever=retriever,
            response_synthesizer=self._response_synthesizer,
            callback_manager=self.callback_manager,
            node_postprocessors=self._node_postprocessors,
        )
        engine._without_context = self._without_context
        return engine

    @dispatcher.span
    def _query(self, query_bundle: QueryBundle) -> RESPONSE_TYPE:
        with self.callback_manager.event(
            CBEventType.QUERY, payload={EventPayload.QUERY_STR: query_bundle.query_str}
        ) as query_event:
            nodes = self.retrieve(query_bundle)
            if nodes:
                response = self._response_synthesizer.synthesize(query=query_bundle, nodes=nodes)
            else:
                answer = self._without_context.get_response(query_str=query_bundle.query_str, text_chunks=[])
                response = self._without_context._prepare_response_output(answer, [])
            query_event.on_end(payload={EventPayload.RESPONSE: response})
        return response

    @dispatcher.span
    async def _aquery(self, query_bundle: QueryBundle) -> RESPONSE_TYPE:
        with self.callback_manager.event(
            CBEventType.QUERY, payload={EventPayload.QUERY_STR: query_bundle.query_str}
        ) as query_event:
            nodes = await self.aretrieve(query_bundle)
            if nodes:
                response = await self._response_synthesizer.asynthesize(query=query_bundle, nodes=nodes)
            else:
                answer = await self._without_context.aget_response(query_str=query_bundle.query_str, text_chunks=[])
                response = self._without_context._prepare_response_output(answer, [])
            query_event.on_end(payload={EventPayload.RESPONSE: response})
        return response
