"""Per-row columns of an entity cache, building them from a store's rows in reload order, and the StoredFacts
read from them on demand (for one row, a recall's pool, or every row)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..facts import StoredFact, stored_fact, valid_to_of, validity_json
from ..store.base import EntityColumns
from ..validate import iso_to_ts
from .strings import StrColumn, text_starts_with_word

if TYPE_CHECKING:
    from .entity import EntityCache

# String columns and the StoredFact field each holds (meta_json holds the metadata as JSON).
STRING_FIELDS: dict[str, str] = {
    "ids": "id",
    "texts": "content",
    "created": "created_at",
    "last_seen": "last_seen",
    "meta_json": "metadata",
    "updated": "updated_at",
    "expiry": "expires_at",
    "validity": "validity",  # facts.VALIDITY_FIELDS as one JSON text (None: valid, no links)
}
# Numeric columns: dtype and the value of a row that holds nothing (spare capacity, dead rows).
NUMERIC_FIELDS: dict[str, tuple[Any, float]] = {
    "session": (np.int32, -1),  # session code (-1: no session)
    "times_seen": (np.int64, 0),
    "seq": (np.int64, 0),
    "recency": (np.float64, -np.inf),  # later of created / last seen (epoch s); -inf: dead
    "created_ts": (np.float64, 0.0),
    "expires": (np.float64, np.inf),  # the earlier of expiry and valid_to (epoch s): not recalled from then; inf: never
    "chars": (np.int32, 0),  # length of the text in characters
}


def metadata_json(metadata: Mapping[str, Any] | None) -> str:
    """User metadata as the store writes it (sorted keys, UTF-8 kept)."""
    if not metadata:
        return "{}"
    import json

    return json.dumps(metadata, sort_keys=True, ensure_ascii=False)


@dataclass
class Columns:
    """One entity's rows, in cache row order; numeric arrays and the matrix may hold spare capacity.

    A column object is never changed in place except by appending a row or,
    for the numeric arrays and the matrix, by a write of the cache that owns
    it; rebuilding (compaction, snapshot) makes new columns, so a reader may
    keep references to the string columns of a recall's pool.
    """

    ids: StrColumn
    texts: StrColumn
    created: StrColumn
    last_seen: StrColumn
    meta_json: StrColumn
    updated: StrColumn
    expiry: StrColumn
    validity: StrColumn
    session_names: list[str]  # session code -> session id
    session: np.ndarray
    times_seen: np.ndarray
    seq: np.ndarray
    recency: np.ndarray
    created_ts: np.ndarray
    expires: np.ndarray
    chars: np.ndarray
    matrix: np.ndarray  # float32 (capacity, dim), L2-normalised rows; dead rows zero

    @classmethod
    def empty(cls, dim: int = 0) -> Columns:
        """Columns with no row."""
        strings = {name: StrColumn.from_list([]) for name in STRING_FIELDS}
        numeric = {name: np.zeros(0, dtype=dt) for name, (dt, _) in NUMERIC_FIELDS.items()}
        return cls(**strings, **numeric, session_names=[], matrix=np.zeros((0, dim), dtype=np.float32))

    @property
    def capacity(self) -> int:
        """Rows the numeric arrays hold (live, dead and spare)."""
        return int(self.seq.shape[0])

    def writeable(self) -> bool:
        """False while arrays are read-only views (e.g. of a snapshot file)."""
        return all(getattr(self, name).flags.writeable for name in NUMERIC_FIELDS) and self.matrix.flags.writeable

    def regrow(self, n: int, capacity: int, dim: int) -> None:
        """Give the numeric arrays and the matrix ``capacity`` rows (private, writeable), keeping the first ``n``."""
        for name, (dt, fill) in NUMERIC_FIELDS.items():
            old = getattr(self, name)
            new = np.full(capacity, fill, dtype=dt)
            new[:n] = old[:n]
            setattr(self, name, new)
        matrix = np.zeros((capacity, dim), dtype=np.float32)
        if n and self.matrix.shape[1] == dim:
            matrix[:n] = self.matrix[:n]
        self.matrix = matrix

    def strings(self) -> dict[str, StrColumn]:
        """The string columns by name."""
        return {name: getattr(self, name) for name in STRING_FIELDS}

    def string_of(self, name: str, fact: StoredFact) -> str | None:
        """The value ``fact`` stores in string column ``name``."""
        field = STRING_FIELDS[name]
        if field == "metadata":
            return metadata_json(fact.metadata)
        if field == "validity":
            return validity_json(fact)
        return getattr(fact, field)

    def patch_strings(self, n: int, facts: Mapping[int, StoredFact], names: tuple[str, ...]) -> None:
        """Replace string columns ``names`` by new ones in which rows ``facts`` hold those facts' values."""
        for name in names:
            values = getattr(self, name).values(range(n))
            for row, fact in facts.items():
                values[row] = self.string_of(name, fact)
            setattr(self, name, StrColumn.from_list(values))

    def take(self, rows: np.ndarray, overrides: Mapping[int, StoredFact] | None = None) -> Columns:
        """New columns holding ``rows`` (in that order) and no spare capacity.

        ``overrides`` are facts whose strings replace a row's (rows written in
        place); session codes are renumbered by first appearance.
        """
        rows = np.asarray(rows, dtype=np.int64)
        patch = {i: overrides[r] for i, r in enumerate(rows.tolist()) if r in overrides} if overrides else {}
        strings: dict[str, StrColumn] = {}
        for name, col in self.strings().items():
            if patch:
                values = col.values(rows)
                for i, fact in patch.items():
                    values[i] = self.string_of(name, fact)
                strings[name] = StrColumn.from_list(values)
            else:
                strings[name] = col.take(rows)
        numeric = {name: np.ascontiguousarray(getattr(self, name)[rows]) for name in NUMERIC_FIELDS}
        codes = numeric["session"]
        names, numeric["session"] = renumber_sessions(codes, self.session_names)
        return Columns(**strings, **numeric, session_names=names, matrix=np.ascontiguousarray(self.matrix[rows]))

    def nbytes(self) -> int:
        """Bytes held by the columns other than the matrix."""
        strings = sum(col.nbytes() for col in self.strings().values())
        numeric = sum(int(getattr(self, name).nbytes) for name in NUMERIC_FIELDS)
        return strings + numeric + sum(len(s) + 57 for s in self.session_names)


