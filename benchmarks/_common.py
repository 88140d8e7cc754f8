"""Helpers shared by the benchmarks (``bench_recall.py``, ``bench_peers.py``, ``bench_quantized.py`` ...).

- the synthetic corpus: :func:`make_corpus` (one entity's fact sentences with
  precomputed embeddings, and queries with theirs), :func:`fact_embedder` (an
  engine's embedder over them) and :func:`add_corpus` (the facts into an engine);
- kept stores (``--stores``): :func:`kept_store_path`, :func:`kept_store_insert_s`, :func:`mark_store_kept`;
- timing: :class:`Stats`, :func:`run_round_robin` (methods interleaved chunk by chunk) and
  :func:`timed_recalls` (warm recalls in a fresh process);
- the command line: :func:`bench_parser`, :func:`add_size_args` with :func:`size_list` (``--sizes`` / ``--quick``),
  :func:`add_timing_args` (``--queries`` / ``--warmup`` / ``--chunk`` / ``--seed``) and :func:`counts`;
- what the numbers depend on: :func:`machine_info` (cores, library versions, the
  BLAS pools with their kernel and thread count), :func:`blas_summary`,
  :func:`machine_line`, :func:`limit_blas`, :func:`loadavg`, and :func:`rss_mb`.

Importing this module costs numpy and the standard library only (no
memori_core, chromadb or FAISS), so fresh processes that measure another
system's memory are not charged for them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import numpy as np

from _memori_upstream import memori_version

DIM = 384
ENTITY = "bench-user"
FLOOR_K = 50
INSERT_BATCH = 5000
SESSION_SIZE = 20  # facts are said in conversations of this many turns (exercises neighbour smoothing)
KEPT_MARKER = "bench-built.json"  # in a kept store's folder once it holds every fact
QUICK_SIZES = (1000, 10000)  # --quick

# --------------------------------------------------------------------------
# Synthetic memories: short sentences from a vocabulary, embeddings built from
# their parts so that facts sharing an object or a person are near each other.

PEOPLE = (
    "User", "User's sister", "User's brother", "User's mother", "User's father", "User's partner",
    "User's daughter", "User's son", "User's manager", "User's best friend", "User's neighbour",
    "User's roommate", "User's grandmother", "User's colleague Priya", "User's friend Tom",
    "User's friend Aiko", "User's cousin Mateo", "User's teacher", "User's doctor", "User's landlord",
)
VERBS = (
    "likes", "loves", "dislikes", "is allergic to", "is learning", "collects", "plays", "cooks",
    "prefers", "bought", "wants to try", "stopped eating", "teaches", "reads about", "talks about",
    "is afraid of", "saves money for", "repairs", "paints", "writes about", "visits", "recommends",
    "avoids", "orders", "practises", "studies", "sells", "borrowed", "lost", "gave away",
)
OBJECTS = tuple(
    (
        "peanuts shellfish gluten lactose sushi ramen tacos paella lasagna curry dumplings falafel "
        "kimchi espresso matcha oolong kombucha sourdough croissants tiramisu mangoes durian avocados "
        "olives truffles jazz techno opera flamenco salsa tango podcasts audiobooks vinyl records "
        "chess poker sudoku crosswords origami pottery knitting woodworking gardening bonsai "
        "beekeeping birdwatching astronomy photography calligraphy archery fencing climbing "
        "bouldering surfing sailing kayaking snowboarding skiing cycling marathons triathlons yoga "
        "pilates karate judo boxing tennis badminton squash cricket baseball hockey rugby football "
        "basketball volleyball golf bowling darts snooker guitar piano violin cello drums ukulele "
        "saxophone trumpet harmonica banjo spanish french german italian japanese korean mandarin "
        "portuguese arabic swahili python rust haskell kotlin javascript databases kubernetes linux "
        "robotics drones telescopes microscopes aquariums terrariums succulents orchids tulips roses "
        "cacti ferns cats dogs parrots rabbits hamsters tortoises horses ferrets goldfish hedgehogs "
        "motorcycles scooters campervans sailboats bicycles skateboards trains trams airships "
        "watches fountain pens notebooks typewriters cameras lenses headphones speakers keyboards "
        "monitors laptops tablets smartwatches thermostats sneakers boots scarves hats umbrellas "
        "perfume candles incense tea sets teapots mugs wine whisky gin cider mead lemonade smoothies"
    ).split()
)
QUALIFIERS = (
    "on weekends", "every morning", "since 2019", "since childhood", "after work", "in Lisbon",
    "in Kyoto", "in Nairobi", "in Toronto", "in Berlin", "in Oaxaca", "in Reykjavik", "with friends",
    "with the kids", "for work", "for a class", "as a hobby", "during holidays", "at night",
    "twice a week", "once a month", "at the market", "online", "at the club", "in the garden",
    "before breakfast", "on long trips", "at university", "since last spring", "on Fridays",
    "with a coach", "near the office", "for charity", "in winter", "in summer", "on the balcony",
    "to relax", "to stay fit", "for the wedding", "since the move",
)
QUERY_TEMPLATES = (
    "{obj}",
    "{obj} {qual}",
    "what does the user think about {obj}?",
    "does my {person_short} like {obj}?",
    "recommend something {qual} involving {obj}",
    "anything I should know about {obj} before dinner {qual}?",
    "who {verb} {obj}",
    "plans {qual}",
)


@dataclass
class Corpus:
    """One entity's facts and queries with their embeddings (rows most recent last)."""

    texts: list[str]
    ids: list[str]
    created: list[str]
    vectors: np.ndarray  # (n, DIM) float32, raw (not normalised)
    queries: list[str]
    query_vectors: np.ndarray  # (q, DIM) float32


