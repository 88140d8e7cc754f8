"""User memory in LlamaIndex query engines over documents (MemoriMemoryPostprocessor) and a memory-only query engine
that still answers when nothing passes the gate (MemoriQueryEngine): real VectorStoreIndex, real synthesizers,
LlamaIndex's MockLLM (subclassed only to keep the prompts it is sent), real in-memory Chroma, the hashing embedder."""

from __future__ import annotations

import logging
from typing import Any

import chromadb
import pytest
from llama_index.core import VectorStoreIndex
from llama_index.core.base.llms.types import CompletionResponse, CompletionResponseGen
from llama_index.core.bridge.pydantic import Field
from llama_index.core.llms.mock import MockLLM
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import MetadataMode, NodeWithScore, QueryBundle, TextNode

from _faults import break_store
from _helpers import HashEmbedder, ungated_engine
from _llamaindex_fakes import HashLlamaEmbedding
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_llamaindex import MemoriMemoryPostprocessor, MemoriQueryEngine, MemoriRetriever
from memori_llamaindex.memory_nodes import MEMORY_KEY, MEMORY_KIND

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning:inspect")]


class RecordingMockLLM(MockLLM):
    """LlamaIndex's MockLLM (it answers with the prompt it got), keeping every prompt it is sent."""

    prompts: list[str] = Field(default_factory=list)

    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        self.prompts.append(prompt)
        return super().complete(prompt, formatted=formatted, **kwargs)

    def stream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponseGen:
        self.prompts.append(prompt)
        return super().stream_complete(prompt, formatted=formatted, **kwargs)


MENU = [
    "The pad thai is made with rice noodles, tamarind and crushed peanuts.",
    "The green curry has coconut milk, tofu, basil and bamboo shoots.",
    "The restaurant opens at noon and closes at ten in the evening.",
    "The mango sticky rice is served warm with coconut cream.",
]
ALICE = ["User is allergic to peanuts.", "User lives in Lisbon.", "User plays the cello."]
LOOKALIKES = {  # ids a careless filter could confuse with "user-1"
    "user-10": ["User is allergic to shellfish.", "User is allergic to peanuts and sesame, says user ten."],
    "User-1": ["User is allergic to kiwi.", "User is allergic to peanuts, says the capitalised user."],
}
PERSONAL = "Which dishes on the menu are safe for me, given that I am allergic to peanuts?"
OFF_TOPIC = "When does the restaurant open and close in the evening?"


@pytest.fixture
def engine(hash_embedder: HashEmbedder) -> RecallEngine:
    """Default config (the relevance gate on): user-1's facts and two lookalike users' facts, in real Chroma."""
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder, config=RecallConfig())
    engine.add("user-1", ALICE, created_at="2026-05-01T09:30:00Z")
    for entity, facts in LOOKALIKES.items():
        engine.add(entity, facts)
    return engine


@pytest.fixture
def index(hash_embedder: HashEmbedder) -> VectorStoreIndex:
    return VectorStoreIndex([TextNode(text=t) for t in MENU], embed_model=HashLlamaEmbedding(hash_embedder))


def memory_nodes(response: Any) -> list[NodeWithScore]:
    return [n for n in response.source_nodes if n.node.metadata.get(MEMORY_KEY) is True]


def documents_engine(index: VectorStoreIndex, llm: MockLLM, *postprocessors: BaseNodePostprocessor,
                     **options: Any) -> Any:
    """The index's query engine (two documents per question) with ``postprocessors``; ``options``: the query
    engine's own (``response_mode=``, ``streaming=``)."""
    return index.as_query_engine(llm=llm, similarity_top_k=2, node_postprocessors=list(postprocessors), **options)


def user_memory(engine: RecallEngine, **options: Any) -> MemoriMemoryPostprocessor:
    """user-1's memory beside the documents."""
    return MemoriMemoryPostprocessor(engine=engine, entity_id="user-1", **options)


