"""Closing a server's store (``ChromaStore.http``) closes the connections it opened to a real `chroma run`; a
second ``close()`` does nothing; a call after it raises ``ClosedError`` naming the store; a client the caller
passed in (``client=``) is left open for its caller to close."""

from __future__ import annotations

import os
import uuid

import chromadb
import pytest

from _helpers import HashEmbedder, ungated_engine
from memori_core import ChromaStore, ClosedError

pytestmark = [pytest.mark.server,
              pytest.mark.skipif(not os.path.exists("/proc/net/tcp"), reason="counts sockets through /proc")]


def _connections_to(port: int) -> int:
    """This process's established TCP connections to loopback ``port`` (its sockets' inodes in /proc/net/tcp)."""
    mine = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            mine.add(target[len("socket:["):-1])
    with open("/proc/net/tcp") as table:
        rows = [line.split() for line in table.read().splitlines()[1:]]
    return sum(1 for r in rows if int(r[2].split(":")[1], 16) == port and r[3] == "01" and r[9] in mine)


def test_closing_a_server_store_closes_its_connections_once_and_refuses_later_calls(
    chroma_server: tuple[str, int]
) -> None:
    host, port = chroma_server
    before = _connections_to(port)
    store = ChromaStore.http(host=host, port=port, collection=f"t_{uuid.uuid4().hex}", timeout=5.0)
    engine = ungated_engine(HashEmbedder(), store=store)
    engine.add("alice", ["User drinks green tea."])
    assert [f.content for f in engine.recall("tea", "alice")] == ["User drinks green tea."]
    assert _connections_to(port) > before
    store.close()
    assert _connections_to(port) == before
    store.close()  # a second close is harmless
    with pytest.raises(ClosedError, match=rf"ChromaStore\('http://{host}:{port}'\) is closed .*count cannot run"):
        store.count("alice")
    with pytest.raises(ClosedError, match="closed"):
        engine.recall("tea", "alice")


def test_closing_a_store_leaves_open_the_client_its_caller_passed_in(chroma_server: tuple[str, int]) -> None:
    host, port = chroma_server
    client = chromadb.HttpClient(host=host, port=port)
    store = ChromaStore(client=client, collection=f"t_{uuid.uuid4().hex}")
    store.count("alice")
    store.close()
    assert client.heartbeat() > 0  # still the caller's to use
    client.close()


def test_two_server_stores_of_one_process_close_apart(chroma_server: tuple[str, int]) -> None:
    host, port = chroma_server
    collection = f"t_{uuid.uuid4().hex}"
    first, second = (ChromaStore.http(host=host, port=port, collection=collection) for _ in range(2))
    first.count("alice")
    second.count("alice")
    first.close()
    assert second.count("alice") == 0  # the other store's connections are its own
    second.close()
