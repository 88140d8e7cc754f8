"""An agent's ``remember`` and capture of the same turn store the fact once (j7 finding 19): "remember that my band
rehearses every tuesday at 7" with a ``remember("User's band rehearses every Tuesday at 7pm.")`` call stored both
wordings, because in a live run the background capture and the tool call ran at once and neither saw the other's
fact. ``MemoriMiddleware`` now captures a turn whose answer calls tools once the tools have run (the agent's
wording stays), and capture and a model's write of one user take turns at their last look and write, so whichever
comes second sees the other's fact (the first stays) on every surface. Real agents (``create_agent``, LlamaIndex's
``ReActAgent``) driven by the frameworks' fake models, over a real in-memory Chroma store; each test pins the
interleaving of the live run: capture reads the user's facts before the tool writes, or writes while it plans."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import tool
from llama_index.core.agent.workflow import ReActAgent
from llama_index.core.memory import Memory
from llama_index.core.tools import FunctionTool

from _capture import RULES
from _helpers import HashEmbedder, ungated_engine
from _langchain_fakes import replies
from _llamaindex_fakes import FixedLLM
from memori_core import RecallEngine, RuleBasedFactExtractor, capture_facts
from memori_core.extraction.same_statement import same_fact
from memori_core.memory_tools import MemoryTools
from memori_langchain import MemoriMiddleware, memory_tools
from memori_llamaindex import MemoriMemoryBlock, MemoriToolSpec

SAID = "remember that my band rehearses every tuesday at 7"
AGENTS = "User's band rehearses every Tuesday at 7pm."  # what a model writes down
USERS = "User's band rehearses every tuesday at 7."  # what capture makes of the user's words
WAIT = 10.0


def facts_of(engine: RecallEngine, user: str = "zoe") -> list[str]:
    return sorted(f.content for f in engine.list(user))


def remember(text: str, call: str = "c1") -> AIMessage:
    return AIMessage("", tool_calls=[{"name": "remember", "args": {"text": text}, "id": call, "type": "tool_call"}])


class ReadsBeforeTheToolWrites:
    """The shipped rules, pinned to the live run's interleaving: once capture has read the user's stored facts (it
    shows them to the extractor), ``entered`` is set, and the turn is read only once the agent's tool has written
    (``written``, or after :data:`WAIT` s): the tool wrote while capture was reading the turn."""

    uses_existing_facts = True

    def __init__(self) -> None:
        self.entered, self.written = threading.Event(), threading.Event()

    def extract(self, messages: Any, existing: Any) -> Any:
        self.entered.set()
        self.written.wait(WAIT)
        return RULES.extract(messages, existing)


class ToolsAfterCaptureRead(AgentMiddleware):
    """Runs each tool call once the turn's capture, when one is queued, has read the stored facts: the live run's
    order, with capture in the background and the tool in the agent's loop."""

    def __init__(self, memori: MemoriMiddleware, extractor: ReadsBeforeTheToolWrites) -> None:
        super().__init__()
        self.memori, self.extractor = memori, extractor

    def wrap_tool_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
        if self.memori.pending_captures:
            assert self.extractor.entered.wait(WAIT)
        try:
            return handler(request)
        finally:
            self.extractor.written.set()

    async def awrap_tool_call(self, request: Any, handler: Any) -> Any:
        if self.memori.pending_captures:
            assert await asyncio.to_thread(self.extractor.entered.wait, WAIT)
        try:
            return await handler(request)
        finally:
            self.extractor.written.set()


def agent_that_remembers(engine: RecallEngine, *replies_: AIMessage, tools: tuple[Any, ...] = ()) -> tuple[Any, Any]:
    """A ``create_agent`` agent with the memory tools and a capturing ``MemoriMiddleware`` whose capture reads the
    stored facts before the agent's tools write; returns (agent, middleware) and the model as ``agent.model``."""
    extractor = ReadsBeforeTheToolWrites()
    memori = MemoriMiddleware(engine=engine, capture=True, extractor=extractor)
    model = replies(*replies_)
    agent = create_agent(model, tools=[*memory_tools(engine), *tools],
                         middleware=[memori, ToolsAfterCaptureRead(memori, extractor)])
    agent.model = model  # type: ignore[attr-defined]
    return agent, memori


USER = {"configurable": {"entity_id": "zoe", "thread_id": "t1"}}


# -- the create_agent middleware ------------------------------------------------------------------------------------


