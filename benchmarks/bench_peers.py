"""memori-recall against the hybrid retrievers a user would pick instead, and the numpy floor.

Systems (all over the same facts of one entity, all given the same precomputed
384-d vectors, so no embedding model runs at build or query time):

- ``numpy floor``: ``M @ q`` + ``np.argpartition`` top-50 on the L2-normalised
  float32 matrix, the least any exact dense search pays;
- ``memori-recall``: ``RecallEngine.recall(limit=5, query_vector=...)`` with the
  default ``RecallConfig()``, over an embedded ``ChromaStore`` folder;
- ``LangChain Ensemble``: ``EnsembleRetriever`` (langchain-classic) fusing
  langchain-community's ``BM25Retriever`` (rank_bm25) and a ``FAISS``
  vector store retriever by reciprocal rank;
- ``LlamaIndex Fusion``: ``QueryFusionRetriever`` (reciprocal rerank, one query,
  no query generation) fusing llama-index-retrievers-bm25's ``BM25Retriever``
  (bm25s) and a ``VectorStoreIndex`` retriever over ``FaissVectorStore``;
- ``Memori 3.3.6``: upstream ``memori.search.search_facts`` over all rows
  (``embeddings_limit`` = number of facts) with the in-memory driver of
  ``_memori_upstream.py`` (no database time counted).

The peers get their vectors through real framework embedding classes
(a LangChain ``Embeddings`` and a LlamaIndex ``BaseEmbedding`` subclass) that
look the precomputed vector up by its text. Every hybrid system takes 50
candidates from each branch (memori-recall's pool for ``limit=5``) and
returns 5.

For each size the benchmark builds every system (timed, persistence
included), times warm queries with all systems interleaved (each bounded by a
time budget, so slow ones time fewer queries), then closes them and starts a
fresh process per system that opens the persisted state and answers a first
query (timed) and a few more (for the RSS reading).

    python benchmarks/bench_peers.py --quick          # 1k and 10k facts
    python benchmarks/bench_peers.py                  # 1k, 10k and 100k facts (long: see --budget)
    python benchmarks/bench_peers.py --sizes 10000 --json peers.json --plot benchmarks/peers.png
    python benchmarks/bench_peers.py --blas-threads 0 # BLAS threads as configured (default: pinned to 1)
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import pickle
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

# Only numpy and the standard library so far: a fresh process measuring one
# system imports that system's libraries itself, after its RSS baseline.
from _common import (  # noqa: E402
    DIM,
    ENTITY,
    FLOOR_K,
    Corpus,
    Stats,
    add_corpus,
    blas_summary,
    fact_embedder,
    limit_blas,
    loadavg,
    machine_info,
    machine_line,
    make_corpus,
    progress,
    rss_mb,
    run_round_robin,
    size_list,
    snapshot_files,
)
from _common import add_size_args, add_timing_args, bench_parser  # noqa: E402 - the command line

LIMIT = 5  # facts returned per query
BRANCH_K = 50  # candidates per branch (dense, BM25) of the hybrid peers: memori-recall's pool for limit=5

FLOOR = "numpy floor"
MEMORI_RECALL = "memori-recall"
LANGCHAIN = "LangChain Ensemble"
LLAMAINDEX = "LlamaIndex Fusion"
MEMORI = "Memori 3.3.6"
NO_SNAPSHOT = "memori-recall, no snapshot"  # fresh-process variant only
SYSTEMS = (FLOOR, MEMORI_RECALL, LANGCHAIN, LLAMAINDEX, MEMORI)
KEYS = {FLOOR: "floor", MEMORI_RECALL: "memori-recall", LANGCHAIN: "langchain", LLAMAINDEX: "llamaindex",
        MEMORI: "memori", NO_SNAPSHOT: "memori-recall-nosnap"}
BY_KEY = {v: k for k, v in KEYS.items()}

README_BEGIN = "<!-- bench_peers results: begin (written by bench_peers.py --readme) -->"
README_END = "<!-- bench_peers results: end -->"


# --------------------------------------------------------------------------
# Precomputed vectors, looked up by text


class VectorTable:
    """Text -> L2-normalised float32 vector, for the embedding classes the peers are given."""

    def __init__(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        self.rows = {t: i for i, t in enumerate(texts)}
        self.matrix = normalise(vectors)

    def one(self, text: str) -> list[float]:
        return self.matrix[self.rows[text]].tolist()

    def many(self, texts: Sequence[str]) -> list[list[float]]:
        rows = self.rows
        return self.matrix[[rows[t] for t in texts]].tolist()


def normalise(vectors: np.ndarray) -> np.ndarray:
    v = np.asarray(vectors, dtype=np.float32)
    return np.ascontiguousarray(v / np.linalg.norm(v, axis=-1, keepdims=True), dtype=np.float32)


def langchain_embeddings(facts: VectorTable | None, queries: VectorTable) -> Any:
    """A LangChain ``Embeddings`` that answers from the tables (defined here so that importing langchain is lazy)."""
    from langchain_core.embeddings import Embeddings

    class PrecomputedEmbeddings(Embeddings):
        """Looks each text's precomputed vector up: documents in the fact table, queries in the query table."""

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            if facts is None:
                raise KeyError("no fact vectors in this process")
            return facts.many(texts)

        def embed_query(self, text: str) -> list[float]:
            return queries.one(text)

    return PrecomputedEmbeddings()


