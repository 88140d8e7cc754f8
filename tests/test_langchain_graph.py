"""memori_recall_node in a real LangGraph `StateGraph`, with a tool loop and a checkpointer."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import pytest
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver

from _faults import break_store
from _helpers import seeded_fixtures
from _langchain_fakes import PEANUTS, recall_model_tools_graph, replies, seed_alice_and_bob, shop_search, tool_round_trip
from memori_core.context import OPEN_TAG
from memori_langchain import with_memori_context

SYSTEM = "You are a cooking assistant."


@dataclass
class UserContext:
    user_id: str


def build_graph(engine, model, **options):
    """memori_recall_node -> the model, with `shop_search` (``options``: :func:`recall_model_tools_graph`'s)."""
    return recall_model_tools_graph(engine, model, shop_search, SYSTEM, **options)


# Alice's and Bob's facts under the shipped config, shared by the tests that only read them (checked at
# teardown); a test that breaks the store takes ``fresh_seeded``.
seeded, fresh_seeded = seeded_fixtures(seed_alice_and_bob)


def test_model_node_sees_block_on_every_call_and_history_stays_clean(seeded):
    model = tool_round_trip()
    graph = build_graph(seeded, model, entity_id="alice")
    result = graph.invoke({"messages": [HumanMessage("Which peanuts snack is safe for me?")]})
    assert len(model.calls) == 2
    for sent in model.calls:
        assert sent[0].content.startswith(SYSTEM + "\n\n" + OPEN_TAG)
        assert f"- {PEANUTS} Stated at 2026-05-01 09:30 UTC" in sent[0].content
    assert [m.type for m in result["messages"]] == ["human", "ai", "tool", "ai"]
    assert all(OPEN_TAG not in str(m.content) for m in result["messages"])
    assert PEANUTS in result["memori_context"]  # beside the history, not in it


async def test_async_graph(seeded):
    model = tool_round_trip()
    graph = build_graph(seeded, model)
    await graph.ainvoke({"messages": [HumanMessage("a peanuts snack for me?")]}, {"configurable": {"entity_id": "alice"}})
    assert len(model.calls) == 2 and all(PEANUTS in t for t in model.system_texts())


def test_entity_from_runtime_context(seeded):
    model = replies("ok")
    graph = build_graph(seeded, model, context_schema=UserContext)
    graph.invoke({"messages": [HumanMessage("what am I allergic to?")]}, context=UserContext(user_id="bob"))
    [seen] = model.system_texts()
    assert "shellfish" in seen and "Alice" not in seen


def test_other_users_facts_never_appear(seeded):
    model = replies("a", "b")
    graph = build_graph(seeded, model)
    graph.invoke({"messages": [HumanMessage("allergic lives")]}, {"configurable": {"entity_id": "bob"}})
    graph.invoke({"messages": [HumanMessage("allergic lives")]}, {"configurable": {"entity_id": "alice"}})
    bob_seen, alice_seen = model.system_texts()
    assert "Bob" in bob_seen and "Alice" not in bob_seen
    assert "Alice" in alice_seen and "Bob" not in alice_seen


def test_last_turns_block_is_cleared_when_nothing_passes(seeded):
    query = "Thanks, great!"  # a courtesy turn reads no conversation
    assert seeded.recall(query, "alice", context=["peanuts?"]) == []  # precondition
    model = replies("one", "two")
    graph = build_graph(seeded, model, entity_id="alice", checkpointer=InMemorySaver())
    cfg = {"configurable": {"thread_id": "t-1"}}
    graph.invoke({"messages": [HumanMessage("peanuts?")]}, cfg)
    result = graph.invoke({"messages": [HumanMessage(query)]}, cfg)
    first, second = model.system_texts()
    assert PEANUTS in first
    assert second == SYSTEM
    assert result["memori_context"] == ""
    assert all(OPEN_TAG not in str(m.content) for m in result["messages"])


def test_without_entity_raises_a_clear_error(seeded):
    graph = build_graph(seeded, replies("ok"))
    with pytest.raises(ValueError, match=r"memori_recall_node.*entity_id.*user_id"):
        graph.invoke({"messages": [HumanMessage("peanuts")]})


def test_broken_store_fails_open_and_strict_raises(fresh_seeded, caplog):
    model = replies("still answered")
    graph = build_graph(fresh_seeded, model, entity_id="alice")
    break_store(fresh_seeded)
    with caplog.at_level(logging.WARNING, logger="memori_langchain"):
        result = graph.invoke({"messages": [HumanMessage("peanuts?")]})
    assert result["messages"][-1].content == "still answered"
    assert model.system_texts() == [SYSTEM]
    assert any("recall failed" in r.getMessage() for r in caplog.records)
    strict = build_graph(fresh_seeded, replies("ok"), entity_id="alice", strict=True)
    with pytest.raises(Exception, match="does not exist"):
        strict.invoke({"messages": [HumanMessage("peanuts?")]})


def test_with_memori_context_helper():
    state = {"messages": [HumanMessage("hi")], "memori_context": "<memori_context>\nX\n</memori_context>"}
    out = with_memori_context(state, "Sys.")
    assert isinstance(out[0], SystemMessage) and out[0].content == "Sys.\n\n<memori_context>\nX\n</memori_context>"
    assert out[1:] == state["messages"]
    assert with_memori_context({"messages": [HumanMessage("hi")]}) == [HumanMessage("hi")]
    assert with_memori_context({"messages": [HumanMessage("hi")], "memori_context": ""}, "Sys.") == [
        SystemMessage("Sys."), HumanMessage("hi")
    ]


def test_with_memori_context_takes_a_system_message_as_the_system_prompt_and_keeps_its_content_parts():
    cached = SystemMessage(content=[{"type": "text", "text": "Sys.", "cache_control": {"type": "ephemeral"}}])
    state = {"messages": [HumanMessage("hi")], "memori_context": "<memori_context>\nX\n</memori_context>"}
    out = with_memori_context(state, cached)
    assert out[0].content[0] == cached.content[0]  # the app's cacheable prefix, untouched
    assert out[0].text == "Sys.\n\n<memori_context>\nX\n</memori_context>" and out[1:] == state["messages"]
    assert cached.content == [{"type": "text", "text": "Sys.", "cache_control": {"type": "ephemeral"}}]


@pytest.mark.parametrize(("state", "system_prompt", "named"), [
    ({"messages": [HumanMessage("hi")]}, 42, "system_prompt must be a str, a SystemMessage or None, got int"),
    ({"messages": [HumanMessage("hi")]}, [SystemMessage("Sys.")], "system_prompt must be .* got list"),
    ([HumanMessage("hi")], "Sys.", "state must be the graph state .* got list"),
])
def test_with_memori_context_names_the_argument_of_the_wrong_type(state, system_prompt, named):
    with pytest.raises(TypeError, match=named) as raised:
        with_memori_context(state, system_prompt)
    assert len(str(raised.value).splitlines()) == 1


def _recall_graph(engine, state_schema, node, model):
    from langgraph.graph import END, START, StateGraph

    builder = StateGraph(state_schema)
    builder.add_node("memori", node)
    builder.add_node("model", lambda s: {"messages": [model.invoke(with_memori_context(s, SYSTEM))]})
    builder.add_edge(START, "memori")
    builder.add_edge("memori", "model")
    builder.add_edge("model", END)
    return builder.compile(checkpointer=InMemorySaver())


def _dropped_warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if "drops the block" in r.getMessage()]


