"""MemoriMemoryBlock(capture=True) captures each turn of a short chat (no flush needed), once, in the background,
failing open: a real llama_index Memory, real chat engines and agents driven by LlamaIndex's mock LLMs, real Chroma."""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms import MessageRole
from llama_index.core.llms.mock import MockFunctionCallingLLM, MockLLM
from llama_index.core.memory import Memory
from llama_index.core.storage.chat_store.base_db import MessageStatus
from llama_index.core.tools import FunctionTool, ToolSelection

from _extractors import Exploding, Gate
from _helpers import stored
from memori_core import RecallEngine
from memori_llamaindex import MemoriMemoryBlock

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning:inspect"),
              pytest.mark.usefixtures("close_chat_stores")]

CHAT = [
    "Hi! I am vegetarian.",
    "I live in Porto.",
    "What could I cook tonight?",
    "I have a dog called Bruno.",
]


def counting() -> Gate:
    """The rule-based extractor, recording the user message of every call (the gate is open from the start)."""
    gate = Gate()
    gate.opened.set()
    return gate


def archived(memory: Memory) -> list[ChatMessage]:
    return memory.get_all(status=MessageStatus.ARCHIVED)


def test_short_chat_is_captured_turn_by_turn_without_any_flush(ungated: RecallEngine) -> None:
    block = MemoriMemoryBlock(engine=ungated, entity_id="alice", capture=True)
    memory = Memory.from_defaults(session_id="chat-1", memory_blocks=[block])  # LlamaIndex's default limits
    chat = SimpleChatEngine.from_defaults(llm=MockLLM(), memory=memory)
    for text in CHAT:
        chat.chat(text)
    assert block.flush(timeout=30)
    assert archived(memory) == []  # Memory flushed nothing: capture did not wait for its queue to fill
    facts = stored(ungated, "alice")
    assert "User is vegetarian." in facts and "User lives in Porto." in facts
    assert any("Bruno" in f for f in facts)  # the last turn too
    assert all("?" not in f for f in facts)
    meta = ungated.explain("vegetarian", "alice", limit=1).candidates[0].metadata
    assert meta["source"] == "llamaindex" and meta["session_id"] == "chat-1"


def test_what_a_short_chat_captured_is_recalled_in_the_next_session(engine: RecallEngine) -> None:
    first = Memory.from_defaults(session_id="monday",
                                 memory_blocks=[MemoriMemoryBlock(engine=engine, entity_id="alice", capture=True)])
    SimpleChatEngine.from_defaults(llm=MockLLM(), memory=first).chat("I am allergic to peanuts.")
    assert first.memory_blocks[0].flush(timeout=30)

    second = Memory.from_defaults(session_id="tuesday",
                                  memory_blocks=[MemoriMemoryBlock(engine=engine, entity_id="alice")])
    second.put(ChatMessage(role="user", content="Can I eat peanuts? I am allergic to some nuts."))
    system = [m for m in second.get() if m.role == MessageRole.SYSTEM]
    assert system and "- User is allergic to peanuts." in str(system[0].content)


async def test_async_chat_engine_captures_each_turn(ungated: RecallEngine) -> None:
    block = MemoriMemoryBlock(engine=ungated, entity_id="bea", capture=True)
    memory = Memory.from_defaults(session_id="chat-a", memory_blocks=[block])
    chat = SimpleChatEngine.from_defaults(llm=MockLLM(), memory=memory)
    await chat.achat("I play the cello in an orchestra.")
    assert await block.aflush(timeout=30)
    assert stored(ungated, "bea") == ["User plays the cello in an orchestra."]


