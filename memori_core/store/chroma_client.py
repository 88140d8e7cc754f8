"""Opening chromadb clients (settings; an HTTP client with a time limit on every request), reading through
them (retried on Chroma's internal errors), and Chroma's error types.

chromadb is imported here and in the other ``chroma*`` modules of this
package only, and lazily: importing :mod:`memori_core` does not load it.
"""

from __future__ import annotations

import collections
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from . import deadline
from .unreachable import StoreTimedOut, StoreUnreachable, from_transport

logger = logging.getLogger(__name__)

T = TypeVar("T")

READ_ATTEMPTS = 3
"""Times an idempotent read (or a whole-entity load) is tried when Chroma fails it with an internal error."""

DEFAULT_HTTP_TIMEOUT = 4.0
"""Seconds any one request to a Chroma server may take (:meth:`ChromaStore.http`)."""

GATEWAY_STATUSES: dict[int, str] = {502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"}
"""HTTP statuses that say the server could not be reached, not what it answered: a reverse proxy or ingress in
front of Chroma answers them while Chroma is down or restarting (Chroma itself answers 503 when overloaded)."""

ANSWER_CHARS = 120
"""Characters of a non-Chroma answer's text quoted in an error message (a proxy's whole HTML page is not)."""


class ServerUnavailable(StoreUnreachable):
    """The Chroma server's address answered HTTP 502, 503 or 504 (:data:`GATEWAY_STATUSES`): a proxy in front
    of it could not reach it, or it is overloaded. An outage, like a refused connection
    (:func:`memori_core.outage.is_outage`). ``sent`` for a 502 or 504 of a request: the proxy may have passed
    it on before Chroma failed or fell silent (a write then may have landed); a 503 is a refusal."""


GATEWAY_FORWARDED = frozenset({502, 504})
"""Gateway statuses a proxy answers after it may have passed the request on: 504, its upstream did not answer in
time; 502, its upstream's answer was broken or missing (a server that died mid-reply), or it refused."""


def clip_text(text: str, limit: int = ANSWER_CHARS) -> str:
    """``text`` on one line, HTML tags removed and cut to ``limit`` characters (an error message quotes a
    server's answer this way, never a whole page)."""
    import re

    if "<" in text and ">" in text:
        text = re.sub(r"<(script|style)\b.*?</\1\s*>", " ", text, flags=re.S | re.I)
        text = re.sub(r"<[^>]*>", " ", text)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def describe_answer(response: Any) -> str:
    """What an HTTP answer is, for an error message: ``HTTP 503 Service Unavailable, text/html from nginx:
    '503 Service Temporarily Unavailable nginx'`` (status, content type, ``Server`` header, the text clipped)."""
    status = int(response.status_code)
    reason = GATEWAY_STATUSES.get(status) or getattr(response, "reason_phrase", "") or ""
    what = f"HTTP {status}{' ' + reason if reason else ''}"
    kind = (response.headers.get("content-type") or "").split(";")[0].strip()
    server = (response.headers.get("server") or "").strip()
    if kind:
        what += f", {kind}"
    if server:
        what += f" from {clip_text(server, 40)}"
    try:
        body = clip_text(response.text)
    except Exception:  # noqa: BLE001 - an undecodable body is described without its text
        body = ""
    return f"{what}: {body!r}" if body else f"{what}, empty"


def chroma_settings() -> Any:
    """The settings of every client memori-recall opens: no telemetry, no reset."""
    from chromadb.config import Settings

    return Settings(anonymized_telemetry=False, allow_reset=False)


def persistent_client(folder: str) -> Any:
    """An embedded client over ``folder`` (clients of one folder in a process share one Chroma system)."""
    import chromadb

    return chromadb.PersistentClient(path=folder, settings=chroma_settings())


def ephemeral_client() -> Any:
    """An in-memory client."""
    import chromadb

    return chromadb.EphemeralClient(settings=chroma_settings())


_UNUSED_EPHEMERAL: collections.deque[tuple[Any, tuple[str, ...]]] = collections.deque()
"""In-memory clients whose store was closed or garbage-collected, with that store's collections, not released
yet (:func:`release_unused_ephemeral`)."""


def mark_ephemeral_unused(client: Any, names: tuple[str, ...]) -> None:
    """Mark an in-memory store's ``client`` and collections ``names`` as unused. Safe in a ``weakref.finalize``
    callback, which may run in any thread at any moment: it only appends, so it takes no lock."""
    _UNUSED_EPHEMERAL.append((client, names))


def release_unused_ephemeral() -> int:
    """Drop the collections of the in-memory stores marked unused and close their clients; returns how many
    stores were released.

    All in-memory clients of a process share one Chroma system, which frees nothing when a collection is
    dropped (chromadb 1.5: about 3 MB of a 300-fact collection stays) and only frees all of its memory once
    its last client is closed. So a program that makes an in-memory store per test or per request, closing or
    dropping the one before, stays the size of one store instead of growing by each. A collection that is
    gone already, or a client that fails to close, is skipped: this only ever frees memory.
    """
    released = 0
    while True:
        try:
            client, names = _UNUSED_EPHEMERAL.popleft()
        except IndexError:
            return released
        for name in names:
            try:
                client.delete_collection(name)
            except Exception as exc:  # noqa: BLE001 - already gone: nothing to free
                logger.debug("could not drop the unused in-memory collection %r: %s", name, exc)
        try:
            client.close()
        except Exception as exc:  # noqa: BLE001
            logger.debug("could not close an unused in-memory client: %s", exc)
        released += 1


def check_server_address(host: Any, port: Any) -> tuple[str, int]:
    """``(host, port)`` of a Chroma server checked: ``host`` a host name or IP address (stripped; not a URL,
    and without a port or a path), ``port`` an int from 1 to 65535 (or a string of digits, as read from the
    environment). ``TypeError`` / ``ValueError`` naming the argument otherwise, with what to pass instead."""
    from urllib.parse import urlsplit

    if not isinstance(host, str):
        raise TypeError(f"host must be a str (a host name or IP address), got {type(host).__name__}")
    name = host.strip()
    if not name:
        raise ValueError(f"host must be a host name or IP address, got {host!r}")
    if "://" in name:
        parts = urlsplit(name)
        try:
            url_port = parts.port
        except ValueError:
            url_port = None
        hint = f"host={parts.hostname or '...'!r}"
        if url_port is not None:
            hint += f", port={url_port}"
        if parts.scheme.lower() == "https":
            hint += ", ssl=True"
        raise ValueError(f"host must be a host name or IP address, not a URL: got {host!r}; pass {hint}")
    if "/" in name or any(c.isspace() for c in name):
        raise ValueError(f"host must be a host name or IP address, got {host!r}")
    if name.count(":") == 1:  # several colons: an IPv6 address
        bare, _, given = name.partition(":")
        raise ValueError(f"host must not hold a port: got {host!r}; pass host={bare!r}, port={given}")
    if isinstance(port, str) and port.strip().isdigit():
        port = int(port.strip())
    if isinstance(port, str):
        raise TypeError(f"port must be an int, or a string of its digits, got {port!r}")
    if isinstance(port, bool) or not isinstance(port, int):
        raise TypeError(f"port must be an int, got {type(port).__name__}")
    if not 1 <= port <= 65535:
        raise ValueError(f"port must be between 1 and 65535, got {port}")
    return name, port


def http_client(
    host: str, port: int, *, ssl: bool, headers: dict[str, str] | None, timeout: float | None,
    connect_within: float | None = None,
) -> Any:
    """A client of the Chroma server at ``host:port`` whose every request is bounded by ``timeout`` seconds
    (``None``: no limit), the connect by ``connect_within`` (default: ``timeout``). A server that answers, but
    not as Chroma does (a web page, a 404, a proxy's 502/503/504), is a ``ConnectionError`` saying what answered
    (:class:`ServerUnavailable` for a gateway status)."""
    import chromadb
    import httpx

    url = server_url(host, port, ssl)
    try:
        client = _connect(
            lambda: chromadb.HttpClient(host=host, port=port, ssl=ssl, headers=headers, settings=chroma_settings()),
            url,
            timeout if connect_within is None else connect_within,
        )
    except (ConnectionError, httpx.TransportError):  # nothing answers, or not in time: said as it is
        raise
    except Exception as exc:
        error = _not_chroma(exc, url, headers, timeout)
        if error is None:
            raise
        raise error from exc
    _bound_requests(client, timeout)
    return client


def server_url(host: str, port: int, ssl: bool) -> str:
    """The URL of a Chroma server, as messages and ``ChromaStore.location`` name it (an IPv6 address in
    brackets, the port always given)."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{'https' if ssl else 'http'}://{host}:{port}"


def _server_of(url: Any) -> str:
    """:func:`server_url` of the server a request URL goes to (httpx leaves out a scheme's default port)."""
    import httpx

    where = httpx.URL(url)
    return server_url(where.host, where.port or (443 if where.scheme == "https" else 80), where.scheme == "https")


def retry_read(call: Callable[[], T]) -> T:
    """An idempotent Chroma read, tried again (up to :data:`READ_ATTEMPTS` times in all) when Chroma reports an
    internal error: a server can fail a read that races its own segment flush ("Error creating hnsw segment
    reader: Nothing found on disk", chroma-core/chroma#4212) and answer the same read a moment later."""
    from chromadb.errors import InternalError

    for attempt in range(READ_ATTEMPTS):
        try:
            return call()
        except InternalError:
            if attempt == READ_ATTEMPTS - 1:
                raise
            logger.info("Chroma failed a read with an internal error; reading again")
            time.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")


def chroma_errors() -> tuple[type[BaseException], ...]:
    """Chroma's own exception types (for callers that report a store's failures as messages, e.g. the CLI)."""
    try:
        from chromadb.errors import ChromaError
    except ImportError:  # pragma: no cover - chromadb is a dependency
        return ()
    return (ChromaError,)


def is_http_client(client: Any) -> bool:
    """Whether ``client`` is a chromadb client of a server (``chromadb.HttpClient``), by the API it was made
    with; a client that does not say is taken for one when its type's name says ``http``."""
    try:
        impl = str(client.get_settings().chroma_api_impl)
    except Exception:  # noqa: BLE001 - not a chromadb client
        return "http" in type(client).__name__.lower()
    return impl.endswith("FastAPI")


def _bound_requests(client: Any, timeout: float | None) -> None:
    """Give the chromadb HTTP client's connection a time limit (chromadb creates it with none), make each
    request made inside a write's deadline (:mod:`.deadline`) take at most the time left of it, and give a
    forked process connections of its own (:func:`serve_in_this_process`)."""
    import httpx

    session = getattr(getattr(client, "_server", None), "_session", None)
    if not isinstance(session, httpx.Client):
        raise RuntimeError("this chromadb version's HTTP client has no httpx session to bound; pin chromadb<2")
    session.timeout = httpx.Timeout(timeout)
    serve_in_this_process(client)
    admin = getattr(getattr(getattr(client, "_admin_client", None), "_server", None), "_session", None)
    if isinstance(admin, httpx.Client):
        admin._memori_pid = os.getpid()  # used while the client was built: closed with it (close_http_client)


_INHERITED_SESSIONS: list[Any] = []
"""In a forked process: the HTTP sessions inherited from the parent, kept (never closed) and never used."""
_REOPEN_LOCK = threading.Lock()


def serve_in_this_process(client: Any) -> None:
    """Route every request of chromadb HTTP ``client`` through a wrapper (once per connection: each client
    has its own) that bounds it by a write's deadline (:mod:`.deadline`) and, in a process
    forked after the connection was made, sends it over a new connection pool of that process.

    A forked child inherits the parent's pool with its open sockets: requests of both processes on one socket
    interleave (the server answers one process with the other's reply, or fails to parse the body), so the
    child's first request makes a new session (an ``httpx.Client`` made as chromadb makes it: same headers,
    limits, TLS verification and time limit) and the parent's is left alone. Does nothing for a client that is
    not an HTTP one."""
    import httpx

    server = getattr(client, "_server", None)
    session = getattr(server, "_session", None)
    if not isinstance(session, httpx.Client) or getattr(session, "_memori_deadlines", False):
        return
    verify = client.get_settings().chroma_server_ssl_verify
    _wrap_session(server, session, verify)


def _wrap_session(server: Any, session: Any, verify: Any) -> None:
    import httpx

    send = session.request
    owner = os.getpid()

    def request(method: str, url: Any, **kwargs: Any) -> Any:
        if os.getpid() != owner:  # forked since: this session's sockets are the parent's
            return _reopened(server, session, verify).request(method, url, **kwargs)
        left = deadline.check(f"{method.upper()} {url}")
        if left is not None:
            limit = session.timeout.read  # the store's own limit (the last one set for this server)
            kwargs["timeout"] = httpx.Timeout(left if limit is None else min(limit, left))
        try:
            response = send(method, url, **kwargs)
        except httpx.TransportError as exc:  # said as memori's own error: callers need not import httpx
            raise from_transport(exc, _server_of(url),  # noqa: B904 - cause set
                                 f"{method.upper()} .../{httpx.URL(url).path.rsplit('/', 1)[-1]}")
        if response.status_code in GATEWAY_STATUSES:
            # chromadb would raise a bare Exception holding the proxy's whole page, which no one can tell
            # from an error Chroma answered; this is the server being unreachable.
            status = response.status_code
            what = ("a proxy in front of it got no answer from it in time" if status == 504 else
                    "a proxy in front of it cannot reach it, or it is restarting")
            raise ServerUnavailable(
                f"the Chroma server could not be reached ({what}): {describe_answer(response)} to "
                f"{method.upper()} {httpx.URL(url).path}", url=_server_of(url), sent=status in GATEWAY_FORWARDED)
        return response

    session.request = request  # chromadb sends every request through session.request
    session._memori_deadlines = True
    session._memori_pid = owner  # the process whose connections these are (closed only there)


def close_http_client(client: Any) -> None:
    """Close a chromadb HTTP client that a store opened: its connections to the server (the session of this
    process; one inherited over a fork is left alone, its sockets are the parent's) and its chromadb system."""
    for owner in (client, getattr(client, "_admin_client", None)):  # chromadb's admin client has a session too
        session = getattr(getattr(owner, "_server", None), "_session", None)
        if session is not None and getattr(session, "_memori_pid", None) == os.getpid():
            session.close()
    client.close()


def _reopened(server: Any, inherited: Any, verify: Any) -> Any:
    """The session of this (forked) process for chromadb ``server``: made on the first request after the fork."""
    import httpx

    with _REOPEN_LOCK:
        current = server._session
        if current is inherited:
            options: dict[str, Any] = {} if verify is None else {"verify": verify}
            current = httpx.Client(timeout=inherited.timeout, limits=server.http_limits,
                                   headers=inherited.headers, **options)
            _wrap_session(server, current, verify)
            _INHERITED_SESSIONS.append(inherited)  # closing it could shut the parent's sockets down
            server._session = current
            logger.debug("forked process %d: new connections to the Chroma server", os.getpid())
        return current


def _after_fork_in_child() -> None:
    global _REOPEN_LOCK
    _REOPEN_LOCK = threading.Lock()  # another thread of the parent may have held it at the fork


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


class NoServerAnswers(StoreUnreachable):
    """Nothing answered at the Chroma server's address when a client was built (:attr:`url`)."""

    def __init__(self, message: str, url: str) -> None:
        super().__init__(message, url=url)


def _unreachable(exc: BaseException, url: str) -> BaseException:
    """chromadb's "Could not connect to a Chroma server" (a ``ValueError`` that names no server) as a
    :class:`NoServerAnswers` naming ``url``; the ``ValueError`` chromadb makes of any other transport failure
    while the client is built (a connection reset or dropped before the answer) as :func:`.from_transport`'s
    error, which sent nothing (the build only reads); any other error as it is."""
    import httpx

    if isinstance(exc, ValueError) and "could not connect" in str(exc).lower():
        error = NoServerAnswers(
            f"no Chroma server answers at {url} (start one with `chroma run --path DIR --port PORT`)", url
        )
        error.__cause__ = exc
        return error
    if isinstance(exc, ValueError) and isinstance(exc.__context__, httpx.TransportError):
        error = from_transport(exc.__context__, url, "connecting")
        if isinstance(error, StoreUnreachable):
            error.sent = False
        return error
    return exc


HEARTBEAT = "/api/v2/heartbeat"
"""The path a Chroma server answers ``{"nanosecond heartbeat": ...}`` on (asked to say what answered instead)."""


def _not_chroma(exc: BaseException, url: str, headers: dict[str, str] | None, timeout: float | None
                ) -> ConnectionError | None:
    """When connecting to ``url`` failed with ``exc``, ask its heartbeat what answers there: an error saying so
    when it is not a Chroma server (a web page, a 404, a proxy's 502/503/504), ``None`` when it is one (``exc``
    is then Chroma's own answer: authentication, tenant...) or when nothing answers now."""
    import httpx

    try:
        response = httpx.get(url + HEARTBEAT, headers=headers or {}, timeout=timeout or DEFAULT_HTTP_TIMEOUT)
    except httpx.HTTPError:
        return None
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and ("nanosecond heartbeat" in body or "error" in body):
        return None  # Chroma's heartbeat, or an error in Chroma's shape
    answer = f"GET {HEARTBEAT} answered {describe_answer(response)}"
    if response.status_code in GATEWAY_STATUSES:
        return ServerUnavailable(f"the Chroma server at {url} could not be reached (a proxy in front of it cannot "
                                 f"reach it, or it is starting): {answer}")
    return ConnectionError(f"what answers at {url} is not a Chroma server: {answer}; check host, port and ssl "
                           "(a Chroma server answers {\"nanosecond heartbeat\": ...} there)")


def _close_quietly(client: Any) -> None:
    """Close ``client``, a chromadb HTTP client no one holds: its connections (its own session and its admin
    client's: each chromadb HTTP client has a system of its own, which ``close`` stops without closing its
    session) and its system. A failure to close is logged, not raised (it runs in the connect thread, where
    nothing would catch it)."""
    try:
        for owner in (client, getattr(client, "_admin_client", None)):
            session = getattr(getattr(owner, "_server", None), "_session", None)
            if session is not None:
                session.close()
        client.close()
    except Exception:  # noqa: BLE001 - nothing to hand it to
        logger.debug("closing a Chroma client built after its connect timed out failed", exc_info=True)


def _connect(make_client: Callable[[], Any], url: str, timeout: float | None) -> Any:
    """``make_client()`` within ``timeout`` seconds, or :class:`StoreTimedOut` naming ``url``; a server that
    refuses the connection is a :class:`NoServerAnswers` naming ``url``.

    chromadb's ``HttpClient`` asks the server for its tenant and database while
    it is built, before its connection can be given a time limit; a server that
    accepts connections but never answers would block that forever. The build
    runs in a daemon thread instead, which a hung server leaves parked until it
    answers or dies (one thread per failed connect, not per call). A client built
    after the caller gave up is closed by that thread: chromadb shares one
    connection pool among the clients of a server and keeps it open until the
    last of them is closed, so a client no one holds would keep it open for good
    (the connections a later store's ``close`` closes stayed open, and were
    reported as unclosed sockets).
    """
    import httpx

    if timeout is None:
        try:
            return make_client()
        except Exception as exc:
            raise _unreachable(exc, url)  # noqa: B904 - the cause is set, or it is exc itself
    box: dict[str, Any] = {}
    lock = threading.Lock()

    def build() -> None:
        try:
            client = make_client()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller below
            with lock:
                box["error"] = exc
            return
        with lock:
            if "gave_up" not in box:
                box["client"] = client
                return
        _close_quietly(client)  # built too late: the caller raised StoreTimedOut and holds no client

    thread = threading.Thread(target=build, name="memori-chroma-connect", daemon=True)
    interrupted = True
    try:
        thread.start()
        thread.join(timeout)
        interrupted = False
    finally:
        # Also when the wait itself raised (Ctrl-C, a signal handler's SystemExit): a client built later, or already
        # built and never handed back, is closed, since no caller will hold it.
        with lock:
            late = "client" not in box and "error" not in box
            if late or interrupted:
                box["gave_up"] = True
            unheld = box.pop("client", None) if interrupted else None
        if unheld is not None:
            _close_quietly(unheld)
    if late:
        raise StoreTimedOut(
            f"the Chroma server at {url} did not answer within {timeout:g} s (is it stopped or overloaded?); "
            "ChromaStore.http(timeout=...) sets the limit", url=url
        )
    if "error" in box:
        raise _unreachable(box["error"], url)
    return box["client"]
