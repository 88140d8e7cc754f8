"""A store's folder of per-entity cache snapshots: which file, when it is valid, invalidation, writing.

Stores that offer a cache folder only (``store.cache_folder``; among
memori-recall's, ``ChromaStore(path=DIR)``): the folder lock already makes
this process the only writer of DIR, so the only writes a snapshot can miss
are this process's, and those go through the engine's write protocol::

    DIR/snapshots/<collection id>/<sha256(entity_id)[:32]>.snap

The cache, not the store, makes a store's :class:`SnapshotFiles`
(:func:`snapshot_files_for`: one per store object, on the first engine over
it) and registers its :meth:`~SnapshotFiles.close` with ``store.on_close``.

Rules (the file format and its header are in :mod:`memori_core.cache.snapshot_format`):

* used only when its header's revision equals ``store.revision(entity_id)``
  and its entity, collection, schema and versions match and its data is
  intact (size, CRC-32); any other file at that path is deleted and the
  entity is loaded from the store, the source of truth;
* deleted (:meth:`SnapshotFiles.invalidate`) at the start of every write of
  the entity, under the store's write lock for it (the coordinator's
  ``writing()``), so a crash between the store write and the revision commit
  never leaves a file that still looks valid;
* written from a cache only in its canonical (reload) form, to a temporary
  file that is renamed into place under the same write lock and only if the
  store's revision then is still the one the rows were taken at: a write that
  raced the snapshot changed the revision first, so the file is dropped;
* written after a load from the store, by one background thread (a bounded
  queue: never blocking a recall, dropping requests when full), for caches
  evicted from an engine's registry, and for every cache still current and
  without a valid file on :meth:`SnapshotFiles.close` (run by the store's
  ``close()`` while the store is still open) and at interpreter exit.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import itertools
import logging
import os
import threading
import weakref
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..error_log import warn_briefly
from .entity import EntityCache
from .postings import AnalyzerKey
from .snapshot_format import Expected, SnapshotError, load_snapshot, read_header, write_snapshot

if TYPE_CHECKING:
    from ..store.base import FactStore

logger = logging.getLogger(__name__)

SUFFIX = ".snap"
MAX_PENDING = 4
"""Snapshot writes queued for the background thread at most (further requests wait for close)."""

_OPEN: weakref.WeakSet[SnapshotFiles] = weakref.WeakSet()

# The SnapshotFiles of each store object (by id, checked against a weak reference to the store). Weak both
# ways: a store's files live as long as the store does, through the close callback the store holds.
_ATTACHED: dict[int, tuple[weakref.ref[Any], weakref.ref[SnapshotFiles]]] = {}
_ATTACH_LOCK = threading.Lock()

# The names of the temporary files this process is writing now, in any folder (unique: pid, thread, counter).
# Two store objects of one process may share a folder (a notebook cell that builds the engine again): the second
# one's clean-up of leftovers must not delete the file the first one's writer is about to rename into place.
# Guarded by _IN_FLIGHT_LOCK, which is also held while a leftover is checked and deleted.
_IN_FLIGHT: set[str] = set()
_IN_FLIGHT_LOCK = threading.Lock()
_TMP_COUNTER = itertools.count()


def snapshot_name(entity_id: str) -> str:
    """The file name of an entity's snapshot (a hash: entity ids may hold any character)."""
    return hashlib.sha256(entity_id.encode("utf-8")).hexdigest()[:32] + SUFFIX


