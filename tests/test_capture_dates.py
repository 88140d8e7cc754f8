"""A captured turn is dated when it was said: ``capture_facts(created_at=...)``, a queued capture's submit time,
and the ``created_at`` a LangChain or LlamaIndex message carries. That time is the facts' ``created_at`` and the
"now" both extractors read "on Thursday" against; the LLM extractor's prompt says it, and the model's
``expires_at`` becomes the fact's expiry. Real Chroma (in memory), real LangChain agents / LangGraph graphs with
LangChain's fake chat models, real llama_index ``Memory`` objects."""

from __future__ import annotations

import json
import logging
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.memory import Memory

from _extractors import Gate
from _langchain_fakes import recall_model_capture_graph, replies
from _llamaindex_fakes import FixedLLM
from memori_core import NaiveTimeWarning, RecallEngine, RuleBasedFactExtractor, capture_facts
from memori_core.capture import BackgroundCapture, said_during, said_during_turn
from memori_core.extraction import (ExtractedFact, Message, build_extraction_prompt, parse_extraction_reply,
                                    turn_said_at)
from memori_core.validate import iso_to_ts
from memori_langchain import LLMFactExtractor, MemoriMiddleware, memori_capture_node
from memori_llamaindex import LLMFactExtractor as LlamaLLMFactExtractor
from memori_llamaindex import MemoriMemoryBlock

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning:inspect")]

MONDAY = datetime(2026, 1, 12, 9, 30, tzinfo=timezone.utc)
"""When the turns of these tests were said: a Monday morning, in UTC."""
TOKYO_TUESDAY = datetime(2026, 1, 13, 7, 0, tzinfo=timezone(timedelta(hours=9)))
"""Tuesday 07:00 in Tokyo: still Monday 22:00 in UTC."""


def _only(engine: RecallEngine, entity: str) -> Any:
    [fact] = engine.list(entity, limit=100, include_invalid=True)
    return fact


def _lived_in(engine: RecallEngine, entity: str) -> dict[str, Any]:
    return {f.content: f for f in engine.list(entity, limit=100, include_invalid=True)}


# -- capture_facts(created_at=...) -------------------------------------------------------------------------


def test_a_dated_turn_stores_its_time_and_reads_thursday_from_that_day(ungated: RecallEngine) -> None:
    capture_facts(ungated, "ann", [("user", "My exam is on Thursday")], RuleBasedFactExtractor(), created_at=MONDAY)
    fact = _only(ungated, "ann")
    assert fact.content == "User's exam is on Thursday 2026-01-15."
    assert iso_to_ts(fact.created_at) == MONDAY.timestamp()
    # the day has ended everywhere (the zone is not known): 12:00 UTC the day after
    assert iso_to_ts(fact.expires_at) == datetime(2026, 1, 16, 12, tzinfo=timezone.utc).timestamp()


def test_an_iso_string_with_an_offset_is_read_in_that_offset(ungated: RecallEngine) -> None:
    # 07:00 Tuesday in Tokyo is Monday in UTC: "tomorrow" is Wednesday where the user is
    capture_facts(ungated, "ann", [("user", "I have a dentist appointment tomorrow at 9am")],
                  RuleBasedFactExtractor(), created_at="2026-01-13T07:00:00+09:00")
    fact = _only(ungated, "ann")
    assert fact.content == "User has a dentist appointment on Wednesday 2026-01-14 at 9am."
    assert iso_to_ts(fact.created_at) == TOKYO_TUESDAY.timestamp()


def test_the_extractors_time_zone_wins_over_the_offset_of_the_turns_time(ungated: RecallEngine) -> None:
    capture_facts(ungated, "ann", [("user", "I have a dentist appointment tomorrow at 9am")],
                  RuleBasedFactExtractor(time_zone="America/New_York"), created_at=TOKYO_TUESDAY)
    assert _only(ungated, "ann").content == "User has a dentist appointment on Tuesday 2026-01-13 at 9am."


