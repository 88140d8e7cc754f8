"""Chroma as the embedding store: embedded on disk, in memory, or a ``chroma run`` server.

This module holds :class:`ChromaStore`: opening and closing it, and its rows
(reads paged, writes batched, failed writes read back). Beside it: the row
layout (:mod:`.chroma_records`, :mod:`.chroma_old_layout`), the revision
tokens and write locks (:mod:`.chroma_revisions`), opening clients
(:mod:`.chroma_client`) and the one-process-per-folder lock (:mod:`.folder_lock`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
import uuid
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import numpy as np

from ..facts import StoredFact
from .base import CacheFolder, CloseCallbacks, FactStore, settle_failed_delete, settle_failed_write, when_open
from .chroma_client import (
    DEFAULT_HTTP_TIMEOUT,
    READ_ATTEMPTS,
    check_server_address,
    ephemeral_client,
    http_client,
    is_http_client,
    mark_ephemeral_unused,
    persistent_client,
    release_unused_ephemeral,
    retry_read,
    serve_in_this_process,
    server_url,
)
from .chroma_log import scrub_erased
from .chroma_records import ENTITY, chroma_id, inline, pack, read_fact, read_row
from .chroma_revisions import ChromaRevisions
from . import deadline
from .folder_lock import FolderHold
from .folder_lock import acquire as acquire_folder
from .rows import EntityColumns, EntityRows

__all__ = ["DEFAULT_COLLECTION", "DEFAULT_HTTP_TIMEOUT", "PATH_ENV", "ChromaStore", "default_store_path",
           "env_store_path"]

logger = logging.getLogger(__name__)

PATH_ENV = "MEMORI_RECALL_PATH"
DEFAULT_COLLECTION = "memori_facts"
# Rows per read of a whole-entity load. chromadb hands a page over as Python lists (a float object per
# embedding value); smaller pages keep that transient peak small, and with it the heap the process keeps
# afterwards: a 100k-fact load from a server grew the client by 440-520 MiB with 5,000-row pages and by
# 300 MiB with 1,000-row pages, in the same time.
_PAGE = 1000
_WRITE_THREADS = 2
# The collection is an embedding store only (the engine scores exactly in process and never
# asks Chroma for nearest neighbours), so new collections get a cheap HNSW build (low construction_ef).
# hnsw:M stays at Chroma's default 16: with M=4, upserts after deletes crashed chromadb 1.5.2-1.5.9's
# Rust bindings (SIGSEGV in the HNSW build) when the process's malloc arenas are shared between threads
# (benchmarks/chroma_segfault_repro.py: 8/23 runs with M=4, 0/18 with M=16).
# Existing collections keep the settings they were created with.
_HNSW = {"hnsw:space": "cosine", "hnsw:construction_ef": 10, "hnsw:M": 16}
SNAPSHOTS = "snapshots"
"""The folder inside an embedded store's folder where a cache keeps its files (one subfolder per collection)."""


def env_store_path() -> Path | None:
    """``$MEMORI_RECALL_PATH`` with surrounding whitespace stripped, ``None`` when it is unset or empty; a value
    of whitespace only is a ``ValueError`` naming the variable (it would make a folder named ``' '``)."""
    raw = os.environ.get(PATH_ENV)
    if not raw:
        return None
    value = raw.strip()
    if not value:
        raise ValueError(f"{PATH_ENV} is blank ({raw!r}): set it to a folder, or unset it for the default folder")
    return Path(value).expanduser()


def default_store_path(*, env: bool = True) -> Path:
    """Where the embedded store lives by default: ``$MEMORI_RECALL_PATH`` (stripped: :func:`env_store_path`), else
    the user's data directory (``env=False``: the data directory, whatever the variable says)."""
    if env:
        from_env = env_store_path()
        if from_env is not None:
            return from_env
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / "memori-recall"


