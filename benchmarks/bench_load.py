"""Load on one shared Chroma server: many worker processes, each with its own engine, for a bounded time.

```bash
python benchmarks/bench_load.py                  # 1,000 users x 100-1,000 facts, 8 workers, 60 s (make bench-load)
python benchmarks/bench_load.py --quick          # 100 users x 100-300 facts, 4 workers, 15 s
python benchmarks/bench_load.py --users 200 --workers 4 --seconds 30 --json load.json
python benchmarks/bench_load.py --server 127.0.0.1:8000   # an already running `chroma run` (a new collection)
```

What runs:

1. a real ``chroma run`` server on a free loopback port over a temporary folder (or ``--server``);
2. seeding: ``--users`` users with ``--facts-min``..``--facts-max`` facts each (uniform), written with
   ``RecallEngine.import_`` and precomputed vectors by ``--seeders`` processes;
3. ``--workers`` processes, each with its own :class:`~memori_core.RecallEngine` over
   ``ChromaStore.http`` (shared mode, the engine's default cache bounds), for ``--warmup`` + ``--seconds``:
   each operation picks a user with a Zipf skew (the same hot users in every worker) and is a recall
   (share ``--recall-share``) or an add of one fact;
4. the checks: every acknowledged add is read back from the store by id at the end (lost writes), and
   every recall of a user another worker wrote to is followed by a *check* (below) for those writes
   (stale reads).

The embedder is :class:`HashWords`, a bag of random word vectors (``--dim``, 384 like all-MiniLM-L6-v2,
in every process): no model runs, so the numbers are the engine's and Chroma's, not the model's (the
local MiniLM takes about 5 ms per query, benchmarks/README.md).

**Stale reads.** Each added fact carries a unique marker (its id, a word of its text and its metadata
``{"marker": ...}``). A writer announces ``(user, marker, time acknowledged)`` to every other worker as
soon as its ``add`` has returned. A worker that then recalls that user follows the recall with a check:
``recall(markers, user, where={"marker": {"$in": markers}})`` on an engine whose gate is off. The
``where=`` filter is applied to the worker's in-process copy of the user, after the same freshness check
every recall makes (the revision read), so the check returns a marker exactly when the copy the worker
serves recalls from holds that fact. A check that started more than ``--stale-bound`` seconds after the
write was acknowledged (the clock is ``time.monotonic``, one clock for every process of the machine) and
does not return the marker is a stale read beyond the bound. docs/stores.md promises that a recall sees
every write that finished before it started, so the default bound is 0.

**Cache.** The store each worker's engine reads is wrapped at this level (no engine change): its
``load_entity`` (a user's rows read from the server) and ``revision`` (the freshness check) are counted.
A recall that loads no rows is a hit. A load is *cold* (this worker never loaded the user), *after a
write* (this worker loaded the user before at another revision: another worker's write changed it, or is in
flight, since the revision read carries the intents of writes in flight) or *at the same revision* (the
copy was evicted by the cache's bounds, or was read but not kept while another worker's write was in
flight). A copy evicted and reloaded after a write counts as after a write, so reloads per write is an
upper bound.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import math
import multiprocessing as mp
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from _common import OBJECTS, PEOPLE, QUALIFIERS, VERBS, rss_mb

OPS = ("recall", "add", "check")
_WORD = re.compile(r"\w+")


# --------------------------------------------------------------------------
# Settings


@dataclass(frozen=True)
class LoadSettings:
    """One load run. ``shared=False`` opens the workers' stores as if no other process wrote to them (they
    then trust the revision they read first): only to show that the stale-read check catches a cache that
    is never re-validated (tests/test_load_invariants.py)."""

    users: int = 1000
    facts_min: int = 100
    facts_max: int = 1000
    workers: int = 8
    seconds: float = 60.0
    warmup: float = 10.0
    prewarm: int = 128
    recall_share: float = 0.9
    follow_share: float = 0.0
    zipf: float = 1.1
    dim: int = 384
    limit: int = 5
    timeout: float = 4.0
    stale_bound: float = 0.0
    seeders: int = 2
    seed: int = 23
    blas_threads: int | None = 1
    collection: str = "bench_load"
    shared: bool = True
    run_id: str = ""

    def __post_init__(self) -> None:
        def need(ok: bool, name: str, what: str) -> None:
            if not ok:
                raise ValueError(f"{name} must be {what}, got {getattr(self, name)!r}")

        for name in ("users", "facts_min", "facts_max", "workers", "dim", "limit", "seeders"):
            value = getattr(self, name)
            need(isinstance(value, int) and not isinstance(value, bool) and value >= 1, name, "an int >= 1")
        need(isinstance(self.prewarm, int) and not isinstance(self.prewarm, bool) and self.prewarm >= 0, "prewarm",
             "an int >= 0")
        need(self.facts_max >= self.facts_min, "facts_max", f">= facts_min ({self.facts_min})")
        for name in ("seconds", "timeout"):
            value = getattr(self, name)
            need(isinstance(value, (int, float)) and math.isfinite(value) and value > 0, name, "a number > 0")
        for name in ("warmup", "stale_bound"):
            value = getattr(self, name)
            need(isinstance(value, (int, float)) and math.isfinite(value) and value >= 0, name, "a number >= 0")
        need(0.0 <= self.recall_share <= 1.0, "recall_share", "between 0 and 1")
        need(0.0 <= self.follow_share <= 1.0, "follow_share", "between 0 and 1")
        need(isinstance(self.zipf, (int, float)) and self.zipf >= 0, "zipf", "a number >= 0")
        need(self.blas_threads is None or (isinstance(self.blas_threads, int) and self.blas_threads >= 1),
             "blas_threads", "an int >= 1 or None")


# --------------------------------------------------------------------------
# The embedder and the texts


class HashWords:
    """Bag of random word vectors: each lower-cased word maps (by blake2b, the same in every process) to one of
    8,192 fixed random vectors, and a text's vector is their sum. Texts sharing words are near each other;
    no model runs."""

    name = "hash-words"
    _ROWS = 8192

    def __init__(self, dim: int = 384) -> None:
        self.dim = dim
        self._table = np.random.default_rng(0).standard_normal((self._ROWS, dim)).astype(np.float32)
        self._rows: dict[str, int] = {}

    def _row(self, word: str) -> int:
        row = self._rows.get(word)
        if row is None:
            row = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "little") % self._ROWS
            self._rows[word] = row
        return row

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """One vector per text (a sum of rows of the table, computed with one ``np.add.reduceat``)."""
        rows: list[int] = []
        starts: list[int] = []
        for text in texts:
            starts.append(len(rows))
            rows.extend(self._row(w) for w in _WORD.findall(text.lower()))
            rows.append(0)  # never an empty text: row 0 is a constant part of every vector
        return np.add.reduceat(self._table[np.asarray(rows)], np.asarray(starts), axis=0)

    def embed_query(self, text: str) -> np.ndarray:
        """The vector of one text."""
        return self.embed_documents([text])[0]


def fact_texts(rng: np.random.Generator, n: int) -> list[str]:
    """``n`` sentences about a user from the benchmark vocabulary (``_common``), e.g. "User's sister plays
    chess on weekends." (they may repeat: facts are stored by id)."""
    p = rng.integers(0, len(PEOPLE), n)
    v = rng.integers(0, len(VERBS), n)
    o = rng.integers(0, len(OBJECTS), n)
    q = rng.integers(0, len(QUALIFIERS), n)
    return [f"{PEOPLE[a]} {VERBS[b]} {OBJECTS[c]} {QUALIFIERS[d]}." for a, b, c, d in zip(p, v, o, q)]


