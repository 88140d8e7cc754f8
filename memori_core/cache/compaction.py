"""The parts of an entity cache rebuilt from some of its rows (columns, forward index, postings), for compaction
(in place) and the canonical copy (snapshots): :meth:`EntityCache.maybe_compact` and :meth:`EntityCache.canonical`."""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING

import numpy as np

from .columns import Columns
from .postings import CSRIndex, Forward

if TYPE_CHECKING:
    from .entity import EntityCache


def gather_terms(cache: EntityCache, rows: np.ndarray) -> Forward:
    """The forward index (``doc_ptr``, ``doc_terms``) of ``rows`` of ``cache``, in that order (vectorised)."""
    doc_ptr, doc_terms = cache.forward
    delta = cache._delta_docs
    starts, ends, flat = doc_ptr[:-1], doc_ptr[1:], doc_terms
    if delta:
        lens = np.fromiter(map(len, delta), dtype=np.int64, count=len(delta))
        dptr = np.zeros(len(delta) + 1, dtype=np.int64)
        np.cumsum(lens, out=dptr[1:])
        dptr += doc_terms.shape[0]
        extra = np.fromiter(chain.from_iterable(delta), dtype=np.int32, count=int(lens.sum()))
        flat = np.concatenate((doc_terms, extra))
        starts = np.concatenate((starts, dptr[:-1]))
        ends = np.concatenate((ends, dptr[1:]))
    lo = starts[rows]
    lens = ends[rows] - lo
    ptr = np.zeros(rows.shape[0] + 1, dtype=np.int64)
    np.cumsum(lens, out=ptr[1:])
    at = np.repeat(lo - ptr[:-1], lens) + np.arange(int(ptr[-1]), dtype=np.int64)
    return ptr, np.ascontiguousarray(flat[at], dtype=np.int32)


def rebuilt_parts(cache: EntityCache, rows: np.ndarray) -> tuple[Columns, Forward, CSRIndex, int]:
    """Columns, forward index, postings and expiring-row count of ``rows`` of ``cache``, in that order."""
    rows = np.asarray(rows, dtype=np.int64)
    cols = cache.columns.take(rows, cache._overrides)
    forward = gather_terms(cache, rows)
    # Term ids stay valid: the vocabulary is kept (terms no row holds any more score nothing).
    index = CSRIndex.build(dict(cache.lexicon.vocab), *forward)
    return cols, forward, index, int(np.isfinite(cols.expires).sum())