def _part_vectors(rng: np.random.Generator) -> dict[str, np.ndarray]:
    return {
        "person": rng.standard_normal((len(PEOPLE), DIM)).astype(np.float32),
        "verb": rng.standard_normal((len(VERBS), DIM)).astype(np.float32),
        "obj": rng.standard_normal((len(OBJECTS), DIM)).astype(np.float32),
        "qual": rng.standard_normal((len(QUALIFIERS), DIM)).astype(np.float32),
    }


def make_corpus(n: int, n_queries: int, seed: int) -> Corpus:
    """``n`` distinct facts and ``n_queries`` queries, deterministic for a seed."""
    rng = np.random.default_rng(seed)
    parts = _part_vectors(rng)
    seen: set[tuple[int, int, int, int]] = set()
    combos: list[tuple[int, int, int, int]] = []
    while len(combos) < n:
        want = n - len(combos)
        draw = np.stack(
            [
                rng.integers(0, len(PEOPLE), want * 2),
                rng.integers(0, len(VERBS), want * 2),
                rng.integers(0, len(OBJECTS), want * 2),
                rng.integers(0, len(QUALIFIERS), want * 2),
            ],
            axis=1,
        )
        for row in draw.tolist():
            key = (row[0], row[1], row[2], row[3])
            if key not in seen:
                seen.add(key)
                combos.append(key)
                if len(combos) == n:
                    break
    c = np.asarray(combos, dtype=np.int64)
    texts = [f"{PEOPLE[p]} {VERBS[v]} {OBJECTS[o]} {QUALIFIERS[q]}." for p, v, o, q in combos]
    vectors = (
        0.6 * parts["person"][c[:, 0]]
        + 0.5 * parts["verb"][c[:, 1]]
        + 1.0 * parts["obj"][c[:, 2]]
        + 0.5 * parts["qual"][c[:, 3]]
        + 0.6 * rng.standard_normal((n, DIM)).astype(np.float32)
    ).astype(np.float32)
    start = datetime(2024, 1, 1, tzinfo=timezone.utc)
    created = [(start + timedelta(minutes=i)).isoformat() for i in range(n)]
    ids = [f"fact-{i:06d}" for i in range(n)]

    queries: list[str] = []
    qvecs = np.empty((n_queries, DIM), dtype=np.float32)
    for j in range(n_queries):
        template = QUERY_TEMPLATES[j % len(QUERY_TEMPLATES)]
        p, v, o, q = (int(rng.integers(0, len(x))) for x in (PEOPLE, VERBS, OBJECTS, QUALIFIERS))
        person_short = PEOPLE[p].replace("User's ", "").replace("User", "partner")
        queries.append(template.format(obj=OBJECTS[o], qual=QUALIFIERS[q], verb=VERBS[v], person_short=person_short))
        vec = 0.7 * rng.standard_normal(DIM).astype(np.float32)
        if "{obj}" in template:
            vec += parts["obj"][o]
        if "{qual}" in template:
            vec += 0.6 * parts["qual"][q]
        if "{verb}" in template:
            vec += 0.5 * parts["verb"][v]
        if "{person_short}" in template:
            vec += 0.5 * parts["person"][p]
        qvecs[j] = vec
    return Corpus(texts, ids, created, vectors, queries, qvecs)


