"""Write intents, the write deadline and recalls beside a write, without a server (issue 23).

The shared store here is a real in-memory Chroma store marked ``shared`` (as a server's store is), so the
revision records, intents and version slots are Chroma's own; a "stuck" store call is a real call blocked on
an event. The same behaviour over a real server behind a delaying proxy: ``test_lost_replies.py``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import httpx
import pytest

from _faults import Faults
from memori_core import ChromaStore, RecallConfig, RecallEngine, WriteOutcomeUnknown
from memori_core.engine import derived_fact_id
from memori_core.store import deadline
from memori_core.store.base import join_revision, split_revision
from memori_core.store.in_memory import InMemoryFactStore
from memori_core.store.keyed_locks import KeyedLocks

OPEN = RecallConfig(gate="off")
FACTS = ["User likes green tea.", "User walks the dog.", "User lives in Lisbon."]


def _shared_engine(embedder: Any) -> tuple[RecallEngine, ChromaStore]:
    store = ChromaStore.in_memory()
    store.shared = True  # as a server's store: intents and version slots
    return RecallEngine(store=store, embedder=embedder, config=OPEN), store


def _texts(engine: RecallEngine, entity: str = "u") -> list[str]:
    return sorted(f.content for f in engine.recall("tea dog Lisbon", entity, limit=50))


def test_a_token_with_intents_reads_back_as_the_committed_token_and_the_intents() -> None:
    assert split_revision(None) == (None, frozenset())
    assert split_revision("3.12-ab") == ("3.12-ab", frozenset())
    token = join_revision("3.12-ab", {"b2", "a1"})
    assert token == "3.12-ab~a1,b2" and split_revision(token) == ("3.12-ab", frozenset({"a1", "b2"}))
    assert split_revision(join_revision(None, {"a1"})) == ("", frozenset({"a1"}))
    assert join_revision("3.12-ab", set()) == "3.12-ab"


@pytest.mark.parametrize("write", ["add", "add_seen", "supersede", "update_text", "update_metadata", "delete",
                                   "forget", "restore", "import"])
def test_every_write_of_a_shared_store_records_its_intent_before_it_changes_a_row(hash_embedder, write) -> None:
    engine, store = _shared_engine(hash_embedder)
    engine.add("u", FACTS)
    engine.add("u", "User moved to Porto.", supersedes=[derived_fact_id(FACTS[2])])
    engine.update("u", derived_fact_id(FACTS[0]), text="User likes black tea.")
    calls: list[tuple[str, frozenset[str]]] = []
    facts = store._facts
    for method in ("upsert", "update", "delete", "add"):
        real = getattr(facts, method)

        def spy(*args: Any, _real: Any = real, _method: str = method, **kwargs: Any) -> Any:
            calls.append((_method, split_revision(store.revision("u"))[1]))
            return _real(*args, **kwargs)

        setattr(facts, method, spy)
    fid = derived_fact_id(FACTS[0])
    {
        "add": lambda: engine.add("u", "User plays the cello."),
        "add_seen": lambda: engine.add("u", FACTS[1]),
        "supersede": lambda: engine.add("u", "User lives in Faro.", supersedes=[derived_fact_id("User moved to Porto.")]),
        "update_text": lambda: engine.update("u", fid, text="User likes oolong tea."),
        "update_metadata": lambda: engine.update("u", fid, metadata={"topic": "drinks"}),
        "delete": lambda: engine.delete("u", [fid]),
        "forget": lambda: engine.forget("u"),
        "restore": lambda: engine.restore("u", f"{fid}@v1"),
        "import": lambda: engine.import_("u", [{"text": "User imported a fact.", "id": "imp-1"}]),
    }[write]()
    assert calls, "the write changed no row"
    assert all(intents for _, intents in calls), f"a row changed with no intent on the token: {calls}"
    assert split_revision(store.revision("u"))[1] == frozenset()  # the commit cleared it


def test_a_write_whose_intent_cannot_be_recorded_changes_nothing_and_raises(hash_embedder) -> None:
    engine, store = _shared_engine(hash_embedder)
    engine.add("u", FACTS)
    before = store.revision("u")
    faults = Faults(store._revision_tokens.records)
    faults.arm("upsert", error=httpx.ReadTimeout, message="timed out", times=1)  # the intent's upsert
    with pytest.raises(httpx.ReadTimeout):
        engine.forget("u")
    assert store.count("u") == 3 and store.revision("u") == before
    assert _texts(engine) == sorted(FACTS)


def test_a_write_that_fails_before_changing_a_row_takes_its_intent_back(hash_embedder) -> None:
    engine, store = _shared_engine(hash_embedder)
    engine.add("u", FACTS)
    before = store.revision("u")
    with pytest.raises(KeyError):
        engine.update("u", "no-such-fact", text="User likes oolong tea.")
    assert store.revision("u") == before  # no intent left, no new version: other processes keep their copies


def _deletes(store: ChromaStore) -> list[Any]:
    """The where-clauses of the store's deletes by filter (a forget's), recorded from now on."""
    seen: list[Any] = []
    real = store._facts.delete

    def spy(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("where") is not None:
            seen.append(kwargs["where"])
        return real(*args, **kwargs)

    store._facts.delete = spy  # type: ignore[method-assign]
    return seen


def test_a_forget_with_no_write_beside_it_deletes_once(hash_embedder) -> None:
    engine, store = _shared_engine(hash_embedder)
    engine.add("u", FACTS)
    deletes = _deletes(store)
    engine.forget("u")
    assert len(deletes) == 1 and store.count("u") == 0


def _deleted_ids(store: ChromaStore) -> list[list[str]]:
    """The ids of the store's deletes by id (a delete's), recorded from now on."""
    seen: list[list[str]] = []
    real = store._facts.delete

    def spy(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("ids") is not None:
            seen.append(list(kwargs["ids"]))
        return real(*args, **kwargs)

    store._facts.delete = spy  # type: ignore[method-assign]
    return seen


@pytest.mark.parametrize("erase", ["forget", "delete"])
@pytest.mark.parametrize("commit_first", [False, True], ids=["writer-still-in-flight", "writer-committed-meanwhile"])
def test_an_erase_deletes_again_the_rows_of_a_write_that_read_before_it_and_wrote_after_it(
    hash_embedder, commit_first, erase
) -> None:
    """Another process's update (its protocol step by step, as a process without our write lock makes it): intent,
    read of the fact, then (after the forget's or delete's rows are gone) the fact with its new text and its old
    text as a version, then its commit."""
    engine, store = _shared_engine(hash_embedder)
    engine.add("u", FACTS)
    store.record_intent("u", "feedbeef")
    fid = derived_fact_id(FACTS[2])
    old = store.get("u", [fid])[0]
    passes = _deletes(store) if erase == "forget" else _deleted_ids(store)
    call = (lambda: engine.forget("u")) if erase == "forget" else (lambda: engine.delete("u", [fid]))
    erasing = threading.Thread(target=call)
    erasing.start()
    end = time.monotonic() + 30
    while not passes and time.monotonic() < end:
        time.sleep(0.005)
    assert passes, "the erase never deleted"
    vectors = hash_embedder.embed_documents([old.content, "User lives in Porto."])
    store.upsert("u", [replace(old, id=f"{fid}@v1", superseded_by=fid), replace(old, content="User lives in Porto.")],
                 vectors)
    if commit_first:
        store.commit_revision("u", None, "feedbeef")
    time.sleep(0.2)
    if not commit_first:
        store.commit_revision("u", None, "feedbeef")
    erasing.join(30)
    assert not erasing.is_alive()
    left = sorted(f.content for f in store.get("u", [fid, f"{fid}@v1"]))
    assert left == [], "rows of the racing write outlived the erase"
    assert len(passes) == 2
    if erase == "forget":
        assert store.count("u") == 0
    else:
        assert store.count("u") == 2  # the other facts stay
    for recaller in (engine, RecallEngine(store=store, embedder=hash_embedder, config=OPEN)):
        assert "User lives in Porto." not in _texts(recaller) and FACTS[2] not in _texts(recaller)


def test_a_delete_of_facts_no_longer_stored_writes_nothing(hash_embedder) -> None:
    engine, store = _shared_engine(hash_embedder)
    engine.add("u", FACTS)
    before = store.revision("u")
    deleted = _deleted_ids(store)
    assert engine.delete("u", ["no-such-fact"]) == []
    assert deleted == [] and store.revision("u") == before


def _forget_whose_reply_is_lost(engine: RecallEngine, store: ChromaStore) -> None:
    """``engine.forget("u")`` whose delete lands but whose reply is lost, and whose read-back fails too: it raises."""
    faults = Faults(store._facts)
    faults.arm("delete", "after", error=httpx.ReadTimeout, message="timed out")  # deleted, reply lost
    faults.arm("get", error=httpx.ReadTimeout, message="timed out")  # and the read-back fails too
    with pytest.raises(WriteOutcomeUnknown) as raised:  # the delete was sent: it may have landed
        engine.forget("u")
    assert isinstance(raised.value.__cause__, httpx.ReadTimeout) and raised.value.operation == "forget"
    faults.disarm()


def test_a_write_whose_rows_failed_leaves_its_intent_and_other_engines_read_the_store_until_it_settles(
    hash_embedder,
) -> None:
    """An intent that was never cleared (the write failed after changing rows, or its reply was lost)."""
    engine, store = _shared_engine(hash_embedder)
    other = RecallEngine(store=store, embedder=hash_embedder, config=OPEN)  # another process, as far as it knows
    engine.add("u", FACTS)
    assert _texts(other) == sorted(FACTS) and other._coord.caches.get("u") is not None
    _forget_whose_reply_is_lost(engine, store)
    assert split_revision(store.revision("u"))[1], "the intent stays on the token"
    other._coord.settle = 0.3
    assert _texts(other) == [] and other._coord.caches.get("u") is None  # read from the store, not kept
    deadline_at = time.monotonic() + 30
    while other._coord.caches.get("u") is None and time.monotonic() < deadline_at:
        assert _texts(other) == []
        time.sleep(0.05)
    assert other._coord.caches.get("u") is not None  # settled: a copy is kept again, and it is right
    assert _texts(other) == [] and _texts(engine) == []
    engine.add("u", "User starts afresh with tea.")  # the next write clears only its own intent...
    assert _texts(other) == ["User starts afresh with tea."]  # ...and the settled one no longer holds anyone up


def test_a_failed_read_of_the_token_restarts_the_settling_of_an_intent(hash_embedder) -> None:
    """A write may land while the store fails (a paused server runs the request once it resumes)."""
    engine, store = _shared_engine(hash_embedder)
    engine.add("u", FACTS)
    store.record_intent("u", "f00d")  # a writer elsewhere, in flight
    engine._coord.settle = 60.0
    _texts(engine)
    seen = engine._coord._seen["u"]["f00d"]
    faults = Faults(store._revision_tokens.records)
    faults.arm("get", error=httpx.ReadTimeout, message="timed out", times=1)
    with pytest.raises(httpx.ReadTimeout):
        engine.recall("tea", "u")
    _texts(engine)
    assert engine._coord._seen["u"]["f00d"] > seen  # the clock started again when the store answered


class _StuckStore(InMemoryFactStore):
    """A store whose next upsert blocks until released: a real stuck store call."""

    def __init__(self) -> None:
        super().__init__()
        self.stuck = threading.Event()
        self.release = threading.Event()
        self.stick = False

    def before_batch(self, op: str, entity_id: str, ids: Sequence[str]) -> None:
        if self.stick and op == "upsert":
            self.stuck.set()
            assert self.release.wait(60)


def test_a_recall_beside_a_stuck_write_of_its_user_returns_the_copy_from_before_the_write(hash_embedder) -> None:
    store = _StuckStore()
    engine = RecallEngine(store=store, embedder=hash_embedder, config=OPEN)
    engine.add("u", FACTS)
    assert _texts(engine) == sorted(FACTS)
    store.stick = True
    writer = threading.Thread(target=engine.add, args=("u", "User plays the cello."))
    writer.start()
    try:
        assert store.stuck.wait(30)
        box: dict[str, Any] = {}
        reader = threading.Thread(target=lambda: box.setdefault("texts", _texts(engine)))
        reader.start()
        reader.join(30)
        assert not reader.is_alive(), "the recall waited for the stuck write"
        assert writer.is_alive()  # the write really was still stuck while the recall ran
        assert box["texts"] == sorted(FACTS)
    finally:
        store.release.set()
        writer.join(30)
    assert _texts(engine) == sorted([*FACTS, "User plays the cello."])  # and a recall after it sees it


def test_a_deadline_gives_each_step_the_time_left_and_refuses_one_when_none_is() -> None:
    assert deadline.remaining() is None and deadline.check("anything") is None
    with deadline.within(0.05, "the test"):
        left = deadline.check("a request")
        assert left is not None and 0 < left <= 0.05
        with deadline.paused():
            assert deadline.remaining() is None  # local work is outside it...
            time.sleep(0.1)
        assert deadline.check("a request after local work") is not None  # ...and the time it took is given back
        time.sleep(0.06)
        with pytest.raises(deadline.DeadlineExceeded, match="the test ran out of time .* before a late request"):
            deadline.check("a late request")
        with deadline.within(10):
            assert deadline.remaining() <= 0  # a nested deadline never extends the outer one
    with pytest.raises(ValueError, match="seconds must be > 0"):
        with deadline.within(0):
            pass


def test_waiting_for_another_writes_lock_is_bounded_by_the_deadline() -> None:
    locks = KeyedLocks()
    held, done = threading.Event(), threading.Event()

    def holder() -> None:
        with locks.hold("u"):
            held.set()
            done.wait(30)

    t = threading.Thread(target=holder)
    t.start()
    try:
        assert held.wait(30)
        with deadline.within(0.1):
            with pytest.raises(deadline.DeadlineExceeded, match="write lock"):
                with locks.hold("u"):
                    pass
        with locks.hold("v"):
            pass  # another key never waits
    finally:
        done.set()
        t.join(30)
    with locks.hold("u"):
        pass  # and the key is free again


def test_a_write_to_a_store_with_a_time_limit_runs_within_twice_it(hash_embedder) -> None:
    """The engine opens the deadline (twice ``request_timeout``) around each write; a stuck store call is
    refused once it has passed (the store's own requests take the time left: test_lost_replies.py)."""
    store = _StuckStore()
    store.request_timeout = 0.1
    engine = RecallEngine(store=store, embedder=hash_embedder, config=OPEN)
    engine.add("u", FACTS)
    seen: list[float | None] = []
    real = store.get

    def get(entity_id: str, ids: Sequence[str]) -> Any:
        seen.append(deadline.remaining())
        return real(entity_id, ids)

    store.get = get  # type: ignore[method-assign]
    engine.delete("u", [derived_fact_id(FACTS[0])])
    assert seen and all(s is not None and 0 < s <= 0.2 for s in seen)
    engine.recall("tea", "u")
    assert deadline.remaining() is None  # nothing left behind after the write


def test_a_write_that_begins_during_another_processs_erase_waits_for_it_and_reads_what_it_left(hash_embedder) -> None:
    """Another process's delete is in flight (its erase mark on the token): an update begun now takes its intent
    back (the erase must not wait for it), waits, and then finds the fact gone instead of writing it back."""
    engine, store = _shared_engine(hash_embedder)
    engine.add("u", FACTS)
    fid = derived_fact_id(FACTS[2])
    store.record_intent("u", "0badc0de-erase")
    outcome: list[BaseException | None] = []

    def update() -> None:
        try:
            engine.update("u", fid, text="User lives in Porto.")
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - judged below
            outcome.append(exc)

    updating = threading.Thread(target=update)
    updating.start()
    time.sleep(0.3)
    assert not outcome, "the update did not wait for the erase"
    assert split_revision(store.revision("u"))[1] == frozenset({"0badc0de-erase"})  # its intent is taken back
    store.delete("u", [fid])  # the erase's delete lands...
    store.withdraw_intent("u", "0badc0de-erase")  # ...and the erase ends
    updating.join(30)
    assert len(outcome) == 1 and isinstance(outcome[0], KeyError), outcome
    assert store.get("u", [fid, f"{fid}@v1"]) == []
    assert split_revision(store.revision("u"))[1] == frozenset()


def test_a_write_waits_for_a_stale_erase_mark_only_until_it_settles(hash_embedder) -> None:
    engine, store = _shared_engine(hash_embedder)
    engine.add("u", FACTS)
    engine._coord.settle = 0.3
    store.record_intent("u", "0badc0de-erase")  # an erase that failed long ago and left its mark
    engine.add("u", "User plays the cello.")
    assert "User plays the cello." in [f.content for f in engine.list("u")]
    engine._coord.settle = 1e6  # were the wait started again for each write, the next one would hang
    adding = threading.Thread(target=engine.add, args=("u", "User plays the violin."))
    adding.start()
    adding.join(30)
    assert not adding.is_alive() and "User plays the violin." in [f.content for f in engine.list("u")]


def test_after_an_erase_that_failed_here_the_writes_of_this_process_do_not_wait_for_its_mark(hash_embedder) -> None:
    engine, store = _shared_engine(hash_embedder)
    engine.add("u", FACTS)
    engine._coord.settle = 1e6  # another process's mark would hold a write up for this long
    _forget_whose_reply_is_lost(engine, store)
    assert any(i.endswith("-erase") for i in split_revision(store.revision("u"))[1])  # its mark stays
    adding = threading.Thread(target=engine.add, args=("u", "User plays the cello."))
    adding.start()
    adding.join(30)
    assert not adding.is_alive() and "User plays the cello." in [f.content for f in engine.list("u")]
