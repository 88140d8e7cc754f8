"""MemoriMiddleware in a real `create_agent` agent, driven by LangChain's fake chat model."""

from __future__ import annotations

import logging
import os
import subprocess
from dataclasses import dataclass

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver

from _faults import Faults, InjectedFault, break_store
from _helpers import seeded_fixtures, wait_until
from _langchain_fakes import PEANUTS, replies, seed_alice_and_bob, shop_search, tool_round_trip
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.context import OPEN_TAG
from memori_langchain import MemoriContextInjector, MemoriMiddleware

SYSTEM = "You are a cooking assistant."
QUESTION = "Which peanuts snack can I buy in Lisbon?"


# Alice's and Bob's facts, recalled without a gate: these tests are about where the block goes and whose facts it
# holds, and the hash embedder's cosines mean nothing to the relevance gate. ``seeded`` is shared by the tests that
# only read it (checked at teardown); a test that writes (capture) or breaks the store takes ``fresh_seeded``.
seeded, fresh_seeded = seeded_fixtures(seed_alice_and_bob, RecallConfig(gate="off"))


@pytest.fixture
def seeded_gated(engine):
    """The same facts under the shipped config (relevance gate on)."""
    return seed_alice_and_bob(engine)


def _no_block_in(messages) -> bool:
    return all(OPEN_TAG not in str(m.content) for m in messages)


def test_every_model_call_of_a_tool_loop_sees_the_block_and_state_stays_clean(seeded):
    model = tool_round_trip()
    agent = create_agent(model, [shop_search], system_prompt=SYSTEM,
                         middleware=[MemoriMiddleware(engine=seeded, entity_id="alice")])
    result = agent.invoke({"messages": [HumanMessage(QUESTION)]})

    assert len(model.calls) == 2
    for sent in model.calls:
        assert isinstance(sent[0], SystemMessage)
        assert sent[0].content.startswith(SYSTEM + "\n\n" + OPEN_TAG)
        assert f"- {PEANUTS} Stated at 2026-05-01 09:30 UTC" in sent[0].content
    assert [m.type for m in model.calls[1]] == ["system", "human", "ai", "tool"]
    assert [m.type for m in result["messages"]] == ["human", "ai", "tool", "ai"]
    assert result["messages"][-1].content == "Buy the rice crackers."
    assert _no_block_in(result["messages"])


async def test_async_agent_tool_loop_sees_the_block(seeded):
    model = tool_round_trip()
    agent = create_agent(model, [shop_search], system_prompt=SYSTEM,
                         middleware=[MemoriMiddleware(engine=seeded, entity_id="alice")])
    result = await agent.ainvoke({"messages": [HumanMessage(QUESTION)]})
    assert len(model.calls) == 2 and all(PEANUTS in t for t in model.system_texts())
    assert _no_block_in(result["messages"])


def test_agent_without_system_prompt_gets_a_system_message(seeded):
    model = replies("ok")
    agent = create_agent(model, [], middleware=[MemoriMiddleware(engine=seeded, entity_id="alice")])
    agent.invoke({"messages": [HumanMessage("peanuts?")]})
    [sent] = model.calls
    assert isinstance(sent[0], SystemMessage) and sent[0].content.startswith(OPEN_TAG)


def test_app_system_message_in_the_input_gets_the_block_after_its_instructions_like_the_injector(seeded):
    model = tool_round_trip()
    agent = create_agent(model, [shop_search], middleware=[MemoriMiddleware(engine=seeded, entity_id="alice")])
    messages = [SystemMessage(SYSTEM), HumanMessage(QUESTION)]
    agent.invoke({"messages": messages})

    injected = MemoriContextInjector(engine=seeded, entity_id="alice").invoke(messages)
    assert len(model.calls) == 2
    for sent in model.calls:  # tool-loop call too: one system message, the app's, with the block after it
        assert [m.type for m in sent if isinstance(m, SystemMessage)] == ["system"]
        assert sent[0].content.startswith(SYSTEM + "\n\n" + OPEN_TAG)
        assert sent[0].content == injected[0].content


def test_app_system_message_in_a_checkpointed_thread_never_stores_the_block(seeded):
    model = replies("one", "two")
    agent = create_agent(model, [], checkpointer=InMemorySaver(),
                         middleware=[MemoriMiddleware(engine=seeded, entity_id="alice")])
    cfg = {"configurable": {"thread_id": "t-1"}}
    agent.invoke({"messages": [SystemMessage(SYSTEM), HumanMessage("peanuts?")]}, cfg)
    result = agent.invoke({"messages": [HumanMessage("Alice lives in Lisbon?")]}, cfg)

    stored = agent.get_state(cfg).values["messages"]
    assert _no_block_in(result["messages"]) and _no_block_in(stored)
    assert [m.type for m in stored] == ["system", "human", "ai", "human", "ai"] and stored[0].content == SYSTEM
    second = model.calls[1]
    assert [m.type for m in second] == ["system", "human", "ai", "human"]  # the app's system message, once
    assert second[0].content.startswith(SYSTEM + "\n\n" + OPEN_TAG) and "Alice lives in Lisbon." in second[0].content


