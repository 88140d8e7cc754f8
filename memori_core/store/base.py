"""The interface the engine needs from an embedding store."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from contextlib import AbstractContextManager
from typing import Any, Protocol

import numpy as np

from ..facts import StoredFact


class PartialWriteError(RuntimeError):
    """A write that failed after some of its batches were stored.

    ``stored_ids`` are the fact ids that are in the store now, ``unstored_ids``
    those that are not: retrying with the unstored ones only is exact. The
    original error is the ``__cause__``.
    """

    def __init__(self, message: str, stored_ids: Sequence[str], unstored_ids: Sequence[str]) -> None:
        super().__init__(message)
        self.stored_ids = list(stored_ids)
        self.unstored_ids = list(unstored_ids)


class PartialDeleteError(PartialWriteError):
    """A delete that failed after some of the facts were deleted.

    ``deleted_ids`` are no longer in the store, ``remaining_ids`` still are:
    deleting the remaining ones again is exact. (As a :class:`PartialWriteError`,
    ``stored_ids`` are the remaining ids and ``unstored_ids`` the deleted ones.)
    The original error is the ``__cause__``.
    """

    def __init__(self, message: str, deleted_ids: Sequence[str], remaining_ids: Sequence[str]) -> None:
        super().__init__(message, remaining_ids, deleted_ids)
        self.deleted_ids = list(deleted_ids)
        self.remaining_ids = list(remaining_ids)


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

    def __len__(self) -> int:
        return len(self.ids)

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
        )

    def fact(self, i: int, entity_id: str) -> StoredFact:
        """Row ``i`` as a :class:`StoredFact` of ``entity_id`` (metadata JSON parsed)."""
        raw = self.metadata_json[i]
        return StoredFact(
            id=self.ids[i],
            entity_id=entity_id,
            content=self.texts[i],
            created_at=self.created_at[i],
            metadata=json.loads(raw) if raw else {},
            last_seen=self.last_seen[i],
            times_seen=int(self.times_seen[i]),
            session_id=self.session_id[i],
            seq=int(self.seq[i]),
            updated_at=self.updated_at[i],
            expires_at=self.expires_at[i],
        )

    def vectors(self) -> list[np.ndarray]:
        """One float32 vector per row (views into the blocks)."""
        return [row for block in self.embeddings for row in block]


class EntityRows:
    """All of one entity's rows, as loaded into the recall cache.

    Built from facts and their embeddings (``EntityRows(facts=..., embeddings=...)``)
    or from columns (``EntityRows(entity_id=..., columns=...)``, what
    :meth:`ChromaStore.load_entity` returns); either view is derived from the
    other on first access, so the recall cache reads columns without a
    :class:`StoredFact` per row while ``rows.facts`` keeps working.
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


class FactStore(Protocol):
    """Storage of facts and their embeddings, isolated per entity.

    Every method takes the entity and must filter by it inside the store's
    own query, so one entity's rows are never read for another.
    """

    shared: bool
    """True when other processes may write to the same store (an HTTP server).

    The engine reads :meth:`revision` before every recall and reloads an
    entity when it changed; a store only this process writes to should answer
    it from memory (several engines of one process share the store), and the
    engine then also updates its cache in place after its own writes."""

    def load_entity(self, entity_id: str) -> EntityRows: ...

    def get(self, entity_id: str, ids: Sequence[str]) -> list[StoredFact]: ...

    def present(self, entity_id: str, ids: Sequence[str]) -> list[str]:
        """Those of ``ids`` that are stored for ``entity_id``, in the order given, each once."""
        ...

    def upsert(
        self,
        entity_id: str,
        facts: Sequence[StoredFact],
        embeddings: np.ndarray,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        """Insert or replace facts; ``progress(stored_so_far)`` after each batch (the engine passes it only
        when its caller asked for progress, so a store may leave the argument out)."""
        ...

    def update_seen(self, entity_id: str, facts: Sequence[StoredFact]) -> None: ...

    def delete(self, entity_id: str, ids: Sequence[str]) -> None: ...

    def forget(self, entity_id: str) -> None: ...

    def count(self, entity_id: str) -> int: ...

    def dimension(self) -> int | None: ...

    def revision(self, entity_id: str) -> str | None: ...

    def bump_revision(self, entity_id: str) -> str:
        """Record that ``entity_id`` changed (after a write, or a failed one); returns the new token."""
        ...

    def commit_revision(self, entity_id: str, base: str | None) -> tuple[str, bool]:
        """Record a change made by a writer whose copy was at ``base``: the new token, and whether that
        write is the only change since ``base`` (so the writer may update its copy in place)."""
        ...

    def write_lock(self, entity_id: str) -> AbstractContextManager[Any]:
        """A lock held around each write of ``entity_id`` and its revision commit (shared by this
        process's writers of the same store; different entities do not wait for each other)."""
        ...

    # Optional (looked up with getattr; a store without them gets no snapshots):
    #
    #   snapshots: memori_core.cache.snapshot_files.SnapshotFiles | None
    #       Per-entity snapshot files of the recall cache beside an embedded store
    #       (see memori_core/cache/snapshot_format.py); None when the store keeps none.
    #   invalidate_snapshot(entity_id) -> None
    #       Delete the entity's snapshot; the engine calls it under the entity's
    #       write lock before every write of the entity.


def snapshot_files(store: Any) -> Any | None:
    """The store's snapshot files (:class:`~memori_core.cache.snapshot_files.SnapshotFiles`), or ``None``."""
    return getattr(store, "snapshots", None)


def invalidate_snapshot(store: Any, entity_id: str) -> None:
    """Delete ``entity_id``'s snapshot if ``store`` keeps snapshots (call under its write lock, before a write)."""
    drop = getattr(store, "invalidate_snapshot", None)
    if drop is not None:
        drop(entity_id)
