"""What every evaluation task is made of: memories of facts, and queries with their evidence."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from ..validate import OutOfRangeError, parse_utc


@dataclass(frozen=True)
class Fact:
    """One fact of a memory, added as the engine's ``add`` takes it."""

    id: str
    text: str
    created_at: datetime | str | None = None
    """When it was said (``None``: now)."""
    session_id: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Query:
    """A question asked of one memory."""

    text: str
    evidence: tuple[str, ...]
    """Ids of the facts that answer it (empty for an abstention query)."""
    category: str
    abstention: bool = False
    """True when the memory holds nothing for it: the ideal injection is nothing."""


@dataclass
class Memory:
    """One entity's facts, in the order they are added, and the queries asked of them."""

    entity_id: str
    facts: list[Fact]
    queries: list[Query]

    @property
    def answerable(self) -> list[Query]:
        """Queries with evidence."""
        return [q for q in self.queries if not q.abstention]

    @property
    def abstentions(self) -> list[Query]:
        """Queries the memory holds nothing for."""
        return [q for q in self.queries if q.abstention]


def session_runs(facts: Sequence[Fact]) -> list[list[Fact]]:
    """Consecutive facts of one session grouped together, file order kept (one ``add`` each)."""
    runs: list[list[Fact]] = []
    for fact in facts:
        if runs and runs[-1][0].session_id == fact.session_id:
            runs[-1].append(fact)
        else:
            runs.append([fact])
    return runs


