"""The in-process memory of the recall engine: per-entity caches held as columns, their registry and snapshots.

* :mod:`.strings`, :mod:`.columns` - per-row columns (numpy arrays; strings as one UTF-8 buffer + offsets);
* :mod:`.postings` - BM25 postings as CSR arrays of term ids (:class:`CSRIndex`), :mod:`.inverted` the
  plain per-term index used for other analyzers;
* :mod:`.entity` - :class:`EntityCache`, with :mod:`.sessions` (neighbour links), :mod:`.facts_view`
  (StoredFacts built on read) and :mod:`.compaction` (rebuilds);
* :mod:`.registry` - :class:`CacheRegistry`, bounded in entities and bytes;
* :mod:`.snapshot` - the per-entity snapshot file format, :mod:`.snapshots` - a store's snapshot folder
  (validity, invalidation, background writes);
* :mod:`.trim` - returning freed heap to the OS after a large load.
"""

from __future__ import annotations

from .entity import DEFAULT_KEY, EntityCache
from .inverted import InvertedIndex
from .postings import CSRIndex
from .registry import DEFAULT_MAX_CACHED_BYTES, CacheRegistry

__all__ = ["DEFAULT_KEY", "DEFAULT_MAX_CACHED_BYTES", "CSRIndex", "CacheRegistry", "EntityCache", "InvertedIndex"]
