"""A turn whose answer calls a tool that raises is captured when the tool raises: ``MemoriMiddleware(capture=True)``
holds a turn whose answer calls tools until they have run, and a tool's exception that ends the agent run left it
waiting for a next turn or a ``flush`` that may never come. A real ``create_agent`` driven by LangChain's fake chat
model, over a real in-memory Chroma store; the captures are waited for with the base class's ``flush``, which
queues nothing itself (the middleware's own ``flush`` hands waiting turns to capture, and would hide the gap)."""

from __future__ import annotations

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command, interrupt

from _helpers import HashEmbedder, ungated_engine
from _langchain_fakes import replies
from memori_core import RecallEngine
from memori_core.capture import WaitsForCaptures
from memori_langchain import MemoriMiddleware

SAID = "I'm allergic to penicillin. Book me a GP appointment for Friday."
FACT = "User is allergic to penicillin."
USER = {"configurable": {"entity_id": "ana", "thread_id": "t1"}}
WAIT = 10.0


class BookingDown(Exception):
    """The booking service failed."""


@tool
def book_gp_appointment(day: str) -> str:
    """Book a GP appointment on a day."""
    raise BookingDown("booking service unavailable")


def booking_call(call: str = "c1") -> AIMessage:
    return AIMessage("", tool_calls=[{"name": "book_gp_appointment", "args": {"day": "Friday"}, "id": call,
                                      "type": "tool_call"}])


def facts_of(engine: RecallEngine) -> list[str]:
    return sorted(f.content for f in engine.list("ana"))


def captures_done(memori: MemoriMiddleware) -> bool:
    """Wait for the captures already queued, queuing none (not the middleware's own ``flush``)."""
    return bool(WaitsForCaptures.flush(memori, WAIT))


def test_a_turn_whose_tool_raised_and_ended_the_run_is_captured_without_flush_or_a_next_turn() -> None:
    engine = ungated_engine(HashEmbedder())
    memori = MemoriMiddleware(engine=engine, capture=True)
    agent = create_agent(replies(booking_call(), AIMessage("unused")), tools=[book_gp_appointment],
                         middleware=[memori])
    with pytest.raises(BookingDown):  # the tool's own exception reaches the app, unchanged
        agent.invoke({"messages": [HumanMessage(SAID)]}, USER)
    assert memori.capture_stats.submitted == 1  # queued as the tool raised
    assert captures_done(memori)
    assert facts_of(engine) == [FACT]


async def test_an_async_turn_whose_tool_raised_and_ended_the_run_is_captured_without_flush() -> None:
    engine = ungated_engine(HashEmbedder())
    memori = MemoriMiddleware(engine=engine, capture=True)
    agent = create_agent(replies(booking_call(), AIMessage("unused")), tools=[book_gp_appointment],
                         middleware=[memori])
    with pytest.raises(BookingDown):
        await agent.ainvoke({"messages": [HumanMessage(SAID)]}, USER)
    assert memori.capture_stats.submitted == 1
    assert captures_done(memori)
    assert facts_of(engine) == [FACT]


def test_a_turn_whose_tool_raised_is_captured_once_when_the_user_comes_back_and_the_app_flushes() -> None:
    engine = ungated_engine(HashEmbedder())
    memori = MemoriMiddleware(engine=engine, capture=True)
    agent = create_agent(replies(booking_call(), AIMessage("Sorry, booking is down.")), tools=[book_gp_appointment],
                         middleware=[memori], checkpointer=InMemorySaver())
    with pytest.raises(BookingDown):
        agent.invoke({"messages": [HumanMessage(SAID)]}, USER)
    agent.invoke({"messages": [HumanMessage("Is it back up?")]}, USER)  # the thread again, the raised turn in it
    assert memori.flush(timeout=WAIT)
    assert memori.capture_stats.submitted == 2  # the raised turn once, then the new one
    assert facts_of(engine) == [FACT]


def test_two_tools_of_one_answer_raising_capture_the_turn_once() -> None:
    engine = ungated_engine(HashEmbedder())
    memori = MemoriMiddleware(engine=engine, capture=True)
    both = AIMessage("", tool_calls=[*booking_call("c1").tool_calls, *booking_call("c2").tool_calls])
    agent = create_agent(replies(both, AIMessage("unused")), tools=[book_gp_appointment], middleware=[memori])
    with pytest.raises(BookingDown):
        agent.invoke({"messages": [HumanMessage(SAID)]}, USER)
    assert memori.flush(timeout=WAIT)
    assert memori.capture_stats.submitted == 1
    assert facts_of(engine) == [FACT]


def test_a_tool_that_interrupts_the_run_leaves_the_turn_to_the_resumed_run() -> None:
    @tool
    def confirm_booking(day: str) -> str:
        """Ask the user to confirm a booking."""
        return str(interrupt(f"Book {day}?"))

    engine = ungated_engine(HashEmbedder())
    memori = MemoriMiddleware(engine=engine, capture=True)
    call = AIMessage("", tool_calls=[{"name": "confirm_booking", "args": {"day": "Friday"}, "id": "c1",
                                      "type": "tool_call"}])
    agent = create_agent(replies(call, AIMessage("Booked.")), tools=[confirm_booking], middleware=[memori],
                         checkpointer=InMemorySaver())
    result = agent.invoke({"messages": [HumanMessage(SAID)]}, USER)
    assert result.get("__interrupt__")  # paused, not failed: the turn still waits for its tool
    assert memori.capture_stats.submitted == 0
    agent.invoke(Command(resume="yes"), USER)
    assert captures_done(memori) and memori.capture_stats.submitted == 1
    assert facts_of(engine) == [FACT]


def test_a_tool_that_raises_without_capture_raises_as_before_and_stores_nothing() -> None:
    engine = ungated_engine(HashEmbedder())
    memori = MemoriMiddleware(engine=engine)
    agent = create_agent(replies(booking_call(), AIMessage("unused")), tools=[book_gp_appointment],
                         middleware=[memori])
    with pytest.raises(BookingDown, match="booking service unavailable"):
        agent.invoke({"messages": [HumanMessage(SAID)]}, USER)
    assert memori.flush(timeout=WAIT) and memori.capture_stats.submitted == 0
    assert facts_of(engine) == []
