"""Closing a server's store (``ChromaStore.http``) closes the connections it opened to a real `chroma run`; a
second ``close()`` does nothing; a call after it raises ``ClosedError`` naming the store; a client the caller
passed in (``client=``) is left open for its caller to close."""

from __future__ import annotations

import gc
import os
import signal
import threading
import time
import uuid

import chromadb
import pytest

from _helpers import HashEmbedder, running_chroma_server, ungated_engine
from memori_core import ChromaStore, ClosedError, StoreTimedOut

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


@pytest.mark.skipif(os.name != "posix", reason="needs SIGSTOP")
def test_a_client_built_after_its_connect_timed_out_is_closed(tmp_path) -> None:
    # chromadb keeps one connection pool per server for all its clients, open until the last is closed: a client
    # the connect thread built after the caller gave up kept it open for good (toolfix40 item 6)
    with running_chroma_server(tmp_path) as (host, port, proc):
        before = _connections_to(port)
        proc.send_signal(signal.SIGSTOP)
        try:
            with pytest.raises(StoreTimedOut):
                ChromaStore.http(host=host, port=port, timeout=1.0, lazy=False)
        finally:
            proc.send_signal(signal.SIGCONT)
        for _ in range(600):  # the connect thread gets its answer once the server runs again
            if not any(t.name == "memori-chroma-connect" for t in threading.enumerate()):
                break
            time.sleep(0.1)
        assert not any(t.name == "memori-chroma-connect" for t in threading.enumerate())
        gc.collect()
        assert _connections_to(port) == before
        store = ChromaStore.http(host=host, port=port, collection=f"t_{uuid.uuid4().hex}", timeout=5.0)
        assert store.count("u") == 0  # the server is still there to connect to
        store.close()
        assert _connections_to(port) == before
