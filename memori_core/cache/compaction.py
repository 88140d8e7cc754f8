"""Rebuilding an entity cache from some of its rows: compaction (in place) and the canonical copy (snapshots)."""

from __future__ import annotations

from collections import Counter
from itertools import chain

import numpy as np

from .columns import Columns, LoadedColumns
from .entity import EntityCache, Forward
from .postings import CSRIndex


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


def _parts(cache: EntityCache, rows: np.ndarray) -> tuple[Columns, Forward, CSRIndex, int]:
    rows = np.asarray(rows, dtype=np.int64)
    cols = cache.columns.take(rows, cache._overrides)
    forward = gather_terms(cache, rows)
    # Term ids stay valid: the vocabulary is kept (terms no row holds any more score nothing).
    index = CSRIndex.build(dict(cache.lexicon.vocab), *forward)
    return cols, forward, index, int(np.isfinite(cols.expires).sum())


def rebuilt(cache: EntityCache, rows: np.ndarray) -> EntityCache:
    """A new cache of ``rows`` of ``cache`` (in that order); session links are rebuilt by ``seq``."""
    cols, forward, index, n_expiring = _parts(cache, rows)
    loaded = LoadedColumns(cols, Counter(cache.skipped_dims), n_expiring)
    out = EntityCache.from_columns(cache.entity_id, cache.revision, loaded, cache.key, forward=forward, index=index)
    out.dim = cache.dim
    return out


def rebuild_into(cache: EntityCache, rows: np.ndarray) -> None:
    """Keep only ``rows`` of ``cache`` (in that order), rebuilt in place; its warnings and revision stay."""
    picked = np.asarray(rows, dtype=np.int64).tolist()
    tokens = {key: [lists[r] for r in picked] for key, lists in cache._tokens.items()}
    indexed = list(cache._indexes)
    cols, forward, index, n_expiring = _parts(cache, rows)
    cache._adopt(cols, forward, index, n_expiring)
    cache._tokens = tokens
    for key in indexed:
        cache.index(key)