def test_a_message_carries_its_own_time_when_capture_is_given_none(ungated: RecallEngine) -> None:
    turn = [Message("assistant", "How was the weekend?"), Message("user", "My exam is on Thursday", MONDAY)]
    capture_facts(ungated, "ann", turn, RuleBasedFactExtractor())
    fact = _only(ungated, "ann")
    assert fact.content == "User's exam is on Thursday 2026-01-15."
    assert iso_to_ts(fact.created_at) == MONDAY.timestamp()


def test_an_imported_past_appointment_is_kept_expired_as_history(ungated: RecallEngine) -> None:
    capture_facts(ungated, "ann", [("user", "My exam is on Thursday")], RuleBasedFactExtractor(), created_at=MONDAY)
    assert ungated.recall("When is my exam?", "ann") == []  # over: never offered as a plan
    [fact] = ungated.recall("When is my exam?", "ann", as_of=MONDAY + timedelta(days=1))
    assert fact.content == "User's exam is on Thursday 2026-01-15."


def test_a_turn_said_after_its_appointment_stores_nothing(ungated: RecallEngine) -> None:
    extractor = RuleBasedFactExtractor()
    [fact] = extractor.extract([Message("user", "My exam is on Thursday", MONDAY)])
    # the appointment's expiry is before this turn's time: it was never valid then
    assert capture_facts(ungated, "ann", [("user", "x")], _Fixed([fact]), created_at=MONDAY + timedelta(days=7)) == []
    assert ungated.count("ann") == 0


class _Fixed:
    """An extractor answering fixed facts (the protocol: ``extract`` and ``uses_existing_facts``)."""

    uses_existing_facts = True

    def __init__(self, facts: list[ExtractedFact]) -> None:
        self.facts = facts
        self.seen: list[list[Message]] = []

    def extract(self, messages: Any, existing: Any = ()) -> list[ExtractedFact]:
        self.seen.append(list(messages))
        return [ExtractedFact(f.text, tuple(e.id for e in existing), f.core, f.expires_at) for f in self.facts]


def test_a_dated_turn_ends_the_fact_it_replaces_at_its_own_time(ungated: RecallEngine) -> None:
    ungated.add("ann", ["User lives in Lisbon."], created_at=MONDAY - timedelta(days=30))
    capture_facts(ungated, "ann", [("user", "I moved to Porto")], RuleBasedFactExtractor(), created_at=MONDAY)
    facts = _lived_in(ungated, "ann")
    assert facts["User lives in Porto."].valid_to is None
    assert iso_to_ts(facts["User lives in Lisbon."].valid_to) == MONDAY.timestamp()


def test_a_turn_captured_late_never_ends_a_fact_stated_after_it_but_lands_before_it(ungated: RecallEngine) -> None:
    [lisbon] = ungated.add("ann", ["User lives in Lisbon."])  # stated now
    extractor = _Fixed([ExtractedFact("User lives in Porto.")])  # would supersede every fact it is shown
    capture_facts(ungated, "ann", [("user", "I live in Porto")], extractor, created_at=MONDAY - timedelta(days=30))
    facts = _lived_in(ungated, "ann")
    assert facts["User lives in Lisbon."].valid_to is None  # the fact stated after the turn stays valid...
    porto = facts["User lives in Porto."]  # ...and the turn's fact was valid until it began
    assert (porto.valid_to, porto.superseded_by) == (facts["User lives in Lisbon."].created_at, lisbon)
    assert [m.created_at for m in extractor.seen[0]] == [MONDAY - timedelta(days=30)]


@pytest.mark.parametrize(("value", "error", "says"), [
    ("last monday", ValueError, "not an ISO 8601"),
    (1768210200, TypeError, "a datetime or ISO 8601 str"),
    (datetime.now(timezone.utc) + timedelta(days=3), ValueError, "in the future"),
])
def test_a_bad_turn_time_is_refused_naming_created_at(
    ungated: RecallEngine, value: Any, error: type[Exception], says: str
) -> None:
    with pytest.raises(error, match=f"^created_at .*{says}|^created_at must.*{says}"):
        capture_facts(ungated, "ann", [("user", "I'm vegan")], RuleBasedFactExtractor(), created_at=value)
    assert ungated.count("ann") == 0


