"""How a :class:`~memori_langchain.MemoriStore` operation reaches the engine: an operation is a generator of
engine calls, written once; :func:`drive` runs it with the engine's blocking methods (``batch``), :func:`adrive`
with their async twins (``abatch``)."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, TypeVar

from memori_core.engine import RecallEngine
from memori_core.facts import RecalledFact
from memori_core.failopen import arecall_within, within


@dataclass(frozen=True)
class EngineCall:
    """One engine call of a store operation: ``target.<name>(*args, **kwargs)`` in :meth:`MemoriStore.batch`, its
    async twin ``target.a<name>(...)`` in :meth:`MemoriStore.abatch`. An operation is a generator of these (it is
    sent each call's answer, and the ``KeyError`` of a fact deleted meanwhile), so that its logic is written
    once for both."""

    target: Any
    name: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]


T = TypeVar("T")
Program = Generator[EngineCall, Any, T]
"""A store operation: sent each call's answer, it returns the operation's result."""


@dataclass(frozen=True)
class BoundedRecall:
    """The ``recall`` / ``arecall`` of ``engine`` bounded to ``timeout`` seconds in all (:func:`within`): past it,
    :class:`~memori_core.time_limit.RecallTimedOut`, the recall running on in the background."""

    engine: RecallEngine
    timeout: float

    def recall(self, query: str, entity_id: str, limit: int, **kwargs: Any) -> list[RecalledFact]:
        return list(within(lambda: self.engine.recall(query, entity_id, limit, **kwargs), self.timeout))

    async def arecall(self, query: str, entity_id: str, limit: int, **kwargs: Any) -> list[RecalledFact]:
        return await arecall_within(self.engine, query, entity_id, limit, kwargs, self.timeout)


def drive(operation: Program[T]) -> T:
    """Run an operation's engine calls with the engine's blocking methods."""
    reply: Any = None
    error: KeyError | None = None
    while True:
        try:
            call = operation.send(reply) if error is None else operation.throw(error)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        reply, error = None, None
        try:
            reply = getattr(call.target, call.name)(*call.args, **call.kwargs)
        except KeyError as exc:  # a fact deleted meanwhile: the operation decides
            error = exc


async def adrive(operation: Program[T]) -> T:
    """Run an operation's engine calls with the engine's async methods."""
    reply: Any = None
    error: KeyError | None = None
    while True:
        try:
            call = operation.send(reply) if error is None else operation.throw(error)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        reply, error = None, None
        try:
            reply = await getattr(call.target, "a" + call.name)(*call.args, **call.kwargs)
        except KeyError as exc:
            error = exc
