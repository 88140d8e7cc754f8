"""Helpers shared by the tests: deterministic embedders, engines and fixture factories, store checks, a real
`chroma run` server.

- embedders: :class:`HashEmbedder` (the engine tests'), :class:`WordHashEmbedder` (the evaluation tests'),
  :class:`TextVectorEmbedder` (their base: an embedder of one function of a text);
- engines: :func:`ungated_engine` (every gate off; :func:`ungated_on_each_store`, over Chroma and the reference
  store), :func:`shared_engine` / :func:`shared_fixture` /
  :func:`seeded_fixtures` (a seeded engine shared by a module's read-only tests, and one per test), :func:`stored`;
- stores: :class:`CountingStore`, :func:`store_rows` / :func:`assert_same_rows` / :func:`copy_rows` /
  :func:`left_unchanged`; :func:`running_chroma_server`, :func:`free_port`; :func:`write_json`, :func:`edited`;
- time: :class:`Clock` (a breaker's clock the test moves by hand), :func:`wait_until`;
- tables written once: :func:`written_out_elsewhere` (where a word table is written out again in the packages);
- evaluation: :func:`run_eval` (``memori eval`` in this process, with its JSON), :func:`report_fixture` (one
  evaluation per module, a copy per test), :data:`USER_FACTS` (facts a re-ranker is checked on).

Store faults are in ``_faults.py``, BM25 references in ``_bm25.py``, fact extractors in ``_extractors.py``,
rule-based capture into an engine and its facts read back in ``_capture.py``.
Import them from here (``from _helpers import HashEmbedder``); ``conftest.py`` holds the fixtures and
re-exports a few of these names for older imports.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import http.server
import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import numpy as np
import pytest

from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.failopen import OutageBreaker
from memori_core.store import InMemoryFactStore
from memori_core.text import unicode_tokenize

__all__ = [
    "USER_FACTS", "CountingStore", "EvalRun", "HashEmbedder", "TextVectorEmbedder", "WordHashEmbedder",
    "assert_same_rows", "copy_rows", "edited", "free_port", "left_unchanged", "report_fixture", "run_eval",
    "running_chroma_server", "seeded_fixtures", "shared_engine", "shared_fixture", "store_rows", "stored",
    "ungated_engine", "ungated_on_each_store", "write_json",
    "_chroma_cli",
]


class TextVectorEmbedder:
    """A test embedder made of one function of a text, :meth:`_vec`: the embedder protocol's two methods over it,
    and ``calls``, how many times either was called."""

    calls = 0

    def _vec(self, text: str) -> np.ndarray:
        raise NotImplementedError

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        self.calls += 1
        return np.stack([self._vec(t) for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        self.calls += 1
        return self._vec(text)


class HashEmbedder(TextVectorEmbedder):
    """Bag-of-words embedder by feature hashing: deterministic, instant, no model.

    Texts sharing words get similar vectors, which is all the engine tests
    need; the tests that need real semantics use the local MiniLM.
    """

    name = "hash-embedder"

    def __init__(self, dim: int = 64) -> None:
        self.dim = dim
        self.calls = 0

    def _vec(self, text: str) -> np.ndarray:
        v = np.zeros(self.dim, dtype=np.float32)
        v[0] = 0.05  # never all-zero, even for text without words
        for tok in unicode_tokenize(text):
            h = int.from_bytes(hashlib.blake2b(tok.encode(), digest_size=8).digest(), "little")
            v[h % self.dim] += 1.0 if (h >> 32) & 1 else -1.0
        return v


class Clock:
    """A clock the test moves by hand (``now``, or :meth:`advance`), for a breaker's ``clock=``: no wall clock."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class WordHashEmbedder(TextVectorEmbedder):
    """Signed feature hashing of lower-cased words into ``dim`` (4096) dimensions: deterministic, instant.
    Texts sharing no word are (all but) orthogonal; a text and itself have cosine 1 (the evaluation tests')."""

    name = "word-hash"

    def __init__(self, dim: int = 4096) -> None:
        self.dim = dim

    def _vec(self, text: str) -> np.ndarray:
        v = np.zeros(self.dim, dtype=np.float32)
        v[0] = 1e-3  # never all-zero
        for word in re.findall(r"\w+", text.lower()):
            h = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "little")
            v[1 + h % (self.dim - 1)] += 1.0 if (h >> 40) & 1 else -1.0
        return v


