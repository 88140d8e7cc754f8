"""memori_core.lanes over real Chroma: a ``forget`` is not undone by a write of the entity begun before it (an
``add`` or ``import_`` still embedding), and an engine's capture pool (``capture_workers``)."""

from __future__ import annotations

import contextlib
import contextvars
import logging
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from _extractors import Gate
from _helpers import HashEmbedder, stored, ungated_engine
from memori_core import (
    ChromaStore,
    ExtractedFact,
    ForgottenError,
    RecallEngine,
    unnormalized_entity_ids,
)
from memori_core.capture import BackgroundCapture
from memori_core.extraction import MessageLike, RuleBasedFactExtractor, as_messages
from memori_core.lanes import CARRIED, DEFAULT_CAPTURE_WORKERS, ERASURES, Lanes
from memori_core.store import InMemoryFactStore
from memori_core.validate import UNNORMALIZED_IDS_ALLOWED

LOG = logging.getLogger("memori_test_lanes")
PROFILE = [f"User profile line {k}." for k in range(40)]


class HeldEmbedder(HashEmbedder):
    """The hashing embedder, whose next ``embed_documents`` call after :meth:`hold` waits until ``released`` is
    set (``embedding`` is set once it waits): a bulk add still embedding."""

    def __init__(self) -> None:
        super().__init__()
        self.embedding = threading.Event()
        self.released = threading.Event()
        self._held = False

    def hold(self) -> None:
        self._held = True

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        if self._held:
            self._held = False
            self.embedding.set()
            assert self.released.wait(30), "the test never released the embedder"
        return super().embed_documents(texts)


class InBackground:
    """``call()`` on a thread of its own; :meth:`result` joins it and returns what it returned, or raises what it
    raised."""

    def __init__(self, call: Callable[[], Any]) -> None:
        self._outcome: list[Any] = []
        self._thread = threading.Thread(target=self._run, args=(call,))
        self._thread.start()

    def _run(self, call: Callable[[], Any]) -> None:
        try:
            self._outcome.append((True, call()))
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            self._outcome.append((False, exc))

    def result(self) -> Any:
        self._thread.join(30)
        assert self._outcome, "the call did not finish"
        ok, value = self._outcome[0]
        if not ok:
            raise value
        return value


@pytest.fixture(params=["in-memory", "embedded"])
def chroma_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ChromaStore]:
    """A real Chroma store: in memory, or embedded in a folder."""
    store = ChromaStore.in_memory() if request.param == "in-memory" else ChromaStore(path=tmp_path / "memories")
    yield store
    store.close()


def held_engine(store: Any) -> tuple[RecallEngine, HeldEmbedder]:
    embedder = HeldEmbedder()
    return ungated_engine(embedder, store=store), embedder


# -- forget against writes begun before it -----------------------------------------------------------------------


def test_an_add_still_embedding_when_the_entity_is_forgotten_writes_nothing_and_names_the_entity(
    chroma_store: ChromaStore,
) -> None:
    # A profile import for bob is embedding when bob asks to be forgotten: forget() returned, then the add wrote
    # all 600 facts (a tester's service).
    engine, embedder = held_engine(chroma_store)
    engine.add("bob", ["User lives in Leeds."])
    embedder.hold()
    add = InBackground(lambda: engine.add("bob", PROFILE))
    assert embedder.embedding.wait(30)
    engine.forget("bob")  # does not wait for the add
    assert engine.count("bob") == 0
    embedder.released.set()
    with pytest.raises(ForgottenError, match=r"entity 'bob' was forgotten \(forget\) after this add began: "
                                             r"nothing was written") as raised:
        add.result()
    assert raised.value.entity_id == "bob"
    assert engine.count("bob") == 0 and chroma_store.count("bob") == 0
    engine.add("bob", ["User keeps bees."])  # an add begun after the forget is stored
    assert stored(engine, "bob") == ["User keeps bees."]


def test_an_import_still_embedding_when_the_entity_is_forgotten_writes_nothing(chroma_store: ChromaStore) -> None:
    engine, embedder = held_engine(chroma_store)
    embedder.hold()
    imported = InBackground(lambda: engine.import_("bob", [{"text": t} for t in PROFILE]))
    assert embedder.embedding.wait(30)
    engine.forget("bob")
    embedder.released.set()
    with pytest.raises(ForgottenError, match=r"entity 'bob' was forgotten \(forget\) after this import began"):
        imported.result()
    assert chroma_store.count("bob") == 0