def test_a_turn_is_captured_once_however_often_memory_is_read_and_when_it_is_flushed(ungated: RecallEngine) -> None:
    extractor = counting()
    block = MemoriMemoryBlock(engine=ungated, entity_id="carl", capture=True, extractor=extractor)
    # A tiny queue: every turn is flushed out of it soon after it was captured.
    memory = Memory.from_defaults(session_id="chat-2", memory_blocks=[block], token_limit=40, token_flush_size=10)
    turns = ["I keep bees on my roof in Berlin.", "How do I harvest honey?", "I have two cats named Salt and Pepper."]
    for text in turns:
        memory.put(ChatMessage(role="user", content=text))
        memory.get()
        memory.get()  # read again in the same turn (an agent after a tool result)
        memory.put(ChatMessage(role="assistant", content="Nice, tell me more about that, it sounds lovely."))
    for text in ["Thanks.", "Bye for now, talk to you later this week."]:  # push the last turns out of the queue
        memory.put(ChatMessage(role="user", content=text))
        memory.put(ChatMessage(role="assistant", content="Goodbye, have a very good week ahead."))
    assert block.flush(timeout=30)
    flushed_users = [m for m in archived(memory) if m.role == MessageRole.USER]
    assert {m.content for m in flushed_users} >= set(turns) | {"Thanks."}  # Memory did flush every captured turn
    # each user message read by a get extracted once; "Thanks." was answered without a memory read: not captured
    assert sorted(extractor.seen) == sorted(turns)
    assert [f.times_seen for f in ungated.list("carl")] == [1, 1]  # stored once each, never re-added


def test_the_same_short_reply_to_two_questions_is_two_turns(ungated: RecallEngine) -> None:
    extractor = counting()
    block = MemoriMemoryBlock(engine=ungated, entity_id="dora", capture=True, extractor=extractor)
    memory = Memory.from_defaults(session_id="chat-3", memory_blocks=[block])
    for question in ["Are you vegetarian?", "Do you have a dog?"]:
        memory.put(ChatMessage(role="assistant", content=question))
        memory.put(ChatMessage(role="user", content="Yes."))
        memory.get()
    assert block.flush(timeout=30)
    assert extractor.seen == ["Yes.", "Yes."]


def test_function_agent_turn_with_a_tool_call_is_captured_once(ungated: RecallEngine) -> None:
    extractor = counting()
    block = MemoriMemoryBlock(engine=ungated, entity_id="erik", capture=True, extractor=extractor)
    memory = Memory.from_defaults(session_id="chat-4", memory_blocks=[block])
    calls = []

    def weather(city: str) -> str:
        """The weather in a city."""
        calls.append(city)
        return "sunny"

    agent = _weather_agent(weather, "Oslo", "It is sunny in Oslo.")

    asyncio.run(_run(agent, "I live in Oslo. What is the weather like?", memory))
    assert block.flush(timeout=30)
    assert extractor.seen == ["I live in Oslo. What is the weather like?"]
    assert calls == ["Oslo"]  # the tool ran: memory was read before both LLM calls of the turn
    assert "User lives in Oslo." in stored(ungated, "erik")


def test_an_agents_call_after_a_tool_is_not_shown_what_its_own_turn_became(ungated: RecallEngine) -> None:
    """The capture of the turn finishes while the tool runs (the tool waits for it), before the second model call
    of the same turn: that call must not be shown the facts captured from the very turn it answers."""
    ungated.add("erik", ["User is allergic to peanuts."])
    block = MemoriMemoryBlock(engine=ungated, entity_id="erik", capture=True)
    memory = Memory.from_defaults(session_id="chat-6", memory_blocks=[block])
    seen: list[str] = []

    def weather(city: str) -> str:
        """The weather in a city."""
        assert block.flush(timeout=30)  # the turn's capture has landed
        return "rain"

    agent = _weather_agent(weather, "Leeds", "Take a coat.",
                           seen=lambda messages: seen.append(
                               "\n".join(str(m.content) for m in messages if m.role == MessageRole.SYSTEM)))
    asyncio.run(_run(agent, "I live in Leeds and I cycle to work. Do I need a coat today?", memory))
    assert "User lives in Leeds." in stored(ungated, "erik")  # captured during the turn...
    assert len(seen) == 2 and all("User lives in Leeds." not in s for s in seen)  # ...and shown to neither call
    assert all("User is allergic to peanuts." in s for s in seen)  # the earlier fact is shown to both
    second = Memory.from_defaults(session_id="chat-7", memory_blocks=[MemoriMemoryBlock(engine=ungated,
                                                                                        entity_id="erik")])
    second.put(ChatMessage(role="user", content="Where do I live?"))
    assert "User lives in Leeds." in str(second.get()[0].content)  # the next turn is shown it


