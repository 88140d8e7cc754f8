"""memori's own errors for a store server that could not be reached or did not answer in time.

A request to a Chroma server fails in the transport (httpx's timeouts, a refused or reset connection, a server
gone mid-reply); :mod:`.chroma_client` turns each such failure into one of these at the one place every request
passes, so code that uses memori catches them without importing httpx. The transport's own error is the
``__cause__``. No chromadb or httpx import here.
"""

from __future__ import annotations

__all__ = ["StoreTimedOut", "StoreUnreachable"]


class StoreUnreachable(ConnectionError):
    """The store's server could not be reached, or stopped answering: nothing listens at its address, the
    connection was refused, reset or dropped, a proxy in front of it answered 502/503/504, or (as
    :class:`StoreTimedOut`) it did not answer in time. An outage, which the adapters fail open on.

    ``url`` is the server's address (``None`` when not known); ``sent`` whether a request had reached the server
    when it failed: a write then may have landed (the engine's write methods say so with
    :class:`~memori_core.store.WriteOutcomeUnknown`), while a connection never made sent nothing.
    """

    def __init__(self, message: str, *, url: str | None = None, sent: bool = False) -> None:
        super().__init__(message)
        self.url = url
        self.sent = sent


class StoreTimedOut(StoreUnreachable, TimeoutError):
    """The store's server did not answer within the store's request time limit (``ChromaStore.http(timeout=)``),
    or did not accept the connection in it: stopped, overloaded or hung. Also a :class:`TimeoutError`."""


def _kind(exc: BaseException) -> tuple[type[StoreUnreachable], bool, str] | None:
    """The memori error type for httpx error ``exc``, whether its request had been sent, and what happened in
    words; ``None`` for an error that is not a transport failure."""
    import httpx

    if isinstance(exc, (httpx.ConnectTimeout, httpx.PoolTimeout)):
        return StoreTimedOut, False, "did not accept a connection in time (is it stopped or overloaded?)"
    if isinstance(exc, httpx.TimeoutException):
        return StoreTimedOut, True, "did not answer in time (is it stopped or overloaded?)"
    if isinstance(exc, httpx.ConnectError):
        return StoreUnreachable, False, "refused the connection, or nothing listens there (is it running?)"
    if isinstance(exc, (httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError)):
        return StoreUnreachable, True, "dropped the connection before answering"
    if isinstance(exc, (httpx.UnsupportedProtocol, httpx.LocalProtocolError)):
        return None  # a bad address or a request this side could not form: a mistake to show, not an outage
    if isinstance(exc, httpx.TransportError):
        return StoreUnreachable, False, "could not be reached"
    return None


def from_transport(exc: BaseException, url: str, doing: str = "") -> BaseException:
    """``exc`` (an httpx error raised by a request to the server at ``url``; ``doing`` what the request was,
    ``"POST /api/v2/..."``) as a :class:`StoreUnreachable` / :class:`StoreTimedOut` naming the server, with
    ``exc`` as its cause; any other error as it is."""
    kind = _kind(exc)
    if kind is None:
        return exc
    error_type, sent, what = kind
    detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    request = f" ({doing})" if doing else ""
    error = error_type(f"the Chroma server at {url} {what}{request}; {detail}", url=url, sent=sent)
    error.__cause__ = exc
    return error
