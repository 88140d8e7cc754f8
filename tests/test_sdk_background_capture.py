"""``MemoriRecall.capture``: a provider-SDK app's turns captured in the background, as the framework adapters capture
theirs (tester j21, finding 12: ``capture_facts`` on the request path took 0.3-0.6 s a statement turn).

The real ``openai`` and ``anthropic`` clients talk to a loopback HTTP server; the engine is a real in-memory
Chroma store; the outage is the store's own calls failing as a stopped server makes them fail."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from datetime import datetime, timedelta, timezone
from typing import Any

import httpx
import pytest

from _faults import Faults, InjectedFault
from _helpers import Clock, HashEmbedder, ungated_engine
from _loopback import Recorder, anthropic_client, endpoint, openai_client  # noqa: F401 - fixtures
from memori_core import MemoriRecall, RecallEngine, RuleBasedFactExtractor
from memori_core.extraction.types import ExtractedFact
from memori_core.failopen import OutageBreaker

WAIT = 30.0
TOOLS = [{"type": "function", "function": {"name": "weather", "parameters": {"type": "object"}}}]


class GatedExtractor(RuleBasedFactExtractor):
    """The rules, each extraction waiting until the test opens the gate: a slow extractor (an LLM's)."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()
        self.started = threading.Event()

    def extract(self, messages: Any, existing: Any = (), **kwargs: Any) -> list[ExtractedFact]:
        self.started.set()
        assert self.gate.wait(WAIT)
        return super().extract(messages, existing, **kwargs)


@pytest.fixture
def engine() -> RecallEngine:
    return ungated_engine()


def _valid(engine: RecallEngine, entity: str = "ana") -> list[str]:
    return [f.content for f in engine.list(entity, newest_first=False)]


def _openai_turn(client: Any, memory: MemoriRecall, messages: list[Any], said: str, **kw: Any) -> Any:
    """One chat-completions turn as an SDK app writes it: apply, create, capture, keep the reply."""
    messages.append({"role": "user", "content": said})
    reply = client.chat.completions.create(**memory.apply({"model": "m", "messages": messages}, **kw))
    memory.capture(messages, reply=reply.choices[0].message, **kw)
    messages.append(reply.choices[0].message)
    return reply


def test_the_openai_reply_returns_while_its_capture_is_still_running_and_flush_makes_the_facts_readable(
    engine: RecallEngine, openai_client: Any
) -> None:
    extractor = GatedExtractor()
    memory = MemoriRecall(engine, entity_id="ana", provider="openai", extractor=extractor)
    messages: list[Any] = [{"role": "system", "content": "Be brief."}]
    reply = _openai_turn(openai_client, memory, messages, "I'm allergic to peanuts and I live in Lisbon.")
    assert reply.choices[0].message.content == "ok"
    assert extractor.started.wait(WAIT)
    assert memory.pending_captures == 1  # the app has its answer; the extraction is still waiting
    assert _valid(engine) == []
    extractor.gate.set()
    result = memory.flush(WAIT)
    assert (result.finished, result.completed, result.failed) == (True, 1, 0)
    assert sorted(_valid(engine)) == ["User is allergic to peanuts.", "User lives in Lisbon."]
    stored = engine.list("ana")[0]
    assert stored.metadata["source"] == "sdk"


def test_an_anthropic_follow_up_change_supersedes_the_earlier_fact(engine: RecallEngine, anthropic_client: Any) -> None:
    memory = MemoriRecall(engine, entity_id="ana", provider="anthropic")
    messages: list[Any] = []
    for said in ["I live in Lisbon.", "Actually, I just moved to Porto."]:
        messages.append({"role": "user", "content": said})
        reply = anthropic_client.messages.create(**memory.apply({"model": "c", "max_tokens": 64,
                                                                 "system": "Be brief.", "messages": messages}))
        assert memory.capture(messages, reply=reply)  # Anthropic's whole Message is the reply
        messages.append({"role": "assistant", "content": reply.content})
    assert memory.flush(WAIT).completed == 2
    assert _valid(engine) == ["User lives in Porto."]
    lisbon = next(f for f in engine.list("ana", include_invalid=True) if f.content == "User lives in Lisbon.")
    porto = next(f for f in engine.list("ana") if f.content == "User lives in Porto.")
    assert lisbon.superseded_by == porto.id


def test_a_tool_loop_captured_after_every_call_stores_its_turn_once(engine: RecallEngine, openai_client: Any) -> None:
    memory = MemoriRecall(engine, entity_id="ana", provider="openai")
    messages: list[Any] = [{"role": "user", "content": "I'm vegan. Will it rain in Leeds tonight?"}]
    call = openai_client.chat.completions.create(**memory.apply({"model": "m", "messages": messages, "tools": TOOLS}))
    assert memory.capture(messages, reply=call)  # the whole ChatCompletion: its first choice
    messages += [call.choices[0].message, {"role": "tool", "tool_call_id": "call_1", "content": "Rain from 7pm."}]
    answer = openai_client.chat.completions.create(**memory.apply({"model": "m", "messages": messages,
                                                                   "tools": TOOLS}))
    assert not memory.capture(messages, reply=answer)  # the same turn: not handed over again
    assert memory.flush(WAIT).completed == 1
    assert memory.capture_stats.submitted == 1
    assert _valid(engine) == ["User is vegan."]


def test_a_turn_handed_over_twice_with_its_said_at_in_two_offsets_is_captured_once(
    engine: RecallEngine, openai_client: Any
) -> None:
    memory = MemoriRecall(engine, entity_id="ana", provider="openai")
    messages: list[Any] = [{"role": "user", "content": "I adopted a dog named Rex."}]
    reply = openai_client.chat.completions.create(**memory.apply({"model": "m", "messages": messages}))
    assert memory.capture(messages, reply=reply, said_at="2026-11-01T10:00:00+01:00")
    assert not memory.capture(messages, reply=reply, said_at="2026-11-01T09:00:00+00:00")  # the same instant
    assert memory.flush(WAIT).completed == 1
    assert [(f.content, f.times_seen) for f in engine.list("ana")] == [("User adopted a dog named Rex.", 1)]


def test_the_said_at_given_to_apply_dates_the_facts_of_the_capture_that_follows(
    engine: RecallEngine, openai_client: Any
) -> None:
    memory = MemoriRecall(engine, entity_id="ana", provider="openai")
    _openai_turn(openai_client, memory, [], "I play the cello.", said_at="2026-11-02T21:30:00-05:00")
    # said_at given to both; then a turn whose said_at only apply was given
    messages: list[Any] = [{"role": "user", "content": "I live in York."}]
    reply = openai_client.chat.completions.create(**memory.apply({"model": "m", "messages": messages},
                                                                 said_at="2026-11-03T08:00:00+00:00"))
    memory.capture(messages, reply=reply.choices[0].message)
    assert memory.flush(WAIT).completed == 2
    dates = {f.content: datetime.fromisoformat(f.created_at) for f in engine.list("ana")}
    assert dates["User plays the cello."] == datetime(2026, 11, 3, 2, 30, tzinfo=timezone.utc)
    assert dates["User lives in York."] == datetime(2026, 11, 3, 8, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("another_tab", [False, True], ids=["alone", "another_conversation_began_after"])
def test_a_forget_while_the_model_answered_leaves_the_turn_unstored(
    engine: RecallEngine, openai_client: Any, another_tab: bool
) -> None:
    memory = MemoriRecall(engine, entity_id="ana", provider="openai")
    first: list[Any] = [{"role": "user", "content": "I live in Lisbon."}]
    answering = memory.apply({"model": "m", "messages": first})
    engine.forget("ana")  # the user asked to be forgotten while the model answered
    if another_tab:  # the user's next call, in another tab, begins before the first turn is captured
        second: list[Any] = [{"role": "user", "content": "What should I cook tonight?"}]
        openai_client.chat.completions.create(**memory.apply({"model": "m", "messages": second}))
    reply = openai_client.chat.completions.create(**answering)
    memory.capture(first, reply=reply.choices[0].message)
    assert memory.flush(WAIT).erased == 1
    assert _valid(engine) == []


def test_a_replayed_turn_keeps_its_said_at_though_a_live_call_of_the_user_began_after(
    engine: RecallEngine, openai_client: Any
) -> None:
    memory = MemoriRecall(engine, entity_id="ana", provider="openai")
    old: list[Any] = [{"role": "user", "content": "I play the cello."}]
    replayed = memory.apply({"model": "m", "messages": old}, said_at="2025-03-01T10:00:00+00:00")
    memory.apply({"model": "m", "messages": [{"role": "user", "content": "hi"}]})  # a live call, interleaved
    reply = openai_client.chat.completions.create(**replayed)
    memory.capture(old, reply=reply.choices[0].message)
    assert memory.flush(WAIT).completed == 1
    dates = {f.content: f.created_at for f in engine.list("ana")}
    assert dates == {"User plays the cello.": "2025-03-01T10:00:00+00:00"}


def test_a_capture_matching_no_apply_is_erased_by_a_forget_after_any_call_of_the_user_began(
    engine: RecallEngine,
) -> None:
    memory = MemoriRecall(engine, entity_id="ana", provider="openai")
    memory.apply({"model": "m", "messages": [{"role": "user", "content": "Hello"}]})
    engine.forget("ana")
    memory.apply({"model": "m", "messages": [{"role": "user", "content": "What should I cook?"}]})
    memory.capture([{"role": "user", "content": "I live in Lisbon."}], reply="Nice!")  # no apply had these
    assert memory.flush(WAIT).erased == 1
    assert _valid(engine) == []


def test_a_capture_handed_the_sent_messages_with_the_block_in_the_user_turn_pairs_with_its_apply(
    engine: RecallEngine, openai_client: Any
) -> None:
    engine.add("ana", ["User lives in Lisbon."])
    memory = MemoriRecall(engine, entity_id="ana", provider="openai", placement="last_user")
    said = datetime.now(timezone.utc).replace(microsecond=0) - timedelta(seconds=30)  # recent: memory read now
    said_words = "I live in Lisbon and I play the cello."
    sent = memory.apply({"model": "m", "messages": [{"role": "user", "content": said_words}]}, said_at=said)
    assert sent["messages"][-1]["content"] != said_words  # the block went into the user's turn
    memory.apply({"model": "m", "messages": [{"role": "user", "content": "hi"}]})  # a live call, interleaved
    reply = openai_client.chat.completions.create(**sent)
    memory.capture(sent["messages"], reply=reply.choices[0].message)
    assert memory.flush(WAIT).completed == 1
    cello = [datetime.fromisoformat(f.created_at) for f in engine.list("ana") if "cello" in f.content]
    assert cello == [said]


def _settle(memory: MemoriRecall) -> None:
    deadline = time.monotonic() + WAIT
    while memory.pending_captures and time.monotonic() < deadline:
        time.sleep(0.01)
    assert memory.pending_captures == 0


def _outage_engine(clock: Clock) -> RecallEngine:
    engine = ungated_engine(HashEmbedder())
    engine.outage = OutageBreaker(10.0, clock=clock)
    return engine


def test_a_turn_said_while_the_store_is_down_is_held_and_stored_once_it_answers(
    openai_client: Any, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock(1000.0)
    engine = _outage_engine(clock)
    memory = MemoriRecall(engine, entity_id="ana", provider="openai")
    messages: list[Any] = []
    _openai_turn(openai_client, memory, messages, "My partner is called Sam.", said_at="2026-11-01T09:00:00Z")
    assert memory.flush(WAIT).completed == 1
    faults = Faults(engine.store)
    faults.arm("revision", error=httpx.ConnectError, message="[Errno 111] Connection refused")
    with caplog.at_level(logging.WARNING, logger="memori_core"):
        _openai_turn(openai_client, memory, messages, "Sam and I broke up.", said_at="2026-11-02T21:30:00Z")
        during = memory.flush(WAIT)  # nothing raised into the app: it had its answer
    assert (during.completed, during.failed, during.held) == (0, 0, 1)
    assert [(t.entity_id, t.said_at) for t in during.held_turns] == [
        ("ana", datetime(2026, 11, 2, 21, 30, tzinfo=timezone.utc))]
    assert any("held" in r.getMessage() for r in caplog.records)
    faults.disarm()
    clock.advance(10)  # the cool-down is over: the next turn finds the store answering
    _openai_turn(openai_client, memory, messages, "I live in York.", said_at="2026-11-03T08:00:00Z")
    after = memory.flush(WAIT)
    assert (after.completed, after.failed, after.held) == (2, 0, 0)
    assert _valid(engine) == ["User and Sam broke up.", "User lives in York."]
    breakup = next(f for f in engine.list("ana") if f.content == "User and Sam broke up.")
    assert datetime.fromisoformat(breakup.created_at) == datetime(2026, 11, 2, 21, 30, tzinfo=timezone.utc)
    partner = next(f for f in engine.list("ana", include_invalid=True) if f.content == "User's partner is called Sam.")
    assert partner.superseded_by == breakup.id


def test_a_held_turn_is_stored_by_flush_once_the_store_answers() -> None:
    clock = Clock(1000.0)
    engine = _outage_engine(clock)
    memory = MemoriRecall(engine, entity_id="ana")
    faults = Faults(engine.store)
    faults.arm("revision", error=httpx.ConnectError, message="[Errno 111] Connection refused")
    assert memory.capture([{"role": "user", "content": "I play the cello."}], reply="Lovely!")
    assert memory.flush(WAIT).held == 1
    faults.disarm()
    clock.advance(10)
    assert memory.flush(WAIT).completed == 1  # flush asks the store, and hands the turn over
    assert _valid(engine) == ["User plays the cello."]


def test_a_store_write_that_raises_is_logged_never_raised_into_the_app(
    engine: RecallEngine, caplog: pytest.LogCaptureFixture
) -> None:
    memory = MemoriRecall(engine, entity_id="ana")
    faults = Faults(engine.store)
    faults.arm("upsert", message="disk full", times=1)
    with caplog.at_level(logging.WARNING, logger="memori_core"):
        assert memory.capture([{"role": "user", "content": "I play the cello."}])
        result = memory.flush(WAIT)
    assert (result.completed, result.failed) == (0, 1)
    assert any("disk full" in r.getMessage() for r in caplog.records)
    # The failed turn was released: handed over again, it is stored.
    assert memory.capture([{"role": "user", "content": "I play the cello."}])
    assert memory.flush(WAIT).completed == 1
    assert _valid(engine) == ["User plays the cello."]


def test_under_strict_a_failed_capture_is_raised_by_the_users_next_apply_not_anothers(
    engine: RecallEngine, openai_client: Any
) -> None:
    memory = MemoriRecall(engine, provider="openai", strict=True)
    faults = Faults(engine.store)
    faults.arm("upsert", message="disk full", times=1)
    assert memory.capture([{"role": "user", "content": "I play the cello."}], entity_id="ana")
    _settle(memory)  # waited for without flush, which would raise it: the next call is what raises it
    assert memory.capture_stats.failed == 1
    kwargs = {"model": "m", "messages": [{"role": "user", "content": "Any concerts?"}]}
    memory.apply(kwargs, entity_id="bo")  # another user's call is unaffected
    with pytest.raises(InjectedFault, match="disk full"):
        memory.apply(kwargs, entity_id="ana")
    memory.apply(kwargs, entity_id="ana")  # raised once


def test_captures_beyond_max_pending_are_dropped_and_counted(engine: RecallEngine) -> None:
    extractor = GatedExtractor()
    memory = MemoriRecall(engine, entity_id="ana", extractor=extractor, max_pending_captures=1)
    assert memory.capture([{"role": "user", "content": "I play the cello."}])
    assert not memory.capture([{"role": "user", "content": "I live in York."}])
    extractor.gate.set()
    result = memory.flush(WAIT)
    assert (result.completed, result.dropped) == (1, 1)
    assert _valid(engine) == ["User plays the cello."]


def test_a_responses_api_reply_and_input_are_captured(engine: RecallEngine, openai_client: Any) -> None:
    memory = MemoriRecall(engine, entity_id="ana", provider="openai-responses")
    kwargs = {"model": "m", "input": "I'm a nurse in Leeds."}
    response = openai_client.responses.create(**memory.apply(kwargs))
    assert memory.capture(kwargs["input"], reply=response)
    assert memory.flush(WAIT).completed == 1
    assert _valid(engine) == ["User is a nurse in Leeds."]


def test_close_waits_for_the_captures_and_ends_capture(engine: RecallEngine) -> None:
    with MemoriRecall(engine, entity_id="ana") as memory:
        memory.capture([{"role": "user", "content": "I play the cello."}])
    assert memory.pending_captures == 0
    assert _valid(engine) == ["User plays the cello."]
    with pytest.raises(RuntimeError, match="closed"):
        memory.capture([{"role": "user", "content": "I live in York."}])


def test_aflush_and_aclose_wait_without_blocking_the_loop(engine: RecallEngine) -> None:
    async def run() -> list[str]:
        memory = MemoriRecall(engine, entity_id="ana", provider="openai")
        messages = [{"role": "user", "content": "I play the cello."}]
        await memory.aapply({"model": "m", "messages": messages})
        memory.capture(messages, reply={"role": "assistant", "content": "Lovely!"})
        assert (await memory.aflush(WAIT)).completed == 1
        await memory.aclose()
        return _valid(engine)

    assert asyncio.run(run()) == ["User plays the cello."]


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda m: m.capture(42), TypeError, "messages must be the call's messages"),
    (lambda m: m.capture(b"I play the cello."), TypeError, "messages must be"),
    (lambda m: m.capture([{"role": "user"}]), TypeError, r"messages\[0\] is a user message without 'content'"),
    (lambda m: m.capture([{"role": "user", "content": "hi"}], reply=42), TypeError, "reply must be the model's reply"),
    (lambda m: m.capture([{"role": "user", "content": "hi"}], reply={"role": "assistant", "content": 3}),
     TypeError, r"reply\[0\]\['content'\]"),
    (lambda m: m.capture([{"role": "user", "content": "hi"}], said_at="yesterday"), ValueError, "said_at"),
    (lambda m: m.capture([{"role": "user", "content": "hi"}], said_at=3), TypeError, "said_at"),
    (lambda m: m.capture([{"role": "user", "content": "hi"}], session_id=""), TypeError, "session_id"),
    (lambda m: m.capture([{"role": "user", "content": "hi"}], entity_id=""), ValueError, "entity_id"),
], ids=["int messages", "bytes messages", "user without content", "int reply", "reply content", "said_at text",
        "said_at int", "blank session_id", "blank entity_id"])