def test_an_add_of_another_entity_still_embedding_is_not_refused_by_a_forget(chroma_store: ChromaStore) -> None:
    engine, embedder = held_engine(chroma_store)
    embedder.hold()
    add = InBackground(lambda: engine.add("carol", PROFILE))
    assert embedder.embedding.wait(30)
    engine.forget("bob")
    embedder.released.set()
    assert len(add.result()) == len(PROFILE) and engine.count("carol") == len(PROFILE)


class _LockWatch(InMemoryFactStore):
    """The reference store, whose upserts wait while ``writing`` is cleared (the write lock held), and which says
    when a thread named ``forgetter`` asks for the write lock (``forget_waits``)."""

    def __init__(self) -> None:
        super().__init__()
        self.in_upsert = threading.Event()
        self.writing = threading.Event()
        self.writing.set()
        self.forget_waits = threading.Event()

    def before_batch(self, op: str, entity_id: str, ids: Sequence[str]) -> None:
        if op == "upsert" and not self.writing.is_set():
            self.in_upsert.set()
            assert self.writing.wait(30), "the test never let the upsert go on"

    def write_lock(self, entity_id: str) -> contextlib.AbstractContextManager[None]:
        if threading.current_thread().name == "forgetter":
            self.forget_waits.set()
        return super().write_lock(entity_id)


def test_an_add_already_writing_when_forget_begins_is_erased_by_the_forget() -> None:
    store = _LockWatch()
    engine = ungated_engine(store=store)
    store.writing.clear()
    add = InBackground(lambda: engine.add("bob", PROFILE))
    assert store.in_upsert.wait(30)  # past the check, holding the write lock
    forgetter = threading.Thread(target=engine.forget, args=("bob",), name="forgetter")
    forgetter.start()
    assert store.forget_waits.wait(30)  # the forget counted the erase and asks for the lock the add holds
    store.writing.set()
    assert len(add.result()) == len(PROFILE)  # it had begun writing: it finishes...
    forgetter.join(30)
    assert not forgetter.is_alive() and store.count("bob") == 0  # ...and the forget deletes what it wrote


@pytest.mark.server
def test_an_add_still_embedding_over_a_server_writes_nothing_after_the_forget(chroma_server: tuple[str, int]) -> None:
    host, port = chroma_server
    engine, embedder = held_engine(ChromaStore.http(host=host, port=port, collection="lanes_forget"))
    engine.add("bob", ["User lives in Leeds."])
    embedder.hold()
    add = InBackground(lambda: engine.add("bob", PROFILE))
    assert embedder.embedding.wait(30)
    engine.forget("bob")
    embedder.released.set()
    with pytest.raises(ForgottenError, match="entity 'bob' was forgotten"):
        add.result()
    other = RecallEngine(store=ChromaStore.http(host=host, port=port, collection="lanes_forget"),
                         embedder=HashEmbedder())  # another process's view: the server's rows
    assert other.count("bob", include_invalid=True) == 0 and engine.count("bob") == 0


def test_erase_generations_count_forgets_and_a_noted_generation_holds_writes_in_its_context(
    engine: RecallEngine,
) -> None:
    before = ERASURES.generation("dora")
    engine.forget("dora")
    assert ERASURES.generation("dora") == before + 1 and ERASURES.since("dora") == before + 1
    with ERASURES.began("dora", before):  # a capture of a turn that began before that forget
        assert ERASURES.since("dora") == before
        with pytest.raises(ForgottenError, match="entity 'dora'"):
            engine.add("dora", ["User plays chess."])
    engine.add("dora", ["User plays chess."])
    assert stored(engine, "dora") == ["User plays chess."]


# -- the capture pool ---------------------------------------------------------------------------------------------


class _Counting(Gate):
    """A :class:`Gate` whose calls answer "User said: <the last message>" (the rules find no fact in "hi from
    ann")."""

    def answer(self, messages: Sequence[MessageLike]) -> list[ExtractedFact]:
        return [ExtractedFact(text=f"User said: {as_messages(messages)[-1].text}")]


def test_an_engines_captures_run_on_capture_workers_threads() -> None:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder(), capture_workers=2)
    assert engine.capture_lanes.workers == 2
    extractor = _Counting()
    captures = BackgroundCapture("test", LOG)
    for who in ("ann", "bob", "cid"):
        assert captures.submit(engine, who, [("user", f"hi from {who}")], extractor)
    with extractor.changed:
        assert extractor.changed.wait_for(lambda: extractor.running == 2, 30)
    assert engine.capture_lanes.pending == 3  # the third waits for a thread
    extractor.opened.set()
    assert captures.flush(timeout=30)
    assert extractor.most_running == 2 and engine.capture_lanes.pending == 0
    assert [stored(engine, who) for who in ("ann", "bob", "cid")] == [
        ["User said: hi from ann"], ["User said: hi from bob"], ["User said: hi from cid"]]