def test_block_is_not_persisted_across_turns_of_a_thread(seeded):
    model = replies("one", "two")
    agent = create_agent(model, [], system_prompt=SYSTEM, checkpointer=InMemorySaver(),
                         middleware=[MemoriMiddleware(engine=seeded, entity_id="alice")])
    cfg = {"configurable": {"thread_id": "t-1"}}
    agent.invoke({"messages": [HumanMessage("peanuts?")]}, cfg)
    result = agent.invoke({"messages": [HumanMessage("Alice lives in Lisbon?")]}, cfg)
    assert _no_block_in(result["messages"])
    second = model.calls[1]
    assert sum(OPEN_TAG in str(m.content) for m in second) == 1  # one block, only in the system message
    assert "Alice lives in Lisbon." in second[0].content


@dataclass
class UserContext:
    user_id: str


def test_entity_from_runtime_context_object(seeded):
    model = replies("ok")
    agent = create_agent(model, [], system_prompt=SYSTEM, context_schema=UserContext,
                         middleware=[MemoriMiddleware(engine=seeded)])
    agent.invoke({"messages": [HumanMessage("what am I allergic to?")]}, context=UserContext(user_id="bob"))
    [seen] = model.system_texts()
    assert "shellfish" in seen and "Alice" not in seen


def test_entity_from_runtime_context_dict_and_from_config(seeded):
    model = replies("a", "b")
    agent = create_agent(model, [], system_prompt=SYSTEM, middleware=[MemoriMiddleware(engine=seeded)])
    agent.invoke({"messages": [HumanMessage("allergic")]}, context={"entity_id": "alice"})
    agent.invoke({"messages": [HumanMessage("allergic")]}, {"configurable": {"entity_id": "bob"}})
    alice_seen, bob_seen = model.system_texts()
    assert "peanuts" in alice_seen and "shellfish" not in alice_seen
    assert "shellfish" in bob_seen and "peanuts" not in bob_seen


def test_per_call_entity_overrides_constructor(seeded):
    model = replies("ok")
    agent = create_agent(model, [], middleware=[MemoriMiddleware(engine=seeded, entity_id="alice")])
    agent.invoke({"messages": [HumanMessage("allergic")]}, context=UserContext(user_id="bob"))
    assert "shellfish" in model.system_texts()[0] and "peanuts" not in model.system_texts()[0]


@dataclass
class IntUserContext:
    user_id: int


def test_an_int_user_id_names_the_entity_of_its_decimal_str(engine):
    """Apps keep integer user ids; ``user_id=42`` is the entity "42" (a LangGraph namespace's label is "42" too)."""
    engine.config = RecallConfig(gate="off")
    engine.add("42", ["User is allergic to peanuts."])
    engine.add("7", ["User is allergic to shellfish."])
    model = replies("a", "b", "c")
    agent = create_agent(model, [], context_schema=IntUserContext, middleware=[MemoriMiddleware(engine=engine)])
    agent.invoke({"messages": [HumanMessage("allergic")]}, context=IntUserContext(user_id=42))
    agent.invoke({"messages": [HumanMessage("allergic")]}, {"configurable": {"entity_id": 7}})
    MemoriMiddleware(engine=engine, entity_id=42)  # the constructor's default takes one too
    first, second = model.system_texts()
    assert "peanuts" in first and "shellfish" not in first
    assert "shellfish" in second and "peanuts" not in second


