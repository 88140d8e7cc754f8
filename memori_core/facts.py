"""Plain data types shared by the store, the engine and the adapters."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(frozen=True)
class StoredFact:
    """One fact as the store keeps it."""

    id: str
    entity_id: str
    content: str
    created_at: str | None
    metadata: dict[str, Any] = field(default_factory=dict)
    """User metadata (JSON values)."""
    last_seen: str | None = None
    times_seen: int = 1
    session_id: str | None = None
    """Conversation/thread the fact was said in; facts of one session are ordered by ``seq``."""
    seq: int = 0
    """Order of addition within the entity (nanosecond clock at add time, plus position in the batch)."""
    updated_at: str | None = None
    """When :meth:`~memori_core.RecallEngine.update` last changed the fact (``None``: never)."""
    expires_at: str | None = None
    """When the fact stops being recalled (``None``: never)."""
    embedding: np.ndarray | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class RecalledFact:
    """A fact returned by recall, with every part of its score."""

    id: str
    entity_id: str
    content: str
    created_at: str | None
    cosine: float
    """Cosine similarity of the fact's embedding to the query's."""
    lexical: float
    """BM25 over the candidate pool, normalised to 0..1 (divided by the larger of the pool's maximum and
    ``lexical_floor`` x the summed idf of the matched query terms)."""
    rank_score: float
    """``w_cos * cosine + w_lex * lexical`` plus the neighbour-smoothing bonus (facts added with a session):
    the score facts are ordered and thresholded by. A core fact appended outside the pool has 0."""
    metadata: dict[str, Any] = field(default_factory=dict)
