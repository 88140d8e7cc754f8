"""A turn whose answer calls tools is captured once the agent's tool loop is over (the model answers without calling
another tool), not at the loop's next model call (j26's finding 8): "My doctor switched me from metformin to
Ozempic" answered with ``recall_memory`` then ``update_memory(<metformin id>)`` had capture replace metformin
between the two calls, and the model's update was refused as of a fact no longer valid. Real ``create_agent`` with
the memory tools and a capturing ``MemoriMiddleware`` over LangChain's fake chat model, real in-memory Chroma."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from _helpers import HashEmbedder, ungated_engine
from _langchain_fakes import replies
from memori_langchain import MemoriMiddleware, memory_tools

USER = {"configurable": {"entity_id": "dana", "thread_id": "t1"}}


def call(name: str, n: int, **args: str) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"c{n}", "type": "tool_call"}])


class CapturesFinishFirst(AgentMiddleware):
    """Runs each tool call once the captures queued so far have finished: the live run's timing, where the
    background capture of a short turn lands before the model's next tool call runs."""

    def __init__(self, memori: MemoriMiddleware) -> None:
        super().__init__()
        self.memori = memori

    def wrap_tool_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
        # the captures already queued, waited for (MemoriMiddleware.flush would queue the waiting turn first)
        assert super(MemoriMiddleware, self.memori).flush(timeout=30)
        return handler(request)


def test_a_models_recall_then_update_in_one_turn_is_not_raced_by_the_turns_capture() -> None:
    engine = ungated_engine(HashEmbedder())
    [metformin] = engine.add("dana", "User takes metformin for diabetes.", core=True)
    memori = MemoriMiddleware(engine=engine, capture=True)
    model = replies(call("recall_memory", 1, query="my medication"),
                    call("update_memory", 2, fact_id=metformin, text="User takes Ozempic for diabetes."),
                    AIMessage("Updated."))
    agent = create_agent(model, tools=memory_tools(engine), middleware=[memori, CapturesFinishFirst(memori)])
    result = agent.invoke({"messages": [HumanMessage("My doctor switched me from metformin to Ozempic.")]}, USER)
    assert memori.flush(timeout=30)
    [updated] = [m for m in result["messages"] if isinstance(m, ToolMessage) and m.name == "update_memory"]
    assert not updated.text.startswith("Error"), updated.text
    assert memori.capture_stats.completed == 1
    assert not [f for f in engine.list("dana") if "metformin" in f.content and "Ozempic" not in f.content]
    assert any("Ozempic" in f.content for f in engine.list("dana"))


def test_a_turn_whose_tool_loop_ends_is_captured_before_the_runs_end_hook() -> None:
    engine = ungated_engine(HashEmbedder())
    memori = MemoriMiddleware(engine=engine, capture=True)
    model = replies(call("recall_memory", 1, query="pets"), call("recall_memory", 2, query="dog"),
                    AIMessage("You have a dog called Rex."))
    seen: list[int] = []
    original = memori._submit

    def counting(*args, **kwargs):  # noqa: ANN002, ANN003 - records when the turn's capture is queued
        seen.append(len(model.calls))
        return original(*args, **kwargs)

    memori._submit = counting  # type: ignore[method-assign]
    agent = create_agent(model, tools=memory_tools(engine), middleware=[memori])
    agent.invoke({"messages": [HumanMessage("I have a dog called Rex. What pets do I have?")]}, USER)
    assert memori.flush(timeout=30)
    assert seen == [3]  # queued once the third call answered without tools, not at the second call
    assert [f.content for f in engine.list("dana")] == ["User has a dog called Rex."]
