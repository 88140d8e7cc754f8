"""Chat engines that condense the question, and memori's memory (docs/llamaindex.md, "Chat engines that condense").

``CondensePlusContextChatEngine`` skips its question-rewriting LLM call only when its ``Memory`` returns no
message; a ``MemoriMemoryBlock`` that recalls a fact adds one (its ``<memory>`` system message), so the engine
rewrites the very first question too (two LLM calls instead of one) and hands the facts to the rewriter as "chat
history". The block cannot tell that engine from an agent (``Memory`` hands it the same messages, and an agent's
first turn needs its memory), so the documented setup puts the memory into the retrieval instead
(``MemoriMemoryPostprocessor``), with a ``k=0`` block kept for capture only. Real LlamaIndex engines, ``Memory``
and index with LlamaIndex's mock embedding and a scripted ``CustomLLM``, over a real in-memory Chroma store.
"""

from __future__ import annotations

import pytest
from llama_index.core import VectorStoreIndex
from llama_index.core.chat_engine import CondensePlusContextChatEngine
from llama_index.core.embeddings import MockEmbedding
from llama_index.core.memory import Memory
from llama_index.core.schema import TextNode

from _helpers import ungated_engine
from _llamaindex_fakes import FixedLLM
from memori_core import RecallEngine
from memori_core.context import OPEN_TAG
from memori_llamaindex import MemoriMemoryBlock, MemoriMemoryPostprocessor

PEANUTS = "User is allergic to peanuts."
DOCUMENT = "The pad thai comes with crushed peanuts."
QUESTION = "I'm vegetarian. Is the pad thai safe with my allergy?"

pytestmark = pytest.mark.usefixtures("close_chat_stores")


@pytest.fixture
def alice() -> RecallEngine:
    engine = ungated_engine()
    engine.add("alice", [PEANUTS])
    return engine


def _chat_engine(llm: FixedLLM, memory: Memory, **kwargs) -> CondensePlusContextChatEngine:
    index = VectorStoreIndex([TextNode(text=DOCUMENT)], embed_model=MockEmbedding(embed_dim=8))
    return CondensePlusContextChatEngine.from_defaults(index.as_retriever(similarity_top_k=1), llm=llm,
                                                      memory=memory, **kwargs)


def test_a_recalling_memory_block_makes_the_engine_condense_the_first_question_with_the_facts_as_history(alice):
    # The interaction the docs describe: if LlamaIndex changes it, the docs' advice needs another look.
    llm = FixedLLM(reply="Is the pad thai safe for someone allergic to peanuts?")
    memory = Memory.from_defaults(session_id="s1", memory_blocks=[MemoriMemoryBlock(engine=alice, entity_id="alice")])
    _chat_engine(llm, memory).chat(QUESTION)
    condense, answer = llm.prompts
    assert "Standalone question" in condense and OPEN_TAG in condense and PEANUTS in condense
    assert PEANUTS in answer


async def test_the_documented_setup_answers_the_first_turn_with_one_llm_call_and_the_memory(alice):
    llm = FixedLLM(reply="Skip it: it has peanuts.")
    capture_only = MemoriMemoryBlock(engine=alice, entity_id="alice", k=0, capture=True)
    memory = Memory.from_defaults(session_id="s1", memory_blocks=[capture_only])
    chat = _chat_engine(llm, memory,
                        node_postprocessors=[MemoriMemoryPostprocessor(engine=alice, entity_id="alice")])

    await chat.achat(QUESTION)
    [answer] = llm.prompts  # no rewriting of a first question
    assert answer.index(PEANUTS) < answer.index(DOCUMENT)  # the memory node comes before the document
    assert OPEN_TAG not in answer and "<memory>" not in answer
    assert await capture_only.aflush()
    assert sorted(f.content for f in alice.list("alice")) == [PEANUTS, "User is vegetarian."]

    llm.prompts = []
    llm.script = ["Is the satay safe for a vegetarian with a peanut allergy?"]
    await chat.achat("And the satay?")
    condense, answer = llm.prompts  # a follow-up is rewritten, from the conversation alone
    assert "And the satay?" in condense and PEANUTS not in condense and "<memory>" not in condense
    assert PEANUTS in answer and "User is vegetarian." in answer


def test_a_block_with_k_0_adds_no_message_to_the_memory(alice):
    memory = Memory.from_defaults(session_id="s2",
                                  memory_blocks=[MemoriMemoryBlock(engine=alice, entity_id="alice", k=0)])
    assert memory.get(input="Is the pad thai safe with my peanut allergy?") == []
