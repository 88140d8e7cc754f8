"""A real `chroma run` server that stops answering (SIGSTOP) or dies (SIGKILL) under agents that fail open:
the first call that meets the outage waits for ``timeout`` and opens the engine's outage breaker; every
fail-open adapter over the engine then skips memory at once until the cool-down ends; the first call after
it goes to the store and, once the server is back, answers with what the store holds then.

The breaker's clock is moved by the test (no waiting for the cool-down, no timing asserted).
"""

from __future__ import annotations

import logging
import os
import signal
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage, SystemMessage
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.llms.mock import MockFunctionCallingLLM
from llama_index.core.memory import Memory

from _helpers import Clock, HashEmbedder, running_chroma_server, ungated_engine
from memori_core import ChromaStore, RecallEngine
from memori_core.failopen import OutageBreaker
from memori_langchain import MemoriContextInjector
from memori_llamaindex import MemoriMemoryBlock

pytestmark = [pytest.mark.server, pytest.mark.skipif(os.name != "posix", reason="needs SIGSTOP / SIGKILL"),
              pytest.mark.usefixtures("close_chat_stores")]

GIVE_UP = 60.0  # seconds: a flush still waiting by then is stuck (no timing is asserted below it)


class Recorder:
    """The mock LLM's answers; keeps the text of every prompt it was sent."""

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def __call__(self, messages: list[ChatMessage], **kwargs: Any) -> ChatMessage:
        self.prompts.append("\n".join(m.content or "" for m in messages))
        return ChatMessage(role="assistant", content="Noted.")


@pytest.fixture
def stoppable_server(tmp_path: Path) -> Iterator[tuple[str, int, Any]]:
    """A `chroma run` of this test's own, so that stopping or killing it touches no other test."""
    with running_chroma_server(tmp_path) as server:
        yield server


def _engine(host: str, port: int, collection: str, clock: Clock) -> RecallEngine:
    engine = ungated_engine(HashEmbedder(), store=ChromaStore.http(host=host, port=port, collection=collection,
                                                                    timeout=1.0))
    engine.outage = OutageBreaker(30.0, clock=clock)
    return engine


def _messages(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == level]


async def test_an_agent_over_a_stopped_server_skips_memory_after_one_timeout_until_the_cooldown_ends(
    stoppable_server: tuple[str, int, Any], caplog: pytest.LogCaptureFixture
) -> None:
    host, port, proc = stoppable_server
    clock, collection = Clock(), f"t_{uuid.uuid4().hex}"
    engine = _engine(host, port, collection, clock)
    engine.add("alice", ["User is allergic to peanuts."])
    engine.add("bob", ["User is allergic to shellfish."])
    block = MemoriMemoryBlock(engine=engine, entity_id="alice", capture=True)
    memory = Memory.from_defaults(session_id="s1", memory_blocks=[block])
    llm = Recorder()
    agent = FunctionAgent(llm=MockFunctionCallingLLM(response_generator=llm), tools=[], system_prompt="SYS")
    injector = MemoriContextInjector(engine=engine, entity_id="alice")
    prompt = [SystemMessage("Be brief."), HumanMessage("Any snack for me?")]

    proc.send_signal(signal.SIGSTOP)
    try:
        with caplog.at_level(logging.DEBUG):
            assert "Noted." in str(await agent.run("I have a dog called Rex.", memory=memory))
            assert "Noted." in str(await agent.run("Any snack for me?", memory=memory))
            assert [m.content for m in injector.invoke(prompt)] == ["Be brief.", "Any snack for me?"]
            assert block.flush(timeout=GIVE_UP)  # the turns' captures were skipped, not left waiting on the server
        assert engine.outage.is_open
    finally:
        proc.send_signal(signal.SIGCONT)
    assert all("peanuts" not in p for p in llm.prompts)
    warnings = _messages(caplog, logging.WARNING)
    # The outage is reported once, by the call that met it, and the turns it keeps from being stored once.
    assert len(warnings) == 2, warnings
    assert warnings[0].startswith("MemoriMemoryBlock: recall failed for entity 'alice' (StoreTimedOut: the Chroma server at ")
    assert "memory is skipped for 30 s" in warnings[0]
    assert warnings[1].startswith("MemoriMemoryBlock: capture for entity 'alice' not stored: the store failed")
    debug = _messages(caplog, logging.DEBUG)
    assert any(m.startswith("MemoriMemoryBlock: capture skipped for entity 'alice'") for m in debug)
    assert any(m.startswith("MemoriContextInjector: recall skipped for entity 'alice'") for m in debug)
    assert not any("capture failed" in m for m in warnings + debug)

    # The server answers again and another process writes meanwhile; after the cool-down the first call goes to
    # the store and reads what it holds now (only alice's facts).
    ungated_engine(HashEmbedder(), store=ChromaStore.http(host=host, port=port, collection=collection)).add(
        "alice", ["User drinks oat milk."])
    clock.now += 30
    caplog.clear()
    with caplog.at_level(logging.INFO):
        await agent.run("Any snack for me?", memory=memory)
    assert "User is allergic to peanuts." in llm.prompts[-1] and "User drinks oat milk." in llm.prompts[-1]
    assert "shellfish" not in llm.prompts[-1]
    assert "MemoriMemoryBlock: the store answers again; memory is used again" in _messages(caplog, logging.INFO)
    assert any(m.startswith("MemoriMemoryBlock: the store answers again after 30 s down; background captures "
                            "skipped or failed meanwhile: ") for m in _messages(caplog, logging.WARNING))
    assert not engine.outage.is_open
    assert "User is allergic to peanuts." in injector.invoke(prompt)[0].content


