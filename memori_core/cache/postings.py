"""Whole-memory BM25 over term ids: postings as CSR arrays, built vectorised, appended to incrementally.

:class:`CSRIndex` holds, per term id, the rows and term frequencies as three
arrays (``ptr`` per term id, ``rows`` and ``tfs``) built vectorised from a
forward index. Rows appended after the build go to small per-term delta
arrays; the owner rebuilds the CSR arrays when it compacts. An index of an
analyzer other than the cache's own starts empty (:meth:`CSRIndex.empty`)
and is grown row by row.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Sequence

import numpy as np

from ..ranking.lexical import bm25_idf, bm25_term_weight, top_positive
from ..ranking.ties import TieOrder
from ..text import analyzer

AnalyzerKey = tuple[str, "str | None"]

_EMPTY_I32 = np.zeros(0, dtype=np.int32)

Forward = tuple[np.ndarray, np.ndarray]
"""A forward index: ``doc_ptr`` (int64, rows + 1) and ``doc_terms`` (int32), the term ids of each row."""


class CSRIndex:
    """BM25 postings of one analyzer's term ids, for rows ``0..n_rows-1`` of a cache.

    ``vocab`` maps a term to its id (ids are positions: ``0..len(vocab)-1``).
    ``ptr``/``rows``/``tfs`` are the postings of the rows the index was built
    with (rows ascending within a term); ``lengths`` are those rows' token counts.
    """

    def __init__(
        self,
        vocab: dict[str, int],
        ptr: np.ndarray,
        rows: np.ndarray,
        tfs: np.ndarray,
        lengths: np.ndarray,
    ) -> None:
        self.vocab = vocab
        self.ptr, self.rows, self.tfs = ptr, rows, tfs
        n = int(lengths.shape[0])
        cap = max(64, n)
        self._len = np.zeros(cap, dtype=np.int32)
        self._len[:n] = lengths
        self._alive = np.zeros(cap, dtype=np.int8)
        self._alive[:n] = 1
        self._n = n
        self._base_terms = int(ptr.shape[0]) - 1
        self.df = np.zeros(max(64, 2 * len(vocab)), dtype=np.int64)  # live documents per term id
        self.df[: self._base_terms] = np.diff(ptr)
        self.n_alive = n
        self.total_len = int(lengths.sum(dtype=np.int64))
        self._delta_rows: dict[int, array] = {}
        self._delta_tfs: dict[int, array] = {}
        self._delta_n = 0  # postings in the delta arrays
        self._vocab_bytes = sum(map(len, vocab)) + 160 * len(vocab)  # str objects + dict slots + ints
        self._slot = np.zeros(0, dtype=np.int64)  # scratch: row -> position in the pool of one call

    @classmethod
    def build(cls, vocab: dict[str, int], doc_ptr: np.ndarray, doc_terms: np.ndarray) -> CSRIndex:
        """The index of documents given as a forward index (``doc_terms[doc_ptr[r]:doc_ptr[r+1]]`` per row)."""
        ptr, rows, tfs = build_postings(doc_ptr, doc_terms, len(vocab))
        return cls(vocab, ptr, rows, tfs, np.diff(doc_ptr).astype(np.int32))

    @classmethod
    def empty(cls) -> CSRIndex:
        """An index of no rows, grown with :meth:`term_id` and :meth:`add`."""
        return cls({}, np.zeros(1, dtype=np.int64), _EMPTY_I32, _EMPTY_I32, np.zeros(0, dtype=np.int32))

    @property
    def n_rows(self) -> int:
        """Rows ever added (alive or dead)."""
        return self._n

    def term_id(self, term: str) -> int:
        """The id of ``term``, assigning the next one to a new term."""
        tid = self.vocab.get(term)
        if tid is None:
            tid = self.vocab[term] = len(self.vocab)
            self._vocab_bytes += len(term) + 160
            if tid >= self.df.shape[0]:
                self.df = np.concatenate((self.df, np.zeros(self.df.shape[0], dtype=np.int64)))
        return tid

    def postings(self, tid: int) -> tuple[np.ndarray, np.ndarray]:
        """Rows (int32, ascending) holding term ``tid`` and their term frequencies (int32)."""
        if tid < self._base_terms:
            lo, hi = int(self.ptr[tid]), int(self.ptr[tid + 1])
            rows, tfs = self.rows[lo:hi], self.tfs[lo:hi]
        else:
            rows, tfs = _EMPTY_I32, _EMPTY_I32
        extra = self._delta_rows.get(tid)
        if extra is not None and len(extra):
            rows = np.concatenate((rows, np.frombuffer(extra, dtype=np.int32)))
            tfs = np.concatenate((tfs, np.frombuffer(self._delta_tfs[tid], dtype=np.int32)))
        return rows, tfs

    def add(self, row: int, term_ids: Sequence[int]) -> None:
        """Index row ``row`` holding ``term_ids`` (rows are added in increasing order, each once)."""
        if row != self._n:
            raise ValueError(f"rows must be appended in order: expected {self._n}, got {row}")
        if row >= self._len.shape[0]:
            grow = max(64, self._len.shape[0])
            self._len = np.concatenate((self._len, np.zeros(grow, dtype=np.int32)))
            self._alive = np.concatenate((self._alive, np.zeros(grow, dtype=np.int8)))
        for tid, tf in Counter(term_ids).items():
            rows = self._delta_rows.get(tid)
            if rows is None:
                rows = self._delta_rows[tid] = array("i")
                self._delta_tfs[tid] = array("i")
            rows.append(row)
            self._delta_tfs[tid].append(tf)
            self._delta_n += 1
            self.df[tid] += 1
        self._len[row] = len(term_ids)
        self._alive[row] = 1
        self._n += 1
        self.n_alive += 1
        self.total_len += len(term_ids)

    def remove(self, row: int, term_ids: Sequence[int]) -> None:
        """Mark ``row`` (indexed with ``term_ids``) dead and take it out of the statistics."""
        if not self._alive[row]:
            return
        self._alive[row] = 0
        self.n_alive -= 1
        self.total_len -= int(self._len[row])
        for tid in set(term_ids):
            self.df[tid] -= 1

    def scores(self, query_terms: Sequence[str], *, k1: float, b: float) -> np.ndarray:
        """BM25 of every row against the unique ``query_terms``, with the live rows' statistics (dead rows 0)."""
        n_rows = self._n
        out = np.zeros(n_rows, dtype=np.float64)
        if self.n_alive == 0 or not query_terms:
            return out
        n = float(self.n_alive)
        avgdl = self.total_len / n
        lengths = self._len[:n_rows]
        alive = self._alive[:n_rows]
        all_rows: list[np.ndarray] = []
        all_w: list[np.ndarray] = []
        for term in query_terms:
            tid = self.vocab.get(term)
            if tid is None:
                continue
            df = int(self.df[tid])
            if df <= 0:
                continue
            rows, tf = self.postings(tid)
            w = bm25_term_weight(tf.astype(np.float64), lengths[rows], avgdl, bm25_idf(n, df), k1=k1, b=b)
            all_rows.append(rows)
            all_w.append(w * alive[rows])
        if not all_rows:
            return out
        return np.bincount(np.concatenate(all_rows), weights=np.concatenate(all_w), minlength=n_rows)

    def top(
        self, query_terms: Sequence[str], k: int, *, k1: float, b: float, within: np.ndarray | None = None,
        tie: TieOrder | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Rows of the ``k`` best positive BM25 scores, best first (ties: in ``tie`` order, else lower row first),
        and the scores."""
        scores = self.scores(query_terms, k1=k1, b=b)
        if within is not None:
            kept = np.zeros_like(scores)
            kept[within] = scores[within]
            scores = kept
        best = top_positive(scores, k, tie)
        return best, scores[best]

    def pool_tf(self, query_terms: Sequence[str], rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Term frequencies (``len(rows)`` x ``len(query_terms)``) and document lengths of some rows."""
        n_rows = self._n
        self._slot = grown_slot(self._slot, n_rows)
        ids = [self.vocab.get(term) for term in query_terms]
        tf = gather_pool_tf(self._slot, rows, [None if tid is None else self.postings(tid) for tid in ids])
        lengths = self._len[:n_rows][rows].astype(np.float64)
        return tf, lengths

    def nbytes(self) -> int:
        """Approximate memory held (bytes): postings, statistics, per-row arrays, vocabulary."""
        arrays = (self.ptr, self.rows, self.tfs, self.df, self._len, self._alive, self._slot)
        delta = self._delta_n * 8 + len(self._delta_rows) * (2 * 64 + 200)
        return int(sum(a.nbytes for a in arrays)) + delta + self._vocab_bytes


def gather_pool_tf(
    slot: np.ndarray, rows: np.ndarray, term_postings: Sequence[tuple[np.ndarray, np.ndarray] | None]
) -> np.ndarray:
    """Term frequencies (``len(rows)`` x ``len(term_postings)``) of some rows, read from each query term's
    postings (its rows and counts; ``None``: the term is in no document), so no document is re-read.

    ``slot`` is a scratch row -> position array, all ``-1`` and at least as long as the index: it is
    filled for ``rows`` and left clean again.
    """
    slot[rows] = np.arange(rows.shape[0])
    tf = np.zeros((rows.shape[0], len(term_postings)), dtype=np.float64)
    try:
        for j, postings in enumerate(term_postings):
            if postings is None:
                continue
            prow, ptf = postings
            at = slot[prow]
            hit = at >= 0
            tf[at[hit], j] = ptf[hit]
    finally:
        slot[rows] = -1  # the scratch array is shared by every call: leave it clean
    return tf


def grown_slot(slot: np.ndarray, n_rows: int) -> np.ndarray:
    """``slot`` (see :func:`gather_pool_tf`), or a larger one of ``-1`` when it cannot hold ``n_rows`` rows."""
    if slot.shape[0] < n_rows:
        return np.full(max(n_rows, 2 * slot.shape[0]), -1, dtype=np.int64)
    return slot


def build_postings(doc_ptr: np.ndarray, doc_terms: np.ndarray, n_terms: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR postings (``ptr`` int64, ``rows`` int32 ascending within a term, ``tfs`` int32) of a forward index."""
    n = max(int(doc_ptr.shape[0]) - 1, 1)
    row_of = np.repeat(np.arange(doc_ptr.shape[0] - 1, dtype=np.int64), np.diff(doc_ptr))
    keys, counts = np.unique(doc_terms.astype(np.int64) * n + row_of, return_counts=True)
    terms = keys // n
    ptr = np.zeros(n_terms + 1, dtype=np.int64)
    np.cumsum(np.bincount(terms, minlength=n_terms), out=ptr[1:])
    return ptr, (keys - terms * n).astype(np.int32), counts.astype(np.int32)


def tokenize_to_ids(
    texts: Sequence[str], key: AnalyzerKey, vocab: dict[str, int] | None = None
) -> tuple[np.ndarray, np.ndarray, dict[str, int]]:
    """Forward index of ``texts`` under analyzer ``key``: ``doc_ptr`` (int64), ``doc_terms`` (int32), vocabulary."""
    run = analyzer(*key)
    vocab = {} if vocab is None else vocab
    ids: list[int] = []
    lens = np.zeros(len(texts), dtype=np.int64)
    setdefault = vocab.setdefault
    extend = ids.extend
    for i, text in enumerate(texts):
        toks = run(text)
        lens[i] = len(toks)
        extend([setdefault(t, len(vocab)) for t in toks])
    ptr = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum(lens, out=ptr[1:])
    return ptr, np.asarray(ids, dtype=np.int32), vocab
