"""How a :class:`~memori_langchain.MemoriStore` operation reaches the engine: an operation is a generator of
engine calls, written once; :func:`drive` runs it with the engine's blocking methods (``batch``), :func:`adrive`
with their async twins (``abatch``)."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

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


class _Run(Generic[T]):
    """An operation being run: each engine call it makes (:meth:`next_call`), sent the answer (or ``KeyError``)
    of the one before; its value once it returns."""

    def __init__(self, operation: Program[T]) -> None:
        self.operation = operation
        self.reply: Any = None
        self.error: KeyError | None = None  # a fact deleted meanwhile: thrown into the operation, which decides
        self.value: T | None = None

    def next_call(self) -> EngineCall | None:
        """The operation's next engine call; ``None`` once it has returned (then its result is :attr:`value`)."""
        try:
            call = self.operation.send(self.reply) if self.error is None else self.operation.throw(self.error)
        except StopIteration as stop:
            self.value = stop.value
            return None
        self.reply, self.error = None, None
        return call


def drive(operation: Program[T]) -> T:
    """Run an operation's engine calls with the engine's blocking methods."""
    run = _Run(operation)
    while (call := run.next_call()) is not None:
        try:
            run.reply = getattr(call.target, call.name)(*call.args, **call.kwargs)
        except KeyError as exc:
            run.error = exc
    return run.value  # type: ignore[return-value]


async def adrive(operation: Program[T]) -> T:
    """Run an operation's engine calls with the engine's async methods."""
    run = _Run(operation)
    while (call := run.next_call()) is not None:
        try:
            run.reply = await getattr(call.target, "a" + call.name)(*call.args, **call.kwargs)
        except KeyError as exc:
            run.error = exc
    return run.value  # type: ignore[return-value]
