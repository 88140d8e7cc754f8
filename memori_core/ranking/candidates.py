"""Which rows of an entity's memory a recall scores, and the pool's inputs to :func:`~.pipeline.score_pool`.

The first step of the formula (docs/ranking.md), over anything that holds an entity's rows as arrays
(:class:`Memory`; the engine passes its :class:`~memori_core.cache.EntityCache`):

1. the rows a recall may return (``allowed``: live, not expired, matching ``where``; ``None`` for every live
   row), cut to the ``dense_limit`` most recent ones (:func:`scored_rows`);
2. the dense pool: the ``P`` best cosines (:func:`~.fusion.candidate_limit`), from an exact scan, or, above
   ``quantized_above`` rows, from the memory's 8-bit copy re-scored exactly (the same rows);
3. the lexical pool: BM25's ``P`` best over the same rows, from the whole-memory index (``pool="union"``);
4. their union plus the session neighbours that join it (:func:`~.pipeline.assemble_pool`; a filtered-out or
   expired fact neither joins nor lends relevance), in written order (:func:`~.ties.written_order`);
5. the pool's cosines, term frequencies, lengths and sessions, read from the memory's arrays and postings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ..config import RecallConfig
from .dense import cosine_scores, top_k
from .fusion import candidate_limit
from .pipeline import NeighbourLookup, Pool, assemble_pool, dense_top, neighbour_hops
from .ties import TieOrder, later_first, written_order

__all__ = ["Candidates", "Lexicon", "Memory", "QuantizedSearch", "gather", "scored_rows"]

AnalyzerKey = tuple[str, "str | None"]


class QuantizedSearch(Protocol):
    """An 8-bit copy of the matrix that finds the exact dense pool (``None`` when it would cost more than a scan)."""

    def top(self, matrix: np.ndarray, q: np.ndarray, k: int, subset: np.ndarray | None,
            tie: TieOrder | None = None) -> np.ndarray | None: ...


class Lexicon(Protocol):
    """Whole-memory BM25 postings of one analyzer."""

    def top(self, query_terms: Sequence[str], k: int, *, k1: float, b: float,
            within: np.ndarray | None = None, tie: TieOrder | None = None) -> tuple[np.ndarray, np.ndarray]: ...

    def pool_tf(self, query_terms: Sequence[str], rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...


class Memory(Protocol):
    """What candidate gathering reads of an entity's rows."""

    @property
    def n_rows(self) -> int: ...
    @property
    def n_dead(self) -> int: ...
    @property
    def has_sessions(self) -> bool: ...
    @property
    def matrix(self) -> np.ndarray: ...
    @property
    def recency(self) -> np.ndarray: ...
    @property
    def seq(self) -> np.ndarray: ...
    @property
    def sessions(self) -> np.ndarray: ...
    @property
    def lengths(self) -> np.ndarray: ...

    def __len__(self) -> int: ...
    def dead_rows(self) -> np.ndarray: ...
    def row_ids(self, rows: np.ndarray) -> Sequence[str]: ...
    def recent_rows(self, n: int) -> np.ndarray: ...
    def quantized_for(self, k: int, rows: int) -> QuantizedSearch | None: ...
    def index(self, key: AnalyzerKey) -> Lexicon: ...
    def neighbour_rows(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...
    def pool_term_frequencies(self, key: AnalyzerKey, query_terms: Sequence[str],
                              rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...


@dataclass(frozen=True)
class Candidates:
    """The pool of one recall and what :func:`~.pipeline.score_pool` needs of it."""

    pool: Pool
    cosine: np.ndarray
    """Cosine of each pool row to the search direction."""
    tf: np.ndarray
    """``(len(pool.rows), len(query_terms))`` term frequencies."""
    dl: np.ndarray
    """Token count of each pool row."""
    sessions: np.ndarray | None
    """Session code of each pool row (``None`` without smoothing)."""
    lengths: np.ndarray | None
    """Characters of each pool row, for ``neighbour_length_ref`` (``None`` when unused)."""
    scorable: int
    """How many rows were scored (the recency window, or every allowed row)."""


def scored_rows(memory: Memory, allowed: np.ndarray | None, dense_limit: int | None) -> np.ndarray | None:
    """``allowed`` cut to the ``dense_limit`` most recent rows (``None``: every live row; of rows equally recent,
    the later written)."""
    if dense_limit is None:
        return allowed
    if allowed is None:
        return memory.recent_rows(dense_limit) if dense_limit < len(memory) else None
    if dense_limit >= allowed.size:
        return allowed
    newest = later_first(written_order(memory))
    return allowed[top_k(memory.recency[allowed], dense_limit, lambda at: newest(allowed[at]))]


def gather(
    memory: Memory,
    q: np.ndarray,
    query_terms: Sequence[str],
    key: AnalyzerKey,
    limit: int,
    config: RecallConfig,
    allowed: np.ndarray | None = None,
    *,
    blank: bool = False,
) -> Candidates:
    """The pool of a recall searching along ``q`` (unit length) with ``query_terms`` (analysed by ``key``).

    ``allowed`` is the rows the recall may return (``None``: every live row); ``blank`` a query of no
    characters but spaces (the pool is then ``limit``, upstream's rule)."""
    cfg = config
    subset = scored_rows(memory, allowed, cfg.dense_limit)
    scorable = len(memory) if subset is None else int(subset.shape[0])
    pool_n = candidate_limit(limit, scorable, not blank, cfg)
    tie = written_order(memory)
    cos_all: np.ndarray | None = None
    dense_rows: np.ndarray | None = None
    if cfg.quantized_above is not None and scorable > cfg.quantized_above:
        copy = memory.quantized_for(pool_n, scorable)
        if copy is not None:  # the same rows as the scan below, or None when that needs too many candidates
            dense_rows = copy.top(memory.matrix, q, pool_n, subset, tie)
    if dense_rows is None and subset is None:
        cos_all = cosine_scores(memory.matrix, q)
        if memory.n_dead:
            cos_all[memory.dead_rows()] = -np.inf
        dense_rows = dense_top(cos_all, pool_n, tie=tie)
    elif dense_rows is None:
        # Only the allowed / most recent rows are scored (dead rows are never among them).
        dense_rows = dense_top(cosine_scores(memory.matrix[subset], q), pool_n, subset, tie)
    lexical_rows = None
    if cfg.pool == "union" and query_terms:
        lexical_rows, _ = memory.index(key).top(query_terms, pool_n, k1=cfg.k1, b=cfg.b, within=subset, tie=tie)
    hops = neighbour_hops(cfg) if memory.has_sessions else 0
    pool = assemble_pool(dense_rows, lexical_rows, _neighbours(memory, allowed) if hops else None, hops)
    pool = in_tie_order(pool, tie)
    cosine = cos_all[pool.rows] if cos_all is not None else cosine_scores(memory.matrix[pool.rows], q)
    if cfg.pool == "union":
        # The whole-memory index holds the pool's term counts: no document is re-read.
        tf, dl = memory.index(key).pool_tf(query_terms, pool.rows)
    else:
        tf, dl = memory.pool_term_frequencies(key, query_terms, pool.rows)
    sessions = memory.sessions[pool.rows] if hops else None
    lengths = memory.lengths[pool.rows] if hops and cfg.neighbour_length_ref is not None else None
    return Candidates(pool, cosine, tf, dl, sessions, lengths, scorable)


def in_tie_order(pool: Pool, tie: TieOrder) -> Pool:
    """``pool`` with its rows in ``tie`` order, so that the last key of :func:`~.fusion.rank_order` (pool position)
    is the written order, not the order the rows were found in."""
    order = tie(pool.rows)
    links = None if pool.links is None else pool.links[:, order]
    return Pool(pool.rows[order], pool.source[order], links)


def _neighbours(memory: Memory, allowed: np.ndarray | None) -> NeighbourLookup:
    """The neighbour lookup of the pool: only ``allowed`` rows (``None``: all) are neighbours."""
    if allowed is None:
        return memory.neighbour_rows
    mask = np.zeros(memory.n_rows, dtype=bool)
    mask[allowed] = True

    def lookup(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        before, after = memory.neighbour_rows(rows)
        return (
            np.where((before >= 0) & mask[np.maximum(before, 0)], before, -1),
            np.where((after >= 0) & mask[np.maximum(after, 0)], after, -1),
        )

    return lookup
