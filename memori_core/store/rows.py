"""One entity's rows as a store hands them to the recall cache: as columns, or as facts and vectors."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..facts import StoredFact, stored_fact, validity_json


@dataclass
class EntityColumns:
    """One entity's rows as columns (one list or array per field, rows in the store's order).

    What a store's whole-entity read hands the recall cache without building a
    :class:`StoredFact` per row: strings stay strings, user metadata stays its
    JSON text (``"{}"`` or ``""`` for none), and the embeddings come as 2-D
    float32 blocks whose rows follow the rows in order (one block per page
    read; a store whose rows differ in dimension gives one block per run of a
    dimension).
    """

    ids: list[str]
    texts: list[str]
    created_at: list[str | None]
    last_seen: list[str | None]
    times_seen: list[int]
    session_id: list[str | None]
    seq: list[int]
    metadata_json: list[str]
    updated_at: list[str | None]
    expires_at: list[str | None]
    embeddings: list[np.ndarray]
    validity_json: list[str | None] = field(default_factory=list)
    """Per row, :func:`~memori_core.facts.validity_json` (``None``: valid, no history links). A store that
    leaves it empty has no row with history."""

    def __len__(self) -> int:
        return len(self.ids)

    @classmethod
    def empty(cls) -> EntityColumns:
        """Columns with no row yet (fill them with :meth:`add_row` and :attr:`embeddings`)."""
        return cls([], [], [], [], [], [], [], [], [], [], [], [])

    def add_row(self, row: Any, text: str) -> None:
        """Append a stored row's fields (``row`` has the attributes :func:`fact_of_row` reads) with its ``text``;
        its embedding goes into :attr:`embeddings` apart (a store appends a block per page)."""
        self.ids.append(row.id)
        self.texts.append(text)
        self.created_at.append(row.created_at)
        self.last_seen.append(row.last_seen)
        self.times_seen.append(row.times_seen)
        self.session_id.append(row.session_id)
        self.seq.append(row.seq)
        self.metadata_json.append(row.metadata_json)
        self.updated_at.append(row.updated_at)
        self.expires_at.append(row.expires_at)
        self.validity_json.append(getattr(row, "validity_json", None))

    @classmethod
    def from_facts(cls, facts: Sequence[StoredFact], embeddings: Sequence[np.ndarray]) -> EntityColumns:
        """The columns of ``facts`` and their embeddings (one block per row)."""
        return cls(
            ids=[f.id for f in facts],
            texts=[f.content for f in facts],
            created_at=[f.created_at for f in facts],
            last_seen=[f.last_seen for f in facts],
            times_seen=[int(f.times_seen) for f in facts],
            session_id=[f.session_id for f in facts],
            seq=[int(f.seq) for f in facts],
            metadata_json=[json.dumps(f.metadata or {}, sort_keys=True, ensure_ascii=False) for f in facts],
            updated_at=[f.updated_at for f in facts],
            expires_at=[f.expires_at for f in facts],
            embeddings=[np.asarray(e, dtype=np.float32).reshape(1, -1) for e in embeddings],
            validity_json=[validity_json(f) for f in facts],
        )

    def validity(self) -> list[str | None]:
        """:attr:`validity_json`, one per row (``None`` for every row when the store left it empty)."""
        if len(self.validity_json) == len(self.ids):
            return self.validity_json
        return [None] * len(self.ids)

    def fact(self, i: int, entity_id: str) -> StoredFact:
        """Row ``i`` as a :class:`StoredFact` of ``entity_id`` (metadata JSON parsed)."""
        return stored_fact(entity_id, self.ids[i], self.texts[i], self.created_at[i], self.metadata_json[i],
                           self.last_seen[i], int(self.times_seen[i]), self.session_id[i], int(self.seq[i]),
                           self.updated_at[i], self.expires_at[i], self.validity()[i])

    def vectors(self) -> list[np.ndarray]:
        """One float32 vector per row (views into the blocks)."""
        return [row for block in self.embeddings for row in block]


class EntityRows:
    """All of one entity's rows, as loaded into the recall cache.

    Built from facts and their embeddings (``EntityRows(facts=..., embeddings=...)``)
    or from columns (``EntityRows(entity_id=..., columns=...)``, what
    :meth:`ChromaStore.load_entity <memori_core.store.base.RowStore.load_entity>`
    returns); either view is derived from the other on first access, so the
    recall cache reads columns without a :class:`StoredFact` per row while
    ``rows.facts`` keeps working.
    """

    def __init__(
        self,
        facts: list[StoredFact] | None = None,
        embeddings: list[np.ndarray] | None = None,
        *,
        entity_id: str | None = None,
        columns: EntityColumns | None = None,
    ) -> None:
        if columns is None and (facts is None or embeddings is None):
            raise TypeError("EntityRows needs facts and embeddings, or columns")
        if columns is not None and entity_id is None:
            raise TypeError("EntityRows(columns=...) needs the entity_id")
        self._facts = facts
        self._embeddings = embeddings
        self._columns = columns
        self.entity_id = entity_id

    @property
    def facts(self) -> list[StoredFact]:
        """One :class:`StoredFact` per row."""
        if self._facts is None:
            cols = self._columns
            assert cols is not None and self.entity_id is not None
            self._facts = [cols.fact(i, self.entity_id) for i in range(len(cols))]
        return self._facts

    @property
    def embeddings(self) -> list[np.ndarray]:
        """One float32 vector per row."""
        if self._embeddings is None:
            assert self._columns is not None
            self._embeddings = self._columns.vectors()
        return self._embeddings

    @property
    def columns(self) -> EntityColumns:
        """The rows as :class:`EntityColumns`."""
        if self._columns is None:
            self._columns = EntityColumns.from_facts(self.facts, self.embeddings)
        return self._columns

    def __len__(self) -> int:
        return len(self._columns) if self._columns is not None else len(self._facts or ())


def fact_of_row(entity_id: str, content: str, row: Any) -> StoredFact:
    """A :class:`StoredFact` of ``entity_id`` from a stored row's fields (``id``, ``created_at``, ``last_seen``,
    ``times_seen``, ``session_id``, ``seq``, ``updated_at``, ``expires_at``, ``metadata_json``: the user
    metadata as JSON text, ``""`` for none, and optionally ``validity_json``: the validity and history links)."""
    return stored_fact(entity_id, row.id, content, row.created_at, row.metadata_json, row.last_seen, row.times_seen,
                       row.session_id, row.seq, row.updated_at, row.expires_at, getattr(row, "validity_json", None))
