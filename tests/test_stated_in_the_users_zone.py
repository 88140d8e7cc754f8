"""The block's "Stated at" in the conversation's zone (j7 finding 7): capture writes a fact's days in the user's
calendar ("yesterday" said on Monday 21:00 in Columbus is Sunday 2026-11-08), so the block writes when it was stated
in that calendar too, "Stated at 2026-11-09 21:00 -05:00", when the turn being answered says its time; UTC
otherwise, and upstream Memori's line under ``memori_compat()``. Each surface runs in the framework's own objects
with its fake models over a real in-memory Chroma store."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.prompts import ChatPromptTemplate
from llama_index.core.base.llms.types import ChatMessage

from _helpers import HashEmbedder, ungated_engine
from _langchain_fakes import recall_model_capture_graph, replies
from memori_core import (ChromaStore, MemoriRecall, NaiveTimeWarning, RecallConfig, RecallEngine,
                         RuleBasedFactExtractor, capture_facts, format_context)
from memori_core.context import format_timestamp
from memori_core.memory_tools import MemoryTools
from memori_langchain import MemoriContextInjector, MemoriMiddleware, memori_capture_node, memory_tools
from memori_llamaindex import MemoriMemoryBlock

COLUMBUS = timezone(timedelta(hours=-5))
SAID = "2026-11-09T21:00:00-05:00"  # Monday evening in Columbus: Tuesday 02:00 in UTC
ASKED = "2026-11-10T08:30:00-05:00"  # the next morning, when Dana asks
CAT = "- User adopted a cat on Sunday 2026-11-08. Stated at 2026-11-09 21:00 -05:00"
CAT_UTC = "- User adopted a cat on Sunday 2026-11-08. Stated at 2026-11-10 02:00 UTC"
QUESTION = "When did I adopt my cat?"


def _dana() -> RecallEngine:
    """Dana's engine (every gate off) after she said "I adopted a cat yesterday." on Monday 21:00 at -05:00."""
    engine = ungated_engine(HashEmbedder())
    capture_facts(engine, "dana", [("user", "I adopted a cat yesterday.")], RuleBasedFactExtractor(), created_at=SAID)
    return engine


def _asked(said_at: object = ASKED) -> HumanMessage:
    return HumanMessage(QUESTION, additional_kwargs={"created_at": said_at})


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("- ")]


# -- the formatter ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("tz", "shown"), [
    (COLUMBUS, "2026-11-09 21:00 -05:00"),
    (timezone(timedelta(hours=5, minutes=30)), "2026-11-10 07:30 +05:30"),
    (ZoneInfo("America/New_York"), "2026-11-09 21:00 -05:00"),
    (timezone.utc, "2026-11-10 02:00 UTC"),  # no offset: the default line
    (ZoneInfo("Europe/London"), "2026-11-10 02:00 UTC"),  # London in winter is UTC
    (None, "2026-11-10 02:00 UTC"),
])
def test_a_stated_time_is_written_in_the_conversations_zone_with_its_offset(tz, shown):
    assert format_timestamp("2026-11-10T02:00:00Z", tz=tz) == shown
    assert _lines(format_context([{"content": "User adopted a cat.", "created_at": "2026-11-10T02:00:00Z"}],
                                 tz=tz)) == [f"- User adopted a cat. Stated at {shown}"]


def test_a_named_zone_writes_each_fact_in_its_own_offset_across_daylight_saving():
    facts = [{"content": "User works nights.", "created_at": "2026-10-05T13:03:00Z"},  # EDT, -04:00
             {"content": "User adopted a cat.", "created_at": "2026-11-10T02:00:00Z"}]  # EST, -05:00
    assert _lines(format_context(facts, tz=ZoneInfo("America/New_York"))) == [
        "- User works nights. Stated at 2026-10-05 09:03 -04:00",
        "- User adopted a cat. Stated at 2026-11-09 21:00 -05:00"]