def ask_with_memory(engine: RecallEngine, index: VectorStoreIndex, question: str,
                    **options: Any) -> tuple[Any, RecordingMockLLM]:
    """``question`` to the documents' query engine with user-1's memory beside them (``options``: as for
    :func:`documents_engine`): the response, and the LLM that kept the prompts it was sent."""
    llm = RecordingMockLLM()
    return documents_engine(index, llm, user_memory(engine), **options).query(question), llm


def memory_only_engine(engine: RecallEngine, llm: MockLLM, **options: Any) -> MemoriQueryEngine:
    """A memory-only query engine over user-1's facts."""
    return MemoriQueryEngine.from_args(MemoriRetriever(engine=engine, entity_id="user-1"), llm=llm, **options)


# -- documents and memory ------------------------------------------------------------------------------------------


def test_personal_question_puts_the_users_fact_into_the_prompt_beside_the_documents(
    engine: RecallEngine, index: VectorStoreIndex
) -> None:
    response, llm = ask_with_memory(engine, index, PERSONAL)

    assert len(llm.prompts) == 1
    prompt = llm.prompts[0]
    assert "User is allergic to peanuts." in prompt
    assert f"kind: {MEMORY_KIND}" in prompt  # the LLM is told this text is about the user, not a document
    assert "crushed peanuts" in prompt  # the documents are still there
    assert PERSONAL in prompt
    assert "rank_score" not in prompt and MEMORY_KEY not in prompt and "entity_id" not in prompt
    assert "Lisbon" not in prompt and "cello" not in prompt  # facts the gate judged irrelevant stay out
    assert [n.node.get_content() for n in memory_nodes(response)] == ["User is allergic to peanuts."]
    assert memory_nodes(response)[0].node.metadata["entity_id"] == "user-1"
    documents = [n for n in response.source_nodes if MEMORY_KEY not in n.node.metadata]
    assert len(documents) == 2  # memory added, no document removed


def test_memory_node_comes_first_so_a_refining_synthesizer_sees_it_in_its_first_call(
    engine: RecallEngine, index: VectorStoreIndex
) -> None:
    response, llm = ask_with_memory(engine, index, PERSONAL, response_mode="refine")
    assert response.source_nodes[0].node.metadata[MEMORY_KEY] is True
    assert len(llm.prompts) == 3  # refine: one call per node
    assert "User is allergic to peanuts." in llm.prompts[0]


def test_off_topic_question_is_answered_from_the_documents_with_no_memory(
    engine: RecallEngine, index: VectorStoreIndex
) -> None:
    response, llm = ask_with_memory(engine, index, OFF_TOPIC)

    assert len(llm.prompts) == 1  # the LLM was asked: memory abstaining never empties the answer
    assert str(response) != "Empty Response"
    assert "opens at noon" in llm.prompts[0]
    assert "User " not in llm.prompts[0] and MEMORY_KIND not in llm.prompts[0]
    assert memory_nodes(response) == []


async def test_async_query_recalls_with_arecall_and_gets_the_same_prompt(
    engine: RecallEngine, index: VectorStoreIndex
) -> None:
    sync_llm, async_llm = RecordingMockLLM(), RecordingMockLLM()
    memory = user_memory(engine)
    documents_engine(index, sync_llm, memory).query(PERSONAL)
    response = await documents_engine(index, async_llm, memory).aquery(PERSONAL)
    assert async_llm.prompts == sync_llm.prompts
    assert [n.node.get_content() for n in memory_nodes(response)] == ["User is allergic to peanuts."]


def test_streaming_query_engine_carries_the_fact(engine: RecallEngine, index: VectorStoreIndex) -> None:
    llm = RecordingMockLLM()
    query_engine = documents_engine(index, llm, user_memory(engine), streaming=True)
    text = query_engine.query(PERSONAL).get_response().response
    assert "User is allergic to peanuts." in llm.prompts[0] and "User is allergic to peanuts." in (text or "")


