"""One entity's facts in scoring form, held as columns: no Python object per row."""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..facts import SEARCHABLE_KEY, StoredFact
from ..ranking.core import CORE_KEY, is_core
from ..ranking.lexical import term_frequencies
from ..text import analyzer
from .columns import Columns, FactsView, LoadedColumns, PoolFacts, build_fact
from .compaction import rebuilt_parts
from .entity_writes import RowWrites
from .postings import AnalyzerKey, CSRIndex, Forward, tokenize_to_ids
from .quantized import QuantizedMatrix, worth_searching
from .selection import _FlaggedRows, _is_unsearchable
from .sessions import link_sessions

DEFAULT_KEY: AnalyzerKey = ("unicode", "english")
"""The analyzer of :class:`~memori_core.RecallConfig`'s defaults (``tokenizer``, ``stemmer``)."""


def _rows(column: str, doc: str) -> Any:
    """A read-only property of :class:`EntityCache`: its column ``column`` (of :class:`.columns.Columns`) cut to
    the rows in use (the arrays keep room for rows appended later)."""

    def cut(self: EntityCache) -> np.ndarray:
        return getattr(self.c, column)[: self._n]

    return property(cut, doc=doc)


class EntityCache(RowWrites):
    """One entity's facts in scoring form.

    Rows are append-only: adding a fact appends a row (into arrays with spare
    capacity), replacing or deleting one marks its old row dead; dead rows are
    compacted away in one rebuild once they make up a quarter of the rows.
    Every row lives in columns (:class:`~memori_core.cache.columns.Columns`:
    numpy arrays, and strings as one UTF-8 buffer + offsets); the BM25 index of
    the cache's analyzer ``key`` holds CSR postings of term ids
    (:class:`~memori_core.cache.postings.CSRIndex`), with the rows' term ids as
    a forward index. A :class:`StoredFact` is built only for the rows that are
    read (``fact(row)``, ``facts[row]``, :meth:`pool_facts`); user metadata is
    parsed then, or once per metadata key for ``where`` filters. Which rows a
    read selects (live, valid, matching a filter, flagged) is
    :class:`~memori_core.cache.selection.RowSelection`'s; how the rows follow
    writes, :class:`~memori_core.cache.entity_writes.RowWrites`'s.
    """

    def __init__(self, entity_id: str, revision: str | None = None, *, key: AnalyzerKey = DEFAULT_KEY) -> None:
        self.entity_id = entity_id
        self.revision = revision
        self.key: AnalyzerKey = tuple(key)  # type: ignore[assignment]
        self.dim: int | None = None
        self.skipped_dims: Counter[int] = Counter()
        self.warned_dims: set[int] = set()
        self.warned_skipped = False
        # Recent recall answers over this copy, most recent last (memori_core.engine.answers: read and written
        # under the engine's entity lock; they go with the copy).
        self.answers: OrderedDict[Any, Any] = OrderedDict()
        empty: Forward = (np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int32))
        self._adopt(Columns.empty(), empty, CSRIndex.build({}, *empty), 0)

    @classmethod
    def from_columns(
        cls,
        entity_id: str,
        revision: str | None,
        loaded: LoadedColumns,
        key: AnalyzerKey,
        *,
        forward: Forward | None = None,
        index: CSRIndex | None = None,
        stored_copy: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    ) -> EntityCache:
        """A cache over loaded columns; tokenises the texts unless their ``forward`` index (and ``index``) is given.

        ``stored_copy``: the parts of the 8-bit copy of these rows (codes, scale, ``[rho, R]``), as a snapshot kept
        them; the copy is made from them instead of the matrix on first use.
        """
        cache = cls(entity_id, revision, key=key)
        cols = loaded.columns
        n = cols.capacity
        if forward is None or index is None:
            doc_ptr, doc_terms, vocab = tokenize_to_ids(cols.texts.values(), cache.key)
            forward = (doc_ptr, doc_terms)
            index = CSRIndex.build(vocab, doc_ptr, doc_terms)
        cache.dim = int(cols.matrix.shape[1]) if n else None
        cache.skipped_dims = Counter(loaded.skipped_dims)
        cache._adopt(cols, forward, index, loaded.n_expiring)
        cache._stored_copy = stored_copy
        return cache

    def _adopt(self, cols: Columns, forward: Forward, index: CSRIndex, n_expiring: int) -> None:
        """Take ``cols`` (every row live, no spare capacity) as this cache's rows."""
        n = cols.capacity
        self.c = cols
        self._n = n
        self.n_dead = 0
        self._alive = np.ones(n, dtype=bool)
        self._session_codes = {s: i for i, s in enumerate(cols.session_names)}
        # Rows of a session form a doubly linked list in seq order; dead rows stay
        # linked (and are stepped over) until compaction.
        self._prev, self._next, self._session_tail = link_sessions(cols.session, cols.seq, len(cols.session_names))
        self._doc_ptr, self._doc_terms = forward
        self._delta_docs: list[list[int]] = []  # term ids of rows appended since the forward index was built
        self._delta_terms = 0  # term ids in _delta_docs
        self._ix = index
        self._tokens: dict[AnalyzerKey, list[tuple[str, ...]]] = {}  # token lists, built on request
        self._indexes: dict[AnalyzerKey, CSRIndex] = {}  # other analyzers' indexes (term ids of their own)
        self._overrides: dict[int, StoredFact] = {}  # rows rewritten in place (copied on write once shared)
        self._overrides_shared = False  # a PoolFacts holds the dict: copy it before changing it
        self._pos: dict[str, int] | None = None  # fact id -> row, built on first use
        self._dead_rows: np.ndarray | None = np.zeros(0, dtype=np.int64)
        self._recent: tuple[int, np.ndarray] | None = None
        self._matching: dict[str, np.ndarray] = {}  # where filter -> its live rows (until the next write)
        self._start_of: dict[int, float] | None = None  # rows valid from a later start, kept current (selection.py)
        self._starts: tuple[np.ndarray, np.ndarray] | None = None  # the same as sorted arrays
        self._meta_values: dict[str, list[Any]] = {}  # metadata key -> value per row (for where filters)
        self._core = _FlaggedRows(CORE_KEY, is_core)  # metadata "core": true
        self._unsearchable = _FlaggedRows(SEARCHABLE_KEY, _is_unsearchable)  # metadata "searchable": false
        self.n_expiring = n_expiring  # rows ever given an expiry (0: recall skips the expiry check)
        self.facts = FactsView(self)
        self._quantized: QuantizedMatrix | None = None  # 8-bit copy of the matrix, made on first use (quantized())
        self._quantized_failed = False
        # The copy's parts as a snapshot kept them (codes, scale, [rho, R]) for these columns' first rows.
        self._stored_copy: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    # -- views --------------------------------------------------------------

    def __len__(self) -> int:
        """Live facts."""
        return self._n - self.n_dead

    @property
    def n_rows(self) -> int:
        """Rows, dead ones included."""
        return self._n

    @property
    def columns(self) -> Columns:
        """The per-row columns (arrays may hold spare capacity past :attr:`n_rows`)."""
        return self.c

    @property
    def overrides(self) -> Mapping[int, StoredFact]:
        """Facts of rows rewritten in place since the columns were built (row -> fact).

        The mapping a caller gets never changes afterwards (writes change a copy)."""
        if self._overrides:
            self._overrides_shared = True
        return self._overrides

    def _own_overrides(self) -> dict[int, StoredFact]:
        if self._overrides_shared:
            self._overrides = dict(self._overrides)
            self._overrides_shared = False
        return self._overrides

    @property
    def forward(self) -> Forward:
        """Term ids of the rows the forward index was built with (rows appended later are not in it)."""
        return self._doc_ptr, self._doc_terms

    @property
    def lexicon(self) -> CSRIndex:
        """The BM25 index of the cache's analyzer ``key``."""
        return self._ix

    matrix = _rows("matrix", "``(n_rows, d)`` float32, L2-normalised rows (dead rows zero).")
    recency = _rows("recency", "Per row, the later of created / last seen (epoch seconds); ``-inf`` for dead rows.")
    sessions = _rows("session", "Per row, the session code (``-1``: no session).")
    lengths = _rows("chars", "Per row, the length of the fact's text in characters.")
    created_ts = _rows("created_ts", "Per row, ``created_at`` in epoch seconds (0 when absent).")
    seq = _rows("seq", "Per row, the fact's ``seq`` (its write's time in ns plus its place in it): ties' order.")

    def row_ids(self, rows: np.ndarray) -> list[str]:
        """The fact ids of ``rows``."""
        return self.c.ids.values(rows)  # type: ignore[return-value]

    @property
    def has_sessions(self) -> bool:
        return bool(self._session_codes)

    @property
    def pos(self) -> dict[str, int]:
        """Fact id -> its live row."""
        if self._pos is None:
            live = self.live_rows()
            self._pos = dict(zip(self.c.ids.values(live), live.tolist()))  # type: ignore[arg-type]
        return self._pos

    def session_code(self, session_id: str) -> int | None:
        """The code rows of ``session_id`` carry in :attr:`sessions` (``None``: no row has had it)."""
        return self._session_codes.get(session_id)

    def quantized_for(self, k: int, rows: int) -> QuantizedMatrix | None:
        """:meth:`quantized` when a pool of ``k`` out of ``rows`` rows is worth searching in it, else ``None``
        (the exact scan is cheaper, and the copy is not made for it)."""
        return self.quantized() if worth_searching(k, rows) else None

    def quantized(self) -> QuantizedMatrix | None:
        """The 8-bit copy of :attr:`matrix` that large recalls search first, in step with every write.

        Made on first use (and again once :attr:`QuantizedMatrix.stale`, or after a
        compaction renumbered the rows); rows appended or deleted since the last
        call are brought in here. ``None`` when the installed FAISS cannot hold it.
        """
        if self._quantized_failed or self.dim is None:
            return None
        qm = self._quantized
        if qm is not None and qm.dim == self.dim:
            qm.sync(self.matrix, self._alive[: self._n], self.n_dead)
            if not qm.stale:
                return qm
        self._quantized = None  # drop the old copy before making the new one
        stored, self._stored_copy = self._stored_copy, None
        if qm is None and stored is not None and stored[0].shape[0] <= self._n and stored[0].shape[1] == self.dim:
            # Made from this cache's first rows when its snapshot was written (rows are only appended or killed).
            codes, scale, bounds = stored
            qm = QuantizedMatrix.from_parts(codes, scale, float(bounds[0]), float(bounds[1]))
            if qm is not None:
                qm.sync(self.matrix, self._alive[: self._n], self.n_dead)
                if not qm.stale:
                    self._quantized = qm
                    return qm
        qm = self._quantized = QuantizedMatrix.build(self.matrix, self._alive[: self._n])
        self._quantized_failed = qm is None
        return qm

    def fact(self, row: int) -> StoredFact | None:
        """Row ``row`` as a StoredFact (``None`` for a dead row)."""
        if not self._alive[row]:
            return None
        fact = self._overrides.get(row)
        if fact is not None:
            return fact
        c = self.c
        return build_fact(self.entity_id, c, row, int(c.times_seen[row]), int(c.seq[row]), int(c.session[row]))

    def pool_facts(self, rows: np.ndarray) -> PoolFacts:
        """The facts of ``rows`` (live rows), built when read; stays right after the entity lock is released."""
        return PoolFacts(self, rows)

    def newest_first(self, rows: np.ndarray, newest_first: bool = True) -> np.ndarray:
        """``rows`` ordered by ``created_at`` then ``seq`` (newest first, or oldest first); ties keep row order."""
        ts = self.c.created_ts[rows]
        seq = self.c.seq[rows]
        order = np.lexsort((-seq, -ts) if newest_first else (seq, ts))
        return rows[order]

    def _row_terms(self, row: int) -> list[int]:
        n0 = self._doc_ptr.shape[0] - 1
        if row < n0:
            return self._doc_terms[self._doc_ptr[row] : self._doc_ptr[row + 1]].tolist()
        return self._delta_docs[row - n0]

    def tokens(self, key: AnalyzerKey) -> list[tuple[str, ...]]:
        """Analysed documents (one tuple per row; dead rows may be empty) for ``(tokenizer, stemmer)``, computed once.

        Prefer :meth:`pool_term_frequencies` and :meth:`index`: this holds a tuple per row.
        """
        key = tuple(key)  # type: ignore[assignment]
        toks = self._tokens.get(key)
        if toks is None:
            alive = self._alive
            if key == self.key:
                terms = list(self._ix.vocab)
                toks = [tuple(terms[t] for t in self._row_terms(r)) if alive[r] else () for r in range(self._n)]
            else:
                run = analyzer(*key)
                texts = self.c.texts
                toks = [tuple(run(texts[r])) if alive[r] else () for r in range(self._n)]  # type: ignore[arg-type]
            self._tokens[key] = toks
        return toks

    def index(self, key: AnalyzerKey) -> CSRIndex:
        """The inverted index over the whole memory for ``(tokenizer, stemmer)``, built once, then kept current."""
        key = tuple(key)  # type: ignore[assignment]
        if key == self.key:
            return self._ix
        ix = self._indexes.get(key)
        if ix is None:
            ix = CSRIndex.empty()
            for row, toks in enumerate(self.tokens(key)):
                terms = [ix.term_id(t) for t in toks]
                ix.add(row, terms)
                if not self._alive[row]:
                    ix.remove(row, terms)
            self._indexes[key] = ix
        return ix

    def pool_term_frequencies(
        self, key: AnalyzerKey, query_terms: Sequence[str], rows: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """What ``term_frequencies(query_terms, [tokens(key)[r] for r in rows])`` gives, read from the
        postings when ``key`` is the cache's analyzer (no token list is built)."""
        if not query_terms:
            return np.zeros((rows.shape[0], 0)), np.zeros(rows.shape[0])
        if tuple(key) == self.key:
            return self._ix.pool_tf(query_terms, rows)
        docs = self.tokens(key)
        return term_frequencies(query_terms, [docs[r] for r in rows.tolist()])

    def neighbours(self, row: int) -> tuple[int, int]:
        """The live rows just before and after ``row`` in its session (``-1`` where there is none)."""
        before, after = self.neighbour_rows(np.array([row], dtype=np.int64))
        return int(before[0]), int(after[0])

    def neighbour_rows(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each row, the live rows just before and after it in its session (``-1``: none)."""
        return self._step_live(self._prev, rows), self._step_live(self._next, rows)

    def _step_live(self, link: np.ndarray, rows: np.ndarray) -> np.ndarray:
        out = link[rows].astype(np.int64)
        dead = (out >= 0) & ~self._alive[np.maximum(out, 0)]
        while dead.any():  # step over deleted rows (runs of them are short: compaction removes them)
            out[dead] = link[out[dead]]
            dead = (out >= 0) & ~self._alive[np.maximum(out, 0)]
        return out

    def memory_report(self) -> dict[str, int]:
        """Bytes held by the matrix, the inverted indexes, the neighbour (session) structures and the other columns
        (and ``"quantized"``, the 8-bit copy of the matrix, once a large recall made it)."""
        n = self._n
        c = self.c
        codes = 150 * len(self._session_codes)  # name str + dict slot + int + tail list slot
        per_row = (c.session[:n], c.seq[:n], c.chars[:n], self._prev[:n], self._next[:n], self._alive[:n])
        index = self._ix.nbytes() + int(self._doc_ptr.nbytes + self._doc_terms.nbytes)
        index += 8 * self._delta_terms + 88 * len(self._delta_docs)
        index += sum(ix.nbytes() for ix in self._indexes.values())
        other = (c.times_seen[:n], c.recency[:n], c.created_ts[:n], c.expires[:n])
        strings = sum(col.nbytes() for col in c.strings().values())
        report = {
            "matrix": int(self.matrix.nbytes),
            "inverted_index": int(index),
            "neighbours": int(sum(a.nbytes for a in per_row) + codes),
            "columns": int(strings + sum(a.nbytes for a in other) + 600 * len(self._overrides)),
        }
        if self._quantized is not None:
            report["quantized"] = self._quantized.nbytes
        return report

    def nbytes(self) -> int:
        """Approximate bytes held, spare capacity and memoised lists included (for the registry's bound)."""
        c = self.c
        spare = (c.capacity - self._n) * (c.matrix.shape[1] * 4 + 8 * 7)
        report = self.memory_report()
        memo = sum(8 * len(v) for v in self._meta_values.values()) + sum(64 * len(t) for t in self._tokens.values())
        return int(sum(report.values()) + spare + memo)

    def is_canonical(self) -> bool:
        """True when the rows are exactly what a reload from the store gives (nothing written in place)."""
        return not (self.n_dead or self._overrides or self._delta_docs or self._doc_ptr.shape[0] - 1 != self._n)

    def canonical(self) -> EntityCache:
        """This cache as a reload from the store would build it (itself when nothing was written in place)."""
        if self.is_canonical():
            return self
        live = self.live_rows()
        no_session = self.c.session[live] < 0
        cols, forward, index, n_expiring = rebuilt_parts(self, live[np.lexsort((live, self.c.seq[live], no_session))])
        loaded = LoadedColumns(cols, Counter(self.skipped_dims), n_expiring)
        out = EntityCache.from_columns(self.entity_id, self.revision, loaded, self.key, forward=forward, index=index)
        out.dim = self.dim
        return out
