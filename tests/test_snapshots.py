"""Per-entity cache snapshots beside an embedded store: same answers as a load from Chroma, never stale,
never another entity's or collection's, ignored (and removed) when damaged."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from _helpers import CountingStore
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.cache import snapshot_format
from memori_core.cache import snapshot_files as snapshots_mod
from memori_core.cache.snapshot_files import SnapshotFiles, snapshot_files_for, snapshot_name

ROOT = Path(__file__).resolve().parent.parent
OPEN = RecallConfig(gate="off")
WORDS = (
    "apple banana cherry tea coffee hiking kite lemon mango night ocean piano quilt running sushi jazz "
    "cello dog walk Lisbon Kyoto garden chess yoga"
).split()
QUERIES = ["apple tea", "hiking with the dog", "piano night jazz", "Lisbon garden", "sushi", "cello chess yoga"]


def gaussian_embedder(texts: list[str]) -> np.ndarray:
    """A Gaussian vector per text, seeded by the text: no two facts tie on cosine."""
    seeds = [int.from_bytes(hashlib.blake2b(t.encode(), digest_size=8).digest(), "little") for t in texts]
    return np.stack([np.random.default_rng(s).normal(size=32) for s in seeds]).astype(np.float32)


def query_vectors() -> list[list[float]]:
    return [v.tolist() for v in gaussian_embedder(QUERIES)]


def fill(engine: RecallEngine, entity: str = "u", n: int = 120, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    texts = [" ".join(rng.choice(WORDS, size=5)) + f" note {entity} {i}" for i in range(n)]
    metas = [{"topic": ["food", "music", "travel"][i % 3], "rank": i % 5} for i in range(n)]
    sessions = [None if i % 4 == 0 else f"s{i // 10}" for i in range(n)]
    engine.add(entity, texts, ids=[f"{entity}-{i}" for i in range(n)], metadata=metas, session_id=sessions)
    engine.add(entity, ["User's passport expires soon"], ids=[f"{entity}-exp"], expires_at=timedelta(days=30))


def answers(engine: RecallEngine, entity: str = "u") -> dict[str, Any]:
    """Everything a caller sees: recall, explain pools, where filters, list pages."""
    out: dict[str, Any] = {"recall": [], "explain": [], "where": [], "list": []}
    for q, v in zip(QUERIES, query_vectors()):
        out["recall"].append([(f.id, f.content, f.metadata, f.rank_score, f.cosine) for f in engine.recall(q, entity, 8, query_vector=v)])
        report = engine.explain(q, entity, 8, query_vector=v)
        out["explain"].append([(c.id, c.rank_score, c.reason, c.source) for c in report.candidates] + [report.pool_size])
        hits = engine.recall(q, entity, 5, query_vector=v, where={"topic": {"$in": ["food", "travel"]}})
        out["where"].append([(f.id, f.rank_score) for f in hits])
    out["list"] = [(f.id, f.created_at, f.seq, f.metadata, f.session_id) for f in engine.list(entity, limit=30, offset=5)]
    out["list"] += [(f.id,) for f in engine.list(entity, session_id="s3", newest_first=False)]
    return json.loads(json.dumps(out))  # as a child process reports them


def assert_same_answers(a: dict[str, Any], b: dict[str, Any]) -> None:
    """Same ids, contents and metadata in the same order; scores within 1e-6 (a snapshot written after
    in-place writes holds vectors normalised per batch, which may differ from a reload in the last bit)."""
    for part in ("recall", "explain", "where"):
        assert len(a[part]) == len(b[part])
        for ra, rb in zip(a[part], b[part]):
            if part == "explain":
                assert ra[-1] == rb[-1]  # pool size
                ra, rb = ra[:-1], rb[:-1]
            assert [[x for x in r if not isinstance(x, float)] for r in ra] == [
                [x for x in r if not isinstance(x, float)] for r in rb
            ], part
            for x, y in zip(ra, rb):
                for u, w in zip(x, y):
                    if isinstance(u, float):
                        assert u == pytest.approx(w, abs=1e-6), part
    assert a["list"] == b["list"]


CHILD = textwrap.dedent(
    """
    import json, sys
    sys.path[:0] = [{root!r}, {tests!r}]
    from memori_core import ChromaStore, RecallConfig, RecallEngine
    from memori_core.cache.snapshot_files import snapshot_files_for
    from _helpers import CountingStore
    from test_snapshots import answers

    store = CountingStore(path=sys.argv[1], snapshots=sys.argv[2] == "1")
    engine = RecallEngine(store=store, embedder=lambda texts: None, config=RecallConfig(gate="off"))
    out = answers(engine)
    out["loads"] = store.loads
    files = snapshot_files_for(store)
    out["from_snapshot"] = files.loaded if files is not None else 0
    store.close()
    print(json.dumps(out))
    """
)


def fresh_process(path: Path, snapshots: bool) -> dict[str, Any]:
    """Answers of a fresh engine in a new process over the folder (its first recall loads the entity)."""
    script = CHILD.format(root=str(ROOT), tests=str(ROOT / "tests"))
    done = subprocess.run(
        [sys.executable, "-c", script, str(path), "1" if snapshots else "0"],
        capture_output=True, text=True, timeout=300, env=dict(os.environ, ANONYMIZED_TELEMETRY="False"),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def snap_path(store: ChromaStore, entity: str = "u") -> Path:
    files = snapshot_files_for(store)
    assert files is not None
    return files.path(entity)


def loaded_store(path: Path, **kw: Any) -> tuple[CountingStore, RecallEngine]:
    store = CountingStore(path=path, **kw)
    return store, RecallEngine(store=store, embedder=gaussian_embedder, config=OPEN)


def recalled_store(path: Path, n: int = 120) -> tuple[CountingStore, RecallEngine, SnapshotFiles]:
    """:func:`loaded_store` after ``fill(engine, n=n)`` and a recall that loaded u's copy (its snapshot is then
    queued), with the store's snapshot files."""
    store, engine = loaded_store(path)
    fill(engine, n=n)
    engine.recall("apple", "u")
    files = snapshot_files_for(store)
    assert files is not None
    return store, engine, files


