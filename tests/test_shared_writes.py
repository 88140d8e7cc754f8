"""Writes under sharing: version claims on a Chroma server, per-entity write locks, the engine's own executor.

The server tests run against a real `chroma run` server; "other processes" are
separate store objects (a shared store keeps no process-local revision state)
or real subprocesses.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from _faults import Faults
from _helpers import CountingStore, ungated_engine
from memori_core import ChromaStore, RecallConfig, RecallEngine, WriteOutcomeUnknown
from memori_core.store.base import split_revision

OPEN = RecallConfig(gate="off")
TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
QUERIES = ["tea", "dog walk", "cello music", "Lisbon home", "note"]


def http(server: tuple[str, int], collection: str, cls: type[ChromaStore] = ChromaStore) -> Any:
    host, port = server
    store = cls.http(host=host, port=port, collection=collection)
    return store


def answers(engine: RecallEngine, entity: str = "u") -> list[list[tuple[str, float]]]:
    return [[(h.id, round(h.rank_score, 5)) for h in engine.recall(q, entity)] for q in QUERIES]


@pytest.mark.server
def test_a_writer_keeps_its_cache_after_its_own_write_on_a_server(chroma_server, hash_embedder) -> None:
    collection = f"t_{uuid.uuid4().hex}"
    store = http(chroma_server, collection, CountingStore)
    engine = RecallEngine(store=store, embedder=hash_embedder, config=OPEN)
    engine.add("u", ["User likes green tea.", "User walks the dog."], session_id="s")
    answers(engine)
    assert store.loads == 1
    for i in range(3):
        engine.add("u", f"User wrote note {i}.", session_id="s")
        if i == 2:
            engine.delete("u", engine.list("u", limit=1, newest_first=False)[0].id)
        answers(engine)
    assert store.loads == 1  # its own writes were replayed on the copy, never reloaded
    fresh = RecallEngine(store=http(chroma_server, collection), embedder=hash_embedder, config=OPEN)
    assert answers(engine) == answers(fresh)


@pytest.mark.server
def test_a_failed_write_that_lands_later_is_recalled_once_it_lands(chroma_server, hash_embedder) -> None:
    """A stopped server handles a timed-out request once it runs again, with no revision change after it."""
    import httpx

    store = http(chroma_server, f"t_{uuid.uuid4().hex}")
    engine = RecallEngine(store=store, embedder=hash_embedder, config=OPEN)
    engine.add("u", ["User likes green tea.", "User walks the dog."])
    assert answers(engine)
    late: list[threading.Thread] = []
    land = threading.Event()  # the server gets to the request when the test says, not after a time a loaded
    real_upsert = store.upsert  # machine may overrun between the two recalls compared below

    def upsert_late(*args: Any, **kwargs: Any) -> None:
        thread = threading.Thread(target=lambda: land.wait(30) and real_upsert(*args, **kwargs))
        late.append(thread)
        thread.start()
        raise httpx.ReadTimeout("timed out")

    store.upsert = upsert_late  # type: ignore[method-assign]
    with pytest.raises(WriteOutcomeUnknown):  # the change was sent: it may land (and does, below)
        engine.add("u", ["User plays tea ceremony music."])
    store.upsert = real_upsert  # type: ignore[method-assign]
    assert split_revision(store.revision("u"))[1], "the failed write's intent stays on the token"
    assert answers(engine) == answers(RecallEngine(store=store, embedder=hash_embedder, config=OPEN))
    land.set()
    late[0].join()
    assert store.count("u") == 3  # it landed, and nothing told the engine
    fresh = RecallEngine(store=store, embedder=hash_embedder, config=OPEN)
    assert any("ceremony" in f.content for f in fresh.recall("tea", "u", limit=5))
    assert answers(engine) == answers(fresh)
    engine.add("u", ["User lives in Lisbon."])  # a write while in doubt keeps no stale copy either
    assert answers(engine) == answers(RecallEngine(store=store, embedder=hash_embedder, config=OPEN))


def test_a_failed_write_to_a_shared_store_is_in_doubt_until_the_store_has_settled(hash_embedder) -> None:
    import httpx

    store = ChromaStore.in_memory()
    store.shared = True  # as a server's store: a failed request may land later
    engine = RecallEngine(store=store, embedder=hash_embedder, config=OPEN)
    engine.add("u", ["User likes green tea."])
    engine._coord.settle = 0.2
    faults = Faults(store)
    faults.arm("upsert", error=httpx.ReadTimeout, message="timed out")
    with pytest.raises(WriteOutcomeUnknown):
        engine.add("u", ["User walks the dog."])
    faults.disarm()
    assert split_revision(store.revision("u"))[1], "the failed write's intent stays on the token"
    engine.recall("tea", "u")  # the store answers again: the settling time starts
    assert engine._coord.caches.get("u") is None  # read from the store, not kept
    deadline = time.monotonic() + 30
    while engine._coord.caches.get("u") is None and time.monotonic() < deadline:
        time.sleep(0.05)
        engine.recall("tea", "u")
    assert engine._coord.caches.get("u") is not None  # the settled load is kept again


@pytest.mark.server
@pytest.mark.parametrize(("window", "b_writes"), [(None, 1), (2, 4)])
def test_another_writer_in_between_makes_the_writer_reload(
    chroma_server, hash_embedder, monkeypatch, window, b_writes
) -> None:
    """Also when a's copy predates the kept version slots (window 2: the slot after a's base was deleted)."""
    import memori_core.store.chroma_revisions as revisions_mod

    if window is not None:
        monkeypatch.setattr(revisions_mod, "KEPT_SLOTS", window)
    collection = f"t_{uuid.uuid4().hex}"
    a_store = http(chroma_server, collection, CountingStore)
    a = RecallEngine(store=a_store, embedder=hash_embedder, config=OPEN)
    b = RecallEngine(store=http(chroma_server, collection), embedder=hash_embedder, config=OPEN)
    a.add("u", "User likes green tea.")
    answers(a)
    for i in range(b_writes):
        b.add("u", "User plays the cello." if i == 0 else f"User plays the cello on day {i}.")
    a.add("u", "User lives in Lisbon.")  # a's copy predates b's writes: a must not just replay its own
    got = answers(a)
    assert a_store.loads == 2
    assert "User plays the cello." in [h.content for h in a.recall("cello music", "u")]
    fresh = RecallEngine(store=http(chroma_server, collection), embedder=hash_embedder, config=OPEN)
    assert got == answers(fresh)


@pytest.mark.server
@pytest.mark.parametrize("window", [None, 2])
def test_concurrent_commits_on_one_base_have_exactly_one_sole_successor(chroma_server, monkeypatch, window) -> None:
    """Also with a 2-slot window, where slots are deleted while the others still claim."""
    import memori_core.store.chroma_revisions as revisions_mod

    if window is not None:
        monkeypatch.setattr(revisions_mod, "KEPT_SLOTS", window)
    collection = f"t_{uuid.uuid4().hex}"
    stores = [http(chroma_server, collection) for _ in range(6)]
    base = stores[0].bump_revision("u")
    barrier = threading.Barrier(len(stores))
    results: list[tuple[str, bool]] = []

    def commit(store: ChromaStore) -> None:
        barrier.wait()
        results.append(store.commit_revision("u", base))

    threads = [threading.Thread(target=commit, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(only for _, only in results) == [False] * 5 + [True]
    tokens = {token for token, _ in results}
    assert len(tokens) == 6
    newest = max(tokens, key=lambda t: int(t.split(".")[0]))
    assert stores[0].revision("u") == newest  # the record ends at the newest version, whatever the order
    if window is not None:
        assert len(_slot_rows(stores[0], "u")) <= window + 1


WRITER = """
import sys
sys.path[:0] = [{tests!r}, {root!r}]
from _helpers import HashEmbedder
from _faults import Faults
from _helpers import CountingStore
from memori_core import ChromaStore, RecallConfig, RecallEngine
tag = sys.argv[1]
store = ChromaStore.http(host={host!r}, port={port}, collection={collection!r}, timeout=60)  # a busy CI machine
eng = RecallEngine(store=store, embedder=HashEmbedder(), config=RecallConfig(gate="off"))
for i in range(25):
    eng.add("u", f"User {{tag}} note {{i}} about tea.", session_id=tag)
    eng.recall("tea note", "u")
    if i % 5 == 4:
        eng.delete("u", [f.id for f in eng.list("u", limit=100) if f.content == f"User {{tag}} note {{i - 2}} about tea."])