def renumber_sessions(codes: np.ndarray, names: list[str]) -> tuple[list[str], np.ndarray]:
    """Session codes renumbered 0.. by first appearance in ``codes``, and the names of the new codes."""
    has = codes >= 0
    if not has.any():
        return [], codes.astype(np.int32)
    uniq, first = np.unique(codes[has], return_index=True)
    by_first = uniq[np.argsort(first, kind="stable")]
    mapping = np.full(int(uniq.max()) + 1, -1, dtype=np.int32)
    mapping[by_first] = np.arange(by_first.shape[0], dtype=np.int32)
    out = np.full(codes.shape[0], -1, dtype=np.int32)
    out[has] = mapping[codes[has]]
    return [names[int(c)] for c in by_first], out


def _timestamps(values: list[str | None]) -> np.ndarray:
    """``iso_to_ts`` of each value (parsed once per distinct string)."""
    seen: dict[str | None, float] = {}
    out = np.empty(len(values), dtype=np.float64)
    for i, v in enumerate(values):
        ts = seen.get(v)
        if ts is None:
            ts = seen[v] = iso_to_ts(v)
        out[i] = ts
    return out


def _main_dimension(row_dims: np.ndarray, order: np.ndarray) -> int:
    """The most common dimension; among equally common ones, the first in ``order`` (as ``Counter.most_common``)."""
    dims, counts = np.unique(row_dims, return_counts=True)
    best = dims[counts == counts.max()]
    if best.shape[0] == 1:
        return int(best[0])
    in_order = row_dims[order]
    return int(in_order[np.isin(in_order, best)][0])