def query_text(rng: np.random.Generator) -> str:
    """A short question in the benchmark vocabulary."""
    obj = OBJECTS[int(rng.integers(len(OBJECTS)))]
    qual = QUALIFIERS[int(rng.integers(len(QUALIFIERS)))]
    return (f"{obj}", f"what about {obj} {qual}?", f"does anyone {VERBS[int(rng.integers(len(VERBS)))]} {obj}")[
        int(rng.integers(3))]


def user_ids(n: int) -> list[str]:
    """The users' entity ids."""
    return [f"user-{i:05d}" for i in range(n)]


def facts_per_user(settings: LoadSettings) -> np.ndarray:
    """How many facts each user is seeded with (uniform in facts_min..facts_max, fixed by the seed)."""
    rng = np.random.default_rng(settings.seed)
    return rng.integers(settings.facts_min, settings.facts_max + 1, settings.users)


def zipf_cdf(settings: LoadSettings) -> tuple[np.ndarray, np.ndarray]:
    """The users in order of popularity (a permutation fixed by the seed, so hotness is not size) and the
    cumulative Zipf probabilities of ranks 1..users (exponent ``zipf``)."""
    rng = np.random.default_rng(settings.seed + 1)
    order = rng.permutation(settings.users)
    weights = np.arange(1, settings.users + 1, dtype=np.float64) ** -float(settings.zipf)
    cdf = np.cumsum(weights / weights.sum())
    cdf[-1] = 1.0
    return order, cdf


# --------------------------------------------------------------------------
# Server and seeding


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def chroma_server(folder: Path, start_timeout: float = 60.0) -> Iterator[tuple[str, int]]:
    """A ``chroma run`` over ``folder/db`` on a free loopback port (its log in ``folder/server.log``),
    stopped on exit."""
    import chromadb

    exe = shutil.which("chroma", path=str(Path(sys.executable).parent)) or shutil.which("chroma")
    if exe is None:
        raise RuntimeError("the `chroma` command of chromadb is not installed")
    port = free_port()
    log_path = folder / "server.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [exe, "run", "--path", str(folder / "db"), "--host", "127.0.0.1", "--port", str(port)],
            stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, ANONYMIZED_TELEMETRY="False"),
        )
        try:
            deadline = time.monotonic() + start_timeout
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"chroma run exited with {proc.returncode}: {log_path.read_text()[-2000:]}")
                try:
                    chromadb.HttpClient(host="127.0.0.1", port=port).heartbeat()
                    break
                except Exception:  # noqa: BLE001 - not up yet
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"chroma run did not answer within {start_timeout:.0f} s") from None
                    time.sleep(0.2)
            yield "127.0.0.1", port
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=15)


def _engine(host: str, port: int, settings: LoadSettings, *, timeout: float, max_cached: int = 256) -> Any:
    """An engine over the run's collection (the gate off, the :class:`HashWords` embedder)."""
    from memori_core import ChromaStore, RecallConfig, RecallEngine

    store = ChromaStore.http(host=host, port=port, collection=settings.collection, timeout=timeout)
    return RecallEngine(store=store, embedder=HashWords(settings.dim), config=RecallConfig(gate="off"),
                        max_cached_entities=max_cached)