def llamaindex_embedding(facts: VectorTable | None, queries: VectorTable) -> Any:
    """A LlamaIndex ``BaseEmbedding`` that answers from the tables."""
    from llama_index.core.embeddings import BaseEmbedding

    class PrecomputedEmbedding(BaseEmbedding):
        """Looks each text's precomputed vector up: texts in the fact table, queries in the query table."""

        @classmethod
        def class_name(cls) -> str:
            return "PrecomputedEmbedding"

        def _get_query_embedding(self, query: str) -> list[float]:
            return queries.one(query)

        async def _aget_query_embedding(self, query: str) -> list[float]:
            return queries.one(query)

        def _get_text_embedding(self, text: str) -> list[float]:
            if facts is None:
                raise KeyError("no fact vectors in this process")
            return facts.one(text)

        def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
            if facts is None:
                raise KeyError("no fact vectors in this process")
            return facts.many(texts)

    return PrecomputedEmbedding(model_name="precomputed")


def _quiet_langchain_community() -> None:
    warnings.filterwarnings("ignore", message=".*langchain-community.*", category=DeprecationWarning)


# --------------------------------------------------------------------------
# Systems. Each one: imports (its libraries), build (in the benchmark process,
# persisted to `folder`), open (in a fresh process, from `folder`), query.


@dataclass
class Data:
    """What a system is built from and queried with (query i = texts[i] / vectors[i])."""

    corpus: Corpus
    facts: VectorTable
    queries: VectorTable
    query_texts: list[str]
    query_vectors: np.ndarray  # raw, as generated (memori-recall and Memori normalise themselves)


class System:
    name = ""

    def imports(self) -> None:
        """Import the libraries this system needs (timed separately from the first recall)."""

    def build(self, data: Data, folder: Path) -> None:
        """Make the system queryable in this process and persist it to ``folder``."""
        raise NotImplementedError

    def open(self, folder: Path, queries: VectorTable, query_texts: list[str], query_vectors: np.ndarray) -> None:
        """Load the persisted system in a fresh process."""
        raise NotImplementedError

    def query(self, i: int) -> list[str]:
        """Ids of the ``LIMIT`` best facts for query ``i``."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the system (and write what its store writes on close)."""


class Floor(System):
    name = FLOOR

    def build(self, data: Data, folder: Path) -> None:
        self.matrix = normalise(data.corpus.vectors)
        self.q = normalise(data.query_vectors)
        self.ids = data.corpus.ids
        np.save(folder / "matrix.npy", self.matrix)

    def open(self, folder: Path, queries: VectorTable, query_texts: list[str], query_vectors: np.ndarray) -> None:
        self.matrix = np.load(folder / "matrix.npy")
        self.q = normalise(query_vectors)
        self.ids = None

    def query(self, i: int) -> list[str]:
        n = self.matrix.shape[0]
        k = min(FLOOR_K, n)
        scores = self.matrix @ self.q[i]
        top = np.argpartition(scores, n - k)[n - k :]
        best = top[np.argsort(-scores[top])[:LIMIT]]
        return [self.ids[j] for j in best] if self.ids is not None else [str(j) for j in best]


class MemoriRecall(System):
    name = MEMORI_RECALL
    snapshots = True

    def imports(self) -> None:
        import chromadb  # noqa: F401 - ChromaStore imports it on open; counted with the imports like the peers'

        import memori_core  # noqa: F401

    def build(self, data: Data, folder: Path) -> None:
        from memori_core import ChromaStore, RecallConfig, RecallEngine

        self.store = ChromaStore(path=folder / "chroma")
        self.engine = RecallEngine(store=self.store, embedder=fact_embedder(data.corpus), config=RecallConfig())
        add_corpus(self.engine, data.corpus)
        self.texts, self.vectors = data.query_texts, data.query_vectors

    def open(self, folder: Path, queries: VectorTable, query_texts: list[str], query_vectors: np.ndarray) -> None:
        from memori_core import ChromaStore, RecallConfig, RecallEngine

        self.store = ChromaStore(path=folder / "chroma", snapshots=self.snapshots)
        self.engine = RecallEngine(store=self.store, embedder=lambda texts: None, config=RecallConfig())
        self.texts, self.vectors = query_texts, query_vectors

    def query(self, i: int) -> list[str]:
        return [f.id for f in self.engine.recall(self.texts[i], ENTITY, limit=LIMIT, query_vector=self.vectors[i])]

    def from_snapshot(self) -> bool:
        files = snapshot_files(self.store)
        return bool(files is not None and files.loaded)

    def close(self) -> None:
        self.store.close()  # an embedded store writes the entity's snapshot here (if it has none yet)


