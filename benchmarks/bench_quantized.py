"""Large memories through the 8-bit copy (RecallConfig.quantized_above) against the float32 numpy floor.

The facts and queries are bench_recall.py's (``make_corpus`` in ``_common.py``:
short generated sentences with 384-d embeddings built from their parts).
Everything is timed in one run, 1 BLAS/OpenMP thread by default
(``--blas-threads``), methods interleaved chunk by chunk:

1. The dense pool alone, for each ``--sweep`` size (no store; the cache's
   matrix is the L2-normalised float32 rows): ``numpy floor`` (``M @ q`` +
   ``np.argpartition`` top 50, as bench_recall.py times it), ``exact pool``
   (what recall does below the threshold: ``dense_top(M @ q, 50)``) and
   ``quantized pool`` (``QuantizedMatrix.top``: the 8-bit copy's candidates,
   re-scored in float32). Reports how often the two pools are equal (same rows,
   same order) and how often the copy left a query to the exact scan.
2. The engine, for each ``--sizes`` size (one entity in an embedded Chroma
   store, filled once and reused with ``--stores DIR``; bench_recall.py's
   stores are reused too): warm ``recall`` with ``RecallConfig()`` (the copy,
   default threshold) and with ``RecallConfig(quantized_above=None)`` (the
   exact scan), next to the floor over the same cache's matrix; the answers of
   the two compared query by query.
3. Fresh processes over that store (``--cold-recalls``; after a first process
   wrote the entity's snapshot): the first recall from the snapshot (the copy is
   made there) and the RSS growth from before the store is opened to after the
   warm recalls, with the copy and without.

    python benchmarks/bench_quantized.py                          # sweep 5k..100k, engine at 100k
    python benchmarks/bench_quantized.py --sizes 10000 --sweep 2000,5000,10000
    python benchmarks/bench_quantized.py --stores ~/bench-stores  # keep / reuse the Chroma stores
"""

from __future__ import annotations

import argparse
import gc
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

from _common import (  # noqa: E402 - the generator and helpers bench_recall.py uses
    DIM,
    ENTITY,
    FLOOR_K,
    Stats,
    add_corpus,
    blas_summary,
    counts,
    fact_embedder,
    kept_store_insert_s,
    kept_store_path,
    limit_blas,
    loadavg,
    machine_info,
    make_corpus,
    mark_store_kept,
    progress,
    rss_mb,
    run_round_robin,
    timed_recalls,
)
from _common import add_timing_args, bench_parser  # noqa: E402 - the command line

FLOOR = "numpy floor"
EXACT_POOL = "exact pool"
QUANT_POOL = "quantized pool"
DEFAULT = "default (copy)"
EXACT = "exact scan"


@dataclass
class SweepResult:
    facts: int
    methods: dict[str, Stats]
    pool_equal: int
    left_to_scan: int
    queries: int
    build_s: float
    copy_mb: float


@dataclass
class EngineResult:
    facts: int
    methods: dict[str, Stats]
    answers_equal: int
    max_cosine_diff: float
    queries: int
    pool_equal: int
    left_to_scan: int
    copy_mb: float
    matrix_mb: float
    cold: dict[str, dict[str, Any]] = field(default_factory=dict)


def _floor_fn(matrix: np.ndarray, qs: np.ndarray) -> Callable[[int], Any]:
    n = matrix.shape[0]
    k = min(FLOOR_K, n)

    def floor(i: int) -> Any:
        return np.argpartition(matrix @ qs[i], n - k)[n - k :]

    return floor


# --------------------------------------------------------------------------
# 1. The pool alone


