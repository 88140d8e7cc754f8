"""MemoriHybridPostprocessor on plain nodes and behind a real VectorStoreIndex query engine."""

from __future__ import annotations

from typing import Any

import pytest
from llama_index.core import VectorStoreIndex
from llama_index.core.embeddings import MockEmbedding
from llama_index.core.llms.mock import MockLLM
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import ImageNode, MetadataMode, NodeWithScore, QueryBundle, TextNode

from _helpers import USER_FACTS, HashEmbedder
from _llamaindex_fakes import HashLlamaEmbedding
from memori_core import RecallConfig, RecallEngine
from memori_core.ranking.fusion import fusion_weights
from memori_llamaindex import MemoriHybridPostprocessor

EXAMPLE = [("Lives in New York City.", 0.9), ("Favorite color is blue.", 0.8), ("Likes pizza with extra cheese.", 0.7)]


def scored(pairs: list[tuple[str, float | None]]) -> list[NodeWithScore]:
    return [NodeWithScore(node=TextNode(text=t, id_=f"n{i}"), score=s) for i, (t, s) in enumerate(pairs)]


def texts(nodes: list[NodeWithScore]) -> list[str]:
    return [n.node.get_content() for n in nodes]


def test_is_a_llamaindex_node_postprocessor() -> None:
    assert isinstance(MemoriHybridPostprocessor(), BaseNodePostprocessor)


def test_issue_example_blue_first_with_score_086() -> None:
    # The example's weights are memori's (short query: 0.7 cosine + 0.3 lexical), kept by memori_compat().
    reranker = MemoriHybridPostprocessor(k=5, config=RecallConfig.memori_compat())
    out = reranker.postprocess_nodes(scored(EXAMPLE), query_str="blue")
    assert texts(out) == ["Favorite color is blue.", "Lives in New York City.", "Likes pizza with extra cheese."]
    assert out[0].score == pytest.approx(0.7 * 0.8 + 0.3 * 1.0, abs=1e-12)
    assert out[0].score == pytest.approx(0.86, abs=1e-12)
    assert [n.score for n in out[1:]] == pytest.approx([0.7 * 0.9, 0.7 * 0.7])


def test_issue_example_with_the_default_config() -> None:
    cfg = RecallConfig()
    w_cos, w_lex = fusion_weights(1, cfg)
    out = MemoriHybridPostprocessor(k=5, config=cfg).postprocess_nodes(scored(EXAMPLE), query_str="blue")
    assert texts(out)[0] == "Favorite color is blue."
    assert out[0].score == pytest.approx(w_cos * 0.8 + w_lex * 1.0)


def test_incoming_nodes_are_not_mutated_and_keep_their_identity() -> None:
    nodes = scored(EXAMPLE)
    out = MemoriHybridPostprocessor().postprocess_nodes(nodes, query_str="blue")
    assert [n.score for n in nodes] == [0.9, 0.8, 0.7]
    assert out[0].node is nodes[1].node
    assert out[0].node.metadata == {}


def test_k_is_respected() -> None:
    nodes = scored([(f"blue item {i}", 0.9 - i * 0.01) for i in range(12)])
    out = MemoriHybridPostprocessor(k=3).postprocess_nodes(nodes, query_str="blue item")
    assert len(out) == 3
    assert texts(out) == ["blue item 0", "blue item 1", "blue item 2"]


def test_nodes_without_a_score_rank_by_their_words_only() -> None:
    nodes = scored([("Lives in New York City.", 0.2), ("Favorite color is blue.", None)])
    cfg = RecallConfig(gate="off")
    out = MemoriHybridPostprocessor(config=cfg).postprocess_nodes(nodes, query_str="blue")
    w_cos, w_lex = fusion_weights(1, cfg)
    assert texts(out) == ["Favorite color is blue.", "Lives in New York City."]
    assert out[0].score == pytest.approx(w_lex * 1.0)
    assert out[1].score == pytest.approx(w_cos * 0.2)


def test_nodes_without_a_score_or_words_in_common_are_dropped_by_the_default_gate() -> None:
    nodes = scored([("Favorite color is blue.", None), ("Likes pizza.", 0.9)])
    assert texts(MemoriHybridPostprocessor().postprocess_nodes(nodes, query_str="pizza")) == ["Likes pizza."]


@pytest.mark.parametrize("config", [
    RecallConfig(gate="threshold", relevance_threshold=0.1),
    RecallConfig(),  # the relevance gate: 0.9 opens it confidently, 0.05 is far below gate_keep and the band
], ids=["threshold-gate", "relevance-gate"])
def test_gate_filters_weak_nodes(config: RecallConfig) -> None:
    nodes = scored([("Likes pizza.", 0.9), ("Owns a bicycle.", 0.05)])
    out = MemoriHybridPostprocessor(config=config).postprocess_nodes(nodes, query_str="what do I like to eat")
    assert texts(out) == ["Likes pizza."]
    no_threshold = MemoriHybridPostprocessor(config=config.replace(gate="off"))
    assert len(no_threshold.postprocess_nodes(nodes, query_str="what do I like to eat")) == 2


