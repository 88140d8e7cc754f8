"""``cancel_plan``: an agent calls off a change the user told ahead, through LangChain's ``create_agent`` (driven by
LangChain's fake tool-calling chat model) and a LlamaIndex ``FunctionAgent`` (driven by its
``MockFunctionCallingLLM``), over a real in-memory Chroma store. Before, the engine, the CLI and the MCP server could
call off a plan, but an agent on either framework had no tool for it."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.llms.mock import MockFunctionCallingLLM

from _faults import break_store
from _helpers import ungated_engine
from _langchain_fakes import replies
from memori_core import RecallEngine
from memori_core.memory_tools import MemoryToolError, MemoryTools
from memori_langchain import memory_tools
from memori_llamaindex import MemoriToolSpec

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

KPMG = "User works as an accountant at KPMG."
START = (datetime.now(timezone.utc) + timedelta(days=60)).date()
PLAN = f"User is starting a new job at Deloitte on {START.isoformat()}."
DELOITTE = "User works at Deloitte."


@pytest.fixture
def engine(hash_embedder) -> RecallEngine:
    """Ann works at KPMG and told a move to Deloitte, starting in 60 days (a plan fact and its change to come)."""
    engine = ungated_engine(hash_embedder)
    ops = MemoryTools(engine)
    ops.remember("ann", KPMG)
    ops.remember("ann", PLAN)
    return engine


def ids(engine: RecallEngine) -> dict[str, str]:
    """The user's fact ids by text; the plan under ``PLAN`` (stored with its weekday written out)."""
    known = {f.content: f.id for f in engine.list("ann", include_invalid=True)}
    known[PLAN] = next(fid for text, fid in known.items() if text.startswith("User is starting a new job"))
    return known


def jobs_after_the_start(engine: RecallEngine) -> list[str]:
    when = datetime.combine(START + timedelta(days=2), datetime.min.time(), timezone.utc)
    return sorted(f.content for f in engine.recall("Where do I work?", "ann", as_of=when) if "works" in f.content)


def test_a_langchain_agent_calls_off_a_job_told_ahead_by_the_plan_facts_id(engine):
    assert jobs_after_the_start(engine) == [DELOITTE]
    known = ids(engine)
    model = replies(
        AIMessage("", tool_calls=[{"name": "cancel_plan", "args": {"fact_id": known[PLAN]}, "id": "c1",
                                   "type": "tool_call"}]),
        AIMessage("Noted: you stay at KPMG."))
    agent = create_agent(model, memory_tools(engine))
    result = agent.invoke({"messages": [HumanMessage("I'm not taking the Deloitte job after all.")]},
                          config={"configurable": {"entity_id": "ann"}})
    (said,) = [m for m in result["messages"] if isinstance(m, ToolMessage)]
    assert said.status == "success"
    assert said.content.startswith(f"Called off fact {known[DELOITTE]}: {DELOITTE} (it was to hold from {START}")
    assert f"Fact {known[KPMG]} holds on: {KPMG}" in said.content
    assert f"Fact {known[PLAN]}, which told it, is ended too: User is starting a new job at Deloitte on " in said.content
    assert jobs_after_the_start(engine) == [KPMG]  # the job it was to end holds on past the start
    assert [f.content for f in engine.list("ann")] == [KPMG]  # the plan fact no longer says a move is coming


async def test_a_llamaindex_function_agent_calls_off_a_change_by_its_id_and_hears_when_nothing_matched(engine):
    known = ids(engine)

    def model(messages: list[ChatMessage], **kwargs: Any) -> ChatMessage:
        done = sum(m.role == MessageRole.TOOL for m in messages)
        if done < 2:  # first a plain fact (nothing to call off), then the change
            target = known[KPMG] if done == 0 else known[DELOITTE]
            call = ToolCallBlock(tool_call_id=f"c{done}", tool_name="cancel_plan", tool_kwargs={"fact_id": target})
            return ChatMessage(role=MessageRole.ASSISTANT, blocks=[call])
        return ChatMessage(role=MessageRole.ASSISTANT, content="Done.")

    spec = MemoriToolSpec(engine, "ann")
    agent = FunctionAgent(llm=MockFunctionCallingLLM(response_generator=model), tools=spec.to_tool_list())
    result = await agent.run("Forget the Deloitte move, I'm staying.")
    nothing, called = result.tool_calls
    assert nothing.tool_output.is_error
    assert "nothing matched, so nothing was called off" in nothing.tool_output.content
    assert f"fact {known[KPMG]} is no change told ahead still to come" in nothing.tool_output.content
    assert not called.tool_output.is_error
    assert called.tool_output.content.startswith(f"Called off fact {known[DELOITTE]}: {DELOITTE}")
    assert jobs_after_the_start(engine) == [KPMG]


async def test_cancel_plan_refuses_an_unknown_id_and_fails_open_on_a_broken_store(engine, caplog):
    ops, change = MemoryTools(engine), ids(engine)[DELOITTE]
    with pytest.raises(MemoryToolError, match="no remembered fact with id 'nope'"):
        await ops.acancel("ann", "nope")
    break_store(engine)
    answer = ops.cancel("ann", change)
    assert answer.startswith("Memory is unavailable right now (") and "nothing was called off" in answer
    assert "cancel failed for entity 'ann'" in caplog.text


@pytest.mark.parametrize("run", ["sync", "async"])
async def test_forget_memory_of_a_change_told_ahead_ends_the_plan_that_told_it(engine, run):
    # before: the change went and KPMG held on, but "starting at Deloitte" stayed a valid plan
    known = ids(engine)
    ops = MemoryTools(engine)
    said = ops.forget("ann", known[DELOITTE]) if run == "sync" else await ops.aforget("ann", known[DELOITTE])
    assert said == f"Forgot fact {known[DELOITTE]}."
    assert [f.content for f in engine.list("ann")] == [KPMG]
    [plan] = engine.get("ann", [known[PLAN]])
    assert plan.valid_to is not None  # ended, kept as history