def _seed_users(engine: Any, settings: LoadSettings, which: Sequence[int], report: Any = None) -> int:
    """Import the facts of the users numbered ``which`` (each user's facts fixed by the seed); returns rows.
    ``report(rows)`` is called after every 25 users."""
    sizes = facts_per_user(settings)
    users = user_ids(settings.users)
    rows = 0
    for n, i in enumerate(which, 1):
        texts = fact_texts(np.random.default_rng(settings.seed + 1000 + i), int(sizes[i]))
        vectors = engine.embedder.embed_documents(texts)
        records = [{"id": f"f{j:04d}", "text": t, "vector": vectors[j], "session_id": f"s{j // 20}"}
                   for j, t in enumerate(texts)]
        engine.import_(users[i], records)
        rows += len(records)
        if report is not None and n % 25 == 0:
            report(rows)
    return rows


def _seeder(host: str, port: int, settings: LoadSettings, part: int, out: Any) -> None:
    """Seeder process ``part``: imports the users ``i >= 1`` with ``i % seeders == part``."""
    try:
        engine = _engine(host, port, settings, timeout=max(60.0, settings.timeout), max_cached=1)
        rows = _seed_users(engine, settings, range(part or settings.seeders, settings.users, settings.seeders),
                           lambda n: out.put(("progress", part, n, None)))
        out.put(("seeded", part, rows, None))
    except BaseException:  # noqa: BLE001 - reported to the parent
        out.put(("seeded", part, 0, traceback.format_exc()))


def seed(host: str, port: int, settings: LoadSettings, ctx: Any) -> dict[str, Any]:
    """Write every user's facts (``--seeders`` processes in parallel); returns rows and seconds.

    The first user is written alone, before the others: on a new collection, Chroma 1.5 can fail a read
    made while another process's first write creates the collection's segments ("Error creating hnsw segment
    reader: Nothing found on disk", chroma-core/chroma#4212), and ``import_``'s dimension check is such a read.
    """
    t0 = time.perf_counter()
    rows = _seed_users(_engine(host, port, settings, timeout=max(60.0, settings.timeout), max_cached=1),
                       settings, [0])
    out = ctx.Queue()
    procs = [ctx.Process(target=_seeder, args=(host, port, settings, p, out), daemon=True)
             for p in range(min(settings.seeders, settings.users - 1))]
    for p in procs:
        p.start()
    try:
        deadline = time.monotonic() + _seed_budget(settings)
        done: dict[int, int] = {}
        progress: dict[int, int] = {}
        shown = 0.0
        total = int(facts_per_user(settings).sum())
        while len(done) < len(procs):
            kind, part, n, err = _receive(out, procs, deadline, "seeder")
            if err:
                raise RuntimeError(f"seeder {part} failed:\n{err}")
            (done if kind == "seeded" else progress)[part] = n
            so_far = rows + sum({**progress, **done}.values())
            if so_far / total >= shown + 0.1:
                shown = so_far / total
                print(f"seeded {so_far:,} of {total:,} facts in {time.perf_counter() - t0:.0f} s",
                      file=sys.stderr, flush=True)
        rows += sum(done.values())
    finally:
        for p in procs:
            p.join(timeout=10)
            if p.is_alive():
                p.kill()
    return {"rows": rows, "seconds": time.perf_counter() - t0}


def _receive(out: Any, procs: Sequence[Any], deadline: float, what: str) -> Any:
    """The next message from the child processes, polling so that one that died without a word (killed, or
    failed before it could report) ends the wait at once instead of at the deadline."""
    while True:
        try:
            return out.get(timeout=0.5)
        except queue.Empty:
            pass
        dead = [i for i, p in enumerate(procs) if p.exitcode not in (None, 0)]
        if dead:
            raise RuntimeError(f"{what} process {dead[0]} died with exit code {procs[dead[0]].exitcode}")
        if time.monotonic() > deadline:
            raise TimeoutError(f"no word from the {what} processes in time")


def _seed_budget(settings: LoadSettings) -> float:
    """How long seeding may take before the run is given up (generous: 2 ms per row, at least 5 minutes)."""
    return max(300.0, 0.002 * settings.users * (settings.facts_min + settings.facts_max) / 2)


# --------------------------------------------------------------------------
# Workers


class _Counted:
    """Counts a worker's loads and classifies them (module docstring, "Cache"), by wrapping the store's
    ``revision`` and ``load_entity`` on the instance."""

    def __init__(self, store: Any) -> None:
        self.loads = 0
        self.kinds = {"cold": 0, "after_write": 0, "same_revision": 0}
        self._seen_rev: dict[str, Any] = {}
        self._loaded_at: dict[str, Any] = {}
        revision, load = store.revision, store.load_entity

        def counted_revision(entity_id: str) -> Any:
            rev = revision(entity_id)
            self._seen_rev[entity_id] = rev
            return rev

        def counted_load(entity_id: str) -> Any:
            rev = self._seen_rev.get(entity_id)
            if entity_id not in self._loaded_at:
                self.kinds["cold"] += 1
            elif self._loaded_at[entity_id] != rev:
                self.kinds["after_write"] += 1
            else:
                self.kinds["same_revision"] += 1
            self._loaded_at[entity_id] = rev
            self.loads += 1
            return load(entity_id)

        store.revision = counted_revision
        store.load_entity = counted_load


