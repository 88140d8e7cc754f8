"""Affinity ranks alike everywhere (issue 24; docs/ranking.md item 40): the engine's recall and explain,
memori_core.rerank over the same facts, and the LlamaIndex postprocessors behind a real query engine. The
hashing embedder checks the arithmetic in the fast tier, the real MiniLM the ranking a user would see."""

from __future__ import annotations

from typing import Any

import pytest
from llama_index.core import VectorStoreIndex
from llama_index.core.llms.mock import MockLLM
from llama_index.core.schema import TextNode

from _helpers import HashEmbedder
from _llamaindex_fakes import HashLlamaEmbedding, _example_module
from memori_core import ChromaStore, RecallConfig, RecallEngine, rerank
from memori_llamaindex import MemoriHybridPostprocessor, MemoriMemoryPostprocessor
from test_affinity import FACTS, FOOD_QUESTIONS

ON = RecallConfig(gate="off", affinity_weight=1.0)
PERSONAL = [*FOOD_QUESTIONS, "Should I take the car to work tomorrow?"]
WORLD = "What is the capital of Australia?"


def _engine(embedder: Any, config: RecallConfig = ON) -> RecallEngine:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=embedder, config=config)
    engine.add("u", FACTS)
    return engine


def _rerank_as_the_engine(engine: RecallEngine, question: str, limit: int = 5, **kwargs: Any) -> tuple[list, list]:
    """rerank over every fact with the engine's cosines (the candidates are the pool the engine gathers)."""
    report = engine.explain(question, "u", len(FACTS))
    contents = [c.content for c in report.candidates]
    ranked = rerank(question, contents, [c.cosine for c in report.candidates], limit, engine.config, **kwargs)
    return [(contents[r.index], r) for r in ranked], report.candidates


def _assert_same_ranking_and_affinity(engine: RecallEngine, embedder: Any, question: str) -> list[float]:
    ranked, candidates = _rerank_as_the_engine(engine, question, embedder=embedder)
    recalled = engine.recall(question, "u", 5)
    assert [text for text, _ in ranked] == [f.content for f in recalled]
    engine_affinity = {c.content: c.affinity for c in candidates}
    for (text, r), fact in zip(ranked, recalled):
        assert r.affinity == pytest.approx(engine_affinity[text], abs=1e-6)
        assert r.rank_score == pytest.approx(fact.rank_score, abs=1e-6)
    return [r.affinity for _, r in ranked]


@pytest.mark.parametrize("question", PERSONAL)
def test_rerank_gives_the_engines_order_and_affin_parts_with_the_hashing_embedder(hash_embedder, question):
    affinity = _assert_same_ranking_and_affinity(_engine(hash_embedder), hash_embedder, question)
    assert any(a > 0 for a in affinity)  # affinity was applied, not merely absent on both sides


@pytest.mark.parametrize("question", PERSONAL)
def test_rerank_gives_the_engines_order_and_affin_parts_with_minilm(minilm, question):
    affinity = _assert_same_ranking_and_affinity(_engine(minilm), minilm, question)
    assert any(a > 0 for a in affinity)


def test_rerank_with_affinity_lifts_the_diabetes_into_the_five_as_the_engine_does(minilm):
    engine = _engine(minilm)
    question = "What should I have for lunch today?"
    with_affinity, _ = _rerank_as_the_engine(engine, question, embedder=minilm)
    without, _ = _rerank_as_the_engine(_engine(minilm, RecallConfig(gate="off")), question)
    assert "User has type 2 diabetes." in [text for text, _ in with_affinity]
    assert "User has type 2 diabetes." not in [text for text, _ in without]


def test_a_question_about_the_world_gets_no_affinity_in_rerank(hash_embedder):
    ranked, _ = _rerank_as_the_engine(_engine(hash_embedder), WORLD, embedder=hash_embedder)
    assert all(r.affinity == 0.0 for _, r in ranked)