class Snapshotted:
    """A closed store folder where ``fill(engine)`` was followed by ``answers(engine)`` and a flush of the
    snapshot of u's copy; ``copy(folder)`` gives a test its own copy of it (one fill for the module)."""

    def __init__(self, folder: Path) -> None:
        store, engine = loaded_store(folder)
        fill(engine)
        self.answers = answers(engine)  # what the engine that wrote the snapshot answered
        snapshot_files_for(store).flush()  # type: ignore[union-attr]
        self.snap = snap_path(store).relative_to(folder)
        store.close()
        self.folder = folder

    def copy(self, folder: Path) -> Path:
        """A copy of the folder at ``folder``; returns the path of its snapshot of u."""
        shutil.copytree(self.folder, folder)
        return folder / self.snap


@pytest.fixture(scope="module")
def snapshotted(tmp_path_factory: pytest.TempPathFactory) -> Snapshotted:
    return Snapshotted(tmp_path_factory.mktemp("snapshotted") / "db")


# -- same answers -------------------------------------------------------------------


@pytest.mark.slow  # several seconds: left out of `make test-fast`
def test_new_process_answers_from_the_snapshot_as_from_chroma(tmp_path: Path) -> None:
    store, engine, files = recalled_store(tmp_path / "db")
    path = snap_path(store)
    store.close()  # writes the snapshot of the current copy if it has none yet
    assert path.exists() and files.written >= 1

    from_snapshot = fresh_process(tmp_path / "db", snapshots=True)
    from_chroma = fresh_process(tmp_path / "db", snapshots=False)
    assert from_snapshot["from_snapshot"] == 1 and from_snapshot["loads"] == 0
    assert from_chroma["from_snapshot"] == 0 and from_chroma["loads"] == 1
    assert from_snapshot["recall"] and all(from_snapshot["recall"])
    assert_same_answers(from_snapshot, from_chroma)
    assert from_snapshot["list"] == from_chroma["list"]


