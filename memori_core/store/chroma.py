"""Chroma as the embedding store: embedded on disk, in memory, or a ``chroma run`` server."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..facts import StoredFact
from .base import EntityColumns, EntityRows, PartialDeleteError, PartialWriteError
from .folder_lock import FolderHold
from .folder_lock import acquire as acquire_folder

if TYPE_CHECKING:
    from ..cache.snapshot_files import SnapshotFiles

logger = logging.getLogger(__name__)

PATH_ENV = "MEMORI_RECALL_PATH"
DEFAULT_COLLECTION = "memori_facts"
# Rows per read of a whole-entity load. chromadb hands a page over as Python lists (a float object per
# embedding value); smaller pages keep that transient peak small, and with it the heap the process keeps
# afterwards: a 100k-fact load from a server grew the client by 440-520 MiB with 5,000-row pages and by
# 300 MiB with 1,000-row pages, in the same time.
_PAGE = 1000
_LOAD_ATTEMPTS = 3
_WRITE_THREADS = 2
# The collection is an embedding store only (the engine scores exactly in process and never
# asks Chroma for nearest neighbours), so new collections get the cheapest HNSW build.
# Existing collections keep the settings they were created with.
_HNSW = {"hnsw:space": "cosine", "hnsw:construction_ef": 10, "hnsw:M": 4}

# The last revision token of each (collection, entity) this process wrote or read,
# shared by every store object of the process: several engines (or store objects
# on the same path) in one process must see each other's writes. Used for stores
# only this process writes to; shared (HTTP) stores always read the record.
_LOCAL_REVISIONS: dict[str, str | None] = {}
_LOCAL_LOCK = threading.Lock()


class _KeyedLocks:
    """One reentrant lock per key, created on first use and dropped when its last holder leaves."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._held: dict[str, list[Any]] = {}  # key -> [RLock, holders]

    @contextlib.contextmanager
    def hold(self, key: str) -> Iterator[None]:
        with self._guard:
            entry = self._held.setdefault(key, [threading.RLock(), 0])
            entry[1] += 1
        try:
            with entry[0]:
                yield
        finally:
            with self._guard:
                entry[1] -= 1
                if entry[1] == 0:
                    del self._held[key]


# One write lock per (collection, entity), shared by every store object of the
# process: an engine's "write, then commit the revision" must not interleave with
# another engine's write to the same entity, or its cache would miss those rows.
# Writes to different entities never wait for each other.
_WRITE_LOCKS = _KeyedLocks()
_MAX_CLAIMS = 1000  # versions a commit may step over before giving up (each one is another writer's commit)
_KEPT_SLOTS = 64  # version slots a shared store keeps per entity; older ones are deleted as new ones are claimed


def _new_token(version: int) -> str:
    return f"{version}.{time.time_ns()}-{uuid.uuid4().hex[:12]}"


def _version(token: str | None) -> int:
    """The version number a token was committed at (0 for none, and for tokens written before versions)."""
    head, dot, _ = (token or "").partition(".")
    return int(head) if dot and head.isdigit() else 0

def _read(call: Callable[[], Any]) -> Any:
    """An idempotent Chroma read, tried again (up to ``_LOAD_ATTEMPTS`` times in all) when Chroma reports an
    internal error: a server can fail a read that races its own segment flush ("Error creating hnsw segment
    reader: Nothing found on disk", chroma-core/chroma#4212) and answer the same read a moment later."""
    from chromadb.errors import InternalError

    for attempt in range(_LOAD_ATTEMPTS):
        try:
            return call()
        except InternalError:
            if attempt == _LOAD_ATTEMPTS - 1:
                raise
            logger.info("Chroma failed a read with an internal error; reading again")
            time.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")