print(sorted((h.id, round(h.rank_score, 5)) for h in eng.recall("tea note", "u", limit=50)))
"""


@pytest.mark.server
@pytest.mark.slow
def test_two_processes_writing_one_entity_each_end_as_a_fresh_engine(chroma_server, hash_embedder) -> None:
    host, port = chroma_server
    collection = f"t_{uuid.uuid4().hex}"
    code = textwrap.dedent(WRITER.format(tests=str(TESTS), root=str(ROOT), host=host, port=port,
                                         collection=collection))
    procs = [subprocess.Popen([sys.executable, "-c", code, tag], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for tag in ("a", "b")]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err[-2000:] for _, err in outs]
    fresh = RecallEngine(store=http(chroma_server, collection), embedder=hash_embedder, config=OPEN)
    expected = sorted((h.id, round(h.rank_score, 5)) for h in fresh.recall("tea note", "u", limit=50))
    # The process that finished last saw every write; the other one may have finished before the last
    # write of its peer, so its answer is a subset ordered as a fresh engine's was at that time.
    finals = [eval(out.strip().splitlines()[-1]) for out, _ in outs]  # noqa: S307 - our own subprocess's repr
    assert expected in finals
    assert len(expected) == fresh.count("u") == 40  # 2 x (25 adds - 5 deletes)


class GatedStore(ChromaStore):
    """A real in-memory Chroma store whose writes for the entity "slow" wait until released."""

    gate: threading.Event
    entered: threading.Event

    def upsert(self, entity_id, facts, embeddings):  # type: ignore[override]
        if entity_id == "slow":
            self.entered.set()
            assert self.gate.wait(timeout=60)
        super().upsert(entity_id, facts, embeddings)


def test_a_slow_write_of_one_entity_does_not_block_another_entitys_write(hash_embedder) -> None:
    store = GatedStore.in_memory()
    store.gate, store.entered = threading.Event(), threading.Event()
    slow_engine = RecallEngine(store=store, embedder=hash_embedder, config=OPEN)
    fast_engine = RecallEngine(store=store, embedder=hash_embedder, config=OPEN)  # its own entity stripes
    writer = threading.Thread(target=slow_engine.add, args=("slow", ["User has many notes."]))
    writer.start()
    try:
        assert store.entered.wait(timeout=60)  # the slow write now holds its write lock
        fast_engine.add("fast", ["User likes tea."])
        assert [h.content for h in fast_engine.recall("tea", "fast")] == ["User likes tea."]
        assert not store.gate.is_set() and writer.is_alive()  # done while the other write was still waiting
    finally:
        store.gate.set()
        writer.join()
    assert slow_engine.count("slow") == 1


def test_two_engines_writing_one_entity_are_serialised_and_both_stay_fresh(hash_embedder) -> None:
    store = ChromaStore.in_memory()
    engines = [RecallEngine(store=store, embedder=hash_embedder, config=OPEN) for _ in range(2)]

    def work(k: int) -> None:
        for i in range(20):
            engines[k].add("u", f"User note {k}-{i} about tea.")
            engines[k].recall("tea", "u")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    fresh = RecallEngine(store=store, embedder=hash_embedder, config=OPEN)
    assert answers(engines[0]) == answers(engines[1]) == answers(fresh)
    assert fresh.count("u") == 40


def test_async_calls_run_on_the_engines_own_threads_not_the_default_executor(hash_embedder) -> None:
    engine = ungated_engine(hash_embedder)
    engine.add("u", "User likes tea.")
    release = threading.Event()

    async def main() -> list[str]:
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(1))
        blocker = loop.run_in_executor(None, release.wait)  # the default executor's only thread is busy
        try:
            facts = await asyncio.wait_for(engine.arecall("tea", "u"), timeout=60)
            await engine.aadd("u", "User walks the dog.")
            return [f.content for f in facts]
        finally:
            release.set()
            await blocker

    assert asyncio.run(main()) == ["User likes tea."]
    assert engine.count("u") == 2


def test_async_workers_is_validated(hash_embedder) -> None:
    with pytest.raises(ValueError, match="async_workers"):
        RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder, async_workers=0)


def _slot_rows(store: ChromaStore, entity: str) -> list[str]:
    return sorted(store._revisions.get(where={"entity_id": entity}, include=[])["ids"])


@pytest.mark.server
def test_a_shared_store_keeps_only_the_last_version_slots(chroma_server, monkeypatch) -> None:
    import memori_core.store.chroma_revisions as revisions_mod

    monkeypatch.setattr(revisions_mod, "KEPT_SLOTS", 4)
    store = http(chroma_server, f"t_{uuid.uuid4().hex}")
    tokens = [store.bump_revision("u") for _ in range(10)]
    rows = _slot_rows(store, "u")
    assert len(rows) == 5  # slots of versions 7-10 and the revision record
    assert store.revision("u") == tokens[-1]
    assert _slot_rows(store, "v") == []  # nothing of another entity


@pytest.mark.server
def test_a_writer_older_than_the_kept_slots_is_never_the_sole_successor(chroma_server, monkeypatch) -> None:
    """Its base + 1 slot was deleted as too old: claiming it again must not pass for an exclusive commit."""
    import memori_core.store.chroma_revisions as revisions_mod

    monkeypatch.setattr(revisions_mod, "KEPT_SLOTS", 2)
    collection = f"t_{uuid.uuid4().hex}"
    a, b = http(chroma_server, collection), http(chroma_server, collection)
    base = a.bump_revision("u")  # version 1
    for _ in range(5):
        b.bump_revision("u")  # versions 2-6; slots 1-4 deleted
    token, only = a.commit_revision("u", base)
    assert only is False
    assert token.split(".")[0] == "7" and a.revision("u") == token == b.revision("u")
    assert len(_slot_rows(a, "u")) == 3  # slots 6 and 7 and the record: the re-claimed slot 2 is gone again


@pytest.mark.server
def test_slots_left_by_earlier_versions_are_deleted_at_the_next_commit(chroma_server, monkeypatch) -> None:
    import memori_core.store.chroma_revisions as revisions_mod

    store = http(chroma_server, f"t_{uuid.uuid4().hex}")
    for _ in range(20):
        store.bump_revision("u")  # with the default window: 20 slots kept
    assert len(_slot_rows(store, "u")) == 21
    monkeypatch.setattr(revisions_mod, "KEPT_SLOTS", 4)
    token = store.bump_revision("u")
    assert len(_slot_rows(store, "u")) == 5 and store.revision("u") == token


@pytest.mark.server
def test_a_publisher_stalled_past_the_kept_slots_publishes_the_newest_version(chroma_server, monkeypatch) -> None:
    """Its own slot's successors were deleted meanwhile: the record must still end at the newest token,
    never at the stalled writer's older one."""
    import memori_core.store.chroma_revisions as revisions_mod

    monkeypatch.setattr(revisions_mod, "KEPT_SLOTS", 2)
    collection = f"t_{uuid.uuid4().hex}"
    a, b = http(chroma_server, collection), http(chroma_server, collection)
    a.bump_revision("u")  # version 1
    stalled = revisions_mod.new_token(2)
    assert a._revision_tokens.claim("u", 2, stalled)  # a claims version 2 ... and stalls before publishing
    newest = [b.bump_revision("u") for _ in range(5)][-1]  # versions 3-7; slots below 6 deleted
    a._revision_tokens.publish("u", 2, stalled)
    assert a.revision("u") == newest == b.revision("u")
    assert len(_slot_rows(a, "u")) == 3  # slots 6 and 7 and the record


