"""Two ``ChromaStore.http`` stores of one real `chroma run` server in one process each have a client and
connection pool of their own (chromadb 1.5 shares none): each keeps the time limit it was given, and closing
one leaves the other answering. (The docstring once said they shared one connection and its last timeout.)"""

from __future__ import annotations

import uuid

import numpy as np
import pytest

from memori_core import ChromaStore
from memori_core.facts import StoredFact

pytestmark = pytest.mark.server


def _session(store: ChromaStore):
    return store._client._server._session  # chromadb's httpx session of the store's client


def test_two_stores_of_one_server_keep_their_own_time_limits_and_connections(chroma_server) -> None:
    host, port = chroma_server
    quick = ChromaStore.http(host=host, port=port, collection=f"t_{uuid.uuid4().hex}", timeout=0.5)
    patient = ChromaStore.http(host=host, port=port, collection=f"t_{uuid.uuid4().hex}", timeout=30.0)
    assert _session(quick) is not _session(patient)
    assert (_session(quick).timeout.read, _session(patient).timeout.read) == (0.5, 30.0)
    fact = StoredFact(id="f1", entity_id="u", content="User likes tea.", created_at="2026-01-01T00:00:00+00:00")
    patient.upsert("u", [fact], np.ones((1, 8), dtype=np.float32))
    quick.close()
    assert [f.content for f in patient.get("u", ["f1"])] == ["User likes tea."]
    patient.close()
