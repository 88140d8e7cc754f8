"""Standalone reproducer (chromadb only, no memori_core) of the SIGSEGV in chromadb's Rust bindings.

The crash is in the HNSW build of an in-memory (EphemeralClient) collection: a
rayon worker of chromadb_rust_bindings (its Linux thread name is inherited,
"tokio-rt-worker") faults in hnswlib's search during ``addPoint`` while it
applies an upsert; the Python thread waits in ``chromadb/api/rust.py _upsert``.
It needs earlier deletes in the same collection, and a heap shared with other
threads: glibc gives each thread its own malloc arena up to 8 per core, so in a
fresh process chromadb's threads get fresh arenas and it almost never happens.
The test suite reached the shared-arena state through the ~50 threads that
tests/test_lost_replies.py leaves behind; ``MALLOC_ARENA_MAX=1`` gets the same
state at once, which is why this script re-runs itself with it.

Usage::

    python benchmarks/chroma_segfault_repro.py [ROUNDS] [ROWS] [M] [DELETE]

defaults 60 rounds of 300 rows, hnsw:M=4, DELETE=where (also: ids, none).
Each round upserts ROWS new 16-dim vectors under a new entity id and then
deletes them. Exit status 139 (or "Fatal Python error: Segmentation fault")
means it crashed; a normal end prints "ok".
"""

from __future__ import annotations

import faulthandler
import os
import sys
import time
import uuid

if os.environ.get("MALLOC_ARENA_MAX") is None:  # must be set before the process starts
    os.environ["MALLOC_ARENA_MAX"] = "1"
    os.execv(sys.executable, [sys.executable, *sys.argv])

import numpy as np  # noqa: E402

import chromadb  # noqa: E402
from chromadb.config import Settings  # noqa: E402


def main() -> None:
    faulthandler.enable()
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    m = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    delete = sys.argv[4] if len(sys.argv) > 4 else "where"
    rng = np.random.default_rng()
    client = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False, allow_reset=False))
    col = client.get_or_create_collection(
        f"repro_{uuid.uuid4().hex}",
        embedding_function=None,
        metadata={"hnsw:space": "cosine", "hnsw:construction_ef": 10, "hnsw:M": m},
    )
    started = time.monotonic()
    for r in range(rounds):
        entity = f"e{r}"
        ids = [f"{entity}:{i}" for i in range(rows)]
        col.upsert(
            ids=ids,
            embeddings=rng.standard_normal((rows, 16)).astype(np.float32),
            metadatas=[{"entity_id": entity}] * rows,
        )
        if delete == "where":
            col.delete(where={"entity_id": entity})
        elif delete == "ids":
            col.delete(ids=ids)
    print(f"ok: {rounds} rounds of {rows} rows, M={m}, delete={delete}, "
          f"MALLOC_ARENA_MAX={os.environ['MALLOC_ARENA_MAX']}, {time.monotonic() - started:.1f} s", flush=True)


if __name__ == "__main__":
    main()
