"""MemoriRetriever driven by real LlamaIndex objects (RetrieverQueryEngine + MockLLM)."""

from __future__ import annotations

import logging

import chromadb
import pytest
from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.llms.mock import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import MetadataMode, NodeWithScore, QueryBundle, TextNode

from _faults import break_store
from _helpers import seeded_fixtures, ungated_engine
from memori_core import RecallConfig, RecallEngine
from memori_llamaindex import MemoriRetriever

ALICE_FACTS = [
    "User is allergic to peanuts.",
    "User prefers spicy food.",
    "User lives in Lisbon.",
]
BOB_FACTS = ["User is allergic to shellfish.", "User lives in Oslo."]


def _fill(engine: RecallEngine) -> RecallEngine:
    engine.add("alice", ALICE_FACTS, created_at="2026-05-01T09:30:00Z")
    engine.add("bob", BOB_FACTS, created_at="2026-06-12T18:05:00Z")
    return engine


# Two users' facts, recalled without a gate: these tests are about the retriever's plumbing (nodes, metadata,
# top k, whose facts), and the hash embedder's cosines mean nothing to the relevance gate. ``filled`` is shared
# by the tests that only read it (checked at teardown); a test that writes, patches or breaks it takes
# ``fresh_filled``.
filled, fresh_filled = seeded_fixtures(_fill, RecallConfig(gate="off"))


def test_is_a_llamaindex_retriever(filled: RecallEngine) -> None:
    assert isinstance(MemoriRetriever(engine=filled, entity_id="alice"), BaseRetriever)


def test_nodes_carry_fact_id_text_score_and_score_parts(filled: RecallEngine) -> None:
    retriever = MemoriRetriever(engine=filled, entity_id="alice", k=5)
    nodes = retriever.retrieve("am I allergic to peanuts?")
    facts = filled.recall("am I allergic to peanuts?", "alice", 5)

    assert [n.node.node_id for n in nodes] == [f.id for f in facts]
    assert nodes[0].node.get_content() == "User is allergic to peanuts."
    for node, fact in zip(nodes, facts):
        assert isinstance(node, NodeWithScore) and isinstance(node.node, TextNode)
        assert node.score == pytest.approx(fact.rank_score)
        meta = node.node.metadata
        assert meta["entity_id"] == "alice"
        assert meta["created_at"] == fact.created_at
        assert meta["cosine"] == pytest.approx(fact.cosine)
        assert meta["lexical"] == pytest.approx(fact.lexical)
        assert meta["rank_score"] == pytest.approx(fact.rank_score)


def test_score_parts_are_hidden_from_the_llm_view_but_created_at_is_shown(filled: RecallEngine) -> None:
    node = MemoriRetriever(engine=filled, entity_id="alice").retrieve("peanuts allergy")[0].node
    llm_view = node.get_content(metadata_mode=MetadataMode.LLM)
    embed_view = node.get_content(metadata_mode=MetadataMode.EMBED)
    assert "User is allergic to peanuts." in llm_view
    assert "created_at: 2026-05-01" in llm_view
    for hidden in ("cosine", "lexical", "rank_score", "entity_id", "times_seen"):
        assert hidden not in llm_view
        assert hidden not in embed_view
    assert node.get_content(metadata_mode=MetadataMode.ALL).count("rank_score") == 1


def test_excluded_llm_metadata_keys_can_be_overridden(filled: RecallEngine) -> None:
    retriever = MemoriRetriever(engine=filled, entity_id="alice", excluded_llm_metadata_keys=[])
    llm_view = retriever.retrieve("peanuts")[0].node.get_content(metadata_mode=MetadataMode.LLM)
    assert "rank_score" in llm_view and "entity_id: alice" in llm_view


def test_k_caps_the_number_of_nodes(fresh_filled: RecallEngine) -> None:
    fresh_filled.add("alice", [f"User owns board game number {i}." for i in range(10)])
    retriever = MemoriRetriever(engine=fresh_filled, entity_id="alice", k=2)
    assert len(retriever.retrieve("board game")) == 2


def test_query_engine_answer_is_built_from_recalled_facts(filled: RecallEngine) -> None:
    retriever = MemoriRetriever(engine=filled, entity_id="alice", k=3)
    query_engine = RetrieverQueryEngine.from_args(retriever, llm=MockLLM())
    response = query_engine.query("Which food allergy do I have? peanuts?")
    answer = str(response)  # MockLLM answers with the prompt it was given
    assert "User is allergic to peanuts." in answer
    assert "shellfish" not in answer and "Oslo" not in answer
    assert "rank_score" not in answer and "cosine" not in answer
    assert [n.node.node_id for n in response.source_nodes][0] == filled.recall("peanuts", "alice")[0].id


async def test_async_query_engine_uses_the_same_recall(filled: RecallEngine) -> None:
    retriever = MemoriRetriever(engine=filled, entity_id="alice", k=3)
    response = await RetrieverQueryEngine.from_args(retriever, llm=MockLLM()).aquery("User lives in Lisbon?")
    assert "User lives in Lisbon." in str(response)
    assert "Oslo" not in str(response)


async def test_aretrieve_calls_engine_arecall(fresh_filled: RecallEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, str, int | None]] = []
    real_arecall = fresh_filled.arecall

    async def spy(query: str, entity_id: str, limit: int | None = None, **kw):  # type: ignore[no-untyped-def]
        calls.append((query, entity_id, limit))
        return await real_arecall(query, entity_id, limit, **kw)

    monkeypatch.setattr(fresh_filled, "arecall", spy)
    nodes = await MemoriRetriever(engine=fresh_filled, entity_id="alice", k=4).aretrieve("spicy food")
    assert calls == [("spicy food", "alice", 4)]
    assert nodes[0].node.get_content() == "User prefers spicy food."