def _weather_agent(weather: Any, city: str | None, answer: str, seen: Any = None) -> FunctionAgent:
    """A FunctionAgent over LlamaIndex's MockFunctionCallingLLM that calls the tool ``weather(city)`` once (not
    when ``city`` is None), then answers ``answer``; ``seen(messages)`` is called with what each model call
    receives."""
    call = ChatMessage(role="assistant", content="Checking.",
                       additional_kwargs={"tool_calls": [ToolSelection(tool_id="t1", tool_name="weather",
                                                                       tool_kwargs={"city": city})]})
    replies = iter([*([call] if city is not None else []), ChatMessage(role="assistant", content=answer)])

    def respond(messages, **kwargs):  # noqa: ANN001, ANN003, ANN202 (MockFunctionCallingLLM's callback)
        if seen is not None:
            seen(messages)
        return next(replies)

    return FunctionAgent(llm=MockFunctionCallingLLM(response_generator=respond),
                         tools=[FunctionTool.from_defaults(weather)])


async def _run(agent: FunctionAgent, text: str | ChatMessage, memory: Memory) -> str:
    return str(await agent.run(text, memory=memory))


# A chat with an agent: (what the user says, the city the agent looks the weather up for, or None for no tool
# call, the fact the turn stores).
AGENT_CHAT = [
    ("I am vegetarian.", None, "User is vegetarian."),
    ("I live in Leeds and I cycle to work. Do I need a coat today?", "Leeds", "User lives in Leeds."),
    ("I have a dog called Bruno. Is it too wet to walk him in Leeds?", "Leeds", "User has a dog called Bruno."),
    ("I play the cello in an orchestra. Will my rehearsal in Leeds be rained off?", "Leeds",
     "User plays the cello in an orchestra."),
]
AUCKLAND = timezone(timedelta(hours=13))


async def _agent_chat(engine: RecallEngine, entity: str) -> list[list[str]]:
    """``AGENT_CHAT`` through one ``Memory`` and a FunctionAgent per turn, each message dated in Auckland's zone;
    the tool waits for the turn's capture, so it has landed before the model's call after the tool result. Returns
    each turn's system messages, one string per model call."""
    block = MemoriMemoryBlock(engine=engine, entity_id=entity, capture=True)
    memory = Memory.from_defaults(session_id="chat-agent", memory_blocks=[block])
    turns: list[list[str]] = []

    def weather(city: str) -> str:
        """The weather in a city."""
        assert block.flush(timeout=30)
        return "rain"

    def seen(messages: list[ChatMessage]) -> None:
        turns[-1].append("\n".join(str(m.content) for m in messages if m.role == MessageRole.SYSTEM))

    for day, (text, city, _) in enumerate(AGENT_CHAT, start=1):
        turns.append([])
        said = ChatMessage(role="user", content=text,
                           additional_kwargs={"created_at": datetime(2026, 11, day, 9, 0, tzinfo=AUCKLAND)})
        await _run(_weather_agent(weather, city, "Noted.", seen=seen), said, memory)
        assert await block.aflush(timeout=30)
    return turns


async def test_an_agents_calls_after_a_tool_are_not_shown_their_own_turns_facts_on_any_turn(
        ungated: RecallEngine) -> None:
    # Tester j9: from the second turn of a chat on, the call after the tool result was shown what that very turn
    # had just stored (Memory reads the memory again with the user's text appended as a new message, without the
    # assistant message before it, so the turn was not recognised).
    turns = await _agent_chat(ungated, "una")
    assert [len(calls) for calls in turns] == [1 if city is None else 2 for _, city, _ in AGENT_CHAT]
    for n, calls in enumerate(turns):
        own, earlier = AGENT_CHAT[n][2], [fact for _, _, fact in AGENT_CHAT[:n]]
        assert all(own not in system for system in calls), (n, calls)
        assert all(fact in system for system in calls for fact in earlier), (n, calls)  # the memory is still shown
    assert {fact for _, _, fact in AGENT_CHAT} <= set(stored(ungated, "una"))


async def test_an_agents_calls_after_a_tool_state_times_in_the_users_zone(ungated: RecallEngine) -> None:
    turns = await _agent_chat(ungated, "vic")
    stated = [line for calls in turns for system in calls for line in system.splitlines() if "Stated at" in line]
    assert stated and all(line.endswith("+13:00") for line in stated), stated


