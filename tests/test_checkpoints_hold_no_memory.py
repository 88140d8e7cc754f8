"""Recalled facts never land in LangGraph checkpoints, so ``engine.forget`` leaves no copy of them there: the
recall node's ``MemoriState`` key is never checkpointed, and the middleware passes the block through the model
request only. Real graphs and agents, ``InMemorySaver``, LangChain's fake chat model, embedded Chroma."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

import memori_langchain.graph as graph_module
from _langchain_fakes import RecordingChatModel, recall_model_tools_graph, replies, shop_search
from memori_core import RecallEngine
from memori_langchain import MemoriContext, MemoriMiddleware, MemoriState, memori_recall_node, with_memori_context

SYSTEM = "You are a health assistant."
# Facts the user never said in the thread: they reach the model from long-term memory only.
FACTS = ["User takes warfarin.", "User is HIV positive."]


def checkpointed_text(saver: InMemorySaver) -> str:
    """Everything ``saver`` holds for every thread, as text: each checkpoint's channel values, its pending
    writes (what a node wrote during a step) and its metadata."""
    return "\n".join(
        f"{t.checkpoint['channel_values']!r}\n{t.pending_writes!r}\n{t.metadata!r}" for t in saver.list(None)
    )


def facts_in(text: str) -> list[str]:
    return [fact for fact in FACTS if fact in text]


def seeded(engine: RecallEngine) -> RecallEngine:
    engine.add("alice", FACTS, created_at="2026-05-01T09:30:00Z")
    return engine


def tool_then_answer(turns: int = 1) -> RecordingChatModel:
    """A model that, on each of ``turns`` turns, calls ``shop_search`` once, then answers."""
    items: list[AIMessage] = []
    for turn in range(turns):
        call = {"name": "shop_search", "args": {"item": "pills"}, "id": f"call-{turn}"}
        items += [AIMessage(content="", tool_calls=[call]), AIMessage(content="Ask your doctor.")]
    return replies(*items)


def test_recall_node_facts_reach_every_model_call_but_no_checkpoint_and_forget_leaves_no_copy(
    ungated: RecallEngine,
) -> None:
    engine = seeded(ungated)
    saver = InMemorySaver()
    model = tool_then_answer(turns=2)
    graph = recall_model_tools_graph(engine, model, shop_search, SYSTEM, entity_id="alice", checkpointer=saver)
    cfg = {"configurable": {"thread_id": "t1"}}
    graph.invoke({"messages": [HumanMessage("Is ibuprofen ok with my medication?")]}, cfg)
    result = graph.invoke({"messages": [HumanMessage("And aspirin?")]}, cfg)

    assert len(model.calls) == 4  # two turns, each a tool round trip
    assert all(facts_in(text) == FACTS for text in model.system_texts())  # every call saw the memory
    assert facts_in(result["memori_context"]) == FACTS  # the run's output still has this turn's block
    assert len(list(saver.list(cfg))) > 4 and facts_in(checkpointed_text(saver)) == []
    assert "memori_context" not in graph.get_state(cfg).values

    engine.forget("alice")
    assert engine.count("alice", include_invalid=True) == 0
    assert facts_in(checkpointed_text(saver)) == []
    assert all(facts_in(repr(state.values)) == [] for state in graph.get_state_history(cfg))


class StrKeyState(MessagesState):
    memori_context: str


class UntrackedKeyState(MessagesState):
    memori_context: MemoriContext


def _recall_then_model(engine: RecallEngine, state_schema: Any, model: RecordingChatModel,
                       checkpointer: Any) -> Any:
    builder = StateGraph(state_schema)
    builder.add_node("memori", memori_recall_node(engine, entity_id="alice"))
    builder.add_node("model", lambda s: {"messages": [model.invoke(with_memori_context(s, SYSTEM))]})
    builder.add_edge(START, "memori")
    builder.add_edge("memori", "model")
    return builder.compile(checkpointer=checkpointer)


def _checkpointed_key_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "checkpointed key" in r.getMessage()]


def test_a_state_that_declares_the_key_as_str_is_checkpointed_and_the_node_warns_once(
    ungated: RecallEngine, caplog: pytest.LogCaptureFixture,
) -> None:
    saver = InMemorySaver()
    model = replies("a", "b")
    graph = _recall_then_model(seeded(ungated), StrKeyState, model, saver)
    with caplog.at_level(logging.WARNING, logger="memori_langchain"):
        for turn in ("Is ibuprofen ok?", "And aspirin?"):
            graph.invoke({"messages": [HumanMessage(turn)]}, {"configurable": {"thread_id": "t"}})
    assert all(facts_in(text) == FACTS for text in model.system_texts())
    assert facts_in(checkpointed_text(saver)) == FACTS  # the app's own key: LangGraph checkpoints it
    [warning] = _checkpointed_key_warnings(caplog)
    assert "engine.forget" in warning and "'memori_context': MemoriContext" in warning


@pytest.mark.parametrize(("state_schema", "checkpointer"), [
    (UntrackedKeyState, InMemorySaver()),  # the app's own schema, declared as the docs say
    (MemoriState, InMemorySaver()),
    (StrKeyState, None),  # nothing is checkpointed without a checkpointer
], ids=["own-schema-MemoriContext", "MemoriState", "str-key-no-checkpointer"])
def test_a_key_that_is_not_checkpointed_gives_no_warning_and_no_checkpointed_fact(
    ungated: RecallEngine, caplog: pytest.LogCaptureFixture, state_schema: Any, checkpointer: Any,
) -> None:
    model = replies("a")
    graph = _recall_then_model(seeded(ungated), state_schema, model, checkpointer)
    with caplog.at_level(logging.WARNING, logger="memori_langchain"):
        graph.invoke({"messages": [HumanMessage("Is ibuprofen ok?")]}, {"configurable": {"thread_id": "t"}})
    assert facts_in(model.system_texts()[0]) == FACTS
    assert _checkpointed_key_warnings(caplog) == []
    if checkpointer is not None:
        assert facts_in(checkpointed_text(checkpointer)) == []


def _graph_interrupted_before_tools(engine: RecallEngine, model: RecordingChatModel, *, back_to: str) -> Any:
    """recall -> model -> tools (interrupted before: a human approves the call) -> ``back_to``."""
    bound = model.bind_tools([shop_search])
    builder = StateGraph(MemoriState)
    builder.add_node("memori", memori_recall_node(engine, entity_id="alice"))
    builder.add_node("model", lambda s: {"messages": [bound.invoke(with_memori_context(s, SYSTEM))]})
    builder.add_node("tools", ToolNode([shop_search]))
    builder.add_edge(START, "memori")
    builder.add_edge("memori", "model")
    builder.add_conditional_edges("model", tools_condition)
    builder.add_edge("tools", back_to)
    return builder.compile(checkpointer=InMemorySaver(), interrupt_before=["tools"])


@pytest.fixture
def unwarned(monkeypatch: pytest.MonkeyPatch) -> None:
    """The once-per-process warning that a model call saw no recall node run, not given yet in this test."""
    monkeypatch.setattr(graph_module, "_UNRECALLED_WARNED", set())


def _resumed_after_interrupt(
    engine: RecallEngine, caplog: pytest.LogCaptureFixture, *, back_to: str
) -> tuple[RecordingChatModel, list[str]]:
    """A run of :func:`_graph_interrupted_before_tools` stopped for approval, then approved (a new run, from the
    checkpoint): the model, and the warnings logged that no recall node has run."""
    model = tool_then_answer()
    graph = _graph_interrupted_before_tools(seeded(engine), model, back_to=back_to)
    cfg = {"configurable": {"thread_id": "t"}}
    with caplog.at_level(logging.WARNING, logger="memori_langchain"):
        graph.invoke({"messages": [HumanMessage("Is ibuprofen ok?")]}, cfg)
        assert graph.get_state(cfg).next == ("tools",)  # stopped for approval
        graph.invoke(None, cfg)
    return model, [r.getMessage() for r in caplog.records if "no recall node has run" in r.getMessage()]


@pytest.mark.usefixtures("unwarned")
def test_a_run_resumed_after_an_interrupt_recalls_again_when_the_tools_edge_goes_through_the_recall_node(
    ungated: RecallEngine, caplog: pytest.LogCaptureFixture,
) -> None:
    model, warnings = _resumed_after_interrupt(ungated, caplog, back_to="memori")
    assert len(model.calls) == 2 and all(facts_in(text) == FACTS for text in model.system_texts())
    assert warnings == []


@pytest.mark.usefixtures("unwarned")
def test_a_run_resumed_after_an_interrupt_straight_into_the_model_warns_that_the_model_got_no_memory(
    ungated: RecallEngine, caplog: pytest.LogCaptureFixture,
) -> None:
    model, warnings = _resumed_after_interrupt(ungated, caplog, back_to="model")
    first, after_resume = model.system_texts()
    assert facts_in(first) == FACTS and after_resume == SYSTEM
    [warning] = warnings
    assert "tools -> memori -> model" in warning


@pytest.mark.usefixtures("unwarned")
def test_with_memori_context_outside_a_graph_run_does_not_warn(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="memori_langchain"):
        assert with_memori_context({"messages": [HumanMessage("hi")]}, "Sys.")[1:] == [HumanMessage("hi")]
    assert caplog.records == []


def test_middleware_agent_checkpoints_hold_no_recalled_fact_before_or_after_forget(ungated: RecallEngine) -> None:
    engine = seeded(ungated)
    saver = InMemorySaver()
    model = tool_then_answer()
    agent = create_agent(model, [shop_search], system_prompt=SYSTEM, checkpointer=saver,
                         middleware=[MemoriMiddleware(engine=engine, entity_id="alice")])
    cfg = {"configurable": {"thread_id": "t1"}}
    agent.invoke({"messages": [HumanMessage("Is ibuprofen ok with my medication?")]}, cfg)
    assert len(model.calls) == 2 and all(facts_in(text) == FACTS for text in model.system_texts())
    assert facts_in(checkpointed_text(saver)) == []
    engine.forget("alice")
    assert facts_in(checkpointed_text(saver)) == []
