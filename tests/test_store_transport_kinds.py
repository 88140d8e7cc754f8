"""Which transport errors the store door turns into memori's outage errors (:mod:`memori_core.store.unreachable`):
a server that cannot be reached or does not answer is an outage (the adapters fail open on it); a bad address
scheme or a request this side could not form is a mistake, raised as httpx raised it so it is not hidden."""

from __future__ import annotations

import httpx
import pytest

from memori_core.store import StoreTimedOut, StoreUnreachable
from memori_core.store.unreachable import from_transport

URL = "http://127.0.0.1:9"


@pytest.mark.parametrize(("error", "kind", "sent"), [
    (httpx.ConnectTimeout("slow"), StoreTimedOut, False),
    (httpx.ReadTimeout("slow"), StoreTimedOut, True),
    (httpx.ConnectError("refused"), StoreUnreachable, False),
    (httpx.RemoteProtocolError("closed mid-reply"), StoreUnreachable, True),
    (httpx.ProxyError("502 from the proxy"), StoreUnreachable, False),
])
def test_an_unreachable_or_silent_server_becomes_memoris_outage_error(error, kind, sent) -> None:
    mapped = from_transport(error, URL, "GET /api/v2/heartbeat")
    assert type(mapped) is kind and mapped.sent is sent and mapped.url == URL
    assert mapped.__cause__ is error and "GET /api/v2/heartbeat" in str(mapped)


@pytest.mark.parametrize("error", [httpx.UnsupportedProtocol("Request URL has an unsupported protocol 'htp://'"),
                                   httpx.LocalProtocolError("Illegal header value")])
def test_a_bad_address_or_a_malformed_request_is_raised_as_it_is_not_read_as_an_outage(error) -> None:
    assert from_transport(error, URL) is error
