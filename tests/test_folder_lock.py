"""One process per embedded Chroma folder (issue 10), checked with real processes.

A second process opening a folder that a live process holds is refused with a
clear error; the same process may open a folder many times; a folder left by a
killed process, or by one that exited, opens normally.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from _helpers import ungated_engine
from memori_core import ChromaStore, FolderInUseError, RecallEngine, StoredFact
from memori_core.cache.snapshot_files import snapshot_files_for
from memori_core.store import FolderInUseError as StoreFolderInUseError

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent


def child_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ, ANONYMIZED_TELEMETRY="False", **extra)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(TESTS), env.get("PYTHONPATH", "")])
    return env


def run_python(code: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True, text=True, env=child_env(**env), cwd=str(ROOT), timeout=120,
    )


def engine_on(store: ChromaStore) -> RecallEngine:
    return ungated_engine(store=store)


# The child tries to open the folder and reports what happened as one JSON line.
TRY_OPEN = """
import json, os, sys
from memori_core import ChromaStore, FolderInUseError
try:
    store = ChromaStore(path=sys.argv[1]) if sys.argv[1] != "default" else ChromaStore()
except FolderInUseError as exc:
    print(json.dumps({"opened": False, "message": str(exc), "pid": exc.pid, "folder": exc.folder,
                      "runtime_error": isinstance(exc, RuntimeError)}))
else:
    print(json.dumps({"opened": True, "count": store.count("alice")}))
