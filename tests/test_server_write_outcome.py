"""A write whose change reached a real `chroma run` server that then stopped answering (SIGSTOP right before the
write's first change is sent) raises :class:`WriteOutcomeUnknown`, naming the call and chained from the store's
timeout; the change may land once the server runs again (SIGCONT), and the writer's engine then answers exactly as
a fresh engine over the same store does. A write whose connection was refused (the server killed) keeps its
"nothing landed" error, and nothing landed.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from _helpers import HashEmbedder, running_chroma_server, ungated_engine
from memori_core import ChromaStore, RecallEngine, StoreTimedOut, StoreUnreachable, WriteOutcomeUnknown
from memori_core.engine import derived_fact_id

pytestmark = [pytest.mark.server, pytest.mark.skipif(os.name != "posix", reason="needs SIGSTOP / SIGKILL")]

T = 1.0
"""The store's request time limit (seconds)."""
CHANGES = ("upsert", "update_seen", "delete", "forget")
"""The store methods that change rows: the first one a write calls is where the fault strikes."""
OSLO, ROME = "User lives in Oslo.", "User lives in Rome."


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, int, Any]]:
    """A `chroma run` of this test's own, so that stopping or killing it touches no other test."""
    with running_chroma_server(tmp_path) as running:
        yield running


def _engine(host: str, port: int, collection: str) -> RecallEngine:
    return ungated_engine(HashEmbedder(), store=ChromaStore.http(host=host, port=port, collection=collection,
                                                                 timeout=T))


def _seeded(host: str, port: int, facts: list[str]) -> tuple[RecallEngine, str]:
    """An engine over a new collection of the server, holding a copy of alice's ``facts`` (read once)."""
    collection = f"t_{uuid.uuid4().hex}"
    engine = _engine(host, port, collection)
    engine.add("alice", facts)
    _state(engine)
    return engine, collection


def _strike_before_first_change(store: ChromaStore, fault: Callable[[], None]) -> list[str]:
    """Run ``fault`` right before the first store call that changes rows; the names of the calls it struck."""
    struck: list[str] = []
    for name in CHANGES:
        real = getattr(store, name)

        def call(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            if not struck:
                struck.append(_name)
                fault()
            return _real(*args, **kwargs)

        setattr(store, name, call)
    return struck


def _unhook(store: ChromaStore) -> None:
    for name in CHANGES:
        store.__dict__.pop(name, None)


def _state(engine: RecallEngine) -> tuple[Any, ...]:
    facts = engine.list("alice", include_invalid=True)
    return (sorted((f.id, f.content, f.valid_to is None, f.superseded_by) for f in facts),
            sorted(f.content for f in engine.recall("Where does the user live and work?", "alice", limit=20)))


def _write(engine: RecallEngine, operation: str) -> Any:
    oslo = derived_fact_id(OSLO)
    if operation == "add":
        return engine.add("alice", ROME, supersedes=[oslo])
    if operation == "aadd":
        return asyncio.run(engine.aadd("alice", ROME, supersedes=[oslo]))
    if operation == "update":
        return engine.update("alice", oslo, text="User lives in Bergen.")
    if operation == "delete":
        return engine.delete("alice", [oslo])
    return engine.forget("alice")


ASKED = {"add": ("add", [derived_fact_id(ROME)], [ROME]), "aadd": ("add", [derived_fact_id(ROME)], [ROME]),
         "update": ("update", [derived_fact_id(OSLO)], ["User lives in Bergen."]),
         "delete": ("delete", [derived_fact_id(OSLO)], []), "forget": ("forget", [], [])}


@pytest.mark.parametrize("operation", list(ASKED))
def test_a_write_the_stopped_server_never_answered_raises_write_outcome_unknown_and_the_cache_stays_true(
    server: tuple[str, int, Any], operation: str
) -> None:
    host, port, proc = server
    engine, collection = _seeded(host, port, [OSLO, "User works at Acme."])
    struck = _strike_before_first_change(engine.store, lambda: proc.send_signal(signal.SIGSTOP))
    try:
        with pytest.raises(WriteOutcomeUnknown) as raised:
            _write(engine, operation)
    finally:
        proc.send_signal(signal.SIGCONT)
        _unhook(engine.store)
    assert struck, "the write changed no row"
    error = raised.value
    assert isinstance(error, TimeoutError)  # code that treats a timeout as an outage still does
    assert isinstance(error.__cause__, StoreTimedOut) and error.__cause__.sent  # memori's own, naming the server
    assert isinstance(error.__cause__.__cause__, httpx.TimeoutException)
    name, ids, texts = ASKED[operation]
    assert (error.entity_id, error.operation, error.ids, error.texts) == ("alice", name, ids, texts)
    message = str(error)
    assert message.startswith(f"{name} for entity 'alice' got no answer from the store (StoreTimedOut: "
                              f"the Chroma server at http://{host}:{port} did not answer in time")
    assert "may have been made" in message and "engine.get" in message and "adding the same text again is safe" \
        in message
    # The server makes the change once it runs again, or never: either way the writer answers as a fresh engine
    # does, from its first read on and after the write's intent has settled (3 T), when it keeps a copy again.
    for _ in range(4):
        assert _state(engine) == _state(_engine(host, port, collection))
        time.sleep(T)
    assert engine._coord.caches.get("alice") is not None
    assert _state(engine) == _state(_engine(host, port, collection))


def test_a_write_whose_connection_was_refused_keeps_its_error_and_nothing_landed(
    server: tuple[str, int, Any], tmp_path: Path
) -> None:
    host, port, proc = server
    engine, collection = _seeded(host, port, [OSLO])
    before = _state(engine)

    def kill() -> None:
        proc.kill()
        proc.wait()

    _strike_before_first_change(engine.store, kill)
    with pytest.raises(Exception) as raised:
        engine.add("alice", ROME, supersedes=[derived_fact_id(OSLO)])
    _unhook(engine.store)
    assert not isinstance(raised.value, WriteOutcomeUnknown), raised.value
    assert isinstance(raised.value, StoreUnreachable) and not raised.value.sent, repr(raised.value)
    with running_chroma_server(tmp_path, port=port):
        assert _state(_engine(host, port, collection)) == before  # nothing of the add landed
        assert _state(engine) == before
