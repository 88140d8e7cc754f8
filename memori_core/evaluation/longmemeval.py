"""LongMemEval-style chat memories: a list of pools, each one user's chat history.

Format: ``[{id, facts: [{id, text, session_id, when, role}], queries: [{q,
evidence, category, abstention, ...}]}]``. Every turn (user and assistant
alike) is a fact; facts are added in file order, one ``add`` per session, with
``created_at = when`` and ``metadata = {"role": role}`` when a role is given.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .data import (
    Fact,
    Memory,
    Query,
    check_memory,
    expect_flag,
    expect_ids,
    expect_list,
    expect_object,
    expect_text,
    optional_text,
    read_json,
)


def _fact(item: Any, where: str) -> Fact:
    obj = expect_object(item, where)
    role = optional_text(obj, "role", where)
    when = optional_text(obj, "when", where)
    return Fact(
        id=expect_text(obj, "id", where),
        text=expect_text(obj, "text", where),
        created_at=when or None,
        session_id=optional_text(obj, "session_id", where),
        metadata={"role": role} if role else {},
    )


def _query(item: Any, where: str) -> Query:
    obj = expect_object(item, where)
    return Query(
        text=expect_text(obj, "q", where),
        evidence=expect_ids(obj, "evidence", where),
        category=optional_text(obj, "category", where) or "memory",
        abstention=expect_flag(obj, "abstention", where),
    )


def _pool(item: Any, where: str) -> Memory:
    obj = expect_object(item, where)
    pool_id = expect_text(obj, "id", where)
    facts = [_fact(f, f"{where} fact #{i}") for i, f in enumerate(expect_list(obj.get("facts"), where, "facts"))]
    queries = [_query(q, f"{where} query #{i}") for i, q in enumerate(expect_list(obj.get("queries"), where, "queries"))]
    return check_memory(Memory(f"memory:{pool_id}", facts, queries), f"{where} ({pool_id})")


def load_memory(path: str | Path) -> list[Memory]:
    """Read a LongMemEval-style file; ``ValueError`` naming the file and the bad entry when malformed."""
    pools = expect_list(read_json(path), str(path), "memory pools")
    return [_pool(item, f"{path}: pool #{k}") for k, item in enumerate(pools)]
