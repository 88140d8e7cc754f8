"""A TCP proxy on loopback that holds a server's replies back: a real lost (or late) reply, for fault tests.

``DelayProxy(host, port)`` listens on a free loopback port and forwards every
connection to ``host:port``. Requests go through at once, so the server
handles them as usual; once :meth:`DelayProxy.delay_replies` is armed, every
reply byte that arrives from the server is passed on to the client only
``seconds`` later (in order). A client whose time limit is shorter sees a
timeout while the server has done the work. ``after=`` arms the delay only
once a request containing those bytes (e.g. one endpoint's path) has been
seen, so the requests before it are answered promptly. :attr:`DelayProxy.accepted` counts the client
connections.
"""

from __future__ import annotations

import queue
import socket
import threading
import time

__all__ = ["DelayProxy"]

_CHUNK = 65536


def _read(sock: socket.socket) -> bytes:
    """The next chunk from ``sock``; ``b""`` at the end of its stream, and when it failed (reset, closed)."""
    try:
        return sock.recv(_CHUNK)
    except OSError:
        return b""


def _close(*socks: socket.socket) -> None:
    """Close each of ``socks``, whatever state it is in."""
    for sock in socks:
        try:
            sock.close()
        except OSError:
            pass


class DelayProxy:
    """Forward ``127.0.0.1:<port>`` to ``host:port``, holding the server's replies back when armed."""

    def __init__(self, host: str, port: int) -> None:
        self.upstream = (host, port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._lock = threading.Lock()
        self._delay = 0.0
        self._trigger: bytes | None = None
        self.armed = threading.Event()
        """Set once replies are being held back (at once, or when the ``after=`` request was seen)."""
        self._closed = False
        self._sockets: list[socket.socket] = []
        self.accepted = 0
        """Client connections accepted so far (each one forwarded on a connection of its own)."""
        threading.Thread(target=self._accept, name="delay-proxy-accept", daemon=True).start()

    def delay_replies(self, seconds: float, *, after: bytes | None = None) -> None:
        """Hold every reply ``seconds`` from now on, or from the first request containing ``after`` on."""
        with self._lock:
            self._delay = float(seconds)
            self._trigger = after
            if after is None:
                self.armed.set()
            else:
                self.armed.clear()

    def stop_delaying(self) -> None:
        """Replies arriving from now on pass at once (those already held keep their time)."""
        with self._lock:
            self._delay = 0.0
            self._trigger = None
            self.armed.clear()

    def close(self) -> None:
        self._closed = True
        _close(self._listener, *self._sockets)

    def __enter__(self) -> DelayProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- forwarding -------------------------------------------------------------

    def _current_delay(self) -> float:
        with self._lock:
            return self._delay if self.armed.is_set() else 0.0

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.upstream, timeout=10)
                server.settimeout(None)
            except OSError:
                client.close()
                continue
            self._sockets += [client, server]
            with self._lock:
                self.accepted += 1
            held: queue.Queue[tuple[float, bytes]] = queue.Queue()
            for target, name in ((self._requests, "up"), (self._replies_in, "in"), (self._replies_out, "out")):
                threading.Thread(target=target, args=(client, server, held), name=f"delay-proxy-{name}",
                                 daemon=True).start()

    def _requests(self, client: socket.socket, server: socket.socket, held: queue.Queue) -> None:
        """Client to server, at once; arms the delay on the trigger."""
        while True:
            data = _read(client)
            if not data:
                break
            with self._lock:
                if self._trigger is not None and self._trigger in data:
                    self.armed.set()
            try:
                server.sendall(data)
            except OSError:
                break
        # The client gave up (e.g. on a timeout): the server still finishes what it was sent and replies
        # into the proxy; close its side once any held reply has had its time.
        time.sleep(self._current_delay() + 1.0)
        _close(server, client)

    def _replies_in(self, client: socket.socket, server: socket.socket, held: queue.Queue) -> None:
        """Server to proxy: each chunk stamped with the time it may be passed on."""
        while True:
            data = _read(server)
            held.put((time.monotonic() + self._current_delay(), data))
            if not data:
                return

    def _replies_out(self, client: socket.socket, server: socket.socket, held: queue.Queue) -> None:
        """Proxy to client, each chunk at its time, in order."""
        while True:
            due, data = held.get()
            if not data:
                try:
                    client.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                return
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            try:
                client.sendall(data)
            except OSError:
                pass  # the client is gone; the reply is lost, as it would be on a real network
