"""The outage breaker (memori_core.failopen): after a store call timed out or could not connect, every adapter
over the engine that fails open skips memory for a cool-down, then the first call goes to the store again.

The store is a real in-memory Chroma; the outage is its ``revision`` read (the first request of every recall)
raising httpx's own ``ReadTimeout``, as a stopped server makes it (tests/test_server_outage.py does it for real).
Time is the breaker's clock, moved by the test.
"""

from __future__ import annotations

import logging
from typing import Any

import chromadb
import httpx
import pytest
from langchain_core.messages import HumanMessage, SystemMessage
from llama_index.core.base.llms.types import ChatMessage

from _faults import Faults, InjectedFault
from _helpers import Clock, ungated_engine
from memori_core import MemoriRecall, RecallEngine
from memori_core.failopen import DEFAULT_OUTAGE_COOLDOWN, OutageBreaker, Verdict, is_outage
from memori_core.memory_tools import MemoryTools
from memori_core.store.deadline import DeadlineExceeded
from memori_langchain import MemoriContextInjector
from memori_llamaindex import MemoriMemoryBlock

pytestmark = pytest.mark.usefixtures("close_chat_stores")

QUESTION = [ChatMessage(role="user", content="what do I drink in the morning?")]


@pytest.fixture
def clock() -> Clock:
    return Clock(1000.0)


@pytest.fixture
def outage_engine(clock: Clock) -> RecallEngine:
    """alice's and bob's facts over a real in-memory Chroma store; the breaker runs on ``clock``."""
    engine = ungated_engine()
    engine.add("alice", ["User drinks green tea in the morning.", "User lives in Lisbon."])
    engine.add("bob", ["User drinks black coffee."])
    engine.outage = OutageBreaker(10.0, clock=clock)
    return engine


def revision_fails(engine: RecallEngine, **arm: Any) -> Faults:
    """Faults on ``engine``'s store, its ``revision`` reads armed to fail as ``arm`` says (:meth:`Faults.arm`)."""
    faults = Faults(engine.store)
    faults.arm("revision", **arm)
    return faults


def _timeout() -> httpx.ReadTimeout:
    return httpx.ReadTimeout("timed out")


# -- the breaker alone ---------------------------------------------------------------------------------------

def test_the_default_cooldown_is_ten_seconds_and_every_engine_has_its_own_breaker() -> None:
    first, second = ungated_engine(), ungated_engine()
    assert DEFAULT_OUTAGE_COOLDOWN == 10.0
    assert first.outage.cooldown == 10.0 and first.outage is not second.outage
    assert RecallEngine(store=first.store, outage_cooldown=2.5).outage.cooldown == 2.5


def test_a_timeout_opens_the_breaker_which_skips_every_call_until_the_cooldown_ends(clock: Clock) -> None:
    breaker = OutageBreaker(10.0, clock=clock)
    call = breaker.admit()
    assert call is not None and not call.probe and not breaker.is_open
    assert breaker.settle(call, _timeout()) is Verdict.OPENED
    assert breaker.is_open and breaker.error == "ReadTimeout"
    assert breaker.admit() is None
    clock.advance(9.9)
    assert breaker.admit() is None and breaker.retry_in() == pytest.approx(0.1)
    clock.advance(0.1)
    probe = breaker.admit()
    assert probe is not None and probe.probe
    assert breaker.admit() is None  # one probe at a time: the others still skip while it runs


def test_a_probe_that_succeeds_closes_the_breaker_and_one_that_fails_starts_another_cooldown(clock: Clock) -> None:
    breaker = OutageBreaker(5.0, clock=clock)
    breaker.settle(breaker.admit(), ConnectionError("refused"))  # type: ignore[arg-type]
    clock.advance(5)
    probe = breaker.admit()
    assert probe is not None and breaker.settle(probe, httpx.ConnectError("refused")) is Verdict.STILL_DOWN
    clock.advance(4.9)
    assert breaker.admit() is None
    clock.advance(0.1)
    probe = breaker.admit()
    assert probe is not None and breaker.settle(probe, None) is Verdict.RECOVERED
    assert not breaker.is_open and breaker.retry_in() == 0
    assert breaker.admit() is not None and breaker.admit() is not None  # closed: every call goes to the store