class CountingStore(ChromaStore):
    """A real ChromaStore (embedded, in-memory or ``.http``) that counts its whole-entity loads from Chroma in
    ``loads`` (a load from the entity's snapshot file is not one)."""

    loads = 0

    def load_entity(self, entity_id: str) -> Any:  # type: ignore[override]
        self.loads += 1
        return super().load_entity(entity_id)


USER_FACTS: tuple[str, ...] = (
    "User is allergic to peanuts.",
    "User prefers spicy food.",
    "User's sister is allergic to cats.",
    "User cooks Thai curry on Fridays.",
    "User lives in Lisbon near the river.",
    "User drinks green tea in the morning.",
    "User plays tennis on Sundays.",
)
"""One user's facts, for the tests that check a re-ranker against the engine's own ranking of them."""


def benchmark_script(stem: str) -> ModuleType:
    """``benchmarks/<stem>.py`` loaded as a module (benchmarks/ is no package), for the tests of a study script;
    registered in ``sys.modules`` while it runs, so its dataclasses resolve their annotations."""
    path = Path(__file__).resolve().parents[1] / "benchmarks" / f"{stem}.py"
    spec = importlib.util.spec_from_file_location(stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def edited(make: Callable[[], Any], change: Callable[[Any], Any]) -> Any:
    """``make()`` (a test file's data) after ``change`` edited it in place: the data of a file with one thing wrong,
    e.g. ``edited(synthetic_users, lambda d: d[0].pop("user"))``."""
    data = make()
    change(data)
    return data


def write_json(path: Path, data: Any) -> Path:
    """Write ``data`` to ``path`` as JSON (a str as it is, for files that are not JSON) and return the path."""
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


@dataclass
class EvalRun:
    """What one ``memori eval`` run printed (``out``, ``err``) and wrote to its ``--json`` file (``result``)."""

    out: str
    err: str
    result: dict[str, Any]


def run_eval(capsys: pytest.CaptureFixture[str], json_path: Path, *args: str | Path) -> EvalRun:
    """``memori eval ARGS... --json JSON_PATH`` in this process; the test fails (showing standard error) unless it
    exits 0."""
    from memori_core.cli import main

    code = main(["eval", *map(str, args), "--json", str(json_path)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return EvalRun(captured.out, captured.err, json.loads(json_path.read_text(encoding="utf-8")))


def report_fixture(file_name: str, data: Callable[[], Any], load: Callable[[Path], Any]) -> Any:
    """A fixture giving each test its own deep copy of one evaluation report: ``data()`` written as ``file_name``,
    read back with the task's ``load`` and evaluated with :class:`WordHashEmbedder` at limit 5, the first time a
    test of the module asks for it. ``result = report_fixture("memory_tiny.json", synthetic_pools, load_memory)``."""
    made: list[dict[str, Any]] = []

    @pytest.fixture
    def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
        if not made:
            from memori_core.evaluation import evaluate

            path = write_json(tmp_path_factory.mktemp("report") / file_name, data())
            made.append(evaluate(load(path), embedder=WordHashEmbedder(), limit=5))
        return copy.deepcopy(made[0])

    return report


_PACKAGES = ("memori_core", "memori_langchain", "memori_llamaindex")
_ROOT = Path(__file__).resolve().parent.parent


def written_out_elsewhere(pattern: re.Pattern[str], home: str) -> list[str]:
    """``path:line`` of every match of ``pattern`` (a table, or an alternation of it, written out) in the packages'
    modules other than the table's ``home`` module file name: what a test of a table kept in one place expects empty."""
    return [f"{path.relative_to(_ROOT)}:{text[: m.start()].count(chr(10)) + 1}"
            for package in _PACKAGES
            for path in sorted((_ROOT / package).rglob("*.py")) if path.name != home
            for text in [path.read_text(encoding="utf-8")] for m in pattern.finditer(text)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _chroma_cli() -> list[str]:
    exe = shutil.which("chroma", path=str(Path(sys.executable).parent)) or shutil.which("chroma")
    if exe is None:
        pytest.fail("the `chroma` command of chromadb is not installed")
    return [exe]


@contextlib.contextmanager
def running_chroma_server(data: Path, port: int | None = None) -> Iterator[tuple[str, int, subprocess.Popen]]:
    """A real `chroma run` over ``data/db`` on ``port`` (default: a free loopback port): (host, port, process),
    stopped on exit. Pass the port of a killed server to restart it where its clients look."""
    import httpx

    port = port or free_port()
    log = open(data / "server.log", "wb")
    env = dict(os.environ, ANONYMIZED_TELEMETRY="False")
    proc = subprocess.Popen(
        [*_chroma_cli(), "run", "--path", str(data / "db"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(f"chroma run exited with {proc.returncode}: {(data / 'server.log').read_text()[-2000:]}")
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=5).raise_for_status()
                break  # (one request, its connection closed: a test's count of open connections starts clean)
            except Exception:
                if time.monotonic() > deadline:
                    pytest.fail("chroma run did not answer within 60 s")
                time.sleep(0.2)
        yield "127.0.0.1", port, proc
    finally:
        if proc.poll() is None:
            if hasattr(signal, "SIGCONT"):
                proc.send_signal(signal.SIGCONT)  # a test may have stopped it
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()


def child_env() -> dict[str, str]:
    """The environment a second Python process of a test runs in: this one's, with this process's import path (the
    tree, the tests folder, the installed packages) as its ``PYTHONPATH``."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}


def write_script(folder: Path, name: str, source: str, **values: object) -> Path:
    """``source`` formatted with the tests folder (``{tests}``) and ``values``, dedented, written to ``folder/name``:
    a script for :func:`child_env`'s second process."""
    script = folder / name
    script.write_text(textwrap.dedent(source.format(tests=str(Path(__file__).parent), **values)))
    return script


def outage_engine(host: str, port: int, collection: str, cool_down: float, clock: Clock) -> Any:
    """:func:`ungated_engine` over ``collection`` of the test server at ``host:port`` (requests bounded to 1 s), its
    outage breaker's cool-down ``cool_down`` seconds on ``clock``, which the test moves."""
    engine = ungated_engine(HashEmbedder(), store=ChromaStore.http(host=host, port=port, collection=collection,
                                                                    timeout=1.0))
    engine.outage = OutageBreaker(cool_down, clock=clock)
    return engine


def store_rows(store: Any) -> dict[str, Any]:
    """Every row a ChromaStore holds (facts and revision records), to check that a fixture shared by
    several tests was left as built: compare with :func:`assert_same_rows` at the fixture's teardown."""
    out: dict[str, Any] = {}
    for name in ("_facts", "_revisions"):
        page = getattr(store, name).get(include=["embeddings", "documents", "metadatas"])
        order = sorted(range(len(page["ids"])), key=lambda k: page["ids"][k])
        embeddings = np.asarray(page["embeddings"], dtype=np.float32)
        out[name] = {
            "ids": [page["ids"][k] for k in order],
            "documents": [page["documents"][k] for k in order],
            "metadatas": [page["metadatas"][k] for k in order],
            "embeddings": embeddings[order] if order else np.zeros((0, 0), dtype=np.float32),
        }
    return out


def assert_same_rows(now: dict[str, Any], then: dict[str, Any], what: str = "store") -> None:
    """``now`` holds the rows of ``then`` (embeddings to float32 rounding: Chroma may hand back a cosine
    collection's vectors renormalised, so a copied vector can differ from its source in the last bit)."""
    for name in ("_facts", "_revisions"):
        a, b = now[name], then[name]
        assert a["ids"] == b["ids"], f"{what}: rows added or removed in {name}"
        assert a["documents"] == b["documents"], f"{what}: texts changed in {name}"
        assert a["metadatas"] == b["metadatas"], f"{what}: metadata changed in {name}"
        assert a["embeddings"].shape == b["embeddings"].shape, f"{what}: embeddings changed in {name}"
        assert np.allclose(a["embeddings"], b["embeddings"], rtol=0, atol=1e-6), f"{what}: embeddings changed in {name}"


def copy_rows(rows: dict[str, Any], store: Any) -> None:
    """Write ``rows`` (from :func:`store_rows`) into an empty ChromaStore: a cheap copy of a built store."""
    for name in ("_facts", "_revisions"):
        r = rows[name]
        if r["ids"]:
            getattr(store, name).upsert(ids=r["ids"], embeddings=r["embeddings"], documents=r["documents"],
                                        metadatas=r["metadatas"])
    assert_same_rows(store_rows(store), rows, "copied store")


@contextlib.contextmanager
def left_unchanged(shared: Any, what: str) -> Iterator[Any]:
    """For a module-scoped engine (or store) that tests only read: yields it, then checks its store still
    holds exactly the rows it held before (a test that wrote to a shared fixture fails at its teardown)."""
    store = getattr(shared, "store", shared)
    built = store_rows(store)
    yield shared
    assert_same_rows(store_rows(store), built, what)


def shared_engine(seed: Any, what: str, config: Any = None) -> Iterator[Any]:
    """For a module-scoped fixture: an engine over a new in-memory store (hashing embedder, ``config``; default:
    the shipped config) holding what ``seed(engine)`` wrote; yields it, then checks that no test changed its store."""
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder(),
                          config=config if config is not None else RecallConfig())
    with left_unchanged(seed(engine), what) as shared:
        yield shared


def engine_among(entity: str, others: list[str], facts: tuple[str, ...], config: RecallConfig | None = None) -> Any:
    """An engine (reference in-memory store, :class:`HashEmbedder`, ``config``) where ``entity`` holds ``facts``
    after ``others``: unrelated facts that make a pool of the size a real memory gives the gate to read."""
    engine = RecallEngine(store=InMemoryFactStore(), embedder=HashEmbedder(), config=config)
    engine.add(entity, [*others, *facts])
    return engine


def ungated_engine(embedder: Any = None, *, store: Any = None, **config: Any) -> Any:
    """An engine with every gate off (``RecallConfig(gate="off", **config)``): it recalls everything
    it holds, best first; for tests of what can be recalled at all, or of plumbing, with the hashing embedder,
    whose cosines mean nothing to the relevance gate. Over ``store`` (default: a new in-memory Chroma store) with
    ``embedder`` (default: a new :class:`HashEmbedder`)."""
    return RecallEngine(store=store if store is not None else ChromaStore.in_memory(),
                        embedder=embedder if embedder is not None else HashEmbedder(),
                        config=RecallConfig(gate="off", **config))


def tools_told(embedder: Any, *facts: str, entity_id: str = "u") -> tuple[Any, str]:
    """:class:`~memori_core.memory_tools.MemoryTools` over a new :func:`ungated_engine` with ``embedder`` that has
    remembered ``facts`` for ``entity_id`` one after the other, and what its last ``remember`` said."""
    from memori_core.memory_tools import MemoryTools

    tools = MemoryTools(ungated_engine(embedder))
    said = ""
    for fact in facts:
        said = tools.remember(entity_id, fact)
    return tools, said


def ungated_on_each_store() -> Any:
    """A fixture: :func:`ungated_engine` over an in-memory Chroma store, then over the reference store
    (``InMemoryFactStore``), for the tests of what both stores must do alike. pytest names it by the module
    attribute that holds it: ``eng = ungated_on_each_store()``."""

    @pytest.fixture(params=["chroma", "reference"])
    def on_each(request: pytest.FixtureRequest) -> Any:
        return ungated_engine(store=ChromaStore.in_memory() if request.param == "chroma" else InMemoryFactStore())

    return on_each


def stored(engine: Any, entity_id: str, limit: int = 100) -> list[str]:
    """The texts of the entity's facts, sorted (as an ungated engine's explain lists them)."""
    return sorted(c.content for c in engine.explain("user", entity_id, limit=limit).candidates)


def shared_fixture(seed: Any, config: Any = None) -> Any:
    """A module-scoped fixture: the engine of :func:`shared_engine` holding what ``seed(engine)`` wrote, shared by
    the module's tests that only read it and checked unchanged at teardown (``config``: default the shipped one).
    pytest names it by the module attribute that holds it: ``seeded = shared_fixture(seed)``."""

    @pytest.fixture(scope="module")
    def shared() -> Iterator[Any]:
        yield from shared_engine(seed, "the shared seeded engine", config)

    return shared


def seeded_fixtures(seed: Any, config: Any = None) -> tuple[Any, Any]:
    """The fixture pair of a module whose tests read what ``seed(engine)`` wrote (``config``: both engines'; default:
    the shipped config): :func:`shared_fixture` for the tests that only read it, and a new engine per test (over
    the ``hash_embedder`` fixture) for the tests that write to, patch or break it, or count its embedder's calls
    (take ``hash_embedder`` beside it). pytest names a fixture by the module attribute that holds it:
    ``seeded, fresh_seeded = seeded_fixtures(seed)``, ``filled, fresh_filled = seeded_fixtures(fill, config)``."""

    @pytest.fixture
    def fresh(hash_embedder: HashEmbedder) -> Any:
        return seed(RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder,
                                 config=config if config is not None else RecallConfig()))

    return shared_fixture(seed, config), fresh


class QuietHandler(http.server.BaseHTTPRequestHandler):
    """An HTTP request handler that writes no access log (the test's output stays its own)."""

    def log_message(self, *args: Any) -> None:
        pass


class LoopbackServer:
    """A real HTTP server on a free loopback port (:attr:`port`) serving ``handler`` from a daemon thread until
    :meth:`close` (polling often: ``shutdown`` waits for the serving loop to look up, 0.5 s by default)."""

    def __init__(self, handler: type[http.server.BaseHTTPRequestHandler]) -> None:
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = int(self._server.server_address[1])
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop serving, close the socket and wait for the serving thread."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


Answer = tuple[int, str, bytes]
"""The proxy's own answer to a request: its status, content type and body."""
_Proxy = TypeVar("_Proxy", bound="ForwardingProxy")


class ForwardingProxy:
    """A loopback HTTP proxy to ``upstream`` (a real server, e.g. `chroma run`): each request is forwarded, answered
    by the proxy itself, or forwarded with its reply lost (the connection closed without an answer), as
    :meth:`decide` says for its path; it answers as nginx does (``Server: nginx``)."""

    def __init__(self, upstream: str) -> None:
        import httpx

        client = httpx.Client(timeout=10)
        owner = self

        class Handler(QuietHandler):
            protocol_version = "HTTP/1.1"
            server_version, sys_version = "nginx", ""  # the Server header send_response writes

            def _forward(self) -> None:
                size = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(size) if size else None
                action = owner.decide(self.path)
                if isinstance(action, tuple):
                    status, kind, text = action
                    self._send(status, {"Content-Type": kind}, text)
                    return
                reply = client.request(self.command, upstream + self.path, content=body, headers={
                    k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")})
                if action == "lose_reply":  # the server made the change; its answer never comes back
                    owner.reply_lost()
                    self.close_connection = True
                    return
                kept = {k: v for k, v in reply.headers.items()
                        if k.lower() not in ("content-length", "transfer-encoding", "connection", "content-encoding",
                                             "server", "date")}
                self._send(reply.status_code, kept, reply.content)

            def _send(self, status: int, headers: dict[str, str], body: bytes) -> None:
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = do_PUT = do_DELETE = _forward

        self.server = LoopbackServer(Handler)
        self.port = self.server.port
        self._client = client

    @classmethod
    def to(cls: type[_Proxy], server: tuple[str, int]) -> _Proxy:
        """A proxy of this class to the server at ``server``, ``(host, port)`` as the ``chroma_server`` fixture
        gives it; a context manager that closes it."""
        host, port = server
        return cls(f"http://{host}:{port}")

    def __enter__(self: _Proxy) -> _Proxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def decide(self, path: str) -> str | Answer:
        """``"forward"``, ``"lose_reply"`` or the proxy's own :data:`Answer` for a request to ``path``."""
        return "forward"

    def reply_lost(self) -> None:
        """Called when a forwarded request's reply is dropped, before its connection is closed."""

    def close(self) -> None:
        self.server.close()
        self._client.close()


@contextlib.contextmanager
def unwritable_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder this process cannot write to: ``/proc/1`` when it runs as root (root writes anywhere but in /proc),
    else a folder under ``tmp_path`` made read-only, writable again afterwards; the test is skipped where there is
    neither."""
    if os.name == "posix" and os.geteuid() == 0:
        proc = Path("/proc/1")
        if not proc.is_dir() or os.access(proc, os.W_OK):
            pytest.skip("running as root without a read-only folder to test with")
        yield proc
        return
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o500)
    if os.access(folder, os.W_OK):
        pytest.skip("this platform ignores folder permissions")
    try:
        yield folder
    finally:
        folder.chmod(0o700)


def wait_until(predicate: Callable[[], bool], at_most: float = 10.0) -> bool:
    """Whether ``predicate()`` became true within ``at_most`` seconds (polled): for work left running in the
    background, whose end a test cannot join. Only the outcome is asserted, never the time it took."""
    end = time.monotonic() + at_most
    while not predicate():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True