def _blas_pools() -> list[dict[str, Any]]:
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return []
    return [{k: p.get(k) for k in ("internal_api", "version", "num_threads", "architecture")} | {
        "owner": Path(str(p.get("filepath") or "")).parent.name} for p in threadpool_info()]


def _worker(idx: int, host: str, port: int, settings: LoadSettings, inboxes: list[Any], out: Any,
            go: Any, start_at: Any) -> None:
    """One app worker: its own engine over the server; runs the mix until the deadline, then reports."""
    limiter: Any = contextlib.nullcontext()
    if settings.blas_threads is not None:
        with contextlib.suppress(ImportError):
            import faiss  # noqa: F401 - load FAISS's pools so that the limit reaches them too
            from threadpoolctl import threadpool_limits

            limiter = threadpool_limits(limits=settings.blas_threads)
    try:
        with limiter:
            worker = _Worker(idx, host, port, settings, inboxes)
            worker.prewarm()  # untimed, before the run starts
            out.put(("ready", idx, None))
            if not go.wait(timeout=600):
                raise RuntimeError("the run was never started")
            out.put(("done", idx, worker.run(start_at.value)))
    except BaseException:  # noqa: BLE001 - reported to the parent
        out.put(("failed", idx, traceback.format_exc()))


class _Worker:
    """The state of one worker process: its engine, its share of the mix, what it measured and checked."""

    def __init__(self, idx: int, host: str, port: int, settings: LoadSettings, inboxes: list[Any]) -> None:
        self.idx, self.settings = idx, settings
        self.engine = _engine(host, port, settings, timeout=settings.timeout)
        if not settings.shared:
            self.engine.store.shared = False  # the harness's own test: a cache that trusts its first revision read
        self.counted = _Counted(self.engine.store)
        self.users = user_ids(settings.users)
        self.order, self.cdf = zipf_cdf(settings)
        self.rng = np.random.default_rng(settings.seed + 7919 * (idx + 1))
        self.inbox = inboxes[idx]
        self.others = [q for i, q in enumerate(inboxes) if i != idx]
        self.measuring = False
        self.ops = dict.fromkeys(OPS, 0)  # in the measured window only, like every latency
        self.lat: dict[str, list[float]] = {op: [] for op in OPS}
        self.hit_lat: list[float] = []
        self.miss_lat: list[float] = []
        self.pending: dict[str, dict[str, float]] = {}  # user -> marker -> when another worker's add was acked
        self.announced: list[str] = []  # users of the announcements received since the last operation
        self.acked: list[tuple[str, str]] = []
        self.failed_adds: list[tuple[str, str]] = []
        self.stale: list[dict[str, Any]] = []
        self.within_bound = self.checks = self.checked_markers = self.n_added = 0
        self.ack_to_check: list[float] = []  # seconds from a write's acknowledgement to the check that saw it
        self.errors: dict[str, int] = {}
        self.error_samples: list[str] = []

    def prewarm(self) -> None:
        """Recall each of the ``prewarm`` most popular users once (at least the first), as a worker that has
        been serving for a while would have them cached; untimed, and its loads are not counted in the run."""
        for rank in range(max(1, min(self.settings.prewarm, self.settings.users))):
            try:
                self.engine.recall("warm up", self.users[int(self.order[rank])], self.settings.limit)
            except Exception as exc:  # noqa: BLE001 - counted (its own kind); the run goes on
                self._failed("prewarm", exc)

    def run(self, t_start: float) -> dict[str, Any]:
        """The mix from ``t_start`` (monotonic) for the warm-up and the measured time; returns the results."""
        s = self.settings
        t_measure = t_start + s.warmup
        t_end = t_measure + s.seconds
        while time.monotonic() < t_start:
            time.sleep(0.001)
        loads0: tuple[int, dict[str, int]] | None = None
        while (now := time.monotonic()) < t_end:
            self.measuring = now >= t_measure
            if self.measuring and loads0 is None:
                loads0 = self.counted.loads, dict(self.counted.kinds)
            self._drain()
            if self.announced and self.rng.random() < s.follow_share:
                user = self.announced[-1]  # the user's next turn, right after another worker stored the last one's
                recall = True
            else:
                user = self.users[int(self.order[int(np.searchsorted(self.cdf, self.rng.random(), side="right"))])]
                recall = self.rng.random() < s.recall_share
            self.announced.clear()
            if recall:
                if self._recall(user) and self.pending.get(user):
                    self._check(user)
            else:
                self._add(user)
        if loads0 is None:
            loads0 = self.counted.loads, dict(self.counted.kinds)
        return self._results(*loads0)

    def _drain(self) -> None:
        while True:
            try:
                user, marker, t_ack = self.inbox.get_nowait()
            except queue.Empty:
                return
            self.pending.setdefault(user, {})[marker] = t_ack
            self.announced.append(user)

    def _failed(self, op: str, exc: BaseException) -> None:
        key = f"{op}: {type(exc).__name__}"
        self.errors[key] = self.errors.get(key, 0) + 1
        if len(self.error_samples) < 5:
            self.error_samples.append(f"{key}: {str(exc)[:300]}")

    def _timed(self, op: str, dt: float) -> None:
        if self.measuring:
            self.ops[op] += 1
            self.lat[op].append(dt)

    def _recall(self, user: str) -> bool:
        before = self.counted.loads
        t0 = time.monotonic()
        try:
            self.engine.recall(query_text(self.rng), user, self.settings.limit)
        except Exception as exc:  # noqa: BLE001 - counted; the run goes on
            self._failed("recall", exc)
            return False
        dt = time.monotonic() - t0
        self._timed("recall", dt)
        if self.measuring:
            (self.hit_lat if self.counted.loads == before else self.miss_lat).append(dt)
        return True

    def _check(self, user: str) -> None:
        """Recall the markers of other workers' acknowledged adds to ``user`` (module docstring, "Stale reads")."""
        waiting = self.pending[user]
        markers = sorted(waiting, key=waiting.__getitem__)[-50:]  # the newest 50 (a check's limit)
        t0 = time.monotonic()
        try:
            got = self.engine.recall(" ".join(markers), user, len(markers), where={"marker": {"$in": markers}})
        except Exception as exc:  # noqa: BLE001
            self._failed("check", exc)
            return
        self._timed("check", time.monotonic() - t0)
        self.checks += 1
        self.checked_markers += len(markers)
        seen = {f.id for f in got}
        for marker in markers:
            t_ack = waiting[marker]
            if marker in seen:
                self.ack_to_check.append(t0 - t_ack)
                del waiting[marker]
            elif t0 > t_ack + self.settings.stale_bound:
                self.stale.append({"worker": self.idx, "user": user, "marker": marker, "late_by": t0 - t_ack})
            else:
                self.within_bound += 1

    def _add(self, user: str) -> None:
        marker = f"mk{self.settings.run_id}w{self.idx}x{self.n_added:06d}"
        self.n_added += 1
        text = f"{fact_texts(self.rng, 1)[0][:-1]}, note {marker}."
        t0 = time.monotonic()
        try:
            self.engine.add(user, [text], ids=[marker], metadata={"marker": marker})
        except Exception as exc:  # noqa: BLE001 - not acknowledged: may or may not be stored
            self._failed("add", exc)
            self.failed_adds.append((user, marker))
            return
        t_ack = time.monotonic()
        self.acked.append((user, marker))
        for q in self.others:
            q.put((user, marker, t_ack))
        self._timed("add", t_ack - t0)

    def _results(self, loads0: int, kinds0: dict[str, int]) -> dict[str, Any]:
        as_array = lambda v: np.asarray(v, dtype=np.float64)  # noqa: E731
        return {
            "ops": self.ops,
            "latency_s": {op: as_array(v) for op, v in self.lat.items()},
            "hit_latency_s": as_array(self.hit_lat),
            "miss_latency_s": as_array(self.miss_lat),
            "recalls": len(self.hit_lat) + len(self.miss_lat),
            "hits": len(self.hit_lat),
            "loads": self.counted.loads - loads0,
            "load_kinds": {k: v - kinds0.get(k, 0) for k, v in self.counted.kinds.items()},
            "acked": self.acked,
            "failed_adds": self.failed_adds,
            "stale": self.stale,
            "within_bound": self.within_bound,
            "checks": self.checks,
            "checked_markers": self.checked_markers,
            "ack_to_check_s": as_array(self.ack_to_check),
            "never_checked": sum(len(v) for v in self.pending.values()),
            "errors": self.errors,
            "error_samples": self.error_samples,
            "rss_mb": rss_mb(),
            "cached_entities": _cached_entities(self.engine),
            "blas": _blas_pools() if self.idx == 0 else [],
        }