def sweep(n: int, args: argparse.Namespace) -> SweepResult:
    from memori_core.ranking.dense import l2_normalise
    from memori_core.ranking.pipeline import dense_top
    from memori_core.cache.quantized import QuantizedMatrix

    corpus = make_corpus(n, args.queries, args.seed)
    matrix = l2_normalise(corpus.vectors)
    qs = l2_normalise(corpus.query_vectors)
    del corpus
    t = time.perf_counter()
    qm = QuantizedMatrix.build(matrix)
    build_s = time.perf_counter() - t
    if qm is None:
        raise SystemExit("the installed FAISS cannot hold the 8-bit copy (needs QT_8bit_direct_signed)")
    k = min(FLOOR_K, n)
    equal = scanned = 0
    for i in range(len(qs)):
        got = qm.top(matrix, qs[i], k)
        if got is None:
            scanned += 1
        else:
            equal += bool(np.array_equal(got, dense_top(matrix @ qs[i], k)))
    methods: dict[str, Callable[[int], Any]] = {
        FLOOR: _floor_fn(matrix, qs),
        EXACT_POOL: lambda i: dense_top(matrix @ qs[i], k),
        QUANT_POOL: lambda i: qm.top(matrix, qs[i], k),
    }
    for fn in methods.values():
        for i in range(min(args.warmup, len(qs))):
            fn(len(qs) - 1 - i)
    gc.collect()
    timings = run_round_robin(methods, dict.fromkeys(methods, len(qs)), args.chunk)
    out = SweepResult(n, {m: Stats.of(ns) for m, ns in timings.items()}, equal, scanned, len(qs), build_s,
                      qm.nbytes / 2**20)
    progress(f"  [sweep {n:>7,}] floor {out.methods[FLOOR].median_ms:.3f} ms, exact pool "
             f"{out.methods[EXACT_POOL].median_ms:.3f} ms, quantized pool {out.methods[QUANT_POOL].median_ms:.3f} ms; "
             f"pools equal {equal}/{len(qs)}, left to the scan {scanned}")
    return out


# --------------------------------------------------------------------------
# 2. The engine


def _fill(path: Path, n: int, seed: int) -> None:
    from memori_core import ChromaStore, RecallConfig, RecallEngine

    corpus = make_corpus(n, 1, seed)
    store = ChromaStore(path=path, snapshots=False)
    writer = RecallEngine(store=store, embedder=fact_embedder(corpus), config=RecallConfig())
    t0 = time.perf_counter()
    add_corpus(writer, corpus, report=True)
    store.close()
    mark_store_kept(path, n, time.perf_counter() - t0)


def engine_size(n: int, args: argparse.Namespace, root: Path) -> EngineResult:
    from memori_core import ChromaStore, RecallConfig, RecallEngine
    from memori_core.ranking.pipeline import dense_top

    path = kept_store_path(root, n, args.seed)  # bench_recall.py's layout: its kept stores are reused
    if kept_store_insert_s(path, n) is None:
        _fill(path, n, args.seed)
    else:
        progress(f"  [{n:>7,} facts] reusing the store in {path}")
    corpus = make_corpus(n, args.queries, args.seed)
    texts, qvecs = corpus.queries, corpus.query_vectors
    del corpus
    store = ChromaStore(path=path, snapshots=False)
    copy = RecallEngine(store=store, embedder=lambda t: None, config=RecallConfig())
    scan = RecallEngine(store=store, embedder=lambda t: None, config=RecallConfig(quantized_above=None))
    t = time.perf_counter()
    copy.recall(texts[0], ENTITY, query_vector=qvecs[0])
    progress(f"  [{n:>7,} facts] loaded from Chroma and made the copy in {time.perf_counter() - t:.1f} s")
    scan.recall(texts[0], ENTITY, query_vector=qvecs[0])
    cache = copy._cache_for(ENTITY)
    matrix = np.ascontiguousarray(cache.matrix)  # the floor's own matrix: the same rows, contiguous
    qs = np.ascontiguousarray(qvecs / np.linalg.norm(qvecs, axis=1, keepdims=True), dtype=np.float32)

    # Untimed: the answers of the two engines, and the dense pool of the copy against the scan's.
    equal = pool_equal = scanned = 0
    worst = 0.0
    qm = cache.quantized()
    for i in range(len(texts)):
        a = copy.recall(texts[i], ENTITY, limit=5, query_vector=qvecs[i])
        b = scan.recall(texts[i], ENTITY, limit=5, query_vector=qvecs[i])
        same = [f.id for f in a] == [f.id for f in b]
        equal += same
        if same:
            worst = max([worst] + [abs(x.cosine - y.cosine) for x, y in zip(a, b)])
        if qm is not None:
            got = qm.top(cache.matrix, qs[i], FLOOR_K)
            if got is None:
                scanned += 1
            else:
                pool_equal += bool(np.array_equal(got, dense_top(cache.matrix @ qs[i], FLOOR_K)))
    methods: dict[str, Callable[[int], Any]] = {
        FLOOR: _floor_fn(matrix, qs),
        DEFAULT: lambda i: copy.recall(texts[i], ENTITY, limit=5, query_vector=qvecs[i]),
        EXACT: lambda i: scan.recall(texts[i], ENTITY, limit=5, query_vector=qvecs[i]),
    }
    for fn in methods.values():
        for i in range(min(args.warmup, len(texts))):
            fn(len(texts) - 1 - i)
    gc.collect()
    timings = run_round_robin(methods, dict.fromkeys(methods, len(texts)), args.chunk)
    report = cache.memory_report()
    result = EngineResult(
        n, {m: Stats.of(ns) for m, ns in timings.items()}, equal, worst, len(texts), pool_equal, scanned,
        report.get("quantized", 0) / 2**20, report["matrix"] / 2**20,
    )
    progress(f"  [{n:>7,} facts] floor {result.methods[FLOOR].median_ms:.3f} ms, default (copy) "
             f"{result.methods[DEFAULT].median_ms:.3f} ms, exact scan {result.methods[EXACT].median_ms:.3f} ms; "
             f"answers equal {equal}/{len(texts)}, pools equal {pool_equal}/{len(texts)}")
    del copy, scan, cache, matrix
    store.close()
    if args.cold_recalls >= 0:
        result.cold = cold_processes(path, texts, qvecs, args, root)
    return result


