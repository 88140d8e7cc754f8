"""MemoriMiddleware captures a turn no model answered (the call raised, or the client abandoned the streamed answer)
with the user's next answered turn, once: in the same thread, and in another thread of the process (the user
opened a new chat after the error); real agents, checkpointer and Chroma."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timezone
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import BaseMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from _extractors import Gate
from _helpers import stored
from _langchain_fakes import RecordingChatModel
from memori_core import RecallEngine
from memori_core.capture import CaptureDropped
from memori_langchain import MemoriMiddleware
from memori_langchain.middleware import CAPTURED_KEY

ALLERGY = "I'm allergic to shellfish. Can you plan my week of dinners?"
CONFIG: Any = {"configurable": {"entity_id": "ana", "thread_id": "t1"}}


class FailsFirstCalls(RecordingChatModel):
    """The framework's fake chat model whose first ``failures`` calls raise, as a provider outage does, and so do
    the calls whose number is in ``failing_calls`` (the first call is 1)."""

    failures: int = 1
    failing_calls: tuple[int, ...] = ()
    tried: int = 0  # calls so far, the failed ones too

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any):
        self.tried += 1
        if self.failures > 0 or self.tried in self.failing_calls:
            self.failures = max(self.failures - 1, 0)
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


def streaming_agent(engine: RecallEngine) -> tuple[Gate, MemoriMiddleware, Any]:
    """An agent whose model streams its answers, with a middleware capturing into ``engine`` through an opened
    gate: the gate, the middleware and the agent."""
    gate = opened_gate()
    middleware = MemoriMiddleware(engine=engine, capture=True, extractor=gate)
    model = answers()
    model.disable_streaming = False
    return gate, middleware, agent_with(middleware, model, InMemorySaver())


async def abandon_stream(agent: Any, text: str) -> None:
    """Stream the agent's answer to ``text`` (as in :data:`CONFIG`) and close the stream after the first token, as
    a client that closed the connection does."""
    stream = agent.astream({"messages": [("human", text)]}, CONFIG, stream_mode="messages")
    async for _ in stream:
        break
    await stream.aclose()


def say(agent: Any, text: str, thread: str = "t1", entity: str = "ana", said_at: datetime | None = None) -> None:
    kwargs = {"created_at": said_at.isoformat()} if said_at is not None else {}
    message = HumanMessage(text, additional_kwargs=kwargs)
    agent.invoke({"messages": [message]}, {"configurable": {"entity_id": entity, "thread_id": thread}})


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
    gate, middleware, agent = streaming_agent(ungated)

    async def conversation() -> None:
        await abandon_stream(agent, ALLERGY)
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


# -- the user's next answered turn is in another thread ---------------------------------------------------------


def test_turn_whose_model_call_raised_is_captured_once_by_the_users_next_turn_in_a_new_thread(
        ungated: RecallEngine) -> None:
    gate = opened_gate()
    middleware = MemoriMiddleware(engine=ungated, capture=True, extractor=gate)
    agent = agent_with(middleware, answers(failures=1), InMemorySaver())
    said = datetime(2026, 3, 2, 9, 30, tzinfo=timezone.utc)
    with pytest.raises(ConnectionError):
        say(agent, ALLERGY, thread="t1", said_at=said)
    say(agent, "New chat. Hi!", thread="t2")  # the user never goes back to t1
    middleware.flush()
    assert stored(ungated, "ana") == ["User is allergic to shellfish."]
    fact = ungated.list("ana")[0]
    assert fact.created_at.startswith("2026-03-02T09:30")  # dated when it was said, not when it was captured
    assert fact.metadata["thread_id"] == "t1"  # a fact of the thread it was said in
    # Back in t1, and on in t2: the turn is not captured again.
    say(agent, "Back here. Monday's dinner?", thread="t1")
    say(agent, "And Tuesday?", thread="t2")
    middleware.flush()
    assert gate.seen.count(ALLERGY) == 1
    assert middleware.capture_stats.dropped == 0 and middleware.capture_stats.completed == len(gate.seen)


def test_turn_whose_stream_was_abandoned_is_captured_by_the_users_next_turn_in_a_new_thread(
        ungated: RecallEngine) -> None:
    gate, middleware, agent = streaming_agent(ungated)

    async def conversation() -> None:
        await abandon_stream(agent, ALLERGY)
        await agent.ainvoke({"messages": [("human", "Hi again, new tab.")]},
                            {"configurable": {"entity_id": "ana", "thread_id": "t2"}})
        await middleware.aflush()

    asyncio.run(conversation())
    assert gate.seen == [ALLERGY, "Hi again, new tab."]
    assert stored(ungated, "ana") == ["User is allergic to shellfish."]


def test_another_users_answered_turn_does_not_capture_a_users_unanswered_turn(ungated: RecallEngine) -> None:
    gate = opened_gate()
    middleware = MemoriMiddleware(engine=ungated, capture=True, extractor=gate)
    agent = agent_with(middleware, answers(failures=1), InMemorySaver())
    with pytest.raises(ConnectionError):
        say(agent, ALLERGY, thread="t1", entity="ana")
    say(agent, "I live in Porto.", thread="t9", entity="bob")
    middleware.flush()
    assert gate.seen == ["I live in Porto."]
    assert stored(ungated, "ana") == [] and stored(ungated, "bob") == ["User lives in Porto."]
    say(agent, "Hello?", thread="t2", entity="ana")
    middleware.flush()
    assert stored(ungated, "ana") == ["User is allergic to shellfish."]


def test_unanswered_turns_beyond_missed_turns_of_a_user_are_counted_as_dropped_with_a_warning(
        ungated: RecallEngine, caplog: pytest.LogCaptureFixture) -> None:
    gate = opened_gate()
    middleware = MemoriMiddleware(engine=ungated, capture=True, extractor=gate, missed_turns=1)
    agent = agent_with(middleware, answers(failures=2), InMemorySaver())
    with caplog.at_level(logging.WARNING, logger="memori_langchain"):
        for thread, text in (("t1", "I live in Porto."), ("t2", "I'm allergic to shellfish.")):
            with pytest.raises(ConnectionError):
                say(agent, text, thread=thread)
    assert "capture dropped for entity 'ana': a turn no model answered was forgotten" in caplog.text
    say(agent, "Monday's dinner?", thread="t3")
    middleware.flush()
    assert gate.seen == ["I'm allergic to shellfish.", "Monday's dinner?"]
    stats = middleware.capture_stats
    assert (stats.submitted, stats.completed, stats.dropped) == (3, 2, 1)


def test_strict_middleware_raises_a_dropped_unanswered_turn_in_that_users_next_call_only(
        ungated: RecallEngine) -> None:
    middleware = MemoriMiddleware(engine=ungated, capture=True, missed_turns=1, strict=True)
    agent = agent_with(middleware, answers(failures=2), InMemorySaver())
    for thread, text in (("t1", "I live in Porto."), ("t2", "I'm allergic to shellfish.")):
        with pytest.raises(ConnectionError):
            say(agent, text, thread=thread)
    say(agent, "I'm Bob.", thread="t9", entity="bob")  # another user's call is not failed by it
    with pytest.raises(CaptureDropped, match="a turn no model answered was forgotten"):
        say(agent, "Hello?", thread="t3")


def test_unanswered_turn_of_a_user_forgotten_since_is_neither_stored_nor_counted_in_a_new_thread(
        ungated: RecallEngine) -> None:
    middleware = MemoriMiddleware(engine=ungated, capture=True)
    agent = agent_with(middleware, answers(failures=1), InMemorySaver())
    with pytest.raises(ConnectionError):
        say(agent, ALLERGY, thread="t1")
    ungated.forget("ana")
    say(agent, "I live in Porto.", thread="t2")
    middleware.flush()
    assert stored(ungated, "ana") == ["User lives in Porto."]
    assert middleware.capture_stats.dropped == 0


def test_missed_turns_zero_keeps_no_unanswered_turn_for_another_thread(ungated: RecallEngine) -> None:
    gate = opened_gate()
    middleware = MemoriMiddleware(engine=ungated, capture=True, extractor=gate, missed_turns=0)
    agent = agent_with(middleware, answers(failures=1), InMemorySaver())
    with pytest.raises(ConnectionError):
        say(agent, ALLERGY, thread="t1")
    say(agent, "Monday's dinner?", thread="t2")
    middleware.flush()
    assert gate.seen == ["Monday's dinner?"]


# -- LangGraph: a recall node paired with the capture node (memori_recall_node(..., capture=...)) ---------------


def graph_with(engine: RecallEngine, model: Any, capture: Any, *, paired: bool = True, tools: bool = False,
               capture_each_call: bool = False) -> Any:
    """START -> recall (handing its turns to ``capture`` when ``paired``) -> model -> capture -> END; with
    ``tools``, a model's tool call goes to a tool and back through recall to the model, before capture (with
    ``capture_each_call`` too, after capture: every model call is captured, the one asking for the tool too)."""
    from langchain_core.messages import ToolMessage
    from langgraph.graph import END, START, StateGraph

    from memori_langchain import MemoriState, memori_recall_node, with_memori_context

    def call_model(state: Any) -> dict[str, Any]:
        return {"messages": [model.invoke(with_memori_context(state, "You are a cook."))]}

    def weather(state: Any) -> dict[str, Any]:
        return {"messages": [ToolMessage("sunny", tool_call_id=state["messages"][-1].tool_calls[0]["id"])]}

    builder = StateGraph(MemoriState)
    builder.add_node("memori", memori_recall_node(engine, capture=capture if paired else None))
    builder.add_node("model", call_model)
    builder.add_node("capture", capture)
    builder.add_edge(START, "memori")
    builder.add_edge("memori", "model")
    if tools:
        builder.add_node("tools", weather)
        builder.add_edge("tools", "memori")
    if tools and not capture_each_call:
        builder.add_conditional_edges("model", lambda s: "tools" if s["messages"][-1].tool_calls else "capture",
                                      ["tools", "capture"])
    else:
        builder.add_edge("model", "capture")
    if tools and capture_each_call:
        builder.add_conditional_edges("capture", lambda s: "tools" if s["messages"][-1].tool_calls else END,
                                      ["tools", END])
    else:
        builder.add_edge("capture", END)
    return builder.compile(checkpointer=InMemorySaver())


def test_graph_turn_whose_model_node_raised_is_captured_once_by_the_users_next_turn_in_a_new_thread(
        ungated: RecallEngine) -> None:
    from memori_langchain import memori_capture_node

    gate = opened_gate()
    capture = memori_capture_node(ungated, extractor=gate)
    graph = graph_with(ungated, answers(failures=1), capture)
    said = datetime(2026, 3, 2, 9, 30, tzinfo=timezone.utc)
    with pytest.raises(ConnectionError):
        say(graph, ALLERGY, thread="g1", said_at=said)
    say(graph, "New chat. Hi!", thread="g2")
    capture.flush()
    assert stored(ungated, "ana") == ["User is allergic to shellfish."]
    fact = ungated.list("ana")[0]
    assert fact.created_at.startswith("2026-03-02T09:30") and fact.metadata["thread_id"] == "g1"
    say(graph, "Back here. Monday's dinner?", thread="g1")
    say(graph, "And Tuesday?", thread="g2")
    capture.flush()
    assert gate.seen.count(ALLERGY) == 1 and len(gate.seen) == 4
    assert capture.capture_stats.completed == 4 and capture.capture_stats.dropped == 0


def test_graph_turn_whose_model_failed_after_a_tool_call_is_captured_once(ungated: RecallEngine) -> None:
    from langchain_core.messages import AIMessage

    from memori_langchain import memori_capture_node

    gate = opened_gate()
    capture = memori_capture_node(ungated, extractor=gate)
    asks = AIMessage("", tool_calls=[{"name": "weather", "args": {}, "id": "call-1"}])

    class FailsAfterTheTool(FailsFirstCalls):
        def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any):
            if messages[-1].type == "tool":
                raise ConnectionError("model provider unavailable")
            return super()._generate(messages, stop=stop, run_manager=run_manager, **kw)

    graph = graph_with(ungated, FailsAfterTheTool(messages=iter([asks, "Sure.", "Sure."]), failures=0), capture, tools=True)
    with pytest.raises(ConnectionError):
        say(graph, "I live in Porto. What's the weather?", thread="g1")  # recall ran twice on it, then it failed
    say(graph, "Hi again.", thread="g2")
    say(graph, "Still there?", thread="g3")
    capture.flush()
    assert gate.seen == ["I live in Porto. What's the weather?", "Hi again.", "Still there?"]
    assert stored(ungated, "ana") == ["User lives in Porto."]


def test_graph_recall_node_without_capture_hands_no_turn_to_another_graphs_capture_node(
        ungated: RecallEngine) -> None:
    from memori_langchain import memori_capture_node

    gate = opened_gate()
    capture = memori_capture_node(ungated, extractor=gate)
    private = graph_with(ungated, answers(), memori_capture_node(ungated, extractor=opened_gate()), paired=False)
    with pytest.raises(ConnectionError):  # a graph whose recall node is not paired: its failed turn is its own
        say(graph_with(ungated, answers(failures=1), capture, paired=False), ALLERGY, thread="g1")
    private.invoke({"messages": [("human", "I live in Porto.")]},
                   {"configurable": {"entity_id": "ana", "thread_id": "p1"}})
    say(graph_with(ungated, answers(), capture), "Hello?", thread="g2")
    capture.flush()
    assert gate.seen == ["Hello?"]


def test_graph_unanswered_turns_beyond_three_of_a_user_are_counted_as_dropped(ungated: RecallEngine) -> None:
    from memori_langchain import memori_capture_node

    gate = opened_gate()
    capture = memori_capture_node(ungated, extractor=gate)
    graph = graph_with(ungated, answers(failures=4), capture)
    texts = ["I live in Porto.", "I'm allergic to shellfish.", "I keep bees.", "I play the cello."]
    for n, text in enumerate(texts):
        with pytest.raises(ConnectionError):
            say(graph, text, thread=f"g{n}")
    say(graph, "Hello?", thread="g9")
    capture.flush()
    assert gate.seen == [*texts[1:], "Hello?"]
    stats = capture.capture_stats
    assert (stats.submitted, stats.completed, stats.dropped) == (5, 4, 1)


def test_graph_unanswered_turn_of_a_user_forgotten_since_is_not_stored(ungated: RecallEngine) -> None:
    from memori_langchain import memori_capture_node

    capture = memori_capture_node(ungated)
    graph = graph_with(ungated, answers(failures=1), capture)
    with pytest.raises(ConnectionError):
        say(graph, ALLERGY, thread="g1")
    ungated.forget("ana")
    say(graph, "I live in Porto.", thread="g2")
    capture.flush()
    assert stored(ungated, "ana") == ["User lives in Porto."] and capture.capture_stats.dropped == 0


def test_recall_node_capture_that_is_not_a_capture_node_over_its_engine_is_refused_naming_it(
        ungated: RecallEngine, engine: RecallEngine) -> None:
    from memori_langchain import memori_capture_node, memori_recall_node

    with pytest.raises(TypeError, match="memori_recall_node: capture must be the graph's memori_capture_node"):
        memori_recall_node(ungated, "ana", capture=lambda state: {})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="capture must be a memori_capture_node over the same engine"):
        memori_recall_node(ungated, "ana", capture=memori_capture_node(engine))


def test_graph_turn_captured_before_a_tool_is_not_kept_again_when_its_later_model_call_fails(
        ungated: RecallEngine) -> None:
    from langchain_core.messages import AIMessage

    from memori_langchain import memori_capture_node

    gate = opened_gate()
    capture = memori_capture_node(ungated, extractor=gate)
    asks = AIMessage("", tool_calls=[{"name": "weather", "args": {}, "id": "call-1"}])
    # The call after the tool fails, then the next three turns' calls.
    model = FailsFirstCalls(messages=iter([asks, "Sure.", "Sure."]), failures=0, failing_calls=(2, 3, 4, 5))
    # Capture after every model call: the turn is captured before the tool runs.
    graph = graph_with(ungated, model, capture, tools=True, capture_each_call=True)
    with pytest.raises(ConnectionError):
        say(graph, "I live in Porto. What's the weather?", thread="g1")
    later = ["I keep bees.", "I play the cello.", "I'm allergic to shellfish."]
    for n, text in enumerate(later):  # three unanswered turns: what the record keeps of a user, none dropped
        with pytest.raises(ConnectionError):
            say(graph, text, thread=f"g{n + 2}")
    say(graph, "Hi again.", thread="g9")
    capture.flush()
    assert gate.seen == ["I live in Porto. What's the weather?", *later, "Hi again."]
    stats = capture.capture_stats
    assert (stats.submitted, stats.dropped) == (5, 0)
