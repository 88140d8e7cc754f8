"""A question about the world keeps a fact that only shares its topic from a stricter cosine (issue 20, docs/ranking.md
68): "Are dachshunds prone to ear infections?" is the same question whoever asks it, and the fact about the asker's
dachshund passes the usual cut on the one word they share.

The word rules are read directly, the gate's cut through ``gate.decide``, and the engine's answers with the real
MiniLM and a real in-memory Chroma (model tier). The questions and facts were written for these tests, not taken
from the app-memory sets.
"""

from __future__ import annotations

import numpy as np
import pytest

from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.ranking.gate import decide
from memori_core.ranking.world_question import asks_of_the_world, picks_for_the_asker, topic_only

FACTS = ["User walks his dachshund Sigge twice a day.", "User plays trumpet in a brass band on Friday nights.",
         "User is allergic to peanuts.", "User had kidney stones and was told to drink three litres of water a day.",
         "User lives in Leeds.", "The family keeps a few chickens in the back garden."]


@pytest.mark.parametrize("question", [
    "Are dachshunds prone to ear infections?",
    "what's the best way to clean a trumpet valve",
    "does tea count towards water intake",
    "How many pesos is 300 dollars today?",
    "Why do cats love boxes so much?",
    "When is whale season in Hermanus?",
])
def test_a_question_anyone_could_ask_asks_of_the_world(question):
    assert asks_of_the_world(question, FACTS)


@pytest.mark.parametrize("question", [
    "What's a good dog food for a dachshund?",  # a pick the asker's case decides
    "Is Thursday a nice day for a trumpet lesson?",
    "Anything worth seeing in Leeds this weekend?",
    "Does Sigge need a coat in winter?",  # a name the memory knows
    "How do you keep the chickens safe from foxes?",  # "the chickens": the ones a fact holds
    "How do I clean my trumpet valves?",  # the asker's own
    "Can't sleep again, third night running.",  # tells the asker's case, asks nothing
    "Do you think a bakery near Leeds station could work?",  # the assistant's opinion of a plan
    "And are they prone to ear infections?",  # leans on the turn before
])
def test_a_pick_a_known_name_the_askers_own_thing_or_a_statement_does_not(question):
    assert not asks_of_the_world(question, FACTS)


def test_picks_for_the_asker_reads_the_best_way_to_as_a_how_to():
    assert not picks_for_the_asker("What's the best way to descale a kettle?")
    assert picks_for_the_asker("What's the best kettle?")


@pytest.mark.parametrize("fact, earlier, cut", [
    ("User walks his dachshund Sigge twice a day.", [], True),
    ("User is allergic to peanuts.", [], False),  # a care fact bears on a world question about food
    ("Sam is allergic to cats and hates loud parties.", ["Planning a party for Sam."], False),
    ("Tomás plays football on Tuesdays.", ["Tomás keeps asking about snow."], False),
])
def test_the_cut_spares_care_facts_and_facts_about_someone_the_conversation_names(fact, earlier, cut):
    assert topic_only(fact, earlier) is cut


def _decide(cosine, world, implied=None, config=None):
    n = len(cosine)
    cos = np.asarray(cosine, dtype=np.float32)
    return decide(cos, cos.copy(), config or RecallConfig(), np.zeros(n), np.zeros(n), pool_size=20,
                  world=np.asarray(world), implied=None if implied is None else np.asarray(implied))


def test_the_gate_keeps_a_topic_only_fact_of_a_world_question_only_from_gate_world():
    bar = RecallConfig().gate_world
    below, above = bar - 0.05, bar + 0.05
    d = _decide([above, below, 0.35], [True, True, False])
    assert d.keep.tolist() == [True, False, True]  # the third is no topic-only fact: the usual cut
    assert "question about the world" in d.note


def test_the_gate_closes_when_a_world_question_keeps_nothing_past_the_cut():
    d = _decide([0.40, 0.33], [True, True])
    assert not d.opened and not d.keep.any()
    assert d.note.startswith("relevance gate closed")


def test_a_second_signal_spares_a_topic_only_fact_from_the_cut():
    d = _decide([0.40, 0.33], [True, True], implied=[False, True])
    assert d.keep.tolist() == [False, True]


def test_gate_world_none_keeps_the_usual_cut():
    d = _decide([0.40, 0.33], [True, True], config=RecallConfig(gate_world=None))
    assert d.keep.tolist() == [True, True]


def test_gate_world_is_checked_and_off_in_memori_compat():
    with pytest.raises((TypeError, ValueError), match="gate_world"):
        RecallConfig(gate_world="high")
    assert RecallConfig.memori_compat().gate_world is None


def _engine_with_facts(minilm, **config) -> RecallEngine:
    """A real engine over an in-memory Chroma holding :data:`FACTS` for user "u", ``config`` over the defaults."""
    built = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm, config=RecallConfig(**config))
    built.add("u", FACTS)
    return built


@pytest.fixture()
def engine(minilm):
    return _engine_with_facts(minilm)


@pytest.mark.parametrize("question, context", [
    ("Are dachshunds prone to ear infections?", ["Sigge has been scratching his ears a lot."]),
    ("what's the best way to clean a trumpet valve", ["My band has a gig on Friday, what should I wear?"]),
    ("does tea count towards water intake", ["how much water am I supposed to drink in a day"]),
])
def test_engine_gives_a_world_question_none_of_the_facts_that_only_share_its_topic(engine, question, context):
    assert engine.recall(question, "u", context=context) == []


def test_engine_leaves_a_world_question_asked_first_to_the_usual_cut(engine):
    # no conversation to read it apart from (PrefEval's questions: a preference bears on them)
    got = [f.content for f in engine.recall("Are dachshunds prone to ear infections?", "u")]
    assert got == ["User walks his dachshund Sigge twice a day."]


@pytest.mark.parametrize("question, needed", [
    ("What's a good dog food for a dachshund?", "User walks his dachshund Sigge twice a day."),
    ("Is satay sauce made with peanuts?", "User is allergic to peanuts."),
    ("How do I stop my trumpet valves sticking?", "User plays trumpet in a brass band on Friday nights."),
])
def test_engine_still_gives_a_pick_a_care_fact_and_the_askers_own_thing(engine, question, needed):
    got = [f.content for f in engine.recall(question, "u", context=["Long week, finally a free evening."])]
    assert needed in got


def test_engine_without_the_world_cut_gives_the_topic_fact_back(minilm):
    got = [f.content for f in _engine_with_facts(minilm, gate_world=None).recall(
        "Are dachshunds prone to ear infections?", "u", context=["Sigge has been scratching his ears a lot."])]
    assert got == ["User walks his dachshund Sigge twice a day."]
