"""Whose memory: every LangChain surface reads the same keys in the same order (``resolve_entity_id``).

The order is the call's own id, the run config (``configurable.entity_id``, else ``configurable.user_id``),
the runtime context (``entity_id``, else ``user_id``), then the constructor's ``entity_id``. A constructor
fallback (a "guest" user) must never win over an id the run names, whichever key names it: a user found a
``configurable.user_id`` ignored, so Bob got the guest's facts.

Each surface runs inside real framework objects (a chain, a LangGraph graph, a ``create_agent`` agent) with
LangChain's fake chat model, over a real in-memory Chroma store.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.tools import create_retriever_tool
from langgraph.graph import END, START, MessagesState, StateGraph

import memori_langchain as lc
from _helpers import ungated_engine
from _langchain_fakes import replies
from memori_core import RecallEngine
from memori_core.adapter_args import configured_entity_id, resolve_entity_id

ALLERGY = {"guest": "peanuts", "bob": "shellfish", "carol": "cats", "7": "dust"}
QUESTION = "What am I allergic to?"
SYSTEM = "You are a cook."


@pytest.fixture(scope="module")
def people() -> RecallEngine:
    """One allergy fact for each user of :data:`ALLERGY`, recalled without a gate (these tests are about whose)."""
    engine = ungated_engine()
    for user, allergen in ALLERGY.items():
        engine.add(user, [f"User is allergic to {allergen}."])
    return engine


def _whose(text: str) -> list[str]:
    """The users whose allergy fact is in ``text``."""
    return [user for user, allergen in ALLERGY.items() if f"allergic to {allergen}" in text]


def _tool_call(name: str, args: dict[str, Any]) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": "c1", "type": "tool_call"}])


# -- each surface, built with the fallback entity_id="guest": the text memory gave the run ----------------------

def injector_chain(engine: RecallEngine, config: dict, context: Any) -> str:
    assert context is None, "a chain outside a graph has no runtime context"
    model = replies("ok")
    prompt = ChatPromptTemplate.from_messages([("system", SYSTEM), ("human", "{question}")])
    (prompt | lc.MemoriContextInjector(engine=engine, entity_id="guest") | model).invoke({"question": QUESTION},
                                                                                        config)
    return model.system_texts()[0]


def injector_in_graph(engine: RecallEngine, config: dict, context: Any) -> str:
    model = replies("ok")
    injector = lc.MemoriContextInjector(engine=engine, entity_id="guest")
    builder = StateGraph(MessagesState)
    builder.add_node("model", lambda s: {"messages": [model.invoke(injector.invoke(s["messages"]))]})
    builder.add_edge(START, "model")
    builder.add_edge("model", END)
    builder.compile().invoke({"messages": [("system", SYSTEM), ("human", QUESTION)]}, config, context=context)
    return model.system_texts()[0]


def middleware(engine: RecallEngine, config: dict, context: Any) -> str:
    model = replies("ok")
    agent = create_agent(model, [], system_prompt=SYSTEM,
                         middleware=[lc.MemoriMiddleware(engine=engine, entity_id="guest")])
    agent.invoke({"messages": [HumanMessage(QUESTION)]}, config, context=context)
    return model.system_texts()[0]


def recall_node(engine: RecallEngine, config: dict, context: Any) -> str:
    model = replies("ok")
    builder = StateGraph(lc.MemoriState)
    builder.add_node("memori", lc.memori_recall_node(engine, entity_id="guest"))
    builder.add_node("model", lambda s: {"messages": [model.invoke(lc.with_memori_context(s, SYSTEM))]})
    builder.add_edge(START, "memori")
    builder.add_edge("memori", "model")
    builder.add_edge("model", END)
    builder.compile().invoke({"messages": [HumanMessage(QUESTION)]}, config, context=context)
    return model.system_texts()[0]


def retriever(engine: RecallEngine, config: dict, context: Any) -> str:
    assert context is None, "a retriever called outside a graph has no runtime context"
    docs = lc.MemoriRetriever(engine=engine, entity_id="guest").invoke(QUESTION, config)
    return "\n".join(d.page_content for d in docs)


def retriever_tool(engine: RecallEngine, config: dict, context: Any) -> str:
    tool = create_retriever_tool(lc.MemoriRetriever(engine=engine, entity_id="guest"), "search_memory", "Memory.")
    agent = create_agent(replies(_tool_call("search_memory", {"query": QUESTION}), AIMessage("ok")), [tool])
    result = agent.invoke({"messages": [HumanMessage(QUESTION)]}, config, context=context)
    return "\n".join(m.text for m in result["messages"] if isinstance(m, ToolMessage))


def recall_tool(engine: RecallEngine, config: dict, context: Any) -> str:
    agent = create_agent(replies(_tool_call("recall_memory", {"query": QUESTION}), AIMessage("ok")),
                         lc.memory_tools(engine, entity_id="guest"))
    result = agent.invoke({"messages": [HumanMessage(QUESTION)]}, config, context=context)
    return "\n".join(m.text for m in result["messages"] if isinstance(m, ToolMessage))


Surface = Callable[[RecallEngine, dict, Any], str]
SURFACES: dict[str, Surface] = {
    "MemoriContextInjector": injector_chain,
    "MemoriContextInjector in a graph": injector_in_graph,
    "MemoriMiddleware": middleware,
    "memori_recall_node": recall_node,
    "MemoriRetriever": retriever,
    "MemoriRetriever tool": retriever_tool,
    "memory_tools": recall_tool,
}
IN_A_RUN = [name for name, run in SURFACES.items() if run not in (injector_chain, retriever)]

CONFIG_CASES = [
    pytest.param({"user_id": "bob"}, "bob", id="configurable.user_id beats the fallback"),
    pytest.param({"entity_id": "bob"}, "bob", id="configurable.entity_id beats the fallback"),
    pytest.param({"entity_id": "bob", "user_id": "carol"}, "bob", id="configurable.entity_id before user_id"),
    pytest.param({"user_id": 7, "thread_id": "t"}, "7", id="an int user_id is read as its str"),
    pytest.param({}, "guest", id="nothing named: the fallback"),
]


@pytest.mark.parametrize("surface", list(SURFACES))
@pytest.mark.parametrize(("configurable", "expected"), CONFIG_CASES)
def test_the_run_configs_entity_id_or_user_id_wins_over_the_constructor_fallback(people, surface, configurable,
                                                                                   expected):
    assert _whose(SURFACES[surface](people, {"configurable": configurable}, None)) == [expected]


CONTEXT_CASES = [
    pytest.param({}, {"user_id": "bob"}, "bob", id="context user_id beats the fallback"),
    pytest.param({}, {"entity_id": "bob", "user_id": "carol"}, "bob", id="context entity_id before user_id"),
    pytest.param({"user_id": "bob"}, {"entity_id": "carol"}, "bob", id="the config comes before the context"),
]


@pytest.mark.parametrize("surface", IN_A_RUN)
@pytest.mark.parametrize(("configurable", "context", "expected"), CONTEXT_CASES)
def test_the_runtime_context_wins_over_the_fallback_and_yields_to_the_config(people, surface, configurable, context,
                                                                             expected):
    assert _whose(SURFACES[surface](people, {"configurable": configurable}, context)) == [expected]


def test_a_bad_configurable_user_id_is_refused_naming_its_key(people):
    with pytest.raises(TypeError, match=r"MemoriRetriever: config\['configurable'\]\['user_id'\] must be"):
        lc.MemoriRetriever(engine=people, entity_id="guest").invoke(QUESTION, {"configurable": {"user_id": 4.2}})
    with pytest.raises(ValueError, match=r"MemoriContextInjector: config\['configurable'\]\['user_id'\] ' bob'"):
        injector_chain(people, {"configurable": {"user_id": " bob"}}, None)


def test_resolve_entity_id_reads_one_source_after_another():
    config = {"configurable": {"user_id": "from-config"}}
    context = {"user_id": "from-context"}
    assert resolve_entity_id("X", "fallback", explicit="own", config=config, context=context) == "own"
    assert resolve_entity_id("X", "fallback", config=config, context=context) == "from-config"
    assert resolve_entity_id("X", "fallback", config={"configurable": {}}, context=context) == "from-context"
    assert resolve_entity_id("X", "fallback", config={}, context=object()) == "fallback"
    assert configured_entity_id("X", {"configurable": {"thread_id": "t"}}) is None
    assert configured_entity_id("X", {"configurable": {"user_id": 42}}) == "42"
    with pytest.raises(ValueError, match="X does not know whose memory.*'user_id'"):
        resolve_entity_id("X", None, config={"configurable": {"thread_id": "t"}},
                          ways=["per call config={'configurable': {'entity_id': ...}} (or 'user_id')"])
