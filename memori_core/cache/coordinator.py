"""Freshness and locking of the engine's per-entity caches, in one place.

An engine keeps an in-process copy (:class:`~memori_core.cache.EntityCache`) of
each entity it recalls for. The copy is tagged with the store's revision token
for the entity, read before it was loaded; a recall uses it only while the
store's token is unchanged. A write either updates the copy in place, when it
is the only change since the copy's token, or drops it; the first write of an
entity in a store only this process writes (no revision, no rows before it)
becomes the copy itself, built as a reload would build it. A failed write always
drops it and changes the token, so after any failure the next recall answers
as a fresh engine over the same store would.

Lock order (always in this order; never the reverse):

1. the engine's entity lock (:meth:`Coordinator.entity_lock`, one of 64
   stripes): serialises one engine's recalls and writes of an entity;
2. the store's write lock for the entity (``store.write_lock(entity_id)``):
   process-wide, shared by every engine and store object on the same
   collection, one per entity; held around a write and its revision commit;
3. the cache registry's lock: taken only inside :class:`CacheRegistry` methods;
4. the store's lock around its in-process state (ChromaStore: its map of
   revision tokens; InMemoryFactStore: its rows and tokens).

Locks 3 and 4 are leaves (nothing else is called while they are held).
Locks 1 and 2 are held across store calls, and every store call is bounded
by the store's own time limit (``store.request_timeout``, set by
``ChromaStore.http(timeout=...)``), so no lock is held across an unbounded wait.

Snapshots (stores that offer a ``cache_folder``, such as an embedded
ChromaStore; :mod:`memori_core.cache.snapshot_files`): a write deletes the
entity's snapshot first, under locks 1 and 2. The snapshot writer (a
background thread, or the callback ``store.close()`` runs before it lets go of
the store) takes lock 2 alone, only to check the revision and rename its
finished file into place, so it never waits for lock 1 and never blocks a
recall. They add three locks:

5. the snapshot folder's queue lock (``SnapshotFiles._lock``), a leaf like 3 and 4;
6. the lock that attaches a store's snapshot folder (``snapshot_files._ATTACH_LOCK``),
   taken only while the first engine over a store makes its ``SnapshotFiles``;
   inside it only lock 7 is taken;
7. the store's lock on its close callbacks (``store.on_close``), a leaf: the
   callbacks run after it is released, with no lock held.

Writes in doubt (shared stores): a write that failed on a timeout may still
land later (a stopped server handles the request once it runs again), with
no revision change after it. So after a failed write to a shared store the
entity is *in doubt*: its copy is not kept, every recall reads the store,
until a load that began ``settle`` seconds after the store first answered
again (twice the store's request time limit); that load is kept. The doubt
map is read and written only under lock 1 of its entity.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from .entity import DEFAULT_KEY, AnalyzerKey, EntityCache, Tokens
from .registry import DEFAULT_MAX_CACHED_BYTES, CacheRegistry
from ..facts import StoredFact
from .columns import columns_from_store
from .trim import TRIM_MIN_ROWS, release_free_heap
from ..text import analyzer
from ..store.base import FactStore
from ..store.rows import EntityColumns
from .snapshot_files import snapshot_files_for

logger = logging.getLogger(__name__)

_LOCK_STRIPES = 64
SETTLE_WITHOUT_LIMIT = 10.0
"""Seconds a failed write to a shared store takes to settle when the store has no request time limit."""
# Writes of at least this many facts tokenise them for the cache while the store writes.
_TOKENISE_BESIDE = 512


class CacheUpdate:
    """What one write did, to replay on the writer's cached copy if the write was the only change."""

    def __init__(self) -> None:
        self._ops: list[tuple[str, Any, Any]] = []
        self.reload = False

    def upsert(self, facts: Sequence[StoredFact], vectors: np.ndarray, tokens: Tokens | None = None) -> None:
        """Facts stored (new, or replacing the same ids) with their raw vectors (and their texts' tokens,
        when :meth:`Coordinator.write_and_tokenise` made them)."""
        if len(facts):
            self._ops.append(("upsert", list(facts), (vectors, tokens)))

    def update_seen(self, facts: Sequence[StoredFact]) -> None:
        """Stored facts whose bookkeeping or metadata were rewritten (text and vector unchanged)."""
        if facts:
            self._ops.append(("update_seen", list(facts), None))

    def remove(self, ids: Sequence[str]) -> None:
        """Facts deleted by id."""
        if ids:
            self._ops.append(("remove", list(ids), None))

    def drop(self) -> None:
        """The write is too large or too broad to replay: the next recall reloads the entity."""
        self.reload = True

    def only_rows(self) -> tuple[list[StoredFact], np.ndarray] | None:
        """The facts and raw vectors of a write that did nothing but store them (``None`` for any other write)."""
        if len(self._ops) == 1 and self._ops[0][0] == "upsert":
            _, facts, (vectors, _) = self._ops[0]
            return facts, vectors
        return None

    def apply(self, cache: EntityCache) -> None:
        for op, a, b in self._ops:
            if op == "upsert":
                cache.upsert(a, b[0], tokens=b[1])
            elif op == "update_seen":
                cache.update_seen(a)
            else:
                cache.remove(a)


