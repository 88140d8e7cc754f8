"""A loopback HTTP server speaking just enough of the OpenAI (chat completions, Responses), Anthropic and Google
GenAI APIs for their real SDK clients, recording the JSON body each request carried (what the model would read).
A request offering tools is answered with a call of its first tool until it carries the tool's result.

Import the fixtures into a test module: ``from _loopback import endpoint, openai_client  # noqa: F401``.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from _helpers import LoopbackServer, QuietHandler

_RESPONSE_IDS = itertools.count(1)


def _responses_reply(body: dict[str, Any]) -> dict[str, Any]:
    """A Responses API reply, with an id of its own (``resp_N``): a call of the request's first tool when it
    offers tools and its input does not end in a tool's output, else the text ``ok``."""
    n = next(_RESPONSE_IDS)
    items = body.get("input")
    last = items[-1] if isinstance(items, list) and items else {}
    if body.get("tools") and last.get("type") != "function_call_output":
        output: dict[str, Any] = {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}",
                                  "name": body["tools"][0]["name"], "arguments": "{}", "status": "completed"}
    else:
        output = {"type": "message", "id": f"msg_{n}", "role": "assistant", "status": "completed",
                  "content": [{"type": "output_text", "text": "ok", "annotations": []}]}
    return {"id": f"resp_{n}", "object": "response", "created_at": 0, "model": "gpt-test", "status": "completed",
            "output": [output], "parallel_tool_calls": False, "tool_choice": "auto", "tools": []}


def _anthropic_content(body: dict[str, Any]) -> list[dict[str, Any]]:
    """A Messages API reply's content: a use of the request's first tool when it offers tools and its last
    message is not a tool's result, else the text ``ok``."""
    last = body["messages"][-1].get("content")
    answered = isinstance(last, list) and any(part.get("type") == "tool_result" for part in last)
    if body.get("tools") and not answered:
        return [{"type": "tool_use", "id": "toolu_1", "name": body["tools"][0]["name"], "input": {}}]
    return [{"type": "text", "text": "ok"}]


def _reply_for(path: str, body: dict[str, Any]) -> dict[str, Any]:
    if path.endswith("/chat/completions"):
        message: dict[str, Any] = {"role": "assistant", "content": "ok"}
        if body.get("tools") and body["messages"][-1].get("role") != "tool":
            call = {"id": "call_1", "type": "function",
                    "function": {"name": body["tools"][0]["function"]["name"], "arguments": "{}"}}
            message = {"role": "assistant", "content": None, "tool_calls": [call]}
        return {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 0,
            "model": "gpt-test",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if "tool_calls" in message
                         else "stop"}],
        }
    if path.endswith("/responses"):
        return _responses_reply(body)
    if path.endswith("/v1/messages"):
        return {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-test",
            "content": _anthropic_content(body),
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
    if ":generateContent" in path:
        return {"candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}]}
    raise LookupError(path)


class Recorder:
    """The requests the loopback server received: (path, JSON body)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def last(self, path_part: str) -> dict[str, Any]:
        with self.lock:
            bodies = [body for path, body in self.requests if path_part in path]
        assert bodies, f"no request to a path containing {path_part!r}; got {[p for p, _ in self.requests]}"
        return bodies[-1]


@pytest.fixture(scope="module")
def endpoint() -> Iterator[Recorder]:
    recorder: Recorder

    class Handler(QuietHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
            path = self.path.split("?", 1)[0]
            with recorder.lock:
                recorder.requests.append((path, body))
            try:
                payload, status = json.dumps(_reply_for(path, body)).encode(), 200
            except LookupError:
                payload, status = b'{"error": "unknown path"}', 404
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    server = LoopbackServer(Handler)
    recorder = Recorder(server.port)
    try:
        yield recorder
    finally:
        server.close()


# The SDK clients hold no state a test could change (each builds its HTTP client and TLS context,
# ~0.1 s): one of each serves the module.
@pytest.fixture(scope="module")
def openai_client(endpoint: Recorder) -> Any:
    import openai

    return openai.OpenAI(api_key="test-key", base_url=endpoint.url + "/v1", max_retries=0)


@pytest.fixture(scope="module")
def anthropic_client(endpoint: Recorder) -> Any:
    import anthropic

    return anthropic.Anthropic(api_key="test-key", base_url=endpoint.url, max_retries=0)


@pytest.fixture(scope="module")
def genai_client(endpoint: Recorder) -> Any:
    from google import genai
    from google.genai import types

    return genai.Client(api_key="test-key", http_options=types.HttpOptions(base_url=endpoint.url))