def test_off_by_default_rerank_needs_no_embedder_and_ranks_as_before(hash_embedder):
    engine = _engine(hash_embedder, RecallConfig(gate="off"))
    question = FOOD_QUESTIONS[0]
    plain, _ = _rerank_as_the_engine(engine, question)
    given, _ = _rerank_as_the_engine(engine, question, embedder=hash_embedder)
    assert plain == given
    assert all(r.affinity == 0.0 for _, r in plain)
    assert [t for t, _ in plain] == [f.content for f in engine.recall(question, "u", 5)]
    calls = hash_embedder.calls
    rerank(question, FACTS, [0.1] * len(FACTS), 5, engine.config, embedder=hash_embedder)
    assert hash_embedder.calls == calls  # with affinity off rerank embeds nothing


def test_rerank_with_affinity_on_and_no_embedder_is_refused_naming_it():
    with pytest.raises(ValueError, match="embedder is required when config.affinity_weight > 0"):
        rerank("What should I eat?", ["User is vegan."], [0.3], config=RecallConfig(affinity_weight=0.5))


def test_the_hybrid_postprocessor_with_affinity_on_and_no_embedder_is_refused_naming_it():
    with pytest.raises(ValueError, match="embedder is required"):
        MemoriHybridPostprocessor(k=5, config=ON)


def _index(embed_model: Any) -> VectorStoreIndex:
    return VectorStoreIndex([TextNode(text=t, id_=f"f{i}") for i, t in enumerate(FACTS)], embed_model=embed_model)


def _postprocessed(index: VectorStoreIndex, postprocessor: Any, question: str) -> list[str]:
    query_engine = index.as_query_engine(llm=MockLLM(), similarity_top_k=len(FACTS),
                                         node_postprocessors=[postprocessor])
    return [n.node.get_content() for n in query_engine.query(question).source_nodes]


@pytest.mark.parametrize("question", PERSONAL[:2])
def test_the_hybrid_postprocessor_ranks_a_real_query_as_the_engine_with_affinity(hash_embedder, question):
    engine = _engine(hash_embedder)
    reranker = MemoriHybridPostprocessor(k=5, config=ON, embedder=hash_embedder)
    got = _postprocessed(_index(HashLlamaEmbedding(hash_embedder)), reranker, question)
    assert got == [f.content for f in engine.recall(question, "u", 5)]
    off = MemoriHybridPostprocessor(k=5, config=RecallConfig(gate="off"))
    assert _postprocessed(_index(HashLlamaEmbedding(hash_embedder)), off, question) == [
        f.content for f in _engine(hash_embedder, RecallConfig(gate="off")).recall(question, "u", 5)]


def test_the_hybrid_postprocessor_with_minilm_brings_the_diabetes_as_the_engine(minilm):
    question = "What should I have for lunch today?"
    embed_model = _example_module("_minilm_embedding").MiniLMEmbedding(minilm)
    got = _postprocessed(_index(embed_model), MemoriHybridPostprocessor(k=5, config=ON, embedder=embed_model),
                         question)
    assert got == [f.content for f in _engine(minilm).recall(question, "u", 5)]
    assert "User has type 2 diabetes." in got


def test_the_memory_postprocessor_adds_the_engines_affinity_ranked_facts_to_a_real_query(minilm):
    question = "What should I have for lunch today?"
    engine = _engine(minilm)
    documents = VectorStoreIndex([TextNode(text="The canteen serves soup and sandwiches.")],
                                 embed_model=_example_module("_minilm_embedding").MiniLMEmbedding(minilm))
    query_engine = documents.as_query_engine(llm=MockLLM(), similarity_top_k=1, node_postprocessors=[
        MemoriMemoryPostprocessor(engine=engine, entity_id="u", k=5)])
    memory = [n.node.get_content() for n in query_engine.query(question).source_nodes
              if n.node.metadata.get("memori_memory")]
    assert memory == [f.content for f in engine.recall(question, "u", 5)]
    assert "User has type 2 diabetes." in memory
