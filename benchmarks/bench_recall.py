"""Warm recall latency of memori-recall against a numpy floor and upstream Memori.

For each size (1,000 / 10,000 / 100,000 facts of ONE entity) the benchmark
generates short fact sentences from a vocabulary, gives them precomputed
384-d embeddings (sums of random per-word-slot vectors plus noise, so that
related facts are near each other), stores them in a fresh embedded Chroma
store through ``RecallEngine.add`` and then times, on the same rows and the
same queries:

1. ``numpy floor``: ``M @ q`` on the L2-normalised float32 matrix plus
   ``np.argpartition`` top-50: what any exact method has to pay;
2. ``RecallEngine.recall`` with ``RecallConfig()`` (the default);
3. ``RecallEngine.recall`` with ``RecallConfig.memori_compat()``;
4. upstream ``memori.search.search_facts`` (memori 3.3.6) over an in-memory
   driver, once with ``embeddings_limit`` = all rows (the same rows as 1-2)
   and once with its default ``embeddings_limit=1000`` (the rows of 3).

The embedding model is bypassed: queries pass ``query_vector=`` and the
embedder used by ``add`` looks precomputed vectors up. The first recall of
each engine (which loads the entity from Chroma into the in-process cache) is
reported separately as the cold load.

Cold start in a new process (disk stores): after the warm timings the store is
closed and three fresh processes open its folder and recall once, then
``--cold-recalls`` times: from Chroma with snapshots off, from Chroma writing
the entity's snapshot, and from that snapshot. Each reports the store open
time, the first recall (store open excluded), the RSS growth from before the
store was opened (chromadb's import and open included) to after its warm
recalls, and its warm median next to the numpy floor over the same matrix.

    python benchmarks/bench_recall.py               # 1k, 10k, 100k
    python benchmarks/bench_recall.py --quick       # 1k, 10k
    python benchmarks/bench_recall.py --sizes 10000 --json results.json
    python benchmarks/bench_recall.py --sizes 10000,100000 --blas-threads 1 --stores ~/bench-stores  # keep/reuse stores
"""

from __future__ import annotations

import argparse
import gc
import inspect
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (  # noqa: E402 - shared with bench_peers.py
    DIM,
    ENTITY,
    FLOOR_K,
    INSERT_BATCH,
    Corpus,
    Stats,
    add_corpus,
    blas_summary,
    fact_embedder,
    kept_store_insert_s,
    kept_store_path,
    machine_info,
    machine_line,
    make_corpus,
    mark_store_kept,
    run_round_robin,
    size_list,
    timed_recalls,
)
from _common import add_size_args, add_timing_args, bench_parser  # noqa: E402 - the command line
from _common import loadavg as _loadavg  # noqa: E402
from _common import progress as _progress  # noqa: E402
from _common import rss_mb as _rss_mb  # noqa: E402
from _common import snapshot_files  # noqa: E402
from _memori_upstream import InMemoryFactDriver, load_memori_search  # noqa: E402

from memori_core import ChromaStore, RecallConfig, RecallEngine  # noqa: E402

FLOOR = "numpy floor"
DEFAULT = "default"
COMPAT = "memori_compat"
MEMORI_ALL = "memori (all rows)"
MEMORI_1000 = "memori (limit 1000)"
METHODS = (FLOOR, DEFAULT, COMPAT, MEMORI_ALL, MEMORI_1000)
SLOW_METHODS = (MEMORI_ALL, MEMORI_1000)

# --------------------------------------------------------------------------
# Timing


@dataclass
class SizeResult:
    """Everything measured at one size."""

    facts: int
    insert_s: float
    cold_default_ms: float
    cold_compat_ms: float
    chroma_load_entity_ms: float
    methods: dict[str, Stats] = field(default_factory=dict)
    compat_agrees_with_memori_1000: str = ""
    default_results_per_query: float = 0.0
    memory: dict[str, int] = field(default_factory=dict)
    cold: dict[str, dict[str, Any]] = field(default_factory=dict)  # mode -> what its fresh process measured


# --------------------------------------------------------------------------
# One size


def _make_store(kind: str, root: Path, n: int, seed: int) -> ChromaStore:
    if kind == "memory":
        return ChromaStore.in_memory()
    # No snapshots in this process: its cold loads are from Chroma; the cold processes use them.
    return ChromaStore(path=kept_store_path(root, n, seed), snapshots=False)