def test_bad_capture_arguments_raise_naming_the_argument(engine: RecallEngine, call: Any, error: type,
                                                         message: str) -> None:
    memory = MemoriRecall(engine, entity_id="ana")
    with pytest.raises(error, match=message):
        call(memory)
    assert memory.capture_stats.submitted == 0


def test_capture_without_an_entity_names_entity_id(engine: RecallEngine) -> None:
    with pytest.raises(ValueError, match="entity_id"):
        MemoriRecall(engine).capture([{"role": "user", "content": "hi"}])


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"max_pending_captures": 0}, ValueError, "MemoriRecall: max_pending_captures must be a positive int"),
    ({"max_pending_captures": True}, TypeError, "MemoriRecall: max_pending_captures must be a positive int"),
    ({"extractor": "rules"}, TypeError, r"MemoriRecall: extractor must have an extract\(messages, existing\)"),
])
def test_bad_capture_settings_raise_naming_them(engine: RecallEngine, kwargs: dict[str, Any], error: type,
                                                message: str) -> None:
    with pytest.raises(error, match=message):
        MemoriRecall(engine, entity_id="ana", **kwargs)


def test_a_call_without_a_user_message_captures_nothing(engine: RecallEngine) -> None:
    memory = MemoriRecall(engine, entity_id="ana")
    assert not memory.capture([{"role": "system", "content": "Be brief."}], reply="Hello!")
    assert memory.capture_stats.submitted == 0
