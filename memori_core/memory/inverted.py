"""An incrementally maintained inverted index for BM25 over an entity's whole memory.

The index is per-entity cache state (postings, lengths, liveness); the BM25
formula is :mod:`memori_core.ranking.lexical`'s.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Sequence

import numpy as np

from ..ranking.lexical import bm25_idf, bm25_term_weight, top_positive
from .postings import gather_pool_tf, grown_slot


class InvertedIndex:
    """Postings (row, term frequency) per term, plus per-row lengths and liveness.

    Rows are the cache's row numbers. Adding a document appends to the
    postings of its terms; removing one marks the row dead and updates the
    corpus statistics, so no write rebuilds the index. Dead rows are skipped
    when scoring until the owner compacts (rebuilds) the whole cache.
    """

    def __init__(self) -> None:
        self._rows: dict[str, array] = {}
        self._tfs: dict[str, array] = {}
        self._df: Counter[str] = Counter()
        self._len = array("i")
        self._alive = array("b")
        self.n_alive = 0
        self.total_len = 0
        self._slot = np.zeros(0, dtype=np.int64)  # scratch: row -> position in the pool of one call

    @property
    def n_rows(self) -> int:
        """Rows ever added (alive or dead)."""
        return len(self._len)

    def add(self, row: int, tokens: Sequence[str]) -> None:
        """Index ``tokens`` as row ``row`` (rows must be added in increasing order, each once)."""
        if row != len(self._len):
            raise ValueError(f"rows must be appended in order: expected {len(self._len)}, got {row}")
        for term, tf in Counter(tokens).items():
            rows = self._rows.get(term)
            if rows is None:
                rows = self._rows[term] = array("i")
                self._tfs[term] = array("i")
            rows.append(row)
            self._tfs[term].append(tf)
            self._df[term] += 1
        self._len.append(len(tokens))
        self._alive.append(1)
        self.n_alive += 1
        self.total_len += len(tokens)

    def remove(self, row: int, tokens: Sequence[str]) -> None:
        """Mark ``row`` (indexed with ``tokens``) dead and take it out of the statistics."""
        if not self._alive[row]:
            return
        self._alive[row] = 0
        self.n_alive -= 1
        self.total_len -= self._len[row]
        for term in set(tokens):
            self._df[term] -= 1

    def scores(self, query_terms: Sequence[str], *, k1: float, b: float) -> np.ndarray:
        """BM25 (:data:`~memori_core.ranking.lexical.BM25_VARIANT`) of every row against the unique
        ``query_terms``, with the statistics of the live rows (dead rows score 0)."""
        n_rows = len(self._len)
        out = np.zeros(n_rows, dtype=np.float64)
        if self.n_alive == 0 or not query_terms:
            return out
        n = float(self.n_alive)
        avgdl = self.total_len / n
        lengths = np.frombuffer(self._len, dtype=np.int32) if n_rows else np.zeros(0, np.int32)
        alive = np.frombuffer(self._alive, dtype=np.int8) if n_rows else np.zeros(0, np.int8)
        all_rows: list[np.ndarray] = []
        all_w: list[np.ndarray] = []
        for term in query_terms:
            rows_buf = self._rows.get(term)
            df = self._df.get(term, 0)
            if rows_buf is None or df <= 0:
                continue
            rows = np.frombuffer(rows_buf, dtype=np.int32)
            tf = np.frombuffer(self._tfs[term], dtype=np.int32).astype(np.float64)
            w = bm25_term_weight(tf, lengths[rows], avgdl, bm25_idf(n, df), k1=k1, b=b)
            all_rows.append(rows)
            all_w.append(w * alive[rows])
        if not all_rows:
            return out
        rows = np.concatenate(all_rows)
        weights = np.concatenate(all_w)
        return np.bincount(rows, weights=weights, minlength=n_rows)

    def top(
        self, query_terms: Sequence[str], k: int, *, k1: float, b: float, within: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Rows of the ``k`` best positive BM25 scores, best first (ties: lower row first), and the scores.

        ``within`` (row numbers) restricts the candidates, e.g. to a recency window.
        """
        scores = self.scores(query_terms, k1=k1, b=b)
        if within is not None:
            kept = np.zeros_like(scores)
            kept[within] = scores[within]
            scores = kept
        best = top_positive(scores, k)
        return best, scores[best]

    def pool_tf(self, query_terms: Sequence[str], rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Term frequencies (``len(rows)`` x ``len(query_terms)``) and document lengths of some rows,
        read from the postings: the pool statistics of BM25 without touching the documents."""
        n_rows = len(self._len)
        self._slot = grown_slot(self._slot, n_rows)
        tf = gather_pool_tf(self._slot, rows, [
            None if term not in self._rows
            else (np.frombuffer(self._rows[term], dtype=np.int32), np.frombuffer(self._tfs[term], dtype=np.int32))
            for term in query_terms
        ])
        lengths = np.frombuffer(self._len, dtype=np.int32)[rows].astype(np.float64) if n_rows else np.zeros(0)
        return tf, lengths

    def nbytes(self) -> int:
        """Approximate memory held by the postings and per-row arrays (bytes)."""
        post = sum(r.buffer_info()[1] * r.itemsize + self._tfs[t].buffer_info()[1] * 4 for t, r in self._rows.items())
        # dict slots and term strings
        terms = sum(len(t.encode("utf-8")) + 49 + 3 * 64 for t in self._rows)
        return post + terms + len(self._len) * 4 + len(self._alive)