def test_an_agents_remember_and_capture_of_its_turn_store_the_fact_once_in_the_agents_words() -> None:
    engine = ungated_engine(HashEmbedder())
    agent, memori = agent_that_remembers(engine, remember(AGENTS), AIMessage("Noted."), AIMessage("Tuesdays at 7pm."))
    result = agent.invoke({"messages": [HumanMessage(SAID)]}, USER)
    assert result["messages"][2].content.startswith("Remembered as fact")
    assert memori.flush(timeout=WAIT)
    assert facts_of(engine) == [AGENTS]
    assert memori.capture_stats.completed == 1  # the turn was captured, and found the fact stored
    agent.invoke({"messages": [HumanMessage("When does my band rehearse?")]}, USER)
    assert agent.model.system_texts()[-1].count("band rehearses") == 1  # type: ignore[attr-defined]


async def test_an_async_agents_remember_and_capture_store_the_fact_once_in_the_agents_words() -> None:
    engine = ungated_engine(HashEmbedder())
    agent, memori = agent_that_remembers(engine, remember(AGENTS), AIMessage("Noted."))
    await agent.ainvoke({"messages": [HumanMessage(SAID)]}, USER)
    assert await memori.aflush(timeout=WAIT)
    assert facts_of(engine) == [AGENTS]


def test_the_middleware_queues_a_turns_capture_only_once_its_tools_have_run() -> None:
    seen: list[int] = []

    @tool
    def band_calendar(day: str) -> str:
        """The band's calendar for a day."""
        seen.append(memori.capture_stats.submitted)
        return "Rehearsal at 7pm."

    engine = ungated_engine(HashEmbedder())
    memori = MemoriMiddleware(engine=engine, capture=True)
    call = AIMessage("", tool_calls=[{"name": "band_calendar", "args": {"day": "tue"}, "id": "c1", "type": "tool_call"}])
    agent = create_agent(replies(call, AIMessage("At 7pm."), AIMessage("ok")), tools=[band_calendar],
                         middleware=[memori])
    agent.invoke({"messages": [HumanMessage("I play bass in a band. When do we rehearse?")]}, USER)
    assert seen == [0] and memori.capture_stats.submitted == 1  # queued by the call after the tool
    agent.invoke({"messages": [HumanMessage("Thanks!")]}, USER)  # an answer without tools: queued at once
    assert memori.flush(timeout=WAIT) and memori.capture_stats.submitted == 2
    assert facts_of(engine) == ["User plays bass in a band."]


def test_a_diet_capture_hears_as_a_change_and_the_agent_remembers_as_a_state_is_stored_once() -> None:
    # j26 finding 5: "User has gone vegetarian in November 2026." beside "User is vegetarian.", both core, both
    # injected on every turn
    engine = ungated_engine(HashEmbedder())
    agent, memori = agent_that_remembers(engine, remember("User is vegetarian."), AIMessage("Great."))
    said = HumanMessage("I've gone vegetarian this month.", additional_kwargs={"created_at": "2026-11-09T09:00:00+00:00"})
    agent.invoke({"messages": [said]}, USER)
    assert memori.flush(timeout=WAIT)
    assert facts_of(engine) == ["User is vegetarian."]


def test_remember_of_the_state_a_captured_change_reached_answers_already_remembered() -> None:
    engine = ungated_engine(HashEmbedder())
    [became] = engine.add("zoe", "User has gone vegetarian in November 2026.")
    answer = MemoryTools(engine).remember("zoe", "User is vegetarian.")
    assert became in answer and answer.startswith("Already remembered")
    assert facts_of(engine) == ["User has gone vegetarian in November 2026."]


@pytest.mark.parametrize("went, state, same", [
    ("User has gone vegetarian in November 2026.", "User is vegetarian.", True),
    ("User became a nurse in 2019.", "User is a nurse.", True),
    ("User has gone to Paris.", "User is in Paris.", False),  # a trip, no state
    ("User went vegan last month.", "User is vegetarian.", False),  # another diet
    ("User's sister went vegan.", "User is vegan.", False),  # someone else's
    ("User went back home.", "User is back home.", False),  # a way home, no state
    # rev39d: an outing, a trip abroad or downtown, an age a year ago are no state held now
    ("User went hiking yesterday.", "User is hiking.", False),
    ("User went overseas last year.", "User is overseas.", False),
    ("User went downtown yesterday.", "User is downtown.", False),
    ("User turned 30 last year.", "User is 30.", False),
])
def test_same_fact_reads_a_state_reached_as_the_state_and_nothing_else(went: str, state: str, same: bool) -> None:
    class Stored:
        def __init__(self, content: str) -> None:
            self.content = content

    assert (same_fact(went, [Stored(state)]) is not None, same_fact(state, [Stored(went)]) is not None) == (same, same)


def test_a_different_fact_the_agent_remembers_is_kept_beside_what_capture_heard() -> None:
    engine = ungated_engine(HashEmbedder())
    agent, memori = agent_that_remembers(engine, remember("User's alarm is at 7pm."), AIMessage("Noted."))
    agent.invoke({"messages": [HumanMessage("my alarm is at 7am. remember that i play bass")]}, USER)
    assert memori.flush(timeout=WAIT)
    assert facts_of(engine) == ["User plays bass.", "User's alarm is at 7am.", "User's alarm is at 7pm."]