def fact_embedder(corpus: Corpus) -> Callable[[list[str]], np.ndarray]:
    """An engine's embedder for the corpus's facts: each fact text's precomputed vector (no model runs)."""
    rows = {text: i for i, text in enumerate(corpus.texts)}
    vectors = corpus.vectors

    def embed(texts: list[str]) -> np.ndarray:
        return vectors[[rows[t] for t in texts]]

    return embed


def add_corpus(engine: Any, corpus: Corpus, *, report: bool = False) -> float:
    """Add every fact of ``corpus`` to ``engine`` for :data:`ENTITY`, :data:`INSERT_BATCH` at a time, with its id,
    creation time and session (:data:`SESSION_SIZE` facts each); seconds it took. ``report``: a progress line
    after each batch."""
    n = len(corpus.texts)
    t0 = time.perf_counter()
    for start in range(0, n, INSERT_BATCH):
        stop = min(start + INSERT_BATCH, n)
        engine.add(ENTITY, corpus.texts[start:stop], ids=corpus.ids[start:stop], created_at=corpus.created[start:stop],
                   session_id=[f"s{i // SESSION_SIZE}" for i in range(start, stop)])
        if report:
            progress(f"  [{n:>7,} facts] inserted {stop:>7,}/{n:,} into Chroma ({time.perf_counter() - t0:6.1f} s)")
    return time.perf_counter() - t0


# --------------------------------------------------------------------------
# Kept stores (``--stores DIR``): bench_recall.py and bench_quantized.py reuse each other's


def kept_store_path(root: Path, n: int, seed: int) -> Path:
    """Where the embedded store of ``n`` facts of the corpus of ``seed`` is kept below ``root``."""
    return root / f"chroma-{n}-seed{seed}"


def kept_store_insert_s(path: Path, n: int) -> float | None:
    """Seconds the kept store at ``path`` took to fill, if it holds all ``n`` facts (``None``: build it)."""
    try:
        marker = json.loads((path / KEPT_MARKER).read_text())
    except (OSError, ValueError):
        return None
    return float(marker["insert_s"]) if marker.get("facts") == n and marker.get("dim") == DIM else None


def mark_store_kept(path: Path, n: int, insert_s: float) -> None:
    """Record that the store at ``path`` holds all ``n`` facts (filled in ``insert_s`` seconds)."""
    (path / KEPT_MARKER).write_text(json.dumps({"facts": n, "dim": DIM, "insert_s": insert_s}))


# --------------------------------------------------------------------------
# Timing


@dataclass
class Stats:
    """Latency summary of one method at one size, in milliseconds."""

    queries: int
    median_ms: float
    p95_ms: float
    mean_ms: float
    min_ms: float
    p90_ms: float

    @classmethod
    def of(cls, ns: Sequence[int]) -> Stats:
        """The summary of per-call timings in nanoseconds."""
        ms = np.asarray(ns, dtype=np.float64) / 1e6
        return cls(
            queries=int(ms.size),
            median_ms=float(np.median(ms)),
            p95_ms=float(np.percentile(ms, 95)),
            mean_ms=float(ms.mean()),
            min_ms=float(ms.min()),
            p90_ms=float(np.percentile(ms, 90)),
        )


