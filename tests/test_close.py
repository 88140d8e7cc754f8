"""Closing: ``engine.close()`` (and a store's ``close()``) stores the pending captures first, with a bound; then
every call of the engine or the store raises ``ClosedError`` naming what was closed, never chromadb's internals."""

from __future__ import annotations

import asyncio
import itertools
import logging
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel

from _extractors import Gate
from _helpers import HashEmbedder, stored, ungated_engine
from memori_core import ChromaStore, ClosedError, RecallEngine, RuleBasedFactExtractor
from memori_core.capture import BackgroundCapture
from memori_langchain import MemoriMiddleware

LOG = logging.getLogger("memori_test_close")


def engine_at(folder: Path) -> RecallEngine:
    return ungated_engine(store=ChromaStore(path=folder))


def facts_at(folder: Path, entity_id: str) -> list[str]:
    """What a new process would read from the folder (a new store and engine, closed afterwards)."""
    with engine_at(folder) as engine:
        return stored(engine, entity_id)


def test_close_waits_for_a_running_capture_then_closes_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    engine = engine_at(tmp_path)
    gate = Gate()
    captures = BackgroundCapture("test", LOG)
    assert captures.submit(engine, "u", [("user", "I moved to Porto last month.")], gate)
    assert gate.entered.wait(30)
    waiting = engine.capture_lanes.wait

    def open_the_gate_once_close_waits(timeout: float | None = None) -> bool:
        gate.opened.set()  # the capture is still in the extractor: close must wait for it to be stored
        return waiting(timeout)

    monkeypatch.setattr(engine.capture_lanes, "wait", open_the_gate_once_close_waits)
    assert engine.close() is True
    assert engine.closed and engine.store.closed
    assert captures.stats.completed == 1
    assert facts_at(tmp_path, "u") == ["User lives in Porto."]  # the folder was released, the capture is in it


def test_closing_the_store_alone_stores_the_pending_capture_of_an_agent_turn(tmp_path: Path) -> None:
    # A tester's shutdown hook closed the store right after an agent turn (capture=True) without flushing: the
    # capture failed with chromadb's AttributeError and the turn was lost.
    store = ChromaStore(path=tmp_path)
    engine = ungated_engine(store=store)
    memori = MemoriMiddleware(engine=engine, capture=True)
    agent = create_agent(GenericFakeChatModel(messages=itertools.cycle(["ok"])), tools=[], middleware=[memori])
    engine.add("u", ["User is allergic to peanuts."])
    agent.invoke({"messages": [("human", "I moved to Porto last month.")]}, {"configurable": {"entity_id": "u"}})
    store.close()
    assert memori.flush(timeout=0) and memori.capture_stats.completed == 1
    with pytest.raises(ClosedError, match=r"RecallEngine is closed \(its store ChromaStore\(.*\) was closed\): "
                                          r"recall cannot run"):
        engine.recall("Can I eat peanuts?", "u")
    assert facts_at(tmp_path, "u") == ["User is allergic to peanuts.", "User lives in Porto."]


def test_every_engine_call_after_close_raises_closed_error_naming_the_engine(engine: RecallEngine) -> None:
    engine.add("u", ["User plays chess."])
    assert engine.close() is True and engine.close() is True  # idempotent
    calls: dict[str, Any] = {
        "recall": lambda: engine.recall("chess?", "u"), "nearest": lambda: engine.nearest("chess?", "u"),
        "explain": lambda: engine.explain("chess?", "u"), "add": lambda: engine.add("u", ["User plays go."]),
        "update": lambda: engine.update("u", "x", text="y"), "restore": lambda: engine.restore("u", "x"),
        "delete": lambda: engine.delete("u", ["x"]), "forget": lambda: engine.forget("u"),
        "import_": lambda: engine.import_("u", [{"text": "User plays go."}]), "count": lambda: engine.count("u"),
        "list": lambda: engine.list("u"), "history": lambda: engine.history("u", "x"),
        "get": lambda: engine.get("u", ["x"]), "export": lambda: engine.export("u"),
        "vector_dimension": engine.vector_dimension,
    }
    for name, call in calls.items():
        with pytest.raises(ClosedError, match=rf"RecallEngine is closed \(engine.close\(\) was called\): {name} "
                                              "cannot run"):
            call()
    with pytest.raises(ClosedError, match=r"engine.close\(\) was called\): recall cannot run"):
        asyncio.run(engine.arecall("chess?", "u"))
    with pytest.raises(ClosedError, match=r"ChromaStore\('in-memory'\) is closed .*: count cannot run"):
        engine.store.count("u")  # the store was closed with it


def test_a_capture_still_running_past_the_close_timeout_is_dropped_and_counted(
    engine: RecallEngine, caplog: pytest.LogCaptureFixture,
) -> None:
    gate = Gate()
    captures = BackgroundCapture("test", LOG)
    assert captures.submit(engine, "u", [("user", "I play the cello.")], gate)
    assert gate.entered.wait(30)
    with caplog.at_level(logging.WARNING):
        assert engine.close(timeout=0) is False
        gate.opened.set()
        done = captures.flush(timeout=30)
    assert done and (done.dropped, done.completed, done.failed) == (1, 0, 0)
    assert "RecallEngine.close: 1 background captures still running are left to end on their own" in caplog.text
    assert "test: capture dropped for entity 'u': the engine was closed before it was stored" in caplog.text
    assert not captures.submit(engine, "u", [("user", "I keep bees.")], RuleBasedFactExtractor())  # closed
    assert captures.stats.dropped == 2 and "the engine is closed" in caplog.text


def test_the_engine_closes_at_the_end_of_a_with_block_and_refuses_a_closed_store(tmp_path: Path) -> None:
    with engine_at(tmp_path) as engine:
        engine.add("u", ["User plays chess."])
    assert engine.closed and engine.store.closed
    with pytest.raises(ClosedError, match=r"RecallEngine: the store ChromaStore\(.*\) is closed"):
        RecallEngine(store=engine.store, embedder=HashEmbedder())
    assert facts_at(tmp_path, "u") == ["User plays chess."]


def test_close_timeout_is_checked(engine: RecallEngine) -> None:
    for bad in (-1, "5", True):
        with pytest.raises(ValueError, match="timeout must be a number of seconds >= 0 or None"):
            engine.close(timeout=bad)  # type: ignore[arg-type]
    assert not engine.closed
