"""A turn waiting for its agent's tool loop is not captured by the same user's turn in another thread while its own
run may still be going (rev40 finding): thread A's model called ``recall_memory`` and was about to call
``update_memory`` when thread B's turn was answered; B's capture took A's waiting turn too, and its capture replaced
the fact A's model then updated (the update refused as of a fact no longer valid). A waiting turn is captured by its
own thread (the loop over, a call or tool raising, the run's end, the thread's next turn) or by ``flush``. Real
``create_agent`` with the memory tools and one capturing ``MemoriMiddleware`` over LangChain's fake chat model, real
in-memory Chroma; thread B runs on a thread of its own, as a second request would."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware, HumanInTheLoopMiddleware
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver

from _helpers import HashEmbedder, ungated_engine
from _langchain_fakes import replies
from memori_core import RecallEngine
from memori_core.store import ChromaStore
from memori_langchain import MemoriMiddleware, memory_tools

METFORMIN, OZEMPIC = "User takes metformin for diabetes.", "User takes Ozempic for diabetes."


def config(thread: str | None) -> dict[str, Any]:
    """The run's config: ``dana``'s, in ``thread`` (``None``: no thread id, a stateless API's request)."""
    return {"configurable": {"entity_id": "dana"} | ({"thread_id": thread} if thread is not None else {})}


def call(name: str, n: int, **args: str) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"c{n}", "type": "tool_call"}])


def queued_captures_done(memori: MemoriMiddleware) -> None:
    """Wait for the captures queued so far (``MemoriMiddleware.flush`` would first queue the waiting turns)."""
    assert super(MemoriMiddleware, memori).flush(timeout=30)


def run_elsewhere(agent: Any, said: str, thread: str | None) -> None:
    """``agent`` answers ``said`` in ``thread``, on an OS thread of its own (no run of the caller's around it)."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            agent.invoke({"messages": [HumanMessage(said)]}, config(thread))
        except BaseException as exc:  # noqa: BLE001 - handed to the test below
            failed.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(60)
    assert not worker.is_alive() and not failed, failed


class OtherThreadAfterRecall(AgentMiddleware):
    """After run A's ``recall_memory`` ran: run B's turn is answered in ``thread`` (``None``: with no thread id
    either, a second request to a stateless API), on an OS thread of its own, and its captures finish."""

    def __init__(self, memori: MemoriMiddleware, other: Any, thread: str | None) -> None:
        super().__init__()
        self.memori, self.other, self.thread = memori, other, thread
        self.valid_then: list[str] = []

    def wrap_tool_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
        out = handler(request)
        if request.tool_call["name"] == "recall_memory":
            run_elsewhere(self.other, "Hi! How are you today?", self.thread)
            queued_captures_done(self.memori)
            self.valid_then = sorted(f.content for f in self.memori.engine.list("dana"))
        return out


@pytest.mark.parametrize(("thread", "other_thread"), [("t1", "t2"), (None, None)],
                         ids=["another-thread", "runs-without-thread-ids"])
def test_another_runs_turn_does_not_capture_a_turn_between_its_models_recall_and_update(
        thread: str | None, other_thread: str | None) -> None:
    engine = ungated_engine(HashEmbedder())
    [metformin] = engine.add("dana", METFORMIN, core=True)
    memori = MemoriMiddleware(engine=engine, capture=True)
    other = create_agent(replies(AIMessage("Doing well, thanks!")), tools=memory_tools(engine), middleware=[memori])
    meanwhile = OtherThreadAfterRecall(memori, other, other_thread)
    model = replies(call("recall_memory", 1, query="my medication"),
                    call("update_memory", 2, fact_id=metformin, text=OZEMPIC), AIMessage("Updated."))
    agent = create_agent(model, tools=memory_tools(engine), middleware=[memori, meanwhile])
    result = agent.invoke({"messages": [HumanMessage("My doctor switched me from metformin to Ozempic.")]},
                          config(thread))
    assert meanwhile.valid_then == [METFORMIN]  # B answered and captured, A's turn still waiting for its tool loop
    [updated] = [m for m in result["messages"] if isinstance(m, ToolMessage) and m.name == "update_memory"]
    assert not updated.text.startswith("Error"), updated.text
    queued_captures_done(memori)  # A's own run end took its turn, not flush
    assert memori.capture_stats.completed == 2
    assert [f.content for f in engine.list("dana") if "diabetes" in f.content] == [OZEMPIC]


def booking_agent(engine: RecallEngine, memori: MemoriMiddleware, *answers: AIMessage,
                  middleware: tuple[AgentMiddleware, ...] = ()) -> Any:
    @tool(return_direct=True)
    def book_table(day: str) -> str:
        """Book a table at the user's usual restaurant."""
        return f"Booked for {day}."

    return create_agent(replies(*answers), tools=[book_table, *memory_tools(engine)], middleware=[memori, *middleware])


def test_a_run_that_ends_with_its_tools_has_its_turn_captured_at_its_end() -> None:
    engine = ungated_engine(HashEmbedder())
    memori = MemoriMiddleware(engine=engine, capture=True)
    agent = booking_agent(engine, memori, call("book_table", 1, day="Friday"))
    out = agent.invoke({"messages": [HumanMessage("I am vegetarian. Book me a table for Friday.")]}, config("t1"))
    assert out["messages"][-1].text == "Booked for Friday."  # the tool returned directly: no model call after it
    queued_captures_done(memori)  # queued by the run's end, not by flush
    assert [f.content for f in engine.list("dana")] == ["User is vegetarian."]