def test_upstreams_line_is_utc_without_a_label_whatever_the_zone():
    assert format_timestamp("2026-11-10T02:00:00Z", zone=False, tz=COLUMBUS) == "2026-11-10 02:00"


# -- capture and the block agree on the day --------------------------------------------------------------------------


def test_the_block_dates_dana_s_cat_in_the_calendar_capture_wrote_its_day_in():
    engine = _dana()
    facts = engine.recall(QUESTION, "dana")
    assert _lines(format_context(facts, tz=COLUMBUS)) == [CAT]
    assert _lines(format_context(facts)) == [CAT_UTC]  # no zone known: UTC, as before


# -- LangChain -------------------------------------------------------------------------------------------------------


def test_middleware_writes_the_block_in_the_zone_of_the_turn_it_answers():
    engine = _dana()
    model = replies("On Sunday.", "On Sunday.", "On Sunday.")
    agent = create_agent(model, [], middleware=[MemoriMiddleware(engine=engine, entity_id="dana")])
    agent.invoke({"messages": [_asked()]})
    agent.invoke({"messages": [HumanMessage(QUESTION)]})  # a turn that says no time: UTC
    agent.invoke({"messages": [_asked("yesterday evening")]})  # one capture refuses: UTC, and the model answers
    first, plain, unreadable = (_lines(text) for text in model.system_texts())
    assert (first, plain, unreadable) == ([CAT], [CAT_UTC], [CAT_UTC])


def test_middleware_under_memori_compat_prints_upstreams_line():
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder(),
                          config=RecallConfig.memori_compat(gate="off"))
    capture_facts(engine, "dana", [("user", "I adopted a cat yesterday.")], RuleBasedFactExtractor(), created_at=SAID)
    model = replies("On Sunday.")
    create_agent(model, [], middleware=[MemoriMiddleware(engine=engine, entity_id="dana")]).invoke(
        {"messages": [_asked()]})
    assert _lines(model.system_texts()[0]) == ["- User adopted a cat on Sunday 2026-11-08. Stated at 2026-11-10 02:00"]


def test_injector_writes_the_block_in_the_zone_of_the_human_message():
    engine = _dana()
    model = replies("On Sunday.")
    prompt = ChatPromptTemplate.from_messages([("system", "You are a pet coach."), ("placeholder", "{messages}")])
    chain = prompt | MemoriContextInjector(engine, "dana") | model
    chain.invoke({"messages": [_asked()]})
    assert _lines(model.system_texts()[0]) == [CAT]


def test_graph_recall_node_writes_the_block_in_the_zone_of_the_human_message():
    engine = _dana()
    model = replies("On Sunday.")
    graph = recall_model_capture_graph(engine, model, memori_capture_node(engine, entity_id="dana"), entity_id="dana")
    graph.invoke({"messages": [_asked()]}, {"configurable": {"thread_id": "t1"}})
    assert _lines(model.system_texts()[0]) == [CAT]


# -- the memory tools ------------------------------------------------------------------------------------------------


def _tool_call(name: str, args: dict[str, object]) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"call-{name}", "type": "tool_call"}])


def _tool_answers(result: dict[str, object]) -> list[str]:
    return [str(m.content) for m in result["messages"] if isinstance(m, ToolMessage)]  # type: ignore[attr-defined]


def _memory_agent(engine: RecallEngine):
    model = replies(_tool_call("recall_memory", {"query": QUESTION}), _tool_call("list_memories", {}), "On Sunday.")
    return create_agent(model, memory_tools(engine, "dana"))


def test_an_agents_memory_tools_list_when_facts_were_stated_in_the_zone_of_the_turn_they_answer():
    recalled, listed = _tool_answers(_memory_agent(_dana()).invoke({"messages": [_asked()]}))
    assert recalled.endswith("] User adopted a cat on Sunday 2026-11-08. (stated 2026-11-09 21:00 -05:00)")
    assert listed.endswith("] User adopted a cat on Sunday 2026-11-08. (stated 2026-11-09 21:00 -05:00)")