"""


def try_open_in_other_process(folder: str, **env: str) -> dict:
    proc = run_python(TRY_OPEN, folder, **env)
    assert proc.returncode == 0, f"child failed:\n{proc.stdout}\n{proc.stderr[-3000:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_error_is_exported_from_memori_core_and_the_store_package() -> None:
    assert FolderInUseError is StoreFolderInUseError and issubclass(FolderInUseError, RuntimeError)


@pytest.mark.parametrize("how", ["path", "default"])
@pytest.mark.slow
def test_other_process_opening_a_held_folder_is_refused_naming_folder_pid_and_chroma_run(
    tmp_path: Path, how: str
) -> None:
    folder = tmp_path / "held db"  # a space, so the suggested command must quote it
    engine_on(ChromaStore(path=folder)).add("alice", ["User likes tea."])

    if how == "path":
        seen = try_open_in_other_process(str(folder))
    else:  # ChromaStore() on the default folder, set through the environment
        seen = try_open_in_other_process("default", MEMORI_RECALL_PATH=str(folder))

    assert seen["opened"] is False and seen["runtime_error"] is True
    real = os.path.realpath(folder)
    assert seen["folder"] == real and seen["pid"] == os.getpid()
    message = seen["message"]
    assert real in message
    assert f"pid {os.getpid()}" in message
    assert "chroma run --path" in message and "ChromaStore.http(" in message and "--server" in message


@pytest.mark.slow
def test_cli_add_on_a_held_folder_exits_2_with_the_fix_and_the_holder_keeps_working(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    engine = engine_on(ChromaStore(path=folder))
    engine.add("x", ["User likes tea."])

    proc = subprocess.run(
        [sys.executable, "-m", "memori_core.cli", "add", "-e", "x", "fact", "--path", str(folder)],
        capture_output=True, text=True, env=child_env(), cwd=str(ROOT), timeout=120,
    )

    assert proc.returncode == 2, proc.stderr[-3000:]
    assert proc.stderr.startswith("memori: error:") and "Traceback" not in proc.stderr
    assert f"pid {os.getpid()}" in proc.stderr
    assert "chroma run --path" in proc.stderr and "--server 127.0.0.1:8000" in proc.stderr
    assert proc.stdout == ""
    # The holder never noticed: it still reads and writes, and the refused fact is not there.
    engine.add("x", ["User plays the cello."])
    assert engine.count("x") == 2
    assert engine.recall("cello", "x")[0].content == "User plays the cello."
    assert engine_on(ChromaStore(path=folder)).count("x") == 2


HOLD_UNTIL_KILLED = """
import sys, time
from _helpers import HashEmbedder
from memori_core import ChromaStore, RecallEngine
eng = RecallEngine(store=ChromaStore(path=sys.argv[1]), embedder=HashEmbedder())
eng.add("alice", ["User is allergic to peanuts."])
print("ready", flush=True)
time.sleep(600)
"""


@pytest.mark.slow
def test_folder_of_a_process_killed_with_sigkill_opens_normally(tmp_path: Path) -> None:
    folder = str(tmp_path / "db")
    stderr = open(tmp_path / "child.err", "w+")
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(HOLD_UNTIL_KILLED), folder],
        stdout=subprocess.PIPE, stderr=stderr, text=True, env=child_env(), cwd=str(ROOT),
    )
    try:
        line = child.stdout.readline()  # blocks until the child holds the folder (or dies)
        assert line.strip() == "ready", f"child did not get ready: {(tmp_path / 'child.err').read_text()[-3000:]}"
        with pytest.raises(FolderInUseError, match=f"pid {child.pid}"):
            ChromaStore(path=folder)  # held: the kill below is what frees it
        child.kill()
        child.wait(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=60)
        child.stdout.close()
        stderr.close()
    if sys.platform != "win32":
        assert child.returncode == -signal.SIGKILL

    engine = engine_on(ChromaStore(path=folder))
    assert engine.count("alice") == 1
    assert engine.recall("peanuts", "alice")[0].content == "User is allergic to peanuts."
    engine.add("alice", ["User lives in Lisbon."])
    assert engine.count("alice") == 2


def test_two_stores_of_one_process_on_one_folder_share_it(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    first = engine_on(ChromaStore(path=folder))
    second = engine_on(ChromaStore(path=tmp_path / "." / "db"))  # another spelling of the same folder
    link = tmp_path / "link"
    try:
        link.symlink_to(folder, target_is_directory=True)
        third = engine_on(ChromaStore(path=link))
    except (OSError, NotImplementedError):  # no symlinks here (e.g. Windows without the privilege)
        third = second

    first.add("alice", ["User likes tea.", "User lives in Lisbon."])
    assert second.count("alice") == 2 and third.count("alice") == 2
    second.add("alice", ["User plays the cello."])
    assert first.count("alice") == 3 and third.count("alice") == 3
    assert first.recall("cello", "alice")[0].content == "User plays the cello."


@pytest.mark.slow
def test_close_frees_the_folder_only_when_every_store_of_the_process_is_closed(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    a, b = ChromaStore(path=folder), ChromaStore(path=folder)
    engine_on(a).add("alice", ["User likes tea."])

    a.close()
    a.close()  # idempotent
    assert b.count("alice") == 1  # b's hold keeps the folder, and its Chroma client, open
    assert try_open_in_other_process(str(folder))["opened"] is False

    b.close()
    assert try_open_in_other_process(str(folder)) == {"opened": True, "count": 1}
    # ... and, that process gone, this one opens it again and sees the same data.
    assert engine_on(ChromaStore(path=folder)).count("alice") == 1


def _collections(store: ChromaStore) -> set[str]:
    return {c if isinstance(c, str) else c.name for c in store._client.list_collections()}


def test_closing_an_in_memory_store_drops_its_collections_and_leaves_the_others() -> None:
    # All in-memory stores of a process share one Chroma system, which keeps a collection until it is dropped.
    kept, closed = ChromaStore.in_memory(), ChromaStore.in_memory()
    kept.upsert("alice", [StoredFact("a", "alice", "User likes tea.", None)], np.ones((1, 4), np.float32))
    closed.upsert("alice", [StoredFact("b", "alice", "User likes jazz.", None)], np.ones((1, 4), np.float32))
    name = closed._facts.name
    assert {name, f"{name}_revisions"} <= _collections(kept)
    closed.close()
    closed.close()  # idempotent
    assert not {name, f"{name}_revisions"} & _collections(kept)
    assert [f.id for f in kept.get("alice", ["a"])] == ["a"]


def test_a_garbage_collected_in_memory_store_is_dropped_when_the_next_one_is_made() -> None:
    survivor = ChromaStore.in_memory()
    gone = ChromaStore.in_memory()
    name = gone._facts.name
    del gone
    gc.collect()
    assert name in _collections(survivor)  # marked unused only: a finalizer must not call into Chroma
    ChromaStore.in_memory()
    assert name not in _collections(survivor) and f"{name}_revisions" not in _collections(survivor)


WRITE_AND_EXIT = """
import sys
from _helpers import HashEmbedder
from memori_core import ChromaStore, RecallEngine
RecallEngine(store=ChromaStore(path=sys.argv[1]), embedder=HashEmbedder()).add("alice", ["User likes tea."])
print("written")
"""


@pytest.mark.slow
def test_folder_of_a_process_that_exited_opens_in_another_process(tmp_path: Path) -> None:
    folder = str(tmp_path / "db")
    writer = run_python(WRITE_AND_EXIT, folder)
    assert writer.returncode == 0 and writer.stdout.strip() == "written", writer.stderr[-3000:]
    assert try_open_in_other_process(folder) == {"opened": True, "count": 1}


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_using_the_parents_embedded_store_gets_a_clear_error_not_a_hang(tmp_path: Path) -> None:
    engine = ungated_engine(store=ChromaStore(path=tmp_path / "store"))
    engine.add("u", "User lives in Lisbon.")
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: chromadb's embedded system did not survive the fork
        os.close(read)
        try:
            engine.add("u", "User has a dog.")
            message = "no error"
        except RuntimeError as exc:
            message = str(exc)
        except BaseException as exc:  # noqa: BLE001 - reported to the parent
            message = f"{type(exc).__name__}: {exc}"
        os.write(write, message.encode())
        os._exit(0)
    os.close(write)
    signal.alarm(60)  # a hang fails the test instead of stopping the suite
    try:
        with os.fdopen(read) as pipe:
            said = pipe.read()
        os.waitpid(pid, 0)
    finally:
        signal.alarm(0)
    assert "forked from it" in said and "open the store and the engine in the child" in said
    assert [f.content for f in engine.list("u")] == ["User lives in Lisbon."]  # the parent's store is intact
    engine.add("u", "User has a cat.")
    assert engine.count("u") == 2


# -- the folder deleted under a running process (tester j4, finding 10) ---------------------------------------------


def test_a_folder_deleted_under_the_store_fails_every_read_and_write_naming_it_and_closes_quietly(
    tmp_path: Path,
) -> None:
    import shutil

    from memori_core.store import StoreFolderGoneError

    folder = tmp_path / "db"
    store = ChromaStore(path=folder)
    engine = ungated_engine(store=store)
    engine.add("alice", ["User is allergic to peanuts."])
    assert [f.content for f in engine.recall("peanuts", "alice")] == ["User is allergic to peanuts."]
    snapshot_files_for(store).wait()  # type: ignore[union-attr]  # (its writer is done with the folder)
    shutil.rmtree(folder)
    calls = {
        "recall": lambda: engine.recall("peanuts", "alice"),  # the copy in memory is not served
        "list": lambda: engine.list("alice"),
        "count": lambda: engine.count("alice"),
        "add": lambda: engine.add("alice", ["User has a cat."]),
        "forget": lambda: engine.forget("alice"),
    }
    for name, call in calls.items():
        with pytest.raises(StoreFolderGoneError, match="was deleted, moved or unmounted") as caught:
            call()
        assert str(folder.resolve()) in str(caught.value), name
        assert "restart this process" in str(caught.value), name
    store.close()  # the failure was said: closing does not raise it again
    assert not folder.exists()  # nothing wrote a new, empty store in its place


def test_a_folder_deleted_and_made_again_under_the_store_is_not_written_to(tmp_path: Path) -> None:
    import shutil

    from memori_core.store import StoreFolderGoneError

    folder = tmp_path / "db"
    store = ChromaStore(path=folder)
    engine = ungated_engine(store=store)
    engine.add("alice", ["User is allergic to peanuts."])
    engine.recall("peanuts", "alice")
    snapshot_files_for(store).wait()  # type: ignore[union-attr]
    shutil.rmtree(folder)
    folder.mkdir()  # a deploy script that cleans the folder
    with pytest.raises(StoreFolderGoneError, match="replaced by another folder"):
        engine.recall("peanuts", "alice")
    with pytest.raises(StoreFolderGoneError, match="replaced by another folder"):
        engine.add("alice", ["User has a cat."])
    store.close()
    assert list(folder.iterdir()) == []
