"""MemoriMemoryBlock(capture=True) captures a turn once, whatever block instance or process flushes it later: a
block made per request, or an app restarted over its persisted chat, never captures an answered turn again, so a
``forget`` is not undone and a superseded fact is not made valid again. Real llama_index ``Memory`` over a SQLite
chat store on disk, ``SimpleChatEngine`` with LlamaIndex's mock LLM, real embedded Chroma on disk."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms.mock import MockFunctionCallingLLM
from llama_index.core.memory import Memory
from llama_index.core.storage.chat_store.base_db import MessageStatus

from _extractors import Gate
from _faults import Faults
from _helpers import ungated_engine
from memori_core import ChromaStore, RecallEngine
from memori_core.failopen import OutageBreaker
from memori_llamaindex import MemoriMemoryBlock

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning:inspect"),
              pytest.mark.usefixtures("close_chat_stores")]

LLM = MockFunctionCallingLLM(response_generator=lambda messages, **kwargs: ChatMessage(role="assistant",
                                                                                      content="Got it."))


class App:
    """A stateless chat handler: a new ``Memory`` and ``MemoriMemoryBlock`` per request, over the chat persisted
    in ``folder/chat.db`` and the engine it is given."""

    def __init__(self, engine: RecallEngine, folder: Path, extractor: Any = None) -> None:
        self.engine, self.uri, self.extractor = engine, f"sqlite+aiosqlite:///{folder}/chat.db", extractor
        self.last: Memory | None = None

    def memory(self, user: str, session: str) -> tuple[Memory, MemoriMemoryBlock]:
        block = MemoriMemoryBlock(engine=self.engine, entity_id=user, capture=True, extractor=self.extractor)
        memory = Memory.from_defaults(session_id=session, token_limit=120, async_database_uri=self.uri,
                                      memory_blocks=[block])
        self.last = memory
        return memory, block

    def chat(self, user: str, session: str, text: str) -> None:
        memory, block = self.memory(user, session)
        SimpleChatEngine.from_defaults(memory=memory, llm=LLM).chat(text)
        assert block.flush(timeout=30)

    def archived_user_texts(self) -> list[str]:
        assert self.last is not None
        return [str(m.content) for m in self.last.get_all(status=MessageStatus.ARCHIVED) if m.role == "user"]


def disk_engine(folder: Path, embedder: Any = None) -> RecallEngine:
    return ungated_engine(embedder, store=ChromaStore(path=str(folder / "memories")))


def contents(engine: RecallEngine, user: str) -> list[str]:
    return sorted(f.content for f in engine.list(user, include_invalid=True))


def test_per_request_blocks_do_not_bring_back_what_forget_erased(tmp_path: Path) -> None:
    engine = disk_engine(tmp_path)
    app = App(engine, tmp_path)
    for text in ["I have HIV and take Biktarvy daily.", "I live in Lisbon."]:
        app.chat("alice", "c1", text)
    assert "User has HIV." in contents(engine, "alice")
    engine.forget("alice")
    for i in range(14):  # Memory flushes the old turns out of its queue to the new blocks
        app.chat("alice", "c1", f"Fine {i}.")
    assert "I have HIV and take Biktarvy daily." in app.archived_user_texts()
    assert engine.count("alice", include_invalid=True) == 0
    engine.close()


def test_an_app_restarted_after_a_forget_does_not_capture_the_old_turns_again(tmp_path: Path) -> None:
    first = disk_engine(tmp_path)
    App(first, tmp_path).chat("alice", "c1", "I have HIV and take Biktarvy daily.")
    App(first, tmp_path).chat("alice", "c1", "I live in Lisbon.")
    first.forget("alice")
    first.close()

    restarted = disk_engine(tmp_path)  # a new engine over the same folders: what a new process opens
    app = App(restarted, tmp_path)
    for i in range(14):
        app.chat("alice", "c1", f"Fine {i}.")
    assert "I live in Lisbon." in app.archived_user_texts()
    assert restarted.count("alice", include_invalid=True) == 0
    restarted.close()


def test_an_app_restarted_over_its_chat_does_not_revive_a_superseded_fact(tmp_path: Path, minilm: Any) -> None:
    first = disk_engine(tmp_path, minilm)  # the real embedder: the move supersedes the similar Lisbon fact
    for text in ["I live in Lisbon.", "I moved to Porto last week."]:
        App(first, tmp_path).chat("alice", "c1", text)
    lisbon = next(f.id for f in first.list("alice", include_invalid=True) if "Lisbon" in f.content)
    before = [(v.content, v.valid_from, v.valid_to) for v in first.history("alice", lisbon)]
    assert [(text, valid_to is None) for text, _, valid_to in before] == [  # the fact moved: Lisbon is its past
        ("User lives in Lisbon.", False), ("User lives in Porto.", True)]
    first.close()

    restarted = disk_engine(tmp_path, minilm)
    app = App(restarted, tmp_path)
    for i in range(14):
        app.chat("alice", "c1", f"Fine {i}.")
    assert "I moved to Porto last week." in app.archived_user_texts()
    assert [(v.content, v.valid_from, v.valid_to) for v in restarted.history("alice", lisbon)] == before
    assert [f.content for f in restarted.list("alice")] == ["User lives in Porto."]
    restarted.close()


def test_a_message_put_without_an_answer_is_captured_once_by_per_request_blocks(tmp_path: Path) -> None:
    gate = Gate()
    gate.opened.set()
    engine = disk_engine(tmp_path)
    app = App(engine, tmp_path, extractor=gate)
    memory, block = app.memory("bo", "c2")
    memory.put(ChatMessage(role="user", content="I play the cello in an orchestra."))  # no LLM call, no answer
    assert block.flush(timeout=30) and engine.count("bo") == 0
    for i in range(14):
        app.chat("bo", "c2", f"Fine {i}.")
    assert "I play the cello in an orchestra." in app.archived_user_texts()
    assert gate.seen.count("I play the cello in an orchestra.") == 1
    assert [(f.content, f.times_seen) for f in engine.list("bo")] == [("User plays the cello in an orchestra.", 1)]
    engine.close()


def test_a_turn_an_outage_kept_from_the_store_is_not_stored_after_a_forget(hash_embedder: Any) -> None:
    engine = ungated_engine(hash_embedder)
    now = [0.0]
    engine.outage = OutageBreaker(10.0, clock=lambda: now[0])
    block = MemoriMemoryBlock(engine=engine, entity_id="rex", capture=True)
    memory = Memory.from_defaults(session_id="c3", memory_blocks=[block], token_limit=120)
    chat = SimpleChatEngine.from_defaults(llm=LLM, memory=memory)
    faults = Faults(engine.store)
    faults.arm("upsert", error=ConnectionError, message="the store is down")
    chat.chat("I have a dog called Rex.")
    assert block.flush(timeout=30) and block.capture_stats.held == 1
    faults.disarm()
    now[0] += 10
    engine.forget("rex")  # the erase request comes after the turn: its retry must not store it
    for i in range(14):
        chat.chat(f"Fine {i}.")
    assert block.flush(timeout=30)
    assert any(m.content == "I have a dog called Rex." for m in memory.get_all(status=MessageStatus.ARCHIVED))
    assert engine.count("rex", include_invalid=True) == 0
    assert (block.capture_stats.held, block.capture_stats.erased) == (0, 1)
