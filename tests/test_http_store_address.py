"""``ChromaStore.http`` pointed at the wrong thing: a URL or ``host:port`` as ``host`` and a port out of range are
refused before any request, naming the argument and what to pass; a real HTTP server on loopback that is not
Chroma (a web page, a 404, a proxy's 503) is a ``ConnectionError`` saying what answered, not chromadb's
``ValueError: ''``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from _helpers import LoopbackServer, QuietHandler
from memori_core import ChromaStore
from memori_core.store.chroma_client import ServerUnavailable, _server_of, check_server_address


@pytest.mark.parametrize(("host", "port", "message"), [
    ("http://127.0.0.1", 8000, r"host must be a host name or IP address, not a URL: got 'http://127.0.0.1'; "
                               r"pass host='127.0.0.1'$"),
    ("https://chroma.example.com:8443/", 8000, r"not a URL: .*; pass host='chroma.example.com', port=8443, ssl=True"),
    ("127.0.0.1:8896", 8000, r"host must not hold a port: got '127.0.0.1:8896'; pass host='127.0.0.1', port=8896"),
    ("  ", 8000, r"host must be a host name or IP address, got '  '"),
    ("chroma/api", 8000, r"host must be a host name or IP address, got 'chroma/api'"),
    ("127.0.0.1", 70000, r"port must be between 1 and 65535, got 70000"),
    ("127.0.0.1", 0, r"port must be between 1 and 65535, got 0"),
])
def test_a_bad_host_or_port_is_refused_naming_the_argument(host: str, port: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ChromaStore.http(host=host, port=port)


@pytest.mark.parametrize(("host", "port", "message"), [
    (None, 8000, "host must be a str"), ("127.0.0.1", 8000.0, "port must be an int, got float"),
    ("127.0.0.1", True, "port must be an int, got bool"),
])
def test_a_host_or_port_of_the_wrong_type_is_a_type_error(host: Any, port: Any, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        ChromaStore.http(host=host, port=port)


def test_good_addresses_are_kept_stripped_and_a_port_of_digits_is_read_as_an_int() -> None:
    assert check_server_address(" chroma.internal ", " 8000 ") == ("chroma.internal", 8000)
    assert check_server_address("::1", 65535) == ("::1", 65535)


class _Site:
    """A real HTTP server on loopback answering every request with ``status`` and an HTML ``body``."""

    def __init__(self, status: int, body: bytes) -> None:
        class Handler(QuietHandler):
            server_version, sys_version = "nginx", ""

            def do_GET(self) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_POST = do_GET

        self.server = LoopbackServer(Handler)
        self.port = self.server.port


@pytest.fixture
def site(request: pytest.FixtureRequest) -> Iterator[_Site]:
    status, body = request.param
    site = _Site(status, body)
    yield site
    site.server.close()


@pytest.mark.parametrize(("site", "answered"), [
    ((200, b"<html><body><h1>Welcome to nginx!</h1></body></html>"),
     r"HTTP 200 OK, text/html from nginx: 'Welcome to nginx!'"),
    ((404, b""), r"HTTP 404 Not Found, text/html from nginx, empty"),
], indirect=["site"])
def test_a_server_that_is_not_chroma_is_a_connection_error_saying_what_answered(site: _Site, answered: str) -> None:
    with pytest.raises(ConnectionError, match=rf"what answers at http://127.0.0.1:{site.port} is not a Chroma "
                                              rf"server: GET /api/v2/heartbeat answered {answered}; check host"):
        ChromaStore.http(host="127.0.0.1", port=site.port, timeout=5.0)


@pytest.mark.parametrize("site", [(503, b"<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>")],
                         indirect=True)
def test_a_proxy_answering_503_at_connect_is_server_unavailable(site: _Site) -> None:
    unavailable = (r"could not be reached .* HTTP 503 Service Unavailable, text/html from nginx: '503 Service "
                   r"Temporarily Unavailable'")
    with pytest.raises(ServerUnavailable, match=unavailable):
        ChromaStore.http(host="127.0.0.1", port=site.port, timeout=5.0, lazy=False)
    store = ChromaStore.http(host="127.0.0.1", port=site.port, timeout=5.0)  # a Chroma still starting behind it
    assert not store.connected
    with pytest.raises(ServerUnavailable, match=unavailable):
        store.count("ana")  # each call tries to connect, and fails as an outage does


@pytest.mark.parametrize(("request_url", "named"), [
    ("https://chroma.example.com/api/v2/heartbeat", "https://chroma.example.com:443"),
    ("http://chroma.example.com/api/v2/heartbeat", "http://chroma.example.com:80"),
    ("http://[::1]:8000/api/v2/tenants/t/databases/d/collections/c/upsert", "http://[::1]:8000"),
    ("http://127.0.0.1:8000/api/v2/heartbeat", "http://127.0.0.1:8000"),
])
def test_a_failed_request_names_its_server_with_its_port_and_an_ipv6_address_in_brackets(
    request_url: str, named: str
) -> None:
    assert _server_of(request_url) == named

