"""``MemoriStore.search`` (LangGraph's store over the engine) against ``engine.recall`` on the same facts.

One entity of ``--size`` facts (bench_recall.py's corpus: ``make_corpus`` in ``_common.py``, precomputed
384-d embeddings) is written through ``RecallEngine.add`` with the metadata ``MemoriStore.put`` gives a
fact (the item's value whole, its update time), so every fact is an item of the namespace
``("memories", ENTITY)``; a few items are also written and read through the store itself, as a check. The
embedder looks the precomputed vectors up, for the facts and for the queries alike (``embed_query`` is a
dict lookup), so both paths pay the same for the query's vector and the model is out of the loop.

Timed on the same queries, interleaved chunk by chunk (``run_round_robin``), after an untimed warm-up:

- ``engine.recall``: ``engine.recall(query, ENTITY, limit)``;
- ``MemoriStore.search``: ``store.search(("memories", ENTITY), query=query, limit=limit)`` (gate on, as
  recall): the store's own cost is the namespace and filter checks and the ``SearchItem`` per result;
- ``engine.recall (where=)`` / ``MemoriStore.search (filter=)``: the same with a filter on a field of the
  value that half the facts match (``{"kind": "even"}``), memoised by the cache between writes;
- ``MemoriStore.search (gate=False)``: the ``limit`` best whatever their relevance (the store's ungated twin
  of the engine), beside ``engine.recall`` of an engine configured with ``gate="off"``;
- ``MemoriStore.search (no query)``: the first ``limit`` items, listed oldest first, beside
  ``engine.list(..., newest_first=False)`` of the same page; then the same at offsets below 1,000 (the store
  reads every fact before the page, to leave expired ones out: ``engine.list`` lists them).

    python benchmarks/bench_store.py                   # 10k facts, 300 queries
    python benchmarks/bench_store.py --size 100000 --queries 200 --blas-threads 1
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (  # noqa: E402
    DIM,
    ENTITY,
    INSERT_BATCH,
    Stats,
    blas_summary,
    limit_blas,
    loadavg,
    machine_info,
    make_corpus,
    progress,
    run_round_robin,
)


class LookupEmbedder:
    """The corpus's precomputed vectors, for facts and queries; any other text (the gate's care-domain
    prototypes) gets a fixed random vector of its own, never a model."""

    name = "bench-lookup"

    def __init__(self, texts: list[str], vectors: np.ndarray) -> None:
        self._vec = {t: vectors[i] for i, t in enumerate(texts)}

    def add(self, texts: list[str], vectors: np.ndarray) -> None:
        self._vec.update({t: vectors[i] for i, t in enumerate(texts)})

    def _get(self, text: str) -> np.ndarray:
        vec = self._vec.get(text)
        if vec is None:
            seed = int.from_bytes(text.encode("utf-8")[:8].ljust(8, b"\0"), "little") ^ len(text)
            vec = self._vec[text] = np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)
        return vec

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return np.stack([self._get(t) for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        return self._get(text)


def build(size: int, n_queries: int, store_kind: str, folder: Path) -> tuple[Any, Any, list[str]]:
    from memori_core import ChromaStore, RecallConfig, RecallEngine
    from memori_langchain import MemoriStore
    from memori_langchain.store import item_metadata

    corpus = make_corpus(size, n_queries, seed=11)
    embedder = LookupEmbedder(corpus.texts, corpus.vectors)
    embedder.add(corpus.queries, corpus.query_vectors)
    chroma = ChromaStore.in_memory() if store_kind == "memory" else ChromaStore(path=folder / "store")
    engine = RecallEngine(store=chroma, embedder=embedder, config=RecallConfig())
    now = datetime.now(timezone.utc)
    for start in range(0, size, INSERT_BATCH):
        stop = min(start + INSERT_BATCH, size)
        metas = [item_metadata({"content": corpus.texts[i], "kind": "even" if i % 2 == 0 else "odd", "i": i}, now)
                 for i in range(start, stop)]
        engine.add(ENTITY, corpus.texts[start:stop], ids=corpus.ids[start:stop],
                   created_at=corpus.created[start:stop], metadata=metas)
        progress(f"  added {stop:,} / {size:,} facts")
    store = MemoriStore(engine, namespace=("memories", "{user_id}"), fields=["content"])
    ns = ("memories", ENTITY)
    # The store's own write and read path agrees with the bulk-written items.
    probe = {"content": corpus.texts[0], "kind": "even", "i": 0}
    store.put(ns, corpus.ids[0], probe)
    item = store.get(ns, corpus.ids[0])
    assert item is not None and item.value == probe, item
    assert [i.key for i in store.search(ns, limit=3)] == corpus.ids[:3]
    return engine, store, corpus.queries


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=10_000, help="facts of the one entity (default 10000)")
    ap.add_argument("--queries", type=int, default=300, help="timed queries per method (default 300)")
    ap.add_argument("--limit", type=int, default=5, help="limit of every search / recall (default 5)")
    ap.add_argument("--chunk", type=int, default=25, help="queries per method per round (default 25)")
    ap.add_argument("--store", choices=("disk", "memory"), default="disk",
                    help="embedded Chroma in a temp folder (default) or ChromaStore.in_memory()")
    ap.add_argument("--blas-threads", type=int, default=None, help="pin numpy/FAISS BLAS to this many threads")
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="bench-store-") as tmp, limit_blas(args.blas_threads):
        progress(f"building {args.size:,} facts ({args.store} store)...")
        engine, store, queries = build(args.size, args.queries, args.store, Path(tmp))
        info = machine_info()  # after the libraries are loaded, so their BLAS pools are listed
        ns = ("memories", ENTITY)
        limit = args.limit
        where = {"langgraph_item": {"value": {"kind": "even"}}}
        filter_ = {"kind": "even"}
        ungated = type(store)(engine, namespace=("memories", "{user_id}"), fields=["content"], gate=False)
        engine_off = type(engine)(store=engine.store, embedder=engine.embedder,
                                  config=replace(engine.config, gate="off"))
        methods = {
            "engine.recall": lambda i: engine.recall(queries[i], ENTITY, limit),
            "MemoriStore.search": lambda i: store.search(ns, query=queries[i], limit=limit),
            "engine.recall (where=)": lambda i: engine.recall(queries[i], ENTITY, limit, where=where),
            "MemoriStore.search (filter=)": lambda i: store.search(ns, query=queries[i], limit=limit,
                                                                  filter=filter_),
            "engine.recall (gate=\"off\")": lambda i: engine_off.recall(queries[i], ENTITY, limit),
            "MemoriStore.search (gate=False)": lambda i: ungated.search(ns, query=queries[i], limit=limit),
            "engine.list (oldest first)": lambda i: engine.list(ENTITY, limit=limit, newest_first=False),
            "MemoriStore.search (no query)": lambda i: store.search(ns, limit=limit),
            "engine.list (offset < 1000)": lambda i: engine.list(ENTITY, limit=limit, offset=(i * 37) % 1000,
                                                                 newest_first=False),
            "MemoriStore.search (no query, offset < 1000)": lambda i: store.search(ns, limit=limit,
                                                                                  offset=(i * 37) % 1000),
        }
        # Same answers, then an untimed warm-up of every method (the first recall loads the entity's cache).
        for i in range(min(20, len(queries))):
            assert [h.id for h in engine.recall(queries[i], ENTITY, limit)] == \
                   [s.key for s in store.search(ns, query=queries[i], limit=limit)]
            assert [h.id for h in engine.recall(queries[i], ENTITY, limit, where=where)] == \
                   [s.key for s in store.search(ns, query=queries[i], limit=limit, filter=filter_)]
        for fn in methods.values():
            for i in range(min(25, len(queries))):
                fn(i)
        gc.collect()
        load_before = loadavg()
        timings = run_round_robin(methods, {name: len(queries) for name in methods}, args.chunk)
        load_after = loadavg()
        stats = {name: Stats.of(ns_) for name, ns_ in timings.items()}
        returned = {name: float(np.mean([len(fn(i)) for i in range(min(50, len(queries)))]))
                    for name, fn in methods.items()}

    argv_text = " ".join(sys.argv[1:] if argv is None else argv)
    print(f"Command: `{' '.join(['python benchmarks/bench_store.py', argv_text]).strip()}`")
    print()
    print(f"- {args.size:,} facts of one entity ({args.store} Chroma store), {len(queries)} queries per method, "
          f"limit={limit}, queries embedded by a lookup (no model in the loop)")
    print(f"- {info['processor']}, {info['usable_cores']} usable cores; Python {info['python']}, numpy "
          f"{info['numpy']}, chromadb {info['chromadb']}")
    print(f"- BLAS: {blas_summary(info)}")
    if args.blas_threads is not None:
        print(f"- BLAS pinned to {args.blas_threads} thread(s) (--blas-threads)")
    print(f"- load average before / after timing: {load_before} | {load_after}")
    print()
    print("| method | median (ms) | p95 (ms) | mean (ms) | results | median vs its engine call |")
    print("|---|---:|---:|---:|---:|---:|")
    base = {"MemoriStore.search": "engine.recall", "MemoriStore.search (filter=)": "engine.recall (where=)",
            "MemoriStore.search (gate=False)": 'engine.recall (gate="off")',
            "MemoriStore.search (no query)": "engine.list (oldest first)",
            "MemoriStore.search (no query, offset < 1000)": "engine.list (offset < 1000)"}
    for name, s in stats.items():
        ref = base.get(name)
        ratio = f"{s.median_ms / stats[ref].median_ms - 1:+.1%}" if ref else "-"
        print(f"| {name} | {s.median_ms:.3f} | {s.p95_ms:.3f} | {s.mean_ms:.3f} | {returned[name]:.1f} | {ratio} |")
    if args.json:
        args.json.write_text(json.dumps({"machine": info, "stats": {k: vars(v) for k, v in stats.items()}},
                                        indent=1, default=str))


if __name__ == "__main__":
    main()
