"""A server's store built while its server did not answer (:class:`LaterConnection`): the store's first call
connects, so that a service can start before its Chroma server and fail open until it answers."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from . import deadline
from .chroma_client import NoServerAnswers, ServerUnavailable, clip_text
from .unreachable import StoreUnreachable

__all__ = ["LaterConnection", "not_answering"]

logger = logging.getLogger("memori_core.store.chroma")

_STAND_INS = ("_client", "_facts", "_revision_tokens")
"""What a store holds once connected, and holds a stand-in for until then (:class:`_Unconnected`)."""


def not_answering() -> tuple[type[BaseException], ...]:
    """The errors that say a server does not answer (yet): nothing listens at its address, it does not answer in
    time, or a proxy in front of it cannot reach it (502/503/504); not a server that answers as something else."""
    import httpx

    return (NoServerAnswers, ServerUnavailable, StoreUnreachable, httpx.TransportError)


class LaterConnection:
    """How ``store`` (a :class:`~memori_core.store.ChromaStore` whose server did not answer when it was built)
    connects: on its first call that needs the server, one call at a time, each within the time it has
    (:func:`~memori_core.store.deadline.check`: a write's deadline, a fail-open call's time to reach the store).
    A call that fails to connect raises the connection's error; the next call tries again."""

    def __init__(self, store: Any, url: str, connect: Callable[[float | None], Any], error: BaseException) -> None:
        """``connect(seconds)`` makes a client within ``seconds`` (``None``: the store's own limit); ``error`` is
        what the attempt at build time raised (warned once, here)."""
        self._store, self.url, self._connect = store, url, connect
        self._lock = threading.Lock()
        for name in _STAND_INS:
            setattr(store, name, _Unconnected(store, name))
        logger.warning("no Chroma server answers at %s yet (%s: %s); the store connects on its first call, and until "
                       "then every call fails as in an outage (the adapters go on without memory)", url,
                       type(error).__name__, clip_text(str(error), 200))

    def connect(self) -> None:
        """Connect the store, unless another call did meanwhile; raises what connecting raised."""
        with deadline.holding(self._lock, f"waiting for another call to connect to {self.url}",
                              f"another call connecting to {self.url}"):
            if self._store._later is not self:  # noqa: SLF001 - connected meanwhile
                return
            left = deadline.check(f"connecting to the Chroma server at {self.url}")
            client = self._connect(left)
            self._store._connected_with(client)  # noqa: SLF001
        logger.info("connected to the Chroma server at %s", self.url)


class _Unconnected:
    """Stands in for what an unconnected store holds (its client, collections, revisions): any use connects the
    store first, then goes to the real one."""

    __slots__ = ("_store", "_name")

    def __init__(self, store: Any, name: str) -> None:
        self._store, self._name = store, name

    def __getattr__(self, attr: str) -> Any:
        self._store._connect_now()  # noqa: SLF001
        real = getattr(self._store, self._name)
        if isinstance(real, _Unconnected):
            raise RuntimeError(f"the store at {self._store.location} did not open its collections")
        return getattr(real, attr)
