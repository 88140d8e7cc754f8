"""Freshness and locking of the engine's per-entity caches, in one place.

An engine keeps an in-process copy (:class:`~memori_core.cache.EntityCache`) of
each entity it recalls for. The copy is tagged with the store's revision token
for the entity, read before it was loaded; a recall uses it only while the
store's token is unchanged. A write either updates the copy in place, when it
is the only change since the copy's token, or drops it; the first write of an
entity in a store only this process writes (no revision, no rows before it)
becomes the copy itself, built as a reload would build it. A failed write always
drops it, and the token other engines read changes (below), so after any
failure the next recall answers as a fresh engine over the same store would.

Lock order (always in this order; never the reverse):

1. the store's write lock for the entity (``store.write_lock(entity_id)``):
   process-wide, shared by every engine and store object on the same
   collection, one per entity; held around a whole write and its revision
   commit (inside a write's deadline, waited for no longer than the time left);
2. the engine's entity lock (:meth:`Coordinator.entity_lock`, one of 64
   stripes): held by a recall while it checks and reads the copy, and by a
   write only to read the copy before its first store call and to update it
   after its commit, never across the write's store calls. So a recall never
   waits for a write's requests: while a write is in flight, recalls of its
   entity answer from the copy as it was before the write. A fail-open read
   waits for it no longer than its time to reach the store (:meth:`Coordinator.reading`);
3. the cache registry's lock: taken only inside :class:`CacheRegistry` methods;
4. the store's lock around its in-process state (ChromaStore: its map of
   revision tokens; InMemoryFactStore: its rows and tokens); the lock of
   this module's set of intents in flight (``_IN_FLIGHT_LOCK``); an
   engine's lock on the erase marks its writes have seen (``_marks_lock``);
   and the lock of the process's erase generations (:data:`memori_core.lanes.ERASURES`),
   taken under lock 1 by a write that checks no ``forget`` of its entity came after it began.

Locks 3 and 4 are leaves (nothing else is called while they are held).

Erases in this process: ``forget`` counts one more erase of the entity (:mod:`memori_core.lanes`) before it
takes lock 1 to delete; a write that began earlier (an ``add`` still embedding, a capture of a turn said
before) checks the count under lock 1 (:meth:`Coordinator.writing`'s ``since``) before it reads or writes
anything, and raises :class:`~memori_core.lanes.ForgottenError` when it changed. So such a write either
holds lock 1 before the ``forget`` takes it (and is deleted by it) or writes nothing.
Locks 1 and 2 are held across store calls, and every store call is bounded
by the store's own time limit (``store.request_timeout``, set by
``ChromaStore.http(timeout=...)``), so no lock is held across an unbounded wait.

Snapshots (stores that offer a ``cache_folder``, such as an embedded
ChromaStore; :mod:`memori_core.cache.snapshot_files`): a write deletes the
entity's snapshot first, under lock 1. The snapshot writer (a background
thread, or the callback ``store.close()`` runs before it lets go of the store)
takes lock 1 alone, only to check the revision and rename its finished file
into place, so it never waits for lock 2 and never blocks a recall. They add
three locks:

5. the snapshot folder's queue lock (``SnapshotFiles._lock``), a leaf like 3 and 4;
6. the lock that attaches a store's snapshot folder (``snapshot_files._ATTACH_LOCK``),
   taken only while the first engine over a store makes its ``SnapshotFiles``;
   inside it only lock 7 is taken;
7. the store's lock on its close callbacks (``store.on_close``), a leaf: the
   callbacks run after it is released.

Deadline: each write runs within :data:`WRITE_TIMEOUTS` (2) times the store's
request time limit, end to end (:meth:`Coordinator.deadline`,
:mod:`memori_core.store.deadline`): every request gets the time left, and
none starts once it is gone. Embedding, and the batches of a bulk write
beyond the first, run outside it (each batch request is still bounded).

Writes in doubt (shared stores): a write whose request timed out may still
have landed (a lost reply), or land later (a stopped server handles the
request once it runs again), with no revision change after it. So before a
write reads what it will change (:meth:`CacheUpdate.reserve`, at the start of
:meth:`Coordinator.writing`), it records a *write intent* on the entity's
revision record, in one request; the commit clears it, and a write that fails
before changing any row takes it back. If the intent cannot be recorded, the
write stops there and raises, having changed nothing. A ``forget`` or ``delete``
puts an erase mark on the token while it runs (writes that begin meanwhile wait
for it before they read), and deletes again once a write that had begun before it
has ended (:meth:`Coordinator.erase`). Every process reads the intents with the
token (``<token>~<intent>``: the same one read per recall, no extra request):

* the intents of writes this process has in flight are ignored: the write has
  not finished, so a recall may answer from the copy as it was before it;
* any other intent (another process's write in flight, or any failed write,
  this process's included) makes the token differ from every copy loaded
  before it: no such copy is served again. Until the intent has *settled*,
  :data:`SETTLE_TIMEOUTS` (3) times the request time limit after this engine
  first saw it (the writer's own deadline, 2, and one more for its last
  request to be handled), each recall reads the store and keeps nothing; a
  load that begins after that is kept, tagged with the intent, and used as
  long as the token is unchanged. A failed read of the token restarts the
  count for that entity (a request parked on a paused server lands when the
  server runs again).

So a recall that begins after a write returned or raised never answers from a
copy older than that write, in any process that can read the store; and once
3 x timeout has passed, recalls are served from memory again. The intent
stays on the record after a failed write; a later commit removes intents
older than an hour (``STALE_INTENT``). The per-entity map of intents seen
(``_seen``) is read and written only under lock 2 of its entity.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from .entity import DEFAULT_KEY, AnalyzerKey, EntityCache
from .entity_writes import Tokens
from .registry import DEFAULT_MAX_CACHED_BYTES, CacheRegistry
from ..facts import StoredFact
from ..lanes import ERASURES
from .columns import columns_from_store
from .trim import TRIM_MIN_ROWS, release_free_heap
from ..text import analyzer
from ..store import deadline
from ..store.base import FactStore, join_revision, split_revision
from ..store.rows import EntityColumns
from .snapshot_files import snapshot_files_for

logger = logging.getLogger(__name__)

_LOCK_STRIPES = 64
SETTLE_WITHOUT_LIMIT = 10.0
"""Seconds a write intent takes to settle when the store has no request time limit."""
SETTLE_TIMEOUTS = 3.0
"""A write intent settles this many request time limits after a process first saw it: the write's own deadline
(two) and one more for its last request to be handled."""
WRITE_TIMEOUTS = 2.0
"""A write finishes (or raises) within this many request time limits (:mod:`memori_core.store.deadline`)."""

# The intents (ids) of the writes this process has in flight, whichever engine makes them: a recall that finds
# one of them on a revision token serves the copy it holds (the write has not finished). Its lock is a leaf.
_IN_FLIGHT: set[str] = set()
_IN_FLIGHT_LOCK = threading.Lock()


def _leave(intent: str | None) -> None:
    if intent is not None:
        with _IN_FLIGHT_LOCK:
            _IN_FLIGHT.discard(intent)


def _own_view(token: str | None) -> tuple[str | None, frozenset[str]]:
    """``token`` without the intents of this process's writes in flight, and the intents left (other writers')."""
    committed, intents = split_revision(token)
    if not intents:
        return token, intents
    with _IN_FLIGHT_LOCK:
        others = intents - _IN_FLIGHT
    return join_revision(committed, others), others


def _others(token: str | None) -> frozenset[str]:
    """The intents on ``token`` that are not of this process's writes in flight."""
    return _own_view(token)[1]


