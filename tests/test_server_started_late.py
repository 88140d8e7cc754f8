"""A service whose Chroma server is not up yet when it starts (tester j10, finding 11): ``ChromaStore.http`` is
built all the same, the agent answers without memory while nothing answers, and the first call after a real
``chroma run`` starts on that port connects, with the turn said meanwhile captured then. ``lazy=False`` (the
``memori`` command's) still refuses at once; a port given as a string of digits is read as the int it names."""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain.agents import create_agent
from langchain_core.messages import HumanMessage

from _helpers import Clock, HashEmbedder, free_port, running_chroma_server, ungated_engine
from _langchain_fakes import RecordingChatModel, system_text
from memori_core import ChromaStore, StoreUnreachable
from memori_core.failopen import OutageBreaker
from memori_core.outage import is_outage
from memori_core.store.chroma_client import NoServerAnswers
from memori_langchain import MemoriMiddleware

pytestmark = [pytest.mark.server, pytest.mark.skipif(os.name != "posix", reason="runs chroma run")]

WAIT = 60.0
ANA = {"configurable": {"entity_id": "ana"}}


def test_a_service_started_before_its_chroma_server_answers_without_memory_then_connects(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    port, clock = free_port(), Clock(1000.0)
    with caplog.at_level(logging.WARNING, logger="memori_core.store.chroma"):
        store = ChromaStore.http(host="127.0.0.1", port=port, timeout=2.0)  # nothing listens there yet
    assert not store.connected
    assert [r.getMessage().split(" (")[0] for r in caplog.records] == [
        f"no Chroma server answers at http://127.0.0.1:{port} yet"]
    engine = ungated_engine(HashEmbedder(), store=store)
    engine.outage = OutageBreaker(10.0, clock=clock)
    memori = MemoriMiddleware(engine=engine, capture=True)
    model = RecordingChatModel(messages=iter(["Noted."] * 10))
    agent = create_agent(model, tools=[], middleware=[memori])

    agent.invoke({"messages": [HumanMessage("I live in Lyon.")]}, ANA)  # answered, without memory
    assert memori.flush(WAIT).held == 1 and not store.connected
    with running_chroma_server(tmp_path, port=port) as (host, _, _proc):
        clock.advance(10)
        agent.invoke({"messages": [HumanMessage("Where do I live?")]}, ANA)
        assert memori.flush(WAIT).completed == 2  # the held turn, then this one
        assert store.connected
        agent.invoke({"messages": [HumanMessage("Anything near me?")]}, ANA)
        assert "User lives in Lyon." in system_text(model.calls[-1])
        reader = ungated_engine(HashEmbedder(), store=ChromaStore.http(host=host, port=port))
        assert [f.content for f in reader.list("ana")] == ["User lives in Lyon."]


def test_lazy_false_refuses_at_once_when_no_server_answers() -> None:
    port = free_port()
    with pytest.raises(NoServerAnswers, match=rf"no Chroma server answers at http://127.0.0.1:{port} "):
        ChromaStore.http(host="127.0.0.1", port=port, timeout=2.0, lazy=False)


@pytest.fixture
def hangs_up() -> Iterator[int]:
    """A loopback port whose listener takes each connection, reads the request and closes without answering (a
    server killed mid-start, a half-open load balancer)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(50)

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:  # closed: the test is over
                return
            with conn:
                conn.recv(65536)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield int(listener.getsockname()[1])
    listener.close()


@pytest.mark.parametrize("lazy", [False, True])
def test_a_server_that_drops_the_connection_at_start_is_an_outage_that_sent_nothing(hangs_up: int,
                                                                                     lazy: bool) -> None:
    with pytest.raises(StoreUnreachable, match=rf"the Chroma server at http://127.0.0.1:{hangs_up} dropped the "
                                               r"connection before answering") as raised:
        ChromaStore.http(host="127.0.0.1", port=hangs_up, timeout=2.0, lazy=lazy).count("ana")
    assert is_outage(raised.value) and not raised.value.sent  # building the client only reads


def test_a_port_given_as_a_string_of_digits_reaches_the_server_and_any_other_string_names_port(
    tmp_path: Path,
) -> None:
    with running_chroma_server(tmp_path) as (host, port, _proc):
        store = ChromaStore.http(host=host, port=str(port))  # as read from an environment variable
        assert store.connected and store.location == f"http://127.0.0.1:{port}"
        engine = ungated_engine(HashEmbedder(), store=store)
        engine.add("ana", ["User lives in Lyon."])
        assert engine.count("ana") == 1
    with pytest.raises(TypeError, match=r"port must be an int, or a string of its digits, got '80OO'"):
        ChromaStore.http(host="127.0.0.1", port="80OO")
