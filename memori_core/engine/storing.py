"""What every write method of :class:`~memori_core.engine.RecallEngine` does with the store: runs within the
write's deadline (:func:`_bounded`), reads the stored facts among some ids, and upserts rows with their progress
reported."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable
from typing import Any, TypeVar, cast

import numpy as np

from ..cache.coordinator import Coordinator
from ..facts import StoredFact
from ..store.base import FactStore, WriteOutcomeUnknown
from .progress import Progress

_Method = TypeVar("_Method", bound=Callable[..., Any])


def _bounded(method: _Method) -> _Method:
    """Run a write method within the write's deadline (:meth:`Coordinator.deadline`): every store request it
    makes gets the time left, so the call returns or raises within twice the store's request time limit. A
    :class:`~memori_core.WriteOutcomeUnknown` on its way out is made to name the call and what it asked."""

    signature = inspect.signature(method)

    @functools.wraps(method)
    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            with self._coord.deadline():
                return method(self, *args, **kwargs)
        except WriteOutcomeUnknown as exc:
            asked = signature.bind_partial(self, *args, **kwargs).arguments
            exc.asked(method.__name__, ids=_listed(asked.get("ids", asked.get("id"))),
                      texts=_listed(asked.get("facts", asked.get("text"))))
            raise

    return cast(_Method, run)


def _listed(value: Any) -> list[str]:
    """A write's ``ids`` / ``facts`` argument (one string, a sequence of them, or none) as a list of strings."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, (list, tuple)) else []


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
