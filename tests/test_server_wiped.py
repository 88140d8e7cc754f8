"""A real `chroma run` server restarted over an empty folder (a container without its volume) under a running
engine: the collections it held are gone. The engine opens them again and answers as over a new server (no facts;
its cached copies read again), instead of raising ``NotFoundError`` on every call until the process restarts."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from _helpers import HashEmbedder, free_port, running_chroma_server
from memori_core import ChromaStore, RecallConfig, RecallEngine

pytestmark = pytest.mark.server

PEANUTS = "User is allergic to peanuts."


def _folder(path: Path) -> Path:
    path.mkdir()
    return path


def test_an_engine_over_a_server_restarted_empty_serves_the_new_store(tmp_path: Path,
                                                                      caplog: pytest.LogCaptureFixture) -> None:
    port = free_port()
    with running_chroma_server(_folder(tmp_path / "before"), port) as (host, _, _):
        engine = RecallEngine(store=ChromaStore.http(host=host, port=port), embedder=HashEmbedder(),
                              config=RecallConfig(gate="off"))
        engine.add("alice", PEANUTS)
        assert [f.content for f in engine.recall("Can I eat peanuts?", "alice")] == [PEANUTS]  # cached
    try:
        with running_chroma_server(_folder(tmp_path / "after"), port), caplog.at_level(logging.WARNING):
            # As a new engine over the empty server would answer: nothing of alice's, not the cached copy.
            assert engine.recall("Can I eat peanuts?", "alice") == []
            assert engine.count("alice") == 0
            ids = engine.add("bob", "User is vegan.")
            assert [f.content for f in engine.recall("What do I eat?", "bob")] == ["User is vegan."]
            assert engine.count("bob") == 1
            fresh = RecallEngine(store=ChromaStore.http(host=host, port=port), embedder=HashEmbedder(),
                                 config=RecallConfig(gate="off"))
            try:  # what the engine wrote is on the new server, for every client
                assert [f.id for f in fresh.recall("What do I eat?", "bob")] == ids
                assert fresh.count("alice") == 0
            finally:
                fresh.close()
        assert "no longer has collection" in caplog.text
    finally:
        engine.close()