@pytest.mark.parametrize("naive", [datetime(2026, 1, 12, 9, 30), "2026-01-12T09:30:00"])
def test_a_turn_time_without_a_zone_is_read_as_utc_with_a_warning_naming_created_at(
    ungated: RecallEngine, naive: Any
) -> None:
    with pytest.warns(NaiveTimeWarning, match="^created_at has no time zone, so it is read as UTC"):
        capture_facts(ungated, "ann", [("user", "My exam is on Thursday")], RuleBasedFactExtractor(),
                      created_at=naive)
    fact = _only(ungated, "ann")  # stored, dated and read in UTC, as a turn given no time at all
    assert (fact.content, iso_to_ts(fact.created_at)) == ("User's exam is on Thursday 2026-01-15.", MONDAY.timestamp())


def test_a_message_with_a_naive_time_is_read_as_utc_with_a_warning_naming_it() -> None:
    with pytest.warns(NaiveTimeWarning, match="^Message created_at has no time zone"):
        message = Message("user", "I'm vegan", datetime(2026, 1, 12, 9, 30))
    assert message.created_at == MONDAY


# -- a queued capture ------------------------------------------------------------------------------------


def test_a_queued_capture_is_dated_when_it_was_submitted_not_when_it_ran(ungated: RecallEngine) -> None:
    gate = Gate()
    captures = BackgroundCapture("test", logging.getLogger("test"))
    before = datetime.now(timezone.utc)
    assert captures.submit(ungated, "ann", [("user", "I'm vegetarian")], gate)
    submitted = datetime.now(timezone.utc)
    assert gate.entered.wait(30)
    opened = datetime.now(timezone.utc)  # the worker writes after this
    gate.opened.set()
    assert captures.flush(30)
    stamp = iso_to_ts(_only(ungated, "ann").created_at)
    assert before.timestamp() <= stamp <= submitted.timestamp() <= opened.timestamp()


def test_a_queued_capture_keeps_the_time_it_was_given(ungated: RecallEngine) -> None:
    captures = BackgroundCapture("test", logging.getLogger("test"))
    assert captures.submit(ungated, "ann", [("user", "My exam is on Thursday")], RuleBasedFactExtractor(),
                           created_at=MONDAY)
    assert captures.flush(30)
    fact = _only(ungated, "ann")
    assert fact.content == "User's exam is on Thursday 2026-01-15."
    assert iso_to_ts(fact.created_at) == MONDAY.timestamp()


def test_submit_refuses_an_unreadable_time_before_queueing_anything(ungated: RecallEngine) -> None:
    captures = BackgroundCapture("test", logging.getLogger("test"))
    with pytest.raises(ValueError, match="created_at 'last monday' is not an ISO 8601"):
        captures.submit(ungated, "ann", [("user", "I'm vegan")], RuleBasedFactExtractor(), created_at="last monday")
    assert captures.stats.submitted == 0


def test_submit_takes_a_naive_time_as_utc_with_a_warning(ungated: RecallEngine) -> None:
    captures = BackgroundCapture("test", logging.getLogger("test"))
    with pytest.warns(NaiveTimeWarning, match="^created_at has no time zone"):
        assert captures.submit(ungated, "ann", [("user", "I'm vegan")], RuleBasedFactExtractor(),
                               created_at=datetime(2026, 1, 12, 9, 30))
    assert captures.flush(30)
    assert iso_to_ts(_only(ungated, "ann").created_at) == MONDAY.timestamp()


# -- the LLM prompt and its expiry ---------------------------------------------------------------------------


def test_the_prompt_says_the_turns_weekday_date_and_zone() -> None:
    prompt = build_extraction_prompt([Message("user", "My exam is on Thursday", TOKYO_TUESDAY)])
    assert "was said on Tuesday 2026-01-13 at 07:00 (UTC+09:00)" in prompt
    assert '"tomorrow" is Wednesday 2026-01-14' in prompt
    assert '"expires_at"' in prompt
    # a prompt echoed back is still no facts
    assert parse_extraction_reply(prompt) == []


