"""The engine's async methods run on two bounded pools: writes (bulk imports included) never hold up reads.

The writes are held inside the engine by their ``progress`` callback (called on the write's thread after its
first embedding batch), so the write pool is full for as long as the test says; no timing is asserted
(``asyncio.wait_for`` bounds are hang guards only).
"""

from __future__ import annotations

import asyncio
import os
import select
import signal
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.store.in_memory import InMemoryFactStore
from memori_langchain import MemoriContextInjector

OPEN = RecallConfig(gate="off")
GUARD = 60.0  # seconds: only so that a regression fails instead of hanging the suite


class HeldWrites:
    """``aadd`` calls whose threads wait inside the engine until :meth:`release`."""

    def __init__(self, engine: RecallEngine) -> None:
        self.engine = engine
        self.running: list[str] = []  # the entities whose write reached its thread, in order
        self._lock = threading.Lock()
        self._arrived = threading.Semaphore(0)
        self._release = threading.Event()
        self.tasks: list[asyncio.Task[list[str]]] = []

    def start(self, entity_id: str) -> None:
        def progress(stage: str, done: int, total: int) -> None:
            if stage == "embed" and done == total:
                with self._lock:
                    self.running.append(entity_id)
                self._arrived.release()
                self._release.wait(GUARD)

        facts = [f"Profile line {k} of {entity_id}." for k in range(3)]
        self.tasks.append(asyncio.create_task(self.engine.aadd(entity_id, facts, progress=progress)))

    async def until_running(self, n: int) -> None:
        """Wait until ``n`` of the writes are on their threads (and held there)."""
        for _ in range(n):
            assert await asyncio.to_thread(self._arrived.acquire, True, GUARD), "a write never reached its thread"

    def release(self) -> None:
        self._release.set()


@asynccontextmanager
async def held_writes(engine: RecallEngine, entities: list[str]) -> AsyncIterator[HeldWrites]:
    held = HeldWrites(engine)
    for entity in entities:
        held.start(entity)
    try:
        yield held
    finally:
        held.release()
        await asyncio.wait_for(asyncio.gather(*held.tasks, return_exceptions=True), GUARD)


def chroma_engine(hash_embedder, **kwargs: int) -> RecallEngine:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder, config=OPEN, **kwargs)
    engine.add("reader", ["User is allergic to peanuts."])
    return engine


def test_every_async_read_completes_while_bulk_adds_hold_every_write_thread(hash_embedder) -> None:
    engine = chroma_engine(hash_embedder, async_write_workers=2)
    fid = engine.list("reader")[0].id

    async def main() -> dict[str, object]:
        async with held_writes(engine, ["import-0", "import-1", "import-2"]) as held:
            await held.until_running(2)
            out: dict[str, object] = {
                "arecall": [f.content for f in await asyncio.wait_for(engine.arecall("peanuts", "reader"), GUARD)],
                "anearest": [f.content for f in await asyncio.wait_for(engine.anearest("peanuts", "reader"), GUARD)],
                "aexplain": [f.content for f in (await asyncio.wait_for(engine.aexplain("peanuts", "reader"),
                                                                        GUARD)).facts],
                "acount": await asyncio.wait_for(engine.acount("reader"), GUARD),
                "alist": [f.content for f in await asyncio.wait_for(engine.alist("reader"), GUARD)],
                "aget": [f.content for f in await asyncio.wait_for(engine.aget("reader", [fid]), GUARD)],
                "ahistory": [f.content for f in await asyncio.wait_for(engine.ahistory("reader", fid), GUARD)],
            }
            out["writes running during the reads"] = list(held.running)
        out["stored"] = [engine.count(f"import-{i}") for i in range(3)]
        return out

    out = asyncio.run(main())
    allergy = ["User is allergic to peanuts."]
    assert out["arecall"] == out["anearest"] == out["aexplain"] == out["alist"] == out["aget"] == allergy
    assert out["ahistory"] == allergy and out["acount"] == 1
    # The write pool stayed full and bounded: the third import waited for a write thread, not a read thread.
    assert sorted(out["writes running during the reads"]) == ["import-0", "import-1"]  # type: ignore[arg-type]
    assert out["stored"] == [3, 3, 3]  # the queued import ran once a write thread was free


def test_a_langchain_injector_answers_with_memory_while_imports_hold_every_write_thread(hash_embedder) -> None:
    engine = chroma_engine(hash_embedder)  # the default pools
    injector = MemoriContextInjector(engine=engine, entity_id="reader")

    async def main() -> str:
        names = [f"import-{i}" for i in range(engine.async_write_workers + 4)]
        async with held_writes(engine, names) as held:
            await held.until_running(engine.async_write_workers)
            messages = await asyncio.wait_for(
                injector.ainvoke([SystemMessage("You are helpful."), HumanMessage("Can I eat peanuts?")]), GUARD)
            return str(messages[0].content)

    assert "User is allergic to peanuts." in asyncio.run(main())