def test_fact_already_among_the_nodes_is_not_added_twice(engine: RecallEngine) -> None:
    memory = user_memory(engine)
    upstream = MemoriRetriever(engine=engine, entity_id="user-1").retrieve(PERSONAL)
    assert [n.node.get_content() for n in upstream] == ["User is allergic to peanuts."]
    out = memory.postprocess_nodes(upstream, query_str=PERSONAL)
    assert [n.node.node_id for n in out] == [upstream[0].node.node_id]


def test_k_caps_the_facts_added(hash_embedder: HashEmbedder) -> None:
    engine = ungated_engine(hash_embedder)
    engine.add("user-1", ALICE)
    doc = NodeWithScore(node=TextNode(text="A document."), score=0.5)
    two = user_memory(engine, k=2).postprocess_nodes([doc], query_str="cello")
    assert len(two) == 3 and two[-1] is doc and two[0].node.get_content() == "User plays the cello."
    zero = user_memory(engine, k=0).postprocess_nodes([doc], query_str="cello")
    assert zero == [doc]


def test_memory_node_text_is_the_fact_and_metadata_marks_it(engine: RecallEngine) -> None:
    (node,) = user_memory(engine).postprocess_nodes([], query_str=PERSONAL)
    fact = engine.recall(PERSONAL, "user-1")[0]
    assert node.node.node_id == fact.id and node.score == pytest.approx(fact.rank_score)
    assert node.node.get_content(metadata_mode=MetadataMode.NONE) == "User is allergic to peanuts."
    llm_view = node.node.get_content(metadata_mode=MetadataMode.LLM)
    assert "created_at: 2026-05-01" in llm_view and f"kind: {MEMORY_KIND}" in llm_view
    embed_view = node.node.get_content(metadata_mode=MetadataMode.EMBED)
    assert "kind" not in embed_view and MEMORY_KEY not in embed_view



def test_a_facts_own_kind_or_memory_flag_never_replaces_the_memory_label(index: VectorStoreIndex) -> None:
    engine = ungated_engine()
    engine.add("user-1", "User is allergic to peanuts.", created_at="2026-05-01T09:30:00Z",
               metadata={"kind": "health", "memori_memory": False})
    llm = RecordingMockLLM()
    engine_q = index.as_query_engine(llm=llm, node_postprocessors=[user_memory(engine)])
    (node,) = memory_nodes(engine_q.query(PERSONAL))
    llm_view = node.node.get_content(metadata_mode=MetadataMode.LLM)
    assert llm_view.startswith(f"kind: {MEMORY_KIND}\n")  # the label comes first, as for any fact
    assert "fact_kind: health" in llm_view and "kind: health" not in llm_view.replace("fact_kind: health", "")
    assert node.node.metadata[MEMORY_KEY] is True
    assert f"kind: {MEMORY_KIND}" in llm.prompts[0] and "fact_kind: health" in llm.prompts[0]


# -- isolation -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("question", [PERSONAL, "Am I allergic to shellfish or kiwi or sesame?"])
def test_lookalike_users_never_see_each_others_facts(
    engine: RecallEngine, index: VectorStoreIndex, question: str
) -> None:
    response, llm = ask_with_memory(engine, index, question)
    prompt = llm.prompts[0]
    for facts in LOOKALIKES.values():
        assert not any(f in prompt for f in facts)
    assert {n.node.metadata["entity_id"] for n in memory_nodes(response)} <= {"user-1"}


def test_with_entity_switches_the_user_and_keeps_the_settings(engine: RecallEngine, index: VectorStoreIndex) -> None:
    memory = user_memory(engine, k=1, strict=True)
    other = memory.with_entity("user-10")
    assert (other.entity_id, other.k, other.strict, memory.entity_id) == ("user-10", 1, True, "user-1")
    llm = RecordingMockLLM()
    response = documents_engine(index, llm, other).query("Is shellfish allergic safe? I am allergic to shellfish.")
    assert [n.node.get_content() for n in memory_nodes(response)] == ["User is allergic to shellfish."]
    assert "User is allergic to peanuts." not in llm.prompts[0]


