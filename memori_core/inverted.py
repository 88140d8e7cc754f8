"""Compatibility import: :class:`InvertedIndex` lives in :mod:`memori_core.memory.inverted`."""

from __future__ import annotations

from .memory.inverted import InvertedIndex

__all__ = ["InvertedIndex"]
