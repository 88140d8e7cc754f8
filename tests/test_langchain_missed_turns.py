"""MemoriMiddleware captures the earlier turns of a thread that no model answered (the call raised, or the client
abandoned the streamed answer) with the next turn of that thread, once; real agents, checkpointer and Chroma."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import BaseMessage
from langgraph.checkpoint.memory import InMemorySaver

from _extractors import Gate
from _helpers import stored
from _langchain_fakes import RecordingChatModel
from memori_core import RecallEngine
from memori_langchain import MemoriMiddleware
from memori_langchain.middleware import CAPTURED_KEY

ALLERGY = "I'm allergic to shellfish. Can you plan my week of dinners?"
CONFIG: Any = {"configurable": {"entity_id": "ana", "thread_id": "t1"}}


class FailsFirstCalls(RecordingChatModel):
    """The framework's fake chat model whose first ``failures`` calls raise, as a provider outage does."""

    failures: int = 1

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any):
        if self.failures > 0:
            self.failures -= 1
            raise ConnectionError("model provider unavailable")
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


def answers(failures: int = 0) -> FailsFirstCalls:
    return FailsFirstCalls(messages=iter(["Sure."] * 20), failures=failures)


def opened_gate() -> Gate:
    gate = Gate()
    gate.opened.set()
    return gate


def agent_with(middleware: MemoriMiddleware, model: Any, saver: InMemorySaver) -> Any:
    return create_agent(model, tools=[], system_prompt="S.", middleware=[middleware], checkpointer=saver)


def say(agent: Any, text: str) -> None:
    agent.invoke({"messages": [("human", text)]}, CONFIG)


def test_turn_whose_model_call_raised_is_captured_once_with_the_next_turn_of_its_thread(
        ungated: RecallEngine) -> None:
    gate = opened_gate()
    middleware = MemoriMiddleware(engine=ungated, capture=True, extractor=gate)
    agent = agent_with(middleware, answers(failures=1), InMemorySaver())
    with pytest.raises(ConnectionError):
        say(agent, ALLERGY)
    middleware.flush()
    assert stored(ungated, "ana") == []
    say(agent, "Sorry, just give me Monday's dinner.")
    say(agent, "And Tuesday?")
    say(agent, "Thanks!")
    middleware.flush()
    assert gate.seen == [ALLERGY, "Sorry, just give me Monday's dinner.", "And Tuesday?", "Thanks!"]
    assert stored(ungated, "ana") == ["User is allergic to shellfish."]


def test_turn_whose_stream_was_abandoned_is_captured_once_with_the_next_turn_of_its_thread(
        ungated: RecallEngine) -> None:
    gate = opened_gate()
    middleware = MemoriMiddleware(engine=ungated, capture=True, extractor=gate)
    model = answers()
    model.disable_streaming = False
    agent = agent_with(middleware, model, InMemorySaver())

    async def conversation() -> None:
        stream = agent.astream({"messages": [("human", ALLERGY)]}, CONFIG, stream_mode="messages")
        async for _ in stream:
            break  # the client closed the connection after the first token
        await stream.aclose()
        await middleware.aflush()
        assert gate.seen == []
        for text in ("Sorry, got disconnected. Monday's dinner?", "And Tuesday?"):
            await agent.ainvoke({"messages": [("human", text)]}, CONFIG)
        await middleware.aflush()

    asyncio.run(conversation())
    assert gate.seen == [ALLERGY, "Sorry, got disconnected. Monday's dinner?", "And Tuesday?"]
    assert stored(ungated, "ana") == ["User is allergic to shellfish."]


def test_another_process_resuming_the_thread_does_not_capture_the_missed_turn_again(
        ungated: RecallEngine) -> None:
    saver = InMemorySaver()
    first_gate, second_gate = opened_gate(), opened_gate()
    first = MemoriMiddleware(engine=ungated, capture=True, extractor=first_gate)
    agent = agent_with(first, answers(failures=1), saver)
    with pytest.raises(ConnectionError):
        say(agent, ALLERGY)
    say(agent, "Monday's dinner?")
    first.flush()
    assert CAPTURED_KEY in agent.get_state(CONFIG).values

    # A middleware that never saw the thread (another worker, or after a restart) resumes it from the checkpoint.
    second = MemoriMiddleware(engine=ungated, capture=True, extractor=second_gate)
    say(agent_with(second, answers(), saver), "And Tuesday?")
    second.flush()
    assert first_gate.seen == [ALLERGY, "Monday's dinner?"]
    assert second_gate.seen == ["And Tuesday?"]


def test_missed_turns_bounds_how_many_earlier_turns_are_looked_at(ungated: RecallEngine) -> None:
    gate = opened_gate()
    middleware = MemoriMiddleware(engine=ungated, capture=True, extractor=gate, missed_turns=1)
    agent = agent_with(middleware, answers(failures=2), InMemorySaver())
    for text in ("I live in Porto.", "I'm allergic to shellfish."):
        with pytest.raises(ConnectionError):
            say(agent, text)
    say(agent, "Monday's dinner?")
    middleware.flush()
    assert gate.seen == ["I'm allergic to shellfish.", "Monday's dinner?"]


def test_missed_turns_zero_captures_only_the_answered_turn(ungated: RecallEngine) -> None:
    gate = opened_gate()
    middleware = MemoriMiddleware(engine=ungated, capture=True, extractor=gate, missed_turns=0)
    agent = agent_with(middleware, answers(failures=1), InMemorySaver())
    with pytest.raises(ConnectionError):
        say(agent, ALLERGY)
    say(agent, "Monday's dinner?")
    middleware.flush()
    assert gate.seen == ["Monday's dinner?"]


def test_missed_turn_of_a_user_forgotten_since_is_not_stored(ungated: RecallEngine) -> None:
    middleware = MemoriMiddleware(engine=ungated, capture=True)
    agent = agent_with(middleware, answers(failures=1), InMemorySaver())
    with pytest.raises(ConnectionError):
        say(agent, ALLERGY)
    ungated.forget("ana")
    say(agent, "I live in Porto.")
    middleware.flush()
    assert stored(ungated, "ana") == ["User lives in Porto."]


def test_missed_turns_that_is_not_a_non_negative_int_is_refused_naming_it(ungated: RecallEngine) -> None:
    with pytest.raises(ValueError, match="missed_turns"):
        MemoriMiddleware(engine=ungated, capture=True, missed_turns=-1)
    with pytest.raises(TypeError, match="missed_turns"):
        MemoriMiddleware(engine=ungated, capture=True, missed_turns=2.0)  # type: ignore[arg-type]
