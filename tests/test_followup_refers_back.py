"""A general question that refers back ("How often should it be serviced?") and a follow-up after a courtesy turn
("thanks") carry what recall kept for the turn they go on from (docs/ranking.md item 63).

The pure reading runs in the fast tier; the engine and a LangChain agent recall with the real MiniLM (model tier).
"""

from __future__ import annotations

import numpy as np
import pytest
from langchain.agents import create_agent
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from _langchain_fakes import replies
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.ranking.conversation import refers_back
from memori_core.ranking.gate import decide, rule_names
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
CAR, LISBON = FACTS[0], FACTS[3]
CAR_TURN = "I drive a Corolla to work every day."
SERVICED = "How often should it be serviced?"
TRIP = "I'm flying to Lisbon next week"
RESTAURANTS = "Any restaurants you'd recommend there?"


@pytest.mark.parametrize("turn", [SERVICED, "how long would that take to sort out these days",
                                  "could it be the heat of the ground?", "how long does that take usually"])
def test_refers_back_reads_it_or_that_as_the_questions_subject(turn):
    assert refers_back(turn)


@pytest.mark.parametrize("turn", ["is it true dogs can't see colours?", "What currency do they use in Turkey?",
                                  "is there a direct flight from chennai to coimbatore",
                                  "how do you frame a watercolour so it doesn't buckle", "What's the capital of Peru?"])
def test_refers_back_skips_a_dummy_it_there_they_and_an_it_after_its_noun(turn):
    assert not refers_back(turn)


def test_gate_keeps_a_carried_fact_on_a_general_question_as_a_follow_ups():
    cfg = RecallConfig()
    cosine = np.array([0.40, 0.20, 0.18])
    score = np.array([0.5, 0.3, 0.2])
    carried = np.array([False, False, True])
    general = decide(cosine, score, cfg, general=True, carried=carried)
    assert general.keep.tolist() == [False, False, True]
    assert general.opened and rule_names(general.rules())[2] == "follow-up"
    assert "the question refers back to it" in general.note
    assert not decide(cosine, score, cfg, general=True).keep.any()


def _engine(minilm, **config) -> RecallEngine:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm, config=RecallConfig(**config))
    engine.add("u", FACTS)
    return engine


@pytest.mark.model
def test_engine_carries_the_car_into_a_general_question_that_refers_back_to_it(minilm):
    engine = _engine(minilm)
    assert CAR in [f.content for f in engine.recall(CAR_TURN, "u")]
    got = {f.content: f.passed_by for f in engine.recall(SERVICED, "u", context=[CAR_TURN])}
    assert got.get(CAR) == "follow-up"
    assert "refers back" in engine.explain(SERVICED, "u", context=[CAR_TURN]).gate_note
    assert [f.content for f in engine.recall(SERVICED, "u")] == []  # alone it asks about the world
    off = _engine(minilm, gate_carried=None)
    assert CAR not in [f.content for f in off.recall(SERVICED, "u", context=[CAR_TURN])]


@pytest.mark.model
def test_engine_carries_nothing_into_a_general_question_that_does_not_refer_back(minilm):
    engine = _engine(minilm)
    got = engine.recall("Is it true that cars need an oil change every 5,000 miles?", "u", context=[CAR_TURN])
    assert all(f.passed_by != "follow-up" for f in got)


@pytest.mark.model
@pytest.mark.parametrize("between", ["thanks", "ok thanks!"])
def test_engine_carries_the_trip_past_a_courtesy_turn_into_its_follow_up(minilm, between):
    engine = _engine(minilm)
    got = {f.content: f.passed_by for f in engine.recall(RESTAURANTS, "u", context=[TRIP, between])}
    assert LISBON in got


@pytest.mark.model
def test_agent_middleware_gives_the_car_to_its_serviced_follow_up(minilm):
    engine = _engine(minilm)
    model = replies("Corollas are reliable.", "Every 10,000 miles or once a year.")
    agent = create_agent(model, [], system_prompt="You are a helpful assistant.", checkpointer=InMemorySaver(),
                         middleware=[MemoriMiddleware(engine=engine, entity_id="u")])
    thread = {"configurable": {"thread_id": "car"}}
    agent.invoke({"messages": [HumanMessage(CAR_TURN)]}, thread)
    agent.invoke({"messages": [HumanMessage(SERVICED)]}, thread)
    _, follow_up = model.system_texts()
    assert CAR in follow_up
