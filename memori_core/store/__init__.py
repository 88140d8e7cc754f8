"""Where facts are stored: the protocol the engine needs, Chroma behind it, and a reference store in memory.

* :mod:`.base` - the protocol: :class:`RowStore` (rows), :class:`RevisionStore`
  (revision tokens, write locks), :class:`FactStore` (both, plus a cache's
  folder and close callbacks), the partial-write errors, :class:`WriteOutcomeUnknown` and how a store settles a write that failed part-way;
* :mod:`.rows` - one entity's rows as the store hands them to the cache;
* :mod:`.in_memory` - :class:`InMemoryFactStore`, the reference store (pure Python and numpy);
* :mod:`.chroma` - :class:`ChromaStore`: embedded, in-memory or a ``chroma run`` server (opening and closing);
  beside it its methods, :mod:`.chroma_reads` (rows read, paged), :mod:`.chroma_writes` (writes in batches,
  read back when they fail) and :mod:`.chroma_revisions` (revision tokens, version slots, write locks), and
  :mod:`.chroma_records` (the row layout), :mod:`.chroma_old_layout` (rows older versions wrote),
  :mod:`.chroma_collections` (the guards around its collections), :mod:`.chroma_client` (opening clients),
  :mod:`.chroma_paths` (the default folder), :mod:`.chroma_log` (scrubbing deleted texts from Chroma's log);
* :mod:`.unreachable` - :class:`StoreUnreachable` / :class:`StoreTimedOut`, what a server's transport failures
  are raised as;
* :mod:`.keyed_locks` - one lock per entity; :mod:`.folder_lock` - one process per embedded folder;
* :mod:`.deadline` - a write's time limit, which every request of the write takes the time left of, and a
  fail-open call's time to send its first request.

Chroma is imported in the ``chroma*`` modules only.
"""

from .base import (
    CacheFolder, ClosedError, EntityRows, FactStore, PartialDeleteError, PartialWriteError, RevisionStore, RowStore,
    WriteOutcomeUnknown,
)
from .chroma import ChromaStore, default_store_path
from .chroma_client import chroma_errors
from .deadline import DeadlineExceeded
from .folder_lock import FolderInUseError, StoreFolderGoneError
from .in_memory import InMemoryFactStore
from .unreachable import StoreTimedOut, StoreUnreachable

__all__ = [
    "CacheFolder", "ChromaStore", "ClosedError", "DeadlineExceeded", "EntityRows", "FactStore", "FolderInUseError",
    "InMemoryFactStore",
    "PartialDeleteError", "PartialWriteError", "RevisionStore", "RowStore", "StoreFolderGoneError", "StoreTimedOut",
    "StoreUnreachable", "WriteOutcomeUnknown",
    "chroma_errors", "default_store_path",
]
