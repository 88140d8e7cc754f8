"""A follow-up after a courtesy turn ("thanks") carries what recall kept for the turn it goes on from, and a carried
fact is bounded by its cosine to the conversation even when an earlier turn told it (docs/ranking.md item 63).

The engine and a LangChain agent recall with the real MiniLM (model tier).
"""

from __future__ import annotations

import pytest
from langchain.agents import create_agent
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from _langchain_fakes import replies
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_langchain import MemoriMiddleware

FACTS = [
    "User drives a 2015 Toyota Corolla.",
    "User commutes 40 km each way by car.",
    "User adopted a kitten named Miso last month.",
    "User is flying to Lisbon next week.",
    "User is vegetarian.",
    "User is allergic to peanuts.",
    "User's sister lives in Glasgow.",
    "User has two kids aged 4 and 7.",
    "User's mum lives in Cardiff.",
    "User works as a software engineer.",
    "User is saving for a house deposit.",
    "User has lower back pain.",
    "User goes to the gym three times a week.",
    "User drinks two coffees a day.",
    "User's uncle lives in Madrid.",
]
LISBON = FACTS[3]
TRIP = "I'm flying to Lisbon next week"
RESTAURANTS = "Any restaurants you'd recommend there?"


def _engine(minilm, **config) -> RecallEngine:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm, config=RecallConfig(**config))
    engine.add("u", FACTS)
    return engine


@pytest.mark.model
@pytest.mark.parametrize("between", ["thanks", "ok thanks!", "ok and"])
def test_engine_carries_the_trip_past_a_courtesy_turn_into_its_follow_up(minilm, between):
    engine = _engine(minilm)
    assert LISBON in [f.content for f in engine.recall(TRIP, "u")]
    got = {f.content: f.passed_by for f in engine.recall(RESTAURANTS, "u", context=[TRIP, between])}
    assert got.get(LISBON) == "follow-up"
    assert "carried over from the turn before" in engine.explain(RESTAURANTS, "u", context=[TRIP, between]).gate_note
    off = _engine(minilm, gate_carried=None)
    assert LISBON not in [f.content for f in off.recall(RESTAURANTS, "u", context=[TRIP, between])]


@pytest.mark.model
def test_engine_carries_nothing_past_a_courtesy_turn_into_a_general_question(minilm):
    engine = _engine(minilm)
    got = engine.recall("What's the capital of Portugal?", "u", context=[TRIP, "thanks"])
    assert all(f.passed_by != "follow-up" for f in got)


@pytest.mark.model
def test_agent_middleware_gives_the_trip_to_a_follow_up_after_thanks(minilm):
    engine = _engine(minilm)
    model = replies("Have a great trip!", "You're welcome.", "Try Time Out Market.")
    agent = create_agent(model, [], system_prompt="You are a helpful assistant.", checkpointer=InMemorySaver(),
                         middleware=[MemoriMiddleware(engine=engine, entity_id="u")])
    thread = {"configurable": {"thread_id": "trip"}}
    for turn in (TRIP, "thanks", RESTAURANTS):
        agent.invoke({"messages": [HumanMessage(turn)]}, thread)
    assert LISBON in model.system_texts()[-1]