def test_the_prompt_of_an_undated_turn_says_today() -> None:
    prompt = build_extraction_prompt([("user", "My exam is on Thursday")], now=MONDAY)
    assert "was said on Monday 2026-01-12 at 09:30 (UTC)" in prompt


def test_a_replied_date_expires_when_that_day_has_ended_everywhere() -> None:
    reply = json.dumps([{"fact": "User's exam is on Thursday 2026-01-15.", "expires_at": "2026-01-15"}])
    [fact] = parse_extraction_reply(reply, now=MONDAY)
    assert fact.expires_at == datetime(2026, 1, 16, 12, tzinfo=timezone.utc)


def test_a_replied_time_without_a_zone_is_read_in_the_turns_zone() -> None:
    reply = json.dumps([{"fact": "User has a dentist appointment.", "expires": "2026-01-14T10:00"},
                        {"fact": "User has a flight.", "expires_at": "2026-01-14T10:00:00Z"}])
    dentist, flight = parse_extraction_reply(reply, now=TOKYO_TUESDAY)
    assert dentist.expires_at == datetime(2026, 1, 14, 1, tzinfo=timezone.utc)
    assert flight.expires_at == datetime(2026, 1, 14, 10, tzinfo=timezone.utc)


def test_an_unreadable_expiry_is_dropped_with_a_warning_and_the_fact_kept(caplog: pytest.LogCaptureFixture) -> None:
    reply = json.dumps([{"fact": "User is in Rome.", "expires_at": "next week sometime"},
                        {"fact": "User has a cat.", "expires_at": 42},
                        {"fact": "User is vegan.", "expires_at": None},
                        {"fact": "User has a dog.", "expires_at": "never"}])
    with caplog.at_level(logging.WARNING):
        facts = parse_extraction_reply(reply, now=MONDAY)
    assert [(f.text, f.expires_at) for f in facts] == [
        ("User is in Rome.", None), ("User has a cat.", None), ("User is vegan.", None), ("User has a dog.", None)]
    warned = [r.getMessage() for r in caplog.records]
    assert len(warned) == 2 and "next week sometime" in warned[0] and "42" in warned[1]


def test_a_fact_said_twice_in_a_reply_keeps_the_longer_life() -> None:
    reply = json.dumps([{"fact": "User is in Rome.", "expires_at": "2026-01-14"},
                        {"fact": "User is in Rome.", "expires_at": "2026-01-20"},
                        {"fact": "User has a cat.", "expires_at": "2026-01-14"},
                        {"fact": "User has a cat."}])
    rome, cat = parse_extraction_reply(reply, now=MONDAY)
    assert rome.expires_at == datetime(2026, 1, 21, 12, tzinfo=timezone.utc) and cat.expires_at is None


# -- LangChain: the middleware, the graph node, LLMFactExtractor ------------------------------------------------


def test_the_agent_dates_a_turn_from_its_message_and_stores_the_models_expiry(ungated: RecallEngine) -> None:
    llm = replies(json.dumps([{"fact": "User has a dentist appointment on Thursday 2026-01-15.", "supersedes": [],
                               "expires_at": "2026-01-15"}]))
    middleware = MemoriMiddleware(engine=ungated, entity_id="ann", capture=True, extractor=LLMFactExtractor(llm))
    agent = create_agent(replies("Good luck!"), [], middleware=[middleware], checkpointer=InMemorySaver())
    said = HumanMessage("I've got a dentist appointment on Thursday", additional_kwargs={"created_at": MONDAY})
    agent.invoke({"messages": [said]}, {"configurable": {"thread_id": "t1"}})
    assert middleware.flush()
    [prompt] = llm.prompts
    assert "was said on Monday 2026-01-12 at 09:30 (UTC)" in prompt
    fact = _only(ungated, "ann")
    assert fact.content == "User has a dentist appointment on Thursday 2026-01-15."
    assert iso_to_ts(fact.created_at) == MONDAY.timestamp()
    assert iso_to_ts(fact.expires_at) == datetime(2026, 1, 16, 12, tzinfo=timezone.utc).timestamp()