def run_round_robin(
    methods: dict[str, Callable[[int], Any]],
    quotas: dict[str, int],
    chunk: int | Mapping[str, int],
    *,
    enter: Callable[[str], None] | None = None,
) -> dict[str, list[int]]:
    """Time each method on queries 0..quota-1, interleaving methods chunk by chunk.

    Interleaving spreads any slowdown of the (shared) machine over all methods
    instead of charging it to whichever ran at the wrong moment; within a
    chunk a method runs back to back, as it would in an application.
    ``chunk`` is one size for all methods or a size per method (a slow method
    with a small quota then takes a small chunk in every round, so its queries
    are spread over the whole run instead of bunched at its start).
    ``enter(name)``, when given, runs untimed before each of a method's chunks (to put
    the process in the method's configuration, e.g. torch's process-wide thread count).
    """
    sizes = {name: max(1, chunk if isinstance(chunk, int) else chunk[name]) for name in methods}
    timings: dict[str, list[int]] = {name: [] for name in methods}
    perf = time.perf_counter_ns
    done = dict.fromkeys(methods, 0)
    while any(done[name] < quotas[name] for name in methods):
        for name, fn in methods.items():
            start = done[name]
            stop = min(start + sizes[name], quotas[name])
            if enter is not None and start < stop:
                enter(name)
            out = timings[name]
            for i in range(start, stop):
                t0 = perf()
                fn(i)
                out.append(perf() - t0)
            done[name] = max(start, stop)
    return timings


def timed_recalls(engine: Any, texts: Sequence[str], vectors: np.ndarray, *, limit: int = 5) -> list[int]:
    """Nanoseconds of a recall of each query but the first (the cold one), with its vector: no embedding is timed."""
    ns = []
    for i in range(1, len(texts)):
        t0 = time.perf_counter_ns()
        engine.recall(texts[i], ENTITY, limit=limit, query_vector=vectors[i])
        ns.append(time.perf_counter_ns() - t0)
    return ns


# --------------------------------------------------------------------------
# Command line


def bench_parser(doc: str) -> argparse.ArgumentParser:
    """A benchmark's command line, described by the first paragraph of its module docstring ``doc`` as written."""
    return argparse.ArgumentParser(description=doc.split("\n\n")[0],
                                   formatter_class=argparse.RawDescriptionHelpFormatter)


def add_size_args(parser: argparse.ArgumentParser) -> None:
    """``--sizes`` (fact counts, default 1,000, 10,000 and 100,000) and ``--quick`` (:data:`QUICK_SIZES` only),
    which :func:`size_list` reads."""
    parser.add_argument("--sizes", default="1000,10000,100000",
                        help="comma-separated fact counts (default: 1000,10000,100000)")
    parser.add_argument("--quick", action="store_true", help="only 1,000 and 10,000 facts")


def add_timing_args(parser: argparse.ArgumentParser, *, warmup: int, each: str, chunk_help: str) -> None:
    """How a benchmark times its rivals (:func:`run_round_robin`): ``--queries`` per size (default 300),
    ``--warmup`` untimed calls per rival (``each`` names one: "method", "system"), ``--chunk`` (default 25,
    ``chunk_help`` says what a round is), and the corpus's ``--seed`` (default 7)."""
    parser.add_argument("--queries", type=int, default=300, help="timed queries per size (default 300)")
    parser.add_argument("--warmup", type=int, default=warmup,
                        help=f"untimed warm-up calls per {each} (default {warmup})")
    parser.add_argument("--chunk", type=int, default=25, help=f"{chunk_help} (default 25)")
    parser.add_argument("--seed", type=int, default=7)


def counts(text: str) -> list[int]:
    """Comma-separated counts (``_`` may group digits: ``100_000``); blank: none."""
    return [int(s.replace("_", "")) for s in text.split(",") if s.strip()]