def test_writes_and_exports_wait_for_a_write_thread_while_reads_do_not(hash_embedder) -> None:
    engine = chroma_engine(hash_embedder, async_write_workers=1)

    async def main() -> tuple[bool, bool, int]:
        async with held_writes(engine, ["import-0"]) as held:
            await held.until_running(1)
            export = asyncio.ensure_future(engine.aexport("reader"))
            add = asyncio.ensure_future(engine.aadd("reader", ["User has a cat."]))
            count = await asyncio.wait_for(engine.acount("reader"), GUARD)  # a read: served meanwhile
            queued = not export.done() and not add.done()
        await asyncio.wait_for(asyncio.gather(export, add), GUARD)
        return queued, len(export.result()) == 1, count

    queued, exported, count = asyncio.run(main())
    assert queued, "an export or a write ran although the only write thread was held"
    assert exported and count == 1
    assert engine.count("reader") == 2


def test_async_write_workers_is_validated_naming_it(hash_embedder) -> None:
    for bad in (0, -1, 1.5, True, "4"):
        with pytest.raises(ValueError, match="async_write_workers"):
            RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder, async_write_workers=bad)  # type: ignore[arg-type]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_runs_async_calls_on_pools_of_its_own(hash_embedder) -> None:
    # The parent's pools have their one thread each before the fork; the child inherits the pool objects
    # without the threads, and a pool that made all its threads never makes another: on them, a call would hang.
    engine = RecallEngine(store=InMemoryFactStore(), embedder=hash_embedder, config=OPEN,
                          async_workers=1, async_write_workers=1)
    engine.add("u", ["User lives in Lisbon."])

    async def use() -> list[str]:
        await engine.aadd("u", ["User has a dog."])
        return sorted(f.content for f in await asyncio.wait_for(engine.arecall("Lisbon dog", "u"), GUARD))

    assert asyncio.run(use()) == ["User has a dog.", "User lives in Lisbon."]
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            message = repr(asyncio.run(use()))
        except BaseException as exc:  # noqa: BLE001 - reported to the parent
            message = f"{type(exc).__name__}: {exc}"
        os.write(write, message.encode())
        os._exit(0)
    os.close(write)
    assert child_says(pid, read) == repr(["User has a dog.", "User lives in Lisbon."])


def child_says(pid: int, read: int) -> str:
    """What forked child ``pid`` wrote to the pipe ``read`` before exiting; a child that hangs is killed (and the
    test fails) instead of hanging the suite."""
    with os.fdopen(read) as pipe:
        ready, _, _ = select.select([pipe], [], [], GUARD * 2)
        if not ready:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            pytest.fail("the forked child hung")
        said = pipe.read()
    os.waitpid(pid, 0)
    return said


def test_a_cancelled_write_runs_to_its_end_whether_running_or_waiting_for_a_thread(hash_embedder, caplog) -> None:
    engine = chroma_engine(hash_embedder, async_write_workers=1)
    engine.add("bob", ["User is vegetarian."])

    async def main() -> list[bool]:
        async with held_writes(engine, ["import-0"]) as held:
            await held.until_running(1)  # the only write thread is held inside this add
            queued = [asyncio.ensure_future(engine.aadd("ann", ["User has a cat."])),
                      asyncio.ensure_future(engine.aforget("bob")),
                      asyncio.ensure_future(engine.aadd(" bad id ", ["User has a dog."]))]
            await asyncio.sleep(0)  # each has asked for a thread
            running = held.tasks[0]
            for task in [running, *queued]:
                task.cancel()
            outcomes = await asyncio.gather(running, *queued, return_exceptions=True)
            cancelled = [isinstance(o, asyncio.CancelledError) for o in outcomes]
        await asyncio.wait_for(engine.aadd("zed", ["User likes jazz."]), GUARD)  # one thread, in order: after all
        for _ in range(100):  # the failed write's report is a callback the loop runs soon after it ended
            if "whose caller was cancelled" in caplog.text:
                break
            await asyncio.sleep(0.01)
        return cancelled

    with caplog.at_level("WARNING", logger="memori_core.engine"):
        assert asyncio.run(main()) == [True] * 4  # every caller saw its cancellation at once...
    assert engine.count("import-0") == 3  # ...and every write ran: the one on its thread
    assert [f.content for f in engine.list("ann")] == ["User has a cat."]  # and those still waiting for one
    assert engine.count("bob", include_invalid=True) == 0
    [warning] = [r for r in caplog.records if "whose caller was cancelled" in r.getMessage()]
    assert warning.getMessage().startswith("add, whose caller was cancelled, failed (ValueError: entity_id ' bad id '")