def textless() -> list[NodeWithScore]:
    """High-scored nodes with no text: an empty ``TextNode``, an ``ImageNode`` without a caption."""
    return [NodeWithScore(node=TextNode(text="", id_="empty"), score=0.95),
            NodeWithScore(node=ImageNode(image_url="https://example.com/pizza.png", id_="image"), score=0.9)]


@pytest.mark.parametrize("config", [RecallConfig(gate="threshold", relevance_threshold=0.1), RecallConfig(gate="off")],
                         ids=["threshold-gate", "no-gate"])
def test_nodes_with_no_text_are_dropped_not_ranked_above_the_text_the_query_is_about(config: RecallConfig) -> None:
    text = scored([("Likes pizza with extra cheese.", None), ("Lives in Rome.", 0.3)])
    out = MemoriHybridPostprocessor(k=3, config=config).postprocess_nodes(textless() + text, query_str="pizza")
    assert texts(out) == ["Likes pizza with extra cheese.", "Lives in Rome."]
    alone = MemoriHybridPostprocessor(k=3, config=config).postprocess_nodes(text, query_str="pizza")
    assert [n.score for n in out] == [n.score for n in alone]  # ranked as if they had not been there


def test_a_textless_nodes_score_does_not_open_the_relevance_gate_for_text_that_cannot_pass_alone() -> None:
    text = scored([("Likes pizza with extra cheese.", None), ("Lives in Rome.", 0.3)])
    assert MemoriHybridPostprocessor(k=3).postprocess_nodes(text, query_str="pizza") == []
    assert MemoriHybridPostprocessor(k=3).postprocess_nodes(textless() + text, query_str="pizza") == []


def test_an_image_node_with_a_caption_is_ranked_by_its_caption() -> None:
    image = NodeWithScore(node=ImageNode(text="A pizza with extra cheese.", image_url="https://example.com/p.png",
                                         id_="image"), score=0.5)
    out = MemoriHybridPostprocessor(k=3, config=RecallConfig(gate="off")).postprocess_nodes(
        [image, *scored([("Lives in Rome.", 0.6)])], query_str="pizza")
    assert [n.node.node_id for n in out] == ["image", "n0"]


@pytest.mark.parametrize("bundle", [None, QueryBundle(""), QueryBundle("   ")])
def test_without_a_query_nodes_are_ordered_by_score_and_not_rescored(bundle: QueryBundle | None) -> None:
    nodes = scored([("a", 0.2), ("b", None), ("c", 0.05), ("d", 0.9)])
    out = MemoriHybridPostprocessor(k=3).postprocess_nodes(nodes, query_bundle=bundle)
    assert texts(out) == ["d", "a", "c"]  # below the 0.1 threshold is kept: the scores are not ours
    assert [n.score for n in out] == [0.9, 0.2, 0.05]
    assert out[0] is nodes[3]


def test_pool_sizing_follows_the_engine() -> None:
    pairs = [(f"note number {i}", 0.5 - 0.001 * i) for i in range(59)] + [("favorite color blue", 0.441)]
    dense = RecallConfig(pool="dense", gate="off")

    def top(cfg: RecallConfig) -> list[str]:
        return texts(MemoriHybridPostprocessor(k=1, config=cfg).postprocess_nodes(scored(pairs), query_str="blue"))

    assert top(dense) == ["note number 0"]  # outside the 50-node dense pool: never scored
    assert top(dense.replace(candidate_floor=60)) == ["favorite color blue"]
    assert top(dense.replace(pool="union")) == ["favorite color blue"]  # joins through the lexical half


def test_bm25_reads_node_text_not_metadata() -> None:
    nodes = [
        NodeWithScore(node=TextNode(text="Owns a red car.", metadata={"topic": "blue"}), score=0.5),
        NodeWithScore(node=TextNode(text="Painted the fence blue."), score=0.5),
    ]
    out = MemoriHybridPostprocessor().postprocess_nodes(nodes, query_str="blue")
    assert texts(out)[0] == "Painted the fence blue."


def test_attach_scores_adds_hidden_metadata_on_copies() -> None:
    nodes = scored(EXAMPLE)
    out = MemoriHybridPostprocessor(attach_scores=True).postprocess_nodes(nodes, query_str="blue")
    meta = out[0].node.metadata
    assert meta["cosine"] == 0.8 and meta["lexical"] == 1.0 and meta["rank_score"] == out[0].score
    assert "rank_score" not in out[0].node.get_content(metadata_mode=MetadataMode.LLM)
    assert "cosine" not in out[0].node.get_content(metadata_mode=MetadataMode.EMBED)
    assert nodes[1].node.metadata == {}  # the retriever's node is untouched


async def test_async_postprocess_gives_the_same_result() -> None:
    reranker = MemoriHybridPostprocessor(config=RecallConfig.memori_compat())
    out = await reranker.apostprocess_nodes(scored(EXAMPLE), query_str="blue")
    assert texts(out)[0] == "Favorite color is blue." and out[0].score == pytest.approx(0.86)


