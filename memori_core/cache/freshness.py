"""Which copy of an entity a read is served (:class:`Freshness`, the read side of
:class:`~memori_core.cache.coordinator.Coordinator`): the cached copy while the store's revision token is the one
it was loaded at, else a snapshot valid for the token, else the rows read from the store; while another writer's
intent on the token has not settled, a copy read from the store is served and not kept."""

from __future__ import annotations

import time
from collections.abc import Callable

from ..store.base import FactStore
from . import intents
from .columns import columns_from_store
from .entity import AnalyzerKey, EntityCache
from .registry import CacheRegistry
from .snapshot_files import snapshot_files_for
from .trim import TRIM_MIN_ROWS, release_free_heap


class Freshness:
    """The reads of :class:`~memori_core.cache.coordinator.Coordinator` (a mixin: the state is the coordinator's,
    declared here)."""

    store: FactStore
    caches: CacheRegistry[EntityCache]
    settle: float
    _analyzer_key: Callable[[], AnalyzerKey]
    _seen: dict[str, dict[str, float]]

    def cache_for(self, entity_id: str) -> EntityCache:
        """The entity's current copy, reloaded when the store's token changed. Call under :meth:`entity_lock`.

        The token is read on every call: for a store only this process writes
        to it is an in-memory lookup, for a shared store one read by id. A
        reload reads the entity's snapshot when the store keeps one that is
        valid for this very token, else every row from the store (and then
        schedules the snapshot's write in the background). While the token
        carries another writer's intent that has not settled, every call reads
        the store and keeps nothing (:mod:`memori_core.cache.coordinator`).
        """
        try:
            token = self.store.revision(entity_id)
        except BaseException:
            self._seen.pop(entity_id, None)  # a write may land while the store fails: settle again once it answers
            raise
        revision, others = intents.own_view(token)
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
        """Every row of ``entity_id`` read from the store, as a copy tagged with ``revision``."""
        rows = self.store.load_entity(entity_id)
        cache = EntityCache.from_columns(entity_id, revision, columns_from_store(rows.columns), key)
        n = len(rows)
        del rows
        if n >= TRIM_MIN_ROWS:
            release_free_heap()  # the store's read buffers, freed just now
        return cache