def _writes(token: str | None) -> frozenset[str]:
    """The intents on ``token`` of other processes' writes that may write rows (not their erases' marks)."""
    return frozenset(i for i in _others(token) if not i.endswith(ERASE_SUFFIX))


# The marks of this process's erases that failed (under _IN_FLIGHT_LOCK): its own writes do not wait for them.
_FAILED_MARKS: set[str] = set()
_FAILED_MARKS_KEPT = 4096
_SETTLED = float("-inf")
"""A mark's first-seen time once it has settled."""
ERASE_SUFFIX = "-erase"
"""The end of an intent id that marks an erase (``forget``, ``delete``) in flight: writers wait for it to end."""
_COPY = object()
"""``Coordinator.writing``'s default base: the token of the cached copy."""
# Writes of at least this many facts tokenise them for the cache while the store writes.
_TOKENISE_BESIDE = 512


class CacheUpdate:
    """What one write did, to replay on the writer's cached copy if the write was the only change."""

    def __init__(self, begin: Callable[[], str | None] | None = None) -> None:
        self._ops: list[tuple[str, Any, Any]] = []
        self._begin = begin
        self.reload = False
        self.began = False
        """Whether :meth:`begin` was called: the write may have changed the store."""
        self.intent: str | None = None
        """The write's intent on the store's revision record (shared stores), once :meth:`reserve` or
        :meth:`begin` recorded it."""

        self.committed: str | None = None
        """The token the write's commit left (set once :meth:`Coordinator.writing` committed it)."""
        self.only_change = False
        """Whether the commit found the write the only change since the base it was given."""
        self._reserved = False

    def reserve(self) -> None:
        """Record the write's intent before the write reads what it will change (a shared store), so that a
        ``forget`` in another process sees the write in flight (:meth:`Coordinator.erase`). Raises when it
        cannot: the write must stop there, having changed nothing."""
        if not self._reserved and not self.began and self._begin is not None:
            self.intent = self._begin()
        self._reserved = True

    def unreserve(self) -> None:
        """Forget the intent :meth:`reserve` recorded (its caller took it back from the store)."""
        if not self.began:
            self.intent, self._reserved = None, False

    def begin(self) -> None:
        """Call right before the write's first change to the store: records its intent (a shared store) unless
        :meth:`reserve` did, so that no process serves a copy that may predate it. Raises when it cannot: the
        write must stop there."""
        if self.began:
            return
        if self._begin is not None and not self._reserved:
            self.intent = self._begin()
        self.began = True

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
        # entity -> {another writer's intent on its token: when (monotonic) this engine first saw it}; an
        # entity's entry is read and written only under its entity lock (lock 2).
        self._seen: dict[str, dict[str, float]] = {}
        # entity -> {another process's erase mark on its token: when (monotonic) a write of this engine first saw
        # it}; read and written only under _marks_lock, a leaf.
        self._marks_seen: dict[str, dict[str, float]] = {}
        self._marks_lock = threading.Lock()
        limit = store.request_timeout
        self.settle = SETTLE_TIMEOUTS * float(limit) if limit is not None else SETTLE_WITHOUT_LIMIT
        """Seconds after this engine first saw a write intent that the write is taken to have landed or not."""

    def deadline(self) -> contextlib.AbstractContextManager[None]:
        """The deadline of one write: :data:`WRITE_TIMEOUTS` times the store's request time limit (none without
        one). Every store request of the write gets the time left (:mod:`memori_core.store.deadline`)."""
        limit = self.store.request_timeout
        return deadline.within(WRITE_TIMEOUTS * float(limit) if limit is not None else None)

    def entity_lock(self, entity_id: str) -> threading.RLock:
        """Lock 2: this engine's lock for ``entity_id`` (entities hash onto 64 stripes)."""
        return self._locks[hash(entity_id) % _LOCK_STRIPES]

    @contextlib.contextmanager
    def reading(self, entity_id: str) -> Iterator[None]:
        """Hold lock 2 of ``entity_id`` for a read. Inside a fail-open call's time to reach the store
        (:func:`memori_core.store.deadline.reaching`) it is waited for no longer than the time left (then
        :class:`~memori_core.store.deadline.NotReached`): a recall queued behind another call of the user (or of
        an entity on the same stripe) that waits on a stalled server gives up with its own time."""
        with deadline.holding(self.entity_lock(entity_id), "taking the user's cached copy",
                              "another call of the user let go of its cached copy"):
            yield

    def cache_for(self, entity_id: str) -> EntityCache:
        """The entity's current copy, reloaded when the store's token changed. Call under :meth:`entity_lock`.

        The token is read on every call: for a store only this process writes
        to it is an in-memory lookup, for a shared store one read by id. A
        reload reads the entity's snapshot when the store keeps one that is
        valid for this very token, else every row from the store (and then
        schedules the snapshot's write in the background). While the token
        carries another writer's intent that has not settled, every call reads
        the store and keeps nothing (module docstring).
        """
        try:
            token = self.store.revision(entity_id)
        except BaseException:
            self._seen.pop(entity_id, None)  # a write may land while the store fails: settle again once it answers
            raise
        revision, others = _own_view(token)
        cache = self.caches.get(entity_id)
        if cache is not None and cache.revision == revision:
            return cache
        key = self._analyzer_key()
        if others and not self._settled(entity_id, others):
            self.caches.drop(entity_id)
            return self._load(entity_id, revision, key)  # served, not kept
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

    def _settled(self, entity_id: str, intents: frozenset[str]) -> bool:
        """Whether every one of ``intents`` (other writers', on the entity's token) was first seen by this engine
        at least :attr:`settle` seconds ago; starts the clock of those seen now for the first time."""
        now = time.monotonic()
        seen = {i: t for i, t in self._seen.get(entity_id, {}).items() if i in intents}
        for intent in intents:
            seen.setdefault(intent, now)
        self._seen[entity_id] = seen
        if all(now - t >= self.settle for t in seen.values()):
            del self._seen[entity_id]  # the copy loaded now is kept, tagged with these intents
            return True
        return False

    def _load(self, entity_id: str, revision: str | None, key: AnalyzerKey) -> EntityCache:
        rows = self.store.load_entity(entity_id)
        cache = EntityCache.from_columns(entity_id, revision, columns_from_store(rows.columns), key)
        n = len(rows)
        del rows
        if n >= TRIM_MIN_ROWS:
            release_free_heap()  # the store's read buffers, freed just now
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
    def writing(
        self, entity_id: str, *, base: str | None | object = _COPY, erasing: bool = False,
        since: int | None = None, what: str = "add",
    ) -> Iterator[CacheUpdate]:
        """Hold the store's write lock of ``entity_id`` around a write, then commit its revision and bring the
        cached copy up to date.

        On a shared store the write's intent is recorded first, before the body
        reads anything (:meth:`CacheUpdate.reserve`). The body calls
        :meth:`CacheUpdate.begin` right before it first changes the store,
        writes, and records what it did on the yielded :class:`CacheUpdate`.
        The engine's entity lock is taken only to read the copy before and to
        update it after, so recalls go on meanwhile with the copy as it was.
        If the body or the commit fails at any point, the copy is dropped, and
        the write's intent stays on the token (a shared store), or the token is
        changed, before the error propagates; a body that fails before
        :meth:`CacheUpdate.begin` changed nothing, and its intent is taken back.
        The commit's base is the cached copy's token, or ``base`` when given.
        Unless ``erasing`` (the body of :meth:`erase`), the write first waits for
        the erases other processes have in flight on the entity (:meth:`_await_erasures`).
        With ``since`` (the entity's erase generation when the write ``what`` began), a ``forget`` of the
        entity in this process since then makes it raise :class:`~memori_core.lanes.ForgottenError` under the
        write lock, before anything is read or written.
        """
        with self.store.write_lock(entity_id):
            ERASURES.check(entity_id, since, what)
            with self.entity_lock(entity_id):
                cache = self.caches.get(entity_id)
            snaps = snapshot_files_for(self.store)
            if snaps is not None:
                snaps.invalidate(entity_id)
            first = cache is None and self._never_written(entity_id)
            if base is _COPY:
                base = cache.revision if cache is not None else None
            assert base is None or isinstance(base, str)
            update = CacheUpdate(lambda: self._begin(entity_id))
            try:
                if self.store.shared:
                    update.reserve()
                    if not erasing:
                        self._await_erasures(entity_id, update)
                yield update
                if update.intent is None:
                    token, only_change = self.store.commit_revision(entity_id, base)
                else:
                    token, only_change = self.store.commit_revision(entity_id, base, update.intent)
                update.committed, update.only_change = token, only_change
            except BaseException:
                with self.entity_lock(entity_id):
                    self.caches.drop(entity_id)
                # A recorded intent stays: every process distrusts its copy until the write has settled. Without
                # one (a store only this process writes to), the token changes instead.
                if update.intent is not None and not update.began:
                    self._withdraw(entity_id, update.intent)
                elif update.intent is None and (update.began or not self.store.shared):
                    self._bump(entity_id)
                _leave(update.intent)
                raise
            try:
                with self.entity_lock(entity_id):
                    self._keep(entity_id, cache, first, token, only_change, update)
            finally:
                _leave(update.intent)

    def _begin(self, entity_id: str) -> str | None:
        """Record a write intent for ``entity_id`` (:meth:`CacheUpdate.begin`); its id, or None when the store
        needs none. Counted as in flight here from before it is sent, so this process never distrusts it."""
        intent = uuid.uuid4().hex[:16]
        with _IN_FLIGHT_LOCK:
            _IN_FLIGHT.add(intent)
        try:
            recorded = self.store.record_intent(entity_id, intent)
        except BaseException:
            _leave(intent)  # it may have landed: from now on it is another writer's intent, even here
            raise
        if not recorded:
            _leave(intent)
            return None
        return intent

    def _keep(
        self, entity_id: str, cache: EntityCache | None, first: bool, token: str, only_change: bool,
        update: CacheUpdate,
    ) -> None:
        """After a committed write (under lock 2): update the copy the write began with in place when the write
        is the only change since it, else drop it (a copy a recall loaded since the commit is kept)."""
        current = self.caches.get(entity_id)
        if cache is None or current is not cache:
            if current is not None and current.revision != token:
                self.caches.drop(entity_id)
                current = None
            if first and current is None:
                self._adopt_first_write(entity_id, token, update)
            return
        # Intents on the new token must be ones the copy had already waited out (or fewer).
        fresh = _others(token) <= split_revision(cache.revision)[1]  # (this process's erase mark is no one else's)
        if only_change and not update.reload and fresh:
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

    def erase(self, entity_id: str, erase: Callable[[CacheUpdate], None]) -> None:
        """Run ``erase`` (a write that deletes rows: ``forget``, ``delete``) so that no row of a write racing it
        in another process outlives it. ``erase`` is run as the body of :meth:`writing`, once or twice.

        On a shared store, the erase first records an *erase mark* on the token
        (an intent whose id ends in :data:`ERASE_SUFFIX`), kept until it ends:
        a write that begins meanwhile, in any process, waits for it to end
        before it reads anything (:meth:`_await_erasures`), so it reads what the
        erase left. A write that began before the mark may have read the rows
        first and write them back after the delete (an ``update`` writes the
        fact, and its old text as a version). Such a write either has its
        intent on the token read right after the mark, or on the token the
        erase's commit leaves (writers record their intent before they read:
        :meth:`CacheUpdate.reserve`), or committed in between (then the erase's
        commit is not the only change since that token). In any of these cases
        the erase waits until those intents are gone from the token (those
        writes ended), for at most :attr:`settle` seconds, and runs ``erase``
        again. A store only this process writes to needs none of this: its
        writes are serialised by the write lock.
        """
        if not self.store.shared:
            with self.writing(entity_id) as done:
                erase(done)
            return
        mark = uuid.uuid4().hex[:16] + ERASE_SUFFIX
        with _IN_FLIGHT_LOCK:
            _IN_FLIGHT.add(mark)
        try:
            self._erase_marked(entity_id, mark, erase)
        except BaseException:
            # Its mark may stay on the token; this process's writes need not wait for an erase that failed here
            # (its caller got the error and must erase again), other processes' do until it settles.
            with _IN_FLIGHT_LOCK:
                if len(_FAILED_MARKS) >= _FAILED_MARKS_KEPT:
                    _FAILED_MARKS.clear()
                _FAILED_MARKS.add(mark)
            raise
        finally:
            _leave(mark)  # a mark left on the token (a failed erase) is another writer's from now on, even here

    def _erase_marked(self, entity_id: str, mark: str, erase: Callable[[CacheUpdate], None]) -> None:
        """:meth:`erase` on a shared store, under the erase mark ``mark``."""
        self.store.record_intent(entity_id, mark)
        before = self.store.revision(entity_id)
        with self.writing(entity_id, base=before, erasing=True) as done:
            erase(done)
        racing = _writes(before) | _writes(done.committed)
        if done.began and not (done.only_change and not racing):
            with deadline.paused():  # the racing writes' time, not this write's: then a whole new deadline
                self._wait_until_gone(entity_id, racing)
                with self.deadline():
                    with self.writing(entity_id, erasing=True) as again:
                        erase(again)
                    self._unmark(entity_id, mark)
        else:
            self._unmark(entity_id, mark)

    def _unmark(self, entity_id: str, mark: str) -> None:
        """Take an erase's mark off the token; the copy the erase left, tagged with the token that carried it, is
        tagged with the token without it (what the store now reads, unless someone else wrote meanwhile)."""
        self.store.withdraw_intent(entity_id, mark)
        with self.entity_lock(entity_id):
            cache = self.caches.get(entity_id)
            committed, intents = split_revision(cache.revision if cache is not None else None)
            if cache is not None and mark in intents:
                cache.revision = join_revision(committed, intents - {mark})

    def _await_erasures(self, entity_id: str, update: CacheUpdate) -> None:
        """Before a write reads anything: while an erase another process has in flight on ``entity_id`` is on the
        token, take the write's intent back (so the erase, which waits for the writes it may race, does not wait
        for this one), wait until the erase ends or :attr:`settle` seconds have passed since this engine first saw
        it (it landed or never will), within the write's deadline, and record the intent again."""
        while True:
            marks = self._unsettled_marks(entity_id, self.store.revision(entity_id))
            if not marks:
                return
            if update.intent is not None:
                self.store.withdraw_intent(entity_id, update.intent)
                _leave(update.intent)
            update.unreserve()
            pause = 0.02
            while marks:
                deadline.check(f"an erase of entity {entity_id!r} in another process ended", waiting=True)
                time.sleep(pause)
                pause = min(pause * 2, 0.25)
                marks = self._unsettled_marks(entity_id, self.store.revision(entity_id))
            update.reserve()

    def _unsettled_marks(self, entity_id: str, token: str | None) -> set[str]:
        """The erase marks of other processes on ``token`` that this engine first saw less than :attr:`settle`
        seconds ago (a mark older than that is of an erase that landed or never will: no write waits for it
        again); starts the clock of those seen now for the first time."""
        now = time.monotonic()
        marks = {i for i in _others(token) if i.endswith(ERASE_SUFFIX)}
        if marks:
            with _IN_FLIGHT_LOCK:
                marks -= _FAILED_MARKS
        with self._marks_lock:
            seen = {m: t for m, t in self._marks_seen.get(entity_id, {}).items() if m in marks}
            for m in marks:
                seen.setdefault(m, now)
            for m, t in seen.items():
                if t != _SETTLED and now - t >= self.settle:
                    seen[m] = _SETTLED  # for good: a later change of settle does not bring it back
            if seen:
                self._marks_seen[entity_id] = seen
            else:
                self._marks_seen.pop(entity_id, None)
        return {m for m, t in seen.items() if t != _SETTLED}

    def _wait_until_gone(self, entity_id: str, intents: frozenset[str]) -> None:
        """Poll the token until none of ``intents`` is on it, for at most :attr:`settle` seconds."""
        end = time.monotonic() + self.settle
        pending = set(intents)
        pause = 0.02
        while pending and time.monotonic() < end:
            time.sleep(min(pause, max(0.0, end - time.monotonic())))
            pause = min(pause * 2, 0.25)
            try:
                pending &= split_revision(self.store.revision(entity_id))[1]
            except Exception:  # noqa: BLE001 - the delete after the wait reports a store that keeps failing
                logger.debug("entity %r: could not read the token while a forget waited", entity_id, exc_info=True)

    def _withdraw(self, entity_id: str, intent: str) -> None:
        try:
            self.store.withdraw_intent(entity_id, intent)
        except Exception:  # the intent stays; other processes then only distrust their copies until it settles
            logger.warning("entity %r: could not take back the intent of a write that changed nothing", entity_id,
                           exc_info=True)

    def _bump(self, entity_id: str) -> None:
        try:
            self.store.bump_revision(entity_id)
        except Exception:  # the store is failing; the local token has changed, the error that matters is the first
            logger.warning("entity %r: could not record the revision after a failed write", entity_id, exc_info=True)

    def clear(self) -> None:
        """Forget every cached copy."""
        self.caches.clear()


def _after_fork_in_child() -> None:
    """In a forked child: the parent's writes in flight and failed erases are another process's to the child
    (not its own), and a thread of the parent may have held their lock at the fork."""
    global _IN_FLIGHT_LOCK
    _IN_FLIGHT.clear()
    _FAILED_MARKS.clear()
    _IN_FLIGHT_LOCK = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
