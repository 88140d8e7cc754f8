"""``timeout=`` on the agent memory tools (LangChain ``memory_tools``, LlamaIndex ``MemoriToolSpec``) and on the
LangGraph ``MemoriStore``'s search: it bounds one whole recall, as on the other adapters. Past it the tool tells
the model memory is unavailable for now (the store's search returns no items; with ``strict=True`` it raises
``TimeoutError``), and the recall left running
serves the next call. Real in-memory Chroma whose loads are held until the test releases them."""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest

from _faults import held_loads_engine
from _helpers import HashEmbedder
from memori_core import RecallConfig, RecallEngine
from memori_langchain import MemoriStore, memory_tools
from memori_llamaindex import MemoriToolSpec

FACT = "User lives in Porto."
QUESTION = "Where do I live?"
CONFIG: Any = {"configurable": {"entity_id": "u1"}}


@pytest.fixture
def slow() -> Iterator[RecallEngine]:
    """An engine whose next recall of ``u1`` waits for the store until released (the outage breaker off)."""
    with held_loads_engine(HashEmbedder(), "u1", [FACT], config=RecallConfig(gate="off"), outage_cooldown=0) as eng:
        yield eng


Recall = Callable[[], Awaitable[str]]


def langchain_tool(engine: RecallEngine, run_async: bool, kw: dict[str, Any]) -> Recall:
    (tool,) = memory_tools(engine, include=("recall",), **kw)

    async def recall() -> str:
        args = {"query": QUESTION}
        return str(await tool.ainvoke(args, CONFIG) if run_async else tool.invoke(args, CONFIG))
    return recall


def llamaindex_tool(engine: RecallEngine, run_async: bool, kw: dict[str, Any]) -> Recall:
    spec = MemoriToolSpec(engine, "u1", **kw)

    async def recall() -> str:
        return await spec.arecall(QUESTION) if run_async else spec.recall(QUESTION)
    return recall


TOOLS = {"memory_tools": langchain_tool, "MemoriToolSpec": llamaindex_tool}


@pytest.mark.parametrize("run_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("name", list(TOOLS))
async def test_a_tool_recall_past_the_timeout_says_memory_is_unavailable_and_a_later_call_recalls(
        slow: RecallEngine, name: str, run_async: bool) -> None:
    recall = TOOLS[name](slow, run_async, {"timeout": 0.2})
    answer = await recall()
    assert slow.store.loading.is_set() and not slow.store.release.is_set()  # answered while the load was held
    assert answer.startswith("Memory is unavailable right now (RecallTimedOut); nothing was recalled.")
    assert FACT not in answer
    slow.store.release.set()  # the recall left running finishes and loads the user's copy
    assert FACT in await recall()


@pytest.mark.parametrize("run_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("name", list(TOOLS))
async def test_a_strict_tool_raises_the_timeout(slow: RecallEngine, name: str, run_async: bool) -> None:
    with pytest.raises(TimeoutError, match="no answer within 0.2 s"):
        await TOOLS[name](slow, run_async, {"timeout": 0.2, "strict": True})()


@pytest.mark.parametrize("name", list(TOOLS))
async def test_a_tool_without_a_timeout_waits_for_the_slow_load(slow: RecallEngine, name: str) -> None:
    threading.Timer(0.3, slow.store.release.set).start()
    assert FACT in await TOOLS[name](slow, False, {})()
    assert slow.store.loading.is_set()


@pytest.mark.parametrize("strict", [False, True], ids=["fails-open", "strict"])
@pytest.mark.parametrize("run_async", [False, True], ids=["sync", "async"])
async def test_a_store_search_past_the_timeout_fails_open_or_raises_when_strict_and_a_later_search_finds_the_fact(
        slow: RecallEngine, run_async: bool, strict: bool, caplog: pytest.LogCaptureFixture) -> None:
    store = MemoriStore(slow, timeout=0.2, strict=strict)
    namespace = ("memories", "u1")

    async def search() -> list[str]:
        items = (await store.asearch(namespace, query=QUESTION) if run_async
                 else store.search(namespace, query=QUESTION))
        return [item.value["content"] for item in items]

    if strict:
        with pytest.raises(TimeoutError, match="no answer within 0.2 s"):
            await search()
    else:
        assert await search() == []  # as recall fails open on every adapter, with one warning
        assert "MemoriStore: search failed for entity 'u1' (TimeoutError: no answer within 0.2 s)" in caplog.text
    assert slow.store.loading.is_set() and not slow.store.release.is_set()
    slow.store.release.set()
    assert await search() == [FACT]


@pytest.mark.parametrize("make", [
    lambda engine, t: memory_tools(engine, "u1", timeout=t),
    lambda engine, t: MemoriToolSpec(engine, "u1", timeout=t),
    lambda engine, t: MemoriStore(engine, timeout=t),
], ids=["memory_tools", "MemoriToolSpec", "MemoriStore"])
def test_a_timeout_that_is_no_positive_number_is_refused_naming_it(ungated: RecallEngine, make: Any) -> None:
    with pytest.raises(ValueError, match="timeout must be a positive number"):
        make(ungated, 0)
    with pytest.raises(TypeError, match="timeout must be a number of seconds or None"):
        make(ungated, "1")
