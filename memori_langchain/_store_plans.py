"""A :class:`~memori_langchain.MemoriStore`'s operations checked and planned before any runs: every check of
LangGraph's ``GetOp`` / ``PutOp`` / ``SearchOp`` / ``ListNamespacesOp`` and of the store's own arguments, no I/O
(a bad operation in a batch raises and nothing is written)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from langgraph.store.base import (
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    Op,
    PutOp,
    SearchOp,
    TTLConfig,
)

from memori_core.capture.markup import prompt_markup_in
from memori_core.capture.refusal import MARKUP, Refusal, refused_because
from memori_core.capture.said_at import said_during_turn
from memori_core.engine import is_version_id
from memori_core.extraction.core_facts import is_core_fact
from memori_core.facts import SEARCHABLE_KEY
from memori_core.ranking.core import CORE_KEY
from memori_core.filters import check_where
from memori_core.tool_queries import the_user_in_first_person
from memori_core.tool_writes import said_before_now
from memori_core.validate import check_said_at, check_text

from ._store_namespaces import NamespaceTemplate, as_namespace_pattern
from ._store_values import ITEM_KEY, item_metadata, item_text, whole_text


@dataclass(frozen=True)
class GetPlan:
    """A checked ``GetOp``: the entity, the namespace and key read, whether to refresh the TTL."""

    entity: str
    namespace: tuple[str, ...]
    key: str
    refresh: bool


@dataclass(frozen=True)
class PutPlan:
    """A checked ``PutOp`` with a value: the fact's text, metadata, creation time and expiry."""

    entity: str
    key: str
    text: str
    metadata: dict[str, Any]
    now: str
    expires_at: str | None


@dataclass(frozen=True)
class DeletePlan:
    """A checked ``PutOp`` with ``value=None``: the item to delete."""

    entity: str
    key: str


@dataclass(frozen=True)
class SearchPlan:
    """A checked ``SearchOp``: the entity, the query (``None``: a listing), the engine's ``where``, the page."""

    entity: str
    namespace: tuple[str, ...]
    query: str | None
    where: dict[str, Any]
    limit: int
    offset: int


@dataclass(frozen=True)
class ListNamespacesPlan:
    """A checked ``ListNamespacesOp``: the one namespace it may list, and the page."""

    entity: str | None  # None: no namespace can match
    namespace: tuple[str, ...]
    max_depth: int | None
    limit: int
    offset: int


Plan = GetPlan | PutPlan | DeletePlan | SearchPlan | ListNamespacesPlan
"""Any checked operation."""


def _refused_field(value: Any, path: str) -> tuple[str, Refusal] | None:
    """The first ``(where, refusal)`` in ``value`` (a JSON value), or ``None``: a str carrying a secret or prompt
    markup (:func:`~memori_core.capture.refusal.refused_because`), or an object key carrying prompt markup (a
    value's keys are in its text when the text is its JSON). Keys are not read for secrets: a hash or an id as a
    key would be taken for a token."""
    if isinstance(value, str):
        refusal = refused_because(value)
        return (path, refusal) if refusal else None
    if isinstance(value, dict):
        for name in value:
            markup = prompt_markup_in(name)
            if markup:
                return f"a key in {path}", Refusal(MARKUP, markup)
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for name, child in children:
        found = _refused_field(child, f"{path}[{name!r}]")
        if found:
            return found
    return None


def _refuse_unkeepable(value: dict[str, Any], key: str) -> None:
    """Refuse a put whose value carries a secret or prompt markup, as an agent's ``remember`` tool refuses one: a
    LangGraph store is written by model-driven memory tools too, and an item's text is recalled into later
    prompts, where a secret would be sent on every turn and a ``</memori_context>`` tag, a "SYSTEM:" label or
    "ignore previous instructions" would speak as the prompt. The error names the field and what it carries,
    never the value."""
    found = _refused_field(value, "value")
    if found:
        where, refusal = found
        raise ValueError(f"{where} of {key!r} carries {refusal.carries}; {refusal.not_kept}, so nothing was written")


