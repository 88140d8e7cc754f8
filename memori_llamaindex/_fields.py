"""The fields the pydantic LlamaIndex adapters share, checked by :mod:`memori_core.adapter_args` and
:mod:`memori_core.failopen`: ``k`` (the adapter's old name of it still accepted, with a ``DeprecationWarning``),
and the recalling adapters' ``engine`` and ``timeout``; a bad argument raises a plain ``TypeError`` /
``ValueError`` naming the class and the argument (:class:`KnownFields`)."""

from __future__ import annotations

from typing import Any, ClassVar

from llama_index.core.bridge.pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from memori_core.adapter_args import (
    PlainArgumentErrors,
    check_engine,
    check_flag,
    check_k,
    check_known_keywords,
    move_renamed_k,
    named_by_class,
)
from memori_core.engine import RecallEngine
from memori_core.failopen import check_timeout


def checked_flag(cls: type, value: Any, info: ValidationInfo) -> bool:
    """A ``bool`` field's check (``capture``, ``strict``): ``True`` or ``False``, nothing read as one
    (:func:`memori_core.adapter_args.check_flag`); attach it as
    ``field_validator("capture", "strict", mode="before")(checked_flag)``."""
    return check_flag(value, cls.__name__, info.field_name or "flag")


class KnownFields(PlainArgumentErrors, BaseModel):
    """Keyword arguments that name no field are refused (``TypeError`` naming them), as a plain class's
    ``__init__`` refuses them: ``MemoriMemoryBlock(captrue=True)`` had left capture off silently, and
    ``similarity_top_k=2`` had been ignored (LlamaIndex's pydantic models ignore unknown keys).

    A refused argument raises the plain ``TypeError`` / ``ValueError`` of its check, naming the class and the
    argument, as a plain class raises it, not pydantic's ``ValidationError`` with its link
    (:func:`memori_core.adapter_args.argument_error`). A field set later (``block.entity_id = "bob"``) is checked
    the same way: unchecked, ``" bob"`` or ``5`` made every later recall and capture fail as if the store were
    down."""

    REFUSAL: ClassVar[type[Exception]] = ValidationError
    model_config = ConfigDict(validate_assignment=True)

    @model_validator(mode="before")
    @classmethod
    def _known_fields(cls, data: Any) -> Any:
        if isinstance(data, dict):
            known = {*cls.model_fields, *(f.alias for f in cls.model_fields.values() if f.alias), "class_name",
                     getattr(cls, "OLD_K_NAME", "")}
            check_known_keywords(cls.__name__, data, known)
        return data


class CountField(KnownFields):
    """The ``k`` field; a subclass names its old spelling in ``OLD_K_NAME``."""

    OLD_K_NAME: ClassVar[str]

    k: int | None = Field(
        default=None, description="At most this many results; None: the (engine's) config.limit, 5 unless configured."
    )

    @model_validator(mode="before")
    @classmethod
    def _renamed_k(cls, data: Any) -> Any:
        return move_renamed_k(data, cls.__name__, cls.OLD_K_NAME)

    _check_k = field_validator("k", mode="before")(named_by_class(check_k))


class RecallFields(KnownFields):
    """The ``engine`` a recalling adapter reads and the ``timeout`` of one whole recall; a wrong value raises
    naming the class and the argument. A subclass may declare either field again with its own description."""

    model_config = ConfigDict(arbitrary_types_allowed=True)  # the engine is no pydantic type
    engine: RecallEngine = Field(description="The recall engine holding the facts.", exclude=True)
    timeout: float | None = Field(
        default=None, description="Seconds one whole recall may take; None: no limit but the store's per request."
    )

    _check_engine = field_validator("engine", mode="before")(named_by_class(check_engine))
    _check_timeout = field_validator("timeout", mode="before")(named_by_class(check_timeout))