class MemoriRecallNoSnapshot(MemoriRecall):
    name = NO_SNAPSHOT
    snapshots = False


class LangChainEnsemble(System):
    name = LANGCHAIN

    def imports(self) -> None:
        _quiet_langchain_community()
        import faiss  # noqa: F401
        from langchain_classic.retrievers import EnsembleRetriever  # noqa: F401
        from langchain_community.retrievers import BM25Retriever  # noqa: F401
        from langchain_community.vectorstores import FAISS  # noqa: F401
        from langchain_core.documents import Document  # noqa: F401

    def _ensemble(self, bm25: Any, vectors: Any) -> Any:
        from langchain_classic.retrievers import EnsembleRetriever

        return EnsembleRetriever(retrievers=[bm25, vectors.as_retriever(search_kwargs={"k": BRANCH_K})],
                                 weights=[0.5, 0.5])

    def build(self, data: Data, folder: Path) -> None:
        from langchain_community.retrievers import BM25Retriever
        from langchain_community.vectorstores import FAISS
        from langchain_core.documents import Document

        c = data.corpus
        docs = [Document(page_content=t, metadata={"fact_id": i, "created_at": d}, id=i)
                for t, i, d in zip(c.texts, c.ids, c.created)]
        vectors = FAISS.from_documents(docs, langchain_embeddings(data.facts, data.queries), ids=c.ids)
        bm25 = BM25Retriever.from_documents(docs, k=BRANCH_K)
        vectors.save_local(str(folder / "faiss"))
        with open(folder / "bm25.pkl", "wb") as f:  # BM25Retriever has no save method: pickle is the way to keep it
            pickle.dump(bm25, f, protocol=pickle.HIGHEST_PROTOCOL)
        self.retriever = self._ensemble(bm25, vectors)
        self.texts = data.query_texts

    def open(self, folder: Path, queries: VectorTable, query_texts: list[str], query_vectors: np.ndarray) -> None:
        from langchain_community.vectorstores import FAISS

        vectors = FAISS.load_local(str(folder / "faiss"), langchain_embeddings(None, queries),
                                   allow_dangerous_deserialization=True)  # our own pickle
        with open(folder / "bm25.pkl", "rb") as f:
            bm25 = pickle.load(f)  # noqa: S301 - our own file
        self.retriever = self._ensemble(bm25, vectors)
        self.texts = query_texts

    def query(self, i: int) -> list[str]:
        return [d.metadata["fact_id"] for d in self.retriever.invoke(self.texts[i])[:LIMIT]]


class LlamaIndexFusion(System):
    name = LLAMAINDEX

    def imports(self) -> None:
        import faiss  # noqa: F401
        from llama_index.core import StorageContext, VectorStoreIndex, load_index_from_storage  # noqa: F401
        from llama_index.core.llms import MockLLM  # noqa: F401
        from llama_index.core.retrievers import QueryFusionRetriever  # noqa: F401
        from llama_index.core.schema import TextNode  # noqa: F401
        from llama_index.retrievers.bm25 import BM25Retriever  # noqa: F401
        from llama_index.vector_stores.faiss import FaissVectorStore  # noqa: F401

    def _fusion(self, index: Any, bm25: Any) -> Any:
        from llama_index.core.llms import MockLLM
        from llama_index.core.retrievers import QueryFusionRetriever

        return QueryFusionRetriever(
            [index.as_retriever(similarity_top_k=BRANCH_K), bm25],
            similarity_top_k=LIMIT,
            num_queries=1,  # no LLM query generation (the LLM is never called; MockLLM only avoids resolving OpenAI)
            mode="reciprocal_rerank",
            use_async=False,  # both retrievers are in-process and CPU-bound: an event loop per query adds only overhead
            llm=MockLLM(),
        )

    def build(self, data: Data, folder: Path) -> None:
        import faiss
        from llama_index.core import StorageContext, VectorStoreIndex
        from llama_index.core.schema import TextNode
        from llama_index.retrievers.bm25 import BM25Retriever
        from llama_index.vector_stores.faiss import FaissVectorStore

        c = data.corpus
        nodes = [TextNode(id_=i, text=t, metadata={"created_at": d}, excluded_embed_metadata_keys=["created_at"],
                          excluded_llm_metadata_keys=["created_at"])
                 for t, i, d in zip(c.texts, c.ids, c.created)]
        storage = StorageContext.from_defaults(vector_store=FaissVectorStore(faiss_index=faiss.IndexFlatL2(DIM)))
        index = VectorStoreIndex(nodes, storage_context=storage,
                                 embed_model=llamaindex_embedding(data.facts, data.queries))
        bm25 = BM25Retriever.from_defaults(nodes=nodes, similarity_top_k=BRANCH_K)
        index.storage_context.persist(persist_dir=str(folder / "storage"))
        bm25.persist(str(folder / "bm25"))
        self.retriever = self._fusion(index, bm25)
        self.texts = data.query_texts

    def open(self, folder: Path, queries: VectorTable, query_texts: list[str], query_vectors: np.ndarray) -> None:
        from llama_index.core import StorageContext, load_index_from_storage
        from llama_index.retrievers.bm25 import BM25Retriever
        from llama_index.vector_stores.faiss import FaissVectorStore

        persist = str(folder / "storage")
        storage = StorageContext.from_defaults(vector_store=FaissVectorStore.from_persist_dir(persist),
                                               persist_dir=persist)
        index = load_index_from_storage(storage, embed_model=llamaindex_embedding(None, queries))
        bm25 = BM25Retriever.from_persist_dir(str(folder / "bm25"))
        self.retriever = self._fusion(index, bm25)
        self.texts = query_texts

    def query(self, i: int) -> list[str]:
        return [r.node.node_id for r in self.retriever.retrieve(self.texts[i])]