def test_another_users_facts_never_appear(filled: RecallEngine) -> None:
    bob = MemoriRetriever(engine=filled, entity_id="bob", k=10)
    texts = [n.node.get_content() for n in bob.retrieve("allergic to peanuts, lives in Lisbon, spicy food")]
    # No gate and room for 10: every one of Bob's facts comes back, and nothing else.
    assert sorted(texts) == sorted(BOB_FACTS)


def test_with_entity_rebinds_only_the_entity(filled: RecallEngine) -> None:
    base = MemoriRetriever(engine=filled, k=1, strict=True)
    bob = base.with_entity("bob")
    assert (bob.entity_id, bob.k, bob.strict, bob.engine) == ("bob", 1, True, filled)
    assert base.entity_id is None
    assert [n.node.get_content() for n in bob.retrieve("allergic")] == ["User is allergic to shellfish."]


def test_retrieving_without_an_entity_is_a_clear_error(filled: RecallEngine) -> None:
    with pytest.raises(ValueError, match="does not know whose memory.*entity_id=.*with_entity"):
        MemoriRetriever(engine=filled).retrieve("peanuts")


@pytest.mark.parametrize("bad", ["", "   ", " alice", 4.2, True, {"id": "alice"}])
def test_invalid_entity_ids_are_rejected_at_construction(filled: RecallEngine, bad: object) -> None:
    with pytest.raises((TypeError, ValueError), match="entity_id"):
        MemoriRetriever(engine=filled, entity_id=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, True, 2.5, "5"])
def test_invalid_k_is_rejected(filled: RecallEngine, bad: object) -> None:
    with pytest.raises((TypeError, ValueError), match="MemoriRetriever: k must be a non-negative int"):
        MemoriRetriever(engine=filled, entity_id="alice", k=bad)  # type: ignore[arg-type]


def test_k_zero_retrieves_nothing(filled: RecallEngine) -> None:
    assert MemoriRetriever(engine=filled, entity_id="alice", k=0).retrieve("peanuts") == []


def test_similarity_top_k_is_the_deprecated_name_of_k(filled: RecallEngine) -> None:
    with pytest.warns(DeprecationWarning, match=r"similarity_top_k=\.\.\.\) is deprecated: use k="):
        retriever = MemoriRetriever(engine=filled, entity_id="alice", similarity_top_k=2)
    assert retriever.k == 2 and len(retriever.retrieve("allergic to peanuts, lives in Lisbon, spicy food")) == 2
    with pytest.warns(DeprecationWarning, match="similarity_top_k is deprecated: read .k"):
        assert retriever.similarity_top_k == 2
    with pytest.raises(TypeError, match="pass k=... only"):
        MemoriRetriever(engine=filled, entity_id="alice", k=2, similarity_top_k=2)


def test_blank_query_returns_no_nodes(filled: RecallEngine) -> None:
    assert MemoriRetriever(engine=filled, entity_id="alice").retrieve(QueryBundle("   ")) == []


def test_unknown_entity_returns_no_nodes(filled: RecallEngine) -> None:
    assert MemoriRetriever(engine=filled, entity_id="carol").retrieve("peanuts") == []


def test_store_failure_fails_open_with_a_warning(fresh_filled: RecallEngine, caplog: pytest.LogCaptureFixture) -> None:
    retriever = MemoriRetriever(engine=fresh_filled, entity_id="alice")
    break_store(fresh_filled)
    with caplog.at_level(logging.WARNING, logger="memori_llamaindex"):
        assert retriever.retrieve("peanuts") == []
        answer = str(RetrieverQueryEngine.from_args(retriever, llm=MockLLM()).query("peanuts?"))
    assert answer == "Empty Response"  # LlamaIndex's answer when no node was retrieved: no crash
    assert "MemoriRetriever: recall failed for entity 'alice'" in caplog.text


async def test_store_failure_fails_open_on_the_async_path(
    fresh_filled: RecallEngine, caplog: pytest.LogCaptureFixture
) -> None:
    retriever = MemoriRetriever(engine=fresh_filled, entity_id="alice")
    break_store(fresh_filled)
    with caplog.at_level(logging.WARNING, logger="memori_llamaindex"):
        assert await retriever.aretrieve("peanuts") == []
    assert "recall failed" in caplog.text


def test_strict_retriever_raises_on_store_failure(fresh_filled: RecallEngine) -> None:
    retriever = MemoriRetriever(engine=fresh_filled, entity_id="alice", strict=True)
    break_store(fresh_filled)
    with pytest.raises(chromadb.errors.ChromaError):
        retriever.retrieve("peanuts")


def test_the_llm_reads_no_metadata_memori_wrote_itself_only_the_apps(hash_embedder):
    # A tester's chat engine showed "source: llamaindex", "turn: abd0e206..." and "core: True" above each fact.
    engine = ungated_engine(hash_embedder)
    engine.add("alice", ["User takes warfarin daily."], core=True,
               metadata={"source": "llamaindex", "role": "user", "turn": "abd0e206", "thread_id": "t1",
                         "message_id": "m1", "topic": "health"})
    [node] = MemoriRetriever(engine=engine, entity_id="alice").retrieve("warfarin")
    shown = node.node.get_content(MetadataMode.LLM)
    assert "topic: health" in shown and "User takes warfarin daily." in shown  # the app's own key stays
    for key in ("source", "role", "turn", "thread_id", "message_id", "core"):
        assert f"{key}:" not in shown, key
    assert node.node.metadata["core"] is True  # still there for the app to read
