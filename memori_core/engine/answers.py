"""The answers a cached copy keeps: a question asked again (the same query, limit, ``where`` and earlier turns
read) over an unchanged copy (the same revision, nothing expired since) with the same engine settings is answered
from the copy's kept answer (the :data:`ANSWERS_KEPT` most recent per user), without embedding or ranking again.
The answers live on the copy (``EntityCache.answers``) and are read and written under the entity's lock."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..cache import EntityCache
from ..config import RecallConfig
from ..embedders import Embedder
from ..facts import RecalledFact
from ..filters import Where, where_key
from ..judge import Judge

ANSWERS_KEPT = 4
"""Recall answers a cached copy keeps (the most recent): an agent's turn asks the same question several times
(LlamaIndex's ``FunctionAgent`` reads its ``Memory`` again after the model answered, and after each tool)."""


@dataclass(frozen=True)
class _Asked:
    """What decides a recall's answer besides the copy and the engine's settings: the question."""

    query: str
    limit: int
    where: str | None  # canonical (filters.where_key)
    read: tuple[str, ...]  # the earlier turns recall reads

    @classmethod
    def of(cls, query: str, limit: int, where: Where | None, read: Sequence[str]) -> _Asked:
        return cls(query, limit, None if where is None else where_key(where), tuple(read))


@dataclass(frozen=True, eq=False)
class _Answer:
    """A recall's answer over a copy: valid while the copy is at ``revision``, before ``horizon`` (the first
    expiry among its facts, epoch seconds), for the same engine settings (``inputs``, compared by identity)."""

    revision: str | None
    horizon: float
    inputs: tuple[Any, ...]
    facts: tuple[RecalledFact, ...]


def _answered(cache: EntityCache, asked: _Asked, inputs: tuple[Any, ...], now: float,
              touch: bool = True) -> tuple[RecalledFact, ...] | None:
    """The answer ``cache`` keeps for ``asked`` when it still holds (call under the entity's lock); with
    ``touch``, it becomes the most recent (a lookup of the turn before, ``touch=False``, leaves the order be)."""
    answer = cache.answers.get(asked)
    if answer is None:
        return None
    if (answer.revision != cache.revision or now >= answer.horizon or len(answer.inputs) != len(inputs)
            or any(a is not b for a, b in zip(answer.inputs, inputs))):
        del cache.answers[asked]
        return None
    if touch:
        cache.answers.move_to_end(asked)
    return answer.facts


def _copies(facts: Sequence[RecalledFact]) -> list[RecalledFact]:
    """``facts`` with metadata dicts of their own: a caller may change the ones it got."""
    return [replace(f, metadata=dict(f.metadata)) for f in facts]


def _remember_answer(cache: EntityCache, asked: _Asked, answer: _Answer, push: bool = True) -> None:
    """Keep ``answer`` on ``cache`` (the :data:`ANSWERS_KEPT` most recent; call under the entity's lock). Without
    ``push`` (the answer of a lookup, not of a question the app asked: the turn before a follow-up, which the
    carry reads on its own words) it is kept only in a place left free, as the oldest: it never pushes out an
    answer the app may ask for again, and leaves one already kept for the same key as it is (the app's own recall
    of that turn stored it meanwhile: its answer and its place stand)."""
    if not push:
        if asked not in cache.answers and len(cache.answers) < ANSWERS_KEPT:
            cache.answers[asked] = answer
            cache.answers.move_to_end(asked, last=False)
        return
    cache.answers[asked] = answer
    cache.answers.move_to_end(asked)
    while len(cache.answers) > ANSWERS_KEPT:
        cache.answers.popitem(last=False)


class Answers:
    """What of :class:`~memori_core.engine.RecallEngine` a kept answer depends on (a mixin: the state is the
    engine's)."""

    config: RecallConfig
    judge: Judge | None
    judge_timeout: float
    _embedder: Embedder | None
    _prototypes: Any

    def _answer_inputs(self) -> tuple[Any, ...]:
        """What of the engine a recall's answer depends on, compared by identity: its config, embedder,
        judge, the judge's time limit (a boxed float: a new value is a new object) and the gate's embedded
        prototype sentences."""
        return (self.config, self._embedder, self.judge, self.judge_timeout, self._prototypes)
