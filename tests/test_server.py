"""ChromaStore.http against a real `chroma run` server, shared by several processes."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest

from _helpers import HashEmbedder
from memori_core import ChromaStore, RecallConfig, RecallEngine

pytestmark = pytest.mark.server

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent


def unique_collection() -> str:
    return f"t_{uuid.uuid4().hex}"


def http_engine(server: tuple[str, int], collection: str, **cfg: object) -> RecallEngine:
    host, port = server
    return RecallEngine(
        store=ChromaStore.http(host=host, port=port, collection=collection),
        embedder=HashEmbedder(),
        config=RecallConfig(gate="off", **cfg),  # type: ignore[arg-type]
    )


def other_process(server: tuple[str, int], collection: str, code: str) -> None:
    """Run ``code`` in another Python process with ``eng``: its own engine on the same server and collection."""
    host, port = server
    prelude = f"""
from _helpers import HashEmbedder
from memori_core import ChromaStore, RecallEngine
eng = RecallEngine(store=ChromaStore.http(host={host!r}, port={port}, collection={collection!r}),
                   embedder=HashEmbedder())
"""
    env = dict(os.environ, ANONYMIZED_TELEMETRY="False")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(TESTS), env.get("PYTHONPATH", "")])
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(prelude) + textwrap.dedent(code)],
        capture_output=True, text=True, env=env, cwd=str(ROOT), timeout=120,
    )
    assert proc.returncode == 0, f"other process failed:\n{proc.stdout}\n{proc.stderr[-3000:]}"


def contents(facts) -> set[str]:
    return {f.content for f in facts}


def test_http_store_add_recall_delete_forget(chroma_server: tuple[str, int]) -> None:
    eng = http_engine(chroma_server, unique_collection())
    assert eng.store.shared is True
    ids = eng.add("alice", ["User is allergic to peanuts.", "User lives in Lisbon."],
                  created_at="2024-05-01T09:30:00Z", metadata={"source": "http"})
    eng.add("bob", ["User plays the cello."])
    top = eng.recall("allergic to peanuts", "alice")[0]
    assert top.content == "User is allergic to peanuts."
    assert top.created_at == "2024-05-01T09:30:00+00:00" and top.metadata["source"] == "http"
    assert eng.count("alice") == 2
    eng.delete("alice", [ids[1]])
    assert contents(eng.recall("lives in Lisbon", "alice")) == {"User is allergic to peanuts."}
    eng.forget("alice")
    assert eng.count("alice") == 0 and eng.recall("peanuts", "alice") == []
    assert contents(eng.recall("cello", "bob")) == {"User plays the cello."}


def test_collections_on_one_server_are_separate(chroma_server: tuple[str, int]) -> None:
    a = http_engine(chroma_server, unique_collection())
    b = http_engine(chroma_server, unique_collection())
    a.add("alice", ["User likes tea."])
    assert b.count("alice") == 0 and b.recall("tea", "alice") == []


def test_recall_sees_another_process_add_and_forget(chroma_server: tuple[str, int]) -> None:
    collection = unique_collection()
    eng = http_engine(chroma_server, collection)
    eng.add("alice", ["User likes tea."])
    eng.add("bob", ["User likes coffee."])
    assert contents(eng.recall("likes", "alice")) == {"User likes tea."}  # cache loaded

    other_process(chroma_server, collection, 'eng.add("alice", ["User likes jazz."])')
    assert contents(eng.recall("likes", "alice")) == {"User likes tea.", "User likes jazz."}

    other_process(chroma_server, collection, 'eng.add("alice", ["User likes tea."], metadata={"again": True})')
    tea = next(f for f in eng.recall("likes tea", "alice") if f.content == "User likes tea.")
    assert tea.metadata["times_seen"] == 2 and tea.metadata["again"] is True

    other_process(chroma_server, collection, 'eng.forget("alice")')
    assert eng.recall("likes", "alice") == []
    assert contents(eng.recall("likes", "bob")) == {"User likes coffee."}


def test_recall_sees_another_process_delete_and_upsert(chroma_server: tuple[str, int]) -> None:
    collection = unique_collection()
    eng = http_engine(chroma_server, collection)
    eng.add("alice", ["User owns a red bicycle.", "User likes tea."], ids=["bike", "tea"])
    assert contents(eng.recall("likes bicycle", "alice")) == {"User owns a red bicycle.", "User likes tea."}
    other_process(
        chroma_server, collection,
        'eng.delete("alice", ["tea"]); eng.add("alice", ["User owns a green scooter."], ids=["bike"])',
    )
    assert contents(eng.recall("likes bicycle", "alice")) == {"User owns a green scooter."}


def test_own_write_after_another_process_write_keeps_both(chroma_server: tuple[str, int]) -> None:
    collection = unique_collection()
    eng = http_engine(chroma_server, collection)
    eng.add("alice", ["User likes tea."])
    eng.recall("likes", "alice")
    other_process(chroma_server, collection, 'eng.add("alice", ["User likes jazz."])')
    eng.add("alice", ["User likes chess."])
    assert contents(eng.recall("likes", "alice", limit=10)) == {
        "User likes tea.", "User likes jazz.", "User likes chess."
    }