@dataclass
class LoadedColumns:
    """Columns built from a store's rows, with what the cache needs besides them."""

    columns: Columns
    skipped_dims: Counter[int]  # rows of another dimension than the main one, left out
    n_expiring: int  # rows with an expiry


def columns_from_store(rows: EntityColumns) -> LoadedColumns:
    """Columns in reload order (session-less facts after session facts, each by ``seq``; ties keep the
    store's order), rows of a foreign dimension left out, vectors L2-normalised as ``l2_normalise`` does."""
    n = len(rows)
    if n == 0:
        return LoadedColumns(Columns.empty(), Counter(), 0)
    seq = np.asarray(rows.seq, dtype=np.int64)
    no_session = np.fromiter((s is None for s in rows.session_id), dtype=bool, count=n)
    order = np.lexsort((np.arange(n), seq, no_session))
    sizes = np.fromiter((b.shape[0] for b in rows.embeddings), dtype=np.int64, count=len(rows.embeddings))
    if int(sizes.sum()) != n:
        raise ValueError(f"{n} rows but {int(sizes.sum())} embeddings")
    block_dims = np.fromiter((b.shape[1] for b in rows.embeddings), dtype=np.int64, count=len(rows.embeddings))
    row_dims = np.repeat(block_dims, sizes)
    dim = _main_dimension(row_dims, order)
    keep = order[row_dims[order] == dim]
    skipped: Counter[int] = Counter()
    if keep.shape[0] != n:
        foreign, counts = np.unique(row_dims[row_dims != dim], return_counts=True)
        skipped.update({int(d): int(c) for d, c in zip(foreign, counts)})
    matrix = _gather_normalised(rows.embeddings, keep, n, dim)
    kl = keep.tolist()

    def pick(values: list[Any]) -> list[Any]:
        return [values[i] for i in kl]

    texts = pick(rows.texts)
    created = pick(rows.created_at)
    last_seen = pick(rows.last_seen)
    expiry = pick(rows.expires_at)
    sessions = pick(rows.session_id)
    code_of: dict[str, int] = {}
    session = np.fromiter(
        (-1 if s is None else code_of.setdefault(s, len(code_of)) for s in sessions), dtype=np.int32, count=len(kl)
    )
    created_ts = _timestamps(created)
    recency = np.maximum(created_ts, _timestamps(last_seen))
    has_expiry = np.fromiter((bool(e) for e in expiry), dtype=bool, count=len(kl))
    expires = np.full(len(kl), np.inf, dtype=np.float64)
    if has_expiry.any():
        expires[has_expiry] = _timestamps([e for e in expiry if e])
    validity = pick(rows.validity())
    if any(validity):  # an invalid fact is not recalled from its valid_to on: an expiry for recall
        for i, v in enumerate(validity):
            end = valid_to_of(v)
            if end is not None:
                expires[i] = min(expires[i], iso_to_ts(end))
        has_expiry = np.isfinite(expires)
    cols = Columns(
        ids=StrColumn.from_list(pick(rows.ids)),
        texts=StrColumn.from_list(texts),
        created=StrColumn.from_list(created),
        last_seen=StrColumn.from_list(last_seen),
        meta_json=StrColumn.from_list(pick(rows.metadata_json)),
        updated=StrColumn.from_list(pick(rows.updated_at)),
        expiry=StrColumn.from_list(expiry),
        validity=StrColumn.from_list(validity),
        session_names=list(code_of),
        session=session,
        times_seen=np.asarray(rows.times_seen, dtype=np.int64)[keep],
        seq=seq[keep],
        recency=recency,
        created_ts=created_ts,
        expires=expires,
        chars=np.fromiter(map(len, texts), dtype=np.int32, count=len(kl)),
        matrix=matrix,
    )
    return LoadedColumns(cols, skipped, int(has_expiry.sum()))