class MemoriUpstream(System):
    name = MEMORI

    def imports(self) -> None:
        from _memori_upstream import load_memori_search

        self.search_facts = load_memori_search().search_facts

    def _driver(self, ids: Sequence[str], texts: Sequence[str], created: Sequence[str], vectors: np.ndarray) -> None:
        from _memori_upstream import InMemoryFactDriver

        self.driver = InMemoryFactDriver(ids, texts, created, vectors)
        self.rows = len(ids)

    def build(self, data: Data, folder: Path) -> None:
        c = data.corpus
        # Memori's SQL order is most recent first; our rows were created oldest first.
        ids, texts, created, vectors = c.ids[::-1], c.texts[::-1], c.created[::-1], c.vectors[::-1]
        self._driver(ids, texts, created, vectors)
        np.savez(folder / "memori.npz", ids=np.asarray(ids), texts=np.asarray(texts), created=np.asarray(created),
                 vectors=vectors)
        self._queries(data.query_texts, data.query_vectors)

    def open(self, folder: Path, queries: VectorTable, query_texts: list[str], query_vectors: np.ndarray) -> None:
        z = np.load(folder / "memori.npz", allow_pickle=False)
        self._driver(z["ids"].tolist(), z["texts"].tolist(), z["created"].tolist(), z["vectors"])
        self._queries(query_texts, query_vectors)

    def _queries(self, texts: list[str], vectors: np.ndarray) -> None:
        self.texts = texts
        self.lists = [v.tolist() for v in vectors]  # memori receives its embedder's list[float]

    def query(self, i: int) -> list[str]:
        found = self.search_facts(self.driver, entity_id=1, query_embedding=self.lists[i], limit=LIMIT,
                                  embeddings_limit=self.rows, query_text=self.texts[i])
        return [r.id for r in found]


CLASSES: dict[str, type[System]] = {
    FLOOR: Floor, MEMORI_RECALL: MemoriRecall, LANGCHAIN: LangChainEnsemble, LLAMAINDEX: LlamaIndexFusion,
    MEMORI: MemoriUpstream, NO_SNAPSHOT: MemoriRecallNoSnapshot,
}


# --------------------------------------------------------------------------
# One size


@dataclass
class SystemResult:
    system: str
    build_s: float = math.nan
    first_in_process_s: float = math.nan  # first query right after the build (loads caches)
    warm: Stats | None = None
    returned: float = 0.0  # facts returned per query (sanity)
    fresh: list[dict[str, Any]] = field(default_factory=list)  # one per fresh process


@dataclass
class SizeResult:
    facts: int
    systems: dict[str, SystemResult] = field(default_factory=dict)
    load_average: tuple[str, str] = ("?", "?")
    seconds: float = 0.0


def make_data(n: int, args: argparse.Namespace) -> Data:
    corpus = make_corpus(n, args.queries, args.seed)
    # The peers' embedders look a query's vector up by its text: where a query text repeats, every
    # system gets the vector of its first occurrence.
    first: dict[str, int] = {}
    for i, t in enumerate(corpus.queries):
        first.setdefault(t, i)
    qvecs = corpus.query_vectors[[first[t] for t in corpus.queries]]
    return Data(corpus, VectorTable(corpus.texts, corpus.vectors), VectorTable(corpus.queries, qvecs),
                list(corpus.queries), qvecs)