class SnapshotFiles:
    """The snapshots of one collection of a store, in ``directory`` (the store's ``cache_folder.path``).

    ``revision(entity_id)`` and ``write_lock(entity_id)`` are the store's
    (:meth:`FactStore.revision <memori_core.store.base.RevisionStore.revision>`,
    :meth:`FactStore.write_lock <memori_core.store.base.RevisionStore.write_lock>`).
    Made for a store by :func:`snapshot_files_for`.
    """

    def __init__(
        self,
        directory: str | os.PathLike[str],
        collection_id: str,
        revision: Callable[[str], str | None],
        write_lock: Callable[[str], contextlib.AbstractContextManager[Any]],
        *,
        background: bool = True,
    ) -> None:
        self.directory = Path(directory)
        self.collection_id = collection_id
        self._revision = revision
        self._write_lock = write_lock
        self.background = background
        self._lock = threading.Lock()  # a leaf: guards the queue and the tracked caches only
        self._pending: deque[EntityCache] = deque()  # held until written (evicted caches have no other owner)
        self._worker: threading.Thread | None = None
        self._tracked: weakref.WeakSet[EntityCache] = weakref.WeakSet()
        self._closed = False
        self._pid = os.getpid()  # a forked child does not hold the folder: it never writes
        self.written = 0  # snapshots written
        self.loaded = 0  # caches loaded from a snapshot
        self._remove_leftovers()
        _OPEN.add(self)

    def _remove_leftovers(self) -> None:
        """Delete temporary files a killed process left. This process holds the folder, so no other process
        writes one; another store object of this process may be writing one now, and that one is kept."""
        with contextlib.suppress(OSError):
            for entry in os.scandir(self.directory):
                if ".tmp" in entry.name and entry.name.split(".tmp")[0].endswith(SUFFIX):
                    with _IN_FLIGHT_LOCK, contextlib.suppress(OSError):
                        if entry.name not in _IN_FLIGHT:
                            os.unlink(entry.path)

    def __repr__(self) -> str:
        return f"SnapshotFiles({str(self.directory)!r})"

    def path(self, entity_id: str) -> Path:
        """Where ``entity_id``'s snapshot lives."""
        return self.directory / snapshot_name(entity_id)

    # -- invalidation ---------------------------------------------------------

    def invalidate(self, entity_id: str) -> None:
        """Delete the entity's snapshot (call under the store's write lock for it, before writing)."""
        path = self.path(entity_id)
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        except OSError as exc:
            # The revision check still rejects it once the write commits; only a crash
            # before the commit could then leave it looking valid. Say so.
            warn_briefly(logger, exc, "could not delete the snapshot %s before a write", path)

    # -- reading --------------------------------------------------------------

    def load(self, entity_id: str, revision: str | None, key: AnalyzerKey) -> EntityCache | None:
        """The entity's cache from its snapshot when that is valid for ``revision``; otherwise ``None``
        (and a file that can never become valid is deleted)."""
        if revision is None:
            return None
        path = self.path(entity_id)
        key = tuple(key)  # type: ignore[assignment]
        try:
            snap = load_snapshot(path, Expected(entity_id, revision, self.collection_id))
            if snap.key == key:
                cache = EntityCache.from_columns(
                    entity_id, revision, snap.loaded, key, forward=snap.forward, index=snap.index,
                    stored_copy=snap.copy,
                )
            else:  # written for another analyzer: the rows are right, the tokens are not
                cache = EntityCache.from_columns(entity_id, revision, snap.loaded, key, stored_copy=snap.copy)
        except FileNotFoundError:
            return None
        except Exception as exc:  # noqa: BLE001 - any damaged or foreign file: load from the store instead
            logger.info("entity %r: snapshot %s not used (%s)", entity_id, path.name, exc)
            self._discard(path)
            return None
        self.track(cache)
        self.loaded += 1
        return cache

    def _discard(self, path: Path) -> None:
        with contextlib.suppress(OSError):
            os.unlink(path)

    def is_current(self, cache: EntityCache) -> bool:
        """True when a valid-looking snapshot of ``cache``'s entity at ``cache``'s revision exists (header only)."""
        try:
            header, _ = read_header(self.path(cache.entity_id))
        except (OSError, SnapshotError):
            return False
        return cache.revision is not None and Expected(cache.entity_id, cache.revision, self.collection_id).mismatch(
            header
        ) is None

    # -- writing --------------------------------------------------------------

    def track(self, cache: EntityCache) -> None:
        """Remember ``cache`` (weakly): :meth:`flush` writes it if it is current and has no snapshot."""
        with self._lock:
            self._tracked.add(cache)

    def schedule(self, cache: EntityCache) -> None:
        """Write ``cache``'s snapshot soon, on the background thread, unless it has a valid one.

        At most :data:`MAX_PENDING` requests wait; further ones are dropped (a
        tracked cache is still written on :meth:`flush`). Never blocks.
        """
        self.track(cache)
        if not self.background or self.is_current(cache):
            return
        with self._lock:
            if self._closed or len(self._pending) >= MAX_PENDING:
                return
            self._pending.append(cache)
            if self._worker is None:
                # Not a daemon: an interpreter exiting waits for the file being written.
                self._worker = threading.Thread(target=self._drain, name="memori-recall-snapshots")
                self._worker.start()

    def _drain(self) -> None:
        while True:
            with self._lock:
                if not self._pending:
                    self._worker = None
                    return
                cache = self._pending.popleft()
            self.write(cache)
            del cache

    def write(self, cache: EntityCache) -> bool:
        """Write ``cache``'s snapshot now if it is still current; True when the file is valid for it afterwards.

        Never raises: a failed snapshot only costs a slower load later.
        """
        entity_id, revision = cache.entity_id, cache.revision
        if revision is None or self._closed or os.getpid() != self._pid:
            return False
        path = self.path(entity_id)
        # Unique per write (two store objects of this process may write the same entity's file at once).
        tmp = path.with_name(f"{path.name}.tmp{os.getpid()}-{threading.get_ident()}-{next(_TMP_COUNTER)}")
        with _IN_FLIGHT_LOCK:
            _IN_FLIGHT.add(tmp.name)
        try:
            if self._revision(entity_id) != revision:
                return False  # a write changed the entity since this copy was loaded
            if self.is_current(cache):
                return True
            if not self.directory.parent.parent.is_dir():
                return False  # the store's folder (see CacheFolder) is gone (e.g. a temporary one at exit)
            self.directory.mkdir(parents=True, exist_ok=True)
            # The rows are read and written without the lock (recalls and writes go on);
            # a write that changes them also changes the revision, which is checked below.
            write_snapshot(tmp, cache.canonical(), self.collection_id)
            with self._write_lock(entity_id):
                if self._revision(entity_id) != revision:
                    return False
                os.replace(tmp, path)
            self.written += 1
            return True
        except Exception as exc:  # noqa: BLE001
            warn_briefly(logger, exc, "entity %r: could not write its snapshot", entity_id)
            return False
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            with _IN_FLIGHT_LOCK:
                _IN_FLIGHT.discard(tmp.name)

    def wait(self) -> None:
        """Wait until the background thread has written what was queued."""
        while True:
            with self._lock:
                worker = self._worker
            if worker is None or worker is threading.current_thread():
                return
            worker.join()

    def flush(self) -> int:
        """Wait for queued writes, then write every tracked cache that is current and has no valid snapshot;
        returns how many were written."""
        self.wait()
        with self._lock:
            caches = list(self._tracked)
        done = 0
        latest: dict[str, EntityCache] = {}
        for cache in caches:  # one per entity: a current one if any
            if cache.revision is not None and cache.revision == self._safe_revision(cache.entity_id):
                latest[cache.entity_id] = cache
        for cache in latest.values():
            if not self.is_current(cache) and self.write(cache):
                done += 1
        return done

    def _safe_revision(self, entity_id: str) -> str | None:
        try:
            return self._revision(entity_id)
        except Exception:  # noqa: BLE001 - a closing store
            return None

    def close(self) -> None:
        """Write what :meth:`flush` writes, then stop (the store is closing). Idempotent."""
        if self._closed:
            return
        try:
            self.flush()
        finally:
            with self._lock:
                self._closed = True
                self._pending.clear()
                self._tracked = weakref.WeakSet()
            _OPEN.discard(self)