# --------------------------------------------------------------------------
# Cold start in a fresh process

COLD_MODES = ("chroma", "write", "snapshot")


def cold_child(args: argparse.Namespace) -> int:
    """One fresh process: open the store, first recall, warm recalls; prints one JSON line."""
    data = np.load(args.cold_queries, allow_pickle=False)
    texts, qvecs = [str(t) for t in data["texts"]], data["vectors"]
    mode = args.cold_mode
    gc.collect()
    rss0 = _rss_mb()
    t = time.perf_counter()
    # (Older memori-recall versions, e.g. for a before/after comparison, have no snapshots to turn off.)
    off = {"snapshots": False} if mode == "chroma" and "snapshots" in inspect.signature(ChromaStore).parameters else {}
    store = ChromaStore(path=args.cold_child, **off)
    open_s = time.perf_counter() - t
    rss_open = _rss_mb()
    engine = RecallEngine(store=store, embedder=lambda texts: None, config=RecallConfig())
    if mode == "write":
        files = snapshot_files(store)  # a kept store may hold one from an earlier run: load from Chroma
        if files is not None:
            files.invalidate(ENTITY)
    t = time.perf_counter()
    first = engine.recall(texts[0], ENTITY, limit=5, query_vector=qvecs[0])
    first_s = time.perf_counter() - t
    files = snapshot_files(store)
    out: dict[str, Any] = {
        "mode": mode, "open_s": open_s, "first_recall_s": first_s, "first_ids": [f.id for f in first],
        "from_snapshot": bool(files is not None and files.loaded),
    }
    gc.collect()
    out["rss_after_first_mb"] = _rss_mb() - rss0
    ns = timed_recalls(engine, texts, qvecs)
    gc.collect()
    out["rss_after_warm_mb"] = _rss_mb() - rss0
    out["rss_store_open_mb"] = rss_open - rss0
    out["warm"] = asdict(Stats.of(ns)) if ns else None
    if mode == "write":
        t = time.perf_counter()
        files.wait()  # type: ignore[union-attr]
        out["snapshot_wait_s"] = time.perf_counter() - t
        out["snapshots_written"] = files.written  # type: ignore[union-attr]
    # The floor over this process's own matrix (after the RSS readings: it copies the matrix).
    cache = engine._cache_for(ENTITY)
    matrix = np.ascontiguousarray(cache.matrix)
    q = np.ascontiguousarray(qvecs / np.linalg.norm(qvecs, axis=1, keepdims=True), dtype=np.float32)
    n, k = matrix.shape[0], min(FLOOR_K, matrix.shape[0])
    floor_ns = []
    for i in range(1, len(texts)):
        t0 = time.perf_counter_ns()
        np.argpartition(matrix @ q[i], n - k)[n - k :]
        floor_ns.append(time.perf_counter_ns() - t0)
    out["floor"] = asdict(Stats.of(floor_ns)) if floor_ns else None
    out["cache_memory_mb"] = {k2: round(v / 2**20, 1) for k2, v in cache.memory_report().items()}
    t = time.perf_counter()
    store.close()
    out["close_s"] = time.perf_counter() - t
    print(json.dumps(out))
    return 0


def _median_ms(stats: dict[str, Any] | None) -> str:
    """A timing's median in ms, or "-" when nothing was timed (``--cold-recalls 0``: the first recall alone)."""
    return "-" if stats is None else f"{stats['median_ms']:.3f}"


def cold_processes(folder: Path, corpus: Corpus, args: argparse.Namespace, root: Path) -> dict[str, dict[str, Any]]:
    """Run the cold modes, each in a fresh process, over the (closed) store at ``folder``."""
    m = min(len(corpus.queries), args.cold_recalls + 1)
    qfile = root / f"cold-queries-{folder.name}.npz"
    np.savez(qfile, texts=np.asarray(corpus.queries[:m]), vectors=corpus.query_vectors[:m])
    results: dict[str, dict[str, Any]] = {}
    for mode in COLD_MODES:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--cold-child", str(folder), "--cold-mode", mode,
               "--cold-queries", str(qfile)]
        if args.blas_threads is not None:
            cmd += ["--blas-threads", str(args.blas_threads)]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
        if done.returncode != 0:
            raise RuntimeError(f"cold process ({mode}) failed:\n{done.stderr[-4000:]}")
        results[mode] = json.loads(done.stdout.strip().splitlines()[-1])
        r = results[mode]
        _progress(f"  [cold {mode:>8}] first recall {r['first_recall_s']:.3f} s (open {r['open_s']:.2f} s), "
                  f"RSS +{r['rss_after_warm_mb']:.0f} MB, warm median {_median_ms(r['warm'])} ms "
                  f"(floor {_median_ms(r['floor'])} ms), from snapshot: {r['from_snapshot']}")
    return results


