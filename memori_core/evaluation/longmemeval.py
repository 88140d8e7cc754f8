"""LongMemEval-style chat memories: a list of pools, each one user's chat history.

Format: ``[{id, facts: [{id, text, session_id, when, role}], queries: [{q,
evidence, category, abstention, ...}]}]``. Every turn (user and assistant
alike) is a fact; facts are added in file order, one ``add`` per session, with
``created_at = when`` (a time without a zone is UTC) and ``metadata = {"role": role}`` when a role is given.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .data import Fact, Memory, expect_object, optional_text, optional_time, read_fact, read_memories


def _fact(item: Any, where: str) -> Fact:
    obj = expect_object(item, where)
    role = optional_text(obj, "role", where)
    when = optional_time(obj, "when", where)
    return read_fact(obj, where, created_at=when, session_id=optional_text(obj, "session_id", where),
                     metadata={"role": role} if role else {})


def load_memory(path: str | Path) -> list[Memory]:
    """Read a LongMemEval-style file; ``ValueError`` naming the file and the bad entry when malformed."""
    return read_memories(path, "memory pools", "pool", "id", "memory", _fact,
                         lambda obj, where: optional_text(obj, "category", where) or "memory")