def _gather_normalised(blocks: list[np.ndarray], keep: np.ndarray, n: int, dim: int) -> np.ndarray:
    """Rows ``keep`` of the stacked blocks as float32, L2-normalised in place (no stacked copy of all rows)."""
    dest = np.full(n, -1, dtype=np.int64)
    dest[keep] = np.arange(keep.shape[0])
    out = np.empty((keep.shape[0], dim), dtype=np.float32)
    start = 0
    for block in blocks:
        k = block.shape[0]
        if block.shape[1] == dim:
            at = dest[start : start + k]
            ok = at >= 0
            out[at[ok]] = block[ok] if not ok.all() else block
        start += k
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out /= norms
    return out


# -- StoredFacts read from the columns --------------------------------------------------------------------


def build_fact(entity_id: str, c: Columns, row: int, times_seen: int, seq: int, session: int) -> StoredFact:
    """Row ``row`` of ``c`` as a StoredFact (numeric fields passed in: they may be captured earlier)."""
    return stored_fact(entity_id, c.ids[row], c.texts[row], c.created[row], c.meta_json[row],  # type: ignore[arg-type]
                       c.last_seen[row], times_seen, c.session_names[session] if session >= 0 else None, seq,
                       c.updated[row], c.expiry[row], c.validity[row])


class PoolFacts:
    """The facts of a recall's pool rows (``facts[i]`` is pool row ``i``), built when read.

    Made under the entity lock and read after it: it keeps what it needs of
    the rows as they were then (their numeric fields, the facts written in
    place, references to the string columns, which are only ever appended
    to), so a write after the recall does not change what it returns.
    """

    __slots__ = ("_entity", "_cols", "_rows", "_times", "_seq", "_session", "_over")

    def __init__(self, cache: EntityCache, rows: np.ndarray) -> None:
        c = cache.columns
        self._entity = cache.entity_id
        # A shallow copy: compaction and folds replace the column objects, never change them.
        self._cols = Columns(**{k: getattr(c, k) for k in c.__dataclass_fields__})
        self._rows = rows
        self._times = c.times_seen[rows]
        self._seq = c.seq[rows]
        self._session = c.session[rows]
        over = cache.overrides  # a non-empty one is copied by the next write, never changed
        self._over: Mapping[int, StoredFact] | None = over if over else None

    def __len__(self) -> int:
        return int(self._rows.shape[0])

    def __getitem__(self, i: int) -> StoredFact:
        row = int(self._rows[i])
        fact = self._over.get(row) if self._over else None
        if fact is not None:
            return fact
        return build_fact(self._entity, self._cols, row, int(self._times[i]), int(self._seq[i]), int(self._session[i]))

    def __iter__(self) -> Iterator[StoredFact]:
        return (self[i] for i in range(len(self)))

    def texts(self) -> list[str]:
        """The text of every pool row, in pool order, without building the facts."""
        texts = self._cols.texts.values(self._rows)
        if self._over:
            for i, row in enumerate(self._rows.tolist()):
                fact = self._over.get(row)
                if fact is not None:
                    texts[i] = fact.content
        return [t or "" for t in texts]

    def starts_with_word(self, word: str, positions: np.ndarray) -> np.ndarray:
        """For the pool rows at ``positions``, whether the fact's text starts with ``word`` as a whole word
        (:meth:`StrColumn.starts_with_word`), without building the facts."""
        rows = self._rows[positions]
        out = self._cols.texts.starts_with_word(rows, word)
        if self._over:
            for i, row in enumerate(rows.tolist()):
                fact = self._over.get(row)
                if fact is not None:
                    out[i] = text_starts_with_word(fact.content, word)
        return out


class FactsView:
    """``cache.facts``: row -> its StoredFact (``None`` for a dead row), built on access."""

    __slots__ = ("_cache",)

    def __init__(self, cache: EntityCache) -> None:
        self._cache = cache

    def __len__(self) -> int:
        return self._cache.n_rows

    def __getitem__(self, row: int) -> StoredFact | None:
        if row < 0:
            row += self._cache.n_rows
        if not 0 <= row < self._cache.n_rows:
            raise IndexError(row)
        return self._cache.fact(row)

    def __iter__(self) -> Iterator[StoredFact | None]:
        cache = self._cache
        return (cache.fact(r) for r in range(cache.n_rows))
