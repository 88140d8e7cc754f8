"""StoredFacts built on demand from a cache's columns: for one row, a recall's pool, or every row."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

import numpy as np

from ..facts import StoredFact
from .columns import Columns

if TYPE_CHECKING:
    from .entity import EntityCache


def build_fact(entity_id: str, c: Columns, row: int, times_seen: int, seq: int, session: int) -> StoredFact:
    """Row ``row`` of ``c`` as a StoredFact (numeric fields passed in: they may be captured earlier)."""
    raw = c.meta_json[row]
    return StoredFact(
        id=c.ids[row],  # type: ignore[arg-type]
        entity_id=entity_id,
        content=c.texts[row],  # type: ignore[arg-type]
        created_at=c.created[row],
        metadata=json.loads(raw) if raw and raw != "{}" else {},
        last_seen=c.last_seen[row],
        times_seen=times_seen,
        session_id=c.session_names[session] if session >= 0 else None,
        seq=seq,
        updated_at=c.updated[row],
        expires_at=c.expiry[row],
    )


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
