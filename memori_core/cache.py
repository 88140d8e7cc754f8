"""Compatibility import: the per-entity caches live in :mod:`memori_core.memory`.

:class:`EntityCache` (one entity's facts in scoring form, held as columns) and
:class:`CacheRegistry` (the engine's LRU map of them, bounded in entities and bytes).
"""

from __future__ import annotations

from .memory.entity import _COMPACT_MIN_DEAD, _COMPACT_SHARE, DEFAULT_KEY, AnalyzerKey, EntityCache, Tokens
from .memory.registry import DEFAULT_MAX_CACHED_BYTES, CacheRegistry

__all__ = [
    "DEFAULT_KEY",
    "DEFAULT_MAX_CACHED_BYTES",
    "AnalyzerKey",
    "CacheRegistry",
    "EntityCache",
    "Tokens",
    "_COMPACT_MIN_DEAD",
    "_COMPACT_SHARE",
]
