"""The fields ``MemoriRetriever`` and ``MemoriContextInjector`` share, checked by :mod:`memori_core.adapter_args`
(``timeout`` by :func:`memori_core.time_limit.check_timeout`); a bad argument raises a plain ``TypeError`` /
``ValueError`` naming the class and the argument."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from memori_core.adapter_args import (
    PlainArgumentErrors,
    check_engine,
    check_entity_default,
    check_flag,
    check_k,
    check_known_keywords,
    named_by_class,
)
from memori_core.engine import RecallEngine
from memori_core.failopen import STRICT_DEFAULT, check_timeout


class MemoriFields(PlainArgumentErrors, BaseModel):
    """``engine``, ``entity_id``, ``k``, ``strict`` and ``timeout``, with the checks every adapter makes: a refused
    argument raises the plain ``TypeError`` / ``ValueError`` of its check, not pydantic's ``ValidationError``
    (:func:`memori_core.adapter_args.argument_error`), when given to the constructor or set later
    (``retriever.entity_id = "bob"``)."""

    REFUSAL: ClassVar[type[Exception]] = ValidationError
    model_config = ConfigDict(arbitrary_types_allowed=True, validate_assignment=True)  # a field set later is checked

    engine: RecallEngine = Field(exclude=True)
    """The :class:`~memori_core.RecallEngine` to recall from."""
    entity_id: str | None = None
    """Whose facts to recall when the call names no entity."""
    k: int | None = None
    """At most this many recalled facts, plus up to the engine's ``config.core_limit`` (3) core facts recall
    appends after them (``None``: the engine's ``config.limit``, 5 unless configured; ``0``: nothing)."""
    strict: bool = STRICT_DEFAULT
    """Raise recall errors instead of logging a warning and going on without memory."""
    timeout: float | None = None
    """Seconds one whole recall may take (``None``: no limit but the store's per request); past it the call goes
    on without memory, as for a failed recall, while the recall finishes in the background
    (:func:`memori_core.failopen.recall_or_empty`)."""

    _check_engine = field_validator("engine", mode="before")(named_by_class(check_engine))
    _check_k = field_validator("k", mode="before")(named_by_class(check_k))
    _check_timeout = field_validator("timeout", mode="before")(named_by_class(check_timeout))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # ``MemoriRetriever(engine, "alice")``, as the other adapters take them: the engine and the entity by
        # position, every other argument by name.
        owner = type(self).__name__
        if len(args) > 2:
            raise TypeError(f"{owner}: takes engine and entity_id by position, the other arguments by name "
                            f"(got {len(args)} positional arguments)")
        for name, value in zip(("engine", "entity_id"), args):
            if name in kwargs:
                raise TypeError(f"{owner}: got {name} both by position and by name")
            kwargs[name] = value
        # pydantic would ignore an unknown keyword (``top_k=1``, ``entity="alice"``): refused as every adapter does.
        fields = type(self).model_fields
        check_known_keywords(owner, kwargs, {*fields, *(f.alias for f in fields.values() if f.alias)})
        super().__init__(**kwargs)

    @field_validator("entity_id", mode="before")
    @classmethod
    def _check_entity(cls, value: Any) -> str | None:
        return check_entity_default(value, cls.__name__)

    @field_validator("strict", mode="before")
    @classmethod
    def _check_strict(cls, value: Any) -> bool:
        return check_flag(value, cls.__name__, "strict")