def _cached_entities(engine: Any) -> int | None:
    # The registry's size, for the report only (not a public attribute; None if it moved).
    try:
        return len(engine._coord.caches)
    except AttributeError:
        return None


# --------------------------------------------------------------------------
# A run


def run_load(host: str, port: int, settings: LoadSettings, *, do_seed: bool = True) -> dict[str, Any]:
    """Seed (unless ``do_seed`` is False), run the workers, then check every acknowledged add by id.

    Returns the merged report (see :func:`format_report`); never raises for an error inside a worker's
    operation (they are counted in ``errors``), only for a worker process that failed or did not report.
    """
    ctx = mp.get_context("spawn")
    if not settings.run_id:  # markers unique to the run, also over a collection an earlier run wrote to
        settings = replace(settings, run_id=uuid.uuid4().hex[:6])
    report: dict[str, Any] = {"settings": asdict(settings)}
    if do_seed:
        report["seed"] = seed(host, port, settings, ctx)
    else:
        report["first_read_s"] = first_read(host, port, settings)
    inboxes = [ctx.Queue() for _ in range(settings.workers)]
    out = ctx.Queue()
    go = ctx.Event()
    start_at = ctx.Value("d", 0.0)
    procs = [ctx.Process(target=_worker, args=(i, host, port, settings, inboxes, out, go, start_at), daemon=True)
             for i in range(settings.workers)]
    for p in procs:
        p.start()
    try:
        results = _collect(procs, out, go, start_at, settings)
    finally:
        for p in procs:
            if p.is_alive():
                p.kill()
        for q in inboxes:  # unread announcements (none are needed after the run)
            q.cancel_join_thread()
    report.update(merge(results, settings))
    report["lost"] = lost_writes(host, port, settings, [a for r in results for a in r["acked"]])
    return report


