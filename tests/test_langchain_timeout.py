"""``timeout=`` on the LangChain injector, ``create_agent`` middleware, LangGraph recall node and retriever: it
bounds one whole recall (a user's first recall in a process reads all their facts: seconds for a large user over a
server) as on the LlamaIndex adapters and ``MemoriRecall``. Past it the turn goes on without memory, and the
recall left running serves a later turn. Real in-memory Chroma whose loads are held until the test releases them
(a slow cold load), real LangChain chains, agents and LangGraph graphs with LangChain's fake chat model."""

from __future__ import annotations

import logging
import threading
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import HumanMessage
from langchain_core.prompts import ChatPromptTemplate
from langgraph.graph import END, START, StateGraph

from _faults import Faults, held_loads_engine
from _helpers import HashEmbedder, wait_until
from _langchain_fakes import replies
from memori_core import RecallConfig, RecallEngine
from memori_langchain import (
    MemoriContextInjector,
    MemoriMiddleware,
    MemoriRetriever,
    MemoriState,
    memori_recall_node,
    with_memori_context,
)

FACT = "User lives in Porto."
QUESTION = "Where do I live?"
OTHER_FACT = "User is allergic to peanuts."
SYSTEM = "You are a travel assistant."


@pytest.fixture
def slow() -> Iterator[RecallEngine]:
    """An engine whose next recall of ``u1`` waits for the store until released; the outage breaker off
    (cool-down 0), so the turn after a timed-out one goes to the store again."""
    with held_loads_engine(HashEmbedder(), "u1", [FACT], config=RecallConfig(gate="off"), outage_cooldown=0) as eng:
        yield eng


# -- each surface, one turn: the memory the model (or the caller) got -------------------------------------------

Turn = Callable[[], Awaitable[str]]
Surface = Callable[[RecallEngine, bool, dict[str, Any]], Turn]


def system_prompt_turn(runnable: Any, request: dict[str, Any], run_async: bool, model: Any) -> Turn:
    """One turn through ``runnable`` (sync or async): the system prompt the fake ``model`` was last given."""

    async def turn() -> str:
        if run_async:
            await runnable.ainvoke(request)
        else:
            runnable.invoke(request)
        return model.system_texts()[-1]
    return turn


def injector(engine: RecallEngine, run_async: bool, kw: dict[str, Any]) -> Turn:
    model = replies(*["ok"] * 4)
    prompt = ChatPromptTemplate.from_messages([("system", SYSTEM), ("human", "{question}")])
    chain = prompt | MemoriContextInjector(engine=engine, entity_id="u1", **kw) | model
    return system_prompt_turn(chain, {"question": QUESTION}, run_async, model)


def middleware(engine: RecallEngine, run_async: bool, kw: dict[str, Any]) -> Turn:
    model = replies(*["ok"] * 4)
    agent = create_agent(model, [], system_prompt=SYSTEM,
                         middleware=[MemoriMiddleware(engine, "u1", **kw)])
    return system_prompt_turn(agent, {"messages": [HumanMessage(QUESTION)]}, run_async, model)


def recall_node(engine: RecallEngine, run_async: bool, kw: dict[str, Any]) -> Turn:
    model = replies(*["ok"] * 4)
    builder = StateGraph(MemoriState)
    builder.add_node("memori", memori_recall_node(engine, entity_id="u1", **kw))
    builder.add_node("model", lambda s: {"messages": [model.invoke(with_memori_context(s, SYSTEM))]})
    builder.add_edge(START, "memori")
    builder.add_edge("memori", "model")
    builder.add_edge("model", END)
    return system_prompt_turn(builder.compile(), {"messages": [HumanMessage(QUESTION)]}, run_async, model)


def retriever(engine: RecallEngine, run_async: bool, kw: dict[str, Any]) -> Turn:
    memory = MemoriRetriever(engine=engine, entity_id="u1", **kw)

    async def turn() -> str:
        docs = await memory.ainvoke(QUESTION) if run_async else memory.invoke(QUESTION)
        return "\n".join(d.page_content for d in docs)
    return turn


SURFACES: dict[str, tuple[Surface, str]] = {  # name: (the surface, the owner its warning names)
    "MemoriContextInjector": (injector, "MemoriContextInjector"),
    "MemoriMiddleware": (middleware, "MemoriMiddleware"),
    "memori_recall_node": (recall_node, "memori_recall_node"),
    "MemoriRetriever": (retriever, "MemoriRetriever"),
}