def test_recall_node_in_a_plain_messages_state_graph_warns_once_per_node(seeded, caplog):
    from langgraph.graph import MessagesState

    from memori_langchain import memori_recall_node

    node = memori_recall_node(seeded, entity_id="alice")
    model = replies("a1", "a2", "a3")
    graph = _recall_graph(seeded, MessagesState, node, model)
    config = {"configurable": {"thread_id": "t"}}
    with caplog.at_level(logging.WARNING, logger="memori_langchain"):
        for _ in range(2):
            graph.invoke({"messages": [HumanMessage("Which peanuts snack is safe for me?")]}, config)
        other = _recall_graph(seeded, MessagesState, memori_recall_node(seeded, entity_id="alice"), model)
        other.invoke({"messages": [HumanMessage("Which peanuts snack is safe for me?")]}, config)
    assert all(OPEN_TAG not in text for text in model.system_texts())  # LangGraph dropped the block
    [first, second] = _dropped_warnings(caplog)  # once per node instance
    assert first == second
    assert "no 'memori_context' key" in first and "MemoriState" in first


def test_recall_node_with_the_key_in_its_state_does_not_warn(seeded, caplog):
    from memori_langchain import MemoriState, memori_recall_node

    model = replies("a1", "a2")
    graph = _recall_graph(seeded, MemoriState, memori_recall_node(seeded, entity_id="alice"), model)
    config = {"configurable": {"thread_id": "t"}}
    with caplog.at_level(logging.WARNING, logger="memori_langchain"):
        for _ in range(2):  # the first turn's state has no value for the key yet: no warning either
            graph.invoke({"messages": [HumanMessage("Which peanuts snack is safe for me?")]}, config)
    assert all(PEANUTS in text for text in model.system_texts())
    assert _dropped_warnings(caplog) == []


def test_with_memori_context_last_user_placement_appends_the_block_to_the_latest_human_message():
    block = "<memori_context>\nX\n</memori_context>"
    state = {"messages": [HumanMessage("hi"), HumanMessage("peanuts?")], "memori_context": block}
    out = with_memori_context(state, "Sys.", placement="last_user")
    assert out == [SystemMessage("Sys."), HumanMessage("hi"), HumanMessage(f"peanuts?\n\n{block}")]
    with pytest.raises(ValueError, match="with_memori_context: placement must be one of"):
        with_memori_context(state, placement="user")
