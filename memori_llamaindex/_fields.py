"""``k`` for the pydantic LlamaIndex adapters (memory block, postprocessor), checked by
:mod:`memori_core.adapter_args`; the adapter's old name of it still accepted, with a ``DeprecationWarning``."""

from __future__ import annotations

from typing import Any, ClassVar

from llama_index.core.bridge.pydantic import BaseModel, Field, field_validator, model_validator

from memori_core.adapter_args import check_k, move_renamed_k


class KnownFields(BaseModel):
    """Keyword arguments that name no field are refused (``TypeError`` naming them), as a plain class's
    ``__init__`` refuses them: ``MemoriMemoryBlock(captrue=True)`` had left capture off silently, and
    ``similarity_top_k=2`` had been ignored (LlamaIndex's pydantic models ignore unknown keys)."""

    @model_validator(mode="before")
    @classmethod
    def _known_fields(cls, data: Any) -> Any:
        if isinstance(data, dict):
            known = {*cls.model_fields, *(f.alias for f in cls.model_fields.values() if f.alias), "class_name",
                     getattr(cls, "OLD_K_NAME", "")}
            unknown = [key for key in data if key not in known]
            if unknown:
                raise TypeError(f"{cls.__name__} got unexpected keyword argument{'s' * (len(unknown) > 1)} "
                                f"{', '.join(map(repr, unknown))}")
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

    @field_validator("k", mode="before")
    @classmethod
    def _check_k(cls, value: Any) -> int | None:
        return check_k(value, cls.__name__)
