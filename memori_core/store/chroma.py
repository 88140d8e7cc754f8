"""Chroma as the embedding store: embedded on disk, in memory, or a ``chroma run`` server.

This module holds :class:`ChromaStore`: opening it (the three kinds), closing it, and the collections it opens.
Its methods live beside it, one module per half of the protocol: reads (:mod:`.chroma_reads`), writes
(:mod:`.chroma_writes`) and revisions (:mod:`.chroma_revisions`: tokens, version slots and write locks). Also
beside it: the row layout (:mod:`.chroma_records`, :mod:`.chroma_old_layout`), the guards around its
collections (:mod:`.chroma_collections`), opening clients (:mod:`.chroma_client`), the default folder
(:mod:`.chroma_paths`), the log scrub (:mod:`.chroma_log`) and the one-process-per-folder lock (:mod:`.folder_lock`).
"""

from __future__ import annotations

import logging
import os
import threading
import uuid
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .base import CacheFolder, CloseCallbacks, ClosesWithCallbacks, FactStore
from .chroma_client import (
    DEFAULT_HTTP_TIMEOUT,
    check_server_address,
    close_http_client,
    ephemeral_client,
    http_client,
    is_http_client,
    mark_ephemeral_unused,
    persistent_client,
    release_unused_ephemeral,
    serve_in_this_process,
    server_url,
)
from .chroma_collections import ProcessBound, Reopening
from .chroma_later import LaterConnection, not_answering
from .chroma_paths import PATH_ENV, SNAPSHOTS, default_store_path, env_store_path, store_folder
from .chroma_revisions import ChromaRevisionMethods, ChromaRevisions
from .chroma_writes import ChromaWrites
from .folder_lock import FolderHold
from .folder_lock import acquire as acquire_folder

__all__ = ["DEFAULT_COLLECTION", "DEFAULT_HTTP_TIMEOUT", "PATH_ENV", "SNAPSHOTS", "ChromaStore", "default_store_path",
           "env_store_path"]

logger = logging.getLogger(__name__)

DEFAULT_COLLECTION = "memori_facts"
# The collection is an embedding store only (the engine scores exactly in process and never
# asks Chroma for nearest neighbours), so new collections get a cheap HNSW build (low construction_ef).
# hnsw:M stays at Chroma's default 16: with M=4, upserts after deletes crashed chromadb 1.5.2-1.5.9's
# Rust bindings (SIGSEGV in the HNSW build) when the process's malloc arenas are shared between threads
# (benchmarks/chroma_segfault_repro.py: 8/23 runs with M=4, 0/18 with M=16).
# Existing collections keep the settings they were created with.
_HNSW = {"hnsw:space": "cosine", "hnsw:construction_ef": 10, "hnsw:M": 16}