def bench_size(n: int, args: argparse.Namespace, root: Path, memori_search: Any, store_root: Path | None = None) -> SizeResult:
    """Build one store of ``n`` facts (in ``store_root``, default ``root``) and time every method on it."""
    corpus = make_corpus(n, args.queries, args.seed)
    vectors = corpus.vectors
    precomputed = fact_embedder(corpus)
    store = _make_store(args.store, store_root or root, n, args.seed)
    kept = kept_store_insert_s(Path(store.location), n) if args.store == "disk" and args.stores else None
    if kept is not None:
        insert_s = kept
        _progress(f"  [{n:>7,} facts] reusing the store in {store.location} (filled in {kept:.0f} s)")
    else:
        writer = RecallEngine(store=store, embedder=precomputed, config=RecallConfig())
        insert_s = add_corpus(writer, corpus, report=True)
        del writer
        if args.store == "disk":
            mark_store_kept(Path(store.location), n, insert_s)

    queries = corpus.queries
    qvecs = corpus.query_vectors
    qlists = [v.tolist() for v in qvecs]  # memori receives its embedder's list[float]

    default = RecallEngine(store=store, embedder=precomputed, config=RecallConfig())
    compat = RecallEngine(store=store, embedder=precomputed, config=RecallConfig.memori_compat())

    gc.collect()
    t = time.perf_counter_ns()
    default.recall(queries[0], ENTITY, limit=5, query_vector=qvecs[0])
    cold_default_ms = (time.perf_counter_ns() - t) / 1e6
    t = time.perf_counter_ns()
    compat.recall(queries[0], ENTITY, limit=5, query_vector=qvecs[0])
    cold_compat_ms = (time.perf_counter_ns() - t) / 1e6
    t = time.perf_counter_ns()
    rows = store.load_entity(ENTITY)
    chroma_load_ms = (time.perf_counter_ns() - t) / 1e6
    if len(rows) != n:
        raise RuntimeError(f"store returned {len(rows)} rows for {n} facts")
    del rows
    _progress(
        f"  [{n:>7,} facts] cold first recall: default {cold_default_ms:,.0f} ms, "
        f"memori_compat {cold_compat_ms:,.0f} ms (Chroma get alone {chroma_load_ms:,.0f} ms)"
    )

    # The floor's matrix: the same rows, L2-normalised float32, contiguous.
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    matrix = np.ascontiguousarray(vectors / norms, dtype=np.float32)
    qnorm = np.ascontiguousarray(qvecs / np.linalg.norm(qvecs, axis=1, keepdims=True), dtype=np.float32)
    k = min(FLOOR_K, n)

    # Memori's SQL order is most recent first; our rows were created oldest first.
    order = slice(None, None, -1)
    driver = InMemoryFactDriver(corpus.ids[order], corpus.texts[order], corpus.created[order], vectors[order])
    search_facts = memori_search.search_facts

    def floor(i: int) -> np.ndarray:
        scores = matrix @ qnorm[i]
        return np.argpartition(scores, n - k)[n - k :]

    def run_default(i: int) -> Any:
        return default.recall(queries[i], ENTITY, limit=5, query_vector=qvecs[i])

    def run_compat(i: int) -> Any:
        return compat.recall(queries[i], ENTITY, limit=5, query_vector=qvecs[i])

    def run_memori_all(i: int) -> Any:
        return search_facts(driver, entity_id=1, query_embedding=qlists[i], limit=5,
                            embeddings_limit=n, query_text=queries[i])

    def run_memori_1000(i: int) -> Any:
        return search_facts(driver, entity_id=1, query_embedding=qlists[i], limit=5,
                            embeddings_limit=1000, query_text=queries[i])

    methods: dict[str, Callable[[int], Any]] = {
        FLOOR: floor, DEFAULT: run_default, COMPAT: run_compat,
        MEMORI_ALL: run_memori_all, MEMORI_1000: run_memori_1000,
    }

    # Warm-up (not timed): caches, BLAS threads, FAISS, the tokenizers' first use.
    warm = min(args.warmup, len(queries))
    quotas: dict[str, int] = {}
    for name, fn in methods.items():
        reps = warm if name not in SLOW_METHODS else max(3, warm // 4)
        t = time.perf_counter_ns()
        for i in range(reps):
            fn(len(queries) - 1 - i)  # warm on the tail, time from the head
        per_call_s = (time.perf_counter_ns() - t) / 1e9 / reps
        quota = len(queries)
        if name in SLOW_METHODS:
            quota = int(min(len(queries), max(args.min_slow_queries, args.slow_budget / max(per_call_s, 1e-9))))
        quotas[name] = quota

    gc.collect()
    _progress(f"  [{n:>7,} facts] timing: " + ", ".join(f"{m} x{quotas[m]}" for m in methods))
    timings = run_round_robin(methods, quotas, args.chunk)
    result = SizeResult(
        facts=n,
        insert_s=insert_s,
        cold_default_ms=cold_default_ms,
        cold_compat_ms=cold_compat_ms,
        chroma_load_entity_ms=chroma_load_ms,
        methods={name: Stats.of(ns) for name, ns in timings.items()},
    )

    # Sanity, untimed: memori_compat scores memori's 1000 rows the same way, so its
    # results must be memori's (limit 1000) results that pass the 0.1 threshold.
    threshold = RecallConfig.memori_compat().relevance_threshold or 0.0
    checked = min(len(queries), 100)
    agree = 0
    returned = 0
    for i in range(checked):
        ours = [f.id for f in run_compat(i)]
        theirs = [r.id for r in run_memori_1000(i) if r.rank_score >= threshold]
        agree += ours == theirs
        returned += len(run_default(i))
    result.compat_agrees_with_memori_1000 = f"{agree}/{checked}"
    result.memory = default._cache_for(ENTITY).memory_report()
    result.default_results_per_query = returned / checked
    if args.store == "disk" and args.cold_recalls >= 0:
        folder = Path(store.location)
        store.close()  # frees the folder for the fresh processes
        result.cold = cold_processes(folder, corpus, args, root)
    return result


# --------------------------------------------------------------------------
# Report


def _cell(s: Stats | None) -> str:
    if s is None:
        return "-"
    return f"{s.median_ms:.3f} / {s.p95_ms:.3f} / {s.mean_ms:.3f}"


def _unsteady(s: Stats) -> bool:
    return s.p95_ms > 10 * s.median_ms or s.mean_ms > 3 * s.median_ms


def render(results: list[SizeResult], info: dict[str, Any], args: argparse.Namespace) -> str:
    """The markdown report printed at the end of the run."""
    lines: list[str] = []
    add = lines.append
    add("## memori-recall: warm recall latency")
    add("")
    add(f"- machine: {machine_line(info)}")
    add(f"- numpy {info['numpy']} BLAS: {blas_summary(info)}")
    add(f"- load average (1/5/15 min) at start: {info['load_average_at_start']}, at end: {_loadavg()} "
        f"(other processes share these cores; p95 is sensitive to them)")
    add(f"- OPENBLAS_CORETYPE={info['OPENBLAS_CORETYPE']!s} (this machine may set it; it pins OpenBLAS's kernel choice), "
        f"OPENBLAS_NUM_THREADS={info['OPENBLAS_NUM_THREADS']!s}, OMP_NUM_THREADS={info['OMP_NUM_THREADS']!s}, "
        f"--blas-threads={args.blas_threads if args.blas_threads is not None else 'unset'}")
    add(f"- chromadb {info['chromadb']} ({'temp-dir embedded ChromaStore(path=...)' if args.store == 'disk' else 'ChromaStore.in_memory()'}), "
        f"faiss {info['faiss']}, memori {info['memori']}")
    add(f"- one entity, {DIM}-d precomputed embeddings, limit=5, query_vector= passed (no embedding model in the loop); "
        f"{args.queries} generated queries, warm-up first, methods interleaved in chunks of {args.chunk}")
    add("")
    add("Warm recall, milliseconds: **median / p95 / mean** (n = timed queries)")
    add("")
    header = ["facts"] + [f"{m}" for m in METHODS]
    add("| " + " | ".join(header) + " |")
    add("|" + "---:|" * len(header))
    for r in results:
        add("| " + " | ".join([f"{r.facts:,}"] + [_cell(r.methods.get(m)) for m in METHODS]) + " |")
    add("")
    add("| facts | queries timed (floor/default/compat/memori all/memori 1000) | default / floor | "
        "memori (all rows) / default | memori (limit 1000) / memori_compat | cold first recall default / compat (ms) | "
        "of which Chroma get (ms) | insert (s) | compat == memori(1000)+threshold | facts returned (default) |")
    add("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        m = r.methods
        qs = "/".join(str(m[x].queries) for x in METHODS)
        add(
            f"| {r.facts:,} | {qs} | {m[DEFAULT].median_ms / m[FLOOR].median_ms:.2f}x | "
            f"{m[MEMORI_ALL].median_ms / m[DEFAULT].median_ms:.1f}x | "
            f"{m[MEMORI_1000].median_ms / m[COMPAT].median_ms:.1f}x | "
            f"{r.cold_default_ms:,.0f} / {r.cold_compat_ms:,.0f} | {r.chroma_load_entity_ms:,.0f} | {r.insert_s:.1f} | "
            f"{r.compat_agrees_with_memori_1000} | {r.default_results_per_query:.1f} |"
        )
    add("")
    add("- `numpy floor`: `M @ q` on the L2-normalised float32 matrix + `np.argpartition` top-50.")
    add("- `default`: `RecallConfig()` (scores all of the entity's rows); "
        "`memori_compat`: `RecallConfig.memori_compat()` (the 1000 most recent rows, Memori's tokenizer).")
    add("- `memori (all rows)`: `memori.search.search_facts(..., embeddings_limit=<number of rows>)`, so it scores the "
        "same rows as the floor and the default engine; `memori (limit 1000)`: its default `embeddings_limit=1000` "
        "(the rows memori_compat scores), for information. Its driver is in memory (embeddings as float32 BLOB bytes, "
        "as Memori's SQL drivers return them), so its time is Memori's own Python path, including the FAISS index it "
        "builds on every call. memori columns may time fewer queries (a prefix of the same list) at large sizes.")
    add("- cold first recall: the first `recall` of a fresh engine, which loads the entity from Chroma into the "
        "in-process cache (one-off per process and entity).")
    add("")
    add("Memory of the default engine's per-entity cache (MiB): the inverted index and the neighbour (session) "
        "arrays against the embedding matrix they sit beside.")
    add("")
    add("| facts | embedding matrix | inverted index | neighbour arrays | other columns (texts, ids, metadata...) "
        "| index + neighbours / matrix |")
    add("|---:|---:|---:|---:|---:|---:|")
    for r in results:
        mem = r.memory
        if mem:
            side = mem["inverted_index"] + mem["neighbours"]
            add(f"| {r.facts:,} | {mem['matrix'] / 2**20:.1f} | {mem['inverted_index'] / 2**20:.1f} | "
                f"{mem['neighbours'] / 2**20:.1f} | {mem.get('columns', 0) / 2**20:.1f} | {side / mem['matrix']:.2f} |")
    add("")
    cold = [r for r in results if r.cold]
    if cold:
        add("Cold start in a fresh process (disk store; store open excluded from the first recall; RSS growth from "
            "before the store is opened, chromadb's import and open included, to after the first recall and "
            f"{args.cold_recalls} warm recalls; warm = those recalls vs the numpy floor over the same process's matrix):")
        add("")
        add("| facts | path | store open (s) | first recall (s) | RSS growth (MB) | warm median / floor (ms) | warm / floor |")
        add("|---:|---|---:|---:|---:|---:|---:|")
        labels = {"chroma": "from Chroma (snapshots off)", "write": "from Chroma, writing the snapshot",
                  "snapshot": "from the snapshot"}
        for r in cold:
            for mode in COLD_MODES:
                c = r.cold.get(mode)
                if not c:
                    continue
                ratio = (f"{c['warm']['median_ms'] / c['floor']['median_ms']:.2f}x" if c["warm"] and c["floor"]
                         else "-")
                add(f"| {r.facts:,} | {labels[mode]} | {c['open_s']:.2f} | {c['first_recall_s']:.3f} | "
                    f"{c['rss_after_warm_mb']:.0f} | {_median_ms(c['warm'])} / {_median_ms(c['floor'])} | {ratio} |")
        add("")
        for r in cold:
            snap = r.cold.get("snapshot")
            if not snap:
                continue
            bound = {10_000: 0.5, 100_000: 4.0}.get(r.facts)
            if bound is not None:
                ok = snap["from_snapshot"] and snap["first_recall_s"] <= bound
                add(f"first recall in a new process at {r.facts // 1000}k <= {bound} s (issue 12, from the snapshot): "
                    f"{'PASS' if ok else 'FAIL'} ({snap['first_recall_s']:.3f} s; from Chroma "
                    f"{r.cold['chroma']['first_recall_s']:.2f} s)")
            if r.facts == 100_000:
                add(f"RSS growth at 100k <= 300 MB (issue 12, from the snapshot): "
                    f"{'PASS' if snap['rss_after_warm_mb'] <= 300 else 'FAIL'} ({snap['rss_after_warm_mb']:.0f} MB; "
                    f"from Chroma {r.cold['chroma']['rss_after_warm_mb']:.0f} MB)")
        add("")
    unsteady = [r.facts for r in results if _unsteady(r.methods[FLOOR])]
    if unsteady:
        add(f"**Warning:** the floor's latency is bimodal at {', '.join(f'{n:,}' for n in unsteady)} facts "
            "(p95 > 10x median or mean > 3x median): multi-threaded BLAS is waiting for worker threads that "
            "other processes keep off the cores, and a method that does other work between products "
            "(every real recall) pays that wait more often than the back-to-back floor. "
            "Rerun with `--blas-threads 1` for comparable numbers.")
        add("")
    ten = next((r for r in results if r.facts == 10_000), None)
    if ten is None:
        add("Targets are defined at 10,000 facts, which this run did not measure.")
    else:
        d, f, mem = ten.methods[DEFAULT].median_ms, ten.methods[FLOOR].median_ms, ten.methods[MEMORI_ALL].median_ms
        bound = 2 * f + 0.5
        add(f"default warm recall at 10k <= 2 x floor + 0.5 ms (issue 2): {'PASS' if d <= bound else 'FAIL'} "
            f"({d:.3f} ms vs bound {bound:.3f} ms; floor {f:.3f} ms; medians)")
        add(f"default warm recall at 10k <= 2 x floor + 1.0 ms (issue 5): {'PASS' if d <= 2 * f + 1.0 else 'FAIL'} "
            f"({d:.3f} ms vs bound {2 * f + 1.0:.3f} ms)")
    big = next((r for r in results if r.facts == 100_000), None)
    if big is not None:
        d, f = big.methods[DEFAULT].median_ms, big.methods[FLOOR].median_ms
        add(f"default warm recall at 100k <= 2 x floor + 4 ms (issue 5): {'PASS' if d <= 2 * f + 4 else 'FAIL'} "
            f"({d:.3f} ms vs bound {2 * f + 4:.3f} ms; floor {f:.3f} ms; medians)")
        mem = big.memory
        if mem:
            side = mem["inverted_index"] + mem["neighbours"]
            add(f"inverted index + neighbour arrays at 100k < embedding matrix (issue 5): "
                f"{'PASS' if side < mem['matrix'] else 'FAIL'} ({side / 2**20:.1f} MiB vs {mem['matrix'] / 2**20:.1f} MiB)")
    if ten is not None:
        d, mem = ten.methods[DEFAULT].median_ms, ten.methods[MEMORI_ALL].median_ms
        ratio = mem / d
        add(f"≥ 10x faster than memori.search.search_facts at 10k: {'PASS' if ratio >= 10 else 'FAIL'} "
            f"({ratio:.1f}x: memori {mem:.3f} ms vs default {d:.3f} ms; medians, memori with embeddings_limit=10000)")
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = bench_parser(__doc__)
    add_size_args(parser)
    add_timing_args(parser, warmup=20, each="method", chunk_help="queries per method before switching method")
    parser.add_argument("--slow-budget", type=float, default=12.0,
                        help="seconds of timing per memori variant and size; it times fewer queries when slow (default 12)")
    parser.add_argument("--min-slow-queries", type=int, default=30,
                        help="fewest queries timed for a memori variant (default 30)")
    parser.add_argument("--store", choices=("disk", "memory"), default="disk",
                        help="embedded Chroma in a temp dir (default) or ChromaStore.in_memory()")
    parser.add_argument("--blas-threads", type=int, metavar="N",
                        help="limit BLAS/OpenMP threads (numpy and FAISS) to N for the run via threadpoolctl "
                             "(default: leave as configured); 1 gives steadier latencies on a busy machine")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    parser.add_argument("--profile", action="store_true",
                        help="after timing, cProfile the default engine's warm recall at the largest size")
    parser.add_argument("--cold-recalls", type=int, default=50,
                        help="warm recalls timed in each fresh cold-start process (default 50; -1: no cold processes)")
    parser.add_argument("--stores", metavar="DIR",
                        help="build the disk stores in DIR and keep them; a later run reuses a complete one")
    parser.add_argument("--cold-child", metavar="STORE", help=argparse.SUPPRESS)
    parser.add_argument("--cold-mode", choices=COLD_MODES, default="snapshot", help=argparse.SUPPRESS)
    parser.add_argument("--cold-queries", metavar="NPZ", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.size_list = size_list(parser, args)
    if args.blas_threads is not None and args.blas_threads < 1:
        parser.error("--blas-threads must be >= 1")
    if args.queries < 1 or args.chunk < 1 or args.warmup < 0:
        parser.error("--queries and --chunk must be >= 1, --warmup >= 0")
    return args


def profile_default(n: int, args: argparse.Namespace) -> str:
    """cProfile of warm default recalls over ``n`` facts (in-memory store), top functions by own time."""
    import cProfile
    import io
    import pstats

    corpus = make_corpus(n, args.queries, args.seed)
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=fact_embedder(corpus))
    for start in range(0, n, INSERT_BATCH):
        engine.add(ENTITY, corpus.texts[start:start + INSERT_BATCH], ids=corpus.ids[start:start + INSERT_BATCH],
                   created_at=corpus.created[start:start + INSERT_BATCH])
    engine.clear_cache()
    engine.recall(corpus.queries[0], ENTITY, query_vector=corpus.query_vectors[0])
    prof = cProfile.Profile()
    prof.enable()
    for i, q in enumerate(corpus.queries):
        engine.recall(q, ENTITY, limit=5, query_vector=corpus.query_vectors[i])
    prof.disable()
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(18)
    return f"### cProfile: {len(corpus.queries)} warm default recalls over {n:,} facts (sorted by own time)\n\n```\n{buf.getvalue().strip()}\n```"


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.cold_child:
        if args.blas_threads is None:
            return cold_child(args)
        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=args.blas_threads):
            return cold_child(args)
    if args.blas_threads is None:
        return _run(args)
    import faiss  # noqa: F401 - load FAISS's BLAS/OpenMP before limiting, so the limit reaches them too

    load_memori_search()
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        print("--blas-threads needs threadpoolctl (pip install threadpoolctl), "
              "or set OPENBLAS_NUM_THREADS / OMP_NUM_THREADS before starting", file=sys.stderr)
        return 2
    with threadpool_limits(limits=args.blas_threads):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    info = machine_info()
    memori_search = load_memori_search()
    results: list[SizeResult] = []
    t_all = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="memori-bench-") as tmp:
        for n in args.size_list:
            _progress(f"== {n:,} facts ==")
            store_root = Path(args.stores).expanduser() if args.stores else None
            if store_root is not None:
                store_root.mkdir(parents=True, exist_ok=True)
            results.append(bench_size(n, args, Path(tmp), memori_search, store_root))
            gc.collect()
    report = render(results, info, args)
    print(report)
    if args.profile:
        print()
        print(profile_default(max(args.size_list), args))
    _progress(f"total {time.perf_counter() - t_all:.0f} s")
    if args.json:
        payload = {
            "machine": info,
            "settings": {k: v for k, v in vars(args).items() if k not in ("json",)},
            "results": [asdict(r) for r in results],
            "targets_at_10k": _targets(results),
        }
        Path(args.json).write_text(json.dumps(payload, indent=2, default=str))
        _progress(f"wrote {args.json}")
    return 0


def _targets(results: list[SizeResult]) -> dict[str, Any]:
    ten = next((r for r in results if r.facts == 10_000), None)
    if ten is None:
        return {}
    d, f, mem = ten.methods[DEFAULT].median_ms, ten.methods[FLOOR].median_ms, ten.methods[MEMORI_ALL].median_ms
    return {
        "default_median_ms": d,
        "floor_median_ms": f,
        "bound_ms": 2 * f + 0.5,
        "within_bound": d <= 2 * f + 0.5,
        "memori_all_rows_median_ms": mem,
        "speedup_vs_memori": mem / d,
        "at_least_10x": mem / d >= 10,
    }


if __name__ == "__main__":
    sys.exit(main())