def test_a_memory_read_again_with_the_turn_as_input_leaves_out_that_turns_facts(ungated: RecallEngine) -> None:
    """The sync twin of an agent's turn: ``Memory.get()`` before the model call, then ``Memory.get(input=...)``
    (what an agent calls after a tool result) once the turn's capture has landed."""
    block = MemoriMemoryBlock(engine=ungated, entity_id="wes", capture=True)
    memory = Memory.from_defaults(session_id="chat-sync", memory_blocks=[block])
    for text, _, fact in AGENT_CHAT:
        memory.put(ChatMessage(role="user", content=text))
        memory.get()
        assert block.flush(timeout=30) and fact in stored(ungated, "wes")
        again = "\n".join(str(m.content) for m in memory.get(input=text) if m.role == MessageRole.SYSTEM)
        assert fact not in again
        memory.put(ChatMessage(role="assistant", content="Noted."))
    assert "User is vegetarian." in again  # an earlier turn's fact is shown


async def test_memory_get_does_not_wait_for_the_capture(ungated: RecallEngine) -> None:
    gate = Gate()
    block = MemoriMemoryBlock(engine=ungated, entity_id="fay", capture=True, extractor=gate)
    memory = Memory.from_defaults(session_id="chat-5", memory_blocks=[block])
    await memory.aput(ChatMessage(role="user", content="I play the cello."))
    await memory.aget()  # returns while the capture waits at the gate
    assert block.pending_captures == 1 and ungated.count("fay") == 0
    gate.opened.set()
    assert await block.aflush(timeout=30)
    assert stored(ungated, "fay") == ["User plays the cello."]


def test_capture_failure_logs_a_warning_and_the_chat_goes_on(
    ungated: RecallEngine, caplog: pytest.LogCaptureFixture
) -> None:
    block = MemoriMemoryBlock(engine=ungated, entity_id="gus", capture=True, extractor=Exploding())
    memory = Memory.from_defaults(session_id="chat-6", memory_blocks=[block])
    chat = SimpleChatEngine.from_defaults(llm=MockLLM(), memory=memory)
    with caplog.at_level(logging.WARNING, logger="memori_llamaindex"):
        assert "I play the cello." in str(chat.chat("I play the cello."))
        assert block.flush(timeout=30)
    assert "MemoriMemoryBlock: capture failed for entity 'gus'" in caplog.text
    assert ungated.count("gus") == 0


async def test_strict_capture_failure_is_raised_by_the_next_get(ungated: RecallEngine) -> None:
    block = MemoriMemoryBlock(engine=ungated, entity_id="hal", capture=True, extractor=Exploding(), strict=True)
    memory = Memory.from_defaults(session_id="chat-7", memory_blocks=[block])
    await memory.aput(ChatMessage(role="user", content="I play the cello."))
    await memory.aget()
    deadline = time.monotonic() + 30
    while block.pending_captures and time.monotonic() < deadline:  # wait without taking the kept failure
        await asyncio.sleep(0.01)
    with pytest.raises(RuntimeError, match="extractor exploded"):
        await memory.aget()


def test_capture_off_stores_nothing_from_a_short_chat(ungated: RecallEngine) -> None:
    block = MemoriMemoryBlock(engine=ungated, entity_id="ida")
    memory = Memory.from_defaults(session_id="chat-8", memory_blocks=[block])
    chat = SimpleChatEngine.from_defaults(llm=MockLLM(), memory=memory)
    chat.chat("I am vegetarian.")
    assert block.flush(timeout=30) and ungated.count("ida") == 0


def test_lookalike_users_capture_into_their_own_memory_only(ungated: RecallEngine) -> None:
    for entity, text in [("user-1", "I live in Porto."), ("user-10", "I live in Oslo."), ("User-1", "I live in Rome.")]:
        block = MemoriMemoryBlock(engine=ungated, entity_id=entity, capture=True)
        memory = Memory.from_defaults(session_id="same-session-id", memory_blocks=[block])
        SimpleChatEngine.from_defaults(llm=MockLLM(), memory=memory).chat(text)
        assert block.flush(timeout=30)
    assert stored(ungated, "user-1") == ["User lives in Porto."]
    assert stored(ungated, "user-10") == ["User lives in Oslo."]
    assert stored(ungated, "User-1") == ["User lives in Rome."]