def test_capture_workers_default_to_eight_per_cpu_and_are_checked() -> None:
    assert RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder()).capture_lanes.workers == \
        DEFAULT_CAPTURE_WORKERS
    assert 8 <= DEFAULT_CAPTURE_WORKERS <= 32 and DEFAULT_CAPTURE_WORKERS % 8 == 0
    for bad in (0, -1, True, 2.5, "8"):
        with pytest.raises(ValueError, match="capture_workers must be an int >= 1"):
            RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder(),
                         capture_workers=bad)  # type: ignore[arg-type]


def test_lanes_run_one_entitys_jobs_in_order_and_refuse_jobs_after_shutdown() -> None:
    lanes = Lanes(4)
    ran: list[int] = []
    release = threading.Event()

    def job(n: int) -> Callable[[], None]:
        def run() -> None:
            if n == 0:
                assert release.wait(30)
            ran.append(n)
        return run

    for n in range(5):
        lanes.submit("ann", job(n))
    assert lanes.pending == 5 and not lanes.wait(timeout=0)
    release.set()
    assert lanes.wait(timeout=30) and ran == [0, 1, 2, 3, 4] and lanes.pending == 0
    lanes.shutdown()
    with pytest.raises(RuntimeError):
        lanes.submit("ann", job(9))
    assert lanes.pending == 0


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_runs_captures_on_a_pool_of_its_own():
    lanes = Lanes(2)
    ran = threading.Event()
    lanes.submit("u", ran.set)  # the parent's pool has started
    assert ran.wait(10)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its inherited pool has no thread; a job must still run
        os.close(read)
        done = threading.Event()
        try:
            lanes.submit("u", done.set)
            ok = done.wait(10) and lanes.wait(10)
        except BaseException:
            ok = False
        os.write(write, b"1" if ok else b"0")
        os._exit(0)
    os.close(write)
    got = os.read(read, 1)
    os.close(read)
    os.waitpid(pid, 0)
    assert got == b"1"


# -- what a capture takes from the code that queued it ------------------------------------------------------------

NFD_ID = "jose\u0301"  # "josé" as macOS sends it: refused unless inside unnormalized_entity_ids()
_APP_VAR: contextvars.ContextVar[str] = contextvars.ContextVar("an_apps_request_id", default="unset")


def test_a_capture_queued_inside_unnormalized_entity_ids_is_stored_under_the_id_it_allows() -> None:
    engine = ungated_engine()
    captures = BackgroundCapture("test", LOG)
    with unnormalized_entity_ids():
        assert captures.submit(engine, NFD_ID, [("user", "I live in Porto.")], RuleBasedFactExtractor())
    done = captures.flush(timeout=30)
    assert done and done.completed == 1 and done.failed == 0
    with unnormalized_entity_ids():
        assert stored(engine, NFD_ID) == ["User lives in Porto."]


def test_a_capture_queued_outside_unnormalized_entity_ids_is_refused_on_its_thread(
        caplog: pytest.LogCaptureFixture) -> None:
    engine = ungated_engine()
    captures = BackgroundCapture("test", LOG)
    with unnormalized_entity_ids():
        pass  # the setting ends with the block: a capture queued after it does not have it
    with caplog.at_level(logging.WARNING, logger=LOG.name):
        assert captures.submit(engine, NFD_ID, [("user", "I live in Porto.")], RuleBasedFactExtractor())
        done = captures.flush(timeout=30)
    assert done and done.failed == 1
    assert "not in Unicode NFC form" in caplog.text


def test_a_lane_job_gets_memoris_carried_settings_and_none_of_the_submitters_other_context() -> None:
    lanes = Lanes(1)
    seen: list[tuple[bool, str]] = []

    def job() -> None:
        seen.append((UNNORMALIZED_IDS_ALLOWED.get(), _APP_VAR.get()))

    token = _APP_VAR.set("request-7")
    try:
        with unnormalized_entity_ids():
            lanes.submit("ann", job)
        lanes.submit("ann", job)
    finally:
        _APP_VAR.reset(token)
    assert lanes.wait(timeout=30)
    assert seen == [(True, "unset"), (False, "unset")]
    assert CARRIED == (UNNORMALIZED_IDS_ALLOWED,)
