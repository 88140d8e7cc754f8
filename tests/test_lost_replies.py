"""Lost and late replies (issue 23): a real `chroma run` server behind a real proxy that holds its replies back.

- A write whose reply is lost (the server applied it, the writer saw a timeout) is never hidden from another
  process (a real subprocess) by the copy it held before: forget, delete and add.
- Every write returns or raises within twice the store's request time limit when every reply is late.
- A recall of a user whose write is stuck returns the copy from before the write within about one time limit.

Timing is asserted only as bounds the code promises (the write deadline, one request's time limit), with room
to spare on a busy machine; nothing is assumed about how fast the server answers.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from _lost_replies import ADDED, FACTS, Reader, engine_over, recalled, write_u
from _proxy import DelayProxy
from memori_core import ChromaStore, RecallEngine
from memori_core.store.base import split_revision

T = 1.0
"""The store's request time limit in these tests (seconds): writes get 2 T, an intent settles in 3 T."""
SPARE = 1.0
"""Seconds allowed on top of a promised bound for a busy machine (the bounds themselves are 1-2 T)."""


@pytest.fixture
def proxied(chroma_server: tuple[str, int]) -> Iterator[tuple[DelayProxy, str]]:
    """A delaying proxy in front of the session's server, and a collection of this test's own."""
    host, port = chroma_server
    with DelayProxy(host, port) as proxy:
        yield proxy, f"t_{uuid.uuid4().hex}"


def _engine(port: int, collection: str, embedder: Any) -> RecallEngine:
    return engine_over(port, collection, T, embedder)


@pytest.mark.server
@pytest.mark.slow
@pytest.mark.parametrize("write", ["forget", "delete", "add"])
def test_another_process_never_serves_its_copy_over_a_write_whose_reply_was_lost(
    proxied: tuple[DelayProxy, str], chroma_server: tuple[str, int], hash_embedder: Any, write: str
) -> None:
    proxy, collection = proxied
    host, port = chroma_server
    a = _engine(proxy.port, collection, hash_embedder)  # the writer, behind the proxy
    a.add("u", FACTS)
    a.add("v", ["User v likes coffee and tea."])
    b = Reader(host, port, collection, T)
    try:
        first = b.recall("u")
        assert first["facts"] == sorted(FACTS) and first["kept"]  # b holds u's copy
        endpoint = "upsert" if write == "add" else "delete"
        facts_id = a.store._facts.id  # type: ignore[attr-defined]
        # From the write's first change of a row on, every reply arrives after the writer gave up.
        proxy.delay_replies(3 * T, after=f"/collections/{facts_id}/{endpoint}".encode())
        error = write_u(a, write)
        assert proxy.armed.is_set(), "the write never changed a row"
        proxy.stop_delaying()
        truth = recalled(_engine(port, collection, hash_embedder), "u")  # what the server holds now
        changed = {"forget": [], "delete": sorted(FACTS[1:]),
                   "add": sorted([*FACTS, ADDED])}[write]
        assert truth == changed, f"the server did not apply the {write} (error: {error!r})"
        # From b's very next recall on, b answers what the server holds; once the write has settled (3 T after
        # b first saw its intent) b keeps a copy again, and it is the right one.
        deadline = time.monotonic() + 60
        while True:
            got = b.recall("u")
            assert got["facts"] == truth, f"b served facts the {write} changed (writer's error: {error!r})"
            if got["kept"] or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert got["kept"], "b never trusted a copy again"
        assert b.recall("u")["facts"] == truth
        assert b.recall("v")["facts"] == ["User v likes coffee and tea."]  # the other user was untouched
    finally:
        b.close()


@pytest.mark.server
@pytest.mark.parametrize("write", ["add", "delete", "update", "forget"])
def test_every_write_returns_or_raises_within_twice_the_timeout_when_every_reply_is_late(
    proxied: tuple[DelayProxy, str], chroma_server: tuple[str, int], hash_embedder: Any, write: str
) -> None:
    proxy, collection = proxied
    engine = _engine(proxy.port, collection, hash_embedder)
    engine.add("u", FACTS)
    assert recalled(engine, "u") == sorted(FACTS)
    proxy.delay_replies(0.75 * T)  # every reply, each within the time limit: only their sum is too long
    started = time.monotonic()
    error = write_u(engine, write)
    elapsed = time.monotonic() - started
    proxy.stop_delaying()
    assert elapsed <= 2 * T + SPARE, f"{write} took {elapsed:.2f} s (error: {error!r})"
    # Whatever the outcome, the writer then answers as a fresh engine over the same server.
    fresh = _engine(chroma_server[1], collection, hash_embedder)
    assert recalled(engine, "u") == recalled(fresh, "u")


@pytest.mark.server
def test_a_recall_during_a_stuck_write_of_its_user_returns_the_copy_from_before_it_within_one_timeout(
    proxied: tuple[DelayProxy, str], hash_embedder: Any
) -> None:
    proxy, collection = proxied
    engine = _engine(proxy.port, collection, hash_embedder)
    engine.add("u", FACTS)
    assert recalled(engine, "u") == sorted(FACTS)
    facts_id = engine.store._facts.id  # type: ignore[attr-defined]
    proxy.delay_replies(0.8 * T, after=f"/collections/{facts_id}/upsert".encode())
    writer = threading.Thread(target=write_u, args=(engine, "add"))
    writer.start()
    try:
        assert proxy.armed.wait(30), "the write never reached its upsert"
        started = time.monotonic()
        got = recalled(engine, "u")
        elapsed = time.monotonic() - started
    finally:
        writer.join(60)
    assert not writer.is_alive()
    assert got == sorted(FACTS)  # the copy from before the write, which had not finished
    assert elapsed <= T + SPARE, f"the recall waited {elapsed:.2f} s for the write"


@pytest.mark.server
def test_a_write_intent_and_the_committed_token_live_side_by_side_on_the_servers_record(
    chroma_server: tuple[str, int]
) -> None:
    """What the intents rely on: the server merges an upsert's metadata into the record and drops None keys."""
    host, port = chroma_server
    store = ChromaStore.http(host=host, port=port, collection=f"t_{uuid.uuid4().hex}", timeout=5)
    token = store.bump_revision("u")
    assert store.record_intent("u", "abc123") and store.record_intent("u", "def456")
    assert split_revision(store.revision("u")) == (token, frozenset({"abc123", "def456"}))
    new, _ = store.commit_revision("u", store.revision("u"), "abc123")
    assert split_revision(new) == (split_revision(new)[0], frozenset({"def456"}))  # only its own intent cleared
    assert store.revision("u") == new and split_revision(new)[0] != token
    assert store.revision("v") is None  # nothing of another user