def read_json(path: str | Path) -> Any:
    """The parsed JSON of ``path``; ``ValueError`` naming the file when it is missing or not JSON."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"no such file: {path}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path} is not JSON: {exc}") from None


def expect_list(value: Any, where: str, what: str) -> list[Any]:
    """``value`` if it is a list, else ``ValueError("<where>: expected a list of <what>")``."""
    if not isinstance(value, list):
        raise ValueError(f"{where}: expected a list of {what}, got {type(value).__name__}")
    return value


def expect_object(value: Any, where: str) -> dict[str, Any]:
    """``value`` if it is a JSON object, else ``ValueError``."""
    if not isinstance(value, dict):
        raise ValueError(f"{where}: expected an object, got {type(value).__name__}")
    return value


def expect_text(obj: dict[str, Any], key: str, where: str) -> str:
    """``obj[key]`` stripped, when it is a non-blank string."""
    value = obj.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{where}: '{key}' must be a non-empty string, got {value!r}")
    return value.strip()


def unique_ids(ids: Iterable[str], where: str, what: str) -> set[str]:
    """``ids`` as a set; ``ValueError`` naming the first one that appears twice (``what``: "fact id", "user")."""
    seen: set[str] = set()
    for i in ids:
        if i in seen:
            raise ValueError(f"{where}: {what} {i!r} appears twice")
        seen.add(i)
    return seen


def read_fact(item: Any, where: str, **fields: Any) -> Fact:
    """The :class:`Fact` of a task file's entry ``item``: an object with a non-blank ``id`` and ``text``, plus
    ``fields`` (``session_id``, ``created_at``, ``metadata``) read by the task; ``ValueError`` naming ``where``."""
    obj = expect_object(item, where)
    return Fact(id=expect_text(obj, "id", where), text=expect_text(obj, "text", where), **fields)


def optional_time(obj: dict[str, Any], key: str, where: str) -> str | None:
    """``obj[key]`` when present and not null: an ISO 8601 time as a UTC ISO string. A task file's time without a
    zone is UTC (the data sets' dates carry none), read so without the warning the engine gives an app."""
    value = optional_text(obj, key, where)
    if not value:
        return None
    try:
        return parse_utc(value).isoformat()
    except OutOfRangeError as exc:
        raise ValueError(f"{where}: '{key}' {exc}") from None
    except ValueError:
        raise ValueError(f"{where}: '{key}' is not an ISO 8601 time: {value!r}") from None


def optional_text(obj: dict[str, Any], key: str, where: str) -> str | None:
    """``obj[key]`` when present and not null, checked to be a string."""
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{where}: '{key}' must be a string, got {type(value).__name__}")
    return value


@dataclass
class NamedFile:
    """What every benchmark file holds besides its items: its name and version (:func:`read_named_file`); each
    benchmark's file class adds its items and their ``count()``."""

    name: str
    version: int


def read_named_file(path: str | Path) -> tuple[dict[str, Any], str, int]:
    """A benchmark file ``{name, version, ...}``: its top-level object, its name (the file's stem when absent) and
    its version (1 when absent); ``ValueError`` naming the file when either is malformed."""
    obj = expect_object(read_json(path), str(path))
    name = optional_text(obj, "name", str(path)) or Path(path).stem
    version = obj.get("version", 1)
    if isinstance(version, bool) or not isinstance(version, int):
        raise ValueError(f"{path}: 'version' must be an integer, got {version!r}")
    return obj, name, version


def expect_flag(obj: dict[str, Any], key: str, where: str) -> bool:
    """``obj[key]`` as a bool (absent: ``False``)."""
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise ValueError(f"{where}: '{key}' must be true or false, got {value!r}")
    return value


def expect_ids(obj: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    """``obj[key]`` as a tuple of strings (absent: empty)."""
    value = obj.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{where}: '{key}' must be a list of fact ids, got {value!r}")
    return tuple(dict.fromkeys(value))


def check_memory(memory: Memory, where: str) -> Memory:
    """Fact ids unique; every query's evidence names facts of the memory, exactly when it is answerable."""
    ids: set[str] = set()
    for fact in memory.facts:
        if fact.id in ids:
            raise ValueError(f"{where}: fact id {fact.id!r} appears twice")
        ids.add(fact.id)
    for k, query in enumerate(memory.queries):
        unknown = [e for e in query.evidence if e not in ids]
        if unknown:
            raise ValueError(f"{where}: query #{k} names evidence that is no fact of the memory: {unknown}")
        if query.abstention and query.evidence:
            raise ValueError(f"{where}: query #{k} is an abstention query but has evidence")
        if not query.abstention and not query.evidence:
            raise ValueError(f"{where}: query #{k} has no evidence and is not an abstention query")
    return memory


def count(memories: Iterable[Memory]) -> dict[str, int]:
    """Memories, facts, answerable and abstention queries."""
    ms = list(memories)
    return {
        "memories": len(ms),
        "facts": sum(len(m.facts) for m in ms),
        "answerable": sum(len(m.answerable) for m in ms),
        "abstention": sum(len(m.abstentions) for m in ms),
    }


def read_memories(
    path: str | Path,
    what: str,
    entry: str,
    id_key: str,
    prefix: str,
    fact: Callable[[Any, str], Fact],
    category: Callable[[dict[str, Any], str], str],
) -> list[Memory]:
    """Read a JSON list of ``what`` (each an ``entry``): ``{id_key, facts: [...], queries: [{q, evidence,
    abstention, ...}]}``, named ``prefix:<id>``.

    ``fact`` parses one fact, ``category`` names a query's category; every error
    is a ``ValueError`` naming the file and the entry.
    """
    def query(item: Any, where: str) -> Query:
        obj = expect_object(item, where)
        return Query(
            text=expect_text(obj, "q", where),
            evidence=expect_ids(obj, "evidence", where),
            category=category(obj, where),
            abstention=expect_flag(obj, "abstention", where),
        )

    def memory(item: Any, where: str) -> Memory:
        obj = expect_object(item, where)
        name = expect_text(obj, id_key, where)
        facts = [fact(f, f"{where} fact #{i}") for i, f in enumerate(expect_list(obj.get("facts"), where, "facts"))]
        queries = [query(q, f"{where} query #{i}")
                   for i, q in enumerate(expect_list(obj.get("queries"), where, "queries"))]
        return check_memory(Memory(f"{prefix}:{name}", facts, queries), f"{where} ({name})")

    items = expect_list(read_json(path), str(path), what)
    return [memory(item, f"{path}: {entry} #{k}") for k, item in enumerate(items)]