# -- bad input and failures ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"engine": object(), "entity_id": "user-1"}, TypeError, "engine"),
        ({"entity_id": None}, ValueError, "whose memory"),
        ({"entity_id": "  "}, ValueError, "entity_id"),
        ({"entity_id": 7.5}, TypeError, "entity_id"),
        ({"entity_id": "user-1 "}, ValueError, "entity_id 'user-1 ' begins or ends with whitespace"),
        ({"entity_id": "user-1", "k": -1}, ValueError, "k must"),
        ({"entity_id": "user-1", "k": "3"}, TypeError, "k must"),
        ({"entity_id": "user-1", "k": True}, TypeError, "k must"),
    ],
)
def test_bad_arguments_are_rejected_with_a_clear_error(
    engine: RecallEngine, kwargs: dict[str, Any], error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words):
        MemoriMemoryPostprocessor(**{"engine": engine, **kwargs})


def test_no_query_or_blank_query_adds_nothing(engine: RecallEngine) -> None:
    memory = user_memory(engine)
    doc = NodeWithScore(node=TextNode(text="peanuts"), score=0.4)
    assert memory.postprocess_nodes([doc]) == [doc]
    assert memory.postprocess_nodes([doc], query_bundle=QueryBundle(query_str="   ")) == [doc]


def test_non_text_query_raises_whatever_strict_says(engine: RecallEngine) -> None:
    memory = user_memory(engine)
    with pytest.raises(TypeError):
        memory.postprocess_nodes([], query_bundle=QueryBundle(query_str=b"peanuts"))  # type: ignore[arg-type]


def test_store_failure_fails_open_and_the_documents_still_answer(
    engine: RecallEngine, index: VectorStoreIndex, caplog: pytest.LogCaptureFixture
) -> None:
    llm = RecordingMockLLM()
    query_engine = documents_engine(index, llm, user_memory(engine))
    break_store(engine)
    with caplog.at_level(logging.WARNING, logger="memori_llamaindex"):
        response = query_engine.query(PERSONAL)
    assert "MemoriMemoryPostprocessor: recall failed for entity 'user-1'" in caplog.text
    assert "crushed peanuts" in llm.prompts[0] and memory_nodes(response) == []


def test_strict_postprocessor_raises_on_store_failure(engine: RecallEngine, index: VectorStoreIndex) -> None:
    query_engine = documents_engine(index, RecordingMockLLM(), user_memory(engine, strict=True))
    break_store(engine)
    with pytest.raises(chromadb.errors.ChromaError):
        query_engine.query(PERSONAL)


# -- a memory-only query engine ------------------------------------------------------------------------------------


def test_plain_retriever_query_engine_answers_empty_response_when_memory_abstains(engine: RecallEngine) -> None:
    """The premise of MemoriQueryEngine: LlamaIndex's own engine never calls the LLM without nodes."""
    llm = RecordingMockLLM()
    query_engine = RetrieverQueryEngine.from_args(MemoriRetriever(engine=engine, entity_id="user-1"), llm=llm)
    assert str(query_engine.query(OFF_TOPIC)) == "Empty Response" and llm.prompts == []


def test_memori_query_engine_answers_without_memory_when_nothing_passes_the_gate(engine: RecallEngine) -> None:
    llm = RecordingMockLLM()
    query_engine = memory_only_engine(engine, llm)
    response = query_engine.query(OFF_TOPIC)
    assert llm.prompts == [OFF_TOPIC]  # the question alone: no context, no memory
    assert str(response) == OFF_TOPIC and response.source_nodes == []


def test_memori_query_engine_uses_memory_when_a_fact_passes(engine: RecallEngine) -> None:
    llm = RecordingMockLLM()
    query_engine = memory_only_engine(engine, llm)
    response = query_engine.query(PERSONAL)
    assert len(llm.prompts) == 1 and "User is allergic to peanuts." in llm.prompts[0]
    assert "Context information is below" in llm.prompts[0]  # the ordinary QA synthesizer
    assert [n.node.get_content() for n in response.source_nodes] == ["User is allergic to peanuts."]


