"""PrefEval relevance-gate task: users' stated preferences among persona distractors.

Format: ``[{user, facts: [{id, text, source, topic}], queries: [{q, evidence,
topic, abstention, pair}]}]``. No sessions: each user's facts are added in one
call. A query's category is its topic's prefix (``"travel_hotel"`` ->
``"travel"``), or ``"preference"`` without a topic.
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

DEFAULT_CATEGORY = "preference"


def topic_category(topic: str | None) -> str:
    """``"travel_hotel"`` -> ``"travel"``; no topic -> ``"preference"``."""
    if not topic or not topic.strip():
        return DEFAULT_CATEGORY
    return topic.strip().split("_", 1)[0]


def _fact(item: Any, where: str) -> Fact:
    obj = expect_object(item, where)
    return Fact(id=expect_text(obj, "id", where), text=expect_text(obj, "text", where))


def _query(item: Any, where: str) -> Query:
    obj = expect_object(item, where)
    return Query(
        text=expect_text(obj, "q", where),
        evidence=expect_ids(obj, "evidence", where),
        category=topic_category(optional_text(obj, "topic", where)),
        abstention=expect_flag(obj, "abstention", where),
    )


def _user(item: Any, where: str) -> Memory:
    obj = expect_object(item, where)
    user = expect_text(obj, "user", where)
    facts = [_fact(f, f"{where} fact #{i}") for i, f in enumerate(expect_list(obj.get("facts"), where, "facts"))]
    queries = [_query(q, f"{where} query #{i}") for i, q in enumerate(expect_list(obj.get("queries"), where, "queries"))]
    return check_memory(Memory(f"prefeval:{user}", facts, queries), f"{where} ({user})")


def load_prefeval(path: str | Path) -> list[Memory]:
    """Read a PrefEval-task file; ``ValueError`` naming the file and the bad entry when malformed."""
    users = expect_list(read_json(path), str(path), "users")
    return [_user(item, f"{path}: user #{k}") for k, item in enumerate(users)]
