"""``RecallEngine.nearest``: recall's ranking without its gate, and what capture shows an extractor with it."""

from __future__ import annotations

import asyncio

import pytest

from _helpers import HashEmbedder, ungated_engine
from memori_core import ChromaStore, RecallEngine, capture_facts
from memori_core.evaluation.capture import ScriptedFact, ScriptedFactExtractor

JOB = "User is a warehouse supervisor at an Amazon fulfilment centre."
FACTS = [JOB, "User lives in Leeds.", "User plays the cello.", "User has a dog called Rex."]
LET_GO = "So they let me go on Monday. Budget cuts."


@pytest.fixture
def engine() -> RecallEngine:
    engine = RecallEngine(ChromaStore.in_memory(), HashEmbedder())  # the default relevance gate
    engine.add("u", FACTS)
    return engine


def test_nearest_returns_the_ranking_the_gate_closes_on(engine: RecallEngine) -> None:
    # the hashing embedder puts the turn far from every fact: the gate closes, the ranking still exists
    assert engine.recall(LET_GO, "u", 5) == []
    near = engine.nearest(LET_GO, "u", 5)
    assert sorted(f.content for f in near) == sorted(FACTS)
    report = engine.explain(LET_GO, "u", 5)
    assert [f.id for f in near] == [c.id for c in report.candidates][: len(near)]


def test_nearest_is_the_head_of_recall_when_the_gate_is_off() -> None:
    open_engine = ungated_engine()
    open_engine.add("u", FACTS)
    for query in ("where do I live?", "my dog", LET_GO):
        assert [f.id for f in open_engine.nearest(query, "u", 2)] == [f.id for f in open_engine.recall(query, "u", 2)]


def test_nearest_leaves_out_superseded_facts_core_facts_and_other_users(engine: RecallEngine) -> None:
    engine.add("other", ["User lives in Leeds too."])
    [new] = engine.add("u", ["User lives in York."], supersedes=[engine.nearest("Leeds", "u", 1)[0].id])
    engine.add("u", ["User is allergic to peanuts."], core=True)
    near = engine.nearest("where do I live?", "u", 3)
    contents = [f.content for f in near]
    assert len(near) == 3 and "User lives in Leeds." not in contents and "User lives in Leeds too." not in contents
    assert new in [f.id for f in engine.nearest("User lives in York.", "u", 1)]
    # recall appends core facts after its choice; nearest never does
    assert "User is allergic to peanuts." in [f.content for f in engine.recall("dinner after my cello lesson", "u", 1)]
    assert [f.content for f in engine.nearest("cello", "u", 1)] == ["User plays the cello."]


def test_nearest_checks_its_arguments_by_name(engine: RecallEngine) -> None:
    with pytest.raises(ValueError, match="entity_id"):
        engine.nearest("x", "", 3)
    with pytest.raises((TypeError, ValueError), match="limit"):
        engine.nearest("x", "u", "3")  # type: ignore[arg-type]
    assert engine.nearest("   ", "u", 3) == [] and engine.nearest("x", "u", 0) == []
    assert engine.nearest("x", "nobody", 3) == []


def test_nearest_embeds_only_the_query_never_the_gates_prototypes() -> None:
    # a question with no first person is measured against the gate's general-question shapes, whose sentences a
    # recall embeds once per engine; nearest has no gate, so it embeds nothing but the query
    embedder = HashEmbedder()
    engine = RecallEngine(ChromaStore.in_memory(), embedder)
    engine.add("u", FACTS)
    before = embedder.calls
    near = engine.nearest("What is the capital of Peru?", "u", 3)
    assert len(near) == 3 and embedder.calls == before + 1
    engine.recall("What is the capital of Peru?", "u", 3)
    assert embedder.calls > before + 2  # the query again, and the prototypes


def test_anearest_answers_as_nearest(engine: RecallEngine) -> None:
    assert [f.id for f in asyncio.run(engine.anearest(LET_GO, "u", 3))] == [f.id for f in engine.nearest(LET_GO, "u", 3)]


def test_capture_shows_an_llm_extractor_the_fact_a_change_ends_even_when_the_gate_drops_it(engine: RecallEngine) -> None:
    # the turn holds no job word, so only the ranking (not the slot rules) can show the model the old job
    extractor = ScriptedFactExtractor([[ScriptedFact("User is unemployed and looking for a job.", (JOB,))]])
    capture_facts(engine, "u", [("user", LET_GO)], extractor)
    assert JOB in extractor.prompts[0]
    valid = {f.content for f in engine.list("u")}
    assert "User is unemployed and looking for a job." in valid and JOB not in valid
    [old] = [f for f in engine.list("u", include_invalid=True) if f.content == JOB]
    assert engine.history("u", old.id)[0].content == JOB  # superseded, not deleted