async def test_memori_query_engine_async_answers_without_memory(engine: RecallEngine) -> None:
    llm = RecordingMockLLM()
    query_engine = memory_only_engine(engine, llm)
    response = await query_engine.aquery(OFF_TOPIC)
    assert llm.prompts == [OFF_TOPIC] and str(response) == OFF_TOPIC
    response = await query_engine.aquery(PERSONAL)
    assert "User is allergic to peanuts." in llm.prompts[-1]


def test_memori_query_engine_streams_the_answer_without_memory(engine: RecallEngine) -> None:
    llm = RecordingMockLLM()
    query_engine = memory_only_engine(engine, llm, streaming=True)
    response = query_engine.query(OFF_TOPIC)
    assert response.get_response().response == OFF_TOPIC and llm.prompts == [OFF_TOPIC]


def test_memori_query_engine_fallback_prompt_can_be_changed(engine: RecallEngine) -> None:
    from llama_index.core.prompts import PromptTemplate

    llm = RecordingMockLLM()
    query_engine = memory_only_engine(engine, llm)
    assert "fallback_synthesizer:simple_template" in query_engine.get_prompts()
    query_engine.update_prompts({"fallback_synthesizer:simple_template": PromptTemplate("Q: {query_str}")})
    query_engine.query(OFF_TOPIC)
    assert llm.prompts == [f"Q: {OFF_TOPIC}"]


def test_memori_query_engine_fails_open_to_an_answer_when_the_store_is_down(
    engine: RecallEngine, caplog: pytest.LogCaptureFixture
) -> None:
    llm = RecordingMockLLM()
    query_engine = memory_only_engine(engine, llm)
    break_store(engine)
    with caplog.at_level(logging.WARNING, logger="memori_llamaindex"):
        response = query_engine.query(PERSONAL)
    assert str(response) == PERSONAL and llm.prompts == [PERSONAL]
    assert "recall failed" in caplog.text


def test_memori_query_engine_with_retriever_keeps_the_fallback(engine: RecallEngine) -> None:
    llm = RecordingMockLLM()
    query_engine = memory_only_engine(engine, llm)
    other = query_engine.with_retriever(MemoriRetriever(engine=engine, entity_id="user-10"))
    assert isinstance(other, MemoriQueryEngine)
    assert str(other.query(OFF_TOPIC)) == OFF_TOPIC
    other.query("Am I allergic to shellfish?")
    assert "User is allergic to shellfish." in llm.prompts[-1] and "peanuts." not in llm.prompts[-1]


def test_memori_query_engine_with_retriever_keeps_a_changed_fallback_prompt(engine: RecallEngine) -> None:
    from llama_index.core.prompts import PromptTemplate

    llm = RecordingMockLLM()
    query_engine = memory_only_engine(engine, llm)
    query_engine.update_prompts({"fallback_synthesizer:simple_template": PromptTemplate("Chef Bot. Q: {query_str}")})
    other = query_engine.with_retriever(MemoriRetriever(engine=engine, entity_id="user-10"))
    assert other.get_prompts()["fallback_synthesizer:simple_template"].get_template() == "Chef Bot. Q: {query_str}"
    assert str(other.query(OFF_TOPIC)) == f"Chef Bot. Q: {OFF_TOPIC}"
    assert llm.prompts == [f"Chef Bot. Q: {OFF_TOPIC}"]


async def test_memori_query_engine_with_retriever_keeps_a_changed_fallback_prompt_async(engine: RecallEngine) -> None:
    from llama_index.core.prompts import PromptTemplate

    llm = RecordingMockLLM()
    query_engine = memory_only_engine(engine, llm)
    query_engine.update_prompts({"fallback_synthesizer:simple_template": PromptTemplate("Chef Bot. Q: {query_str}")})
    other = query_engine.with_retriever(MemoriRetriever(engine=engine, entity_id="user-10"))
    response = await other.aquery(OFF_TOPIC)
    assert str(response) == f"Chef Bot. Q: {OFF_TOPIC}" and llm.prompts == [f"Chef Bot. Q: {OFF_TOPIC}"]
