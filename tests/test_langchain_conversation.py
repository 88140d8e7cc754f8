"""Conversation-aware recall in the LangChain / LangGraph adapters: a follow-up is recalled with the human
turns before it (``context``), driven by LangChain's fake chat model; end to end with the real MiniLM."""

from __future__ import annotations

import logging

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver

from _faults import break_store
from _langchain_fakes import recall_model_tools_graph, replies
from _recording import SHELLFISH, TURN_1, TURN_2, minilm_engine, recording_engine
from memori_langchain import MemoriContextInjector, MemoriMiddleware, MemoriRetriever, human_query_and_context

SYSTEM = "You are a restaurant assistant."
IMAGE = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}


@tool
def menu_search(item: str) -> str:
    """Search tonight's menu."""
    return f"3 dishes with {item}"


def tool_round_trip():
    """A model that calls `menu_search` once, then answers."""
    return replies(
        AIMessage(content="", tool_calls=[{"name": "menu_search", "args": {"item": "fish"}, "id": "call-1"}]),
        AIMessage(content="Try the grilled sea bass."),
    )


# -- human_query_and_context ---------------------------------------------------------


def test_helper_reads_earlier_human_turns_oldest_first():
    messages = [
        SystemMessage("Be brief."),
        HumanMessage("Hi!"),
        AIMessage("Hello, how can I help?"),
        HumanMessage(f"  {TURN_1} "),
        AIMessage("Have a lovely evening!"),
        HumanMessage(TURN_2),
    ]
    assert human_query_and_context(messages) == (TURN_2, ["Hi!", TURN_1])


def test_helper_single_turn_and_no_turn():
    assert human_query_and_context([SystemMessage("Be brief."), HumanMessage(TURN_2)]) == (TURN_2, [])
    assert human_query_and_context([SystemMessage("Be brief."), AIMessage("Hello")]) == ("", [])
    assert human_query_and_context([]) == ("", [])


def test_helper_keeps_text_parts_and_skips_images_tools_and_system():
    messages = [
        SystemMessage("Never mention prices."),
        HumanMessage(content=[IMAGE]),  # only an image: no text to read
        HumanMessage(content=[{"type": "text", "text": "Here is the menu."}, IMAGE, {"type": "text", "text": TURN_1}]),
        AIMessage(content="", tool_calls=[{"name": "menu_search", "args": {"item": "x"}, "id": "c1"}]),
        ToolMessage("oysters, crab", tool_call_id="c1"),
        AIMessage("They serve oysters."),
        HumanMessage(content=[{"type": "text", "text": TURN_2}, IMAGE]),
        AIMessage(content="", tool_calls=[{"name": "menu_search", "args": {"item": "y"}, "id": "c2"}]),
        ToolMessage("sea bass", tool_call_id="c2"),
    ]
    assert human_query_and_context(messages) == (TURN_2, ["Here is the menu.\n" + TURN_1])


def test_helper_query_skips_an_image_only_last_turn_as_the_sdk_path_does():
    # A photo sent after the question is answered with the question's memory (memori_core.query's rule).
    assert human_query_and_context([HumanMessage(TURN_1), HumanMessage(content=[IMAGE])]) == (TURN_1, [])
    assert human_query_and_context([HumanMessage(content=[IMAGE])]) == ("", [])


def test_helper_is_bounded_to_the_latest_turns():
    messages = [HumanMessage(f"turn {i}") for i in range(1, 7)]
    assert human_query_and_context(messages) == ("turn 6", ["turn 3", "turn 4", "turn 5"])
    assert human_query_and_context(messages, 1) == ("turn 6", ["turn 5"])
    assert human_query_and_context(messages, 0) == ("turn 6", [])


# -- MemoriContextInjector -----------------------------------------------------------


@pytest.fixture
def prompt():
    return ChatPromptTemplate.from_messages(
        [("system", SYSTEM), MessagesPlaceholder("history"), ("human", "{question}")]
    )


HISTORY = [HumanMessage(TURN_1), AIMessage("Have a lovely evening!")]


def test_injector_passes_the_earlier_human_turn_as_context(prompt):
    engine = recording_engine()
    model = replies("ok")
    chain = prompt | MemoriContextInjector(engine=engine, entity_id="u1") | model
    chain.invoke({"history": HISTORY, "question": TURN_2})
    assert engine.recalls == [{"query": TURN_2, "entity_id": "u1", "context": [TURN_1]}]
    assert SHELLFISH in model.system_texts()[0]


async def test_injector_async_passes_the_context(prompt):
    engine = recording_engine()
    chain = prompt | MemoriContextInjector(engine=engine, entity_id="u1") | replies("ok")
    await chain.ainvoke({"history": HISTORY, "question": TURN_2})
    assert engine.contexts == [[TURN_1]]


def test_injector_single_turn_passes_no_context(prompt):
    engine = recording_engine()
    chain = prompt | MemoriContextInjector(engine=engine, entity_id="u1") | replies("ok")
    chain.invoke({"history": [], "question": TURN_2})
    assert engine.recalls == [{"query": TURN_2, "entity_id": "u1", "context": None}]


def test_injector_with_context_still_fails_open(prompt, caplog):
    engine = recording_engine()
    break_store(engine)
    engine.clear_cache()
    model = replies("ok")
    chain = prompt | MemoriContextInjector(engine=engine, entity_id="u1") | model
    with caplog.at_level(logging.WARNING, logger="memori_langchain"):
        assert chain.invoke({"history": HISTORY, "question": TURN_2}).content == "ok"
    assert engine.contexts == [[TURN_1]]
    assert "<memori_context>" not in model.system_texts()[0]
    assert "continuing without memory" in caplog.text


