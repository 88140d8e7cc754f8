"""``k`` for the pydantic LlamaIndex adapters (memory block, postprocessor), checked by
:mod:`memori_core.adapter_args`; the adapter's old name of it still accepted, with a ``DeprecationWarning``."""

from __future__ import annotations

from typing import Any, ClassVar

from llama_index.core.bridge.pydantic import BaseModel, Field, field_validator, model_validator

from memori_core.adapter_args import check_k, move_renamed_k


class CountField(BaseModel):
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