def snapshot_files_for(store: FactStore) -> SnapshotFiles | None:
    """The :class:`SnapshotFiles` of ``store``, made on the first call for the store object; ``None`` when the
    store offers no cache folder (an in-memory or server store, ``snapshots=False``, or a closed store).

    Making them removes the temporary files a killed process left in the
    folder and registers :meth:`SnapshotFiles.close` with ``store.on_close``,
    so that ``store.close()`` writes the snapshots still missing while the
    store is open. Takes the attach lock only to make them (nothing else is
    waited for while it is held but the store's own lock on its callbacks).
    """
    folder = store.cache_folder
    if folder is None:
        return None
    key = id(store)
    entry = _ATTACHED.get(key)
    files = entry[1]() if entry is not None and entry[0]() is store else None
    if files is not None:
        return files
    with _ATTACH_LOCK:
        entry = _ATTACHED.get(key)
        files = entry[1]() if entry is not None and entry[0]() is store else None
        if files is None:
            files = SnapshotFiles(folder.path, folder.collection_id, store.revision, store.write_lock)
            store.on_close(files.close)  # (the store holds the files from here on)
            _ATTACHED[key] = (weakref.ref(store, lambda _: _ATTACHED.pop(key, None)), weakref.ref(files))
    return files


@atexit.register
def _flush_at_exit() -> None:
    for files in list(_OPEN):
        with contextlib.suppress(Exception):
            files.flush()
