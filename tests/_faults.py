"""Store faults for the tests, always on the real thing (an in-memory ``ChromaStore``, a real chromadb collection).

- :class:`Faults`: the calls of one object's methods fail as armed, before doing their work or after it
  (the store changed, the caller saw an error), once, a few times, or until disarmed.
- :func:`break_store`: the engine's Chroma collection is dropped behind its back, so its next load fails
  inside chromadb.
- :class:`HeldLoadStore` / :func:`held_loads_engine`: loads of a user's facts wait until the test releases
  them (a slow cold load, a stalled server).
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from memori_core import ChromaStore, RecallEngine

__all__ = ["Faults", "HeldLoadStore", "InjectedFault", "break_store", "held_loads_engine"]


class InjectedFault(RuntimeError):
    """What an armed call raises unless it is told to raise something else."""


@dataclass
class _Rule:
    method: str
    when: str
    error: type[BaseException]
    message: str
    ids: frozenset[str] | None
    times: int | None


class Faults:
    """Armed failures of a real object's methods: ``Faults(store).arm("delete", "after")``.

    ``target`` is a ``ChromaStore`` (its own calls of the method fail too, as in a subclass) or one of its
    chromadb collections (``store._facts``). Arming a method puts a wrapper on the instance; a disarmed
    wrapper calls the real method and nothing else. ``calls[method]`` counts the calls of each armed method
    (failed or not), so a test can tell whether a caller reached the store.
    """

    def __init__(self, target: Any) -> None:
        self.target = target
        self.calls: dict[str, int] = {}
        self._rules: list[_Rule] = []
        self._wrapped: set[str] = set()
        self._lock = threading.Lock()  # batches may be written from several threads

    def arm(self, method: str, when: str = "before", *, error: type[BaseException] = InjectedFault,
            message: str | None = None, ids: Iterable[str] | None = None, times: int | None = None) -> None:
        """Make calls of ``method`` raise ``error(message)`` ``when`` ("before" or "after" their work).

        ``ids``: only calls whose ``ids=`` names one of these fact ids (a collection's ids end in ``:<fact id>``);
        ``times``: only the next so many matching calls (default: every one until :meth:`disarm`). The first
        armed rule that matches a call decides it.
        """
        if when not in ("before", "after"):
            raise ValueError(f"when must be 'before' or 'after', not {when!r}")
        self.watch(method)
        with self._lock:
            self._rules.append(_Rule(method, when, error, message or f"{method} failed {when} its work",
                                     None if ids is None else frozenset(ids), times))

    def watch(self, method: str) -> None:
        """Count the calls of ``method`` in ``calls`` without making any fail."""
        if method not in self._wrapped:
            setattr(self.target, method, self._wrap(method, getattr(self.target, method)))
            self._wrapped.add(method)

    def disarm(self, method: str | None = None) -> None:
        """Drop the rules of ``method`` (default: every rule): its calls do their work again."""
        with self._lock:
            self._rules = [r for r in self._rules if method is not None and r.method != method]

    def _take(self, method: str, kwargs: dict[str, Any]) -> _Rule | None:
        """The rule that decides this call (used up by it when counted), or None."""
        ids = kwargs.get("ids") or []
        with self._lock:
            for rule in self._rules:
                if rule.method != method:
                    continue
                if rule.ids is not None and not any(i.endswith(f":{fid}") for i in ids for fid in rule.ids):
                    continue
                if rule.times is not None:
                    rule.times -= 1
                    if rule.times == 0:
                        self._rules.remove(rule)
                return rule
        return None

    def _wrap(self, method: str, real: Any) -> Any:
        @functools.wraps(real)
        def call(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                self.calls[method] = self.calls.get(method, 0) + 1
            rule = self._take(method, kwargs)
            if rule is not None and rule.when == "before":
                raise rule.error(rule.message)
            out = real(*args, **kwargs)
            if rule is not None:
                raise rule.error(rule.message)
            return out

        return call


def break_store(engine: Any) -> None:
    """Make the engine's real in-memory Chroma store fail: its collection is dropped behind its back and the
    engine's copy cleared, so the next recall's load fails inside chromadb."""
    store = engine.store
    store._client.delete_collection(store._facts.name)  # noqa: SLF001 - a real store failure
    engine.clear_cache()


HELD_AT_MOST = 60.0
"""Seconds a :class:`HeldLoadStore` holds a load at most."""


class HeldLoadStore(ChromaStore):
    """A real in-memory Chroma store whose loads of a user's facts wait until ``release`` is set (a slow cold
    load over a server); ``loading`` is set once a load waits."""

    release: threading.Event
    loading: threading.Event
    loads: int = 0  # loads of a user's facts begun

    def load_entity(self, entity_id: str) -> Any:
        self.loads += 1
        self.loading.set()
        self.release.wait(HELD_AT_MOST)  # bounded: a time limit that failed shows as a late answer, not a hang
        return super().load_entity(entity_id)


@contextlib.contextmanager
def held_loads_engine(embedder: Any, entity_id: str, facts: Sequence[str], **engine_kwargs: Any
                      ) -> Iterator[RecallEngine]:
    """An engine over a :class:`HeldLoadStore` holding ``facts`` of ``entity_id``, with no copy of them cached:
    its next recall loads them from the store, and waits until ``engine.store.release.set()``. Released on exit,
    so no thread stays blocked."""
    store = HeldLoadStore.in_memory()
    store.release, store.loading = threading.Event(), threading.Event()
    store.release.set()
    engine = RecallEngine(store=store, embedder=embedder, **engine_kwargs)
    engine.add(entity_id, list(facts))
    engine.clear_cache()  # the write left a copy: the next recall loads from the store
    store.release.clear()
    store.loading.clear()
    store.loads = 0
    try:
        yield engine
    finally:
        store.release.set()