# Row layout. Chroma filters on ENTITY only; everything else the store keeps about a fact
# travels as one JSON object under FACT_KEY (written by _pack, read by _Row): the fact's
# id, text, sightings, order, session, times and expiry, and the user's "metadata". The
# text sits in the record rather than in the Chroma document because a document also
# feeds Chroma's full-text index, which the engine never queries and which costs more
# than every other part of a write (10k facts: 4.8 s with documents, 2.3 s without;
# benchmarks/bench_writes.py). A text longer than INLINE_TEXT_BYTES is kept as the
# document instead, so the record stays small (Chroma Cloud bounds a metadata value at 4 KiB).
ENTITY, FACT_KEY = "entity_id", "memori_fact"
INLINE_TEXT_BYTES = 2048
# The layout before FACT_KEY: one metadata key per field (rows written so are still read).
FACT_ID, CREATED_AT, LAST_SEEN, TIMES_SEEN, META_JSON = "fact_id", "created_at", "last_seen", "times_seen", "metadata_json"
SESSION, SEQ, UPDATED_AT, EXPIRES_AT = "session_id", "seq", "updated_at", "expires_at"


class _Row:
    """A fact's fields as decoded from its Chroma metadata (either layout)."""

    __slots__ = ("id", "text", "times_seen", "seq", "session_id", "created_at", "last_seen", "updated_at",
                 "expires_at", "metadata_json")

    def __init__(self, meta: dict[str, Any], document: str | None) -> None:
        packed = meta.get(FACT_KEY)
        if packed is not None:
            rec = json.loads(packed)
            user = rec.get("metadata")
            self.id = str(rec["id"])
            self.text: str | None = rec.get("text", document)
            self.times_seen = int(rec.get("times_seen", 1))
            self.seq = int(rec.get("seq", 0))
            self.session_id = rec.get("session_id") or None
            self.created_at = rec.get("created_at")
            self.last_seen = rec.get("last_seen")
            self.updated_at = rec.get("updated_at") or None
            self.expires_at = rec.get("expires_at") or None
            self.metadata_json = json.dumps(user, sort_keys=True, ensure_ascii=False) if user else ""
            return
        self.id = str(meta[FACT_ID])
        self.text = document
        self.times_seen = int(meta.get(TIMES_SEEN, 1))
        self.seq = int(meta.get(SEQ, 0))
        self.session_id = meta.get(SESSION) or None
        self.created_at = meta.get(CREATED_AT)
        self.last_seen = meta.get(LAST_SEEN)
        self.updated_at = meta.get(UPDATED_AT) or None
        self.expires_at = meta.get(EXPIRES_AT) or None
        self.metadata_json = meta.get(META_JSON) or ""


_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode  # one encoder for every row


def _inline(text: str) -> bool:
    return len(text) * 4 <= INLINE_TEXT_BYTES or len(text.encode("utf-8")) <= INLINE_TEXT_BYTES


def _pack(fact: StoredFact) -> dict[str, Any]:
    """A fact's Chroma metadata: its entity (filtered on) and the rest as one JSON object."""
    rec: dict[str, Any] = {"id": fact.id, "times_seen": int(fact.times_seen), "seq": int(fact.seq)}
    if _inline(fact.content):
        rec["text"] = fact.content
    for name in ("session_id", "created_at", "last_seen", "updated_at", "expires_at"):
        value = getattr(fact, name)
        if value:
            rec[name] = value
    if fact.metadata:
        rec["metadata"] = fact.metadata
    return {ENTITY: fact.entity_id, FACT_KEY: _ENCODE(rec)}


def default_store_path() -> Path:
    """Where the embedded store lives by default: ``$MEMORI_RECALL_PATH``, else the user's data directory."""
    env = os.environ.get(PATH_ENV)
    if env:
        return Path(env).expanduser()
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / "memori-recall"


def _chroma_id(entity_id: str, fact_id: str) -> str:
    # Length-prefixed so that no (entity, fact) pair can spell another's id.
    return f"{len(entity_id)}:{entity_id}:{fact_id}"


def _chroma_settings() -> Any:
    from chromadb.config import Settings

    return Settings(anonymized_telemetry=False, allow_reset=False)


DEFAULT_HTTP_TIMEOUT = 4.0
"""Seconds any one request to a Chroma server may take (:meth:`ChromaStore.http`)."""