class Coordinator:
    """Owns an engine's cache registry, its entity locks and the write protocol (see the module docstring)."""

    def __init__(
        self,
        store: FactStore,
        max_cached_entities: int,
        max_cached_bytes: int | None = DEFAULT_MAX_CACHED_BYTES,
        analyzer_key: Callable[[], AnalyzerKey] = lambda: DEFAULT_KEY,
    ) -> None:
        """``analyzer_key()`` is the engine's current ``(tokenizer, stemmer)``: caches index it."""
        self.store = store
        snaps = snapshot_files_for(store)  # made here, for the first engine over the store
        # An evicted cache's snapshot is written (in the background) if it has none.
        self.caches: CacheRegistry[EntityCache] = CacheRegistry(
            max_cached_entities, max_cached_bytes, on_evict=snaps.schedule if snaps is not None else None
        )
        self._analyzer_key = analyzer_key
        self._locks = tuple(threading.RLock() for _ in range(_LOCK_STRIPES))
        # entity -> when (monotonic) the store first answered after a failed write of it; None: not yet.
        self._doubt: dict[str, float | None] = {}
        limit = store.request_timeout
        self.settle = 2.0 * float(limit) if limit is not None else SETTLE_WITHOUT_LIMIT
        """Seconds after the store answers again that a failed write is taken to have landed or not."""

    def entity_lock(self, entity_id: str) -> threading.RLock:
        """Lock 1: this engine's lock for ``entity_id`` (entities hash onto 64 stripes)."""
        return self._locks[hash(entity_id) % _LOCK_STRIPES]

    def cache_for(self, entity_id: str) -> EntityCache:
        """The entity's current copy, reloaded when the store's token changed. Call under :meth:`entity_lock`.

        The token is read on every call: for a store only this process writes
        to it is an in-memory lookup, for a shared store one read by id. A
        reload reads the entity's snapshot when the store keeps one that is
        valid for this very token, else every row from the store (and then
        schedules the snapshot's write in the background).
        """
        if entity_id in self._doubt:
            return self._load_in_doubt(entity_id)
        cache = self.caches.get(entity_id)
        revision = self.store.revision(entity_id)
        if cache is not None and cache.revision == revision:
            return cache
        key = self._analyzer_key()
        snaps = snapshot_files_for(self.store)
        if snaps is not None:
            cache = snaps.load(entity_id, revision, key)  # None unless valid for this very revision
            if cache is not None:
                self.caches.put(cache)
                return cache
        # Tagged with the token read before loading: a write racing the load
        # changes the token, so the next recall loads again.
        cache = self._load(entity_id, revision, key)
        self.caches.put(cache)
        if snaps is not None:
            snaps.schedule(cache)
        return cache

    def _load(self, entity_id: str, revision: str | None, key: AnalyzerKey) -> EntityCache:
        rows = self.store.load_entity(entity_id)
        cache = EntityCache.from_columns(entity_id, revision, columns_from_store(rows.columns), key)
        n = len(rows)
        del rows
        if n >= TRIM_MIN_ROWS:
            release_free_heap()  # the store's read buffers, freed just now
        return cache

    def _load_in_doubt(self, entity_id: str) -> EntityCache:
        """A load from the store, kept only once the entity's failed write has settled (module docstring)."""
        started = time.monotonic()
        revision = self.store.revision(entity_id)  # raises while the store fails: still in doubt
        answered = self._doubt[entity_id]
        if answered is None:
            self._doubt[entity_id] = answered = started
        cache = self._load(entity_id, revision, self._analyzer_key())
        if started - answered >= self.settle:
            del self._doubt[entity_id]
            self.caches.put(cache)
        else:
            self.caches.drop(entity_id)
        return cache

    def write_and_tokenise(self, facts: Sequence[StoredFact], write: Callable[[], None]) -> Tokens | None:
        """Run ``write`` (the store write of ``facts``); for a large write, tokenise the facts' texts for the
        cached copy meanwhile, on a helper thread.

        Tokenising is most of the cost of bringing a copy up to date, and Chroma
        releases the GIL while it writes, so the two overlap. The tokens are
        only used once the write has succeeded (:meth:`CacheUpdate.upsert`).
        """
        if len(facts) < _TOKENISE_BESIDE:
            write()
            return None
        key = self._analyzer_key()
        run = analyzer(*key)
        texts = [f.content for f in facts]
        with ThreadPoolExecutor(1, thread_name_prefix="memori-tokenise") as pool:
            future = pool.submit(lambda: [run(t) for t in texts])
            write()
            return key, future.result()

    @contextlib.contextmanager
    def writing(self, entity_id: str) -> Iterator[CacheUpdate]:
        """Hold locks 1 and 2 around a write, then commit its revision and bring the cached copy up to date.

        The body writes to the store and records what it did on the yielded
        :class:`CacheUpdate`. If the body or the commit fails at any point,
        the copy is dropped and the token changed before the error propagates.
        """
        with self.entity_lock(entity_id), self.store.write_lock(entity_id):
            snaps = snapshot_files_for(self.store)
            if snaps is not None:
                snaps.invalidate(entity_id)
            cache = self.caches.get(entity_id)
            first = cache is None and self._never_written(entity_id)
            update = CacheUpdate()
            try:
                yield update
                token, only_change = self.store.commit_revision(entity_id, cache.revision if cache else None)
            except BaseException:
                self._invalidate(entity_id)
                if self.store.shared:
                    self._doubt[entity_id] = None
                raise
            if cache is None or entity_id in self._doubt:
                self.caches.drop(entity_id)
                if first and entity_id not in self._doubt:
                    self._adopt_first_write(entity_id, token, update)
                return
            if only_change and not update.reload:
                update.apply(cache)
                cache.revision = token
            else:
                # Someone else wrote since the copy was loaded (another process, or
                # another engine of this one): only a reload is sure to include it.
                self.caches.drop(entity_id)

    def _never_written(self, entity_id: str) -> bool:
        """Whether ``entity_id`` has no rows and no revision in a store only this process writes to.

        Then, under the write lock, the rows after a write are exactly the ones it
        wrote (the revision alone could be missing after a crash between a write
        and its revision record, hence the count).
        """
        if self.store.shared:
            return False
        return self.store.revision(entity_id) is None and self.store.count(entity_id) == 0

    def _adopt_first_write(self, entity_id: str, token: str, update: CacheUpdate) -> None:
        """Cache an entity's first write as a reload would build it, so that the first recall after a bulk
        add needs no reload (the rows are in hand; reload order depends only on sessions and ``seq``)."""
        written = update.only_rows()
        if written is None:
            return
        facts, vectors = written
        rows = EntityColumns.from_facts(facts, ())
        rows.embeddings = [np.asarray(vectors, dtype=np.float32).reshape(len(facts), -1)]  # one block
        cache = EntityCache.from_columns(entity_id, token, columns_from_store(rows), self._analyzer_key())
        self.caches.put(cache)
        snaps = snapshot_files_for(self.store)
        if snaps is not None:
            snaps.schedule(cache)

    def _invalidate(self, entity_id: str) -> None:
        self.caches.drop(entity_id)
        try:
            self.store.bump_revision(entity_id)
        except Exception:  # the store is failing; the local token has changed, the error that matters is the first
            logger.warning("entity %r: could not record the revision after a failed write", entity_id, exc_info=True)

    def clear(self) -> None:
        """Forget every cached copy."""
        self.caches.clear()
