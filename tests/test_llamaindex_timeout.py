"""``timeout=`` on the LlamaIndex retriever, memory postprocessor and memory block: it bounds one whole recall (a
user's first recall in a process reads all their facts: seconds for a large user over a server), fails open as
``MemoriRecall(timeout=...)`` does, and the recall left running serves the next call. Real in-memory Chroma (its
reads held until the test releases them, as a slow cold load), real llama_index Memory, query engine and MockLLM."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms.mock import MockLLM
from llama_index.core.memory import Memory
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from _faults import held_loads_engine
from _helpers import HashEmbedder
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_llamaindex import MemoriMemoryBlock, MemoriMemoryPostprocessor, MemoriRetriever

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning:inspect"),
              pytest.mark.usefixtures("close_chat_stores")]

QUESTION = "Where do I live?"


@pytest.fixture
def slow() -> Iterator[RecallEngine]:
    """An engine whose next recall of ``u1`` waits for the store until released; the breaker off (cool-down 0),
    so the call after a timed-out one goes to the store again."""
    with held_loads_engine(HashEmbedder(), "u1", ["User lives in Porto."], config=RecallConfig(gate="off"),
                           outage_cooldown=0) as engine:
        yield engine


def release_and_warm(engine: RecallEngine) -> None:
    """Let the recall that timed out finish (it runs on in the background and leaves the user's copy)."""
    engine.store.release.set()


def test_retriever_timeout_fails_open_and_the_recall_left_running_serves_the_next_call(
        slow: RecallEngine, caplog: pytest.LogCaptureFixture) -> None:
    retriever = MemoriRetriever(slow, entity_id="u1", timeout=0.2)
    with caplog.at_level(logging.WARNING, logger="memori_llamaindex"):
        assert retriever.retrieve(QUESTION) == []
    assert "MemoriRetriever: recall failed for entity 'u1' (TimeoutError: no answer within 0.2 s)" in caplog.text
    release_and_warm(slow)
    assert [n.node.get_content() for n in retriever.with_entity("u1").retrieve(QUESTION)] == ["User lives in Porto."]


async def test_async_retriever_timeout_fails_open(slow: RecallEngine, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="memori_llamaindex"):
        assert await MemoriRetriever(slow, entity_id="u1", timeout=0.2).aretrieve(QUESTION) == []
    assert "no answer within 0.2 s" in caplog.text


def test_strict_retriever_raises_the_timeout(slow: RecallEngine) -> None:
    with pytest.raises(TimeoutError, match="no answer within 0.2 s"):
        MemoriRetriever(slow, entity_id="u1", timeout=0.2, strict=True).retrieve(QUESTION)


def test_postprocessor_timeout_passes_the_documents_on_unchanged(slow: RecallEngine) -> None:
    doc = NodeWithScore(node=TextNode(text="Porto has six bridges."), score=0.5)
    memory = MemoriMemoryPostprocessor(engine=slow, entity_id="u1", timeout=0.2)
    assert memory.with_entity("u1").timeout == 0.2
    assert memory.postprocess_nodes([doc], QueryBundle(QUESTION)) == [doc]
    release_and_warm(slow)
    out = memory.postprocess_nodes([doc], QueryBundle(QUESTION))
    assert [n.node.get_content() for n in out] == ["User lives in Porto.", "Porto has six bridges."]


def test_memory_block_timeout_answers_the_turn_without_memory(slow: RecallEngine) -> None:
    block = MemoriMemoryBlock(engine=slow, entity_id="u1", timeout=0.2)
    memory = Memory.from_defaults(session_id="t1", memory_blocks=[block])
    chat = SimpleChatEngine.from_defaults(llm=MockLLM(), memory=memory)
    assert "User lives in Porto." not in str(chat.chat(QUESTION))  # MockLLM answers with the prompt it got
    release_and_warm(slow)
    assert any("User lives in Porto." in str(m.content) for m in memory.get(input="Where do I live now?"))


async def test_async_memory_block_timeout_fails_open(slow: RecallEngine) -> None:
    block = MemoriMemoryBlock(engine=slow, entity_id="u1", timeout=0.2)
    assert await block.aget([ChatMessage(role="user", content=QUESTION)]) == ""


@pytest.mark.parametrize("bad, error", [(0, ValueError), (-1.0, ValueError), (float("nan"), ValueError),
                                        (float("inf"), ValueError), ("2", TypeError), (True, TypeError)])
def test_a_bad_timeout_is_refused_naming_the_adapter_and_the_argument(bad: Any, error: type[Exception]) -> None:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder())
    makers = {
        "MemoriRetriever": lambda: MemoriRetriever(engine, entity_id="u1", timeout=bad),
        "MemoriMemoryPostprocessor": lambda: MemoriMemoryPostprocessor(engine=engine, entity_id="u1", timeout=bad),
        "MemoriMemoryBlock": lambda: MemoriMemoryBlock(engine=engine, entity_id="u1", timeout=bad),
    }
    for owner, make in makers.items():
        with pytest.raises(error, match=f"{owner}: timeout must be"):
            make()
