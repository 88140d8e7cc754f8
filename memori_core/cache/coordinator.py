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

0. the process's statement lock of the entity (:mod:`memori_core.capture.statements`): held by capture from its
   last look at the user's facts to the end of its ``add``, and by a model's write (the memory tools'
   ``remember``, MCP ``add``) around its plan and ``add``, so the second of two writers of one statement sees the
   first's fact; taken before every lock below, never while one is held, and never twice. Over a shared store
   it is held on through the writer's second look (:mod:`memori_core.capture.repeats`: a wait for other
   processes' writes in flight, reads, and a ``delete`` of its own fact when another process wrote the statement
   first), which takes the locks below as any call does;
1. the store's write lock for the entity (``store.write_lock(entity_id)``):
   process-wide, shared by every engine and store object on the same
   collection, one per entity; held around a whole write and its revision
   commit (inside a write's deadline, waited for no longer than the time left);
2. the engine's entity lock (:meth:`Coordinator.entity_lock`, one lock per
   entity, made on first use and gone once no call holds or waits for it):
   held by a recall while it checks and reads the copy (and, for a cold or
   stale copy, while it loads the entity from the store), and by a
   write only to read the copy before its first store call and to update it
   after its commit, never across the write's store calls. So a recall never
   waits for a write's requests: while a write is in flight, recalls of its
   entity answer from the copy as it was before the write; and no entity's
   call waits for another entity's load. A fail-open read
   waits for it no longer than its time to reach the store (:meth:`Coordinator.reading`);
3. the cache registry's lock: taken only inside :class:`CacheRegistry` methods;
4. the store's lock around its in-process state (ChromaStore: its map of
   revision tokens; InMemoryFactStore: its rows and tokens); the lock of
   this process's intents in flight and failed erase marks (:mod:`.intents`); an
   engine's lock on the erase marks its writes have seen (``_marks_lock``);
   and the lock of the process's erase generations (:data:`memori_core.lanes.ERASURES`),
   taken under lock 1 by a write that checks no ``forget`` of its entity came after it began;
   the guard of the engine's map of entity locks (:meth:`Coordinator.entity_lock`), held only to find
   or make an entity's lock, never while waiting for one.

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

Where it is: this module holds :class:`Coordinator` (the entity locks, the deadline, the settle time) and this
protocol, the one place the lock order is written; its parts are :mod:`.freshness` (which copy a read is
served), :mod:`.writing` (a write's way: lock 1, its intent, the commit, the copy kept or dropped),
:mod:`.erasing` (``forget`` and ``delete`` under an erase mark), :mod:`.cache_update` (what a write did, replayed
on the copy) and :mod:`.intents` (this process's intents in flight and failed erase marks).
"""

from __future__ import annotations

import contextlib
import os
import threading
import weakref
from collections.abc import Callable, Iterator

from ..store import deadline
from ..store.base import FactStore
from .entity import DEFAULT_KEY, AnalyzerKey, EntityCache
from .erasing import Erasing
from .freshness import Freshness
from .registry import DEFAULT_MAX_CACHED_BYTES, CacheRegistry
from .snapshot_files import snapshot_files_for

SETTLE_WITHOUT_LIMIT = 10.0
"""Seconds a write intent takes to settle when the store has no request time limit."""
SETTLE_TIMEOUTS = 3.0
"""A write intent settles this many request time limits after a process first saw it: the write's own deadline
(two) and one more for its last request to be handled."""
WRITE_TIMEOUTS = 2.0
"""A write finishes (or raises) within this many request time limits (:mod:`memori_core.store.deadline`)."""


class Coordinator(Freshness, Erasing):
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
        # entity -> its lock 2, kept alive by the calls that hold or wait for it (a `with` keeps a reference).
        self._locks: weakref.WeakValueDictionary[str, threading.RLock] = weakref.WeakValueDictionary()
        self._locks_guard = threading.Lock()
        _COORDINATORS.add(self)
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
        """Lock 2: this engine's lock for ``entity_id``, its own (no other entity's call ever waits for it).

        Made on first use; it lasts while anyone holds a reference to it (a call
        holding or waiting for it), so every call that holds it at one time holds
        the same lock. In a process forked from this one, the locks start anew (a
        thread of the parent may have held one at the fork)."""
        with self._locks_guard:
            lock = self._locks.get(entity_id)
            if lock is None:
                lock = self._locks[entity_id] = threading.RLock()
        return lock

    @contextlib.contextmanager
    def reading(self, entity_id: str) -> Iterator[None]:
        """Hold lock 2 of ``entity_id`` for a read. Inside a fail-open call's time to reach the store
        (:func:`memori_core.store.deadline.reaching`) it is waited for no longer than the time left (then
        :class:`~memori_core.store.deadline.NotReached`): a recall queued behind another call of the user that
        waits on a stalled server gives up with its own time."""
        with deadline.holding(self.entity_lock(entity_id), "taking the user's cached copy",
                              "another call of the user let go of its cached copy"):
            yield

    def clear(self) -> None:
        """Forget every cached copy."""
        self.caches.clear()


_COORDINATORS: weakref.WeakSet[Coordinator] = weakref.WeakSet()
"""The coordinators of this process, whose entity locks a forked child makes anew."""


def _after_fork_in_child() -> None:
    """In a forked child: every coordinator's entity locks start anew (a thread of the parent may have held one,
    or the guard of their map, at the fork)."""
    for coord in list(_COORDINATORS):
        coord._locks_guard = threading.Lock()  # noqa: SLF001 - this module's own state
        coord._locks = weakref.WeakValueDictionary()  # noqa: SLF001


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