def test_a_block_shared_by_two_sessions_captures_the_same_sentence_in_each(ungated: RecallEngine) -> None:
    extractor = counting()
    block = MemoriMemoryBlock(engine=ungated, entity_id="jo", capture=True, extractor=extractor)
    for session in ["s1", "s2"]:
        memory = Memory.from_defaults(session_id=session, memory_blocks=[block])
        memory.put(ChatMessage(role="user", content="I run every morning."))
        memory.get()
    assert block.flush(timeout=30)
    assert extractor.seen == ["I run every morning.", "I run every morning."]
    assert {c.metadata.get("session_id") for c in ungated.explain("run", "jo", limit=5).candidates} <= {"s1", "s2"}


def test_a_turn_whose_capture_failed_in_an_outage_is_captured_once_the_store_answers(ungated: RecallEngine) -> None:
    # A tester's chat on a Chroma server: "I have a dog called Rex." said while the server was down was never
    # stored, not even when Memory flushed that turn later: the block had marked it captured before the write.
    from _faults import Faults
    from memori_core.failopen import OutageBreaker

    now = [0.0]
    ungated.outage = OutageBreaker(10.0, clock=lambda: now[0])  # a ConnectionError opens it: see below
    block = MemoriMemoryBlock(engine=ungated, entity_id="rex", capture=True)
    memory = Memory.from_defaults(session_id="chat-9", memory_blocks=[block], token_limit=200,
                                  chat_history_token_ratio=0.5, token_flush_size=50)  # flushes old turns soon
    chat = SimpleChatEngine.from_defaults(llm=MockLLM(max_tokens=3), memory=memory)
    faults = Faults(ungated.store)
    faults.arm("upsert", error=ConnectionError, message="the store is down")
    chat.chat("I have a dog called Rex.")
    assert block.flush(timeout=30) and ungated.count("rex") == 0
    faults.disarm()
    now[0] += 10  # the outage's cool-down is over: the next capture goes to the store again
    chat.chat("I play the cello.")
    for i in range(8):  # the chat goes on: Memory flushes the Rex turn out of its queue, to the block
        chat.chat(f"Tell me a fun fact number {i} about whales and the deep ocean, please.")
    assert block.flush(timeout=30) and archived(memory)
    facts = stored(ungated, "rex")
    assert any("Rex" in f for f in facts) and "User plays the cello." in facts
    assert sum("Rex" in f for f in facts) == 1


class FailsFirstCall(MockLLM):
    """LlamaIndex's mock LLM whose first call raises, as a provider outage does."""

    failures: int = 1

    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> Any:
        if self.failures > 0:
            self.failures -= 1
            raise ConnectionError("model provider unavailable")
        return super().complete(prompt, formatted=formatted, **kwargs)


def test_a_turn_whose_llm_call_raised_is_captured_once_though_the_user_opens_a_new_session(
        ungated: RecallEngine) -> None:
    # The block captures a turn when Memory reads it for the LLM, before the answer: a failed LLM call loses
    # nothing, whichever session the user goes on in (the middleware's rough edge has no twin here).
    gate = counting()
    block = MemoriMemoryBlock(engine=ungated, entity_id="alice", capture=True, extractor=gate)
    failing = SimpleChatEngine.from_defaults(
        llm=FailsFirstCall(), memory=Memory.from_defaults(session_id="chat-1", memory_blocks=[block]))
    with pytest.raises(ConnectionError):
        failing.chat("I have a dog called Bruno.")
    fresh = SimpleChatEngine.from_defaults(
        llm=MockLLM(), memory=Memory.from_defaults(session_id="chat-2", memory_blocks=[block]))
    fresh.chat("New chat. Hi!")
    fresh.chat("What could I cook tonight?")
    assert block.flush(timeout=30)
    assert gate.seen == ["I have a dog called Bruno.", "New chat. Hi!", "What could I cook tonight?"]
    assert stored(ungated, "alice") == ["User has a dog called Bruno."]
