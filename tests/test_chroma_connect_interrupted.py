"""A caller interrupted while it waits for a server store's client to be built (Ctrl-C, a signal handler raising
``SystemExit``) holds no client: the one the connect thread builds afterwards (or built before the caller took it)
is closed, as after a timeout, so chromadb's connection pool of that server is not kept open by a client no one
holds (rev40c finding 3)."""

from __future__ import annotations

import signal
import threading
from typing import Any

import pytest

from memori_core.store import chroma_client

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="interrupts the wait with SIGALRM")


class Client:
    """A built client: what ``_connect`` must hand back or close."""

    def __init__(self) -> None:
        self.closed = threading.Event()

    def close(self) -> None:
        self.closed.set()


def connect_interrupted(interrupt: type[BaseException]) -> Client:
    """The client ``_connect`` builds once its caller was interrupted by ``interrupt`` as it waited."""
    client = Client()
    go = threading.Event()

    def make_client() -> Client:
        signal.setitimer(signal.ITIMER_REAL, 0.05)  # the caller is interrupted once the build began
        go.wait(30)
        return client

    def on_alarm(signum: int, frame: Any) -> None:
        raise interrupt

    previous = signal.signal(signal.SIGALRM, on_alarm)
    try:
        with pytest.raises(interrupt):
            chroma_client._connect(make_client, "http://localhost:1", timeout=60.0)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        go.set()  # the build ends now
    return client


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt, SystemExit])
def test_a_client_built_after_the_caller_was_interrupted_is_closed(interrupt: type[BaseException]) -> None:
    client = connect_interrupted(interrupt)
    assert client.closed.wait(10)  # (a join of the connect thread is no help: an interrupted join forgets it)


def test_a_connect_that_answers_in_time_hands_its_client_back_open() -> None:
    client = chroma_client._connect(Client, "http://localhost:1", timeout=60.0)
    assert isinstance(client, Client) and not client.closed.is_set()