@pytest.mark.parametrize(("run", "error", "message"), [
    ({"context": {"user_id": 4.2}}, TypeError,
     r"MemoriMiddleware: the runtime context's user_id must be a non-empty str or an int \(a user id\), got float"),
    ({"context": {"user_id": True}}, TypeError, "the runtime context's user_id must be .* got bool"),
    ({"context": {"entity_id": " alice"}}, ValueError,
     "MemoriMiddleware: the runtime context's entity_id ' alice' begins or ends with whitespace"),
    ({"context": {"user_id": "alice\n"}}, ValueError, r"the runtime context's user_id 'alice\\n' begins or ends"),
    ({"context": {"user_id": "jose\u0301"}}, ValueError,
     r"the runtime context's user_id 'jose\\u0301' is not in Unicode NFC form, .* 'jos\\xe9' \('jos\xe9'\)"),
    ({"config": {"configurable": {"user_id": "alice\u200b"}}}, ValueError,
     r"MemoriMiddleware: config\['configurable'\]\['user_id'\] 'alice\\u200b' holds an invisible character .* "
     r"U\+200B \(ZERO WIDTH SPACE\)"),
    ({"config": {"configurable": {"entity_id": b"alice"}}}, TypeError,
     r"MemoriMiddleware: config\['configurable'\]\['entity_id'\] must be a non-empty str or an int"),
])
def test_a_bad_entity_id_of_a_run_is_refused_naming_where_it_came_from(seeded, run, error, message):
    agent = create_agent(replies("ok"), [], middleware=[MemoriMiddleware(engine=seeded)])
    with pytest.raises(error, match=message):
        agent.invoke({"messages": [HumanMessage("peanuts")]}, run.get("config"), context=run.get("context"))


def test_without_entity_raises_a_clear_error(seeded):
    agent = create_agent(replies("ok"), [], middleware=[MemoriMiddleware(engine=seeded)])
    with pytest.raises(ValueError, match=r"MemoriMiddleware.*entity_id.*user_id"):
        agent.invoke({"messages": [HumanMessage("peanuts")]})


def test_other_users_facts_never_appear(seeded):
    model = tool_round_trip()
    agent = create_agent(model, [shop_search], system_prompt=SYSTEM,
                         middleware=[MemoriMiddleware(engine=seeded, entity_id="bob", k=50)])
    agent.invoke({"messages": [HumanMessage("peanuts Lisbon allergic lives")]})
    for seen in model.system_texts():
        assert "Bob" in seen and "Alice" not in seen


def test_nothing_injected_when_the_gate_stays_closed(seeded_gated):
    query = "zebra xylophone quartz"
    assert seeded_gated.recall(query, "alice") == []  # precondition
    model = tool_round_trip()
    agent = create_agent(model, [shop_search], system_prompt=SYSTEM,
                         middleware=[MemoriMiddleware(engine=seeded_gated, entity_id="alice")])
    agent.invoke({"messages": [HumanMessage(query)]})
    assert model.system_texts() == [SYSTEM, SYSTEM]


def test_broken_store_fails_open_with_warnings(fresh_seeded, caplog):
    model = tool_round_trip()
    middleware = MemoriMiddleware(engine=fresh_seeded, entity_id="alice", capture=True)
    agent = create_agent(model, [shop_search], system_prompt=SYSTEM, middleware=[middleware])
    break_store(fresh_seeded)
    with caplog.at_level(logging.WARNING, logger="memori_langchain"):
        result = agent.invoke({"messages": [HumanMessage("I live in Lisbon. " + QUESTION)]})
        assert middleware.flush()  # capture runs in the background
    assert result["messages"][-1].content == "Buy the rice crackers."
    assert model.system_texts() == [SYSTEM, SYSTEM]
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "recall failed for entity 'alice'" in text and "capture failed for entity 'alice'" in text


async def test_broken_store_strict_raises(fresh_seeded):
    agent = create_agent(replies("ok"), [],
                         middleware=[MemoriMiddleware(engine=fresh_seeded, entity_id="alice", strict=True)])
    break_store(fresh_seeded)
    with pytest.raises(Exception, match="does not exist"):
        await agent.ainvoke({"messages": [HumanMessage("peanuts")]})


async def test_a_shared_strict_middleware_raises_a_failed_capture_only_in_that_users_next_call(fresh_seeded):
    # One middleware for every user of a service: alice's failed capture (a real store write failing) must not
    # be raised in bob's request, and must reach alice.
    Faults(fresh_seeded.store).arm("upsert", times=1, message="the write of alice's turn failed")
    middleware = MemoriMiddleware(engine=fresh_seeded, capture=True, strict=True)
    agent = create_agent(replies(*["ok"] * 4), [], system_prompt=SYSTEM, middleware=[middleware])

    async def turn(entity: str, text: str) -> str:
        result = await agent.ainvoke({"messages": [HumanMessage(text)]}, {"configurable": {"entity_id": entity}})
        return result["messages"][-1].content

    assert await turn("alice", "I moved to Zagreb.") == "ok"
    assert wait_until(lambda: middleware.capture_stats.failed == 1)
    assert await turn("bob", "What snacks are safe for me?") == "ok"  # bob's call is not alice's to fail
    with pytest.raises(InjectedFault, match="the write of alice's turn failed"):
        await turn("alice", "Hi again.")
    assert await turn("alice", "Hi again.") == "ok"  # raised once
    assert middleware.flush().failed == 1  # nothing left to raise


