"""MemoriRetriever: the langchain-tests standard suite, documents, k, entity resolution."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from langchain_core.runnables import RunnableLambda
from langchain_tests.integration_tests import RetrieversIntegrationTests

from _faults import break_store
from _helpers import seeded_fixtures
from memori_core import RecallEngine
from memori_langchain import MemoriRetriever

COFFEE_FACTS = [
    "User drinks coffee every morning.",
    "User likes coffee with oat milk.",
    "User buys coffee beans from Ethiopia.",
    "User grinds coffee by hand.",
    "User never drinks coffee after 4 pm.",
    "User owns a coffee machine from Italy.",
]


class TestMemoriRetrieverStandard(RetrieversIntegrationTests):
    """The standard retriever suite of langchain-tests, over a real in-memory Chroma store."""

    @pytest.fixture(autouse=True)
    def _seeded_engine(self, engine) -> None:
        engine.add("user-1", COFFEE_FACTS)
        engine.add("user-2", ["User drinks coffee black.", "User hates coffee pods.", "User likes coffee."])
        self._engine = engine

    @property
    def retriever_constructor(self) -> type[MemoriRetriever]:
        return MemoriRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        return {"engine": self._engine, "entity_id": "user-1", "k": 2}

    @property
    def retriever_query_example(self) -> str:
        return "how does the user take coffee"


def _seed(engine: RecallEngine) -> RecallEngine:
    engine.add("alice", ["Alice is allergic to peanuts.", "Alice lives in Lisbon.", *COFFEE_FACTS],
               created_at="2026-05-01T09:30:00Z", metadata={"source": "onboarding"})
    engine.add("bob", ["Bob is allergic to shellfish.", "Bob lives in Oslo."])
    return engine


# Alice's and Bob's facts under the shipped config, shared by the tests that only read them (checked at
# teardown); a test that breaks the store takes ``fresh_seeded``.
seeded, fresh_seeded = seeded_fixtures(_seed)


def test_documents_carry_fact_id_content_and_scores(seeded):
    docs = MemoriRetriever(engine=seeded, entity_id="alice").invoke("is alice allergic to peanuts")
    facts = seeded.recall("is alice allergic to peanuts", "alice")
    assert docs and docs[0].page_content == "Alice is allergic to peanuts."
    assert [d.id for d in docs] == [f.id for f in facts]
    top, fact = docs[0], facts[0]
    assert top.metadata["id"] == fact.id
    assert top.metadata["entity_id"] == "alice"
    assert top.metadata["created_at"].startswith("2026-05-01T09:30")
    assert top.metadata["cosine"] == pytest.approx(fact.cosine)
    assert top.metadata["lexical"] == pytest.approx(fact.lexical)
    assert top.metadata["rank_score"] == pytest.approx(fact.rank_score)
    assert top.metadata["source"] == "onboarding"
    scores = [d.metadata["rank_score"] for d in docs]
    assert scores == sorted(scores, reverse=True)


def test_k_field_and_per_call_k(seeded):
    retriever = MemoriRetriever(engine=seeded, entity_id="alice", k=4)
    assert len(retriever.invoke("coffee")) == 4
    assert len(retriever.invoke("coffee", k=2)) == 2
    assert len(retriever.invoke("coffee", k=0)) == 0


def test_default_k_is_the_engines_limit(seeded):
    retriever = MemoriRetriever(engine=seeded, entity_id="alice")
    assert retriever.k is None  # as on every memori adapter: the engine's config.limit, 5 by default
    assert len(retriever.invoke("coffee")) == seeded.config.limit == 5


async def test_async_matches_sync(seeded):
    retriever = MemoriRetriever(engine=seeded, entity_id="alice", k=3)
    sync_docs = retriever.invoke("coffee with milk")
    async_docs = await retriever.ainvoke("coffee with milk")
    assert [d.id for d in async_docs] == [d.id for d in sync_docs]
    assert len(await retriever.ainvoke("coffee with milk", k=1)) == 1


def test_entity_from_config_overrides_constructor(seeded):
    retriever = MemoriRetriever(engine=seeded, entity_id="alice")
    docs = retriever.invoke("who lives there", config={"configurable": {"entity_id": "bob"}})
    assert docs and {d.metadata["entity_id"] for d in docs} == {"bob"}
    assert all("Alice" not in d.page_content for d in docs)


def test_entity_from_config_inside_a_chain(seeded):
    retriever = MemoriRetriever(engine=seeded)  # no entity of its own
    chain = retriever | RunnableLambda(lambda docs: [d.page_content for d in docs])
    alice = chain.invoke("allergic", config={"configurable": {"entity_id": "alice"}})
    bob = chain.invoke("allergic", config={"configurable": {"entity_id": "bob"}})
    assert "Alice is allergic to peanuts." in alice and not any("Bob" in t for t in alice)
    assert "Bob is allergic to shellfish." in bob and not any("Alice" in t for t in bob)


async def test_entity_from_config_async_and_batch(seeded):
    retriever = MemoriRetriever(engine=seeded)
    docs = await retriever.ainvoke("allergic", config={"configurable": {"entity_id": "bob"}})
    assert docs[0].page_content == "Bob is allergic to shellfish."
    batched = retriever.batch(
        ["allergic", "allergic"],
        config=[{"configurable": {"entity_id": "alice"}}, {"configurable": {"entity_id": "bob"}}],
    )
    assert batched[0][0].page_content.startswith("Alice") and batched[1][0].page_content.startswith("Bob")


def test_other_users_facts_never_returned(seeded):
    docs = MemoriRetriever(engine=seeded, entity_id="bob", k=50).invoke("coffee peanuts Lisbon")
    assert all(d.metadata["entity_id"] == "bob" for d in docs)
    assert all("coffee" not in d.page_content for d in docs)


def test_without_entity_raises_a_clear_error(seeded):
    with pytest.raises(ValueError, match="entity_id"):
        MemoriRetriever(engine=seeded).invoke("coffee")


def test_blank_query_returns_nothing(seeded):
    assert MemoriRetriever(engine=seeded, entity_id="alice").invoke("   ") == []


@pytest.mark.parametrize("strict", [False, True])
def test_a_none_query_is_a_type_error_naming_query_whatever_strict_says(seeded, strict):
    with pytest.raises(TypeError, match="query must be a str, got NoneType"):
        MemoriRetriever(engine=seeded, entity_id="alice", strict=strict).invoke(None)


def test_store_failure_fails_open_unless_strict(fresh_seeded, caplog):
    retriever = MemoriRetriever(engine=fresh_seeded, entity_id="alice")
    strict = MemoriRetriever(engine=fresh_seeded, entity_id="alice", strict=True)
    break_store(fresh_seeded)
    with caplog.at_level(logging.WARNING, logger="memori_langchain"):
        assert retriever.invoke("coffee") == []  # like every memori adapter: no memory, no crash
    assert "MemoriRetriever: recall failed for entity 'alice'" in caplog.text
    with pytest.raises(Exception, match="does not exist"):
        strict.invoke("coffee")


def test_returns_langchain_documents(seeded):
    from langchain_core.documents import Document

    docs = MemoriRetriever(engine=seeded, entity_id="alice", k=2).invoke("coffee")
    assert len(docs) == 2 and all(isinstance(d, Document) for d in docs)


def _retriever_tool_agent(engine: RecallEngine, question: str):
    """A create_agent agent with a context schema whose model calls a MemoriRetriever retriever tool once."""
    from dataclasses import dataclass

    from langchain.agents import create_agent
    from langchain_core.messages import AIMessage
    from langchain_core.tools import create_retriever_tool

    from _langchain_fakes import replies

    @dataclass
    class Ctx:
        user_id: str

    call = AIMessage("", tool_calls=[{"name": "search_memory", "args": {"query": question}, "id": "c1",
                                      "type": "tool_call"}])
    tool = create_retriever_tool(MemoriRetriever(engine=engine), "search_memory", "The user's memory.")
    return create_agent(replies(call, AIMessage("ok")), tools=[tool], context_schema=Ctx), Ctx


def test_retriever_tool_in_an_agent_reads_the_agents_runtime_context(seeded):
    for user, own, other in (("alice", "Alice is allergic to peanuts.", "Bob"),
                             ("bob", "Bob is allergic to shellfish.", "Alice")):
        agent, ctx = _retriever_tool_agent(seeded, "allergic")
        result = agent.invoke({"messages": [("human", "Which allergies do I have?")]}, context=ctx(user))
        tool_text = result["messages"][-2].content
        assert own in tool_text and other not in tool_text


async def test_retriever_tool_in_an_async_agent_reads_the_runtime_context_and_config_wins(seeded):
    agent, ctx = _retriever_tool_agent(seeded, "allergic")
    result = await agent.ainvoke({"messages": [("human", "Which allergies?")]}, context=ctx("alice"))
    assert "Alice is allergic to peanuts." in result["messages"][-2].content
    agent, ctx = _retriever_tool_agent(seeded, "allergic")
    result = await agent.ainvoke({"messages": [("human", "Which allergies?")]}, context=ctx("alice"),
                                 config={"configurable": {"entity_id": "bob"}})  # the run config comes first
    assert "Bob is allergic to shellfish." in result["messages"][-2].content
    assert "Alice" not in result["messages"][-2].content


def test_without_entity_the_error_names_every_way_to_give_one(seeded):
    with pytest.raises(ValueError, match="entity_id=... to MemoriRetriever.*configurable.*context"):
        MemoriRetriever(engine=seeded).invoke("coffee")


def test_k_counts_recalled_documents_and_core_facts_come_on_top_up_to_core_limit(engine):
    from memori_core import RecallConfig

    engine.config = RecallConfig(gate="off")
    engine.add("alice", ["User plays the cello.", "User lives in Lisbon."])
    engine.add("alice", ["User is allergic to peanuts.", "User takes metformin daily."], core=True)
    docs = MemoriRetriever(engine=engine, entity_id="alice", k=1).invoke("Which instrument do I play?")
    assert [d.page_content for d in docs][0] == "User plays the cello."
    assert sorted(d.page_content for d in docs[1:]) == ["User is allergic to peanuts.", "User takes metformin daily."]
    engine.config = RecallConfig(gate="off", core_limit=0)  # k as a hard cap
    docs = MemoriRetriever(engine=engine, entity_id="alice", k=1).invoke("Which instrument do I play?")
    assert [d.page_content for d in docs] == ["User plays the cello."]