def _collect(procs: list[Any], out: Any, go: Any, start_at: Any, settings: LoadSettings) -> list[dict[str, Any]]:
    ready = 0
    deadline = time.monotonic() + 300 + 2.0 * settings.prewarm * settings.workers
    while ready < len(procs):
        kind, idx, payload = _receive(out, procs, deadline, "worker")
        if kind == "failed":
            raise RuntimeError(f"worker {idx} failed while starting:\n{payload}")
        ready += 1
    start_at.value = time.monotonic() + 0.2
    go.set()
    results: dict[int, dict[str, Any]] = {}
    budget = settings.warmup + settings.seconds + 20 * settings.timeout + 120
    deadline = time.monotonic() + budget
    while len(results) < len(procs):
        kind, idx, payload = _receive(out, procs, deadline, "worker")
        if kind == "failed":
            raise RuntimeError(f"worker {idx} failed:\n{payload}")
        results[idx] = payload
    for p in procs:
        p.join(timeout=30)
    return [results[i] for i in sorted(results)]


def first_read(host: str, port: int, settings: LoadSettings) -> float:
    """Seconds of one whole-user load (a filtered read, then its rows) through a new store object, with a long time
    limit: a server just started over a large folder answers its first filtered read slowly (it loads its indexes),
    which would otherwise fall on the workers' first recalls."""
    from memori_core import ChromaStore

    store = ChromaStore.http(host=host, port=port, collection=settings.collection, timeout=max(120.0, settings.timeout))
    t0 = time.perf_counter()
    store.load_entity(user_ids(settings.users)[0])
    return time.perf_counter() - t0