def test_a_shared_strict_middleware_flush_raises_a_failure_no_user_call_took(fresh_seeded):
    Faults(fresh_seeded.store).arm("upsert", times=1, message="the write of alice's turn failed")
    middleware = MemoriMiddleware(engine=fresh_seeded, capture=True, strict=True)
    agent = create_agent(replies(*["ok"] * 2), [], system_prompt=SYSTEM, middleware=[middleware])
    agent.invoke({"messages": [HumanMessage("I moved to Zagreb.")]}, {"configurable": {"entity_id": "alice"}})
    agent.invoke({"messages": [HumanMessage("Hello.")]}, {"configurable": {"entity_id": "bob"}})
    with pytest.raises(InjectedFault, match="alice's turn"):
        middleware.flush()  # the app's own call: any user's failure
    middleware.flush()  # raised once: nothing left


@pytest.mark.server
def test_chroma_server_going_down_leaves_the_agent_working(tmp_path, hash_embedder, caplog):
    from _helpers import _chroma_cli, free_port
    import chromadb
    import time

    port = free_port()
    proc = subprocess.Popen(
        [*_chroma_cli(), "run", "--path", str(tmp_path / "db"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, ANONYMIZED_TELEMETRY="False"),
    )
    try:
        for _ in range(300):
            try:
                chromadb.HttpClient(host="127.0.0.1", port=port).heartbeat()
                break
            except Exception:
                time.sleep(0.2)
        engine = RecallEngine(store=ChromaStore.http("127.0.0.1", port), embedder=hash_embedder)
        engine.add("alice", [PEANUTS])
        model = replies("with memory", "without memory")
        agent = create_agent(model, [], system_prompt=SYSTEM,
                             middleware=[MemoriMiddleware(engine=engine, entity_id="alice")])
        agent.invoke({"messages": [HumanMessage("peanuts?")]})
        assert PEANUTS in model.system_texts()[0]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    with caplog.at_level(logging.WARNING, logger="memori_langchain"):
        result = agent.invoke({"messages": [HumanMessage("peanuts?")]})
    assert result["messages"][-1].content == "without memory"
    assert model.system_texts()[1] == SYSTEM
    assert any("recall failed" in r.getMessage() for r in caplog.records)


def test_capture_stores_each_user_turn_once_with_thread_metadata(fresh_seeded):
    model = replies(
        AIMessage(content="", tool_calls=[{"name": "shop_search", "args": {"item": "tofu"}, "id": "c1"}]),
        AIMessage(content="noted"),
        AIMessage(content="Use tofu."),
    )
    middleware = MemoriMiddleware(engine=fresh_seeded, entity_id="alice", capture=True)
    agent = create_agent(model, [shop_search], system_prompt=SYSTEM, checkpointer=InMemorySaver(),
                         middleware=[middleware])
    cfg = {"configurable": {"thread_id": "kitchen-1"}}
    before = fresh_seeded.count("alice")
    # said on 2026-08-07 (the message's own created_at): "last month" is stored as the month it names
    said = HumanMessage("I became vegetarian last month.",
                        additional_kwargs={"created_at": "2026-08-07T10:00:00+00:00"})
    agent.invoke({"messages": [said]}, cfg)
    assert middleware.flush()
    assert fresh_seeded.count("alice") == before + 1  # two model calls, one user turn, one fact
    [fact] = [f for f in fresh_seeded.recall("vegetarian last month", "alice") if "vegetarian" in f.content]
    assert fact.content == "User became vegetarian in July 2026."  # the statement, as a fact about the user
    assert fact.metadata["thread_id"] == "kitchen-1" and fact.metadata["role"] == "user"
    assert fact.metadata["session_id"] == "kitchen-1"
    assert fact.metadata["message_id"]
    # The turn being answered is never injected back at the model ...
    assert all("vegetarian" not in t for t in model.system_texts())
    # ... but the next turn recalls it; that turn is a question, and questions are not stored.
    agent.invoke({"messages": [HumanMessage("What protein should a vegetarian like me cook?")]}, cfg)
    assert middleware.flush()
    assert "User became vegetarian in July 2026." in model.system_texts()[-1]
    assert fresh_seeded.count("alice") == before + 1


async def test_capture_async(fresh_seeded):
    middleware = MemoriMiddleware(engine=fresh_seeded, entity_id="alice", capture=True)
    agent = create_agent(replies("ok"), [], middleware=[middleware])
    await agent.ainvoke({"messages": [HumanMessage("My sister Ana visits on Fridays.")]})
    assert await middleware.aflush()
    assert any(f.content == "User's sister Ana visits on Fridays."
               for f in fresh_seeded.recall("sister Ana Fridays", "alice"))


def test_capture_off_by_default(fresh_seeded):
    agent = create_agent(replies("ok"), [], middleware=[MemoriMiddleware(engine=fresh_seeded, entity_id="alice")])
    before = fresh_seeded.count("alice")
    agent.invoke({"messages": [HumanMessage("I moved to Porto.")]})
    assert fresh_seeded.count("alice") == before


async def test_async_agent_entity_from_config(seeded):
    model = replies("ok")
    agent = create_agent(model, [], system_prompt=SYSTEM, middleware=[MemoriMiddleware(engine=seeded)])
    await agent.ainvoke({"messages": [HumanMessage("allergic")]}, {"configurable": {"entity_id": "bob"}})
    assert "shellfish" in model.system_texts()[0] and "peanuts" not in model.system_texts()[0]


def test_list_content_system_message_gets_a_text_block(seeded):
    model = replies("ok")
    system = SystemMessage(content=[{"type": "text", "text": SYSTEM}])
    agent = create_agent(model, [], system_prompt=system,
                         middleware=[MemoriMiddleware(engine=seeded, entity_id="alice")])
    agent.invoke({"messages": [HumanMessage("peanuts?")]})
    content = model.calls[0][0].content
    assert content[0] == {"type": "text", "text": SYSTEM}
    assert content[1]["type"] == "text" and PEANUTS in content[1]["text"]
    assert model.calls[0][0].text.startswith(SYSTEM + "\n\n" + OPEN_TAG)


def _persona_agent_system_text(engine, memori_first: bool) -> str:
    from langchain.agents.middleware import ModelRequest, dynamic_prompt

    @dynamic_prompt
    def persona(request: ModelRequest) -> str:
        return "You are a pirate."

    memori = MemoriMiddleware(engine=engine, entity_id="alice")
    model = replies("Arr.")
    agent = create_agent(model, [], middleware=[memori, persona] if memori_first else [persona, memori])
    agent.invoke({"messages": [HumanMessage(QUESTION)]})
    return model.system_texts()[0]


def test_memori_listed_after_a_dynamic_prompt_middleware_adds_the_block_to_its_prompt(seeded):
    text = _persona_agent_system_text(seeded, memori_first=False)
    assert text.startswith("You are a pirate.\n\n" + OPEN_TAG)
    assert "peanuts" in text


def test_a_dynamic_prompt_middleware_listed_after_memori_replaces_the_block_as_documented(seeded):
    # docs/langchain.md ("Order matters") and the class docstring tell users to list MemoriMiddleware last.
    assert _persona_agent_system_text(seeded, memori_first=True) == "You are a pirate."


def test_last_user_placement_puts_the_block_in_the_human_turn_of_every_tool_loop_call(seeded):
    model = tool_round_trip()
    middleware = MemoriMiddleware(engine=seeded, entity_id="alice", placement="last_user")
    agent = create_agent(model, [shop_search], system_prompt=SYSTEM, middleware=[middleware])
    result = agent.invoke({"messages": [HumanMessage(QUESTION)]})

    assert len(model.calls) == 2
    for sent in model.calls:
        assert sent[0] == SystemMessage(SYSTEM)  # the system prompt stays a cacheable prefix
        assert sent[1].content.startswith(QUESTION + "\n\n" + OPEN_TAG)
        assert f"- {PEANUTS} Stated at 2026-05-01 09:30 UTC" in sent[1].content
    assert model.calls[1][1] == model.calls[0][1]  # the loop call's prefix is the first call's whole request
    assert [m.type for m in model.calls[1]] == ["system", "human", "ai", "tool"]
    assert _no_block_in(result["messages"])


async def test_last_user_placement_in_an_async_agent_keeps_the_state_clean(seeded):
    model = replies("ok")
    agent = create_agent(model, [], middleware=[MemoriMiddleware(engine=seeded, entity_id="alice",
                                                                 placement="last_user")])
    result = await agent.ainvoke({"messages": [HumanMessage(QUESTION)]})
    [sent] = model.calls
    assert [m.type for m in sent] == ["human"] and PEANUTS in sent[0].text
    assert _no_block_in(result["messages"])


def test_middleware_refuses_an_unknown_placement(seeded):
    with pytest.raises(ValueError, match="MemoriMiddleware: placement must be one of"):
        MemoriMiddleware(engine=seeded, entity_id="alice", placement="first_user")
