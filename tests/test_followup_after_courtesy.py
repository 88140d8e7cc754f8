"""A follow-up after a courtesy turn ("thanks", "ok and") carries what recall kept for the turn before that courtesy
turn (docs/ranking.md item 63): the carry of item 59 reads the asker's last turn that asks something.

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
from test_carried import GOUT, KNEE_ASKED, KNEE_FOLLOW_UP, TAXI


def _taxi(minilm, **config) -> RecallEngine:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm, config=RecallConfig(**config))
    engine.add("u", TAXI)
    return engine


@pytest.mark.model
@pytest.mark.parametrize("between", ["thanks", "ok thanks!", "ok and"])
def test_engine_carries_the_gout_past_a_courtesy_turn_into_the_knee_follow_up(minilm, between):
    engine = _taxi(minilm)
    # the app recalls every turn, as the adapters do: the courtesy turn too (main then read it as the turn before)
    assert GOUT in [f.content for f in engine.recall(KNEE_ASKED, "u")]
    assert engine.recall(between, "u", context=[KNEE_ASKED]) == []
    context = [KNEE_ASKED, between]
    got = {f.content: f.passed_by for f in engine.recall(KNEE_FOLLOW_UP, "u", context=context)}
    assert got.get(GOUT) == "follow-up"
    assert "carried over from the turn before" in engine.explain(KNEE_FOLLOW_UP, "u", context=context).gate_note
    off = _taxi(minilm, gate_carried=None)
    assert GOUT not in [f.content for f in off.recall(KNEE_FOLLOW_UP, "u", context=context)]


@pytest.mark.model
def test_engine_carries_nothing_past_a_courtesy_turn_into_a_general_question(minilm):
    engine = _taxi(minilm)
    got = engine.recall("What's the capital of Peru?", "u", context=[KNEE_ASKED, "thanks"])
    assert GOUT not in [f.content for f in got]


@pytest.mark.model
def test_an_accepting_turn_is_not_passed_over(minilm):
    engine = _taxi(minilm)
    # "ok" accepts what the conversation offered (item 46): it is the turn before, and recall kept nothing for it
    got = {f.content: f.passed_by for f in engine.recall(KNEE_FOLLOW_UP, "u", context=[KNEE_ASKED, "ok"])}
    assert got.get(GOUT) != "follow-up"


@pytest.mark.model
def test_agent_middleware_gives_the_gout_to_the_knee_follow_up_after_thanks(minilm):
    engine = _taxi(minilm)
    model = replies("Check with your doctor first.", "You're welcome.", "That sounds like a gout flare.")
    agent = create_agent(model, [], system_prompt="You are a helpful assistant.", checkpointer=InMemorySaver(),
                         middleware=[MemoriMiddleware(engine=engine, entity_id="u")])
    thread = {"configurable": {"thread_id": "knee"}}
    for turn in (KNEE_ASKED, "thanks", KNEE_FOLLOW_UP):
        agent.invoke({"messages": [HumanMessage(turn)]}, thread)
    assert GOUT in model.system_texts()[-1]
