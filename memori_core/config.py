"""Every knob of the recall pipeline, in one frozen object."""

from __future__ import annotations

import dataclasses
import logging
import os
from dataclasses import dataclass
from typing import Any, Literal

logger = logging.getLogger(__name__)

TokenizerName = Literal["unicode", "memori"]

#: Environment variables read by :meth:`RecallConfig.from_env`, mapped to fields.
ENV_FIELDS: dict[str, str] = {
    "MEMORI_RECALL_LEX_WEIGHT": "lex_weight",
    "MEMORI_RECALL_LEX_WEIGHT_SHORT": "lex_weight_short",
    "MEMORI_RECALL_RELEVANCE_THRESHOLD": "relevance_threshold",
    "MEMORI_RECALL_LIMIT": "limit",
    "MEMORI_RECALL_DENSE_LIMIT": "dense_limit",
    "MEMORI_RECALL_TOKENIZER": "tokenizer",
}


@dataclass(frozen=True)
class RecallConfig:
    """Settings of one recall engine (or one retriever / postprocessor).

    Defaults follow the design document; :meth:`memori_compat` reproduces
    upstream Memori 3.3.6 exactly.
    """

    limit: int = 5
    """Facts returned by ``recall`` when the call gives no limit."""
    dense_limit: int | None = None
    """Most recent rows scored per recall; ``None`` scores all of an entity's facts."""
    relevance_threshold: float | None = 0.1
    """Minimum fused score kept by ``recall``; ``None`` turns the threshold off."""
    lex_weight: float = 0.15
    """Lexical (BM25) weight for queries longer than ``short_query_max_tokens``."""
    lex_weight_short: float = 0.30
    """Lexical weight for short queries."""
    short_query_max_tokens: int = 2
    """Queries with at most this many tokens (after stopwords) count as short."""
    weight_clamp: tuple[float, float] = (0.05, 0.40)
    """Both lexical weights are clamped into this closed interval."""
    candidate_multiplier: int = 10
    """Dense pool size is ``max(limit * candidate_multiplier, candidate_floor)``..."""
    candidate_floor: int = 50
    """...bounded by the number of rows and never below ``limit``."""
    k1: float = 1.2
    """BM25 term-frequency saturation."""
    b: float = 0.75
    """BM25 length normalisation."""
    tokenizer: TokenizerName = "unicode"
    """``"unicode"`` (every script, CJK bigrams) or ``"memori"`` (ASCII, upstream parity)."""

    def __post_init__(self) -> None:
        _check_int("limit", self.limit, minimum=0)
        if self.dense_limit is not None:
            _check_int("dense_limit", self.dense_limit, minimum=1)
        if self.relevance_threshold is not None:
            _check_number("relevance_threshold", self.relevance_threshold)
        _check_number("lex_weight", self.lex_weight)
        _check_number("lex_weight_short", self.lex_weight_short)
        _check_int("short_query_max_tokens", self.short_query_max_tokens, minimum=0)
        lo, hi = self.weight_clamp
        _check_number("weight_clamp[0]", lo)
        _check_number("weight_clamp[1]", hi)
        if not 0.0 <= lo <= hi <= 1.0:
            raise ValueError(f"weight_clamp must satisfy 0 <= low <= high <= 1, got {self.weight_clamp!r}")
        _check_int("candidate_multiplier", self.candidate_multiplier, minimum=1)
        _check_int("candidate_floor", self.candidate_floor, minimum=0)
        _check_number("k1", self.k1)
        _check_number("b", self.b)
        if self.k1 < 0 or not 0.0 <= self.b <= 1.0:
            raise ValueError(f"BM25 needs k1 >= 0 and 0 <= b <= 1, got k1={self.k1}, b={self.b}")
        if self.tokenizer not in ("unicode", "memori"):
            raise ValueError(f"tokenizer must be 'unicode' or 'memori', got {self.tokenizer!r}")

    def replace(self, **changes: Any) -> RecallConfig:
        """Return a copy with some fields changed (validated like the constructor)."""
        return dataclasses.replace(self, **changes)

    @classmethod
    def memori_compat(cls, **overrides: Any) -> RecallConfig:
        """Upstream Memori 3.3.6's exact ranking: ASCII tokenizer, 1000 most recent rows."""
        base: dict[str, Any] = {"tokenizer": "memori", "dense_limit": 1000}
        base.update(overrides)
        return cls(**base)

    @classmethod
    def from_env(cls, **overrides: Any) -> RecallConfig:
        """Build a config from ``MEMORI_RECALL_*`` environment variables, read now.

        Unparsable values are ignored with a warning (the default stays), as
        upstream Memori does. Keyword ``overrides`` win over the environment.
        """
        values: dict[str, Any] = {}
        for var, name in ENV_FIELDS.items():
            raw = os.environ.get(var)
            if raw is None or raw.strip() == "":
                continue
            try:
                values[name] = _parse_env_value(name, raw.strip())
            except ValueError:
                logger.warning("ignoring %s=%r: not a valid value for %s", var, raw, name)
        values.update(overrides)
        return cls(**values)


def _parse_env_value(name: str, raw: str) -> Any:
    if name == "tokenizer":
        if raw not in ("unicode", "memori"):
            raise ValueError(raw)
        return raw
    if name in ("limit", "dense_limit"):
        if name == "dense_limit" and raw.lower() in ("none", "all"):
            return None
        return int(raw)
    if name == "relevance_threshold" and raw.lower() in ("none", "off"):
        return None
    value = float(raw)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(raw)
    return value


def _check_int(name: str, value: Any, *, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")


def _check_number(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{name} must be finite, got {value}")