def _check_count(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be an int >= 0, got {value!r}")
    return value


def _check_key(key: Any) -> str:
    """An item's key: a non-blank ``str`` (an int key is refused, not stored as its str: ``get(ns, 5)`` and
    ``get(ns, "5")`` would then find one item, which no LangGraph store does)."""
    if not isinstance(key, str):
        raise TypeError(f"key must be a str, got {type(key).__name__} {key!r}")
    if not key.strip():
        raise ValueError(f"key must be a non-blank str, got {key!r}")
    return check_text(key, "key")


def _looks_namespaced(key: str) -> bool:
    """Whether ``key`` has the shape of the fact id a store gives an item whose key, in its entity, is taken by an
    item of another namespace (``<kind>:<key>``: dot-separated labels, one of them ``*``, then ``:``)."""
    at = key.find(":")
    while at != -1:
        parts = key[:at].split(".")
        if "*" in parts and all(parts):
            return True
        at = key.find(":", at + 1)
    return False


def check_fields(fields: Any, name: str) -> tuple[str, ...] | None:
    """The store's ``fields`` or a put's ``index`` (argument ``name``): field paths, ``None`` for the whole value."""
    if fields is None:
        return None
    if isinstance(fields, str) or not isinstance(fields, Sequence):
        raise TypeError(f"{name} must be a list of field paths (e.g. ['content']), got {type(fields).__name__}")
    out = []
    for path in fields:
        if not isinstance(path, str) or not path:
            raise TypeError(f"{name} must be a list of non-empty str paths, got {path!r}")
        out.append(path)
    return tuple(out) or None


def check_ttl_config(ttl: Any) -> TTLConfig | None:
    """The store's ``ttl``: LangGraph's ``TTLConfig``, without the sweeping the store does not do."""
    if ttl is None:
        return None
    if not isinstance(ttl, Mapping):
        raise TypeError(f"MemoriStore: ttl must be a TTLConfig dict, got {type(ttl).__name__}")
    unknown = set(ttl) - {"default_ttl", "refresh_on_read", "omit_expired", "sweep_interval_minutes"}
    if unknown:
        raise ValueError(f"MemoriStore: unknown TTLConfig keys {sorted(unknown)}")
    if ttl.get("sweep_interval_minutes"):
        raise ValueError("MemoriStore does not sweep: expired items are never returned, and stay stored until "
                         "deleted (as every expired fact of the engine); leave sweep_interval_minutes out")
    if ttl.get("omit_expired") is False:
        raise ValueError("MemoriStore always omits expired items (omit_expired cannot be False)")
    if ttl.get("default_ttl") is not None:
        check_ttl(ttl["default_ttl"])
    return TTLConfig(**ttl)  # type: ignore[typeddict-item]


def check_ttl(ttl: Any) -> float | None:
    """A TTL in minutes (positive, finite) or ``None``."""
    if ttl is None:
        return None
    if isinstance(ttl, bool) or not isinstance(ttl, (int, float)) or not math.isfinite(ttl) or ttl <= 0:
        raise ValueError(f"ttl must be a positive number of minutes or None, got {ttl!r}")
    return ttl


class StorePlanning:
    """The planning half of :class:`~memori_langchain.MemoriStore`: LangGraph's operations as checked plans."""

    __slots__ = ()
    template: NamespaceTemplate
    fields: tuple[str, ...] | None
    max_value_bytes: int
    said_at_field: str | None
    _scope: dict[str, Any]

    def _plan(self, op: Op) -> Plan:
        if isinstance(op, GetOp):
            entity, ns = self.template.resolve(op.namespace)
            return GetPlan(entity, ns, _check_key(op.key), bool(op.refresh_ttl))
        if isinstance(op, PutOp):
            return self._plan_put(op)
        if isinstance(op, SearchOp):
            entity, ns = self.template.resolve_prefix(op.namespace_prefix)
            where = {**self._scope, **(self._where(op.filter) or {})}
            query = op.query
            if query is not None and not isinstance(query, str):
                raise TypeError(f"query must be a str or None, got {type(query).__name__}")
            # A store search is often a model's (LangMem's search tool, a tool over ``runtime.store``): its "where
            # does the user live" is the memory's user's "where do I live". But it may be any app's ("where does
            # the user get redirected after login"), so only that rewrite, not the agent tools' keyword reading.
            return SearchPlan(entity, ns, the_user_in_first_person(query) if query and query.strip() else None, where,
                              _check_count(op.limit, "limit"), _check_count(op.offset, "offset"))
        if isinstance(op, ListNamespacesOp):
            return self._plan_list(op)
        raise TypeError(f"MemoriStore: unknown operation {type(op).__name__}")

    @staticmethod
    def _where(filter: Any) -> dict[str, Any] | None:
        """LangGraph's ``filter`` (over an item's value) as the engine's ``where`` (over the fact's metadata)."""
        if filter is None or filter == {}:
            return None
        if not isinstance(filter, dict):
            raise TypeError(f"filter must be a dict of field -> value or operators, got {type(filter).__name__}")
        # The filter reads the item's value, nested below: its created_at / valid_to are the value's fields.
        checked = check_where({k: _lists_as_eq(v) for k, v in filter.items()}, "filter", fact_times=False)
        return {ITEM_KEY: {"value": checked}} if checked else None

    def _plan_put(self, op: PutOp) -> PutPlan | DeletePlan:
        entity, ns = self.template.resolve(op.namespace)
        if ns[0] == "langgraph":
            raise InvalidNamespaceError(f'namespace {ns!r}: the root label cannot be "langgraph" (LangGraph '
                                        'reserves it)')
        key = _check_key(op.key)
        if is_version_id(key):  # a get finds nothing there: the row is an earlier value, not an item
            raise ValueError(f"key {key!r} ends like the id of an earlier value (@v<n>), which the store keeps as "
                             "history of a key put again; choose another key")
        if _looks_namespaced(key):
            raise ValueError(f"key {key!r} is shaped like the id the store gives an item whose key another "
                             "namespace's item holds ('<labels with *>:<key>'); choose another key")
        if op.value is None:
            return DeletePlan(entity, key)
        if not isinstance(op.value, Mapping):
            raise TypeError(f"value must be a dict (or None to delete), got {type(op.value).__name__}")
        value = dict(op.value)
        bad = [k for k in value if not isinstance(k, str)]
        if bad:
            raise TypeError(f"value keys must be str, got {bad[0]!r}")
        try:
            encoded = json.dumps(value, allow_nan=False, ensure_ascii=False)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"value of {key!r} is not JSON (str keys; str, number, bool, None, list, dict values; "
                            f"finite numbers): {exc}") from None
        size = len(check_text(encoded, f"value of {key!r}").encode("utf-8"))
        if size > self.max_value_bytes:
            raise ValueError(f"value of {key!r} is {size} bytes as JSON; this MemoriStore keeps values up to "
                             f"{self.max_value_bytes} bytes (MemoriStore(max_value_bytes=...)); a memory is "
                             "best kept short: the embedder reads only its first few hundred words")
        value = json.loads(encoded)  # a private copy, as it will be read back
        _refuse_unkeepable(value, key)
        index = op.index
        if index is False:
            fields: tuple[str, ...] | None = None
        elif index is None:
            fields = self.fields
        else:
            fields = check_fields(index, "index")
        ttl = check_ttl(op.ttl)
        now = datetime.now(timezone.utc)
        expires = (now + timedelta(minutes=ttl)).isoformat() if ttl is not None else None
        # The value's own time, else the time of the turn the agent run is at (MemoriMiddleware around a tool
        # call): the clock the run's remember is dated by, so the two never disagree on which was said first.
        said = self._said_at(value, key) or said_before_now(said_during_turn())
        if said is not None:
            now = said
        # Without text at its indexed fields (missing, None, blank), an item is stored whole and unsearched, as
        # index=False stores it: LangGraph's own stores embed nothing for it either.
        text = item_text(value, fields) if index is not False else None
        searchable = text is not None
        if text is None:
            text = whole_text(value)
        metadata = item_metadata(value, now, ttl, text, key=key, namespace=self.template.kind)
        if not searchable:  # kept out of search: listed by store.search without a query, never recalled
            metadata[SEARCHABLE_KEY] = False
        elif is_core_fact(text):  # an allergy, a medication, a diet: recalled on every turn, as capture marks it
            metadata[CORE_KEY] = True
        return PutPlan(entity, key, text, metadata, now.isoformat(), expires)

    def _said_at(self, value: dict[str, Any], key: str) -> datetime | None:
        """When the item's memory was said: the value's ``said_at_field``, when the store names one and the value
        holds it (an ISO 8601 string with its UTC offset, :func:`~memori_core.validate.check_said_at`), else
        ``None``: now. A bad one raises, naming the key and the field."""
        field = self.said_at_field
        if field is None or value.get(field) is None:
            return None
        said = check_said_at(value[field], f"value of {key!r} field {field!r} (MemoriStore(said_at_field=...))")
        return None if said is None else said.astimezone(timezone.utc)

    def _plan_list(self, op: ListNamespacesOp) -> ListNamespacesPlan:
        labels = self.template.labels
        slots = self.template.slots
        n = len(labels)
        want: dict[int, str] = {}
        possible = True
        for cond in op.match_conditions or ():
            path = as_namespace_pattern(cond.path)
            if len(path) > n:
                possible = False
                continue
            if cond.match_type not in ("prefix", "suffix"):
                raise ValueError(f"unknown match_type {cond.match_type!r}; use 'prefix' or 'suffix'")
            start = 0 if cond.match_type == "prefix" else n - len(path)
            for j, label in enumerate(path):
                if label == "*":
                    continue
                i = start + j
                if (i not in slots and label != labels[i]) or want.get(i, label) != label:
                    possible = False
                want[i] = label
        max_depth = op.max_depth
        if max_depth is not None:
            max_depth = _check_count(max_depth, "max_depth")
        limit, offset = _check_count(op.limit, "limit"), _check_count(op.offset, "offset")
        if not possible:
            return ListNamespacesPlan(None, (), max_depth, limit, offset)
        open_slots = [labels[i] for i in slots if i not in want]
        if open_slots:
            raise InvalidNamespaceError(
                f"listing namespaces across users is not supported ({', '.join(open_slots)} not given): the store "
                "reads one user's memory per call, so that a call made for one user (an agent's tool) never learns "
                "of the others; pass a prefix or suffix that names the user. To list the users themselves (an admin "
                "page, a store browser), call engine.entities() on the store's engine, then list_namespaces with a "
                "prefix naming each")
        entity, ns = self.template.resolve(tuple(want.get(i, label) for i, label in enumerate(labels)))
        return ListNamespacesPlan(entity, ns, max_depth, limit, offset)


def _lists_as_eq(value: Any) -> Any:
    """LangGraph's bare list in a filter (an equal list) as the engine's ``{"$eq": [...]}``; keys unchanged."""
    if isinstance(value, (list, tuple)):
        return {"$eq": list(value)}
    if isinstance(value, dict) and not any(isinstance(k, str) and k.startswith("$") for k in value):
        return {k: _lists_as_eq(v) for k, v in value.items()}
    return value