def bench_size(n: int, args: argparse.Namespace, root: Path) -> SizeResult:
    t_size = time.perf_counter()
    result = SizeResult(facts=n)
    load0 = loadavg()
    data = make_data(n, args)
    folder = root / f"facts-{n}"
    systems: dict[str, System] = {}
    for name in args.system_list:
        sub = folder / KEYS[name]
        sub.mkdir(parents=True, exist_ok=True)
        system = CLASSES[name]()
        system.imports()
        gc.collect()
        t = time.perf_counter()
        system.build(data, sub)
        built = time.perf_counter() - t
        t = time.perf_counter()
        system.query(0)
        first = time.perf_counter() - t
        systems[name] = system
        result.systems[name] = SystemResult(name, build_s=built, first_in_process_s=first)
        progress(f"  [{n:>7,} facts] {name}: built in {built:.1f} s, first query {first * 1000:.1f} ms")

    # Warm-up (not timed), then quotas from the budget: a system that is slow times fewer queries.
    nq = len(data.query_texts)
    quotas: dict[str, int] = {}
    for name, system in systems.items():
        ns = []
        t_start = time.perf_counter()
        for i in range(min(args.warmup, nq)):
            t = time.perf_counter_ns()
            system.query(nq - 1 - i)  # warm on the tail, time from the head
            ns.append(time.perf_counter_ns() - t)
            if len(ns) >= 3 and time.perf_counter() - t_start > args.budget / 10:
                break
        per_call = float(np.median(ns)) / 1e9 if ns else 1e-3
        quotas[name] = int(min(nq, max(args.min_queries, args.budget / max(per_call, 1e-9))))
    rounds = max(1, math.ceil(max(quotas.values()) / args.chunk))
    chunks = {name: max(1, math.ceil(q / rounds)) for name, q in quotas.items()}
    progress(f"  [{n:>7,} facts] timing, interleaved in {rounds} rounds: "
             + ", ".join(f"{name} x{quotas[name]}" for name in systems))
    gc.collect()
    timings = run_round_robin({name: s.query for name, s in systems.items()}, quotas, chunks)
    for name, ns in timings.items():
        result.systems[name].warm = Stats.of(ns)
    for name, system in systems.items():  # sanity, untimed: how many facts come back
        checked = min(nq, 20, max(3, quotas[name] // 4))
        result.systems[name].returned = sum(len(system.query(i)) for i in range(checked)) / checked
    for system in systems.values():
        system.close()
    del systems
    gc.collect()

    # Fresh processes: each opens what its system persisted and answers the first query.
    qfile = folder / "queries.npz"
    m = min(nq, args.fresh_queries + 1)
    np.savez(qfile, texts=np.asarray(data.query_texts[:m]), vectors=data.query_vectors[:m])
    fresh = list(args.system_list)
    if MEMORI_RECALL in fresh:
        fresh.insert(fresh.index(MEMORI_RECALL), NO_SNAPSHOT)
    for run in range(args.fresh_runs):
        for name in fresh:
            out = fresh_process(name, folder / KEYS[MEMORI_RECALL if name == NO_SNAPSHOT else name], qfile, args)
            result.systems.setdefault(name, SystemResult(name)).fresh.append(out)
            progress(f"  [{n:>7,} facts] fresh process {run + 1}/{args.fresh_runs} {name}: first recall "
                     f"{out['first_recall_s']:.3f} s (open {out['open_s']:.3f} s, imports {out['import_s']:.2f} s), "
                     f"RSS +{out['rss_growth_mb']:.0f} MB" + (f", from snapshot: {out['from_snapshot']}"
                                                              if "from_snapshot" in out else ""))
    result.load_average = (load0, loadavg())
    result.seconds = time.perf_counter() - t_size
    if not args.workdir:
        shutil.rmtree(folder, ignore_errors=True)
    return result


def fresh_process(name: str, folder: Path, qfile: Path, args: argparse.Namespace) -> dict[str, Any]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", KEYS[name], "--child-folder", str(folder),
           "--child-queries", str(qfile), "--blas-threads", str(args.blas_threads),
           "--fresh-budget", str(args.fresh_budget)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=3600, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"fresh process for {name} failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def child(args: argparse.Namespace) -> int:
    """One fresh process: imports, open the persisted system, first query, a few more; one JSON line out."""
    z = np.load(args.child_queries, allow_pickle=False)
    texts = [str(t) for t in z["texts"]]
    vectors = z["vectors"]
    queries = VectorTable(texts, vectors)  # the embedding model's stand-in: not counted
    name = BY_KEY[args.child]
    system = CLASSES[name]()
    gc.collect()
    rss0 = rss_mb()
    t = time.perf_counter()
    system.imports()
    import_s = time.perf_counter() - t
    gc.collect()
    rss_imports = rss_mb() - rss0
    # Pin after the imports, so every BLAS/OpenMP pool the system loaded is pinned.
    limiter = None
    if args.blas_threads:
        from threadpoolctl import threadpool_limits

        limiter = threadpool_limits(limits=args.blas_threads)
    t = time.perf_counter()
    system.open(Path(args.child_folder), queries, texts, vectors)
    open_s = time.perf_counter() - t
    t = time.perf_counter()
    first = system.query(0)
    first_s = time.perf_counter() - t
    out: dict[str, Any] = {"system": name, "import_s": import_s, "open_s": open_s, "first_query_s": first_s,
                           "first_recall_s": open_s + first_s, "first_ids": first, "rss_imports_mb": rss_imports}
    if isinstance(system, MemoriRecall):
        out["from_snapshot"] = system.from_snapshot()
    gc.collect()
    out["rss_after_first_mb"] = rss_mb() - rss0
    ns = []
    t_warm = time.perf_counter()
    for i in range(1, len(texts)):
        t = time.perf_counter_ns()
        system.query(i)
        ns.append(time.perf_counter_ns() - t)
        if time.perf_counter() - t_warm > args.fresh_budget:
            break
    gc.collect()
    out["rss_growth_mb"] = rss_mb() - rss0
    out["warm"] = asdict(Stats.of(ns)) if ns else None
    try:
        from threadpoolctl import threadpool_info

        out["blas_threads"] = sorted({f"{p.get('internal_api')}={p.get('num_threads')}" for p in threadpool_info()})
    except ImportError:
        pass
    system.close()
    if limiter is not None:
        limiter.restore_original_limits()
    print(json.dumps(out))
    return 0


# --------------------------------------------------------------------------
# Report


def _median(values: Sequence[float]) -> float:
    vals = [v for v in values if v is not None and not math.isnan(v)]
    return statistics.median(vals) if vals else math.nan


def fresh_summary(r: SystemResult) -> dict[str, float]:
    """Medians over the fresh processes of one system at one size."""
    f = r.fresh
    return {
        "runs": len(f),
        "import_s": _median([x["import_s"] for x in f]),
        "open_s": _median([x["open_s"] for x in f]),
        "first_query_s": _median([x["first_query_s"] for x in f]),
        "first_recall_s": _median([x["first_recall_s"] for x in f]),
        "first_recall_min_s": min((x["first_recall_s"] for x in f), default=math.nan),
        "first_recall_max_s": max((x["first_recall_s"] for x in f), default=math.nan),
        "rss_imports_mb": _median([x["rss_imports_mb"] for x in f]),
        "rss_growth_mb": _median([x["rss_growth_mb"] for x in f]),
        "warm_median_ms": _median([x["warm"]["median_ms"] for x in f if x.get("warm")]),
    }


def _num(x: float, fmt: str) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, fmt)


def _ms(x: float) -> str:
    if x is None or math.isnan(x):
        return "-"
    return f"{x:.3f}" if x < 1 else f"{x:.2f}" if x < 100 else f"{x:,.0f}"


def render(results: list[SizeResult], info: dict[str, Any], args: argparse.Namespace, command: str) -> str:
    lines: list[str] = []
    add = lines.append
    add(f"Command: `{command}`")
    add("")
    add(f"- machine: {machine_line(info)}")
    add(f"- BLAS as timed: {blas_summary(info)}; "
        f"{'pinned with threadpoolctl to ' + str(args.blas_threads) + ' thread(s)' if args.blas_threads else 'threads as configured (--blas-threads 0)'}"
        f", in the fresh processes too; OPENBLAS_CORETYPE={info['OPENBLAS_CORETYPE']!s}")
    add("- versions: " + ", ".join(f"{k} {v}" for k, v in info["versions"].items()))
    loads = "; ".join(f"{r.facts:,}: {r.load_average[0]} -> {r.load_average[1]}" for r in results)
    add(f"- load average (1/5/15 min) at the start and end of each size: {loads} "
        "(2 cores shared with other jobs: p95 and single fresh-process readings are noisy)")
    add(f"- {args.queries} queries per size, {args.warmup} untimed warm-up calls, a {args.budget:.0f} s timing budget "
        f"per system and size (at least {args.min_queries} queries), systems interleaved in rounds; "
        f"{args.fresh_runs} fresh process(es) per system and size (medians shown)")
    add("")
    add("| facts | system | warm median (ms) | p95 (ms) | median / floor | build (s) | first query after build (s) "
        "| first recall, new process (s) | RSS growth, new process (MB) | queries timed |")
    add("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        floor = r.systems.get(FLOOR)
        fm = floor.warm.median_ms if floor and floor.warm else math.nan
        for name in SYSTEMS:
            s = r.systems.get(name)
            if s is None or s.warm is None:
                continue
            fr = fresh_summary(s)
            ratio = s.warm.median_ms / fm if fm == fm else math.nan
            add(f"| {r.facts:,} | {name} | {_ms(s.warm.median_ms)} | {_ms(s.warm.p95_ms)} | "
                f"{_num(ratio, '.1f')}x | {_num(s.build_s, '.2f')} | {_num(s.first_in_process_s, '.3f')} | "
                f"{_num(fr['first_recall_s'], '.3f')} | "
                f"{_num(fr['rss_growth_mb'], '.0f')} | {s.warm.queries} |")
    add("")
    add("New processes in detail (medians; imports are not in the first recall, their memory is in the RSS growth):")
    add("")
    add("| facts | system | imports (s) | open / load (s) | first query (s) | first recall (s), min-max "
        "| RSS after imports (MB) | RSS growth (MB) | warm median there (ms) |")
    add("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        for name in (FLOOR, NO_SNAPSHOT, MEMORI_RECALL, LANGCHAIN, LLAMAINDEX, MEMORI):
            s = r.systems.get(name)
            if s is None or not s.fresh:
                continue
            fr = fresh_summary(s)
            label = name + (" (from its snapshot)" if name == MEMORI_RECALL else "")
            add(f"| {r.facts:,} | {label} | {_num(fr['import_s'], '.2f')} | {_num(fr['open_s'], '.3f')} | "
                f"{_num(fr['first_query_s'], '.3f')} | {_num(fr['first_recall_s'], '.3f')}, "
                f"{_num(fr['first_recall_min_s'], '.3f')}-{_num(fr['first_recall_max_s'], '.3f')} | "
                f"{_num(fr['rss_imports_mb'], '.0f')} | {_num(fr['rss_growth_mb'], '.0f')} | "
                f"{_ms(fr['warm_median_ms'])} |")
    add("")
    odd = [(r.facts, n, s.returned) for r in results for n, s in r.systems.items() if s.warm and s.returned < LIMIT]
    if odd:
        add("Facts returned per query below " + str(LIMIT) + ": " + ", ".join(
            f"{name} at {facts:,}: {ret:.1f}" for facts, name, ret in odd) + " (memori-recall's relevance gate "
            "returns fewer facts when none is relevant enough; the others always return " + str(LIMIT) + ").")
        add("")
    return "\n".join(lines)


def plot(results: list[SizeResult], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.6))
    colours = {FLOOR: "#777777", MEMORI_RECALL: "#d62728", LANGCHAIN: "#1f77b4", LLAMAINDEX: "#2ca02c",
               MEMORI: "#9467bd"}
    sizes = [r.facts for r in results]
    for name in SYSTEMS:
        pts = [(r.facts, r.systems[name]) for r in results if name in r.systems and r.systems[name].warm]
        if not pts:
            continue
        xs = [p[0] for p in pts]
        med = [p[1].warm.median_ms for p in pts]
        p95 = [p[1].warm.p95_ms for p in pts]
        c = colours[name]
        axes[0].plot(xs, med, "o-", color=c, label=name)
        axes[0].plot(xs, p95, "v:", color=c, alpha=0.6)
        fr = [fresh_summary(p[1]) for p in pts]
        axes[1].plot(xs, [f["first_recall_s"] for f in fr], "o-", color=c, label=name)
        axes[2].plot(xs, [f["rss_growth_mb"] for f in fr], "o-", color=c, label=name)
    for name, style in ((NO_SNAPSHOT, "s--"),):
        pts = [(r.facts, r.systems[name]) for r in results if name in r.systems and r.systems[name].fresh]
        if pts:
            fr = [fresh_summary(p[1]) for p in pts]
            xs = [p[0] for p in pts]
            axes[1].plot(xs, [f["first_recall_s"] for f in fr], style, color=colours[MEMORI_RECALL], alpha=0.6,
                         label=name)
            axes[2].plot(xs, [f["rss_growth_mb"] for f in fr], style, color=colours[MEMORI_RECALL], alpha=0.6,
                         label=name)
    axes[0].set_title("warm query: median (solid), p95 (dotted)")
    axes[0].set_ylabel("ms")
    axes[1].set_title("first recall in a new process (open + query)")
    axes[1].set_ylabel("s")
    axes[2].set_title("RSS growth of that process (imports included)")
    axes[2].set_ylabel("MB")
    for ax in axes:
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xticks(sizes, [f"{s // 1000}k" if s >= 1000 else str(s) for s in sizes])
        ax.minorticks_off()
        ax.set_xlabel("facts (one entity)")
        ax.grid(True, which="major", alpha=0.3)
    axes[1].legend(fontsize=8)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_readme(path: Path, block: str) -> None:
    text = path.read_text()
    if README_BEGIN not in text or README_END not in text:
        raise SystemExit(f"{path} has no {README_BEGIN} ... {README_END} block to replace")
    head, rest = text.split(README_BEGIN, 1)
    _, tail = rest.split(README_END, 1)
    path.write_text(f"{head}{README_BEGIN}\n{block.strip()}\n{README_END}{tail}")


def write_json(path: Path, info: dict[str, Any], args: argparse.Namespace, results: list[SizeResult]) -> None:
    payload = {"machine": info, "settings": {k: v for k, v in vars(args).items() if not k.startswith("child")},
               "results": [asdict(r) | {"fresh_medians": {name: fresh_summary(s) for name, s in r.systems.items()
                                                          if s.fresh}} for r in results]}
    path.write_text(json.dumps(payload, indent=2, default=str))


# --------------------------------------------------------------------------
# Main


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = bench_parser(__doc__)
    add_size_args(parser)
    parser.add_argument("--systems", default=",".join(KEYS[s] for s in SYSTEMS),
                        help="comma-separated subset of: " + ", ".join(KEYS[s] for s in SYSTEMS)
                             + " (the floor is always included)")
    add_timing_args(parser, warmup=10, each="system",
                    chunk_help="queries per round of the fastest systems; slower ones take proportionally fewer")
    parser.add_argument("--budget", type=float, default=20.0,
                        help="seconds of timed queries per system and size: a slow system times fewer queries (default 20)")
    parser.add_argument("--min-queries", type=int, default=20, help="fewest queries timed per system (default 20)")
    parser.add_argument("--fresh-runs", type=int, default=3,
                        help="new processes per system and size for the first recall and RSS (default 3; 0: none)")
    parser.add_argument("--fresh-queries", type=int, default=20,
                        help="queries after the first one in each new process (default 20)...")
    parser.add_argument("--fresh-budget", type=float, default=5.0, help="...or fewer, after this many seconds (default 5)")
    parser.add_argument("--blas-threads", type=int, default=1,
                        help="pin the BLAS/OpenMP pools (numpy, FAISS) to N threads with threadpoolctl (default 1; "
                             "0: leave them as configured)")
    parser.add_argument("--workdir", help="build the systems in DIR and keep them (default: a temp dir, removed)")
    parser.add_argument("--json", metavar="FILE", help="also write every measurement as JSON")
    parser.add_argument("--plot", metavar="PNG", help="also draw the results (matplotlib), e.g. benchmarks/peers.png")
    parser.add_argument("--readme", metavar="MD", help="replace the results block of this README (benchmarks/README.md)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--child-folder", help=argparse.SUPPRESS)
    parser.add_argument("--child-queries", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.size_list = size_list(parser, args)
    wanted = {s.strip() for s in args.systems.split(",") if s.strip()} | {KEYS[FLOOR]}
    unknown = wanted - {KEYS[s] for s in SYSTEMS}
    if unknown:
        parser.error(f"unknown systems: {', '.join(sorted(unknown))}")
    args.system_list = [s for s in SYSTEMS if KEYS[s] in wanted]
    if args.blas_threads < 0 or args.queries < 1 or args.chunk < 1 or args.warmup < 0 or args.budget <= 0:
        parser.error("--blas-threads >= 0, --queries and --chunk >= 1, --warmup >= 0, --budget > 0")
    return args


def versions(systems: Sequence[str]) -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    wanted = {FLOOR: ["numpy"], MEMORI_RECALL: ["memori-recall", "chromadb"],
              LANGCHAIN: ["langchain-core", "langchain-classic", "langchain-community", "rank-bm25", "faiss-cpu"],
              LLAMAINDEX: ["llama-index-core", "llama-index-retrievers-bm25", "bm25s", "PyStemmer",
                           "llama-index-vector-stores-faiss", "faiss-cpu"],
              MEMORI: ["memori"]}
    out: dict[str, str] = {}
    if MEMORI_RECALL in systems:
        out["memori_core source"] = _source(MEMORI_RECALL)
    for s in systems:
        for dist in wanted[s]:
            try:
                out.setdefault(dist, version(dist))
            except PackageNotFoundError:
                out.setdefault(dist, "?")
    return out


def _source(_: str) -> str:
    """Where the memori_core being timed comes from: a git checkout's commit (and whether it has changes) or a path."""
    import memori_core

    root = Path(memori_core.__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "memori_core"], capture_output=True,
                               text=True, check=True).stdout.strip()
        return f"{root} at {head}" + (" with uncommitted changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return str(root)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    os.environ.setdefault("DISABLE_TQDM", "1")  # bm25s's progress bars (the fresh processes inherit it)
    if args.child:
        return child(args)
    # Load every library first, so that the BLAS/OpenMP pools they bring are there to be pinned.
    for name in args.system_list:
        CLASSES[name]().imports()
    with limit_blas(args.blas_threads or None):
        return _run(args, argv)


def _run(args: argparse.Namespace, argv: Sequence[str] | None) -> int:
    args.command = ("python benchmarks/bench_peers.py " + " ".join(sys.argv[1:] if argv is None else argv)).strip()
    info = machine_info()
    info["versions"] = versions(args.system_list)
    progress(f"BLAS: {blas_summary(info)}")
    results: list[SizeResult] = []
    t_all = time.perf_counter()
    root_cm = tempfile.TemporaryDirectory(prefix="memori-peers-") if not args.workdir else None
    root = Path(root_cm.name) if root_cm else Path(args.workdir).expanduser()
    try:
        for n in args.size_list:
            progress(f"== {n:,} facts ==")
            results.append(bench_size(n, args, root))
            gc.collect()
            if args.json:  # after every size, so that a long run that fails later keeps what it measured
                write_json(Path(args.json), info, args, results)
    finally:
        if root_cm:
            root_cm.cleanup()
    report = render(results, info, args, args.command)
    print(report)
    if args.plot:
        plot(results, Path(args.plot), f"one entity, {DIM}-d precomputed vectors, limit {LIMIT}; "
             f"BLAS threads: {args.blas_threads or 'as configured'}")
        progress(f"wrote {args.plot}")
    if args.readme:
        write_readme(Path(args.readme), report)
        progress(f"updated {args.readme}")
    if args.json:
        write_json(Path(args.json), info, args, results)
        progress(f"wrote {args.json}")
    progress(f"total {time.perf_counter() - t_all:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
