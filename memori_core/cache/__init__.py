"""The recall cache: each entity's facts held in process as arrays, kept fresh against the store.

* :mod:`.strings`, :mod:`.columns` - per-row columns (numpy arrays; strings as one UTF-8 buffer + offsets) and
  the StoredFacts read from them;
* :mod:`.postings` - whole-memory BM25 postings as CSR arrays of term ids (:class:`CSRIndex`), one per analyzer;
* :mod:`.quantized` - the 8-bit FAISS copy of a large entity's matrix, searched with an exactness bound;
* :mod:`.entity` - :class:`EntityCache`, with :mod:`.sessions` (neighbour links)
  and :mod:`.compaction` (rebuilds);
* :mod:`.registry` - :class:`CacheRegistry`, bounded in entities and bytes;
* :mod:`.coordinator` - freshness and locking (the lock order is written there), with its parts: :mod:`.freshness`
  (which copy a read is served), :mod:`.writing` and :mod:`.erasing` (the write and erase protocols),
  :mod:`.cache_update` (what a write did, replayed on the copy), :mod:`.intents` (this process's intents in flight);
* :mod:`.snapshot_format` - the per-entity snapshot file, :mod:`.snapshot_files` - a store's snapshot folder
  (validity, invalidation, background writes);
* :mod:`.trim` - returning freed heap to the OS after a large load.
"""

from __future__ import annotations

from .entity import DEFAULT_KEY, EntityCache
from .postings import CSRIndex
from .registry import DEFAULT_MAX_CACHED_BYTES, CacheRegistry

__all__ = ["DEFAULT_KEY", "DEFAULT_MAX_CACHED_BYTES", "CSRIndex", "CacheRegistry", "EntityCache"]