# -- MemoriMiddleware ----------------------------------------------------------------


def test_middleware_second_turn_of_a_thread_reads_the_first_on_every_model_call():
    engine = recording_engine()
    model = replies(AIMessage("Have a lovely evening!"), *tool_round_trip().messages)
    agent = create_agent(model, [menu_search], system_prompt=SYSTEM, checkpointer=InMemorySaver(),
                         middleware=[MemoriMiddleware(engine=engine, entity_id="u1")])
    cfg = {"configurable": {"thread_id": "t-1"}}
    agent.invoke({"messages": [HumanMessage(TURN_1)]}, cfg)
    agent.invoke({"messages": [HumanMessage(TURN_2)]}, cfg)
    # turn 1: one model call, no earlier turn; turn 2: a tool round trip, both calls read turn 1
    assert engine.recalls == [
        {"query": TURN_1, "entity_id": "u1", "context": None},
        {"query": TURN_2, "entity_id": "u1", "context": [TURN_1]},
        {"query": TURN_2, "entity_id": "u1", "context": [TURN_1]},
    ]
    assert all(SHELLFISH in s for s in model.system_texts())


async def test_middleware_async_passes_the_context():
    engine = recording_engine()
    agent = create_agent(replies("ok"), [], middleware=[MemoriMiddleware(engine=engine, entity_id="u1")])
    await agent.ainvoke({"messages": [HumanMessage(TURN_1), AIMessage("Enjoy!"), HumanMessage(TURN_2)]})
    assert engine.contexts == [[TURN_1]]


# -- memori_recall_node (LangGraph) --------------------------------------------------


def build_graph(engine, model, checkpointer=None):
    return recall_model_tools_graph(engine, model, menu_search, SYSTEM, entity_id="u1", checkpointer=checkpointer)


def test_graph_node_second_turn_of_a_thread_reads_the_first():
    engine = recording_engine()
    model = replies(AIMessage("Have a lovely evening!"), *tool_round_trip().messages)
    graph = build_graph(engine, model, InMemorySaver())
    cfg = {"configurable": {"thread_id": "t-1"}}
    graph.invoke({"messages": [HumanMessage(TURN_1)]}, cfg)
    result = graph.invoke({"messages": [HumanMessage(TURN_2)]}, cfg)
    assert engine.recalls == [
        {"query": TURN_1, "entity_id": "u1", "context": None},
        {"query": TURN_2, "entity_id": "u1", "context": [TURN_1]},
    ]
    assert SHELLFISH in result["memori_context"]
    assert all(SHELLFISH in s for s in model.system_texts())


async def test_graph_node_async_passes_the_context():
    engine = recording_engine()
    graph = build_graph(engine, replies("ok"))
    await graph.ainvoke({"messages": [HumanMessage(TURN_1), AIMessage("Enjoy!"), HumanMessage(TURN_2)]})
    assert engine.contexts == [[TURN_1]]


# -- MemoriRetriever: given a query string, it reads context only when the call passes one -----


async def test_retriever_passes_a_context_keyword_through():
    engine = recording_engine()
    retriever = MemoriRetriever(engine=engine, entity_id="u1", k=2)
    retriever.invoke(TURN_2)
    retriever.invoke(TURN_2, context=[TURN_1])
    await retriever.ainvoke(TURN_2, context=[TURN_1])
    assert engine.contexts == [None, [TURN_1], [TURN_1]]


# -- end to end with the real MiniLM ----------------------------------------------------


def test_minilm_agent_follow_up_gets_the_fact_only_the_earlier_turn_names(minilm):
    engine = minilm_engine(minilm)
    ranked = [c.content for c in engine.explain(TURN_2, "u1", context=[TURN_1]).candidates]
    alone = [c.content for c in engine.explain(TURN_2, "u1").candidates]
    assert ranked[0] == SHELLFISH and alone[0] != SHELLFISH  # the engine: the earlier turn moves the allergy up

    model = replies("Have a lovely evening!", "Skip the shellfish platter.", "The fish and chips.")
    agent = create_agent(model, [], system_prompt=SYSTEM, checkpointer=InMemorySaver(),
                         middleware=[MemoriMiddleware(engine=engine, entity_id="u1", k=1)])
    thread = {"configurable": {"thread_id": "dinner"}}
    agent.invoke({"messages": [HumanMessage(TURN_1)]}, thread)
    agent.invoke({"messages": [HumanMessage(TURN_2)]}, thread)
    agent.invoke({"messages": [HumanMessage(TURN_2)]}, {"configurable": {"thread_id": "fresh"}})
    _, follow_up, alone_seen = model.system_texts()
    assert SHELLFISH in follow_up and "Leeds" not in follow_up
    assert SHELLFISH not in alone_seen  # the same question without the conversation


def test_minilm_injector_follow_up_gets_the_fact(minilm, prompt):
    engine = minilm_engine(minilm)
    model = replies("a", "b")
    chain = prompt | MemoriContextInjector(engine=engine, entity_id="u1", k=1) | model
    chain.invoke({"history": HISTORY, "question": TURN_2})
    chain.invoke({"history": [], "question": TURN_2})
    follow_up, alone = model.system_texts()
    assert SHELLFISH in follow_up and SHELLFISH not in alone
