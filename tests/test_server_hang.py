"""A Chroma server that stops answering (SIGSTOP) bounds every call instead of blocking it forever.

The server is a real `chroma run` of its own (the session server stays untouched);
the fault is real: the process is stopped, its socket stays open, requests hang.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from _helpers import HashEmbedder, running_chroma_server, ungated_engine
from memori_core import ChromaStore, RecallConfig, RecallEngine, StoreTimedOut

pytestmark = [pytest.mark.server, pytest.mark.skipif(os.name != "posix", reason="needs SIGSTOP")]

GIVE_UP = 60.0  # seconds: a call still running by then is hung (no timing is asserted below it)


@pytest.fixture
def stoppable_server(tmp_path) -> Iterator[tuple[str, int, subprocess.Popen]]:
    """A `chroma run` of this test's own, so that stopping it touches no other test."""
    with running_chroma_server(tmp_path) as server:
        yield server


def _finishes(fn) -> tuple[bool, object]:
    """Run ``fn`` in a thread; (finished, result or exception). A hung call is reported, not waited for."""
    box: dict[str, object] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - the exception is the result under test
            box["value"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(GIVE_UP)
    return not t.is_alive(), box.get("value")


def test_a_stopped_server_makes_recall_and_add_raise_a_timeout_instead_of_hanging(stoppable_server) -> None:
    host, port, proc = stoppable_server
    store = ChromaStore.http(host=host, port=port, collection=_seeded(host, port, "u", ["User likes tea."]),
                             timeout=1.0)
    engine = ungated_engine(store=store)
    _until(lambda: _recalled(engine, "u"), lambda texts: texts == ["User likes tea."], "recall")
    proc.send_signal(signal.SIGSTOP)
    try:
        done, value = _finishes(lambda: engine.recall("tea", "u"))
        assert done, "recall hung on a stopped server"
        assert isinstance(value, StoreTimedOut), value
        done, value = _finishes(lambda: engine.add("u", ["User likes coffee."]))
        assert done, "add hung on a stopped server"
        assert isinstance(value, StoreTimedOut), value
        # The hung calls left no lock behind: another entity's call is bounded too, not stuck behind them.
        done, value = _finishes(lambda: engine.recall("tea", "someone-else"))
        assert done and isinstance(value, StoreTimedOut), value
    finally:
        proc.send_signal(signal.SIGCONT)
    # The failed add never reported success; once the server answers again the engine is whole.
    fresh = ungated_engine(store=store)
    _until(lambda: (_recalled(engine, "u"), _recalled(fresh, "u")),
           lambda both: isinstance(both[0], list) and both[0] == both[1], "recall after the stop")


def _recalled(engine, entity_id: str) -> list[str] | BaseException:
    """The sorted texts ``engine`` recalls for "tea", or the timeout a loaded machine may give a 1 s limit."""
    try:
        return sorted(f.content for f in engine.recall("tea", entity_id, limit=5))
    except StoreTimedOut as exc:
        return exc


def _seeded(host: str, port: int, entity_id: str, facts: list[str]) -> str:
    """A new collection of the server holding ``entity_id``'s ``facts``, written through a store with no time
    limit (a loaded machine may take over a test's short limit to connect or write: the setup must not fail on
    it); its name."""
    collection = f"t_{uuid.uuid4().hex}"
    ungated_engine(store=ChromaStore.http(host=host, port=port, collection=collection, timeout=None)).add(
        entity_id, facts)
    return collection


def _until(call, answered, what: str):
    """``call()`` again until ``answered(value)``, at most :data:`GIVE_UP` seconds: a running server answers a
    fail-open call in time on an idle machine, but under load one of its 1 s requests may time out and fail open."""
    give_up = time.monotonic() + GIVE_UP
    while not answered(value := call()):
        if time.monotonic() > give_up:
            pytest.fail(f"{what} never answered on a running server in {GIVE_UP:g} s: {value!r}")
        time.sleep(0.2)
    return value


def test_the_langchain_injector_fails_open_when_the_server_hangs(stoppable_server) -> None:
    from memori_langchain import MemoriContextInjector

    host, port, proc = stoppable_server
    collection = _seeded(host, port, "u", ["User likes tea."])
    # No outage breaker (cooldown 0): every call goes to the store, the one on the stopped server too, which must
    # fail open by its own time limit, not be skipped because an earlier call failed.
    engine = RecallEngine(store=ChromaStore.http(host=host, port=port, collection=collection, timeout=1.0),
                          embedder=HashEmbedder(), config=RecallConfig(gate="off"), outage_cooldown=0)
    injector = MemoriContextInjector(engine=engine, entity_id="u")
    messages = [SystemMessage("Be brief."), HumanMessage("tea?")]
    _until(lambda: injector.invoke(messages)[0].content, lambda text: "User likes tea." in text, "the injector")
    proc.send_signal(signal.SIGSTOP)
    try:
        done, value = _finishes(lambda: injector.invoke(messages))
    finally:
        proc.send_signal(signal.SIGCONT)
    assert done, "the injector hung on a stopped server"
    assert not isinstance(value, BaseException), value
    assert [m.content for m in value] == ["Be brief.", "tea?"]  # the prompt goes on without memory


def test_connecting_to_a_stopped_server_raises_a_timeout_naming_it(stoppable_server) -> None:
    host, port, proc = stoppable_server
    proc.send_signal(signal.SIGSTOP)
    try:
        done, value = _finishes(lambda: ChromaStore.http(host=host, port=port, timeout=1.0, lazy=False))
        assert done, "connecting hung on a stopped server"
        assert isinstance(value, StoreTimedOut), value
        assert f"{host}:{port}" in str(value) and "did not answer" in str(value)
        # By default the store is built all the same, and its first call meets the same bounded timeout.
        done, lazy = _finishes(lambda: ChromaStore.http(host=host, port=port, timeout=1.0))
        assert done and isinstance(lazy, ChromaStore) and not lazy.connected
        done, value = _finishes(lambda: lazy.count("u"))
        assert done and isinstance(value, StoreTimedOut), value
    finally:
        proc.send_signal(signal.SIGCONT)
    # Once it answers again, connecting works.
    store = ChromaStore.http(host=host, port=port, collection=f"t_{uuid.uuid4().hex}", timeout=5.0)
    assert store.count("u") == 0


def test_http_timeout_is_validated() -> None:
    with pytest.raises(ValueError, match="timeout must be a positive number"):
        ChromaStore.http(port=1, timeout=0)
    with pytest.raises(ValueError, match="timeout must be a positive number"):
        ChromaStore.http(port=1, timeout=float("nan"))


def test_the_cli_reports_a_stopped_server_as_a_clean_error_naming_it_and_the_time_limit(
    stoppable_server, capsys
) -> None:
    from memori_core.cli import main

    host, port, proc = stoppable_server
    server = ["--server", f"{host}:{port}", "--timeout", "1"]
    ungated_engine(store=ChromaStore.http(host=host, port=port)).add("alice", ["User lives in Lisbon."])
    assert main(["count", "-e", "alice", *server]) == 0 and capsys.readouterr().out == "1\n"
    proc.send_signal(signal.SIGSTOP)
    try:
        for command in (["count", "-e", "alice"], ["list", "-e", "alice"], ["add", "-e", "alice", "User likes tea."]):
            done, code = _finishes(lambda: main([*command, *server]))
            assert done, f"memori {command[0]} hung on a stopped server"
            captured = capsys.readouterr()
            assert code == 2 and captured.out == "", (command, code, captured)
            assert captured.err == (f"memori: error: the Chroma server at http://{host}:{port} did not answer "
                                    "within 1 s (is it stopped or overloaded?); --timeout SECONDS sets the limit\n")
    finally:
        proc.send_signal(signal.SIGCONT)


def test_the_cli_reports_a_reply_that_comes_too_late_as_a_clean_error(stoppable_server, capsys) -> None:
    """Connected, then one request's reply is held back (a ReadTimeout, not a connect timeout)."""
    from _proxy import DelayProxy
    from memori_core.cli import main

    host, port, _ = stoppable_server
    with DelayProxy(host, port) as proxy:
        server = ["--server", f"127.0.0.1:{proxy.port}", "--timeout", "1"]
        ungated_engine(store=ChromaStore.http(host=host, port=port)).add("alice", ["User lives in Lisbon."])
        assert main(["count", "-e", "alice", *server]) == 0 and capsys.readouterr().out == "1\n"
        proxy.delay_replies(5, after=b"/get")
        code = main(["list", "-e", "alice", *server])
        assert proxy.armed.is_set()  # the connect was answered; a later request's reply was held back
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err == (f"memori: error: the Chroma server at http://127.0.0.1:{proxy.port} did not answer "
                            "within 1 s (is it stopped or overloaded?); --timeout SECONDS sets the limit\n")