class _Reopening:
    """A collection of a store served by a Chroma server, opened again when the server no longer has it.

    A server restarted over an empty folder (a container without its volume) has lost every collection: each call
    on the old one raises chromadb's ``NotFoundError`` for as long as the process runs. A call that meets it has the
    store open its collections again (``get_or_create``, :meth:`ChromaStore._reopen`) and is made once more, on the
    new, empty one: the store then answers as a new server does (no facts, no revisions), and the engine's copies,
    whose revisions the store no longer holds, are read again from it, as a fresh engine would."""

    __slots__ = ("_target", "_store")

    def __init__(self, target: Any, store: ChromaStore) -> None:
        self._target, self._store = target, store

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._target, name)
        if not callable(value) or name.startswith("_"):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            failed = self._target
            try:
                return value(*args, **kwargs)
            except Exception as exc:
                if not _collection_gone(exc):
                    raise
                self._store._reopen(self, failed)  # noqa: SLF001 - the store's own collections
                return getattr(self._target, name)(*args, **kwargs)
        return call

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _Reopening.__slots__:
            object.__setattr__(self, name, value)
        else:  # onto the collection itself, as without the wrapper (tests wrap its methods so)
            setattr(self._target, name, value)


def _collection_gone(exc: BaseException) -> bool:
    """Whether ``exc`` is the server saying the collection does not exist (chromadb's ``NotFoundError``)."""
    errors = sys.modules.get("chromadb.errors")
    return errors is not None and isinstance(exc, errors.NotFoundError) and "does not exist" in str(exc)