class GuardrailAfterTools(AgentMiddleware):
    """Another middleware whose check before the model's second call raises: the run ends after its tools, in no
    model or tool call of ``MemoriMiddleware``'s."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def before_model(self, state: Any, runtime: Any) -> None:
        self.calls += 1
        if self.calls == 2:
            raise RuntimeError("guardrail tripped")


def test_a_run_that_raised_after_its_tools_has_its_turn_captured_by_its_threads_next_turn_or_flush() -> None:
    engine = ungated_engine(HashEmbedder())
    memori = MemoriMiddleware(engine=engine, capture=True)
    agent = booking_agent(engine, memori, call("recall_memory", 1, query="diet"), AIMessage("Hi!"),
                          AIMessage("Noted."), middleware=(GuardrailAfterTools(),))
    try:
        agent.invoke({"messages": [HumanMessage("I am vegetarian. What do I eat?")]}, config("t1"))
    except RuntimeError as exc:
        assert "guardrail" in str(exc)
    else:
        raise AssertionError("the guardrail did not raise")
    other = create_agent(replies(AIMessage("Hello!")), tools=memory_tools(engine), middleware=[memori])
    other.invoke({"messages": [HumanMessage("Hello there.")]}, config("t2"))
    queued_captures_done(memori)
    assert engine.list("dana") == []  # thread t1's run may be going on, for all B's turn can tell
    agent.invoke({"messages": [HumanMessage("Thanks.")]}, config("t1"))  # the thread's next turn takes it first
    queued_captures_done(memori)
    assert [f.content for f in engine.list("dana")] == ["User is vegetarian."]


def test_flush_captures_a_turn_whose_run_raised_after_its_tools() -> None:
    engine = ungated_engine(HashEmbedder())
    memori = MemoriMiddleware(engine=engine, capture=True)
    agent = booking_agent(engine, memori, call("recall_memory", 1, query="diet"), middleware=(GuardrailAfterTools(),))
    try:
        agent.invoke({"messages": [HumanMessage("I am vegetarian. What do I eat?")]}, config("t1"))
    except RuntimeError:
        pass
    assert memori.flush(timeout=30)
    assert [f.content for f in engine.list("dana")] == ["User is vegetarian."]
    assert memori.capture_stats.completed == 1


def interrupted_for_approval(engine: RecallEngine, memori: MemoriMiddleware) -> None:
    """A run whose ``recall_memory`` call waits for a human's approval (``HumanInTheLoopMiddleware``) never given:
    the run pauses after the model's answer called tools, with no hook of ``MemoriMiddleware``'s after it."""
    agent = create_agent(replies(call("recall_memory", 1, query="diet"), AIMessage("Hi!")),
                         tools=memory_tools(engine), checkpointer=InMemorySaver(),
                         middleware=[memori, HumanInTheLoopMiddleware(interrupt_on={"recall_memory": True})])
    out = agent.invoke({"messages": [HumanMessage("I am vegetarian. What do I eat?")]}, config("t1"))
    assert "__interrupt__" in out


def raised_in_a_guardrail(engine: RecallEngine, memori: MemoriMiddleware) -> None:
    agent = booking_agent(engine, memori, call("recall_memory", 1, query="diet"), AIMessage("Hi!"),
                          middleware=(GuardrailAfterTools(),))
    with pytest.raises(RuntimeError, match="guardrail"):
        agent.invoke({"messages": [HumanMessage("I am vegetarian. What do I eat?")]}, config("t1"))


@pytest.mark.parametrize("ended_unseen", [raised_in_a_guardrail, interrupted_for_approval])
def test_engine_close_captures_a_turn_still_waiting_for_its_tools(
        tmp_path: Path, ended_unseen: Callable[[RecallEngine, MemoriMiddleware], None]) -> None:
    engine = ungated_engine(HashEmbedder(), store=ChromaStore(path=tmp_path / "db", snapshots=False))
    memori = MemoriMiddleware(engine=engine, capture=True)
    ended_unseen(engine, memori)
    other = create_agent(replies(AIMessage("Hello!")), tools=memory_tools(engine), middleware=[memori])
    other.invoke({"messages": [HumanMessage("Hello there.")]}, config("t2"))  # another thread: not its turn
    queued_captures_done(memori)
    assert engine.list("dana") == []
    assert engine.close()  # the app shuts down without flush()
    assert memori.capture_stats.completed == 2 and memori.capture_stats.dropped == 0
    reopened = ungated_engine(HashEmbedder(), store=ChromaStore(path=tmp_path / "db", snapshots=False))
    assert [f.content for f in reopened.list("dana")] == ["User is vegetarian."]
    reopened.close()




def test_a_thread_less_runs_turn_that_ended_unseen_is_captured_by_a_later_run_once_it_waited_alone_waits(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 20: with no thread id, no later run ever took such a turn: it waited for flush() or the engine's close.
    from _helpers import Clock
    from memori_langchain import _after_tools

    clock = Clock(1000.0)
    monkeypatch.setattr(_after_tools, "monotonic", clock)
    engine = ungated_engine(HashEmbedder())
    memori = MemoriMiddleware(engine=engine, capture=True)
    agent = booking_agent(engine, memori, call("recall_memory", 1, query="diet"), middleware=(GuardrailAfterTools(),))
    with pytest.raises(RuntimeError, match="guardrail"):
        agent.invoke({"messages": [HumanMessage("I am vegetarian. What do I eat?")]}, config(None))

    def another_request() -> None:
        other = create_agent(replies(AIMessage("Hello!")), tools=memory_tools(engine), middleware=[memori])
        other.invoke({"messages": [HumanMessage("Hello there.")]}, {"configurable": {"entity_id": "eve"}})
        queued_captures_done(memori)

    clock.advance(_after_tools.ALONE_WAITS - 1)
    another_request()
    assert engine.list("dana") == []  # its run may still be in its tool loop
    clock.advance(1)
    another_request()
    assert [f.content for f in engine.list("dana")] == ["User is vegetarian."]