def lost_writes(host: str, port: int, settings: LoadSettings, acked: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """Every acknowledged add, read back from the store by id (a new store object: nothing cached)."""
    from memori_core import ChromaStore

    store = ChromaStore.http(host=host, port=port, collection=settings.collection, timeout=max(30.0, settings.timeout))
    by_user: dict[str, list[str]] = {}
    for user, marker in acked:
        by_user.setdefault(user, []).append(marker)
    missing: list[tuple[str, str]] = []
    for user, ids in by_user.items():
        found = {f.id for f in store.get(user, ids)}
        missing.extend((user, i) for i in ids if i not in found)
    return {"acked": len(acked), "missing": len(missing), "missing_sample": missing[:10]}


def _pct(a: np.ndarray, q: float) -> float:
    return float(np.percentile(a, q) * 1e3) if a.size else float("nan")


def merge(results: list[dict[str, Any]], settings: LoadSettings) -> dict[str, Any]:
    """The workers' results as one report."""
    lat = {op: np.concatenate([r["latency_s"][op] for r in results]) for op in OPS}
    ops = {op: sum(r["ops"][op] for r in results) for op in OPS}
    kinds = {k: sum(r["load_kinds"][k] for r in results) for k in results[0]["load_kinds"]}
    errors: dict[str, int] = {}
    for r in results:
        for k, v in r["errors"].items():
            errors[k] = errors.get(k, 0) + v
    hits = sum(r["hits"] for r in results)
    recalls = sum(r["recalls"] for r in results)
    adds_measured = ops["add"]
    ack = np.concatenate([r["ack_to_check_s"] for r in results])
    hit_lat = np.concatenate([r["hit_latency_s"] for r in results])
    miss_lat = np.concatenate([r["miss_latency_s"] for r in results])
    stale = [s for r in results for s in r["stale"]]
    return {
        "per_op": {op: {"count": ops[op], "per_s": ops[op] / settings.seconds, "p50_ms": _pct(lat[op], 50),
                        "p95_ms": _pct(lat[op], 95), "p99_ms": _pct(lat[op], 99),
                        "max_ms": float(lat[op].max() * 1e3) if lat[op].size else float("nan")} for op in OPS},
        "throughput_per_s": (ops["recall"] + ops["add"]) / settings.seconds,
        "recall_hit": {"p50_ms": _pct(hit_lat, 50), "p95_ms": _pct(hit_lat, 95), "p99_ms": _pct(hit_lat, 99)},
        "recall_miss": {"p50_ms": _pct(miss_lat, 50), "p95_ms": _pct(miss_lat, 95), "p99_ms": _pct(miss_lat, 99)},
        "hit_rate": hits / recalls if recalls else float("nan"),
        "loads": sum(r["loads"] for r in results),
        "load_kinds": kinds,
        "reloads_per_write": kinds["after_write"] / adds_measured if adds_measured else float("nan"),
        "acked_adds_total": sum(len(r["acked"]) for r in results),
        "failed_adds": sum(len(r["failed_adds"]) for r in results),
        "checks": sum(r["checks"] for r in results),
        "checked_markers": sum(r["checked_markers"] for r in results),
        "writes_seen_by_a_check": int(ack.size),
        "ack_to_check_ms": {"p50": _pct(ack, 50), "min": float(ack.min() * 1e3) if ack.size else float("nan")},
        "stale_beyond_bound": len(stale),
        "stale_writes": len({(x["user"], x["marker"]) for x in stale}),
        "stale_sample": stale[:10],
        "within_bound_misses": sum(r["within_bound"] for r in results),
        "never_checked": sum(r["never_checked"] for r in results),
        "errors": errors,
        "error_samples": [s for r in results for s in r["error_samples"]][:10],
        "rss_mb": [round(r["rss_mb"], 1) for r in results],
        "cached_entities": [r["cached_entities"] for r in results],
        "worker_blas": next((r["blas"] for r in results if r["blas"]), []),
    }


# --------------------------------------------------------------------------
# Report


def _ms(x: float) -> str:
    return "-" if x != x else (f"{x:,.0f}" if x >= 100 else f"{x:.1f}" if x >= 10 else f"{x:.2f}")


def format_report(report: dict[str, Any], machine: dict[str, Any] | None, command: str) -> str:
    """The run as markdown: machine and settings, a table per operation, the cache and the invariants."""
    s = report["settings"]
    lines = [f"Command: `{command}`", ""]
    if machine is not None:
        lines.append(f"- machine: {machine['processor']}, {machine['logical_cores']} logical cores "
                     f"({machine['usable_cores']} usable), Python {machine['python']}, chromadb {machine['chromadb']}, "
                     f"numpy {machine['numpy']}; load average at the start {machine['load_average_at_start']}, "
                     f"at the end {report.get('load_average_at_end', '?')}")
    pools = report.get("worker_blas") or []
    blas = "; ".join(f"{p.get('owner')}: {p.get('internal_api')} {p.get('version') or ''} threads={p.get('num_threads')} "
                     f"arch={p.get('architecture')}" for p in pools) or "? (threadpoolctl not installed)"
    lines.append(f"- BLAS in a worker (threadpoolctl; pinned to {s['blas_threads']} thread(s)): {blas}")
    seeded = report.get("seed")
    if report.get("reused"):
        seeded_txt = f"seeded by an earlier run in {report['reused']}, with that run's adds"
    elif seeded:
        seeded_txt = (f"seeded {seeded['rows']:,} facts in {seeded['seconds']:.0f} s "
                      f"({seeded['rows'] / max(seeded['seconds'], 1e-9):,.0f} facts/s, {s['seeders']} seeder "
                      "processes, RecallEngine.import_ with precomputed vectors)")
    else:
        seeded_txt = "not seeded by this run"
    if "first_read_s" in report:
        seeded_txt += (f"; the server's first whole-user read after it started, alone: {report['first_read_s']:.1f} s "
                       "(before the workers start)")
    lines.append(f"- {s['users']:,} users x {s['facts_min']}-{s['facts_max']} facts ({seeded_txt}); "
                 f"{s['workers']} worker processes, each its own RecallEngine over ChromaStore.http "
                 f"(timeout {s['timeout']} s, 256 cached users / 1 GiB per engine); one `chroma run` on loopback")
    lines.append(f"- each worker first recalls the {s['prewarm']} most popular users (untimed), then "
                 f"{s['warmup']:.0f} s warm-up, then {s['seconds']:.0f} s measured; {s['recall_share']:.0%} recall / "
                 f"{1 - s['recall_share']:.0%} add; users drawn with Zipf exponent {s['zipf']} (same hot users in "
                 f"every worker); recall limit {s['limit']}, gate off; HashWords embedder, {s['dim']}-d (no model)"
                 + (f"; after another worker's add, the next operation recalls that user with chance "
                    f"{s['follow_share']:.0%}" if s.get("follow_share") else ""))
    lines += ["", "| operation | count | per s | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) |",
              "|---|---:|---:|---:|---:|---:|---:|"]
    names = {"recall": "recall", "add": "add (one fact)", "check": "check (a recall with `where=`, after a "
             "recall of a user others wrote to)"}
    for op in OPS:
        r = report["per_op"][op]
        lines.append(f"| {names[op]} | {r['count']:,} | {r['per_s']:,.1f} | {_ms(r['p50_ms'])} | {_ms(r['p95_ms'])} "
                     f"| {_ms(r['p99_ms'])} | {_ms(r['max_ms'])} |")
    hit, miss = report["recall_hit"], report["recall_miss"]
    lines.append(f"| recall, copy fresh (hit) | | | {_ms(hit['p50_ms'])} | {_ms(hit['p95_ms'])} | {_ms(hit['p99_ms'])} | |")
    lines.append(f"| recall that loaded the user | | | {_ms(miss['p50_ms'])} | {_ms(miss['p95_ms'])} "
                 f"| {_ms(miss['p99_ms'])} | |")
    k = report["load_kinds"]
    lost = report["lost"]
    rss = report["rss_mb"]
    lines += [
        "",
        f"- throughput: {report['throughput_per_s']:,.0f} operations/s (recalls and adds; checks not counted)",
        f"- cache: hit rate {report['hit_rate']:.1%} of recalls; {report['loads']:,} loads "
        f"({k['cold']:,} cold, {k['after_write']:,} after another write, {k['same_revision']:,} at the same "
        "revision: evicted, or not kept during another worker's write); "
        f"reloads per write {report['reloads_per_write']:.2f} (of {s['workers'] - 1} other workers)",
        f"- worker RSS at the end: median {float(np.median(rss)):.0f} MB, max {max(rss):.0f} MB; "
        f"users cached per worker: {report['cached_entities']}",
        f"- **lost writes: {lost['missing']}** of {lost['acked']:,} acknowledged adds (read back by id); "
        f"{report['failed_adds']} adds raised",
        f"- **stale reads beyond the bound ({s['stale_bound']} s): {report['stale_beyond_bound']}** "
        f"(on {report['stale_writes']} distinct writes); "
        f"{report['checks']:,} checks of {report['checked_markers']:,} writes of other workers; "
        f"{report['writes_seen_by_a_check']:,} writes seen, median {_ms(report['ack_to_check_ms']['p50'])} ms "
        f"from acknowledgement to the check (min {_ms(report['ack_to_check_ms']['min'])} ms); "
        f"misses within the bound: {report['within_bound_misses']}; "
        f"(write, other worker) pairs never checked (that worker did not recall the user again): "
        f"{report['never_checked']:,}",
        f"- errors: {report['errors'] or 'none'}",
    ]
    return "\n".join(lines)


# --------------------------------------------------------------------------
# Command line


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line (``--help``)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    d = LoadSettings()
    ap.add_argument("--users", type=int, default=d.users)
    ap.add_argument("--facts-min", type=int, default=d.facts_min)
    ap.add_argument("--facts-max", type=int, default=d.facts_max)
    ap.add_argument("--workers", type=int, default=d.workers)
    ap.add_argument("--seconds", type=float, default=d.seconds, help="measured time")
    ap.add_argument("--warmup", type=float, default=d.warmup, help="untimed time before it")
    ap.add_argument("--prewarm", type=int, default=d.prewarm,
                    help="each worker first recalls this many of the most popular users, untimed")
    ap.add_argument("--recall-share", type=float, default=d.recall_share)
    ap.add_argument("--follow-share", type=float, default=d.follow_share,
                    help="chance that a worker's next operation recalls the user another worker just wrote to "
                    "(then checked at once)")
    ap.add_argument("--zipf", type=float, default=d.zipf, help="exponent of the users' popularity")
    ap.add_argument("--dim", type=int, default=d.dim, help="embedding dimension")
    ap.add_argument("--timeout", type=float, default=d.timeout, help="ChromaStore.http(timeout=...) of the workers")
    ap.add_argument("--stale-bound", type=float, default=d.stale_bound, help="seconds a write may take to be seen")
    ap.add_argument("--seeders", type=int, default=d.seeders)
    ap.add_argument("--seed", type=int, default=d.seed)
    ap.add_argument("--blas-threads", type=int, default=d.blas_threads, help="BLAS threads per worker (0: as configured)")
    ap.add_argument("--quick", action="store_true", help="100 users x 100-300 facts, 4 workers, 15 s (+5 s warm-up)")
    ap.add_argument("--server", help="HOST:PORT of a running `chroma run` (default: start one on loopback)")
    ap.add_argument("--data", type=Path, help="keep the started server's folder here; a later run with the same "
                    "users, facts, dim and seed reuses its facts instead of seeding again")
    ap.add_argument("--json", type=Path, help="write the report as JSON")
    return ap.parse_args(argv)


def settings_from(args: argparse.Namespace) -> LoadSettings:
    """The run's settings (``--quick`` replaces the size and duration given)."""
    s = LoadSettings(users=args.users, facts_min=args.facts_min, facts_max=args.facts_max, workers=args.workers,
                     seconds=args.seconds, warmup=args.warmup, prewarm=args.prewarm, recall_share=args.recall_share,
                     follow_share=args.follow_share, zipf=args.zipf,
                     dim=args.dim, timeout=args.timeout, stale_bound=args.stale_bound, seeders=args.seeders,
                     seed=args.seed, blas_threads=args.blas_threads or None,
                     collection=f"bench_load_{uuid.uuid4().hex[:8]}")
    if args.quick:
        s = replace(s, users=100, facts_min=100, facts_max=300, workers=4, seconds=15.0, warmup=5.0, prewarm=32)
    return s


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; print the markdown report (progress on stderr)."""
    from _common import loadavg, machine_info, progress

    args = parse_args(argv)
    settings = settings_from(args)
    command = "python benchmarks/bench_load.py " + " ".join(sys.argv[1:] if argv is None else argv)
    machine = machine_info()
    seeded_file: Path | None = None
    reuse = False
    with contextlib.ExitStack() as stack:
        if args.server:
            host, _, port_s = args.server.rpartition(":")
            host, port = host or "127.0.0.1", int(port_s)
        else:
            if args.data:
                folder = args.data
                folder.mkdir(parents=True, exist_ok=True)
                seeded_file = folder / "seeded.json"
                earlier = json.loads(seeded_file.read_text()) if seeded_file.exists() else {}
                if earlier.get("key") == _seed_key(settings):
                    settings, reuse = replace(settings, collection=earlier["collection"]), True
            else:
                folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-load-")))
            host, port = stack.enter_context(chroma_server(folder))
        progress(f"server {host}:{port}; " + (f"reusing the facts seeded in {args.data}" if reuse else
                 f"seeding {settings.users} users x {settings.facts_min}-{settings.facts_max} facts"))
        t0 = time.perf_counter()
        report = run_load(host, port, settings, do_seed=not reuse)
        report["wall_s"] = time.perf_counter() - t0
        if reuse:
            report["reused"] = str(args.data)
        elif seeded_file is not None:
            seeded_file.write_text(json.dumps({"key": _seed_key(settings), "collection": settings.collection,
                                               "seed": report["seed"]}))
    report["load_average_at_end"] = loadavg()
    text = format_report(report, machine, command.strip())
    print(text)
    if args.json:
        args.json.write_text(json.dumps({"machine": machine, "report": report}, indent=1, default=_jsonable))
    lost, stale = report["lost"]["missing"], report["stale_beyond_bound"]
    return 0 if lost == 0 and stale == 0 else 1


def _seed_key(settings: LoadSettings) -> dict[str, Any]:
    return {k: getattr(settings, k) for k in ("users", "facts_min", "facts_max", "dim", "seed")}


def _jsonable(x: Any) -> Any:
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, (np.integer, np.floating)):
        return x.item()
    return str(x)


if __name__ == "__main__":
    sys.exit(main())
