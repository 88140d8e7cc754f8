"""Bulk writes: ``RecallEngine.add`` with vectors given, beside Chroma alone doing the same writes.

The facts are bench_recall.py's (``make_corpus`` in ``_common.py``), one entity,
added in calls of ``INSERT_BATCH`` facts with created times and session ids, into
an embedded store in a new folder per build. Systems, interleaved round by round
(the order rotates each round):

- ``chromadb: embeddings only``: ids and embeddings, nothing else (what any
  store of the vectors costs).
- ``chromadb: per-key layout``: ids, embeddings, documents and the metadata as
  memori-recall wrote it before the packed layout (twelve keys per fact).
- ``chromadb: record + document``: the entity and one JSON record as metadata,
  the text as the Chroma document (which feeds Chroma's full-text index).
- ``chromadb: memori-recall layout``: ids, embeddings and the metadata exactly
  as ``ChromaStore`` writes them (the entity and one JSON record holding the
  text; no document): the floor under the engine.
- ``memori-recall add``: the engine, everything included (validation, ids,
  the already-stored lookup, the revision, the cache update).

Chroma writes go through the same collection settings and two writer threads
as ``ChromaStore``. Wall time and process CPU time (all threads) are reported;
on a busy machine the CPU time is the steadier figure.

    python benchmarks/bench_writes.py                       # 10k and 100k, one round
    python benchmarks/bench_writes.py --sizes 10000 --rounds 3
"""

from __future__ import annotations

import argparse
import gc
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (  # noqa: E402
    ENTITY,
    INSERT_BATCH,
    SESSION_SIZE,
    Corpus,
    blas_summary,
    loadavg,
    machine_info,
    make_corpus,
    progress,
)

Build = Callable[[Corpus, Path], None]


def _collection(folder: Path):  # type: ignore[no-untyped-def]
    import chromadb

    from memori_core.store import chroma as store_module
    from memori_core.store.chroma_client import chroma_settings

    client = chromadb.PersistentClient(path=str(folder), settings=chroma_settings())
    return client, client.get_or_create_collection(
        store_module.DEFAULT_COLLECTION, embedding_function=None, metadata=dict(store_module._HNSW)
    )


def _chroma_build(meta_of: Callable[[Corpus, int], dict] | None, documents: bool) -> Build:
    from memori_core.store import chroma_writes
    from memori_core.store.chroma_records import chroma_id

    def build(c: Corpus, folder: Path) -> None:
        client, col = _collection(folder)

        def write(start: int) -> None:
            rows = range(start, min(start + INSERT_BATCH, len(c.texts)))
            kwargs = {
                "ids": [chroma_id(ENTITY, c.ids[i]) for i in rows],
                "embeddings": c.vectors[rows.start : rows.stop],
            }
            if documents:
                kwargs["documents"] = c.texts[rows.start : rows.stop]
            if meta_of is not None:
                kwargs["metadatas"] = [meta_of(c, i) for i in rows]
            col.upsert(**kwargs)

        with ThreadPoolExecutor(chroma_writes._WRITE_THREADS) as pool:
            list(pool.map(write, range(0, len(c.texts), INSERT_BATCH)))
        client.close()

    return build


def _per_key_meta(c: Corpus, i: int) -> dict:
    ts = 1704067200.0 + 60 * i
    return {"entity_id": ENTITY, "fact_id": c.ids[i], "times_seen": 1, "seq": 0,
            "session_id": f"s{i // SESSION_SIZE}", "created_at": c.created[i], "created_ts": ts,
            "last_seen": c.created[i], "last_seen_ts": ts, "updated_at": "", "expires_at": "",
            "metadata_json": "{}"}


def _packed_meta(c: Corpus, i: int) -> dict:
    from memori_core import StoredFact
    from memori_core.store.chroma_records import pack

    return pack(StoredFact(id=c.ids[i], entity_id=ENTITY, content=c.texts[i], created_at=c.created[i],
                            last_seen=c.created[i], session_id=f"s{i // SESSION_SIZE}"))


