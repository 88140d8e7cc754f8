"""A write in several batches whose batches fail differently, through a loopback proxy in front of a real `chroma run`
server: one batch reaches the server and its reply is lost (the proxy closes the connection), another is refused at
once (the proxy answers 503), and reading back what landed fails too (503). The error raised says what may have
happened: an add whose lost batch may have landed raises :class:`WriteOutcomeUnknown`, not the refused batch's
"nothing sent"; a delete whose first chunk was deleted raises :class:`PartialDeleteError` naming it."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator

import pytest

from _helpers import Answer, ForwardingProxy, HashEmbedder, ungated_engine
from memori_core import ChromaStore, RecallEngine, WriteOutcomeUnknown
from memori_core.store.base import PartialDeleteError
from memori_core.store.chroma_client import ServerUnavailable

pytestmark = pytest.mark.server

FACTS = ["User has a cat named Tom.", "User plays the cello.", "User is allergic to nuts.", "User runs on Sundays."]

Plan = Callable[[int], str]
"""For the n-th request (from 1) to the watched endpoint: ``"forward"``, ``"lose_reply"`` (forwarded, then the
connection closed without an answer, the proxy down from then on) or ``"refuse"`` (503, the proxy down from then on)."""


class FaultProxy(ForwardingProxy):
    """A loopback HTTP proxy to ``upstream`` that follows :attr:`plan` for requests whose path ends with
    :attr:`watched`, forwards every other one, and answers 503 to everything once it is :attr:`down`."""

    def __init__(self, upstream: str) -> None:
        self.watched: str | None = None
        self.plan: Plan = lambda n: "forward"
        self.down = False
        self.seen = 0
        self._lock = threading.Lock()
        super().__init__(upstream)

    def decide(self, path: str) -> str | Answer:
        action = "forward"
        with self._lock:
            if self.watched is not None and path.endswith(self.watched):
                self.seen += 1
                action = self.plan(self.seen)
            if self.down:
                action = "refuse"
        if action == "refuse":
            self.down = True
            return 503, "text/plain", b"down for maintenance"
        return action

    def reply_lost(self) -> None:
        time.sleep(0.5)  # after the other batch was refused
        self.down = True


@pytest.fixture
def proxy(chroma_server: tuple[str, int]) -> Iterator[FaultProxy]:
    with FaultProxy.to(chroma_server) as proxy:
        yield proxy


def _engines(proxy: FaultProxy, chroma_server: tuple[str, int]) -> tuple[RecallEngine, RecallEngine, ChromaStore]:
    """An engine through the proxy (batches of two), one straight to the server over the same collection, and the
    proxied engine's store."""
    collection = f"t_{uuid.uuid4().hex}"
    store = ChromaStore.http(host="127.0.0.1", port=proxy.port, collection=collection, timeout=5.0)
    store.max_batch_size = 2
    engine = ungated_engine(HashEmbedder(), store=store)
    engine.add("u", ["User lives in Leeds."])
    direct = ungated_engine(HashEmbedder(), store=ChromaStore.http(host=chroma_server[0], port=chroma_server[1],
                                                                   collection=collection, timeout=5.0))
    return engine, direct, store


@pytest.mark.parametrize("other", ["refuse", "forward"])
def test_an_add_whose_lost_batch_landed_raises_write_outcome_unknown_whatever_the_other_batch_did(
    proxy: FaultProxy, chroma_server: tuple[str, int], other: str
) -> None:
    """The other batch refused at once (it fails first: its "nothing sent" must not hide the lost batch), or
    stored and answered (the lost batch must not be reported as not stored)."""
    engine, direct, store = _engines(proxy, chroma_server)
    proxy.watched = f"/collections/{store._facts.id}/upsert"
    proxy.plan = lambda n: "lose_reply" if n == (1 if other == "refuse" else 2) else other
    with pytest.raises(WriteOutcomeUnknown) as raised:
        engine.add("u", FACTS)
    assert proxy.seen == 2
    cause = raised.value.__cause__
    assert cause is not None and getattr(cause, "sent", None) is True, repr(cause)
    landed = {f.content for f in direct.list("u")} - {"User lives in Leeds."}
    assert len(landed) == (2 if other == "refuse" else 4) and landed <= set(FACTS)  # the lost batch did land


def test_a_delete_whose_first_chunk_was_deleted_and_second_refused_raises_partial_delete_naming_both(
    proxy: FaultProxy, chroma_server: tuple[str, int]
) -> None:
    engine, direct, store = _engines(proxy, chroma_server)
    ids = engine.add("u", FACTS)
    proxy.watched = f"/collections/{store._facts.id}/delete"
    proxy.plan = lambda n: "forward" if n == 1 else "refuse"
    with pytest.raises(PartialDeleteError) as raised:
        engine.delete("u", ids)
    error = raised.value
    assert isinstance(error.__cause__, ServerUnavailable)
    left = {f.id for f in direct.list("u")} & set(ids)
    assert len(left) == 2
    assert set(error.remaining_ids) == left and set(error.deleted_ids) == set(ids) - left