def test_only_the_first_whole_call_timeout_since_a_call_was_answered_in_time_is_to_be_warned(clock: Clock) -> None:
    breaker = OutageBreaker(5.0, clock=clock)
    assert breaker.timed_out() and not breaker.timed_out() and not breaker.timed_out()
    breaker.settle(breaker.admit(), None, late=True)  # a timed-out recall that ended later: not in time
    assert not breaker.timed_out()
    breaker.settle(breaker.admit(), ValueError("an extractor's bug"))  # not an answer from the store
    assert not breaker.timed_out()
    breaker.settle(breaker.admit(), None)  # a call answered in time: the next timeout is news again
    assert breaker.timed_out() and not breaker.is_open  # and a time limit opens nothing


def test_a_probe_that_ends_without_an_answer_lets_the_next_call_probe(clock: Clock) -> None:
    breaker = OutageBreaker(5.0, clock=clock)
    breaker.settle(breaker.admit(), _timeout())  # type: ignore[arg-type]
    clock.advance(5)
    probe = breaker.admit()
    assert probe is not None
    assert breaker.settle(probe, ValueError("an extractor's bug")) is Verdict.ANSWERED
    assert breaker.is_open  # not an answer from the store: still waiting for one
    again = breaker.admit()
    assert again is not None and again.probe
    breaker.release(again)
    assert breaker.admit() is not None


def test_errors_that_are_not_outages_never_open_the_breaker(clock: Clock) -> None:
    breaker = OutageBreaker(10.0, clock=clock)
    for error in (InjectedFault("bad row"), chromadb.errors.InternalError("Error finding id"), ValueError("no"),
                  KeyError("f1")):
        assert not is_outage(error)
        assert breaker.settle(breaker.admit(), error) is Verdict.ANSWERED  # type: ignore[arg-type]
    assert not breaker.is_open
    outages = [_timeout(), httpx.ConnectTimeout("t"), httpx.ConnectError("refused"), httpx.ReadError("reset"),
               httpx.RemoteProtocolError("closed"), ConnectionRefusedError(), TimeoutError(),
               DeadlineExceeded("the write")]
    assert all(is_outage(e) for e in outages)


def test_calls_begun_before_an_outage_neither_close_it_nor_open_a_new_one(clock: Clock) -> None:
    breaker = OutageBreaker(10.0, clock=clock)
    early, late = breaker.admit(), breaker.admit()
    assert early is not None and late is not None
    assert breaker.settle(early, _timeout()) is Verdict.OPENED
    assert breaker.settle(late, _timeout()) is Verdict.KNOWN  # the same outage, already reported
    slow = breaker.admit()
    assert slow is None
    clock.advance(10)
    probe = breaker.admit()
    assert probe is not None
    assert breaker.settle(probe, None) is Verdict.RECOVERED
    assert breaker.settle(late, _timeout()) is Verdict.KNOWN  # an old call failing late does not reopen it
    assert not breaker.is_open


def test_a_cooldown_of_zero_turns_the_breaker_off(clock: Clock) -> None:
    breaker = OutageBreaker(0, clock=clock)
    assert breaker.settle(breaker.admit(), _timeout()) is Verdict.FAILED  # type: ignore[arg-type]
    assert not breaker.is_open and breaker.admit() is not None
    breaker.cooldown = 10
    breaker.settle(breaker.admit(), _timeout())  # type: ignore[arg-type]
    assert breaker.is_open
    breaker.cooldown = 0  # turned off during an outage: closed at once
    assert not breaker.is_open and breaker.admit() is not None


@pytest.mark.parametrize(("value", "error"), [("10", TypeError), (True, TypeError), (None, TypeError),
                                               (-1, ValueError), (float("nan"), ValueError),
                                               (float("inf"), ValueError)])
def test_outage_cooldown_is_validated_naming_the_argument(value: Any, error: type[Exception]) -> None:
    with pytest.raises(error, match="outage_cooldown"):
        RecallEngine(store=ungated_engine().store, outage_cooldown=value)
    with pytest.raises(error, match="outage_cooldown"):
        OutageBreaker(10).cooldown = value


# -- through the adapters ------------------------------------------------------------------------------------

