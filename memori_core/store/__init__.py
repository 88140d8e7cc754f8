"""Embedding stores. Chroma serves all three deployments (embedded, in-memory, HTTP server)."""

from .base import EntityRows, FactStore, PartialDeleteError, PartialWriteError
from .chroma import ChromaStore, default_store_path
from .folder_lock import FolderInUseError

__all__ = [
    "ChromaStore", "EntityRows", "FactStore", "FolderInUseError", "PartialDeleteError", "PartialWriteError",
    "default_store_path",
]
