"""A question asked again over an unchanged copy is answered from the copy's kept answer (engine/answers.py),
and never once anything it depends on changed: a write (in any engine), an expiry, the engine's settings.

An agent's turn asks the same question several times (LlamaIndex's FunctionAgent reads its Memory again after
the model answered): the engine answers it again without embedding, ranking or asking a judge, but only after
reading the store's revision, as every recall does.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.llms.mock import MockFunctionCallingLLM
from llama_index.core.memory import Memory

from _faults import Faults
from _helpers import HashEmbedder, ungated_engine
from memori_core import RecallConfig, RecallEngine
from memori_core.engine import reads
from memori_llamaindex import MemoriMemoryBlock

pytestmark = pytest.mark.usefixtures("close_chat_stores")


@pytest.fixture
def counted() -> tuple[RecallEngine, HashEmbedder]:
    embedder = HashEmbedder()
    engine = ungated_engine(embedder)
    engine.add("alice", ["User drinks green tea in the morning.", "User lives in Lisbon.", "User plays tennis."])
    return engine, embedder


def test_a_question_asked_again_is_answered_without_embedding_it_again(counted: Any) -> None:
    engine, embedder = counted
    faults = Faults(engine.store)
    faults.watch("revision")
    first = engine.recall("what do I drink?", "alice", context=["I am in Lisbon."])
    calls, reads_before = embedder.calls, faults.calls["revision"]
    again = engine.recall("what do I drink?", "alice", context=["I am in Lisbon."])
    assert again == first and [f.content for f in again][0] == "User drinks green tea in the morning."
    assert embedder.calls == calls
    assert faults.calls["revision"] == reads_before + 1  # the store's revision is still read first


def test_another_query_limit_filter_or_context_is_another_question(counted: Any) -> None:
    engine, embedder = counted
    engine.recall("what do I drink?", "alice")
    for kwargs in ({"limit": 1}, {"context": ["I am in Lisbon."]}, {"where": {"source": "chat"}}):
        calls = embedder.calls
        engine.recall("what do I drink?", "alice", **kwargs)
        assert embedder.calls > calls, kwargs
    calls = embedder.calls
    assert "User lives in Lisbon." in [f.content for f in engine.recall("Lisbon", "alice", limit=1)]
    assert embedder.calls > calls


def test_a_write_by_another_engine_in_between_is_seen_by_the_question_asked_again(counted: Any) -> None:
    engine, _ = counted
    other = ungated_engine(store=engine.store)  # another process's engine over the same store
    before = [f.content for f in engine.recall("what do I drink?", "alice", limit=10)]
    other.add("alice", ["User drinks oat milk."])
    after = [f.content for f in engine.recall("what do I drink?", "alice", limit=10)]
    assert "User drinks oat milk." in after and "User drinks oat milk." not in before
    fid = next(f.id for f in engine.recall("tennis", "alice", limit=10) if f.content == "User plays tennis.")
    engine.recall("tennis", "alice", limit=10)
    other.delete("alice", [fid])
    assert "User plays tennis." not in [f.content for f in engine.recall("tennis", "alice", limit=10)]


def test_the_engines_own_write_in_between_is_seen(counted: Any) -> None:
    engine, _ = counted
    engine.recall("what do I drink?", "alice", limit=10)
    engine.add("alice", ["User drinks oat milk."])
    assert "User drinks oat milk." in [f.content for f in engine.recall("what do I drink?", "alice", limit=10)]


def test_a_fact_that_expires_between_two_recalls_is_not_answered_again(
    counted: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine, embedder = counted
    soon = datetime.now(timezone.utc) + timedelta(minutes=5)
    engine.add("alice", ["User has a dentist appointment."], expires_at=soon)
    assert "User has a dentist appointment." in [f.content for f in engine.recall("dentist", "alice", limit=10)]
    later = time.time() + 600
    monkeypatch.setattr(reads.time, "time", lambda: later)
    calls = embedder.calls
    assert "User has a dentist appointment." not in [f.content for f in engine.recall("dentist", "alice", limit=10)]
    assert embedder.calls > calls


def test_new_settings_are_a_new_answer(counted: Any) -> None:
    engine, embedder = counted
    engine.recall("what do I drink?", "alice")
    calls = embedder.calls
    engine.config = RecallConfig(gate="off")  # the same values in a new config: answered anew
    engine.recall("what do I drink?", "alice")
    assert embedder.calls > calls
    other = HashEmbedder()
    engine._embedder = other  # noqa: SLF001 - the same vectors from another embedder object
    calls = embedder.calls
    engine.recall("what do I drink?", "alice")
    assert embedder.calls == calls and other.calls > 0


def test_changing_a_returned_facts_metadata_does_not_change_the_next_answer(counted: Any) -> None:
    engine, _ = counted
    first = engine.recall("what do I drink?", "alice")
    first[0].metadata["note"] = "changed by the caller"
    first.clear()
    again = engine.recall("what do I drink?", "alice")
    assert len(again) == 3 and "note" not in again[0].metadata


def test_a_judge_is_asked_once_for_a_repeated_question_but_again_after_it_failed() -> None:
    asked: list[str] = []
    failing = [True]

    def judge(query: str, facts: list[str], context: list[str]) -> list[int]:
        asked.append(query)
        if failing[0]:
            raise RuntimeError("the model is down")
        return [0]

    engine = RecallEngine(store=ungated_engine().store, embedder=HashEmbedder(), judge=judge)
    engine.add("alice", ["User drinks green tea in the morning.", "User plays tennis."])
    engine.recall("what do I drink in the morning?", "alice")
    failing[0] = False
    judged = engine.recall("what do I drink in the morning?", "alice")  # the failed answer was not kept
    assert len(asked) == 2 and [f.content for f in judged] == ["User drinks green tea in the morning."]
    assert engine.recall("what do I drink in the morning?", "alice") == judged
    assert len(asked) == 2


async def test_a_function_agent_turn_recalls_once_though_it_reads_its_memory_twice(counted: Any) -> None:
    engine, embedder = counted
    block = MemoriMemoryBlock(engine=engine, entity_id="alice")
    memory = Memory.from_defaults(session_id="s1", memory_blocks=[block])
    seen: list[str] = []

    def llm(messages: list[ChatMessage], **kwargs: Any) -> ChatMessage:
        seen.append("\n".join(m.content or "" for m in messages))
        return ChatMessage(role="assistant", content="Green tea, as every morning.")

    agent = FunctionAgent(llm=MockFunctionCallingLLM(response_generator=llm), tools=[])
    reads_of_memory: list[int] = []
    real_aget = memory.aget

    async def counting_aget(*args: Any, **kwargs: Any) -> Any:
        reads_of_memory.append(embedder.calls)
        return await real_aget(*args, **kwargs)

    object.__setattr__(memory, "aget", counting_aget)
    calls = embedder.calls
    await agent.run("What do I drink in the morning?", memory=memory)
    assert len(reads_of_memory) == 2  # LlamaIndex reads the memory before the model call and after it
    assert "User drinks green tea in the morning." in seen[0]
    assert embedder.calls - calls == 1  # one recall: the second read was answered from the first


async def test_a_write_between_two_memory_reads_of_one_turn_is_seen_by_the_second(counted: Any) -> None:
    engine, _ = counted
    block = MemoriMemoryBlock(engine=engine, entity_id="alice")
    turn = [ChatMessage(role="user", content="What do I drink in the morning?")]
    assert "oat milk" not in await block.aget(turn)
    ungated_engine(store=engine.store).add("alice", ["User drinks oat milk in the morning."])
    assert "User drinks oat milk in the morning." in await block.aget(turn)