RACER = """
import pathlib, sys, time
sys.path[:0] = [{tests!r}, {root!r}]
from _helpers import HashEmbedder
from memori_core import ChromaStore, RecallConfig, RecallEngine
ready, go = pathlib.Path({ready!r}), pathlib.Path({go!r})

class PausedBeforeRows(ChromaStore):
    def upsert(self, *args, **kwargs):
        ready.touch()
        end = time.monotonic() + 60
        while not go.exists() and time.monotonic() < end:
            time.sleep(0.01)
        return super().upsert(*args, **kwargs)

store = PausedBeforeRows.http(host={host!r}, port={port}, collection={collection!r}, timeout=None)
engine = RecallEngine(store=store, embedder=HashEmbedder(), config=RecallConfig(gate="off"))
engine.update("u", {fid!r}, text="User lives in Porto.")
print("updated", flush=True)
"""


@pytest.mark.server
@pytest.mark.parametrize("erase", ["forget", "delete"])
def test_an_erase_racing_an_update_in_another_process_leaves_none_of_its_rows(
    chroma_server, hash_embedder, tmp_path, erase
) -> None:
    """The other process reads the fact, the forget (or the delete of that fact) deletes it, then the update writes
    the old text back as a version and the new text: the erase must not return with those rows stored."""
    from memori_core.engine import derived_fact_id

    collection = f"t_{uuid.uuid4().hex}"
    store = http(chroma_server, collection)
    engine = RecallEngine(store=store, embedder=hash_embedder, config=OPEN)
    engine.add("u", ["User lives in Lisbon.", "User likes green tea."])
    ready, go = tmp_path / "ready", tmp_path / "go"
    host, port = chroma_server
    code = textwrap.dedent(RACER.format(tests=str(TESTS), root=str(ROOT), host=host, port=port, collection=collection,
                                        ready=str(ready), go=str(go), fid=derived_fact_id("User lives in Lisbon.")))
    racer = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + 60
        while not ready.exists() and racer.poll() is None and time.monotonic() < end:
            time.sleep(0.01)
        assert ready.exists(), racer.stderr.read() if racer.poll() is not None else "the update never wrote"
        fid = derived_fact_id("User lives in Lisbon.")
        call = (lambda: engine.forget("u")) if erase == "forget" else (lambda: engine.delete("u", [fid]))
        forgetting = threading.Thread(target=call)
        forgetting.start()
        while store.get("u", [fid]) and time.monotonic() < end:  # the erase's delete has landed...
            time.sleep(0.01)
        go.touch()  # ...and only now does the update write its rows
        forgetting.join(60)
        out, err = racer.communicate(timeout=60)
    finally:
        if racer.poll() is None:
            racer.kill()
    assert not forgetting.is_alive()
    assert racer.returncode == 0 and "updated" in out, err
    fresh = RecallEngine(store=http(chroma_server, collection), embedder=hash_embedder, config=OPEN)
    if erase == "forget":
        assert store.count("u") == 0, "rows the update wrote after the delete outlived the forget"
        assert answers(engine) == answers(fresh) == [[] for _ in QUERIES]
    else:
        kept = [f.content for f in fresh.list("u", include_invalid=True)]
        assert kept == ["User likes green tea."], "rows the update wrote after the delete outlived it"
        assert answers(engine) == answers(fresh)