# --------------------------------------------------------------------------
# 3. Fresh processes

COLD_MODES = ("write", "copy", "exact")


def cold_child(args: argparse.Namespace) -> int:
    """One fresh process over the store: open, first recall, warm recalls; one JSON line on stdout."""
    from memori_core import ChromaStore, RecallConfig, RecallEngine  # (as bench_recall.py: before the first reading)
    from memori_core.cache.snapshot_files import snapshot_files_for

    data = np.load(args.cold_queries, allow_pickle=False)
    texts, qvecs = [str(t) for t in data["texts"]], data["vectors"]
    assert "faiss" not in sys.modules  # its import is the copy's cost: counted below
    gc.collect()
    rss0 = rss_mb()
    store = ChromaStore(path=args.cold_child)
    config = RecallConfig(quantized_above=None) if args.cold_mode == "exact" else RecallConfig()
    engine = RecallEngine(store=store, embedder=lambda t: None, config=config)
    files = snapshot_files_for(store)
    if args.cold_mode == "write" and files is not None:
        files.invalidate(ENTITY)
    t = time.perf_counter()
    engine.recall(texts[0], ENTITY, limit=5, query_vector=qvecs[0])
    first_s = time.perf_counter() - t
    out: dict[str, Any] = {"mode": args.cold_mode, "first_recall_s": first_s,
                           "from_snapshot": bool(files is not None and files.loaded)}
    ns = timed_recalls(engine, texts, qvecs)
    gc.collect()
    out["rss_growth_mb"] = rss_mb() - rss0
    out["warm_median_ms"] = Stats.of(ns).median_ms if ns else None
    out["faiss_loaded"] = "faiss" in sys.modules
    out["cache_mb"] = {k: round(v / 2**20, 1) for k, v in engine._cache_for(ENTITY).memory_report().items()}
    if args.cold_mode == "write" and files is not None:
        files.wait()
        out["snapshots_written"] = files.written
    store.close()
    print(json.dumps(out))
    return 0


