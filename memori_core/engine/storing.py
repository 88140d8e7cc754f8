"""What every write method of :class:`~memori_core.engine.RecallEngine` does with the store: runs within the
write's deadline (:func:`_bounded`), reads the stored facts among some ids, and upserts rows with their progress
reported."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, TypeVar, cast

import numpy as np

from ..cache.coordinator import Coordinator
from ..facts import StoredFact
from ..store.base import FactStore
from .progress import Progress

_Method = TypeVar("_Method", bound=Callable[..., Any])


def _bounded(method: _Method) -> _Method:
    """Run a write method within the write's deadline (:meth:`Coordinator.deadline`): every store request it
    makes gets the time left, so the call returns or raises within twice the store's request time limit."""

    @functools.wraps(method)
    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        with self._coord.deadline():
            return method(self, *args, **kwargs)

    return cast(_Method, run)


class Storing:
    """The store steps of :class:`~memori_core.engine.RecallEngine`'s writes (a mixin: the state is the engine's)."""

    store: FactStore
    _coord: Coordinator
    _closed_by: str | None

    def _stored(self, entity_id: str, ids: Iterable[str]) -> dict[str, StoredFact]:
        """The entity's stored facts among ``ids`` (a dict's keys too), by id."""
        return {f.id: f for f in self.store.get(entity_id, list(ids))}

    def _upsert(self, entity_id: str, facts: list[StoredFact], vectors: np.ndarray, progress: Progress | None) -> None:
        if progress is None:
            self.store.upsert(entity_id, facts, vectors)
            return
        total = len(facts)
        self.store.upsert(entity_id, facts, vectors, progress=lambda done: progress("store", done, total))
