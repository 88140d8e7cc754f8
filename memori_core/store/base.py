"""The interface the engine needs from an embedding store."""

from __future__ import annotations

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


@dataclass(frozen=True)
class EntityRows:
    """All of one entity's rows, as loaded into the recall cache."""

    facts: list[StoredFact]
    embeddings: list[np.ndarray]


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