def cold_processes(path: Path, texts: list[str], qvecs: np.ndarray, args: argparse.Namespace,
                   root: Path) -> dict[str, dict[str, Any]]:
    m = min(len(texts), args.cold_recalls + 1)
    qfile = root / f"cold-queries-{path.name}.npz"
    np.savez(qfile, texts=np.asarray(texts[:m]), vectors=qvecs[:m])
    results: dict[str, dict[str, Any]] = {}
    for mode in COLD_MODES:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--cold-child", str(path), "--cold-mode", mode,
               "--cold-queries", str(qfile), "--blas-threads", str(args.blas_threads)]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
        if done.returncode != 0:
            raise RuntimeError(f"cold process ({mode}) failed:\n{done.stderr[-4000:]}")
        results[mode] = r = json.loads(done.stdout.strip().splitlines()[-1])
        progress(f"  [cold {mode:>5}] first recall {r['first_recall_s']:.3f} s (from snapshot: {r['from_snapshot']}), "
                 f"RSS +{r['rss_growth_mb']:.0f} MB, warm median {r['warm_median_ms']:.3f} ms")
    return results


# --------------------------------------------------------------------------
# Report


def _cell(s: Stats) -> str:
    return f"{s.median_ms:.3f} / {s.p95_ms:.3f} / {s.mean_ms:.3f}"