async def test_after_one_timeout_every_fail_open_adapter_skips_memory_until_the_cooldown_ends(
    outage_engine: RecallEngine, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    faults = revision_fails(outage_engine, error=httpx.ReadTimeout, message="the server did not answer")
    block = MemoriMemoryBlock(engine=outage_engine, entity_id="alice")
    injector = MemoriContextInjector(engine=outage_engine, entity_id="alice")
    tools = MemoryTools(outage_engine)
    sdk = MemoriRecall(outage_engine, entity_id="alice")
    prompt = [SystemMessage("Be brief."), HumanMessage("what do I drink in the morning?")]
    with caplog.at_level(logging.DEBUG):
        assert await block.aget(QUESTION) == ""
        faults.disarm()  # the store answers again, but the breaker does not know it yet
        reached = faults.calls["revision"]
        assert await block.aget(QUESTION) == ""
        assert [m.content for m in injector.invoke(prompt)] == ["Be brief.", "what do I drink in the morning?"]
        assert tools.recall("alice", "tea") == ("Memory is unavailable right now (ReadTimeout); nothing was "
                                                "recalled. Continue without it.")
        assert sdk.recall_for({"messages": [{"role": "user", "content": "tea?"}]}) == []
        assert faults.calls["revision"] == reached  # none of them went to the store
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == ["MemoriMemoryBlock: recall failed for entity 'alice' (ReadTimeout: the server did not "
                        "answer); continuing without memory; memory is skipped for 10 s, then the store is tried "
                        "again (RecallEngine(outage_cooldown=...))"]
    assert sum("skipped for entity" in r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG) == 4

    caplog.clear()
    clock.advance(10)
    with caplog.at_level(logging.INFO):
        recalled = await block.aget(QUESTION)  # the probe: to the store, and it answers
    assert "User drinks green tea in the morning." in recalled and "black coffee" not in recalled
    assert "MemoriMemoryBlock: the store answers again; memory is used again" in caplog.text
    assert not outage_engine.outage.is_open
    assert "green tea" in injector.invoke(prompt)[0].content


async def test_a_probe_that_fails_again_logs_at_info_and_skips_for_another_cooldown(
    outage_engine: RecallEngine, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    faults = revision_fails(outage_engine, error=httpx.ConnectError, message="connection refused")
    block = MemoriMemoryBlock(engine=outage_engine, entity_id="alice")
    with caplog.at_level(logging.INFO, logger="memori_llamaindex"):
        assert await block.aget(QUESTION) == ""
        clock.advance(10)
        assert await block.aget(QUESTION) == ""
    levels = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert [lv for lv, _ in levels] == [logging.WARNING, logging.INFO]
    assert levels[1][1] == ("MemoriMemoryBlock: recall failed again for entity 'alice' (ConnectError: connection "
                            "refused); memory is skipped for another 10 s")
    calls = faults.calls["revision"]
    clock.advance(9)
    assert await block.aget(QUESTION) == "" and faults.calls["revision"] == calls


async def test_failures_that_are_not_outages_are_warned_on_every_call_and_never_skip(
    outage_engine: RecallEngine, caplog: pytest.LogCaptureFixture
) -> None:
    revision_fails(outage_engine, times=2)  # InjectedFault: the store answered with an error
    block = MemoriMemoryBlock(engine=outage_engine, entity_id="alice")
    with caplog.at_level(logging.WARNING, logger="memori_llamaindex"):
        assert await block.aget(QUESTION) == ""
        assert await block.aget(QUESTION) == ""
        assert "green tea" in await block.aget(QUESTION)
    assert sum("recall failed" in r.getMessage() for r in caplog.records) == 2
    assert not outage_engine.outage.is_open


async def test_strict_adapters_go_to_the_store_while_the_breaker_is_open(outage_engine: RecallEngine) -> None:
    faults = revision_fails(outage_engine, error=httpx.ReadTimeout, times=1)
    assert await MemoriMemoryBlock(engine=outage_engine, entity_id="alice").aget(QUESTION) == ""
    assert outage_engine.outage.is_open
    strict = MemoriMemoryBlock(engine=outage_engine, entity_id="alice", strict=True)
    assert "green tea" in await strict.aget(QUESTION)
    faults.arm("revision", error=httpx.ReadTimeout, times=1)
    with pytest.raises(httpx.ReadTimeout):
        await strict.aget(QUESTION)
    assert MemoryTools(outage_engine, strict=True).recall("alice", "tea").startswith("Relevant memories")


async def test_a_capture_skipped_during_an_outage_is_stored_once_the_store_answers(
    outage_engine: RecallEngine, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    revision_fails(outage_engine, error=httpx.ReadTimeout, times=1)
    block = MemoriMemoryBlock(engine=outage_engine, entity_id="alice", capture=True)
    said = [ChatMessage(role="user", content="I play the cello.")]
    with caplog.at_level(logging.WARNING):
        assert await block.aget(QUESTION) == ""  # opens the breaker
        await block.aput(said)
        assert await block.aflush()
    assert "User plays the cello." not in [f.content for f in outage_engine.list("alice")]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 2 and "recall failed" in warnings[0]  # the opening, then the turn lost (once)
    assert warnings[1].startswith("MemoriMemoryBlock: capture for entity 'alice' not stored: the store failed")
    caplog.clear()
    clock.advance(10)
    with caplog.at_level(logging.WARNING):
        await block.aput(said)  # not marked captured: a later put (Memory's flush) captures it
        assert await block.aflush()
    assert [f.content for f in outage_engine.list("alice")].count("User plays the cello.") == 1
    assert not outage_engine.outage.is_open
    assert [r.getMessage() for r in caplog.records] == [
        "MemoriMemoryBlock: the store answers again after 10 s down; background captures skipped or failed "
        "meanwhile: 2 (MemoriMiddleware, memori_capture_node and MemoriMemoryBlock hold theirs and capture them "
        "again on a next turn or flush(); other background captures are not stored)"]
    # (the question's turn, capture=True captures on get, and this one)


async def test_captures_an_outage_skips_are_warned_once_per_outage_and_counted_when_the_store_answers(
    outage_engine: RecallEngine, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    from memori_langchain import MemoriContextInjector, memori_capture_node

    faults = revision_fails(outage_engine, error=httpx.ReadTimeout, times=1)
    injector = MemoriContextInjector(engine=outage_engine, entity_id="alice")
    capture = memori_capture_node(outage_engine, entity_id="alice")
    prompt = [HumanMessage("what do I drink in the morning?")]

    def turn(n: int) -> None:
        capture.invoke({"messages": [HumanMessage(f"I have {n} cats.", id=f"m-{n}")]})

    with caplog.at_level(logging.DEBUG, logger="memori_langchain"):
        injector.invoke(prompt)  # opens the breaker
        for n in (1, 2, 3):
            turn(n)
        assert capture.flush(timeout=30)
    lost = [r for r in caplog.records if "capture for entity 'alice' not stored" in r.getMessage()]
    assert [r.levelno for r in lost] == [logging.WARNING]  # once, not per turn
    assert sum(r.levelno == logging.DEBUG and "capture skipped" in r.getMessage() for r in caplog.records) == 2
    assert outage_engine.count("alice") == 2  # the seed only: no turn was stored

    caplog.clear()
    clock.advance(10)
    with caplog.at_level(logging.WARNING, logger="memori_langchain"):
        assert "green tea" in injector.invoke(prompt)[0].content  # the probe: the store answers
    assert [r.getMessage() for r in caplog.records] == [
        "MemoriContextInjector: the store answers again after 10 s down; background captures skipped or failed "
        "meanwhile: 3 (MemoriMiddleware, memori_capture_node and MemoriMemoryBlock hold theirs and capture them "
        "again on a next turn or flush(); other background captures are not stored)"]

    caplog.clear()  # a second outage: warned again, and counted on its own
    faults.arm("revision", error=httpx.ReadTimeout, times=1)
    with caplog.at_level(logging.WARNING, logger="memori_langchain"):
        injector.invoke(prompt)
        turn(4)
        assert capture.flush(timeout=30)
        clock.advance(10)
        turn(5)  # the probe, a capture this time: stored, and it tells the count
        assert capture.flush(timeout=30)
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 3 and "capture for entity 'alice' not stored" in messages[1]
    assert messages[2] == ("memori_capture_node: the store answers again after 10 s down; background captures "
                           "skipped or failed meanwhile: 1 (MemoriMiddleware, memori_capture_node and "
                           "MemoriMemoryBlock hold theirs and capture them again on a next turn or flush(); other "
                           "background captures are not stored)")
    assert "User has 5 cats." in [f.content for f in outage_engine.list("alice")]


def test_the_langchain_tools_answer_that_memory_is_unavailable_without_writing(
    outage_engine: RecallEngine, clock: Clock
) -> None:
    from memori_langchain import memory_tools

    revision_fails(outage_engine, error=httpx.ReadTimeout, times=1)
    tools = {t.name: t for t in memory_tools(outage_engine, "alice")}
    assert tools["recall_memory"].invoke({"query": "tea"}).startswith("Memory is unavailable right now (ReadTimeout)")
    before = outage_engine.count("alice")
    answer = tools["remember"].invoke({"text": "User owns a red bicycle."})
    assert answer == "Memory is unavailable right now (ReadTimeout); nothing was saved. Continue without it."
    assert outage_engine.count("alice") == before
    clock.advance(10)
    assert tools["remember"].invoke({"text": "User owns a red bicycle."}).startswith("Remembered as fact")


def _status_error_as_chromadb_raises_it(status: int, body: str) -> Exception:
    """chromadb's way with an answer that is not Chroma's JSON: a bare ``Exception(resp.text)`` raised while
    handling httpx's ``HTTPStatusError`` (chromadb.api.base_http_client._raise_chroma_error)."""
    request = httpx.Request("POST", "http://127.0.0.1:1/api/v2/x")
    response = httpx.Response(status, text=body, request=request)
    try:
        try:
            response.raise_for_status()
        except httpx.HTTPStatusError:
            raise Exception(response.text)  # noqa: B904 - chained implicitly, as chromadb does
    except Exception as exc:  # noqa: BLE001
        return exc
    raise AssertionError("unreachable")


@pytest.mark.parametrize("status", [502, 503, 504])
def test_a_gateway_status_behind_a_bare_exception_is_an_outage(status: int) -> None:
    assert is_outage(_status_error_as_chromadb_raises_it(status, "<html>down</html>"))


@pytest.mark.parametrize("status", [400, 404, 500])
def test_other_http_statuses_are_answers_not_outages(status: int) -> None:
    assert not is_outage(_status_error_as_chromadb_raises_it(status, "{}"))


def test_a_fail_open_warning_quotes_an_html_page_clipped_to_one_line(caplog: pytest.LogCaptureFixture) -> None:
    from memori_core.failopen import ERROR_CHARS, warn_failed

    page = "<html><body>\n<h1>500 Internal Server Error</h1>\n" + "<p>detail</p>" * 500 + "</body></html>"
    with caplog.at_level(logging.WARNING):
        warn_failed(logging.getLogger("t"), "Owner", "recall", "alice", Exception(page))
    (message,) = [r.getMessage() for r in caplog.records]
    assert "(Exception: 500 Internal Server Error detail detail" in message
    assert "<" not in message and "\n" not in message
    assert len(message) < ERROR_CHARS + 100


# -- what an outage logs ---------------------------------------------------------------------------------------

def test_an_outage_logs_one_line_warnings_and_keeps_each_traceback_at_debug(
    outage_engine: RecallEngine, caplog: pytest.LogCaptureFixture
) -> None:
    """Writes of several users fail on a dead connection, and so does recording the revision after each failure:
    every warning is one line naming the error, and the tracebacks are DEBUG records only."""
    faults = Faults(outage_engine.store)
    faults.arm("upsert", error=ConnectionError, message="connection refused")
    faults.arm("bump_revision", error=ConnectionError, message="connection refused")
    with caplog.at_level(logging.DEBUG):
        for user in ("alice", "bob", "carol"):
            with pytest.raises(ConnectionError):
                outage_engine.add(user, [f"User {user} keeps bees."])
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in warnings] == [
        f"entity {user!r}: a write failed (its own error says what of it landed), and the store could not be told "
        "that this user's facts changed: a copy of them saved before (a snapshot beside the store) may be read in "
        "place of the store's rows until the next write succeeds (ConnectionError: connection refused)"
        for user in ("alice", "bob", "carol")]
    assert all(r.exc_info is None and "\n" not in r.getMessage() for r in warnings)
    tracebacks = [r for r in caplog.records if r.levelno == logging.DEBUG and r.exc_info is not None]
    assert [r.getMessage() for r in tracebacks] == [
        f"entity {user!r}: a write failed (its own error says what of it landed), and the store could not be told "
        "that this user's facts changed: a copy of them saved before (a snapshot beside the store) may be read in "
        "place of the store's rows until the next write succeeds: traceback"
        for user in ("alice", "bob", "carol")]
    assert all(isinstance(r.exc_info[1], ConnectionError) for r in tracebacks)



# -- LangGraph's MemoriStore (tester j4, finding 17) ----------------------------------------------------------------


def test_memori_store_search_fails_open_through_the_breaker_and_its_other_operations_raise_at_once(
        outage_engine: RecallEngine, clock: Clock, caplog: pytest.LogCaptureFixture) -> None:
    from memori_core.failopen import MemorySkipped
    from memori_langchain import MemoriStore

    store = MemoriStore(outage_engine)
    ns = ("memories", "alice")
    assert [i.value["content"] for i in store.search(ns, query="morning drink")][:1] == [
        "User drinks green tea in the morning."]
    outage_engine.clear_cache()
    faults = revision_fails(outage_engine, error=httpx.ReadTimeout, message="timed out")
    with caplog.at_level(logging.WARNING):
        assert store.search(ns, query="morning drink") == []  # the search that met the outage: no items, a warning
    assert outage_engine.outage.is_open and "MemoriStore: search failed for entity 'alice'" in caplog.text
    sent = faults.calls["revision"]
    assert store.search(ns, query="morning drink") == []  # skipped at once: the store is not asked again
    with pytest.raises(MemorySkipped, match=r"MemoriStore: put for entity 'alice' not sent: .*nothing was written"):
        store.put(ns, "city", {"content": "User lives in Porto."})
    with pytest.raises(MemorySkipped, match="nothing was read"):
        store.get(ns, "city")
    assert faults.calls["revision"] == sent
    with pytest.raises(ConnectionError):  # MemorySkipped is one: an app catching outages catches it
        store.delete(ns, "city")
    # The other surfaces over the engine skip too: the store's outage is the engine's.
    assert MemoriContextInjector(engine=outage_engine, entity_id="alice").invoke(
        [HumanMessage("what do I drink in the morning?")])[0].type == "human"
    faults.disarm()
    clock.advance(10)
    assert [i.value["content"] for i in store.search(ns, query="morning drink")][:1] == [
        "User drinks green tea in the morning."]  # the probe: memory is back
    assert not outage_engine.outage.is_open


def test_a_memori_store_write_that_meets_an_outage_raises_it_and_opens_the_breaker(outage_engine: RecallEngine) -> None:
    from memori_langchain import MemoriStore

    store = MemoriStore(outage_engine)
    outage_engine.clear_cache()
    revision_fails(outage_engine, error=httpx.ConnectError, message="refused")
    with pytest.raises(httpx.ConnectError):  # a lost write is never silent
        store.put(("memories", "alice"), "city", {"content": "User lives in Porto."})
    assert outage_engine.outage.is_open
    assert MemoryTools(outage_engine).recall("alice", "What do I drink?").startswith("Memory is unavailable")


def test_a_strict_memori_store_search_raises_the_outage_and_never_consults_the_breaker(
        outage_engine: RecallEngine) -> None:
    from memori_langchain import MemoriStore

    store = MemoriStore(outage_engine, strict=True)
    outage_engine.clear_cache()
    revision_fails(outage_engine, error=httpx.ReadTimeout, message="timed out")
    for _ in range(2):
        with pytest.raises(httpx.ReadTimeout):
            store.search(("memories", "alice"), query="morning drink")
    assert not outage_engine.outage.is_open
    with pytest.raises(TypeError, match="strict must be True or False"):
        MemoriStore(outage_engine, strict="no")  # type: ignore[arg-type]


async def test_memori_store_async_search_skips_and_async_put_raises_while_the_breaker_is_open(
        outage_engine: RecallEngine) -> None:
    from memori_core.failopen import MemorySkipped
    from memori_langchain import MemoriStore

    store = MemoriStore(outage_engine)
    outage_engine.clear_cache()
    faults = revision_fails(outage_engine, error=httpx.ReadTimeout, message="timed out")
    assert await store.asearch(("memories", "alice"), query="morning drink") == []
    sent = faults.calls["revision"]
    assert await store.asearch(("memories", "alice"), query="morning drink") == []
    with pytest.raises(MemorySkipped, match="nothing was written"):
        await store.aput(("memories", "alice"), "city", {"content": "User lives in Porto."})
    assert faults.calls["revision"] == sent