async def test_an_async_agents_memory_tools_list_in_the_turns_zone_and_in_utc_when_it_says_no_time():
    engine = _dana()
    dated = _tool_answers(await _memory_agent(engine).ainvoke({"messages": [_asked()]}))
    plain = _tool_answers(await _memory_agent(engine).ainvoke({"messages": [HumanMessage(QUESTION)]}))
    assert all(a.endswith("(stated 2026-11-09 21:00 -05:00)") for a in dated) and len(dated) == 2
    assert all(a.endswith("(stated 2026-11-10 02:00 UTC)") for a in plain) and len(plain) == 2


def test_a_memory_tool_called_outside_an_agent_lists_in_utc():
    recall = {t.name: t for t in memory_tools(_dana(), "dana")}["recall_memory"]
    assert recall.invoke({"query": QUESTION}).endswith("(stated 2026-11-10 02:00 UTC)")


def test_the_listings_write_an_expiry_in_the_turns_zone_with_the_block_s_formatter():
    engine = ungated_engine(HashEmbedder())
    engine.add("dana", ["User is flying to Toronto on 2026-11-02 for three weeks."],
               created_at="2026-10-13T10:00:00Z", expires_at="2026-11-03T11:00:00Z")
    listed = MemoryTools(engine).list("dana", tz=COLUMBUS)
    stated, expired = (format_timestamp(t, tz=COLUMBUS) for t in ("2026-10-13T10:00:00Z", "2026-11-03T11:00:00Z"))
    assert listed.endswith(f"(stated {stated}; expired {expired}, no longer current)")
    assert (stated, expired) == ("2026-10-13 05:00 -05:00", "2026-11-03 06:00 -05:00")
    # what memory holds leaves the expired trip out, and writes the times of what holds in the turn's zone too
    engine.add("dana", ["User lives in Columbus."], created_at="2026-10-13T10:00:00Z")
    held = MemoryTools(engine).recall("dana", "What do you know about me?", tz=COLUMBUS)
    assert held.endswith(f"User lives in Columbus. (stated {stated})") and "Toronto" not in held


# -- LlamaIndex ------------------------------------------------------------------------------------------------------


async def test_llamaindex_memory_block_writes_its_lines_in_the_zone_of_the_user_message():
    engine = _dana()
    block = MemoriMemoryBlock(engine=engine, entity_id="dana")
    dated = await block.aget([ChatMessage(role="user", content=QUESTION, additional_kwargs={"created_at": ASKED})])
    plain = await block.aget([ChatMessage(role="user", content=QUESTION)])
    assert (_lines(dated), _lines(plain)) == ([CAT], [CAT_UTC])


# -- provider SDKs ---------------------------------------------------------------------------------------------------


async def test_memori_recall_writes_the_block_in_the_zone_of_said_at():
    engine = _dana()
    memory = MemoriRecall(engine, entity_id="dana", provider="openai")
    kwargs = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": QUESTION}]}
    assert _lines(memory.apply(kwargs, said_at=ASKED)["messages"][0]["content"]) == [CAT]
    asked = datetime(2026, 11, 10, 8, 30, tzinfo=ZoneInfo("America/Chicago"))  # a zone: its offset then, -06:00
    assert _lines((await memory.aapply(kwargs, said_at=asked))["messages"][0]["content"]) == [
        "- User adopted a cat on Sunday 2026-11-08. Stated at 2026-11-09 20:00 -06:00"]
    assert _lines(memory.apply(kwargs)["messages"][0]["content"]) == [CAT_UTC]
    with pytest.warns(NaiveTimeWarning, match="^said_at has no time zone"):  # no offset: UTC, as without one
        assert _lines(memory.apply(kwargs, said_at="2026-11-10T08:30:00")["messages"][0]["content"]) == [CAT_UTC]
    with pytest.raises(ValueError, match="^said_at 'tuesday' is not an ISO 8601"):
        memory.apply(kwargs, said_at="tuesday")