def test_a_turn_whose_tool_raised_is_captured_by_flush() -> None:
    @tool
    def band_calendar(day: str) -> str:
        """The band's calendar for a day."""
        raise ConnectionError("calendar down")

    engine = ungated_engine(HashEmbedder())
    memori = MemoriMiddleware(engine=engine, capture=True)
    call = AIMessage("", tool_calls=[{"name": "band_calendar", "args": {"day": "tue"}, "id": "c1", "type": "tool_call"}])
    agent = create_agent(replies(call, AIMessage("ok")), tools=[band_calendar], middleware=[memori])
    with pytest.raises(ConnectionError):
        agent.invoke({"messages": [HumanMessage("I play bass in a band.")]}, USER)
    assert memori.flush(timeout=WAIT)
    assert facts_of(engine) == ["User plays bass in a band."]


def test_a_run_that_ends_with_its_tool_captures_the_turn_and_marks_it_in_the_state() -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    @tool(return_direct=True)
    def book_rehearsal_room(day: str) -> str:
        """Book the rehearsal room; its answer goes to the user as it is."""
        return "Booked."

    engine = ungated_engine(HashEmbedder())
    memori = MemoriMiddleware(engine=engine, capture=True)
    call = AIMessage("", tool_calls=[{"name": "book_rehearsal_room", "args": {"day": "tue"}, "id": "c1",
                                      "type": "tool_call"}])
    agent = create_agent(replies(call), tools=[book_rehearsal_room], middleware=[memori], checkpointer=InMemorySaver())
    result = agent.invoke({"messages": [HumanMessage("I play bass in a band.")]}, USER)
    assert result["messages"][-1].content == "Booked."  # no model call after the tool
    assert memori.flush(timeout=WAIT) and memori.capture_stats.completed == 1
    assert facts_of(engine) == ["User plays bass in a band."]
    assert result.get("memori_captured")  # marked: another process resuming the thread does not capture it again


# -- any surface: capture and a model's write take turns ------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # LlamaIndex's own, from its agent workflow
async def test_a_llamaindex_agents_remember_and_its_memory_blocks_capture_store_the_fact_once(
        close_chat_stores: None) -> None:
    engine = ungated_engine(HashEmbedder())
    extractor = ReadsBeforeTheToolWrites()
    block = MemoriMemoryBlock(engine=engine, entity_id="zoe", capture=True, extractor=extractor)
    spec = {t.metadata.name: t for t in MemoriToolSpec(engine, "zoe").to_tool_list()}

    async def remember_tool(text: str) -> str:
        """Remember a fact about the user."""
        assert await asyncio.to_thread(extractor.entered.wait, WAIT)  # capture read the facts first (at aget)
        try:
            return str(await spec["remember"].acall(text=text))
        finally:
            extractor.written.set()

    llm = FixedLLM(script=[f"Thought: I need a tool.\nAction: remember\nAction Input: {json.dumps({'text': AGENTS})}",
                           "Thought: I can answer without using any more tools.\nAnswer: Noted."])
    agent = ReActAgent(llm=llm, tools=[FunctionTool.from_defaults(async_fn=remember_tool, name="remember")])
    await agent.run(SAID, memory=Memory.from_defaults(session_id="s1", memory_blocks=[block]))
    assert await block.aflush(timeout=WAIT)
    assert facts_of(engine) == [AGENTS]  # capture read the turn after the agent wrote: the agent's fact stays


def test_a_remember_while_capture_writes_the_same_fact_waits_and_names_the_captured_one() -> None:
    writing, release = threading.Event(), threading.Event()

    class HeldWhileCaptureEmbeds(HashEmbedder):  # capture's write is under way (embedding its fact) until released
        def embed_documents(self, texts: list[str]) -> Any:
            if USERS in texts:
                writing.set()
                assert release.wait(WAIT)
            return super().embed_documents(texts)

    engine = ungated_engine(HeldWhileCaptureEmbeds())
    capture = threading.Thread(target=capture_facts, args=(engine, "zoe", [("user", SAID)], RuleBasedFactExtractor()))
    capture.start()
    assert writing.wait(WAIT)
    answer: list[str] = []
    remembering = threading.Thread(target=lambda: answer.append(MemoryTools(engine).remember("zoe", AGENTS)))
    remembering.start()
    remembering.join(0.5)  # it waits for capture's write rather than plan without it
    release.set()
    capture.join(WAIT)
    remembering.join(WAIT)
    assert facts_of(engine) == [USERS]  # the first written stays
    (fact,) = engine.list("zoe")
    assert len(answer) == 1 and answer[0].startswith(f"Already remembered as fact {fact.id}: {USERS}")
