"""Memory of a process that makes in-memory stores one after another, as a test suite or a per-request service does.

Each round makes ``ChromaStore.in_memory()``, writes ``--facts`` facts through ``RecallEngine.add`` (a
deterministic word-hashing embedder, so no model is loaded), recalls once, then lets the engine go
(``--release gc``: dropped and garbage-collected; ``close``: ``store.close()`` first). The resident set
size is printed every ``--every`` rounds. Chroma's in-memory stores share one system, which frees nothing
when a collection is dropped; memori-recall closes each store's own client when the store is released, so
the process stays the size of the stores alive at once (docs/stores.md).

    python benchmarks/in_memory_stores.py                    # 300 stores of 300 facts
    python benchmarks/in_memory_stores.py --release close --stores 100
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine_info, machine_line, rss_mb  # noqa: E402
from _helpers import HashEmbedder  # noqa: E402

from memori_core import ChromaStore, RecallEngine  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stores", type=int, default=300)
    parser.add_argument("--facts", type=int, default=300)
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--release", choices=("gc", "close"), default="gc")
    args = parser.parse_args()
    info = machine_info()
    print(machine_line(info))
    print(f"chromadb {info['chromadb']}; {args.stores} in-memory stores of {args.facts} facts, released by {args.release}")
    facts = [f"User fact number {i} about topic {i % 17}." for i in range(args.facts)]
    start = rss_mb()
    print(f"| stores made | RSS (MB) | ms per store |\n|---|---|---|\n| 0 | {start:.0f} | |")
    t0 = time.perf_counter()
    for r in range(1, args.stores + 1):
        store = ChromaStore.in_memory()
        engine = RecallEngine(store=store, embedder=HashEmbedder())
        engine.add("u", facts)
        engine.recall("topic 3", "u")
        if args.release == "close":
            store.close()
        del engine, store
        gc.collect()
        if r % args.every == 0 or r == args.stores:
            ms = (time.perf_counter() - t0) / r * 1000
            print(f"| {r} | {rss_mb():.0f} | {ms:.1f} |", flush=True)


if __name__ == "__main__":
    main()
