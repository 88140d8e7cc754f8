"""ChromaStore: batching beyond Chroma's limit, persistence across processes, store-level semantics."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import textwrap
import weakref
from pathlib import Path

import numpy as np
import pytest

from _helpers import HashEmbedder, unwritable_folder
from memori_core import ChromaStore, RecallConfig, RecallEngine, StoredFact
from memori_core.engine import derived_fact_id
from memori_core.store.chroma_client import release_unused_ephemeral
from memori_core.store.chroma_records import chroma_id

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent


def run_python(code: str, *args: str) -> str:
    """Run ``code`` in a fresh Python process (HashEmbedder importable) and return its stdout."""
    env = dict(os.environ, ANONYMIZED_TELEMETRY="False")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(TESTS), env.get("PYTHONPATH", "")])
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True, text=True, env=env, cwd=str(ROOT), timeout=120,
    )
    assert proc.returncode == 0, f"subprocess failed:\n{proc.stdout}\n{proc.stderr[-3000:]}"
    return proc.stdout


# -- batches larger than Chroma's maximum ----------------------------------------


@pytest.mark.slow
def test_add_splits_batches_beyond_chromas_max_batch_size() -> None:
    store = ChromaStore.in_memory()
    assert store.max_batch_size < 6000, "the test must exceed Chroma's batch limit to mean anything"
    n = store.max_batch_size + 600
    facts = [f"fact number {i} tag{i % 97}" for i in range(n)]
    eng = RecallEngine(store=store, embedder=HashEmbedder(dim=8), config=RecallConfig(gate="off"),
                       embed_batch_size=4096)
    ids = eng.add("bulk", facts)
    assert len(ids) == n and len(set(ids)) == n
    assert eng.count("bulk") == n
    # Adding them all again goes through the existence check (also chunked) and stores nothing new.
    eng.add("bulk", facts[:10] + facts[-10:])
    assert eng.count("bulk") == n
    # A fresh engine loads the entity in pages and scores every row.
    fresh = RecallEngine(store=store, embedder=HashEmbedder(dim=8), config=RecallConfig(gate="off"))
    report = fresh.explain("fact number 6000", "bulk", limit=3)
    assert report.rows_scored == n
    assert sum(f.times_seen for f in store.get("bulk", [ids[0], ids[-1], ids[100]])) == 5


@pytest.mark.slow
def test_store_get_is_chunked_for_many_ids() -> None:
    store = ChromaStore.in_memory()
    n = store.max_batch_size + 10
    vecs = np.random.default_rng(0).normal(size=(n, 4)).astype(np.float32)
    store.upsert("e", [StoredFact(f"id{i}", "e", f"text {i}", "2024-01-01T00:00:00+00:00") for i in range(n)], vecs)
    got = store.get("e", [f"id{i}" for i in range(n)] + ["missing"])
    assert len(got) == n
    assert store.count("e") == n


# -- store-level semantics ---------------------------------------------------------


def test_upsert_by_id_replaces_user_metadata() -> None:
    store = ChromaStore.in_memory()
    vec = np.ones((1, 4), dtype=np.float32)
    store.upsert("e", [StoredFact("x", "e", "first", "2024-01-01T00:00:00+00:00", {"a": 1})], vec)
    store.upsert("e", [StoredFact("x", "e", "second", "2024-02-01T00:00:00+00:00", {})], vec)
    [fact] = store.get("e", ["x"])
    assert fact.content == "second" and fact.metadata == {}
    assert fact.created_at == "2024-02-01T00:00:00+00:00"


def test_store_filters_by_entity_even_for_matching_fact_ids() -> None:
    store = ChromaStore.in_memory()
    vec = np.ones((1, 4), dtype=np.float32)
    store.upsert("a", [StoredFact("k", "a", "A's fact", None)], vec)
    store.upsert("b", [StoredFact("k", "b", "B's fact", None)], vec)
    assert [f.content for f in store.get("a", ["k"])] == ["A's fact"]
    store.delete("a", ["k"])
    assert store.get("a", ["k"]) == [] and [f.content for f in store.get("b", ["k"])] == ["B's fact"]
    assert [f.content for f in store.load_entity("b").facts] == ["B's fact"]


def test_dimension_is_reported_even_after_every_row_is_forgotten() -> None:
    store = ChromaStore.in_memory()
    assert store.dimension() is None
    RecallEngine(store=store, embedder=HashEmbedder(dim=32)).add("u", ["User likes tea."])
    assert store.dimension() == 32
    RecallEngine(store=store, embedder=HashEmbedder(dim=32)).forget("u")
    assert store.dimension() == 32


def test_revision_changes_on_every_write() -> None:
    store = ChromaStore.in_memory()
    eng = RecallEngine(store=store, embedder=HashEmbedder())
    assert store.revision("u") is None
    eng.add("u", ["User likes tea."])
    r1 = store.revision("u")
    [jazz] = eng.add("u", ["User likes jazz."])
    r2 = store.revision("u")
    eng.delete("u", [jazz])
    r3 = store.revision("u")
    eng.forget("u")
    r4 = store.revision("u")
    assert None not in (r1, r2, r3, r4) and len({r1, r2, r3, r4}) == 4
    assert store.revision("other") is None


def test_a_dropped_engine_frees_its_in_memory_store_without_waiting_for_the_garbage_collector() -> None:
    """An engine and its in-memory store hold no reference cycle: the moment the last user drops the engine, both
    are freed and the store's Chroma collections handed to ``release_unused_ephemeral`` (a program or a test suite
    that makes one per request or per test stays the size of one, instead of growing until a full collection)."""
    release_unused_ephemeral()  # stores dropped before this test
    gc.disable()
    try:
        eng = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder(), config=RecallConfig(gate="off"))
        eng.add("u", ["User lives in Lisbon.", "User likes jazz."])
        assert [f.content for f in eng.recall("Lisbon", "u", limit=1)] == ["User lives in Lisbon."]
        engine_ref, store_ref = weakref.ref(eng), weakref.ref(eng.store)
        del eng
        assert engine_ref() is None and store_ref() is None
        assert release_unused_ephemeral() == 1
    finally:
        gc.enable()


# -- persistence across processes -----------------------------------------------------

WRITER = """
import sys
from datetime import datetime, timezone
from _helpers import HashEmbedder
from memori_core import ChromaStore, RecallEngine
eng = RecallEngine(store=ChromaStore(path=sys.argv[1]), embedder=HashEmbedder())
eng.add("alice", ["User is allergic to peanuts.", "User lives in Lisbon."],
        created_at=datetime(2024, 5, 1, 9, 30, tzinfo=timezone.utc), metadata={"source": "writer"})