@pytest.mark.slow  # several seconds: left out of `make test-fast`
def test_snapshot_written_at_close_after_in_place_writes_answers_as_chroma(tmp_path: Path) -> None:
    store, engine, files = recalled_store(tmp_path / "db", n=300)
    files.wait()
    # In-place writes: new facts (some out of seq order), a replacement, sightings, deletes, an edit.
    engine.add("u", ["late fact about tea and cello"], ids=["late"], session_id="s3")
    engine.add("u", ["replaced apple text in Kyoto"], ids=["u-7"], session_id="s0")
    engine.add("u", ["User likes jazz piano at night", "User likes jazz piano at night"])
    engine.delete("u", [f"u-{i}" for i in range(10, 40)])
    engine.update("u", "u-50", metadata={"topic": "travel", "edited": True})
    cache = engine._coord.caches.get("u")
    assert cache is not None and not cache.is_canonical()
    assert not snap_path(store).exists()  # every write deletes the snapshot first
    in_process = answers(engine)
    store.close()  # writes the canonical form of the written cache

    from_snapshot = fresh_process(tmp_path / "db", snapshots=True)
    from_chroma = fresh_process(tmp_path / "db", snapshots=False)
    assert from_snapshot["from_snapshot"] == 1 and from_snapshot["loads"] == 0
    assert_same_answers(from_snapshot, from_chroma)
    assert_same_answers(in_process, from_chroma)


def test_a_snapshot_for_another_analyzer_gives_the_rows_and_is_retokenised(
    tmp_path: Path, snapshotted: Snapshotted
) -> None:
    assert snapshotted.copy(tmp_path / "db").exists()  # a snapshot made with the default analyzer
    compat = RecallConfig.memori_compat()
    store, _ = loaded_store(tmp_path / "db")
    a = RecallEngine(store=store, embedder=gaussian_embedder, config=compat)
    got = [[f.id for f in a.recall(q, "u", 8, query_vector=v)] for q, v in zip(QUERIES, query_vectors())]
    assert store.loads == 0 and snapshot_files_for(store).loaded == 1  # type: ignore[union-attr]
    store.close()
    store, _ = loaded_store(tmp_path / "db", snapshots=False)
    b = RecallEngine(store=store, embedder=gaussian_embedder, config=compat)
    assert got == [[f.id for f in b.recall(q, "u", 8, query_vector=v)] for q, v in zip(QUERIES, query_vectors())]
    store.close()


# -- never stale --------------------------------------------------------------------


def test_every_write_deletes_the_snapshot_before_writing(tmp_path: Path) -> None:
    store, engine, files = recalled_store(tmp_path / "db")
    for write in (
        lambda: engine.add("u", ["User drinks tea daily"]),
        lambda: engine.add("u", ["User drinks tea daily"]),  # a sighting (update_seen)
        lambda: engine.update("u", "u-3", metadata={"topic": "x"}),
        lambda: engine.delete("u", ["u-4"]),
        lambda: engine.import_("u", [{"text": "imported fact about sushi"}]),
        lambda: engine.forget("u"),
    ):
        engine._cache_for("u")
        files.flush()  # the current cache's snapshot is written...
        assert snap_path(store).exists()
        write()
        assert not snap_path(store).exists()  # ...and deleted by the write
    store.close()


