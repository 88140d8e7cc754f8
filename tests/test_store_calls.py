"""``memori_langchain._store_calls``: one store operation, written as a generator of engine calls, runs the same
with the engine's blocking methods (``drive``) and with their async twins (``adrive``), the ``KeyError`` of a fact
that is gone thrown back into the operation, which decides."""

from __future__ import annotations

import asyncio
from typing import Any

from _helpers import HashEmbedder
from memori_core import InMemoryFactStore, RecallEngine
from memori_langchain._store_calls import EngineCall, Program, adrive, drive


def _engine() -> RecallEngine:
    engine = RecallEngine(store=InMemoryFactStore(), embedder=HashEmbedder())
    engine.add("alice", ["User lives in Lisbon."], ids=["city"])
    return engine


def _edit_or_note(engine: RecallEngine, fact_id: str) -> Program[str]:
    """Update ``fact_id``'s text; when there is no such fact, say so (the operation catches the KeyError)."""
    try:
        fact: Any = yield EngineCall(engine, "update", ("alice", fact_id), {"text": "User lives in Porto."})
    except KeyError:
        return f"no {fact_id}"
    listed = yield EngineCall(engine, "list", ("alice",), {})
    return f"{fact.content} ({len(listed)} fact)"


def test_drive_sends_each_answer_back_and_returns_the_operations_value() -> None:
    engine = _engine()
    assert drive(_edit_or_note(engine, "city")) == "User lives in Porto. (1 fact)"
    assert [f.content for f in engine.list("alice")] == ["User lives in Porto."]


def test_drive_throws_the_keyerror_of_a_missing_fact_into_the_operation() -> None:
    assert drive(_edit_or_note(_engine(), "pet")) == "no pet"


def test_adrive_runs_the_same_operation_with_the_async_methods() -> None:
    engine = _engine()
    assert asyncio.run(adrive(_edit_or_note(engine, "city"))) == "User lives in Porto. (1 fact)"
    assert asyncio.run(adrive(_edit_or_note(engine, "pet"))) == "no pet"
