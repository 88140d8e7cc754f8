"""A reverse proxy in front of a real `chroma run` server that answers 502/503/504 (as nginx or an ingress does
while Chroma restarts): an outage like a refused connection. The first fail-open call logs one warning naming
the status (no HTML page), the engine's breaker opens, the next calls skip memory, and memory is back once the
proxy forwards again and the cool-down is over. The proxy is a real HTTP server on loopback."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator

import pytest

from _helpers import Answer, Clock, ForwardingProxy, HashEmbedder, ungated_engine
from memori_core import ChromaStore, MemoriRecall, WriteOutcomeUnknown
from memori_core.failopen import OutageBreaker
from memori_core.mcp_server import unanswered_call
from memori_core.store.chroma_client import ServerUnavailable

pytestmark = pytest.mark.server

PAGE = b"<html><body><h1>503 Service Temporarily Unavailable</h1><hr><center>nginx</center></body></html>"
KWARGS = {"model": "m", "messages": [{"role": "user", "content": "Any snack for me?"}]}


class Proxy(ForwardingProxy):
    """A loopback HTTP proxy to ``upstream``; while ``down`` is a status, it answers that with an HTML page (to the
    requests whose path ends with ``down_for``; all when it is empty)."""

    def __init__(self, upstream: str) -> None:
        self.down: int | None = None
        self.down_for = ""
        self.answered = 0
        super().__init__(upstream)

    def decide(self, path: str) -> str | Answer:
        if self.down is not None and path.endswith(self.down_for):
            self.answered += 1
            return self.down, "text/html", PAGE
        return "forward"


@pytest.fixture
def proxy(chroma_server: tuple[str, int]) -> Iterator[Proxy]:
    with Proxy.to(chroma_server) as proxy:
        yield proxy


@pytest.mark.parametrize("status", [502, 503, 504])
def test_a_gateway_error_opens_the_breaker_with_one_clipped_warning_and_memory_comes_back(
    proxy: Proxy, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    engine = ungated_engine(HashEmbedder(), store=ChromaStore.http(
        host="127.0.0.1", port=proxy.port, collection=f"t_{uuid.uuid4().hex}", timeout=2.0))
    engine.outage = OutageBreaker(30.0, clock=clock)
    engine.add("alice", ["User is allergic to peanuts."])
    memory = MemoriRecall(engine, entity_id="alice", provider="openai")
    assert "peanuts" in str(memory.apply(KWARGS))

    proxy.down = status
    with caplog.at_level(logging.DEBUG, logger="memori_core"):
        for _ in range(5):
            assert memory.apply(KWARGS) == KWARGS  # no memory, no error
    assert engine.outage.is_open and engine.outage.error == "ServerUnavailable"
    assert proxy.answered == 1  # the four calls after the first skipped the store
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1, warnings
    assert "(ServerUnavailable: the Chroma server could not be reached" in warnings[0]
    assert f"HTTP {status}" in warnings[0] and "from nginx" in warnings[0]
    assert "<" not in warnings[0]

    proxy.down = None
    clock.now += 30
    assert "peanuts" in str(memory.apply(KWARGS))
    assert not engine.outage.is_open


def test_a_strict_call_through_a_503_raises_a_connection_error_naming_the_status(proxy: Proxy) -> None:
    engine = ungated_engine(HashEmbedder(), store=ChromaStore.http(
        host="127.0.0.1", port=proxy.port, collection=f"t_{uuid.uuid4().hex}", timeout=2.0))
    engine.add("alice", ["User is allergic to peanuts."])
    proxy.down = 503
    with pytest.raises(ServerUnavailable, match=r"HTTP 503 Service Unavailable, text/html from nginx: "
                                                r"'503 Service Temporarily Unavailable nginx'") as caught:
        engine.recall("Any snack for me?", "alice")
    assert isinstance(caught.value, ConnectionError)


@pytest.mark.parametrize(("status", "sent"), [(502, True), (503, False), (504, True)])
def test_a_write_through_a_gateway_error_is_unknown_when_the_proxy_may_have_passed_it_on(
    proxy: Proxy, status: int, sent: bool
) -> None:
    """A 504 (the proxy waited for Chroma) or 502 (Chroma's answer broke) may follow a change Chroma made: the add
    raises WriteOutcomeUnknown; a 503 refused it, and the add keeps its "nothing sent" error."""
    store = ChromaStore.http(host="127.0.0.1", port=proxy.port, collection=f"t_{uuid.uuid4().hex}", timeout=2.0)
    engine = ungated_engine(HashEmbedder(), store=store)
    engine.add("alice", ["User is allergic to peanuts."])
    proxy.down, proxy.down_for = status, f"/collections/{store._facts.id}/upsert"  # the add gets to send its facts
    with pytest.raises((ServerUnavailable, WriteOutcomeUnknown)) as caught:
        engine.add("alice", ["User plays the cello."])
    error = caught.value
    unavailable = error.__cause__ if isinstance(error, WriteOutcomeUnknown) else error
    assert isinstance(unavailable, ServerUnavailable) and unavailable.sent is sent
    assert isinstance(error, WriteOutcomeUnknown) is sent
    assert unavailable.url == f"http://127.0.0.1:{proxy.port}"


def test_the_mcp_message_for_a_gateway_error_says_the_server_is_unavailable_not_could_not_connect(
    proxy: Proxy,
) -> None:
    store = ChromaStore.http(host="127.0.0.1", port=proxy.port, collection=f"t_{uuid.uuid4().hex}", timeout=2.0)
    engine = ungated_engine(HashEmbedder(), store=store)
    engine.add("alice", ["User is allergic to peanuts."])
    proxy.down = 503
    with pytest.raises(ServerUnavailable) as caught:
        engine.recall("Any snack for me?", "alice")
    said = unanswered_call("recall", caught.value, store)
    assert said is not None and said.startswith(f"recall: the Chroma server at http://127.0.0.1:{proxy.port} is "
                                                "unavailable (the Chroma server could not be reached")
    assert "HTTP 503 Service Unavailable" in said and "could not connect" not in said and "running?" not in said
