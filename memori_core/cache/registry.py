"""The engine's map of entity -> cache: least recently used first out, bounded in entities and in bytes."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from ..error_log import warn_briefly

logger = logging.getLogger(__name__)

DEFAULT_MAX_CACHED_BYTES = 1 << 30
"""Default bound on the bytes of all cached entities of one engine (1 GiB)."""


class _Sized(Protocol):
    entity_id: str

    def nbytes(self) -> int: ...


C = TypeVar("C", bound=_Sized)


class CacheRegistry(Generic[C]):
    """Least-recently-used map of entity -> cache, thread-safe, bounded by ``max_entities`` and ``max_cached_bytes``.

    A cache's size is its ``nbytes()``, measured when it is put and re-measured
    for every entry at each put (writes grow caches in place between loads), so
    the bound holds from every load on. The entry just put is never evicted,
    even when it alone is above the byte bound (it is then the only one kept).
    ``on_evict(cache)`` runs for each evicted cache outside the registry's lock
    (the engine schedules a snapshot of it there); it must not block.
    """

    def __init__(
        self,
        max_entities: int,
        max_cached_bytes: int | None = DEFAULT_MAX_CACHED_BYTES,
        on_evict: Callable[[C], Any] | None = None,
    ) -> None:
        if max_cached_bytes is not None and max_cached_bytes < 0:
            raise ValueError(f"max_cached_bytes must be >= 0 or None, got {max_cached_bytes!r}")
        self.max_entities = max_entities
        self.max_cached_bytes = max_cached_bytes
        self.on_evict = on_evict
        self._items: OrderedDict[str, C] = OrderedDict()
        self._sizes: dict[str, int] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def entities(self) -> list[str]:
        """Cached entities, least recently used first."""
        with self._lock:
            return list(self._items)

    def get(self, entity_id: str) -> C | None:
        with self._lock:
            item = self._items.get(entity_id)
            if item is not None:
                self._items.move_to_end(entity_id)
            return item

    def put(self, cache: C) -> None:
        """Add (or replace) ``cache`` as the most recently used, then evict until within both bounds."""
        with self._lock:
            items = list(self._items.values())
        # Outside the lock: nbytes() reads the caches (it is O(1): counters, not a walk).
        sizes = {c.entity_id: size for c in items if (size := _measure(c)) is not None}
        sizes[cache.entity_id] = _measure(cache) or 0
        with self._lock:
            key = cache.entity_id
            self._items[key] = cache
            self._items.move_to_end(key)
            for k in self._items:
                if k in sizes:
                    self._sizes[k] = sizes[k]
            evicted = self._evict(keep=key)
        self._after(evicted)

    def _evict(self, keep: str) -> list[C]:
        out: list[C] = []
        limit = self.max_cached_bytes
        total = sum(self._sizes.values())
        while len(self._items) > 1 and (len(self._items) > self.max_entities or (limit is not None and total > limit)):
            key = next(iter(self._items))
            if key == keep:  # only the newest entry is left above the bound
                break
            out.append(self._items.pop(key))
            total -= self._sizes.pop(key, 0)
        return out

    def _after(self, evicted: list[C]) -> None:
        if self.on_evict is None:
            return
        for cache in evicted:
            try:
                self.on_evict(cache)
            except Exception as exc:  # noqa: BLE001 - an eviction hook must never fail a recall
                warn_briefly(logger, exc, "entity %r: eviction hook failed", cache.entity_id)

    def drop(self, entity_id: str) -> None:
        with self._lock:
            self._items.pop(entity_id, None)
            self._sizes.pop(entity_id, None)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._sizes.clear()


def _measure(cache: Any) -> int | None:
    try:
        return int(cache.nbytes())
    except Exception:  # noqa: BLE001 - a cache being rebuilt by a write: keep its last size
        return None