def test_a_failed_write_leaves_no_snapshot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store, engine, files = recalled_store(tmp_path / "db")
    files.flush()
    assert snap_path(store).exists()

    def broken(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("store went away mid-write")

    monkeypatch.setattr(store, "upsert", broken)
    with pytest.raises(ConnectionError):
        engine.add("u", ["this write fails"])
    assert not snap_path(store).exists()
    store.close()


def test_a_snapshot_left_behind_by_a_later_write_is_never_used(tmp_path: Path) -> None:
    store, engine, files = recalled_store(tmp_path / "db")
    files.flush()
    old = tmp_path / "old.snap"
    shutil.copy(snap_path(store), old)
    engine.add("u", ["User moved to Kyoto last week"], ids=["moved"])
    engine.delete("u", ["u-1"])
    path = snap_path(store)
    shutil.copy(old, path)  # as if the delete before the write had failed
    store.close()  # the written cache is current: its snapshot replaces the stale one
    assert snapshot_format.read_header(path)[0]["revision"] != snapshot_format.read_header(old)[0]["revision"]

    shutil.copy(old, path)  # stale again, now with nothing in memory to replace it
    store, engine = loaded_store(tmp_path / "db")
    ids = {f.id for f in engine.list("u", limit=1000)}
    assert store.loads == 1 and snapshot_files_for(store).loaded == 0  # type: ignore[union-attr]
    assert "moved" in ids and "u-1" not in ids
    snapshot_files_for(store).wait()  # type: ignore[union-attr]
    header, _ = snapshot_format.read_header(snap_path(store))
    assert header["revision"] == store.revision("u")  # the stale file was replaced by a current one
    store.close()


def test_the_writer_never_renames_a_snapshot_whose_revision_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, engine = loaded_store(tmp_path / "db")
    fill(engine)
    files = snapshot_files_for(store)
    assert files is not None
    files.background = False
    files.wait()  # a background write queued by fill() may still be running (its temporary file in the folder)
    cache = engine._cache_for("u")
    real = snapshots_mod.write_snapshot

    def racing(path: Path, c: Any, collection_id: str) -> int:
        size = real(path, c, collection_id)
        store.bump_revision("u")  # a write commits while the file is being written
        return size

    monkeypatch.setattr(snapshots_mod, "write_snapshot", racing)
    assert files.write(cache) is False
    assert not snap_path(store).exists()
    assert not [p for p in snap_path(store).parent.iterdir()]  # no temporary file left either
    monkeypatch.setattr(snapshots_mod, "write_snapshot", real)
    assert files.write(cache) is False  # the cache itself is stale now
    assert files.write(engine._cache_for("u")) is True
    store.close()


# -- damaged files ------------------------------------------------------------------


def _damage(path: Path, how: str) -> None:
    data = bytearray(path.read_bytes())
    if how == "truncated":
        path.write_bytes(bytes(data[: len(data) - 100]))
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "flipped byte":
        _, start = snapshot_format.read_header(path)
        at = start + (len(data) - start) * 2 // 3
        data[at] ^= 0x5A
        path.write_bytes(bytes(data))
    elif how == "garbage header":
        data[20:40] = b"#" * 20
        path.write_bytes(bytes(data))
    elif how == "wrong magic":
        data[:8] = b"NOTASNAP"
        path.write_bytes(bytes(data))
    elif how == "appended":
        path.write_bytes(bytes(data) + b"\x00" * 64)


@pytest.mark.parametrize("how", ["truncated", "empty", "flipped byte", "garbage header", "wrong magic", "appended"])
def test_a_damaged_snapshot_is_ignored_and_removed(tmp_path: Path, snapshotted: Snapshotted, how: str) -> None:
    path = snapshotted.copy(tmp_path / "db")
    expected = snapshotted.answers
    _damage(path, how)
    store = CountingStore(path=tmp_path / "db")
    files = snapshot_files_for(store)
    assert files is not None
    files.background = False
    engine = RecallEngine(store=store, embedder=gaussian_embedder, config=OPEN)
    got = answers(engine)
    assert store.loads == 1 and files.loaded == 0
    assert not path.exists()  # removed, never served
    assert_same_answers(got, expected)
    store.close()


def test_a_corrupted_array_fails_the_checksum(tmp_path: Path, snapshotted: Snapshotted) -> None:
    path = snapshotted.copy(tmp_path / "db")
    store = CountingStore(path=tmp_path / "db")
    assert snap_path(store) == path
    header, start = snapshot_format.read_header(path)
    data = bytearray(path.read_bytes())
    _, _, off, nbytes = header["arrays"]["texts.buf"]
    data[start + off + nbytes // 2] ^= 0x01  # one bit of one fact's text
    path.write_bytes(bytes(data))
    expect = snapshot_format.Expected("u", store.revision("u"), snapshot_files_for(store).collection_id)  # type: ignore[union-attr]
    with pytest.raises(snapshot_format.SnapshotError, match="checksum"):
        snapshot_format.load_snapshot(path, expect)
    store.close()


# -- isolation ----------------------------------------------------------------------


def test_another_entitys_snapshot_is_never_read(tmp_path: Path) -> None:
    store, engine = loaded_store(tmp_path / "db")
    fill(engine, "alice", seed=1)
    fill(engine, "bob", seed=2)
    engine.recall("apple", "alice")
    engine.recall("apple", "bob")
    snapshot_files_for(store).flush()  # type: ignore[union-attr]
    alice, bob = snap_path(store, "alice"), snap_path(store, "bob")
    assert alice != bob and alice.exists() and bob.exists()
    store.close()
    shutil.copy(alice, bob)  # alice's rows under bob's name
    store, engine = loaded_store(tmp_path / "db")
    snapshot_files_for(store).background = False  # type: ignore[union-attr]
    ids = {f.id for f in engine.list("bob", limit=1000)}
    assert ids and all(i.startswith("bob") for i in ids)
    assert store.loads == 1 and not bob.exists()
    assert {f.id for f in engine.list("alice", limit=1000)} == {f"alice-{i}" for i in range(120)} | {"alice-exp"}
    assert snapshot_files_for(store).loaded == 1  # type: ignore[union-attr]  # alice's own snapshot
    store.close()


def test_another_collections_snapshot_is_never_read(tmp_path: Path) -> None:
    one = CountingStore(path=tmp_path / "db", collection="one")
    fill(RecallEngine(store=one, embedder=gaussian_embedder, config=OPEN), "u", seed=1)
    two = CountingStore(path=tmp_path / "db", collection="two")
    e2 = RecallEngine(store=two, embedder=gaussian_embedder, config=OPEN)
    fill(e2, "u", n=40, seed=2)
    RecallEngine(store=one, embedder=gaussian_embedder, config=OPEN).recall("apple", "u")
    snapshot_files_for(one).flush()  # type: ignore[union-attr]
    assert snap_path(one).parent != snap_path(two).parent
    snap_path(two).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(snap_path(one), snap_path(two))
    reader = RecallEngine(store=two, embedder=gaussian_embedder, config=OPEN)  # no copy yet: it must load
    assert len(reader.list("u", limit=1000)) == 41
    assert two.loads == 1 and snapshot_files_for(two).loaded == 0  # type: ignore[union-attr]
    one.close()
    two.close()


def test_snapshot_names_hash_the_entity() -> None:
    assert snapshot_name("u") != snapshot_name("u ") != snapshot_name("U")
    assert snapshot_name("a/../../etc").endswith(".snap") and "/" not in snapshot_name("a/../../etc")


# -- which stores ---------------------------------------------------------------------


def test_only_embedded_stores_keep_snapshots(tmp_path: Path) -> None:
    assert snapshot_files_for(ChromaStore.in_memory()) is None
    off = ChromaStore(path=tmp_path / "off", snapshots=False)
    engine = RecallEngine(store=off, embedder=gaussian_embedder, config=OPEN)
    fill(engine)
    engine.recall("apple", "u")
    off.close()
    assert not (tmp_path / "off" / "snapshots").exists()
    on = ChromaStore(path=tmp_path / "on")
    files = snapshot_files_for(on)
    assert isinstance(files, SnapshotFiles) and files is snapshot_files_for(on)  # one per store object
    assert files.directory == Path(on._folder_hold.folder) / "snapshots" / str(on._facts.id)
    on.close()


def test_the_cache_makes_one_snapshot_folder_per_store_object_and_forgets_it_with_the_store(tmp_path: Path) -> None:
    import gc

    store = ChromaStore(path=tmp_path / "db")
    engines = [RecallEngine(store=store, embedder=gaussian_embedder, config=OPEN) for _ in range(2)]
    files = snapshot_files_for(store)
    assert files is not None and files is snapshot_files_for(store)  # shared by both engines
    other = ChromaStore(path=tmp_path / "db")  # another store object on the folder: its own
    assert snapshot_files_for(other) is not files and snapshot_files_for(other).directory == files.directory  # type: ignore[union-attr]
    other.close()
    fill(engines[0], n=20)
    engines[1].recall("apple", "u")
    files.wait()
    key = id(store)
    store.close()
    assert snapshot_files_for(store) is None  # a closed store offers no folder
    assert files.path("u").exists()  # written by the close
    del store, engines, files
    gc.collect()
    assert key not in snapshots_mod._ATTACHED


def test_close_waits_for_the_background_write_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    store, engine = loaded_store(tmp_path / "db")
    fill(engine, n=400)
    engine.recall("apple", "u")
    folder = snap_path(store).parent
    store.close()
    assert [p.name for p in folder.iterdir()] == [snapshot_name("u")]


def test_leftover_temporary_files_are_removed_on_open(tmp_path: Path, snapshotted: Snapshotted) -> None:
    leftover = snapshotted.copy(tmp_path / "db").with_name(snapshot_name("u") + ".tmp999-1")
    leftover.write_bytes(b"partial")
    store = ChromaStore(path=tmp_path / "db")
    snapshot_files_for(store)  # made for the store on first use (by its first engine, or here)
    assert not leftover.exists() and snap_path(store).exists()
    store.close()


def test_a_second_store_opened_on_the_folder_keeps_the_file_the_first_is_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # A notebook cell that builds the engine again opens a second store object on the folder while the first
    # one's writer has its temporary file in it: the second one's clean-up of leftovers used to delete that
    # file, and the rename failed with FileNotFoundError ("could not write its snapshot").
    store, engine = loaded_store(tmp_path / "db")
    fill(engine, n=20)
    files = snapshot_files_for(store)
    assert files is not None
    files.background = False
    files.wait()
    cache = engine._cache_for("u")
    real = snapshots_mod.write_snapshot
    opened: list[ChromaStore] = []

    def reopened_meanwhile(path: Path, c: Any, collection_id: str) -> int:
        size = real(path, c, collection_id)
        assert path.exists()
        other = ChromaStore(path=tmp_path / "db")  # the cell run again
        snapshot_files_for(other)  # its snapshot files are made: leftovers are removed
        opened.append(other)
        return size

    monkeypatch.setattr(snapshots_mod, "write_snapshot", reopened_meanwhile)
    with caplog.at_level("WARNING", logger=snapshots_mod.__name__):
        assert files.write(cache) is True
    assert opened and not [r for r in caplog.records if "snapshot" in r.getMessage()]
    assert [p.name for p in files.directory.iterdir()] == [snapshot_name("u")]
    monkeypatch.setattr(snapshots_mod, "write_snapshot", real)
    opened[0].close()
    store.close()


def test_an_evicted_cache_with_writes_gets_its_snapshot(tmp_path: Path) -> None:
    store = CountingStore(path=tmp_path / "db")
    engine = RecallEngine(store=store, embedder=gaussian_embedder, config=OPEN, max_cached_entities=1)
    fill(engine, "a", n=30, seed=1)
    fill(engine, "b", n=30, seed=2)
    engine.recall("apple", "a")
    snapshot_files_for(store).wait()  # type: ignore[union-attr]
    engine.add("a", ["a new fact about sushi"], ids=["a-new"])  # in place; deletes a's snapshot
    assert not snap_path(store, "a").exists()
    engine.recall("apple", "b")  # evicts a: its snapshot is written in the background
    snapshot_files_for(store).wait()  # type: ignore[union-attr]
    header, _ = snapshot_format.read_header(snap_path(store, "a"))
    assert header["revision"] == store.revision("a") and header["n"] == 32
    store.close()


def test_snapshots_stay_right_under_concurrent_writes_and_recalls(tmp_path: Path) -> None:
    import threading

    store, engine = loaded_store(tmp_path / "db")
    fill(engine, n=200)
    files = snapshot_files_for(store)
    assert files is not None
    errors: list[BaseException] = []

    def writer(k: int) -> None:
        try:
            for i in range(15):
                engine.add("u", [f"concurrent fact {k} {i} about tea"], ids=[f"c{k}-{i}"], session_id=f"c{k}")
                if i % 5 == 4:
                    engine.delete("u", [f"u-{k * 20 + i}"])
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    def reader() -> None:
        try:
            for q, v in zip(QUERIES * 3, query_vectors() * 3):
                engine.recall(q, "u", 5, query_vector=v)
                cache = engine._coord.caches.get("u")
                if cache is not None:
                    files.schedule(cache)  # snapshot writes racing the writes
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(2)] + [threading.Thread(target=reader)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors
    files.wait()
    if snap_path(store).exists():  # whatever is on disk now must be for the current revision
        assert snapshot_format.read_header(snap_path(store))[0]["revision"] == store.revision("u")
    expected = answers(engine)
    store.close()
    store, engine = loaded_store(tmp_path / "db")
    assert_same_answers(answers(engine), expected)
    assert snapshot_files_for(store).loaded == 1 and store.loads == 0  # type: ignore[union-attr]
    store.close()


# -- issue 23: a snapshot damaged under a live process, a FIFO at its path -------------------------------------

LIVE_CHILD = textwrap.dedent(
    """
    import json, os, sys
    sys.path[:0] = [{root!r}, {tests!r}]
    from memori_core import RecallConfig, RecallEngine
    from memori_core.cache.snapshot_files import snapshot_files_for
    from test_snapshots import CountingStore, answers, gaussian_embedder

    store = CountingStore(path=sys.argv[1])
    engine = RecallEngine(store=store, embedder=gaussian_embedder, config=RecallConfig(gate="off"))
    before = answers(engine)
    assert snapshot_files_for(store).loaded == 1, "not loaded from the snapshot"
    path = snapshot_files_for(store).path("u")
    data = bytearray(path.read_bytes())
    if sys.argv[2] == "truncate":
        os.truncate(path, len(data) // 3)
    else:  # every text's bytes rewritten in place, same length: a file changed under the reader
        with open(path, "r+b") as f:
            f.write(bytes(data).replace(b"note u", b"NOTE X"))
    after = answers(engine)
    print(json.dumps({{"same": after == before, "loads": store.loads}}))
    """
)


@pytest.mark.slow
@pytest.mark.parametrize("how", ["truncate", "rewrite"])
def test_a_snapshot_damaged_under_a_live_process_changes_nothing_it_serves(
    tmp_path: Path, snapshotted: Snapshotted, how: str
) -> None:
    snapshotted.copy(tmp_path / "db")
    script = LIVE_CHILD.format(root=str(ROOT), tests=str(ROOT / "tests"))
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "db"), how], capture_output=True, text=True,
                          timeout=300, env=dict(os.environ, ANONYMIZED_TELEMETRY="False"))
    assert done.returncode == 0, f"child died ({done.returncode}): {done.stderr[-3000:]}"  # SIGBUS was -7
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result == {"same": True, "loads": 0}  # served from what was read at load, never re-read


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_at_the_snapshot_path_is_never_opened_for_reading(tmp_path: Path, snapshotted: Snapshotted) -> None:
    path = snapshotted.copy(tmp_path / "db")
    path.unlink()
    os.mkfifo(path)
    store = CountingStore(path=tmp_path / "db")
    files = snapshot_files_for(store)
    assert files is not None
    files.background = False
    engine = RecallEngine(store=store, embedder=gaussian_embedder, config=OPEN)
    result: list[Any] = []
    worker = __import__("threading").Thread(target=lambda: result.append(answers(engine)), daemon=True)
    worker.start()
    worker.join(120)
    assert result, "recall waited on the FIFO"
    assert store.loads == 1 and files.loaded == 0  # answered from the store
    assert_same_answers(result[0], snapshotted.answers)
    store.close()


def test_a_snapshot_written_with_other_stem_folds_is_not_used(
    tmp_path: Path, snapshotted: Snapshotted, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Folding stems changes the postings: a snapshot made under another table is rebuilt from the store."""
    path = snapshotted.copy(tmp_path / "db")
    assert snapshot_format.read_header(path)[0]["versions"]["stem_folds"] == snapshot_format.versions()["stem_folds"]
    other = dict(snapshot_format.versions(), stem_folds="another table")
    monkeypatch.setattr(snapshot_format, "versions", lambda: other)
    store = CountingStore(path=tmp_path / "db")
    files = snapshot_files_for(store)
    assert files is not None
    files.background = False
    got = answers(RecallEngine(store=store, embedder=gaussian_embedder, config=OPEN))
    assert store.loads == 1 and files.loaded == 0
    assert_same_answers(got, snapshotted.answers)
    store.close()