def test_the_agent_reads_a_time_in_response_metadata_written_as_iso_text(ungated: RecallEngine) -> None:
    middleware = MemoriMiddleware(engine=ungated, entity_id="ann", capture=True)
    agent = create_agent(replies("Good luck!"), [], middleware=[middleware])
    said = HumanMessage("My exam is on Thursday", response_metadata={"created_at": "2026-01-12T09:30:00Z"})
    agent.invoke({"messages": [said]})
    assert middleware.flush()
    fact = _only(ungated, "ann")
    assert (fact.content, iso_to_ts(fact.created_at)) == ("User's exam is on Thursday 2026-01-15.", MONDAY.timestamp())


def test_an_unreadable_message_time_fails_only_that_capture_with_a_warning_naming_it(
    ungated: RecallEngine, caplog: pytest.LogCaptureFixture
) -> None:
    middleware = MemoriMiddleware(engine=ungated, entity_id="ann", capture=True)
    agent = create_agent(replies("Noted!", "Noted!"), [], middleware=[middleware])
    with caplog.at_level(logging.WARNING):
        state = agent.invoke({"messages": [HumanMessage("I'm vegan", additional_kwargs={"created_at": "monday"})]})
    assert state["messages"][-1].content == "Noted!"  # the answer is unaffected
    result = middleware.flush()
    assert result.failed == 1 and ungated.count("ann") == 0
    [warning] = [r.getMessage() for r in caplog.records if r.name.startswith("memori")]
    assert 'additional_kwargs["created_at"]' in warning and "not an ISO 8601" in warning
    agent.invoke({"messages": [HumanMessage("I'm vegan")]})  # the next turn is captured as usual
    assert middleware.flush().completed == 1 and ungated.count("ann") == 1


@pytest.mark.parametrize("naive", [datetime(2026, 1, 12, 9, 30), "2026-01-12T09:30:00"])
def test_a_naive_message_time_is_captured_as_utc_with_a_warning_naming_the_field(
    ungated: RecallEngine, naive: Any
) -> None:
    middleware = MemoriMiddleware(engine=ungated, entity_id="ann", capture=True, strict=True)
    agent = create_agent(replies("Good luck!"), [], middleware=[middleware])
    with pytest.warns(NaiveTimeWarning, match=r'additional_kwargs\["created_at"\] has no time zone'):
        agent.invoke({"messages": [HumanMessage("My exam is on Thursday", additional_kwargs={"created_at": naive})]})
        assert middleware.flush().completed == 1  # strict: a refused time would raise here
    fact = _only(ungated, "ann")
    assert (fact.content, iso_to_ts(fact.created_at)) == ("User's exam is on Thursday 2026-01-15.", MONDAY.timestamp())


def test_the_graph_capture_node_dates_a_turn_from_its_checkpointed_message(ungated: RecallEngine) -> None:
    capture = memori_capture_node(ungated, entity_id="ann")
    graph = recall_model_capture_graph(ungated, replies("ok", "ok"), capture)
    cfg = {"configurable": {"thread_id": "g-1"}}
    graph.invoke({"messages": [HumanMessage("My exam is on Thursday", id="m1",
                                            additional_kwargs={"created_at": MONDAY})]}, cfg)
    assert capture.flush()
    fact = _only(ungated, "ann")
    assert (fact.content, iso_to_ts(fact.created_at)) == ("User's exam is on Thursday 2026-01-15.", MONDAY.timestamp())
    # the message came back from the checkpoint on the next turn: still dated, not captured twice
    graph.invoke({"messages": [HumanMessage("I'm vegan", id="m2", additional_kwargs={
        "created_at": MONDAY + timedelta(hours=1)})]}, cfg)
    assert capture.flush()
    dated = {f.content: iso_to_ts(f.created_at) for f in ungated.list("ann", limit=10, include_invalid=True)}
    assert dated == {"User's exam is on Thursday 2026-01-15.": MONDAY.timestamp(),
                     "User is vegan.": (MONDAY + timedelta(hours=1)).timestamp()}