eng.add("alice", ["user is allergic to peanuts"])
eng.add("bob", ["User plays the cello."], ids=["b-1"])
print("written")
"""

READER = """
import json, sys
from _helpers import HashEmbedder
from memori_core import ChromaStore, RecallEngine
eng = RecallEngine(store=ChromaStore(path=sys.argv[1]), embedder=HashEmbedder())
out = [dict(content=f.content, created_at=f.created_at, metadata=f.metadata)
       for f in eng.recall("allergic to peanuts", "alice")]
print(json.dumps({"alice": out, "count_bob": eng.count("bob")}))
"""


@pytest.mark.slow
def test_facts_persist_across_processes(tmp_path: Path) -> None:
    path = str(tmp_path / "store")
    assert run_python(WRITER, path).strip() == "written"
    seen = json.loads(run_python(READER, path))
    assert seen["count_bob"] == 1
    top = seen["alice"][0]
    assert top["content"] == "User is allergic to peanuts."
    assert top["created_at"] == "2024-05-01T09:30:00+00:00"
    assert top["metadata"]["source"] == "writer" and top["metadata"]["times_seen"] == 2
    # This process, with a fresh engine, sees the same data.
    eng = RecallEngine(store=ChromaStore(path=path), embedder=HashEmbedder())
    assert eng.count("alice") == 2
    assert eng.recall("allergic to peanuts", "alice")[0].content == "User is allergic to peanuts."
    assert [f.content for f in eng.recall("cello", "bob")] == ["User plays the cello."]


# -- row layout ------------------------------------------------------------------


def _legacy_meta(entity: str, fact_id: str, **fields: object) -> dict[str, object]:
    """Chroma metadata as versions before the packed layout wrote it: one key per field."""
    meta: dict[str, object] = {
        "entity_id": entity, "fact_id": fact_id, "times_seen": 1, "seq": 0, "session_id": "",
        "updated_at": "", "expires_at": "", "metadata_json": "{}",
    }
    meta.update(fields)
    return meta


def test_a_fact_is_stored_as_its_entity_its_texts_key_and_one_json_record_holding_its_text() -> None:
    store = ChromaStore.in_memory()
    engine = RecallEngine(store=store, embedder=HashEmbedder(), config=RecallConfig())
    engine.add("u1", ["User likes tea."], ids=["t"], metadata={"source": "chat"},
               created_at="2026-01-02T03:04:05+00:00", session_id="s1")
    raw = store._facts.get(include=["metadatas", "documents"])  # noqa: SLF001 - the layout on disk is the subject
    assert raw["documents"] == [None], "a short text stays out of Chroma's full-text index"
    meta = raw["metadatas"][0]
    assert set(meta) == {"entity_id", "memori_text", "memori_fact"}
    assert meta["entity_id"] == "u1"
    assert meta["memori_text"] == f"2:u1:{derived_fact_id('User likes tea.')}"  # whatever the fact's own id
    record = json.loads(meta["memori_fact"])
    assert record["id"] == "t" and record["session_id"] == "s1" and record["text"] == "User likes tea."
    assert record["created_at"] == "2026-01-02T03:04:05+00:00"
    assert record["metadata"] == {"source": "chat"}


def test_rows_written_in_the_per_key_layout_are_read_as_before() -> None:
    store = ChromaStore.in_memory()
    vectors = HashEmbedder().embed_documents(["User likes tea.", "User owns a bike."])
    store._facts.upsert(  # noqa: SLF001 - writes rows exactly as an older version did
        ids=[chroma_id("u1", "a"), chroma_id("u1", "b")],
        embeddings=np.asarray(vectors, dtype=np.float32),
        documents=["User likes tea.", "User owns a bike."],
        metadatas=[
            _legacy_meta("u1", "a", created_at="2026-01-01T00:00:00+00:00", created_ts=1767225600.0,
                         times_seen=3, seq=1, session_id="s9", metadata_json='{"k": 1}',
                         last_seen="2026-02-01T00:00:00+00:00", last_seen_ts=1769904000.0),
            _legacy_meta("u1", "b", expires_at="2030-01-01T00:00:00+00:00"),
        ],
    )
    got = {f.id: f for f in store.get("u1", ["a", "b"])}
    assert got["a"].content == "User likes tea." and got["a"].times_seen == 3 and got["a"].seq == 1
    assert got["a"].session_id == "s9" and got["a"].metadata == {"k": 1}
    assert got["a"].created_at == "2026-01-01T00:00:00+00:00"
    assert got["a"].last_seen == "2026-02-01T00:00:00+00:00"
    assert got["b"].expires_at == "2030-01-01T00:00:00+00:00" and got["b"].metadata == {}
    columns = store.load_entity("u1").columns
    assert sorted(columns.ids) == ["a", "b"]
    engine = RecallEngine(store=store, embedder=HashEmbedder(), config=RecallConfig(gate="off"))
    assert [f.id for f in engine.recall("tea", "u1", limit=1)] == ["a"]
    # Rewriting an old row (Chroma merges metadata keys) stores it in the new layout, which wins.
    from dataclasses import replace
    store.update_seen("u1", [replace(got["a"], times_seen=4)])
    fact = store.get("u1", ["a"])[0]
    assert fact.times_seen == 4 and fact.metadata == {"k": 1} and fact.session_id == "s9"
    meta = store._facts.get(ids=[chroma_id("u1", "a")], include=["metadatas"])["metadatas"][0]  # noqa: SLF001
    assert json.loads(meta["memori_fact"])["times_seen"] == 4


def test_a_text_too_long_for_the_record_is_kept_as_the_document_and_reads_back() -> None:
    from memori_core.store.chroma_records import INLINE_TEXT_BYTES

    store = ChromaStore.in_memory()
    engine = RecallEngine(store=store, embedder=HashEmbedder(), config=RecallConfig(gate="off"))
    long_text = "User wrote: " + "é" * INLINE_TEXT_BYTES  # short in characters, too long in UTF-8 bytes
    engine.add("u1", [long_text, "User likes tea."], ids=["long", "short"])
    raw = store._facts.get(ids=[chroma_id("u1", "long")], include=["metadatas", "documents"])  # noqa: SLF001
    assert raw["documents"] == [long_text]
    assert "text" not in json.loads(raw["metadatas"][0]["memori_fact"])
    assert len(raw["metadatas"][0]["memori_fact"].encode()) < 4096
    assert {f.id: f.content for f in store.get("u1", ["long", "short"])} == {"long": long_text,
                                                                           "short": "User likes tea."}
    assert sorted(store.load_entity("u1").columns.texts) == sorted([long_text, "User likes tea."])
    # A sighting rewrites only the record; the document still gives the text.
    fact = store.get("u1", ["long"])[0]
    from dataclasses import replace
    store.update_seen("u1", [replace(fact, times_seen=2)])
    assert store.get("u1", ["long"])[0].content == long_text
    # Shortened by an update: the record's text wins over the old document.
    engine.update("u1", "long", text="User wrote a short note.")
    assert store.get("u1", ["long"])[0].content == "User wrote a short note."
    fresh = RecallEngine(store=store, embedder=HashEmbedder(), config=engine.config)
    assert {f.content for f in fresh.list("u1")} == {"User wrote a short note.", "User likes tea."}


@pytest.mark.slow  # a second process makes the old collection
def test_opening_a_collection_made_with_hnsw_m_4_warns_how_to_move_it(tmp_path: Path, caplog) -> None:
    old = tmp_path / "old"
    run_python(textwrap.dedent("""
        import sys, chromadb
        from memori_core.store.chroma import DEFAULT_COLLECTION
        client = chromadb.PersistentClient(path=sys.argv[1])  # as an earlier version made its collection
        client.get_or_create_collection(DEFAULT_COLLECTION, embedding_function=None,
                                        metadata={"hnsw:space": "cosine", "hnsw:M": 4})
        print("made")
    """), str(old))
    with caplog.at_level("WARNING", logger="memori_core.store.chroma"):
        ChromaStore(path=str(old)).close()
        assert "created with hnsw:M=4" in caplog.text and "memori export" in caplog.text
        caplog.clear()
        ChromaStore(path=str(tmp_path / "new")).close()  # made by this version: M=16, nothing to say
        assert "hnsw:M" not in caplog.text


# -- the folder of an embedded store --------------------------------------------------------


def test_a_missing_last_folder_is_created_as_a_new_store_with_a_warning_naming_it(tmp_path: Path, caplog) -> None:
    folder = tmp_path / "memories"
    with caplog.at_level("WARNING", logger="memori_core.store.chroma_paths"):
        store = ChromaStore(path=folder)
    try:
        assert folder.is_dir() and store.location == str(folder)
        assert f"created a new, empty store at {folder}" in caplog.text
    finally:
        store.close()
    caplog.clear()
    with caplog.at_level("WARNING", logger="memori_core.store.chroma_paths"):
        ChromaStore(path=folder).close()  # opened again: nothing new, nothing said
    assert "created" not in caplog.text


def test_a_path_whose_parent_is_missing_is_an_error_and_creates_nothing(tmp_path: Path) -> None:
    typo = tmp_path / "stroe2" / "data"
    with pytest.raises(FileNotFoundError, match=rf"path '{typo}': its parent folder '{typo.parent}' does not exist, "
                       r"so no store is created there \(check the spelling"):
        ChromaStore(path=typo)
    assert not typo.parent.exists()


def test_a_path_that_is_a_file_or_below_a_file_is_an_error_naming_path(tmp_path: Path) -> None:
    file = tmp_path / "notes.txt"
    file.write_text("not a store")
    with pytest.raises(ValueError, match=rf"path '{file}' is a file: an embedded store's path must be a folder"):
        ChromaStore(path=file)
    with pytest.raises(FileNotFoundError, match=rf"its parent folder '{file}' is a file"):
        ChromaStore(path=file / "store")
    assert file.read_text() == "not a store"


def test_the_path_variable_follows_the_same_rule(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("MEMORI_RECALL_PATH", str(tmp_path / "missing" / "store"))
    with pytest.raises(FileNotFoundError, match=r"\$MEMORI_RECALL_PATH .*its parent folder .* does not exist"):
        ChromaStore()
    monkeypatch.setenv("MEMORI_RECALL_PATH", str(tmp_path / "store"))
    ChromaStore().close()
    assert (tmp_path / "store").is_dir()


def test_an_unwritable_path_is_a_permission_error_naming_path(tmp_path: Path) -> None:
    with unwritable_folder(tmp_path) as folder:
        with pytest.raises(PermissionError, match=rf"path '{folder}' is not writable"):
            ChromaStore(path=folder)
        with pytest.raises(PermissionError, match=rf"path '{folder / 'new'}' cannot be created: its parent folder "
                           rf"'{folder}' is not writable"):
            ChromaStore(path=folder / "new")



def test_every_validity_field_lands_in_the_record_and_reads_back_through_the_store_and_the_cache() -> None:
    from memori_core.facts import VALIDITY_FIELDS

    store = ChromaStore.in_memory()
    engine = RecallEngine(store=store, embedder=HashEmbedder(), config=RecallConfig())
    [old] = engine.add("u1", ["User lives in Lisbon."], created_at="2026-01-02T00:00:00+00:00")
    [new] = engine.add("u1", ["User lives in Porto."], supersedes=[old], created_at="2026-02-02T00:00:00+00:00")
    engine.update("u1", new, text="User lives in Porto, near the river.")  # valid_from; a version row
    restored = engine.restore("u1", old)  # valid again: restored_at
    rows = {f.id: f for f in engine.list("u1", include_invalid=True)}  # read from the cache's columns
    assert all(any(getattr(f, name) for f in rows.values()) for name in VALIDITY_FIELDS), rows
    assert rows[old] == restored
    assert {f.id: f for f in store.get("u1", list(rows))} == rows  # the store's own read agrees
    for meta in store._facts.get(include=["metadatas"])["metadatas"]:  # noqa: SLF001 - the layout is the subject
        record = json.loads(meta["memori_fact"])
        fact = rows[record["id"]]
        assert {k: record[k] for k in VALIDITY_FIELDS if k in record} == {
            name: list(value) if isinstance(value, tuple) else value
            for name in VALIDITY_FIELDS if (value := getattr(fact, name))}