def size_list(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[int]:
    """The fact counts to run: :data:`QUICK_SIZES` with ``--quick``, else ``--sizes``; a usage error unless each
    is positive."""
    sizes = list(QUICK_SIZES) if args.quick else counts(args.sizes)
    if not sizes or min(sizes) < 1:
        parser.error("--sizes needs positive integers")
    return sizes


# --------------------------------------------------------------------------
# Process and machine


def snapshot_files(store: Any) -> Any:
    """The snapshot files of an embedded ChromaStore (``None``: it keeps none). Made by the cache for the store in
    this version; older versions (a before/after comparison) kept them on the store."""
    try:
        from memori_core.cache.snapshot_files import snapshot_files_for
    except ImportError:
        return getattr(store, "snapshots", None)
    return snapshot_files_for(store)


def progress(msg: str) -> None:
    """A progress line on stderr (stdout carries the report)."""
    print(msg, file=sys.stderr, flush=True)


def rss_mb() -> float:
    """Resident set size of this process (MB; Linux /proc, else the peak from getrusage)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def machine_info() -> dict[str, Any]:
    """Cores, BLAS and library versions: what the numbers depend on."""
    import chromadb
    import faiss

    info: dict[str, Any] = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "processor": cpu_model(),
        "logical_cores": os.cpu_count(),
        "usable_cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "numpy": np.__version__,
        "chromadb": chromadb.__version__,
        "faiss": getattr(faiss, "__version__", "?"),
        "memori": memori_version(),
        "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE"),
        "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS"),
        "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS"),
        "blas": [],
        "load_average_at_start": loadavg(),
    }
    try:
        from threadpoolctl import threadpool_info

        numpy_dir = str(Path(np.__file__).resolve().parent)
        for pool in threadpool_info():
            entry = {k: pool.get(k) for k in ("internal_api", "num_threads", "architecture", "version", "prefix")}
            path = str(pool.get("filepath") or "")
            entry["owner"] = "numpy" if path.startswith(numpy_dir) or "numpy.libs" in path else Path(path).parent.name
            info["blas"].append(entry)
    except ImportError:
        cfg = np.show_config(mode="dicts") if "mode" in np.show_config.__code__.co_varnames else {}
        blas = cfg.get("Build Dependencies", {}).get("blas", {}) if isinstance(cfg, dict) else {}
        info["blas"] = [{"internal_api": blas.get("name"), "num_threads": "? (install threadpoolctl)",
                         "version": blas.get("version")}]
    return info


def loadavg() -> str:
    """The 1/5/15-minute load averages, or ``"?"``."""
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except (AttributeError, OSError):
        return "?"


def cpu_model() -> str:
    """The CPU's model name."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def machine_line(info: dict[str, Any]) -> str:
    """One line: the processor, its cores, the Python and the platform of a :func:`machine_info`."""
    return (f"{info['processor']}, {info['logical_cores']} logical cores ({info['usable_cores']} usable), "
            f"Python {info['python']}, {info['platform']}")


def blas_summary(info: dict[str, Any]) -> str:
    """One line: numpy's BLAS (library, version, kernel, threads), then the other pools loaded (FAISS's...)."""

    def pool(b: dict[str, Any]) -> str:
        return (f"{b.get('internal_api')} {b.get('version') or ''} threads={b.get('num_threads')} "
                f"arch={b.get('architecture')}")

    numpy_pools = [b for b in info["blas"] if b.get("owner") in ("numpy", None) and b.get("internal_api") != "openmp"]
    others = [b for b in info["blas"] if b not in numpy_pools]
    out = "; ".join(pool(b) for b in numpy_pools) or "?"
    if others:
        out += " (also loaded: " + "; ".join(f"{b.get('owner')}: {pool(b)}" for b in others) + ")"
    return out


@contextlib.contextmanager
def limit_blas(threads: int | None) -> Iterator[None]:
    """Limit the BLAS/OpenMP pools of numpy and FAISS to ``threads`` (``None``: leave them as configured).

    FAISS is imported first so that its OpenBLAS/OpenMP pools exist when the limit is set
    and the limit reaches them too. Needs threadpoolctl.
    """
    if threads is None:
        yield
        return
    with contextlib.suppress(ImportError):
        import faiss  # noqa: F401 - load FAISS's BLAS/OpenMP before limiting
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=threads):
        yield