class ChromaStore(ChromaWrites, ChromaRevisionMethods, ClosesWithCallbacks, FactStore):
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
        """Open the embedded store at ``path`` (default: :func:`default_store_path`).

        A new store is made in a missing folder only when its parent folder exists (a warning names it): a
        mistyped path is an error, not a new, empty store; a ``path`` that is a file, or that this process
        cannot write to, is an error naming ``path`` (:func:`~memori_core.store.chroma_paths.store_folder`).

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
        self._set_up(collection)
        if client is None:
            resolved = store_folder(path)
            hold = acquire_folder(resolved)  # before Chroma touches the folder
            try:
                # The real path, so every store object of the process on this folder shares one Chroma system.
                client = persistent_client(hold.folder)
            except BaseException:
                hold.release()
                raise
            self._folder_hold = self._folder_guard = hold
            self.location = str(resolved)
        else:
            self.location = getattr(client, "_identifier", None) or type(client).__name__
        self._open(client, collection, shared, snapshots)

    def _set_up(self, collection: str) -> None:
        """What every store holds before it opens its collections."""
        self._folder_hold: FolderHold | None = None
        self._folder_guard: FolderHold | None = None  # kept after close: checks the folder is still there
        self._closing = CloseCallbacks()
        self._unused: weakref.finalize[Any, Any] | None = None  # an in-memory store's: marks its collections unused
        self._collection_name = collection
        self._later: LaterConnection | None = None  # a server's store built while the server did not answer
        self._own_client: Any | None = None  # the HTTP client http() opened, closed with the store (not a client=)
        self.request_timeout: float | None = None
        """The time limit of each request to a server (set by :meth:`http`); ``None``: none or in process."""
        self.cache_folder: CacheFolder | None = None
        self._dimension: int | None = None  # the collection's, once known (it never changes)
        self._batch: int | None = None

    @property
    def max_batch_size(self) -> int:
        """The most records one request may carry (the server's, once connected)."""
        if self._batch is None:
            self._connect_now()
        assert self._batch is not None
        return self._batch

    @max_batch_size.setter
    def max_batch_size(self, value: int) -> None:
        self._batch = value

    @property
    def connected(self) -> bool:
        """Whether the store holds its collections: false only for a server's store built while the server did not
        answer (:meth:`http`) and not used successfully since."""
        return self._later is None

    def _open(self, client: Any, collection: str, shared: bool | None, snapshots: bool) -> None:
        """Open the store's collections through ``client``."""
        self._client = client
        served = is_http_client(client)
        self.shared = bool(shared) if shared is not None else served
        if served:
            serve_in_this_process(client)  # a forked child gets connections of its own (idempotent)
        try:
            facts = client.get_or_create_collection(collection, embedding_function=None, metadata=dict(_HNSW))
            revisions = client.get_or_create_collection(f"{collection}_revisions", embedding_function=None)
        except BaseException:
            if self._later is None:  # (a connection made later is tried again by the next call)
                self.close()  # a store that failed to open does not keep the folder
            raise
        if not served:  # an embedded system: the process that opened it is the only one that can use it
            where = "in memory" if self.location == "ephemeral" else f"at {self.location}"
            check = self._folder_guard.check_present if self._folder_guard is not None else None
            self._facts = ProcessBound(facts, where, check)
            revisions = ProcessBound(revisions, where, check)
        else:  # a server restarted over an empty folder has lost them: opened again (see Reopening)
            self._facts, revisions = Reopening(facts, self._reopen), Reopening(revisions, self._reopen)
        self._reopen_lock = threading.Lock()
        self._warn_if_old_hnsw()
        # A proxy: the store and its revisions are no reference cycle, so an in-memory store dropped by its last
        # user is freed at once (and its Chroma memory with it: release_unused_ephemeral), not at the next gc.
        self._revision_tokens = ChromaRevisions(revisions, str(self._facts.id), weakref.proxy(self))
        try:
            self._batch = int(client.get_max_batch_size())
        except Exception:  # noqa: BLE001 - older servers do not report it
            self._batch = 5461
        if snapshots and self._folder_hold is not None:
            collection_id = str(self._facts.id)
            self.cache_folder = CacheFolder(Path(self._folder_hold.folder) / SNAPSHOTS / collection_id, collection_id)

    def _reopen(self, gone: Reopening, failed: Any) -> None:
        """The server no longer has the collection ``failed`` that ``gone`` wrapped: open both collections again
        (created empty when missing), unless another call did since. Logged as a warning: the server lost what it
        stored."""
        with self._reopen_lock:
            facts, revisions = self._facts, self._revision_tokens.records
            if not isinstance(facts, Reopening) or not isinstance(revisions, Reopening):
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

    def _held(self) -> Callable[[], None]:
        """What :meth:`close` lets go of after its callbacks: for an embedded store opened from a path, its Chroma
        client and this object's hold on the folder (taken now); for an in-memory store, its collections. The
        folder is free for other processes once every store object of this process on it is closed (or the
        process ends); for a server's store made by :meth:`http`, the client it opened (its connections). A
        ``client=`` store leaves the client it was given open: its caller closes it."""
        hold, self._folder_hold = self._folder_hold, None
        own, self._own_client = self._own_client, None

        def let_go() -> None:
            if hold is not None:
                self._release(hold)
            if own is not None:
                close_http_client(own)
            if self._unused is not None and self._unused.alive:
                self._unused()  # marks this store's client and collections unused (once)...
                release_unused_ephemeral()  # ...and releases them now

        return let_go

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
        lazy: bool = True,
    ) -> ChromaStore:
        """Connect to a Chroma server (``chroma run --path DIR --port PORT``) shared by several processes.

        A server that does not answer yet (nothing listens at the address, it does not answer within ``timeout``,
        or a proxy in front of it answers 502/503/504) does not stop the store from being built: a service may
        start before its Chroma (a compose start order, a replica restarted during an outage). One warning says
        so, and the store connects on its first call instead, within the time that call has (``timeout``, or
        less inside a write's deadline); until a call connects, each call raises the connection's error, which
        the adapters take for an outage (they go on without memory and capture their turns once the store
        answers; :attr:`connected` says whether it has). ``lazy=False`` raises at once instead
        (:class:`~memori_core.store.chroma_client.NoServerAnswers`, :class:`~memori_core.StoreTimedOut`,
        :class:`~memori_core.store.chroma_client.ServerUnavailable`), as the ``memori`` command does.

        Every request to the server is bounded by ``timeout`` seconds (default
        4): a server that stops answering makes the call raise
        :class:`~memori_core.StoreTimedOut` instead of blocking forever, so adapters fail
        open in about that time; every transport failure is raised as memori's
        :class:`~memori_core.StoreUnreachable` (httpx's error its ``__cause__``). ``None`` waits without limit (chromadb's own
        default). Each store opens a client of its own, with its own connection
        pool (chromadb 1.5 shares none between clients), so two stores of one
        server in a process keep their own time limits, and closing one leaves
        the other's connections open.

        ``host`` is a host name or IP address (a URL, or one with a port, is a ``ValueError`` saying what to
        pass), ``port`` an int from 1 to 65535, or a string of its digits as an environment variable holds it
        (``port="8000"``; anything else is a ``TypeError`` / ``ValueError`` naming ``port``). A server that
        answers but is not Chroma (a web page, a 404) is a ``ConnectionError`` saying what answered, whatever
        ``lazy`` says: that is a wrong address, not a server still starting.
        """
        if timeout is not None and not (isinstance(timeout, (int, float)) and 0 < timeout < float("inf")):
            raise ValueError(f"timeout must be a positive number of seconds or None, got {timeout!r}")
        if not isinstance(lazy, bool):
            raise TypeError(f"lazy must be a bool, got {type(lazy).__name__}")
        host, port = check_server_address(host, port)
        url = server_url(host, port, ssl)

        def connect(within: float | None) -> Any:  # within: the time the connecting call has left, if bounded
            bound = timeout if within is None else within if timeout is None else min(timeout, within)
            return http_client(host, port, ssl=ssl, headers=headers, timeout=timeout, connect_within=bound)

        try:
            client = connect(None)
        except not_answering() as exc:
            if not lazy:
                raise
            store = cls.__new__(cls)
            store._set_up(collection)
            store._later = LaterConnection(store, url, connect, exc)
            store.shared = True
        else:
            try:
                store = cls(client=client, collection=collection, shared=True)
            except BaseException:
                close_http_client(client)
                raise
            store._own_client = client
        store.request_timeout = timeout
        store.location = url
        return store

    def _connect_now(self) -> None:
        """Connect a store built while its server did not answer (:meth:`http`), once; nothing when connected."""
        later = self._later
        if later is not None:
            later.connect()

    def _connected_with(self, client: Any) -> None:
        """The first call reached the server (:class:`LaterConnection`): open the collections through ``client``."""
        try:
            self._open(client, self._collection_name, True, False)
        except BaseException:
            close_http_client(client)
            raise
        self._own_client = client
        self._later = None

    def __repr__(self) -> str:
        return f"ChromaStore({self.location!r}, collection={self._collection_name!r})"