async def test_a_killed_server_opens_the_breaker_and_memory_is_back_after_its_restart(tmp_path: Path) -> None:
    clock, collection = Clock(), f"t_{uuid.uuid4().hex}"
    question = [ChatMessage(role="user", content="Any snack for me?")]
    with running_chroma_server(tmp_path) as (host, port, proc):
        engine = _engine(host, port, collection, clock)
        engine.add("alice", ["User is allergic to peanuts."])
        block = MemoriMemoryBlock(engine=engine, entity_id="alice")
        assert "peanuts" in await block.aget(question)
        proc.kill()
        proc.wait()
        assert await block.aget(question) == ""
        assert engine.outage.is_open and engine.outage.error == "StoreUnreachable"
    with running_chroma_server(tmp_path, port=port):  # the same data folder and port
        assert await block.aget(question) == ""  # the cool-down is not over: not asked yet
        clock.now += 30
        assert "User is allergic to peanuts." in await block.aget(question)
        assert not engine.outage.is_open


async def test_facts_told_while_the_server_was_down_are_stored_once_by_the_first_turn_after_its_restart(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock, collection = Clock(), f"t_{uuid.uuid4().hex}"
    llm = Recorder()
    agent = FunctionAgent(llm=MockFunctionCallingLLM(response_generator=llm), tools=[], system_prompt="SYS")
    with running_chroma_server(tmp_path) as (host, port, proc):
        engine = _engine(host, port, collection, clock)
        engine.outage = OutageBreaker(10.0, clock=clock)  # the default cool-down
        block = MemoriMemoryBlock(engine=engine, entity_id="alice", capture=True)
        memory = Memory.from_defaults(session_id="s1", memory_blocks=[block])  # a short chat: never flushed
        await agent.run("I have a dog called Rex.", memory=memory)
        assert block.flush(timeout=GIVE_UP)
        proc.kill()
        proc.wait()
        await agent.run("I play the cello.", memory=memory)
        await agent.run("I live in Lisbon.", memory=memory)
        assert block.flush(timeout=GIVE_UP)
        assert block.capture_stats.completed == 1 and engine.outage.is_open  # the dog only
    with running_chroma_server(tmp_path, port=port):  # back 14 s later, over the same data
        clock.now += 14
        with caplog.at_level(logging.INFO, logger="memori_llamaindex"):
            await agent.run("What should we do this weekend?", memory=memory)
            assert block.flush(timeout=GIVE_UP)
        assert any(m == "MemoriMemoryBlock: capturing again 2 turn(s) a store outage kept from the store"
                   for m in _messages(caplog, logging.INFO))
        await agent.run("Anything about music?", memory=memory)
        assert block.flush(timeout=GIVE_UP)
        assert "User plays the cello." in llm.prompts[-1]
        server = ungated_engine(HashEmbedder(), store=ChromaStore.http(host=host, port=port, collection=collection))
        assert sorted((f.content, f.times_seen) for f in server.list("alice")) == [
            ("User has a dog called Rex.", 1), ("User lives in Lisbon.", 1), ("User plays the cello.", 1)]
        assert block.capture_stats.dropped == 0
