"""One set of bookkeeping metadata keys (``memori_core.metadata_keys``), hidden from the model by every adapter.

Facts are written through every writer memori ships (``engine.add`` / ``update``, LangGraph's ``MemoriStore``,
``MemoriMiddleware`` and ``memori_capture_node`` capture, LlamaIndex's ``MemoriMemoryBlock`` capture), each with
real framework objects and their fake models over a real in-memory Chroma store. Every metadata key they write
or recall adds, other than the app's own, must be in ``BOOKKEEPING_METADATA_KEYS``, so that a writer adding a key
cannot leak it into a prompt (a user saw a ``MemoriStore`` item's ``langgraph_item`` key, with an internal digest
and the fact's text a second time, in a LlamaIndex prompt).
"""

from __future__ import annotations

import asyncio

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.llms.mock import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import MetadataMode

import memori_langchain as lc
import memori_llamaindex as li
from _helpers import ungated_engine
from _langchain_fakes import recall_model_capture_graph, replies
from memori_core import RecallEngine
from memori_core.metadata_keys import BOOKKEEPING_METADATA_KEYS, STORE_ITEM_KEY
from memori_langchain.store import ITEM_KEY
from memori_llamaindex.memory_block import TURN_KEY
from memori_llamaindex.retriever import DEFAULT_EXCLUDED_EMBED_METADATA_KEYS, DEFAULT_EXCLUDED_LLM_METADATA_KEYS

APP_KEYS = {"topic"}
"""The app's own metadata key in these tests (shown to the model)."""

WRITTEN = {
    "add": "User is allergic to peanuts.",
    "store": "User plays the cello.",
    "middleware": "User lives in Lisbon.",
    "capture node": "User has a dog named Rex.",
    "memory block": "User works as a nurse.",
}


@pytest.fixture(scope="module")
def written() -> RecallEngine:
    """Ann's facts, one written through each writer memori ships."""
    engine = ungated_engine()
    (fid,) = engine.add("ann", ["User is allergic to nuts."], metadata={"topic": "health"}, core=True,
                        session_id="s-1", expires_at="2999-01-01T00:00:00+00:00")
    engine.update("ann", fid, text=WRITTEN["add"])  # updated_at, valid_from

    store = lc.MemoriStore(engine, fields=["content"])
    store.put(("memories", "ann"), "hobby", {"content": WRITTEN["store"], "reviewed_by": "moderator-42"})
    store.put(("memories", "ann"), "draft", {"content": "User drafts a novel."}, index=False)  # "searchable"

    middleware = lc.MemoriMiddleware(engine=engine, entity_id="ann", capture=True)
    agent = create_agent(replies("ok"), [], middleware=[middleware])
    agent.invoke({"messages": [HumanMessage("I live in Lisbon.", id="m-1")]}, {"configurable": {"thread_id": "t-1"}})
    middleware.flush()

    capture = lc.memori_capture_node(engine, entity_id="ann")
    graph = recall_model_capture_graph(engine, replies(AIMessage("ok")), capture, entity_id="ann")
    graph.invoke({"messages": [HumanMessage("I have a dog named Rex.", id="m-2")]},
                 {"configurable": {"thread_id": "t-2"}})
    capture.flush()

    block = li.MemoriMemoryBlock(engine=engine, entity_id="ann", capture=True)

    async def put_turn() -> None:
        await block.aput([ChatMessage(role="user", content="I work as a nurse.")])
        assert await block.aflush()

    asyncio.run(put_turn())
    return engine


def test_every_writer_wrote_its_fact(written):
    texts = {f.content for f in written.list("ann")}
    assert set(WRITTEN.values()) <= texts and "User drafts a novel." in texts


def test_every_key_memori_writes_or_recall_adds_is_a_bookkeeping_key(written):
    stored = [key for fact in written.list("ann") for key in fact.metadata]
    recalled = [key for fact in written.recall("what about me", "ann", limit=20) for key in fact.metadata]
    assert len(written.recall("what about me", "ann", limit=20)) == len(WRITTEN)
    memori_keys = set(stored + recalled) - APP_KEYS
    # every kind of bookkeeping was written, so the check below covers them all
    assert {"source", "role", "thread_id", "message_id", "turn", "core", "searchable", ITEM_KEY,
            "times_seen", "session_id", "updated_at", "expires_at"} <= memori_keys
    assert memori_keys <= set(BOOKKEEPING_METADATA_KEYS)


def test_the_store_item_key_and_the_memory_blocks_turn_key_are_core_names():
    assert ITEM_KEY == STORE_ITEM_KEY and {ITEM_KEY, TURN_KEY} <= set(BOOKKEEPING_METADATA_KEYS)


def test_llamaindex_nodes_hide_every_bookkeeping_key_from_the_llm_and_the_embedder():
    assert set(BOOKKEEPING_METADATA_KEYS) <= set(DEFAULT_EXCLUDED_LLM_METADATA_KEYS)
    assert set(BOOKKEEPING_METADATA_KEYS) <= set(DEFAULT_EXCLUDED_EMBED_METADATA_KEYS)


def _metadata_lines(llm_view: str, text: str) -> list[str]:
    """The metadata lines of a node's LLM view (``key: value``), checking its text comes once, after them."""
    head, _, body = llm_view.partition("\n\n")
    assert body == text
    return [line.split(": ", 1)[0] for line in head.splitlines()]


def test_memori_retriever_nodes_show_the_llm_only_the_text_times_and_app_metadata(written):
    nodes = li.MemoriRetriever(written, "ann", k=20).retrieve("what about me")
    assert {n.node.get_content() for n in nodes} == set(WRITTEN.values())
    for n in nodes:
        shown = _metadata_lines(n.node.get_content(metadata_mode=MetadataMode.LLM), n.node.get_content())
        assert set(shown) <= {"created_at", "valid_from", *APP_KEYS}, shown
        embedded = n.node.get_content(metadata_mode=MetadataMode.EMBED)
        assert not any(key in embedded for key in (ITEM_KEY, "moderator-42", "message_id", "turn:"))


def test_a_memorystore_fact_reaches_a_llamaindex_prompt_once_and_without_the_store_item(written):
    memory = li.MemoriMemoryPostprocessor(engine=written, entity_id="ann", k=20)
    query_engine = RetrieverQueryEngine.from_args(li.MemoriRetriever(written, "nobody-yet"), llm=MockLLM(),
                                                  node_postprocessors=[memory])
    prompt = str(query_engine.query("Which instrument do I play?"))  # MockLLM answers with its prompt
    assert prompt.count(WRITTEN["store"]) == 1
    for leaked in (ITEM_KEY, "moderator-42", "reviewed_by", "thread_id", "message_id", "t-1", "searchable",
                   "times_seen", "core:", "source:", "role:", "turn:", "updated_at", "expires_at"):
        assert leaked not in prompt, leaked
    assert "kind: memory about the user" in prompt and "topic: health" in prompt