def test_is_serialisable_like_other_llamaindex_components() -> None:
    reranker = MemoriHybridPostprocessor(k=3, config=RecallConfig.memori_compat(lex_weight=0.2))
    again = MemoriHybridPostprocessor.from_json(reranker.to_json())
    assert again.k == 3 and again.config == reranker.config
    assert reranker.to_dict()["class_name"] == "MemoriHybridPostprocessor"


def test_top_n_is_the_deprecated_name_of_k() -> None:
    with pytest.warns(DeprecationWarning, match=r"top_n=\.\.\.\) is deprecated: use k="):
        reranker = MemoriHybridPostprocessor(top_n=1)
    assert reranker.k == 1 and len(reranker.postprocess_nodes(scored(EXAMPLE), query_str="blue")) == 1
    with pytest.warns(DeprecationWarning, match="top_n is deprecated: read .k"):
        assert reranker.top_n == 1
    with pytest.warns(DeprecationWarning):  # a component serialised before the rename still loads
        assert MemoriHybridPostprocessor.from_dict({"top_n": 2, "class_name": "MemoriHybridPostprocessor"}).k == 2
    with pytest.raises(TypeError, match="pass k=... only"):
        MemoriHybridPostprocessor(k=1, top_n=1)


def test_invalid_fields_are_rejected() -> None:
    with pytest.raises(ValueError, match="k must be a non-negative int"):
        MemoriHybridPostprocessor(k=-1)
    with pytest.raises(TypeError, match="k must be a non-negative int"):
        MemoriHybridPostprocessor(k=2.5)
    with pytest.raises(ValueError):
        MemoriHybridPostprocessor(config={"tokenizer": "klingon"})


def test_query_engine_over_vector_store_index_sends_the_reranked_node() -> None:
    # MockEmbedding gives every node the same similarity: the vector retriever cannot
    # tell them apart, the postprocessor's BM25 + fusion picks the one about the question.
    nodes = [TextNode(text=t) for t, _ in EXAMPLE] + [TextNode(text="Works as a nurse in Boston.")]
    index = VectorStoreIndex(nodes=nodes, embed_model=MockEmbedding(embed_dim=8))
    query_engine = index.as_query_engine(
        llm=MockLLM(), similarity_top_k=4, node_postprocessors=[MemoriHybridPostprocessor(k=1)]
    )
    response = query_engine.query("blue")
    answer = str(response)  # MockLLM answers with its prompt
    assert "Favorite color is blue." in answer
    assert "New York" not in answer and "pizza" not in answer and "nurse" not in answer
    assert len(response.source_nodes) == 1


async def test_async_query_engine_over_vector_store_index() -> None:
    nodes = [TextNode(text=t) for t, _ in EXAMPLE]
    index = VectorStoreIndex(nodes=nodes, embed_model=MockEmbedding(embed_dim=8))
    query_engine = index.as_query_engine(
        llm=MockLLM(), similarity_top_k=3, node_postprocessors=[MemoriHybridPostprocessor(k=1)]
    )
    response = await query_engine.aquery("pizza with cheese")
    assert "Likes pizza with extra cheese." in str(response) and "blue" not in str(response)


def test_behind_a_vector_index_it_reproduces_the_engines_ranking(engine: RecallEngine, hash_embedder: Any) -> None:
    facts = list(USER_FACTS)
    engine.add("u", facts)
    index = VectorStoreIndex(nodes=[TextNode(text=t) for t in facts], embed_model=HashLlamaEmbedding(hash_embedder))
    retriever = index.as_retriever(similarity_top_k=len(facts))
    reranker = MemoriHybridPostprocessor(k=3, config=engine.config)
    for query in ("what food allergy do I have", "tea", "sunday sports"):
        out = reranker.postprocess_nodes(retriever.retrieve(query), query_str=query)
        expected = engine.recall(query, "u", limit=3)
        assert texts(out) == [f.content for f in expected], query
        assert [n.score for n in out] == pytest.approx([f.rank_score for f in expected], abs=1e-5)


@pytest.mark.parametrize("strict", [False, True])
def test_plain_strings_instead_of_nodes_raise_naming_node_with_score_strict_or_not(strict: bool, caplog) -> None:
    # A tester's postprocess_nodes(["Lives in Lisbon.", ...]) logged "passing the nodes on by their own score",
    # then raised AttributeError: a caller's mistake is raised at once, with no promise of a fallback.
    from memori_core import ChromaStore
    from memori_llamaindex import MemoriMemoryPostprocessor

    with pytest.raises(TypeError, match=r"^MemoriHybridPostprocessor takes a list of NodeWithScore \(what a "
                                        r"retriever returns\), got str at #1$"):
        MemoriHybridPostprocessor(k=2, strict=strict).postprocess_nodes(
            [*scored([("Likes blue.", 0.5)]), "Lives in Lisbon."], query_str="blue")
    assert "passing the nodes on" not in caplog.text
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder())
    with pytest.raises(TypeError, match=r"^MemoriMemoryPostprocessor takes a list of NodeWithScore .* got str at #0"):
        MemoriMemoryPostprocessor(engine=engine, entity_id="alice", strict=strict).postprocess_nodes(
            ["Lives in Lisbon."], query_str="where do I live?")
