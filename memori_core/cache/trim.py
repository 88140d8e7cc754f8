"""Give freed heap memory back to the operating system after a large load (glibc only)."""

from __future__ import annotations

import ctypes
import logging
import platform
import sys
from collections.abc import Callable
from functools import lru_cache

logger = logging.getLogger(__name__)

TRIM_MIN_ROWS = 2000
"""Loads of at least this many rows are followed by a trim (smaller ones leave little behind)."""


@lru_cache(maxsize=1)
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc":
        return None
    try:
        fn = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_size_t]
    fn.restype = ctypes.c_int
    return fn


def release_free_heap() -> bool:
    """Return the heap's free pages to the OS (``malloc_trim(0)``); True when that ran.

    A whole-entity read from Chroma allocates and frees hundreds of MB of
    small objects; glibc keeps those pages, so without this the process's
    resident memory stays several times the size of the cache it built.
    Elsewhere (musl, macOS, Windows) this does nothing.
    """
    fn = _malloc_trim()
    if fn is None:
        return False
    try:
        fn(0)
    except Exception:  # noqa: BLE001 - an optimisation only
        logger.debug("malloc_trim failed", exc_info=True)
        return False
    return True
