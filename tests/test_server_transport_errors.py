"""A real `chroma run` server that stops answering (SIGSTOP) or is gone (killed): every read and write of the engine
raises memori's own error types, never httpx's, so a caller needs no httpx import to catch them
(:class:`memori_core.StoreUnreachable`, its :class:`memori_core.StoreTimedOut`; a write the server may have
made: :class:`memori_core.WriteOutcomeUnknown`). httpx's error stays the cause, for whoever wants the detail.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from _helpers import HashEmbedder, running_chroma_server
from memori_core import (
    ChromaStore, RecallConfig, RecallEngine, StoreTimedOut, StoreUnreachable, WriteOutcomeUnknown,
)
from memori_core.engine import derived_fact_id

pytestmark = [pytest.mark.server, pytest.mark.skipif(os.name != "posix", reason="needs SIGSTOP")]

TEA = "User likes tea."
TEA_ID = derived_fact_id(TEA)

CALLS: dict[str, Callable[[RecallEngine], Any]] = {
    "add": lambda e: e.add("u", ["User likes coffee."]),
    "update": lambda e: e.update("u", TEA_ID, text="User likes green tea."),
    "expire": lambda e: e.expire("u", TEA_ID),
    "delete": lambda e: e.delete("u", [TEA_ID]),
    "forget": lambda e: e.forget("u"),
    "recall": lambda e: e.recall("tea?", "u"),
    "explain": lambda e: e.explain("tea?", "u"),
    "nearest": lambda e: e.nearest("tea?", "u"),
    "list": lambda e: e.list("u"),
    "get": lambda e: e.get("u", [TEA_ID]),
    "count": lambda e: e.count("u"),
    "history": lambda e: e.history("u", TEA_ID),
    "export": lambda e: e.export("u"),
}
"""Every entry point of the engine that reads or writes the store, on the user whose one fact is :data:`TEA`."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, Any]]:
    with running_chroma_server(tmp_path_factory.mktemp("chroma")) as running:
        yield running


def _engine(host: str, port: int) -> RecallEngine:
    """An engine over a new collection of the server holding :data:`TEA`, with a 1 s request limit and no outage
    breaker (every call goes to the server); its copy of the user dropped, so every read asks the server."""
    collection = f"t_{uuid.uuid4().hex}"
    RecallEngine(store=ChromaStore.http(host=host, port=port, collection=collection, timeout=None),
                 embedder=HashEmbedder(), config=RecallConfig(gate="off")).add("u", [TEA])
    engine = RecallEngine(store=ChromaStore.http(host=host, port=port, collection=collection, timeout=1.0),
                          embedder=HashEmbedder(), config=RecallConfig(gate="off"), outage_cooldown=0)
    assert engine.count("u") == 1  # connected
    engine.clear_cache()
    return engine


def _stop(proc: Any) -> None:
    """SIGSTOP the server and wait until the kernel shows it stopped (state ``T`` in ``/proc``, where there is one),
    so that no request of the test can still be answered."""
    proc.send_signal(signal.SIGSTOP)
    stat = Path(f"/proc/{proc.pid}/stat")
    give_up = time.monotonic() + 10
    while stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] != "T" and time.monotonic() < give_up:
        time.sleep(0.01)


def _no_httpx_error(error: BaseException) -> None:
    assert not isinstance(error, httpx.HTTPError), f"httpx's own error reached the caller: {error!r}"
    assert type(error).__module__.startswith("memori_core"), repr(error)


@pytest.mark.parametrize("call", list(CALLS))
def test_every_read_and_write_on_a_stopped_server_raises_memoris_own_timeout(
    server: tuple[str, int, Any], call: str
) -> None:
    host, port, proc = server
    engine = _engine(host, port)
    _stop(proc)
    try:
        with pytest.raises((StoreUnreachable, WriteOutcomeUnknown)) as raised:
            CALLS[call](engine)
    finally:
        proc.send_signal(signal.SIGCONT)
    error = raised.value
    _no_httpx_error(error)
    assert isinstance(error, TimeoutError)  # a timeout still reads as one
    if isinstance(error, StoreTimedOut):
        assert f"the Chroma server at http://{host}:{port} did not answer in time" in str(error)
        assert error.url == f"http://{host}:{port}"
        assert isinstance(error.__cause__, httpx.TimeoutException)  # the transport's detail, kept as the cause
    else:  # a change was sent and never answered: the write says what it asked, from memori's error
        assert call in ("add", "update", "expire", "delete", "forget"), repr(error)
        assert isinstance(error.__cause__, StoreTimedOut) and error.__cause__.sent


def test_a_write_to_a_server_that_is_gone_raises_store_unreachable_that_sent_nothing(tmp_path: Path) -> None:
    with running_chroma_server(tmp_path) as (host, port, proc):
        engine = _engine(host, port)
        proc.kill()
        proc.wait()
        with pytest.raises(StoreUnreachable) as raised:
            engine.add("u", ["User likes coffee."])
        with pytest.raises(StoreUnreachable):
            engine.recall("tea?", "u")
    error = raised.value
    _no_httpx_error(error)
    assert not isinstance(error, WriteOutcomeUnknown)
    assert not error.sent and error.url == f"http://{host}:{port}"  # nothing was sent: nothing of the add landed
    assert "refused the connection" in str(error) or "dropped the connection" in str(error), str(error)