def _bound_requests(client: Any, timeout: float | None) -> None:
    """Give the chromadb HTTP client's connection a time limit (chromadb creates it with none)."""
    import httpx

    session = getattr(getattr(client, "_server", None), "_session", None)
    if not isinstance(session, httpx.Client):
        raise RuntimeError("this chromadb version's HTTP client has no httpx session to bound; pin chromadb<2")
    session.timeout = httpx.Timeout(timeout)


def _connect(make_client: Callable[[], Any], url: str, timeout: float | None) -> Any:
    """``make_client()`` within ``timeout`` seconds, or ``httpx.ConnectTimeout`` naming ``url``.

    chromadb's ``HttpClient`` asks the server for its tenant and database while
    it is built, before its connection can be given a time limit; a server that
    accepts connections but never answers would block that forever. The build
    runs in a daemon thread instead, which a hung server leaves parked until it
    answers or dies (one thread per failed connect, not per call).
    """
    import httpx

    if timeout is None:
        return make_client()
    box: dict[str, Any] = {}

    def build() -> None:
        try:
            box["client"] = make_client()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller below
            box["error"] = exc

    thread = threading.Thread(target=build, name="memori-chroma-connect", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise httpx.ConnectTimeout(
            f"the Chroma server at {url} did not answer within {timeout:g} s (is it stopped or overloaded?); "
            "ChromaStore.http(timeout=...) sets the limit"
        )
    if "error" in box:
        raise box["error"]
    return box["client"]


class ChromaStore:
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

        An embedded store keeps a snapshot of each entity's recall cache in
        ``path/snapshots/`` (:mod:`memori_core.cache.snapshot_files`), so that the
        first recall of a new process reads one file instead of every row from
        Chroma; Chroma stays the store of record, and a snapshot is used only
        while it matches the entity's revision. ``snapshots=False`` keeps none.
        In-memory, HTTP and ``client=`` stores never keep snapshots.
        """
        import chromadb

        self._folder_hold: FolderHold | None = None
        if client is None:
            resolved = Path(path).expanduser() if path is not None else default_store_path()
            resolved.mkdir(parents=True, exist_ok=True)
            hold = acquire_folder(resolved)  # before Chroma touches the folder
            try:
                # The real path, so every store object of the process on this folder shares one Chroma system.
                client = chromadb.PersistentClient(path=hold.folder, settings=_chroma_settings())
            except BaseException:
                hold.release()
                raise
            self._folder_hold = hold
            self.location = str(resolved)
        else:
            self.location = getattr(client, "_identifier", None) or type(client).__name__
        self._client = client
        self.shared = bool(shared) if shared is not None else "http" in type(client).__name__.lower()
        self.request_timeout: float | None = None
        """The time limit of each request to a server (set by :meth:`http`); ``None``: none or in process."""
        try:
            self._facts = client.get_or_create_collection(
                collection, embedding_function=None, metadata=dict(_HNSW)
            )
            self._revisions = client.get_or_create_collection(f"{collection}_revisions", embedding_function=None)
        except BaseException:
            self.close()  # a store that failed to open does not keep the folder
            raise
        try:
            self.max_batch_size = int(client.get_max_batch_size())
        except Exception:  # noqa: BLE001 - older servers do not report it
            self.max_batch_size = 5461
        self.snapshots: SnapshotFiles | None = None
        if snapshots and self._folder_hold is not None:
            from ..cache import snapshot_files as snapshot_folder

            folder = Path(self._folder_hold.folder) / "snapshots" / str(self._facts.id)
            self.snapshots = snapshot_folder.SnapshotFiles(folder, str(self._facts.id), self.revision, self.write_lock)

    def invalidate_snapshot(self, entity_id: str) -> None:
        """Delete ``entity_id``'s cache snapshot (the engine calls this under the entity's write lock,
        before every write of the entity). Does nothing for stores without snapshots."""
        files = getattr(self, "snapshots", None)
        if files is not None:
            files.invalidate(entity_id)

    def close(self) -> None:
        """Close an embedded store opened from a path: its Chroma client, and this object's hold on the folder.

        The folder is free for other processes once every store object of this
        process on it is closed (or the process ends). Do not use the store
        afterwards. Idempotent; does nothing for in-memory, HTTP or ``client=`` stores.
        """
        hold, self._folder_hold = self._folder_hold, None
        if hold is None:
            return
        files, self.snapshots = getattr(self, "snapshots", None), None
        if files is not None:
            files.close()  # writes the snapshots of current caches that have none, while the store is open
        try:
            # Once the folder is free, another process may write it: forget the revision
            # tokens this process kept for the collection, so they are read again.
            if hasattr(self, "_facts"):
                prefix = f"{self._facts.id}:"
                with _LOCAL_LOCK:
                    for key in [k for k in _LOCAL_REVISIONS if k.startswith(prefix)]:
                        del _LOCAL_REVISIONS[key]
            self._client.close()  # chromadb stops the folder's system when its last client closes
        finally:
            hold.release()

    @classmethod
    def in_memory(cls) -> ChromaStore:
        """An ephemeral store; every call gives a new, isolated one (nothing is written to disk)."""
        import chromadb

        client = chromadb.EphemeralClient(settings=_chroma_settings())
        store = cls(client=client, collection=f"memori_facts_{uuid.uuid4().hex}", shared=False)
        store.location = "in-memory"
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
        """
        import chromadb

        if timeout is not None and not (isinstance(timeout, (int, float)) and 0 < timeout < float("inf")):
            raise ValueError(f"timeout must be a positive number of seconds or None, got {timeout!r}")
        client = _connect(
            lambda: chromadb.HttpClient(host=host, port=port, ssl=ssl, headers=headers, settings=_chroma_settings()),
            f"{'https' if ssl else 'http'}://{host}:{port}",
            timeout,
        )
        _bound_requests(client, timeout)
        store = cls(client=client, collection=collection, shared=True)
        store.request_timeout = timeout
        store.location = f"{'https' if ssl else 'http'}://{host}:{port}"
        return store

    def __repr__(self) -> str:
        return f"ChromaStore({self.location!r}, collection={self._facts.name!r})"

    # -- reads -------------------------------------------------------------

    def load_entity(self, entity_id: str) -> EntityRows:
        """Every row of ``entity_id`` with its embedding (paged, filtered inside Chroma).

        A read that races another process's delete can fail inside Chroma
        (``InternalError: Error finding id``); the load then starts again, up
        to three times in all.
        """
        from chromadb.errors import InternalError

        for attempt in range(_LOAD_ATTEMPTS):
            try:
                return self._load_entity(entity_id)
            except InternalError:
                if attempt == _LOAD_ATTEMPTS - 1:
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
        cols = EntityColumns([], [], [], [], [], [], [], [], [], [], [])
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
            row = _Row(meta, doc)
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

    def get(self, entity_id: str, ids: Sequence[str]) -> list[StoredFact]:
        """The stored facts of ``entity_id`` among ``ids`` (missing ids are left out)."""
        if not ids:
            return []
        out: list[StoredFact] = []
        for start in range(0, len(ids), self.max_batch_size):
            chunk = [_chroma_id(entity_id, i) for i in ids[start : start + self.max_batch_size]]
            # The Chroma id names the entity (see _chroma_id), so the lookup is scoped
            # to it without a `where` filter, which makes Chroma 1.x ~50x slower here.
            page = _read(lambda: self._facts.get(ids=chunk, include=["documents", "metadatas"]))
            for doc, meta in zip(page["documents"], page["metadatas"]):
                fact = self._to_fact(entity_id, doc, meta)
                if fact is not None:
                    out.append(fact)
        return out

    def count(self, entity_id: str) -> int:
        """Number of facts stored for ``entity_id``."""
        return len(self._facts.get(where={ENTITY: entity_id}, include=[])["ids"])

    def dimension(self) -> int | None:
        """Dimension of the stored embeddings (a Chroma collection holds one), ``None`` when empty."""
        page = self._facts.peek(limit=1)
        embs = page.get("embeddings")
        if embs is not None and len(embs) > 0:
            return int(len(embs[0]))
        # Emptied (e.g. by forget): Chroma still holds the collection to its first
        # dimension, which only a fresh read of the collection reports.
        try:
            dim = self._client.get_collection(self._facts.name).get_model().dimension
        except Exception:  # noqa: BLE001 - an old server may not report it
            return None
        return int(dim) if dim else None

    @staticmethod
    def _to_fact(entity_id: str, doc: str | None, meta: dict[str, Any] | None) -> StoredFact | None:
        if meta is None or meta.get(ENTITY) != entity_id:
            return None  # belt and braces: the where filter already excludes these
        row = _Row(meta, doc)
        if row.text is None:
            return None
        return StoredFact(
            id=row.id,
            entity_id=entity_id,
            content=row.text,
            created_at=row.created_at,
            metadata=json.loads(row.metadata_json) if row.metadata_json else {},
            last_seen=row.last_seen,
            times_seen=row.times_seen,
            session_id=row.session_id,
            seq=row.seq,
            updated_at=row.updated_at,
            expires_at=row.expires_at,
        )

    # -- writes ------------------------------------------------------------

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
            metas = [_pack(f) for f in chunk]
            long_texts = any(not _inline(f.content) for f in chunk)
            self._facts.upsert(
                ids=[_chroma_id(entity_id, f.id) for f in chunk],
                embeddings=np.asarray(embeddings[start : start + step], dtype=np.float32),
                # Documents only for a chunk holding a text too long for its record (see INLINE_TEXT_BYTES).
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
            with ThreadPoolExecutor(_WRITE_THREADS, thread_name_prefix="memori-upsert") as pool:
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
        if flags is None:  # the store cannot be read either: only the batches that returned are known to be in
            if not in_landed_batches:
                raise error
            stored_ids = [f.id for f in in_landed_batches]
            note = " (read back failed: facts of the failed batches may have landed too)"
        else:
            stored_ids = [f.id for f, ok in zip(facts, flags) if ok]
            if len(stored_ids) == len(facts):
                logger.warning("entity %r: the store raised %r, but every fact of the write landed", entity_id, error)
                return
            if not stored_ids:
                raise error
            note = ""
        kept = set(stored_ids)
        raise PartialWriteError(
            f"stored {len(stored_ids)} of {len(facts)} facts for entity {entity_id!r} before failing: {error}{note}",
            stored_ids, [f.id for f in facts if f.id not in kept],
        ) from error

    def _records(self, entity_id: str, ids: Sequence[str]) -> dict[str, Any]:
        """The stored Chroma metadata of those of ``ids`` that are stored (fact id -> metadata)."""
        out: dict[str, Any] = {}
        for start in range(0, len(ids), self.max_batch_size):
            fact_ids = ids[start : start + self.max_batch_size]
            by_chroma = {_chroma_id(entity_id, i): i for i in fact_ids}
            page = _read(lambda: self._facts.get(ids=list(by_chroma), include=["metadatas"]))
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
        return [have.get(f.id) == _pack(f) for f in facts]

    def update_seen(self, entity_id: str, facts: Sequence[StoredFact]) -> None:
        """Rewrite the metadata of existing facts (``last_seen``, ``times_seen``, user metadata).

        A failure is read back like :meth:`upsert`'s: :class:`PartialWriteError`
        names the facts whose new record landed (``stored_ids``) and those that
        still hold the old one.
        """
        for start in range(0, len(facts), self.max_batch_size):
            chunk = facts[start : start + self.max_batch_size]
            try:
                self._facts.update(ids=[_chroma_id(entity_id, f.id) for f in chunk], metadatas=[_pack(f) for f in chunk])
            except Exception as exc:  # noqa: BLE001 - read back: what landed before (or despite) the failure
                self._report_upsert(entity_id, facts, list(facts[:start]), exc)
                return

    def present(self, entity_id: str, ids: Sequence[str]) -> list[str]:
        """Those of ``ids`` that ``entity_id`` has stored, in the order given (read by id)."""
        unique = list(dict.fromkeys(ids))
        have = self._records(entity_id, unique)
        return [i for i in unique if i in have]

    def delete(self, entity_id: str, ids: Sequence[str]) -> None:
        """Delete facts of ``entity_id`` by id (unknown ids are ignored).

        A failure is read back: when some of the facts are gone and some are
        not, :class:`PartialDeleteError` names both; when none is gone, the
        store's error is raised; when all are, the delete is done.
        """
        for start in range(0, len(ids), self.max_batch_size):
            chunk = [_chroma_id(entity_id, i) for i in ids[start : start + self.max_batch_size]]
            try:
                self._facts.delete(ids=chunk)  # entity-scoped ids; see get()
            except Exception as exc:  # noqa: BLE001 - read back: what was deleted before (or despite) the failure
                self._report_delete(entity_id, ids, exc)
                return

    def _report_delete(self, entity_id: str, ids: Sequence[str], error: BaseException) -> None:
        unique = list(dict.fromkeys(ids))
        try:
            left = self._records(entity_id, unique)
        except Exception as exc:  # noqa: BLE001 - nothing more can be said than the store's error
            logger.warning("entity %r: could not read back a failed delete: %s", entity_id, exc)
            raise error from None
        remaining = [i for i in unique if i in left]
        if not remaining:
            logger.warning("entity %r: the store raised %r, but every fact of the delete is gone", entity_id, error)
            return
        if len(remaining) == len(unique):
            raise error
        raise PartialDeleteError(
            f"deleted {len(unique) - len(remaining)} of {len(unique)} facts of entity {entity_id!r} before failing: "
            f"{error}", [i for i in unique if i not in left], remaining,
        ) from error

    def forget(self, entity_id: str) -> None:
        """Delete every fact of ``entity_id`` and nothing else."""
        self._facts.delete(where={ENTITY: entity_id})

    # -- freshness across processes -----------------------------------------

    def revision(self, entity_id: str) -> str | None:
        """Token that changes whenever ``entity_id``'s facts change (read by id: one cheap lookup).

        For a store only this process writes to, the token is kept in process
        memory after the first read, so a recall costs no store round trip.
        """
        key = self._local_key(entity_id)
        if not self.shared:
            with _LOCAL_LOCK:
                if key in _LOCAL_REVISIONS:
                    return _LOCAL_REVISIONS[key]
        page = _read(lambda: self._revisions.get(ids=[_chroma_id(entity_id, "rev")], include=["metadatas"]))
        metas = page["metadatas"]
        token = str(metas[0]["token"]) if metas else None
        if not self.shared:
            with _LOCAL_LOCK:
                return _LOCAL_REVISIONS.setdefault(key, token)
        return token

    def _local_key(self, entity_id: str) -> str:
        return f"{self._facts.id}:{_chroma_id(entity_id, 'rev')}"

    def write_lock(self, entity_id: str) -> contextlib.AbstractContextManager[None]:
        """The process-wide lock writers of ``entity_id`` in this collection hold around a write and its commit."""
        return _WRITE_LOCKS.hold(f"{self._facts.id}:{_chroma_id(entity_id, 'rev')}")

    def bump_revision(self, entity_id: str) -> str:
        """Record that ``entity_id`` changed; call after the write has finished (or failed part-way)."""
        return self.commit_revision(entity_id, None)[0]

    def commit_revision(self, entity_id: str, base: str | None) -> tuple[str, bool]:
        """Record that ``entity_id`` changed, after a write made by a writer whose copy was at ``base``.

        Returns the new token and whether this write is the only change since
        ``base`` (then the writer may update its copy in place instead of
        reloading). Call it while holding :meth:`write_lock`.

        For a store only this process writes to, the process-local token
        changes first, so that even when the store write of the record fails,
        no engine of this process keeps serving the rows it cached before.

        For a shared store, Chroma has no compare-and-set, but ``add`` of an
        id that exists is ignored: each change claims the next version slot
        (``rev#<n>``) with ``add`` and reads it back. Two writers can never
        both claim version ``n + 1``, so a writer that claims ``base + 1`` is
        the sole successor of ``base``. The revision record that readers read
        (one lookup per recall) is then set to the newest claimed version;
        a writer that finds a newer slot already claimed publishes that one,
        so the record can lag a concurrent commit only until that commit
        publishes, never for good.

        Slots do not pile up: only those of the last :data:`_KEPT_SLOTS`
        versions are kept, so publishing lists the entity's slots (one
        filtered read of at most that many rows), publishes the newest one's
        token (a claim is made only after its write landed, so the newest
        token covers every write) and deletes the slots that fell out of the
        window. A writer whose copy is older than the window could claim a
        deleted slot again: a claim below the window is dropped and the writer
        claims past the newest (and is not the sole successor of its base).
        """
        key = self._local_key(entity_id)
        if not self.shared:
            with _LOCAL_LOCK:
                known, current = key in _LOCAL_REVISIONS, _LOCAL_REVISIONS.get(key)
            if not known:
                current = self.revision(entity_id)
            token = _new_token(0)
            with _LOCAL_LOCK:
                _LOCAL_REVISIONS[key] = token
            self._write_record(entity_id, token)
            return token, base is not None and current == base
        exclusive = base is not None
        version = _version(base if base is not None else self.revision(entity_id))
        for _ in range(_MAX_CLAIMS):
            version += 1
            token = _new_token(version)
            if not self._claim(entity_id, version, token):
                exclusive = False  # another writer committed version `version` since `base`
                version = max(version, _version(self.revision(entity_id)))  # (past old, deleted slots at once)
                continue
            newest = max(self._slots(entity_id), default=version)
            if version > newest - _KEPT_SLOTS:
                break
            # A slot deleted as too old, claimed again: drop it and claim past the newest.
            self._revisions.delete(ids=[self._slot(entity_id, version)])
            exclusive = False
            version = newest
        else:
            raise RuntimeError(f"entity {entity_id!r}: {_MAX_CLAIMS} concurrent commits in a row; giving up")
        self._publish(entity_id, version, token)
        return token, exclusive

    def _slot(self, entity_id: str, version: int) -> str:
        return _chroma_id(entity_id, f"rev#{version}")

    def _write_record(self, entity_id: str, token: str) -> None:
        self._revisions.upsert(
            ids=[_chroma_id(entity_id, "rev")],
            embeddings=[[1.0]],
            metadatas=[{ENTITY: entity_id, "token": token}],
        )

    def _claim(self, entity_id: str, version: int, token: str) -> bool:
        """Insert-if-absent of version slot ``version``; True when it now holds ``token``."""
        slot = self._slot(entity_id, version)
        self._revisions.add(ids=[slot], embeddings=[[1.0]], metadatas=[{ENTITY: entity_id, "token": token}])
        page = _read(lambda: self._revisions.get(ids=[slot], include=["metadatas"]))
        return bool(page["metadatas"]) and page["metadatas"][0].get("token") == token

    def _publish(self, entity_id: str, version: int, token: str) -> None:
        """Point the revision record at the newest claimed version (``version``, or a later one found claimed)
        and delete the slots that fell out of the kept window."""
        while True:
            self._write_record(entity_id, token)
            slots = self._slots(entity_id)
            newest = max(slots, default=version)
            old = [slot for v, slot in slots.items() if v <= newest - _KEPT_SLOTS]
            for start in range(0, len(old), self.max_batch_size):
                self._revisions.delete(ids=old[start : start + self.max_batch_size])
            if newest <= version:
                return
            page = _read(lambda: self._revisions.get(ids=[slots[newest]], include=["metadatas"]))
            if not page["metadatas"]:
                return  # (only a slot below the window is ever deleted: not reached)
            version, token = newest, str(page["metadatas"][0]["token"])

    def _slots(self, entity_id: str) -> dict[int, str]:
        """The entity's version slots: version -> slot id (one filtered read of the revisions collection)."""
        prefix = _chroma_id(entity_id, "rev#")
        ids = _read(lambda: self._revisions.get(where={ENTITY: entity_id}, include=[]))["ids"]
        return {int(i[len(prefix):]): i for i in ids if i.startswith(prefix) and i[len(prefix):].isdigit()}