@pytest.mark.parametrize("run_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("name", list(SURFACES))
async def test_a_recall_past_the_timeout_leaves_the_turn_without_memory_and_a_later_turn_recalls(
        slow: RecallEngine, name: str, run_async: bool, caplog: pytest.LogCaptureFixture) -> None:
    make, owner = SURFACES[name]
    turn = make(slow, run_async, {"timeout": 0.2})
    with caplog.at_level(logging.WARNING, logger="memori_langchain"):
        first = await turn()
    # The turn was answered while the store still held the load: the recall reached it and was not waited for.
    assert slow.store.loading.is_set() and not slow.store.release.is_set()
    assert FACT not in first
    assert (f"{owner}: recall failed for entity 'u1' (TimeoutError: no answer within 0.2 s); continuing without "
            "memory") in caplog.text
    slow.store.release.set()  # the store answers: the recall left running finishes and loads the user's copy
    # The later turn may wait on that recall's lock: it gets a time limit a loaded machine meets, and its memory
    # comes from the copy the first recall loaded (one load in all).
    assert FACT in await make(slow, run_async, {"timeout": 10.0})()
    assert slow.store.loads == 1


@pytest.mark.parametrize("run_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("name", list(SURFACES))
async def test_a_strict_surface_raises_the_timeout(slow: RecallEngine, name: str, run_async: bool) -> None:
    make, _ = SURFACES[name]
    with pytest.raises(TimeoutError, match="no answer within 0.2 s"):
        await make(slow, run_async, {"timeout": 0.2, "strict": True})()


@pytest.mark.parametrize("name", list(SURFACES))
async def test_without_a_timeout_the_turn_waits_for_the_slow_load_and_gets_memory(
        slow: RecallEngine, name: str) -> None:
    make, _ = SURFACES[name]
    threading.Timer(0.3, slow.store.release.set).start()  # the store answers once the turn has waited on it
    assert FACT in await make(slow, False, {})()
    assert slow.store.loading.is_set()


async def test_a_cold_load_past_the_timeout_leaves_the_breaker_closed_and_another_user_is_served(
        slow: RecallEngine) -> None:
    # A whole recall's time limit passing while the store still answers (a large user's first load) is not an
    # outage: it must not turn memory off for every other user of the engine.
    slow.outage.cooldown = 10.0
    # Another user with a cached copy, whose id hashes onto the lock stripe u1's had when the engine hashed
    # entities onto 64 of them: its warm copy is served without waiting for u1's held load.
    other = next(e for e in (f"u{i}" for i in range(2, 100_000)) if hash(e) % 64 == hash("u1") % 64)
    slow.store.release.set()
    slow.add(other, [OTHER_FACT])
    assert [f.content for f in slow.recall("Can I eat satay?", other)] == [OTHER_FACT]  # its copy is cached
    slow.store.release.clear()
    model = replies(*["ok"] * 4)
    # A time limit a warm recall meets even on a loaded machine; u1's load is held however long it is.
    agent = create_agent(model, [], system_prompt=SYSTEM, middleware=[MemoriMiddleware(slow, timeout=1.0)])

    def as_user(entity: str, text: str) -> str:
        agent.invoke({"messages": [HumanMessage(text)]}, {"configurable": {"entity_id": entity}})
        return model.system_texts()[-1]

    assert FACT not in as_user("u1", QUESTION)  # u1's cold load is held past the timeout
    assert slow.store.loading.is_set() and not slow.outage.is_open
    assert OTHER_FACT in as_user(other, "Can I eat satay?")  # served, not skipped by an open breaker
    slow.store.release.set()
    assert FACT in as_user("u1", QUESTION)  # the held load finished and serves u1 now
    assert not slow.outage.is_open


async def test_a_timed_out_recall_whose_store_request_then_times_out_opens_the_breaker(
        slow: RecallEngine, caplog: pytest.LogCaptureFixture) -> None:
    # The store truly stopped answering: the recall left running ends in the store's own request timeout, and
    # that opens the breaker as on any call, though the turn had already gone on without memory.
    slow.outage.cooldown = 10.0
    Faults(slow.store).arm("load_entity", "after", error=TimeoutError, message="the read operation timed out")
    turn = middleware(slow, False, {"timeout": 0.2})
    with caplog.at_level(logging.DEBUG, logger="memori_langchain"):
        assert FACT not in await turn()
        assert not slow.outage.is_open  # the turn's own time limit opened nothing
        slow.store.release.set()  # the held request now fails with the store's timeout
        assert wait_until(lambda: slow.outage.is_open)
        assert FACT not in await turn()  # the cool-down: skipped at once, without going to the store
    assert slow.outage.error == "TimeoutError"
    assert "MemoriMiddleware: recall skipped for entity 'u1'" in caplog.text

async def test_while_recalls_keep_timing_out_one_warning_is_logged_until_a_call_is_answered_in_time(
        slow: RecallEngine, caplog: pytest.LogCaptureFixture) -> None:
    # A stopped store times out every recall: as for an outage's errors, one warning, the rest at DEBUG.
    turn = injector(slow, False, {"timeout": 0.2})
    timeouts = "recall failed for entity 'u1' (TimeoutError: no answer within 0.2 s)"

    def logged(level: int) -> int:
        return sum(1 for r in caplog.records if r.levelno == level and timeouts in r.getMessage())

    with caplog.at_level(logging.DEBUG, logger="memori_langchain"):
        for _ in range(3):
            assert FACT not in await turn()  # the user's load is held: each turn times out
        assert (logged(logging.WARNING), logged(logging.DEBUG)) == (1, 2)
        assert "calls that time out until one gets its answer in time are logged at DEBUG" in caplog.text
        slow.store.release.set()
        assert FACT in await turn()  # answered in time: the timeouts are over
        slow.store.release.clear()
        slow.clear_cache()  # the next recall loads again, and is held again
        assert FACT not in await injector(slow, False, {"timeout": 0.2})()
        assert (logged(logging.WARNING), logged(logging.DEBUG)) == (2, 2)  # a new run of timeouts is news
