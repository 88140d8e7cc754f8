"""LangChain's own fake chat model, extended to record what it was sent and to accept tools; an agent turn captured
by ``LLMFactExtractor`` over it (:func:`turn_captured_by_a_model`)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Sequence
from typing import Any

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.tools import tool
from pydantic import Field, PrivateAttr

from memori_core import RecallEngine
from memori_langchain import LLMFactExtractor, MemoriMiddleware, memory_tools


class RecordingChatModel(GenericFakeChatModel):
    """``GenericFakeChatModel`` that keeps every message list it receives and supports ``bind_tools``."""

    calls: list[list[BaseMessage]] = Field(default_factory=list)
    disable_streaming: bool = True  # the parent's streaming drops tool calls

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any):
        self.calls.append(list(messages))
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> RecordingChatModel:
        return self

    def system_texts(self) -> list[str]:
        """The system prompt text of each call ("" when a call had none)."""
        return [system_text(call) for call in self.calls]

    @property
    def prompts(self) -> list[str]:
        """The last message's text of each call: the prompt an ``LLMFactExtractor`` sends."""
        return [call[-1].text for call in self.calls]


class HeldChatModel(RecordingChatModel):
    """``RecordingChatModel`` whose first call waits until the test sets ``released`` (``answering`` is set once
    it waits): a turn the model is still answering. Later calls answer at once."""

    _answering: threading.Event = PrivateAttr(default_factory=threading.Event)
    _released: threading.Event = PrivateAttr(default_factory=threading.Event)

    @property
    def answering(self) -> threading.Event:
        return self._answering

    @property
    def released(self) -> threading.Event:
        return self._released

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any):
        if not self._answering.is_set():
            self._answering.set()
            assert self._released.wait(30), "the test never released the model"
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


def system_text(messages: Iterable[BaseMessage]) -> str:
    for m in messages:
        if isinstance(m, SystemMessage):
            return m.text
    return ""


def replies(*items: AIMessage | str) -> RecordingChatModel:
    return RecordingChatModel(messages=iter(items))


def tool_call(name: str, **args: Any) -> AIMessage:
    """A model answer that calls the tool ``name`` with ``args`` (call id ``<name>-1``)."""
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"{name}-1", "type": "tool_call"}])


def memory_tools_turn(engine: RecallEngine, entity_id: str, said: str, *answers: AIMessage) -> str:
    """One ``create_agent`` turn of ``entity_id``'s over ``memory_tools(engine)``: the user says ``said``, the fake
    model answers ``answers`` then "Done."; returns the last tool message's text."""
    agent = create_agent(replies(*answers, AIMessage("Done.")), tools=memory_tools(engine))
    out = agent.invoke({"messages": [HumanMessage(said)]}, {"configurable": {"entity_id": entity_id}})
    return [m for m in out["messages"] if m.type == "tool"][-1].text


def turn_captured_by_a_model(engine: RecallEngine, entity_id: str, said: str, facts: Sequence[str]) -> MemoriMiddleware:
    """One agent turn of ``entity_id``'s (the user says ``said``) through a capturing ``MemoriMiddleware`` whose
    ``LLMFactExtractor`` model replies with ``facts``; returns the middleware once its capture has run."""
    model = GenericFakeChatModel(messages=iter([json.dumps(list(facts))]))
    middleware = MemoriMiddleware(engine=engine, entity_id=entity_id, capture=True, extractor=LLMFactExtractor(model))
    create_agent(replies("Noted."), [], middleware=[middleware]).invoke({"messages": [HumanMessage(said)]})
    assert middleware.flush(timeout=30)
    return middleware


class FailingEmbedder:
    """An embedder whose service is down: every call raises (documents are embedded by ``fallback``)."""

    name = "failing-embedder"

    def __init__(self, fallback: Any) -> None:
        self._fallback = fallback

    def embed_documents(self, texts: list[str]):
        return self._fallback.embed_documents(texts)

    def embed_query(self, text: str):
        raise ConnectionError("embedding service unavailable")


def recall_model_capture_graph(engine: Any, model: Any, capture: Any, entity_id: str = "ann",
                               system: str = "You are a coach.", checkpointer: Any = None) -> Any:
    """A LangGraph graph START -> memori_recall_node -> the model (with the block in its system prompt) ->
    ``capture`` -> END, with ``checkpointer`` (default: a new in-memory one)."""
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import END, START, StateGraph

    from memori_langchain import MemoriState, memori_recall_node, with_memori_context

    def call_model(state: MemoriState) -> dict[str, Any]:
        return {"messages": [model.invoke(with_memori_context(state, system))]}

    builder = StateGraph(MemoriState)
    builder.add_node("memori", memori_recall_node(engine, entity_id=entity_id))
    builder.add_node("model", call_model)
    builder.add_node("capture", capture)
    builder.add_edge(START, "memori")
    builder.add_edge("memori", "model")
    builder.add_edge("model", "capture")
    builder.add_edge("capture", END)
    return builder.compile(checkpointer=checkpointer if checkpointer is not None else InMemorySaver())


def recall_model_tools_graph(engine: Any, model: Any, tool: Any, system: str, *, entity_id: str | None = None,
                             checkpointer: Any = None, strict: bool = False, context_schema: Any = None) -> Any:
    """A LangGraph graph START -> memori_recall_node -> the model (``tool`` bound, the block in its system prompt
    ``system``) -> ``tool``'s ``ToolNode`` while the model calls it -> the model again."""
    from langgraph.graph import START, StateGraph
    from langgraph.prebuilt import ToolNode, tools_condition

    from memori_langchain import MemoriState, memori_recall_node, with_memori_context

    bound = model.bind_tools([tool])

    def call_model(state: MemoriState) -> dict[str, Any]:
        return {"messages": [bound.invoke(with_memori_context(state, system))]}

    builder = StateGraph(MemoriState, context_schema=context_schema)
    builder.add_node("memori", memori_recall_node(engine, entity_id=entity_id, strict=strict))
    builder.add_node("model", call_model)
    builder.add_node("tools", ToolNode([tool]))
    builder.add_edge(START, "memori")
    builder.add_edge("memori", "model")
    builder.add_conditional_edges("model", tools_condition)
    builder.add_edge("tools", "model")
    return builder.compile(checkpointer=checkpointer)


PEANUTS = "Alice is allergic to peanuts."


@tool
def shop_search(item: str) -> str:
    """Search the local shop for an item."""
    return f"3 results for {item}"


def tool_round_trip() -> RecordingChatModel:
    """A model that calls `shop_search` once, then answers."""
    return replies(
        AIMessage(content="", tool_calls=[{"name": "shop_search", "args": {"item": "snack"}, "id": "call-1"}]),
        AIMessage(content="Buy the rice crackers."),
    )


def seed_alice_and_bob(engine: Any) -> Any:
    """Alice's peanut allergy and city (stated 2026-05-01 09:30 UTC) and two facts of Bob's."""
    engine.add("alice", [PEANUTS, "Alice lives in Lisbon."], created_at="2026-05-01T09:30:00Z")
    engine.add("bob", ["Bob is allergic to shellfish.", "Bob lives in Oslo."])
    return engine