def _record_without_text(c: Corpus, i: int) -> dict:
    from memori_core.store.chroma_records import FACT_KEY

    meta = _packed_meta(c, i)
    record = json.loads(meta[FACT_KEY])
    del record["text"]
    return {**meta, FACT_KEY: json.dumps(record, ensure_ascii=False, separators=(",", ":"))}


def _engine_build(c: Corpus, folder: Path) -> None:
    from memori_core import ChromaStore, RecallConfig, RecallEngine

    rows = {t: i for i, t in enumerate(c.texts)}
    store = ChromaStore(path=folder, snapshots=False)
    engine = RecallEngine(store=store, embedder=lambda texts: c.vectors[[rows[t] for t in texts]],
                          config=RecallConfig())
    for start in range(0, len(c.texts), INSERT_BATCH):
        stop = min(start + INSERT_BATCH, len(c.texts))
        engine.add(ENTITY, c.texts[start:stop], ids=c.ids[start:stop], created_at=c.created[start:stop],
                   session_id=[f"s{i // SESSION_SIZE}" for i in range(start, stop)])
    assert engine.count(ENTITY) == len(c.texts)
    store.close()


SYSTEMS: dict[str, Build] = {
    "chromadb: embeddings only": _chroma_build(None, documents=False),
    "chromadb: per-key layout": _chroma_build(_per_key_meta, documents=True),
    "chromadb: record + document": _chroma_build(_record_without_text, documents=True),
    "chromadb: memori-recall layout": _chroma_build(_packed_meta, documents=False),
    "memori-recall add": _engine_build,
}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,100000", help="comma-separated fact counts")
    ap.add_argument("--rounds", type=int, default=1, help="builds per system and size (median reported)")
    ap.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated subset of: " + ", ".join(SYSTEMS))
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    names = [s.strip() for s in args.systems.split(",") if s.strip()]
    unknown = [n for n in names if n not in SYSTEMS]
    if unknown:
        ap.error(f"--systems: unknown {unknown}; choose from {list(SYSTEMS)}")
    info = machine_info()
    results: dict[tuple[int, str], list[tuple[float, float]]] = {}
    loads: list[str] = []
    for n in sizes:
        corpus = make_corpus(n, 1, seed=7)
        loads.append(loadavg())
        for r in range(args.rounds):
            order = names[r % len(names):] + names[: r % len(names)]
            for name in order:
                folder = Path(tempfile.mkdtemp(prefix="bench-writes-"))
                gc.collect()
                wall, cpu = time.perf_counter(), time.process_time()
                try:
                    SYSTEMS[name](corpus, folder)
                finally:
                    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                    shutil.rmtree(folder, ignore_errors=True)
                results.setdefault((n, name), []).append((wall, cpu))
                progress(f"{n:>7,} facts  {name:<28} {wall:7.2f} s wall  {cpu:7.2f} s CPU")
        loads.append(loadavg())

    print("Command: `python benchmarks/bench_writes.py " + " ".join(sys.argv[1:] if argv is None else argv) + "`")
    print()
    print(f"- chromadb {info['chromadb']}, {info['logical_cores']} logical cores; BLAS: {blas_summary(info)}")
    print(f"- load average before/after each size: {' | '.join(loads)}")
    print(f"- {INSERT_BATCH}-fact calls, {args.rounds} round(s), median of the rounds")
    print()
    print("| facts | system | wall (s) | CPU (s) | wall / layout floor |")
    print("|---:|---|---:|---:|---:|")
    for n in sizes:
        floor = results.get((n, "chromadb: memori-recall layout"))
        floor_wall = statistics.median(w for w, _ in floor) if floor else None
        for name in names:
            runs = results[(n, name)]
            wall = statistics.median(w for w, _ in runs)
            cpu = statistics.median(c for _, c in runs)
            ratio = f"{wall / floor_wall:.2f}x" if floor_wall else "-"
            print(f"| {n:,} | {name} | {wall:.2f} | {cpu:.2f} | {ratio} |")
    if args.json:
        args.json.write_text(json.dumps({f"{n}:{name}": runs for (n, name), runs in results.items()}, indent=1))


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