def test_the_langchain_extractor_reads_the_time_of_a_langchain_message() -> None:
    llm = replies("[]", "[]")
    LLMFactExtractor(llm).extract([HumanMessage("My exam is on Thursday",
                                                additional_kwargs={"created_at": TOKYO_TUESDAY.isoformat()})])
    assert "was said on Tuesday 2026-01-13 at 07:00 (UTC+09:00)" in llm.prompts[0]
    with pytest.raises(ValueError, match=r"human message's additional_kwargs\[\"created_at\"\] 'monday' is not"):
        LLMFactExtractor(llm).extract([HumanMessage("hi", additional_kwargs={"created_at": "monday"})])
    with pytest.warns(NaiveTimeWarning, match=r"human message's additional_kwargs\[\"created_at\"\] has no time zone"):
        LLMFactExtractor(llm).extract([HumanMessage("hi", additional_kwargs={"created_at": "2026-01-13T07:00"})])
    assert "was said on Tuesday 2026-01-13 at 07:00 (UTC)" in llm.prompts[-1]


# -- LlamaIndex: the memory block and LLMFactExtractor -------------------------------------------------------------


@pytest.mark.usefixtures("close_chat_stores")
async def test_the_memory_block_dates_a_turn_from_its_chat_message(ungated: RecallEngine) -> None:
    block = MemoriMemoryBlock(engine=ungated, entity_id="ivy", capture=True)
    memory = Memory.from_defaults(session_id="chat-1", memory_blocks=[block])
    # Memory keeps the message in its SQL chat store: the datetime comes back as ISO text with its offset
    await memory.aput(ChatMessage(role="user", content="I have a dentist appointment tomorrow at 9am",
                                  additional_kwargs={"created_at": TOKYO_TUESDAY}))
    await memory.aget()
    assert await block.aflush()
    fact = _only(ungated, "ivy")
    assert fact.content == "User has a dentist appointment on Wednesday 2026-01-14 at 9am."
    assert iso_to_ts(fact.created_at) == TOKYO_TUESDAY.timestamp()


@pytest.mark.usefixtures("close_chat_stores")
async def test_the_memory_block_fails_only_the_turn_with_a_bad_time(
    ungated: RecallEngine, caplog: pytest.LogCaptureFixture
) -> None:
    block = MemoriMemoryBlock(engine=ungated, entity_id="ivy", capture=True)
    with caplog.at_level(logging.WARNING):
        await block.aput([ChatMessage(role="user", content="I'm vegan", additional_kwargs={"created_at": "Monday"}),
                          ChatMessage(role="user", content="I have a cat", additional_kwargs={"created_at": MONDAY})])
    result = await block.aflush()
    assert (result.failed, result.completed) == (1, 1)
    assert [f.content for f in ungated.list("ivy")] == ["User has a cat."]
    assert any('user message\'s additional_kwargs["created_at"]' in r.getMessage() for r in caplog.records)


async def test_the_llamaindex_extractor_reads_the_time_of_a_chat_message_and_the_expiry() -> None:
    llm = FixedLLM(reply='[{"fact": "User is in Rome until Friday 2026-01-16.", "expires_at": "2026-01-16"}]')
    [fact] = await LlamaLLMFactExtractor(llm).aextract(
        [ChatMessage(role="user", content="I'm in Rome until Friday", additional_kwargs={"created_at": MONDAY})])
    assert "was said on Monday 2026-01-12 at 09:30 (UTC)" in llm.prompts[0]
    assert fact.expires_at == datetime(2026, 1, 17, 12, tzinfo=timezone.utc)


def test_the_time_said_during_sets_is_read_by_said_during_turn_not_by_the_extractions_turn_said_at() -> None:
    # Reviewer (name clash): capture.turn_said_at() and extraction.turn_said_at(messages) shared one name.
    when = datetime(2026, 10, 12, 19, tzinfo=timezone.utc)
    with said_during(when):
        assert said_during_turn() == when
    assert said_during_turn() is None
    assert turn_said_at([Message("user", "hi", when)]) == when