def render(sweeps: list[SweepResult], engines: list[EngineResult], info: dict[str, Any],
           args: argparse.Namespace) -> str:
    lines: list[str] = []
    add = lines.append
    add("## memori-recall: the 8-bit copy of large memories against the float32 floor")
    add("")
    add(f"- machine: {info['processor']}, {info['logical_cores']} logical cores ({info['usable_cores']} usable), "
        f"Python {info['python']}, numpy {info['numpy']}, faiss {info['faiss']}")
    add(f"- BLAS (threadpoolctl, inside the run's limit): {blas_summary(info)}")
    add(f"- --blas-threads={args.blas_threads} (numpy's BLAS and FAISS's OpenMP; the copy's search always runs on "
        f"the calling thread); load average at start {info['load_average_at_start']}, at end {loadavg()}")
    add(f"- {DIM}-d generated facts (bench_recall.py's corpus, seed {args.seed}), {args.queries} queries, "
        f"warm-up {args.warmup}, methods interleaved in chunks of {args.chunk}; milliseconds "
        "**median / p95 / mean**")
    add("")
    if sweeps:
        add(f"### The dense pool alone (top {FLOOR_K}, no store)")
        add("")
        add(f"| facts | {FLOOR} | {EXACT_POOL} | {QUANT_POOL} | quantized / floor | pools equal | left to the scan "
            "| copy (MiB) | build (s) |")
        add("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for s in sweeps:
            f, q = s.methods[FLOOR].median_ms, s.methods[QUANT_POOL].median_ms
            add(f"| {s.facts:,} | {_cell(s.methods[FLOOR])} | {_cell(s.methods[EXACT_POOL])} | "
                f"{_cell(s.methods[QUANT_POOL])} | {q / f:.2f}x | {s.pool_equal}/{s.queries} | {s.left_to_scan} | "
                f"{s.copy_mb:.1f} | {s.build_s:.3f} |")
        add("")
    for e in engines:
        f, d, x = e.methods[FLOOR].median_ms, e.methods[DEFAULT].median_ms, e.methods[EXACT].median_ms
        add(f"### The engine at {e.facts:,} facts (warm `recall(limit=5)`, one entity, Chroma on disk)")
        add("")
        add(f"| {FLOOR} | {DEFAULT} | {EXACT} | default / floor | exact scan / floor |")
        add("|---:|---:|---:|---:|---:|")
        add(f"| {_cell(e.methods[FLOOR])} | {_cell(e.methods[DEFAULT])} | {_cell(e.methods[EXACT])} | "
            f"{d / f:.2f}x | {x / f:.2f}x |")
        add("")
        add(f"- answers equal to the exact scan's (ids, in order): {e.answers_equal}/{e.queries}; largest cosine "
            f"difference {e.max_cosine_diff:.1e}")
        add(f"- dense pool (top {FLOOR_K}) equal to the exact pool: {e.pool_equal}/{e.queries} "
            f"({100 * e.pool_equal / max(e.queries, 1):.1f}%), left to the exact scan: {e.left_to_scan}")
        add(f"- cache: matrix {e.matrix_mb:.1f} MiB, 8-bit copy {e.copy_mb:.1f} MiB")
        add(f"- target (issue 12): default warm median <= 1.0x the floor: {'PASS' if d <= f else 'FAIL'} "
            f"({d:.3f} ms vs {f:.3f} ms)")
        if e.cold:
            add("")
            add("Fresh processes (store open excluded from the first recall; RSS growth from before the store is "
                "opened, chromadb's import included, to after the warm recalls):")
            add("")
            add("| process | first recall (s) | from snapshot | RSS growth (MiB) | warm median (ms) | cache (MiB) |")
            add("|---|---:|---|---:|---:|---|")
            names = {"write": "loads from Chroma, writes the snapshot (copy)", "copy": "from the snapshot, copy",
                     "exact": "from the snapshot, exact scan"}
            for mode, r in e.cold.items():
                add(f"| {names[mode]} | {r['first_recall_s']:.3f} | {r['from_snapshot']} | {r['rss_growth_mb']:.0f} | "
                    f"{r['warm_median_ms']:.3f} | {r['cache_mb']} |")
            c = e.cold.get("copy")
            if c is not None and e.facts == 100_000:
                add("")
                add(f"- target: first recall at 100k from the snapshot <= 4 s: "
                    f"{'PASS' if c['first_recall_s'] <= 4 else 'FAIL'} ({c['first_recall_s']:.3f} s)")
                add(f"- target: RSS growth at 100k <= 300 MB: {'PASS' if c['rss_growth_mb'] <= 300 else 'FAIL'} "
                    f"({c['rss_growth_mb']:.0f} MiB with the copy, {e.cold['exact']['rss_growth_mb']:.0f} MiB without)")
        add("")
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = bench_parser(__doc__)
    p.add_argument("--sweep", default="5000,8000,10000,20000,50000,100000",
                   help="sizes for the pool-only comparison (no store; '' to skip)")
    p.add_argument("--sizes", default="100000", help="sizes for the engine comparison ('' to skip)")
    add_timing_args(p, warmup=20, each="method", chunk_help="queries per method per round")
    p.add_argument("--blas-threads", type=int, default=1, help="BLAS/OpenMP threads for the run (default 1)")
    p.add_argument("--stores", metavar="DIR", help="keep the Chroma stores in DIR and reuse them")
    p.add_argument("--cold-recalls", type=int, default=50,
                   help="warm recalls in each fresh process (default 50; -1: no fresh processes)")
    p.add_argument("--json", metavar="FILE")
    p.add_argument("--cold-child", help=argparse.SUPPRESS)
    p.add_argument("--cold-mode", choices=COLD_MODES, help=argparse.SUPPRESS)
    p.add_argument("--cold-queries", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    args.sweep_list = counts(args.sweep)
    args.size_list = counts(args.sizes)
    if args.blas_threads < 1:
        p.error("--blas-threads must be >= 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.cold_child:
        # Not limit_blas(): it imports FAISS first, which would hide the copy's import from the RSS growth.
        # (The copy's searches run on the calling thread whatever OpenMP's setting.)
        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=args.blas_threads):
            return cold_child(args)
    with limit_blas(args.blas_threads):
        info = machine_info()  # inside the limit: the thread counts reported are the run's
        sweeps = []
        for n in args.sweep_list:
            sweeps.append(sweep(n, args))
            gc.collect()
        engines = []
        with tempfile.TemporaryDirectory(prefix="memori-bench-q-") as tmp:
            root = Path(args.stores).expanduser() if args.stores else Path(tmp)
            root.mkdir(parents=True, exist_ok=True)
            for n in args.size_list:
                engines.append(engine_size(n, args, root))
                gc.collect()
    print(render(sweeps, engines, info, args))
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": info, "settings": {k: v for k, v in vars(args).items()},
                                               "sweep": [asdict(s) for s in sweeps],
                                               "engine": [asdict(e) for e in engines]}, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