class _ProcessBound:
    """A collection of an embedded (or in-memory) store, refused in a process forked after the store was opened:
    chromadb's embedded system does not survive a fork (the child's first read blocks for ever), so every use in
    the child, reads included, gets a clear error instead (gunicorn ``--preload``, a ``fork`` multiprocessing
    pool, Celery's prefork workers). ``where`` says which store: ``"at <folder>"`` or ``"in memory"``."""

    __slots__ = ("_target", "_pid", "_where")

    def __init__(self, target: Any, where: str) -> None:
        self._target, self._pid, self._where = target, os.getpid(), where

    def __getattr__(self, name: str) -> Any:
        if os.getpid() != self._pid:
            raise RuntimeError(
                f"the embedded Chroma store {self._where} was opened in process {self._pid} and cannot be used "
                f"in process {os.getpid()}, forked from it: open the store and the engine in the child (gunicorn's "
                "post_fork, or no --preload; Celery's worker_process_init), or use a Chroma server "
                "(ChromaStore.http), which forked processes may share"
            )
        return getattr(self._target, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _ProcessBound.__slots__:
            object.__setattr__(self, name, value)
        else:  # onto the collection itself, as without the guard (tests wrap its methods so)
            setattr(self._target, name, value)


class ChromaStore(FactStore):
    """Facts and embeddings of every entity in one Chroma collection, filtered by ``entity_id``.

    Embeddings are always computed by the engine and handed to Chroma; the
    collection has no embedding function, so Chroma never downloads a model.

    >>> store = ChromaStore(path="./memories")              # embedded, persistent
    >>> store = ChromaStore.in_memory()                     # ephemeral, isolated
    >>> store = ChromaStore.http(host="127.0.0.1", port=8000)  # a `chroma run` server
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        collection: str = DEFAULT_COLLECTION,
        client: Any | None = None,
        shared: bool | None = None,
        snapshots: bool = True,
    ) -> None:
        """Open (creating if needed) the embedded store at ``path`` (default: :func:`default_store_path`).

        One process per embedded folder: while another live process holds the
        folder, this raises :class:`~memori_core.store.folder_lock.FolderInUseError`
        naming the holder (share a folder between processes through a Chroma
        server: :meth:`http`). Store objects of one process share the folder;
        a folder left behind by a killed process opens normally. See
        :mod:`memori_core.store.folder_lock` for how.

        Pass ``client`` to use an existing ``chromadb`` client instead (no folder
        check); ``shared`` says whether other processes write to it (defaults to
        True for HTTP clients).

        An embedded store offers the recall cache a folder, ``path/snapshots/``
        (:attr:`cache_folder`), where the cache keeps a snapshot of each
        entity's copy (:mod:`memori_core.cache.snapshot_files`), so that the
        first recall of a new process reads one file instead of every row from
        Chroma; Chroma stays the store of record, and a snapshot is used only
        while it matches the entity's revision. ``snapshots=False`` offers none.
        In-memory, HTTP and ``client=`` stores never do.
        """
        self._folder_hold: FolderHold | None = None
        self._closing = CloseCallbacks()
        self._unused: weakref.finalize[Any, Any] | None = None  # an in-memory store's: marks its collections unused
        if client is None:
            if isinstance(path, str) and not path.strip():
                raise ValueError(f"path must name a folder, got {path!r}")
            resolved = Path(path).expanduser() if path is not None else default_store_path()
            resolved.mkdir(parents=True, exist_ok=True)
            hold = acquire_folder(resolved)  # before Chroma touches the folder
            try:
                # The real path, so every store object of the process on this folder shares one Chroma system.
                client = persistent_client(hold.folder)
            except BaseException:
                hold.release()
                raise
            self._folder_hold = hold
            self.location = str(resolved)
        else:
            self.location = getattr(client, "_identifier", None) or type(client).__name__
        self._client = client
        served = is_http_client(client)
        self.shared = bool(shared) if shared is not None else served
        if served:
            serve_in_this_process(client)  # a forked child gets connections of its own (idempotent)
        self.request_timeout: float | None = None
        """The time limit of each request to a server (set by :meth:`http`); ``None``: none or in process."""
        self.cache_folder: CacheFolder | None = None
        self._dimension: int | None = None  # the collection's, once known (it never changes)
        try:
            self._facts = client.get_or_create_collection(
                collection, embedding_function=None, metadata=dict(_HNSW)
            )
            revisions = client.get_or_create_collection(f"{collection}_revisions", embedding_function=None)
        except BaseException:
            self.close()  # a store that failed to open does not keep the folder
            raise
        if not served:  # an embedded system: the process that opened it is the only one that can use it
            where = "in memory" if self.location == "ephemeral" else f"at {self.location}"
            self._facts, revisions = _ProcessBound(self._facts, where), _ProcessBound(revisions, where)
        else:  # a server restarted over an empty folder has lost them: opened again (see _Reopening)
            self._facts, revisions = _Reopening(self._facts, self), _Reopening(revisions, self)
        self._reopen_lock = threading.Lock()
        self._warn_if_old_hnsw()
        self._revision_tokens = ChromaRevisions(revisions, str(self._facts.id), self)
        try:
            self.max_batch_size = int(client.get_max_batch_size())
        except Exception:  # noqa: BLE001 - older servers do not report it
            self.max_batch_size = 5461
        if snapshots and self._folder_hold is not None:
            collection_id = str(self._facts.id)
            self.cache_folder = CacheFolder(Path(self._folder_hold.folder) / SNAPSHOTS / collection_id, collection_id)

    def _reopen(self, gone: _Reopening, failed: Any) -> None:
        """The server no longer has the collection ``failed`` that ``gone`` wrapped: open both collections again
        (created empty when missing), unless another call did since. Logged as a warning: the server lost what it
        stored."""
        with self._reopen_lock:
            facts, revisions = self._facts, self._revision_tokens.records
            if not isinstance(facts, _Reopening) or not isinstance(revisions, _Reopening):
                raise RuntimeError("only a server's collections are opened again")
            if gone._target is not failed:  # noqa: SLF001 - another call opened them again meanwhile
                return
            name = facts.name
            logger.warning(
                "the Chroma server at %s no longer has collection %r (restarted over an empty folder?); opening it "
                "again, empty: the facts stored before are not on this server any more", self.location, name)
            facts._target = self._client.get_or_create_collection(name, embedding_function=None,  # noqa: SLF001
                                                                  metadata=dict(_HNSW))
            revisions._target = self._client.get_or_create_collection(  # noqa: SLF001
                f"{name}_revisions", embedding_function=None)
            self._dimension = None

    def _warn_if_old_hnsw(self) -> None:
        """Log a warning when the facts collection was made by an earlier version with ``hnsw:M`` 4 (Chroma
        keeps a collection's setting): chromadb 1.5's HNSW can crash the process on an upsert after deletes
        with it (docs/stores.md says how to move the store)."""
        try:
            m = (self._facts.metadata or {}).get("hnsw:M")
        except Exception:  # noqa: BLE001 - a client that cannot say: nothing to warn about
            return
        if isinstance(m, int) and m < _HNSW["hnsw:M"]:
            logger.warning(
                "collection %r at %s was created with hnsw:M=%d: chromadb can crash on an upsert after deletes "
                "with it; move the store with `memori export` / `memori import` into a new --path (docs/stores.md)",
                self._facts.name, self.location, m,
            )

    @property
    def _revisions(self) -> Any:
        """The Chroma collection of revision records and version slots."""
        return self._revision_tokens.records

    def on_close(self, callback: Callable[[], None]) -> None:
        """Run ``callback()`` when :meth:`close` is first called, before the store lets go of anything."""
        self._closing.add(callback)

    def close(self) -> None:
        """Close the store: run the :meth:`on_close` callbacks (the recall cache writes its snapshots then,
        while the store is open), then, for an embedded store opened from a path, close its Chroma client and
        this object's hold on the folder; for an in-memory store, drop its collections.

        The folder is free for other processes once every store object of this
        process on it is closed (or the process ends). An engine over the store
        closes with it: its pending captures are waited for first (the
        callbacks, :meth:`RecallEngine.close <memori_core.RecallEngine.close>`).
        Any call afterwards raises :class:`~memori_core.store.base.ClosedError`
        naming the store. Idempotent; HTTP and ``client=`` stores have nothing
        else to release.
        """
        self.cache_folder = None
        hold, self._folder_hold = self._folder_hold, None
        try:
            self._closing.run()
        finally:
            self.closed = True
            if hold is not None:
                self._release(hold)
            if self._unused is not None and self._unused.alive:
                self._unused()  # marks this store's client and collections unused (once)...
                release_unused_ephemeral()  # ...and releases them now

    def _release(self, hold: FolderHold) -> None:
        try:
            # Once the folder is free, another process may write it: forget the revision
            # tokens this process kept for the collection, so they are read again.
            tokens = getattr(self, "_revision_tokens", None)  # absent when the store failed to open
            if tokens is not None:
                tokens.forget_local()
            self._client.close()  # chromadb stops the folder's system when its last client closes
        finally:
            hold.release()

    @classmethod
    def in_memory(cls) -> ChromaStore:
        """An ephemeral store; every call gives a new, isolated one (nothing is written to disk).

        Its collections are dropped and its client closed when it is closed, or after it is garbage-collected
        (when the next in-memory store is made), so that making one per test or per request does not grow the
        process (:func:`~memori_core.store.chroma_client.release_unused_ephemeral`)."""
        release_unused_ephemeral()  # before the new client: the last one closed frees Chroma's memory
        client = ephemeral_client()
        name = f"memori_facts_{uuid.uuid4().hex}"
        store = cls(client=client, collection=name, shared=False)
        store.location = "in-memory"
        store._unused = weakref.finalize(store, mark_ephemeral_unused, client, (name, f"{name}_revisions"))
        store._unused.atexit = False
        return store

    @classmethod
    def http(
        cls,
        host: str = "127.0.0.1",
        port: int = 8000,
        *,
        ssl: bool = False,
        headers: dict[str, str] | None = None,
        collection: str = DEFAULT_COLLECTION,
        timeout: float | None = DEFAULT_HTTP_TIMEOUT,
    ) -> ChromaStore:
        """Connect to a Chroma server (``chroma run --path DIR --port PORT``) shared by several processes.

        Every request to the server is bounded by ``timeout`` seconds (default
        4): a server that stops answering makes the call raise
        ``httpx.TimeoutException`` instead of blocking forever, so adapters fail
        open in about that time. ``None`` waits without limit (chromadb's own
        default). Clients of one host and port in a process share chromadb's
        connection, so they share the last timeout set.

        ``host`` is a host name or IP address (a URL, or one with a port, is a ``ValueError`` saying what to
        pass), ``port`` an int from 1 to 65535. A server that answers but is not Chroma (a web page, a 404, a
        proxy's 502/503/504) is a ``ConnectionError`` saying what answered.
        """
        if timeout is not None and not (isinstance(timeout, (int, float)) and 0 < timeout < float("inf")):
            raise ValueError(f"timeout must be a positive number of seconds or None, got {timeout!r}")
        host, port = check_server_address(host, port)
        client = http_client(host, port, ssl=ssl, headers=headers, timeout=timeout)
        store = cls(client=client, collection=collection, shared=True)
        store.request_timeout = timeout
        store.location = server_url(host, port, ssl)
        return store

    def __repr__(self) -> str:
        return f"ChromaStore({self.location!r}, collection={self._facts.name!r})"

    # -- reads -------------------------------------------------------------

    @when_open
    def load_entity(self, entity_id: str) -> EntityRows:
        """Every row of ``entity_id`` with its embedding (paged, filtered inside Chroma).

        A read that races another process's delete can fail inside Chroma
        (``InternalError: Error finding id``); the load then starts again, up
        to three times in all.
        """
        from chromadb.errors import InternalError

        for attempt in range(READ_ATTEMPTS):
            try:
                return self._load_entity(entity_id)
            except InternalError:
                if attempt == READ_ATTEMPTS - 1:
                    raise
                logger.info("entity %r: load raced a concurrent write; reading again", entity_id)
        raise AssertionError("unreachable")

    def _load_entity(self, entity_id: str) -> EntityRows:
        # Columns, not a StoredFact per row: the recall cache reads them as they are
        # (user metadata stays JSON text); ``rows.facts`` builds the facts on request.
        # The entity's ids first (one filtered read of ids alone), then its rows by id in
        # pages: Chroma pages a filtered read by offset, re-filtering for every page, so
        # reading by id is faster (100k rows: 6 s instead of 8-9 s). Chroma returns
        # rows in its own order whatever the order asked, so pages follow one another.
        cols = EntityColumns([], [], [], [], [], [], [], [], [], [], [], [])
        ids = self._facts.get(where={ENTITY: entity_id}, include=[])["ids"]
        for start in range(0, len(ids), _PAGE):
            page = self._facts.get(ids=ids[start : start + _PAGE], include=["embeddings", "documents", "metadatas"])
            self._add_page(cols, entity_id, page)
            del page
        return EntityRows(entity_id=entity_id, columns=cols)

    @staticmethod
    def _add_page(cols: EntityColumns, entity_id: str, page: dict[str, Any]) -> None:
        """Append a ``get`` page's rows of ``entity_id`` to ``cols`` (float32 embeddings, one block per page)."""
        keep: list[int] = []
        for i, (doc, meta) in enumerate(zip(page["documents"], page["metadatas"])):
            if meta is None or meta.get(ENTITY) != entity_id:
                continue  # belt and braces: the where filter already excludes these
            row = read_row(meta, doc)
            if row.text is None:
                continue
            keep.append(i)
            cols.ids.append(row.id)
            cols.texts.append(row.text)
            cols.created_at.append(row.created_at)
            cols.last_seen.append(row.last_seen)
            cols.times_seen.append(row.times_seen)
            cols.session_id.append(row.session_id)
            cols.seq.append(row.seq)
            cols.metadata_json.append(row.metadata_json)
            cols.updated_at.append(row.updated_at)
            cols.expires_at.append(row.expires_at)
            cols.validity_json.append(row.validity_json)
        if not keep:
            return
        embs = page["embeddings"]
        try:
            block = np.asarray(embs, dtype=np.float32)
        except ValueError:  # rows of several dimensions: one block per row
            block = None
        if block is None or block.ndim != 2:
            cols.embeddings.extend(np.asarray(embs[i], dtype=np.float32).reshape(1, -1) for i in keep)
        else:
            cols.embeddings.append(block if len(keep) == block.shape[0] else block[keep])

    @when_open
    def get(self, entity_id: str, ids: Sequence[str]) -> list[StoredFact]:
        """The stored facts of ``entity_id`` among ``ids`` (missing ids are left out)."""
        if not ids:
            return []
        out: list[StoredFact] = []
        for start in range(0, len(ids), self.max_batch_size):
            chunk = [chroma_id(entity_id, i) for i in ids[start : start + self.max_batch_size]]
            # The Chroma id names the entity (see chroma_id), so the lookup is scoped
            # to it without a `where` filter, which makes Chroma 1.x ~50x slower here.
            page = retry_read(lambda: self._facts.get(ids=chunk, include=["documents", "metadatas"]))
            for doc, meta in zip(page["documents"], page["metadatas"]):
                fact = read_fact(entity_id, doc, meta)
                if fact is not None:
                    out.append(fact)
        return out

    @when_open
    def count(self, entity_id: str) -> int:
        """Number of facts stored for ``entity_id``."""
        return len(self._facts.get(where={ENTITY: entity_id}, include=[])["ids"])

    @when_open
    def entity_ids(self) -> list[str]:
        """Every entity with at least one stored fact, sorted: the facts' metadata read page by page (Chroma
        cannot list the distinct values of one key). A write during the read may be missed."""
        found: set[str] = set()
        start = 0
        while True:
            offset = start
            page = retry_read(lambda: self._facts.get(include=["metadatas"], limit=_PAGE, offset=offset))
            metas = page.get("metadatas") or []
            found.update(m[ENTITY] for m in metas if m is not None and isinstance(m.get(ENTITY), str))
            if len(page["ids"]) < _PAGE:
                return sorted(found)
            start += _PAGE

    @when_open
    def dimension(self) -> int | None:
        """Dimension of the stored embeddings (a Chroma collection holds one), ``None`` when empty.

        Read from the store until it is known; a collection keeps its first dimension for good, so then it is
        remembered (a write costs no request for it)."""
        if self._dimension is not None:
            return self._dimension
        page = retry_read(lambda: self._facts.peek(limit=1))  # races a fresh segment like other reads
        embs = page.get("embeddings")
        if embs is not None and len(embs) > 0:
            self._dimension = int(len(embs[0]))
            return self._dimension
        # Emptied (e.g. by forget): Chroma still holds the collection to its first
        # dimension, which only a fresh read of the collection reports.
        try:
            dim = self._client.get_collection(self._facts.name).get_model().dimension
        except Exception:  # noqa: BLE001 - an old server may not report it
            return None
        self._dimension = int(dim) if dim else None
        return self._dimension

    # -- writes ------------------------------------------------------------

    @when_open
    def upsert(
        self,
        entity_id: str,
        facts: Sequence[StoredFact],
        embeddings: np.ndarray,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        """Insert or replace ``facts`` with their embeddings, in batches Chroma accepts (two at a time).

        ``progress`` is called with the number of facts stored so far after
        each batch lands. A failure after some batches landed raises
        :class:`PartialWriteError` with the ids that landed.
        """
        if len(facts) != len(embeddings):
            raise ValueError(f"{len(facts)} facts but {len(embeddings)} embeddings")
        step = self.max_batch_size

        def write(start: int) -> int:
            chunk = facts[start : start + step]
            metas = [pack(f) for f in chunk]
            long_texts = any(not inline(f.content) for f in chunk)
            self._facts.upsert(
                ids=[chroma_id(entity_id, f.id) for f in chunk],
                embeddings=np.asarray(embeddings[start : start + step], dtype=np.float32),
                # Documents only for a chunk holding a text too long for its record (see chroma_records.INLINE_TEXT_BYTES).
                documents=[f.content for f in chunk] if long_texts else None,
                metadatas=metas,
            )
            return len(chunk)

        starts = list(range(0, len(facts), step))
        landed: list[int] = []
        failures: list[BaseException] = []
        stored = 0
        if len(starts) == 1:
            try:
                stored = write(0)
            except Exception as exc:  # noqa: BLE001 - read back below: it may have landed before failing
                failures.append(exc)
            else:
                if progress is not None:
                    progress(stored)
                return
        else:
            # Chroma spends most of an upsert in work that runs beside a second batch's (12 s -> 9 s at 10k).
            # A bulk write's batches are bounded by the request time limit each, outside the write's deadline.
            with deadline.paused(), ThreadPoolExecutor(_WRITE_THREADS, thread_name_prefix="memori-upsert") as pool:
                futures = {pool.submit(write, start): start for start in starts}
                for future in as_completed(futures):
                    try:
                        stored += future.result()
                    except Exception as exc:  # noqa: BLE001 - reported below with what landed
                        failures.append(exc)
                        continue
                    landed.append(futures[future])
                    if progress is not None:
                        progress(stored)
        if failures:
            self._report_upsert(entity_id, facts, [f for start in sorted(landed) for f in facts[start : start + step]],
                                failures[0])

    def _report_upsert(
        self, entity_id: str, facts: Sequence[StoredFact], in_landed_batches: list[StoredFact], error: BaseException
    ) -> None:
        """After a failed upsert: which facts landed, read back from the store (a batch can fail after
        landing). Returns when every fact landed; raises ``error`` when none did, else PartialWriteError."""
        flags = self._holds(entity_id, facts)
        note = ""
        if flags is None:  # the store cannot be read either: only the batches that returned are known to be in
            landed = {f.id for f in in_landed_batches}
            flags = [f.id in landed for f in facts]
            note = " (read back failed: facts of the failed batches may have landed too)"
        settle_failed_write(logger, entity_id, [f.id for f in facts], flags, error, note)

    def _records(self, entity_id: str, ids: Sequence[str]) -> dict[str, Any]:
        """The stored Chroma metadata of those of ``ids`` that are stored (fact id -> metadata)."""
        out: dict[str, Any] = {}
        for start in range(0, len(ids), self.max_batch_size):
            fact_ids = ids[start : start + self.max_batch_size]
            by_chroma = {chroma_id(entity_id, i): i for i in fact_ids}
            page = retry_read(lambda: self._facts.get(ids=list(by_chroma), include=["metadatas"]))
            for cid, meta in zip(page["ids"], page["metadatas"]):
                if cid in by_chroma:
                    out[by_chroma[cid]] = meta
        return out

    def _holds(self, entity_id: str, facts: Sequence[StoredFact]) -> list[bool] | None:
        """Per fact, whether the store holds exactly the record written for it (``None``: it cannot be read)."""
        try:
            have = self._records(entity_id, [f.id for f in facts])
        except Exception as exc:  # noqa: BLE001 - a store that fails reads too: nothing more can be said
            logger.warning("entity %r: could not read back a failed write: %s", entity_id, exc)
            return None
        return [have.get(f.id) == pack(f) for f in facts]

    @when_open
    def update_seen(self, entity_id: str, facts: Sequence[StoredFact]) -> None:
        """Rewrite the metadata of existing facts (``last_seen``, ``times_seen``, user metadata).

        A failure is read back like :meth:`upsert`'s: :class:`PartialWriteError`
        names the facts whose new record landed (``stored_ids``) and those that
        still hold the old one.
        """
        for start in range(0, len(facts), self.max_batch_size):
            chunk = facts[start : start + self.max_batch_size]
            try:
                self._facts.update(ids=[chroma_id(entity_id, f.id) for f in chunk], metadatas=[pack(f) for f in chunk])
            except Exception as exc:  # noqa: BLE001 - read back: what landed before (or despite) the failure
                self._report_upsert(entity_id, facts, list(facts[:start]), exc)
                return

    @when_open
    def present(self, entity_id: str, ids: Sequence[str]) -> list[str]:
        """Those of ``ids`` that ``entity_id`` has stored, in the order given (read by id)."""
        unique = list(dict.fromkeys(ids))
        have = self._records(entity_id, unique)
        return [i for i in unique if i in have]

    @when_open
    def delete(self, entity_id: str, ids: Sequence[str]) -> None:
        """Delete facts of ``entity_id`` by id (unknown ids are ignored).

        A failure is read back: when some of the facts are gone and some are
        not, :class:`PartialDeleteError` names both; when none is gone, the
        store's error is raised; when all are, the delete is done. In an
        embedded folder the texts of the deleted rows are then scrubbed from
        Chroma's log (:meth:`_scrub_log`).
        """
        for start in range(0, len(ids), self.max_batch_size):
            chunk = [chroma_id(entity_id, i) for i in ids[start : start + self.max_batch_size]]
            try:
                self._facts.delete(ids=chunk)  # entity-scoped ids; see get()
            except Exception as exc:  # noqa: BLE001 - read back: what was deleted before (or despite) the failure
                self._report_delete(entity_id, ids, exc)
                break
        self._scrub_log()

    def _scrub_log(self) -> None:
        """In an embedded folder, blank the entries of Chroma's write-ahead log that rows deleted from the facts
        collection left behind: their texts, metadata and vectors (:func:`.chroma_log.scrub_erased`). A
        failure is logged: the rows are gone from every read all the same, and the next delete or forget
        scrubs them. A server's log is its own (docs/stores.md says what stays there)."""
        hold = self._folder_hold
        if hold is None:
            return
        try:
            scrub_erased(hold.folder, str(self._facts.id))
        except Exception as exc:  # noqa: BLE001 - the delete itself landed
            logger.warning("could not scrub deleted texts from Chroma's log in %s: %s", self.location, exc)

    def _report_delete(self, entity_id: str, ids: Sequence[str], error: BaseException) -> None:
        unique = list(dict.fromkeys(ids))
        try:
            left = self._records(entity_id, unique)
        except Exception as exc:  # noqa: BLE001 - nothing more can be said than the store's error
            logger.warning("entity %r: could not read back a failed delete: %s", entity_id, exc)
            raise error from None
        settle_failed_delete(logger, entity_id, unique, [i for i in unique if i in left], error)

    @when_open
    def forget(self, entity_id: str) -> None:
        """Delete every fact of ``entity_id`` and nothing else (in an embedded folder, their texts are then
        scrubbed from Chroma's log, as :meth:`delete` does).

        A failure is read back: when the entity has no fact left (the delete landed, its reply was lost), the
        call returns as a success; otherwise the store's error is raised."""
        try:
            self._facts.delete(where={ENTITY: entity_id})
        except Exception as exc:
            try:
                left = self.count(entity_id)
            except Exception:  # noqa: BLE001 - nothing more can be said than the delete's own error
                raise exc from None
            if left:
                raise
            logger.info("entity %r: forget's reply failed (%s) but no fact is left: it landed", entity_id, exc)
        self._scrub_log()

    # -- revisions (memori_core/store/chroma_revisions.py) --------------------

    @when_open
    def revision(self, entity_id: str) -> str | None:
        """Token that changes whenever ``entity_id``'s facts change (read by id: one cheap lookup).

        For a store only this process writes to, the token is kept in process
        memory after the first read, so a recall costs no store round trip.
        """
        return self._revision_tokens.revision(entity_id)

    @when_open
    def write_lock(self, entity_id: str) -> contextlib.AbstractContextManager[None]:
        """The process-wide lock writers of ``entity_id`` in this collection hold around a write and its commit."""
        return self._revision_tokens.write_lock(entity_id)

    @when_open
    def bump_revision(self, entity_id: str) -> str:
        """Record that ``entity_id`` changed; call after the write has finished (or failed part-way)."""
        return self.commit_revision(entity_id, None)[0]

    @when_open
    def record_intent(self, entity_id: str, intent: str) -> bool:
        """Mark a write of ``entity_id`` as in flight on its revision record before any row changes (a shared
        store; a store only this process writes to needs no intent: False)."""
        return self._revision_tokens.record_intent(entity_id, intent)

    @when_open
    def withdraw_intent(self, entity_id: str, intent: str) -> None:
        """Take back the ``intent`` of a write that changed nothing (a shared store; the token stays)."""
        self._revision_tokens.withdraw_intent(entity_id, intent)

    @when_open
    def commit_revision(self, entity_id: str, base: str | None, intent: str | None = None) -> tuple[str, bool]:
        """Record that ``entity_id`` changed, after a write made by a writer whose copy was at ``base``, and
        clear the write's ``intent``: the new token, and whether this write is the only change since ``base``.
        Call it while holding :meth:`write_lock`. How (process-local tokens, or version slots for a shared
        store): :meth:`ChromaRevisions.commit <memori_core.store.chroma_revisions.ChromaRevisions.commit>`."""
        return self._revision_tokens.commit(entity_id, base, intent)
