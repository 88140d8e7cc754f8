"""``MemoriStore``: LangGraph's long-term memory store (``BaseStore``) over a :class:`~memori_core.RecallEngine`.

>>> store = MemoriStore(engine, namespace=("memories", "{user_id}"))
>>> store.put(("memories", "alice"), "diet", {"content": "Alice is vegetarian."})
>>> store.search(("memories", "alice"), query="what should I cook tonight?")
>>> agent = create_agent(model, tools, store=store)        # runtime.store in tools and middleware

What goes where:

- **Namespaces are users.** The store is given one namespace template: literal labels and
  ``{placeholders}`` (``("memories", "{user_id}")``, LangMem's spelling). A namespace of that shape is one
  entity of the engine, named by the placeholders' values (one placeholder: its value, so
  ``("memories", "alice")`` is the entity ``"alice"`` that the retriever, the middleware and
  ``engine.recall`` read too). Any other shape is refused with ``InvalidNamespaceError``, and so is a search
  or ``list_namespaces`` whose prefix does not name every placeholder: one call reads one user's memory,
  never several users' merged. Several stores of other shapes over one engine (``("profile", "{user_id}")``
  and ``("memories", "{user_id}")``) keep their items apart: an item is its namespace and its key. Each item
  records its namespace (:data:`NAMESPACE_KEY`: the template's :attr:`~NamespaceTemplate.kind`); a store
  reads its own items and the facts of no namespace (``engine.add``, capture, and items written before
  namespaces were recorded, which every store reads as it did).
- **Items are facts.** ``put(namespace, key, value, index=..., ttl=...)`` stores one fact: its id is the
  key (or ``<kind>:<key>`` when the user's fact with that id is another namespace's item), its text the
  indexed fields of the value (``index``, else the store's ``fields``; the whole value by default), its
  expiry ``ttl`` minutes from now; the value itself travels in the fact's metadata under :data:`ITEM_KEY`,
  so ``get`` returns a value equal to it (object keys sorted, as a JSON column keeps them) and filters read
  every field of it. A second put of a key keeps ``created_at`` and moves ``updated_at``; ``value=None``
  deletes. A put over an existing fact keeps what it does not say: the ``core`` mark, capture's and the app's
  own metadata, and an expiry set outside the store (a put's ``ttl`` replaces only a TTL a put gave). Facts
  that were not written through the store (``engine.add``, capture) are items too, with the value
  ``{"content": text}`` (the text at the store's first ``fields`` path when that is a plain one, e.g.
  ``{"text": ...}`` for ``fields=["text"]``): put back as read, or edited, the fact keeps its text (the
  edited field) and its metadata. A key is a ``str``: ``put`` / ``get`` / ``delete`` take another key's
  ``str()`` (LangGraph's ``BaseStore`` does, for every store), an operation built by hand with one raises
  ``TypeError`` naming ``key``.
- **A key follows its fact.** When a newer fact supersedes an item's fact (capture hears "I moved to Porto"
  and replaces the item ``city``, "User lives in Lisbon."), the key reads the newer fact: ``get`` returns the
  item's value with the field its text came from holding the new text (the app's other fields kept), a search
  shows the newer fact under the key, a put of the key edits it and a delete deletes it (and the item's
  superseded facts). The same holds for a text edited outside the store (``engine.update``, the agent's
  ``update_memory`` tool, MCP ``update``); a value whose text was several fields or its JSON, which the new
  text no longer matches, reads back as ``{"content": text}``.
- **``index=False`` is kept out of search**, as LangGraph means it: the fact (its text the whole value) is
  marked ``"searchable": False`` (:data:`memori_core.facts.SEARCHABLE_KEY`), so ``engine.recall``, and with
  it the middleware, the graph node, the retriever and the tools, never returns it nor puts it in a prompt.
  ``get`` reads it, a search without a query lists it, and a search with one returns it unscored
  (``score=None``) after the ranked items, oldest first, as LangGraph's ``InMemoryStore`` does. A value with
  no text at its indexed fields (each missing, ``None`` or blank; a whole value with no text in it) is stored
  the same way, as LangGraph's own stores embed nothing for it. A later put with text, and without
  ``index=False``, makes it searchable again.
- **Search is recall.** With a query, the engine ranks (dense + BM25, the relevance gate; ``gate=False``
  returns the best ``limit`` whatever their relevance, as the engine with ``gate="off"`` would) and each
  ``SearchItem``'s ``score`` is the fact's ``rank_score``; without one, the items are listed oldest first.
  A page is a slice of one recall: ``search(ns, query=q, offset=o, limit=n)`` is items ``o`` to ``o + n`` of
  ``engine.recall(q, entity, o + n)`` followed by the unscored items (the recall reads the facts the store
  reads: a user with items of another namespace has them left out). The gate judges the top ``o + n``
  candidates together, so the ranked items of the first page (``offset=0``) are exactly
  ``engine.recall(q, entity, n)``, but a later page is not always the continuation of an earlier one: with a
  larger ``o + n`` the gate may keep a fact that a smaller request dropped (or the reverse), so pages may
  overlap or skip an item. To read a ranked list whole, search once with the ``limit`` you need.
  ``filter`` is LangGraph's (``{"kind": "note", "rating": {"$gte": 3}}``; ``$eq $ne $gt $gte $lt $lte``),
  applied before ranking; it reads the values put through the store.
- **TTLs are refreshed by get.** A get of an item with a TTL starts it again (once :data:`REFRESH_AFTER` of it
  has passed), with one write. A search refreshes nothing: LangGraph's ``PostgresStore`` refreshes what a
  search returns in one statement, but the engine writes one fact at a time, so a listing of many items would
  cost a write each.

``batch`` / ``abatch`` check every operation before running any (a bad one raises and nothing is written),
then run them in order; ``abatch`` awaits the engine's async methods, running consecutive reads together.
"""

from __future__ import annotations

import asyncio
import copy as _copy
import functools
import hashlib
import json
import math
import re
import string
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import Any, TypeVar

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
    get_text_at_path,
    tokenize_path,
)

from memori_core.adapter_args import check_engine
from memori_core.engine import RecallEngine, is_version_id, version_of
from memori_core.facts import SEARCHABLE_KEY, RecalledFact, StoredFact
from memori_core.failopen import arecall_within, check_timeout, within
from memori_core.filters import check_where
from memori_core.metadata_keys import STORE_ITEM_KEY, STORE_NAMESPACE_KEY
from memori_core.validate import check_entity_id, check_text, parse_utc

ITEM_KEY = STORE_ITEM_KEY
"""The metadata key of a fact written by :class:`MemoriStore`: ``{"value": ..., "updated_at": ..., "ttl": ...}``
(:data:`memori_core.metadata_keys.STORE_ITEM_KEY`, which every adapter hides from the model)."""

NAMESPACE_KEY = STORE_NAMESPACE_KEY
"""The metadata key under which :class:`MemoriStore` records the namespace of the item a fact holds (its
:attr:`NamespaceTemplate.kind`, ``"memories.*"``; :data:`memori_core.metadata_keys.STORE_NAMESPACE_KEY`). A fact
without it (``engine.add``, capture, an item a store wrote before it recorded namespaces) is read by every store
over its user."""

DEFAULT_NAMESPACE: tuple[str, ...] = ("memories", "{user_id}")
DEFAULT_MAX_VALUE_BYTES = 16384

_PLACEHOLDER = re.compile(r"^\{([A-Za-z_][A-Za-z0-9_]*)\}$")
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


# -- the namespace template ------------------------------------------------------------------------------


def _check_label(label: Any, namespace: Any) -> str:
    """A namespace label as LangGraph allows it (a non-empty str without ``.`` or NUL)."""
    if not isinstance(label, str):
        raise InvalidNamespaceError(f"namespace {namespace!r}: labels must be str, got {type(label).__name__}")
    if not label:
        raise InvalidNamespaceError(f"namespace {namespace!r}: labels cannot be empty strings")
    if "." in label or "\x00" in label:
        raise InvalidNamespaceError(f"namespace {namespace!r}: label {label!r} contains a period or a NUL byte")
    return label


def _as_namespace(value: Any, what: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, (tuple, list)):
        raise InvalidNamespaceError(f"{what} must be a tuple of str labels, got {type(value).__name__} {value!r}")
    return tuple(_check_label(label, value) for label in value)


@dataclass(frozen=True)
class NamespaceTemplate:
    """The shape of a :class:`MemoriStore`'s namespaces and how one names an entity.

    ``labels`` are literals or ``"{name}"`` placeholders (at least one); ``entity`` is a ``str.format``
    string over the placeholder names, using each once; by default the one placeholder's value, or the
    values joined by ``.`` (which no label may contain, so two namespaces never name one entity). A custom
    ``entity`` with several placeholders must put a ``.`` in the text between them, for the same reason.
    :attr:`kind` names the namespaces of this shape within one entity (the labels, ``*`` for each placeholder).
    """

    labels: tuple[str, ...]
    entity: str

    @classmethod
    def parse(cls, labels: Any, entity: str | None = None) -> NamespaceTemplate:
        if isinstance(labels, str) or not isinstance(labels, (tuple, list)) or not labels:
            raise ValueError(f"namespace must be a non-empty tuple of labels, e.g. {DEFAULT_NAMESPACE}, got {labels!r}")
        labels = tuple(labels)
        names: list[str] = []
        for label in labels:
            if not isinstance(label, str) or not label:
                raise ValueError(f"namespace {labels!r}: every label must be a non-empty str")
            m = _PLACEHOLDER.match(label)
            if m:
                names.append(m.group(1))
            elif "{" in label or "}" in label:
                raise ValueError(f"namespace {labels!r}: label {label!r} must be a literal or exactly one "
                                 "'{name}' placeholder")
            elif label == "*":
                raise ValueError(f"namespace {labels!r}: '*' is LangGraph's wildcard, not a label")
            else:
                _check_label(label, labels)
        if not names:
            raise ValueError(f"namespace {labels!r} has no '{{placeholder}}': every user would share one namespace; "
                             f"name the user, e.g. {DEFAULT_NAMESPACE}")
        if len(set(names)) != len(names):
            raise ValueError(f"namespace {labels!r} repeats a placeholder")
        if labels[0] == "langgraph":
            raise ValueError('a namespace\'s root label cannot be "langgraph" (LangGraph reserves it)')
        if entity is None:
            entity = ".".join("{" + n + "}" for n in names)
        cls._check_entity(entity, names)
        return cls(labels, entity)

    @staticmethod
    def _check_entity(entity: Any, names: list[str]) -> None:
        if not isinstance(entity, str):
            raise TypeError(f"entity must be a format str over {names}, got {type(entity).__name__}")
        try:
            parts = list(string.Formatter().parse(entity))
        except ValueError as exc:
            raise ValueError(f"entity {entity!r} is not a format string: {exc}") from None
        used = [p[1] for p in parts if p[1] is not None]
        if any(p[2] or p[3] for p in parts if p[1] is not None):
            raise ValueError(f"entity {entity!r}: use plain '{{name}}' fields, without format specs or conversions")
        if sorted(used) != sorted(names):
            raise ValueError(f"entity {entity!r} must use each of the namespace's placeholders {names} exactly once "
                             "(else two namespaces would name one entity)")
        for i, (text, field, _, _) in enumerate(parts):
            if i > 0 and field is not None and parts[i - 1][1] is not None and "." not in text:
                raise ValueError(f"entity {entity!r}: put a '.' between two placeholders (no label contains one), "
                                 "so that two namespaces never name one entity")

    @functools.cached_property
    def kind(self) -> str:
        """The namespace of this shape within an entity: the labels joined by ``.``, each placeholder as ``*``
        (``("memories", "{user_id}")``: ``"memories.*"``). Stores of one shape over an engine share their items;
        stores of two shapes keep apart items of the same key (:data:`NAMESPACE_KEY`)."""
        return ".".join("*" if i in self.slots else label for i, label in enumerate(self.labels))

    @functools.cached_property
    def slots(self) -> dict[int, str]:
        """Position -> placeholder name."""
        return {i: m.group(1) for i, label in enumerate(self.labels) if (m := _PLACEHOLDER.match(label))}

    def entity_of(self, values: Mapping[str, str], namespace: Any) -> str:
        for name, value in values.items():
            if value == "*":
                raise InvalidNamespaceError(f"namespace {namespace!r}: '*' is a wildcard, not a {name}")
        try:
            return check_entity_id(self.entity.format(**values))
        except (TypeError, ValueError) as exc:
            raise InvalidNamespaceError(f"namespace {namespace!r} names no entity: {exc}") from None

    def resolve(self, namespace: Any) -> tuple[str, tuple[str, ...]]:
        """The entity a namespace of this shape names (and the namespace as a tuple); else ``InvalidNamespaceError``."""
        ns = _as_namespace(namespace, "namespace")
        if len(ns) != len(self.labels) or any(
                ns[i] != label for i, label in enumerate(self.labels) if i not in self.slots):
            raise InvalidNamespaceError(f"namespace {ns!r} is not of this store's shape {self.labels!r}")
        return self.entity_of({name: ns[i] for i, name in self.slots.items()}, ns), ns

    def resolve_prefix(self, prefix: Any) -> tuple[str, tuple[str, ...]]:
        """The one entity (and its namespace) whose items a search over ``prefix`` reads."""
        p = _as_namespace(prefix, "namespace_prefix")
        if len(p) > len(self.labels) or any(
                p[i] != label for i, label in enumerate(self.labels[: len(p)]) if i not in self.slots):
            raise InvalidNamespaceError(f"no namespace of this store's shape {self.labels!r} starts with {p!r}")
        open_slots = [self.labels[i] for i in self.slots if i >= len(p)]
        if open_slots:
            raise InvalidNamespaceError(
                f"a search over {p!r} would span several users' memories ({', '.join(open_slots)} not given); "
                f"search one user's namespace, e.g. {self.labels!r} with the placeholders filled in")
        return self.resolve(p + self.labels[len(p):])


# -- values and facts --------------------------------------------------------------------------------------

_OWN_KEYS = (ITEM_KEY, NAMESPACE_KEY, SEARCHABLE_KEY)
"""The metadata keys a put writes for itself (the item, its namespace, whether search reads it). A put over an
existing fact replaces these and keeps every other key: ``core``, capture's ``source`` / ``thread_id`` ..., the
app's own ``engine.add`` metadata."""

_MAX_CHAIN = 32
"""How many supersedes a key follows (or a search walks back) before it gives up: a guard against a cycle written
by hand, never reached by real memory."""

_SIMPLE_PATH = re.compile(r"^[^.\[\]{}*$]+(\.[^.\[\]{}*$]+)*$")


def _has_text(value: Any) -> bool:
    """Whether a JSON value holds anything to index: a non-blank str, a number or a bool, at any depth."""
    if isinstance(value, str):
        return bool(value.strip())
    if isinstance(value, dict):
        return any(_has_text(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_text(v) for v in value)
    return value is not None


def _whole_text(value: Mapping[str, Any]) -> str:
    """The text of a whole value: its one str field alone (``{"content": "..."}``), else its JSON."""
    if len(value) == 1:
        (only,) = value.values()
        if isinstance(only, str) and only.strip():
            return only
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _copy_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_json(v) for v in value]
    return value


def _time(value: str | None) -> datetime:
    """A stored time (the engine writes UTC ISO 8601 with its offset) as an aware datetime."""
    if not value:
        return _EPOCH
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:  # another spelling ("Z" before Python 3.11): the engine's own parser
        return parse_utc(value)
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=timezone.utc)


def _expired(expires_at: str | None, now: datetime) -> bool:
    return bool(expires_at) and _time(expires_at) <= now


def item_text(value: dict[str, Any], fields: Sequence[str] | None) -> str | None:
    """The text of the fact that holds ``value``: the texts at ``fields`` (LangGraph's paths; ``None``: the whole
    value, ``"$"``) joined by newlines; ``None`` when they hold none (each field missing, ``None`` or blank; a
    whole value with no text in it), as LangGraph's own stores then embed nothing. The whole value is its one str
    field when it has just one (``{"content": "..."}``), else its JSON (``sort_keys``, as LangGraph embeds it)."""
    texts: list[str] = []
    for path in fields or ("$",):
        if path == "$":
            if _has_text(value):
                texts.append(_whole_text(value))
        else:
            texts.extend(get_text_at_path(value, tokenize_path(path)))
    return "\n".join(t.strip() for t in texts if t and t.strip()) or None


def _text_digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def _text_path(value: Any, digest: str | None) -> tuple[str, ...] | None:
    """The path of the str field of ``value`` whose text (stripped, as the fact's text is) has ``digest``: the
    field an item's text came from (nested objects are searched, lists are not)."""
    if digest is None or not isinstance(value, dict):
        return None
    for k, v in value.items():
        if isinstance(v, str) and _text_digest(v.strip()) == digest:
            return (k,)
        sub = _text_path(v, digest)
        if sub is not None:
            return (k, *sub)
    return None


def _with_text(value: dict[str, Any], path: Sequence[str], text: str) -> dict[str, Any]:
    """A copy of ``value`` with ``text`` at ``path`` (objects on the way made when missing)."""
    out = _copy_json(value)
    node = out
    for k in path[:-1]:
        node = node.setdefault(k, {})
    node[path[-1]] = text
    return out


def _edited(value: dict[str, Any], text: str, digest: str | None) -> dict[str, Any]:
    """The value of an item whose fact now says ``text``, though it was put saying the text of ``digest``: its
    text was edited outside the store (``engine.update``, the agent's ``update_memory`` tool, MCP ``update``), or
    its key now reads the newer fact that superseded it (capture's "User lives in Porto." over the item's "User
    lives in Lisbon."). The field the old text came from holds the new one and the value's other fields stay; a
    value whose text was several fields or its JSON, which the new text no longer matches, is
    ``{"content": text}``."""
    path = _text_path(value, digest)
    return _with_text(value, path, text) if path is not None else {"content": text}


def _layout(metadata: Mapping[str, Any]) -> dict[str, Any] | None:
    """The store item a fact's metadata holds (:data:`ITEM_KEY`), or ``None`` for a fact written without a store."""
    layout = metadata.get(ITEM_KEY)
    return layout if isinstance(layout, dict) and isinstance(layout.get("value"), dict) else None


def _ttl_of(layout: Mapping[str, Any] | None) -> float | None:
    """The TTL (minutes) the put of an item gave it, or ``None``."""
    ttl = layout.get("ttl") if layout is not None else None
    return ttl if isinstance(ttl, (int, float)) and not isinstance(ttl, bool) else None


def _updated_at(fact: Any) -> str | None:
    """When a fact was last edited (a recalled fact carries it in its metadata)."""
    return getattr(fact, "updated_at", None) or fact.metadata.get("updated_at")


def item_metadata(value: dict[str, Any], updated_at: datetime, ttl: float | None = None,
                  text: str | None = None, *, key: str | None = None,
                  namespace: str | None = None) -> dict[str, Any]:
    """The store's own metadata of the fact that holds ``value`` (written at ``updated_at``, with a TTL in minutes;
    ``text``: the fact's text, whose digest tells a later read whether the text was edited outside the store and
    which field it came from; ``key``: the item's key; ``namespace``: its :attr:`NamespaceTemplate.kind`)."""
    layout: dict[str, Any] = {"value": value, "updated_at": updated_at.isoformat()}
    if text is not None:
        layout["text"] = _text_digest(text)
    if ttl is not None:
        layout["ttl"] = ttl
    if key is not None:
        layout["key"] = key
    metadata: dict[str, Any] = {ITEM_KEY: layout}
    if namespace is not None:
        metadata[NAMESPACE_KEY] = namespace
    return metadata


# -- planned operations (checked before anything runs) -----------------------------------------------------


@dataclass(frozen=True)
class _Get:
    entity: str
    namespace: tuple[str, ...]
    key: str
    refresh: bool


@dataclass(frozen=True)
class _Put:
    entity: str
    key: str
    text: str
    metadata: dict[str, Any]
    now: str
    expires_at: str | None


@dataclass(frozen=True)
class _Delete:
    entity: str
    key: str


@dataclass(frozen=True)
class _Search:
    entity: str
    namespace: tuple[str, ...]
    query: str | None
    where: dict[str, Any]
    limit: int
    offset: int


@dataclass(frozen=True)
class _ListNamespaces:
    entity: str | None  # None: no namespace can match
    namespace: tuple[str, ...]
    max_depth: int | None
    limit: int
    offset: int


_Plan = _Get | _Put | _Delete | _Search | _ListNamespaces


@dataclass(frozen=True)
class _Call:
    """One engine call of a store operation: ``target.<name>(*args, **kwargs)`` in :meth:`MemoriStore.batch`, its
    async twin ``target.a<name>(...)`` in :meth:`MemoriStore.abatch`. An operation is a generator of these (it is
    sent each call's answer, and the ``KeyError`` of a fact deleted meanwhile), so that its logic is written
    once for both."""

    target: Any
    name: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]


T = TypeVar("T")
_Program = Generator[_Call, Any, T]


@dataclass(frozen=True)
class _Bounded:
    """The ``recall`` / ``arecall`` of ``engine`` bounded to ``timeout`` seconds in all (:func:`within`): past it,
    :class:`~memori_core.time_limit.RecallTimedOut`, the recall running on in the background."""

    engine: RecallEngine
    timeout: float

    def recall(self, query: str, entity_id: str, limit: int, **kwargs: Any) -> list[RecalledFact]:
        return list(within(lambda: self.engine.recall(query, entity_id, limit, **kwargs), self.timeout))

    async def arecall(self, query: str, entity_id: str, limit: int, **kwargs: Any) -> list[RecalledFact]:
        return await arecall_within(self.engine, query, entity_id, limit, kwargs, self.timeout)


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


REFRESH_AFTER = 0.1
"""A get starts an item's TTL again only once this share of it has passed since it was last started: a refresh is
a write (and makes every other process holding the user reload it), so ten gets in a row cost one write, not ten.
The item may then expire up to this share of its TTL earlier than after a refresh on every read."""


def _due(fact: StoredFact, ttl: float, now: datetime) -> bool:
    """Whether a get should start the TTL (minutes) of ``fact`` again now (:data:`REFRESH_AFTER`)."""
    return fact.expires_at is None or _time(fact.expires_at) - now < timedelta(minutes=ttl * (1 - REFRESH_AFTER))


class MemoriStore(BaseStore):
    """LangGraph's ``BaseStore`` over a :class:`~memori_core.RecallEngine`: one namespace per user, one
    fact per item, search ranked by the engine (module docstring: :mod:`memori_langchain.store`).

    - ``namespace``: the template, literal labels and ``{placeholders}`` (default ``("memories", "{user_id}")``);
      ``entity``: how the placeholders' values name the engine's entity (:class:`NamespaceTemplate`). Stores of
      several shapes may share an engine: their items are apart, by namespace and key.
    - ``fields``: the value's fields that make a fact's text, as LangGraph's ``IndexConfig.fields`` paths
      (``["content"]``, ``["memory.text", "tags[*]"]``; several texts are joined by newlines); default
      ``None``, the whole value (``"$"``): its one str field when it has just one, else its JSON. ``put(...,
      index=[...])`` overrides them per item. A value with no text at them (each missing, ``None`` or blank) is
      stored as ``index=False`` stores it: whole, kept out of search (module docstring).
    - ``gate``: ``True`` (default) ranks as ``engine.recall`` does, relevance gate (or judge) and all, so a
      search may return fewer than ``limit`` items, or none; ``False`` returns the ``limit`` best whatever their
      relevance, as the same engine with ``RecallConfig(gate="off")`` (no judge is asked).
    - ``ttl``: LangGraph's ``TTLConfig``: ``default_ttl`` (minutes) for puts without ``ttl=``, and
      ``refresh_on_read`` (default ``True``: a get that returns an item with a TTL starts its TTL again, once
      :data:`REFRESH_AFTER` of it has passed; a search never does). Expired items are never returned; like every
      expired fact, they stay stored until deleted.
    - ``max_value_bytes``: the largest value (as JSON) a put accepts; a larger one raises ``ValueError``
      and nothing is written.
    - ``timeout``: seconds the recall of a search with a query may take in all (default ``None``: no limit but
      the store's per request), as an adapter's ``timeout=``: past it the search raises
      :class:`~memori_core.time_limit.RecallTimedOut` (a ``TimeoutError``), as the store raises any failure, while
      the recall finishes in the background and serves the next search. Gets, puts and listings are not bounded
      by it.
    """

    supports_ttl = True
    __slots__ = ("engine", "template", "fields", "gate", "ttl_config", "max_value_bytes", "timeout", "_ungated",
                 "_scope", "_text_field")

    def __init__(
        self,
        engine: RecallEngine,
        *,
        namespace: Sequence[str] = DEFAULT_NAMESPACE,
        entity: str | None = None,
        fields: Sequence[str] | None = None,
        gate: bool = True,
        ttl: TTLConfig | None = None,
        max_value_bytes: int = DEFAULT_MAX_VALUE_BYTES,
        timeout: float | None = None,
    ) -> None:
        self.engine = check_engine(engine, "MemoriStore")
        self.timeout = check_timeout(timeout, "MemoriStore")
        self.template = NamespaceTemplate.parse(namespace, entity)
        self.fields = self._check_fields(fields, "fields")
        if not isinstance(gate, bool):
            raise TypeError(f"MemoriStore: gate must be a bool, got {type(gate).__name__}")
        self.gate = gate
        self.ttl_config = self._check_ttl_config(ttl)
        if isinstance(max_value_bytes, bool) or not isinstance(max_value_bytes, int) or max_value_bytes < 1:
            raise ValueError(f"MemoriStore: max_value_bytes must be an int >= 1, got {max_value_bytes!r}")
        self.max_value_bytes = max_value_bytes
        self._ungated: tuple[Any, RecallEngine] | None = None  # (the config it was made from, the twin)
        # The facts this store reads: its namespace's items, and the facts no namespace holds (engine.add, capture).
        self._scope: dict[str, Any] = {NAMESPACE_KEY: {"$in": [self.template.kind, None]}}
        first = self.fields[0] if self.fields else None
        self._text_field: tuple[str, ...] = (
            tuple(first.split(".")) if first is not None and _SIMPLE_PATH.match(first) else ("content",))

    def __repr__(self) -> str:
        return f"MemoriStore(namespace={self.template.labels!r}, entity={self.template.entity!r}, gate={self.gate})"

    @staticmethod
    def _check_fields(fields: Any, name: str) -> tuple[str, ...] | None:
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

    @staticmethod
    def _check_ttl_config(ttl: Any) -> TTLConfig | None:
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
            MemoriStore._check_ttl(ttl["default_ttl"])
        return TTLConfig(**ttl)  # type: ignore[typeddict-item]

    @staticmethod
    def _check_ttl(ttl: Any) -> float | None:
        if ttl is None:
            return None
        if isinstance(ttl, bool) or not isinstance(ttl, (int, float)) or not math.isfinite(ttl) or ttl <= 0:
            raise ValueError(f"ttl must be a positive number of minutes or None, got {ttl!r}")
        return ttl

    # -- public helpers ---------------------------------------------------------------------------------

    def entity_id(self, namespace: Sequence[str]) -> str:
        """The engine entity a namespace names (``("memories", "alice")`` -> ``"alice"``)."""
        return self.template.resolve(tuple(namespace))[0]

    def namespace_for(self, **values: str) -> tuple[str, ...]:
        """The namespace of the placeholders' values (``namespace_for(user_id="alice")``)."""
        slots = self.template.slots
        if set(values) != set(slots.values()):
            raise TypeError(f"namespace_for takes exactly the placeholders {sorted(slots.values())}")
        ns = tuple(values[slots[i]] if i in slots else label for i, label in enumerate(self.template.labels))
        return self.template.resolve(ns)[1]

    # -- planning: every check, no I/O ------------------------------------------------------------------

    def _plan(self, op: Op) -> _Plan:
        if isinstance(op, GetOp):
            entity, ns = self.template.resolve(op.namespace)
            return _Get(entity, ns, _check_key(op.key), bool(op.refresh_ttl))
        if isinstance(op, PutOp):
            return self._plan_put(op)
        if isinstance(op, SearchOp):
            entity, ns = self.template.resolve_prefix(op.namespace_prefix)
            where = {**self._scope, **(self._where(op.filter) or {})}
            query = op.query
            if query is not None and not isinstance(query, str):
                raise TypeError(f"query must be a str or None, got {type(query).__name__}")
            return _Search(entity, ns, query if query and query.strip() else None, where,
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

    def _plan_put(self, op: PutOp) -> _Put | _Delete:
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
            return _Delete(entity, key)
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
        index = op.index
        if index is False:
            fields: tuple[str, ...] | None = None
        elif index is None:
            fields = self.fields
        else:
            fields = self._check_fields(index, "index")
        ttl = self._check_ttl(op.ttl)
        now = datetime.now(timezone.utc)
        expires = (now + timedelta(minutes=ttl)).isoformat() if ttl is not None else None
        # Without text at its indexed fields (missing, None, blank), an item is stored whole and unsearched, as
        # index=False stores it: LangGraph's own stores embed nothing for it either.
        text = item_text(value, fields) if index is not False else None
        searchable = text is not None
        if text is None:
            text = _whole_text(value)
        metadata = item_metadata(value, now, ttl, text, key=key, namespace=self.template.kind)
        if not searchable:  # kept out of search: store.search lists it unscored, engine.recall never returns it
            metadata[SEARCHABLE_KEY] = False
        return _Put(entity, key, text, metadata, now.isoformat(), expires)

    def _plan_list(self, op: ListNamespacesOp) -> _ListNamespaces:
        labels = self.template.labels
        slots = self.template.slots
        n = len(labels)
        want: dict[int, str] = {}
        possible = True
        for cond in op.match_conditions or ():
            path = _as_namespace_pattern(cond.path)
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
            return _ListNamespaces(None, (), max_depth, limit, offset)
        open_slots = [labels[i] for i in slots if i not in want]
        if open_slots:
            raise InvalidNamespaceError(
                f"listing namespaces across users is not supported ({', '.join(open_slots)} not given): the store "
                f"reads one user's memory per call; pass a prefix or suffix that names the user")
        entity, ns = self.template.resolve(tuple(want.get(i, label) for i, label in enumerate(labels)))
        return _ListNamespaces(entity, ns, max_depth, limit, offset)

    # -- running: batch (sync) and abatch (async) drive the same operations ------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ``ops`` in order (each sees the writes of those before it), after checking them all."""
        plans = [self._plan(op) for op in ops]
        return [self._drive(self._operation(plan)) for plan in plans]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ``ops`` in order over the engine's async methods; consecutive reads run together."""
        plans = [self._plan(op) for op in ops]
        results: list[Result] = [None] * len(plans)
        i = 0
        while i < len(plans):
            if isinstance(plans[i], (_Put, _Delete)):
                results[i] = await self._adrive(self._operation(plans[i]))
                i += 1
                continue
            j = i
            while j < len(plans) and not isinstance(plans[j], (_Put, _Delete)):
                j += 1
            results[i:j] = await asyncio.gather(*(self._adrive(self._operation(p)) for p in plans[i:j]))
            i = j
        return results

    @staticmethod
    def _drive(operation: _Program[T]) -> T:
        """Run an operation's engine calls with the engine's blocking methods."""
        reply: Any = None
        error: KeyError | None = None
        while True:
            try:
                call = operation.send(reply) if error is None else operation.throw(error)
            except StopIteration as stop:
                return stop.value  # type: ignore[no-any-return]
            reply, error = None, None
            try:
                reply = getattr(call.target, call.name)(*call.args, **call.kwargs)
            except KeyError as exc:  # a fact deleted meanwhile: the operation decides
                error = exc

    @staticmethod
    async def _adrive(operation: _Program[T]) -> T:
        """Run an operation's engine calls with the engine's async methods."""
        reply: Any = None
        error: KeyError | None = None
        while True:
            try:
                call = operation.send(reply) if error is None else operation.throw(error)
            except StopIteration as stop:
                return stop.value  # type: ignore[no-any-return]
            reply, error = None, None
            try:
                reply = await getattr(call.target, "a" + call.name)(*call.args, **call.kwargs)
            except KeyError as exc:
                error = exc

    def _call(self, name: str, *args: Any, **kwargs: Any) -> _Call:
        return _Call(self.engine, name, args, kwargs)

    def _operation(self, plan: _Plan) -> _Program[Result]:
        if isinstance(plan, _Get):
            return self._get(plan)
        if isinstance(plan, _Put):
            return self._put(plan)
        if isinstance(plan, _Delete):
            return self._delete(plan)
        if isinstance(plan, _Search):
            return self._search(plan)
        return self._list_namespaces(plan)

    # -- which fact a key names ---------------------------------------------------------------------------

    def _visible(self, metadata: Mapping[str, Any]) -> bool:
        """Whether a fact is read by this store: an item of its namespace, or a fact of none (``engine.add``,
        capture, a store before namespaces were recorded)."""
        kind = metadata.get(NAMESPACE_KEY)
        return kind is None or kind == self.template.kind

    def _key_of(self, fact: Any) -> str:
        """The key of the item a fact holds: the one its put recorded, else the fact's id."""
        layout = _layout(fact.metadata)
        key = layout.get("key") if layout is not None else None
        return key if isinstance(key, str) else fact.id

    def _secondary(self, key: str) -> str:
        """The fact id of this namespace's item ``key`` when the fact with id ``key`` is another namespace's item."""
        return f"{self.template.kind}:{key}"

    def _pick(self, found: Sequence[StoredFact], key: str) -> tuple[StoredFact | None, str]:
        """Of the facts with ids ``key`` and :meth:`_secondary`, the one that is this namespace's item ``key``
        (``None``: there is none), and the id a new value of the key takes."""
        by_id = {f.id: f for f in found}
        secondary = self._secondary(key)
        if secondary in by_id:
            return by_id[secondary], secondary
        primary = by_id.get(key)
        if primary is None:
            return None, key
        if self._visible(primary.metadata):
            return primary, key
        return None, secondary

    def _follows(self, fact: StoredFact, key: str) -> bool:
        """Whether key ``key`` may read ``fact``, a newer fact that superseded the one it names: one of no
        namespace, or this namespace's item of that key (a put over the newer fact made it so)."""
        return self._visible(fact.metadata) and (_layout(fact.metadata) is None or self._key_of(fact) == key)

    def _resolve(self, entity: str, key: str) -> _Program[tuple[StoredFact | None, StoredFact | None, list[str], str]]:
        """What item ``key`` is: (the fact stored under the key; the fact it reads now, that one while it is valid,
        else the newest fact of its supersede chain, ``None`` when the chain ends in nothing the key may read; the
        chain's ids; the id a new value of the key takes)."""
        found = yield self._call("get", entity, [key, self._secondary(key)])
        fact, fid = self._pick(found, key)
        if fact is None:
            return None, None, [], fid
        chain = [fact.id]
        current = fact
        while not current.is_valid():
            newer = current.superseded_by
            if (not newer or newer in chain or len(chain) > _MAX_CHAIN
                    or version_of(current.id) == newer):  # an earlier text kept as history, not a supersede
                return fact, None, chain, fid
            got = yield self._call("get", entity, [newer])
            if not got or not self._follows(got[0], key):
                return fact, None, chain, fid
            current = got[0]
            chain.append(current.id)
        return fact, current, chain, fid

    def _parts(self, base: Any, head: Any) -> tuple[dict[str, Any], datetime, datetime, float | None]:
        """An item's (value, created, updated, TTL in minutes): ``base`` is the fact its key names, ``head`` the
        fact it reads (``base`` itself, or the newest fact of its supersede chain)."""
        created = _time(base.created_at)
        written = max(created, _time(_updated_at(head) or head.created_at))
        own = _layout(head.metadata)
        if own is not None:
            value = _copy_json(own["value"])
            updated = _time(own.get("updated_at") or head.created_at)
            digest = own.get("text")
            if digest not in (None, _text_digest(head.content)):
                value, updated = _edited(value, head.content, digest), written
            return value, created, updated, _ttl_of(own)
        put = _layout(base.metadata) if base is not head else None
        if put is not None:
            return _edited(_copy_json(put["value"]), head.content, put.get("text")), created, written, None
        return _with_text({}, self._text_field, head.content), created, written, None

    # -- the operations -----------------------------------------------------------------------------------

    def _get(self, plan: _Get) -> _Program[Item | None]:
        base, head, _, _ = yield from self._resolve(plan.entity, plan.key)
        now = datetime.now(timezone.utc)
        if base is None or head is None or _expired(head.expires_at, now):
            return None
        value, created, updated, ttl = self._parts(base, head)
        if plan.refresh and ttl is not None and _due(head, ttl, now):
            try:
                yield self._call("update", plan.entity, head.id, expires_at=timedelta(minutes=ttl))
            except KeyError:
                pass  # deleted meanwhile
        return Item(value=value, key=plan.key, namespace=plan.namespace, created_at=created, updated_at=updated)

    def _put(self, plan: _Put) -> _Program[None]:
        _, head, _, fid = yield from self._resolve(plan.entity, plan.key)
        if head is not None and not _expired(head.expires_at, datetime.now(timezone.utc)):
            try:
                yield self._call("update", plan.entity, head.id, **self._edit(plan, head))
                return None
            except KeyError:
                pass  # deleted meanwhile: stored anew
        yield self._call("add", plan.entity, [plan.text], ids=[fid], created_at=plan.now, metadata=plan.metadata,
                         expires_at=plan.expires_at)
        return None

    @staticmethod
    def _edit(plan: _Put, fact: StoredFact) -> dict[str, Any]:
        """``engine.update``'s arguments for a put over ``fact``: the put's text (``None`` when it is the fact's:
        nothing re-embedded); the fact's metadata with the put's own keys replaced, so what the put does not say
        stays (``core``, capture's keys, the app's ``engine.add`` metadata); and its expiry: the put's ``ttl``,
        else none when an earlier put gave the fact its TTL, else the one it has (set outside the store)."""
        metadata = {k: v for k, v in fact.metadata.items() if k not in _OWN_KEYS}
        metadata.update(plan.metadata)
        edit: dict[str, Any] = {"text": None if fact.content == plan.text else plan.text, "metadata": metadata}
        if plan.expires_at is not None or _ttl_of(_layout(fact.metadata)) is not None:
            edit["expires_at"] = plan.expires_at
        return edit

    def _delete(self, plan: _Delete) -> _Program[None]:
        base, _, chain, _ = yield from self._resolve(plan.entity, plan.key)
        if base is not None:  # the item and the newer facts its key reads: gone from every read
            yield self._call("delete", plan.entity, chain)
        return None

    def _search(self, plan: _Search) -> _Program[list[SearchItem]]:
        if plan.limit == 0:
            return []
        found: list[tuple[Any, float | None]] = []
        listed: _Search | None = plan  # without a query, the listing is the search
        if plan.query is not None:
            # A page is a slice of one recall of offset + limit (module docstring); core facts recall appends
            # after the ranked ones may fill it.
            ranker: Any = self._ranker()
            if self.timeout is not None:
                ranker = _Bounded(ranker, self.timeout)
            hits = yield _Call(ranker, "recall", (plan.query, plan.entity, plan.offset + plan.limit),
                               {"where": plan.where})
            page = hits[plan.offset : plan.offset + plan.limit]
            found = [(h, float(h.rank_score)) for h in page]
            listed = _unscored_plan(plan, len(hits), len(page))
        if listed is not None:
            listing = _Listing(listed)
            while True:
                facts = yield self._call("list", listed.entity, limit=listing.size, offset=listing.start,
                                         where=listed.where, newest_first=False)
                if listing.take(facts):
                    break
            found += [(f, None) for f in listing.facts]
        bases = yield from self._bases(plan.entity, [f for f, _ in found])
        items = []
        for fact, score in found:
            base = bases.get(fact.id, fact)
            value, created, updated, _ = self._parts(base, fact)
            items.append(SearchItem(plan.namespace, self._key_of(base), value, created, updated, score=score))
        return items

    def _bases(self, entity: str, facts: Sequence[Any]) -> _Program[dict[str, StoredFact]]:
        """For each of ``facts`` written without the store that superseded an item this store reads (capture's "User
        lives in Porto." over the item ``city``), that item: a search shows the newer fact under its key, as a
        get of the key reads it. Supersede chains are walked back one batched read per step."""
        loose = [f for f in facts if _layout(f.metadata) is None]
        older = {f.id: f.supersedes for f in loose if isinstance(f, StoredFact)}
        recalled = [f.id for f in loose if not isinstance(f, StoredFact)]  # a recalled fact omits its supersedes
        if recalled:
            older.update({f.id: f.supersedes for f in (yield self._call("get", entity, recalled))})
        # origin -> the (older, newer) links to follow next: older must be superseded by newer
        walk = {origin: [(o, origin) for o in ids] for origin, ids in older.items() if ids}
        read: dict[str, StoredFact] = {}
        out: dict[str, StoredFact] = {}
        for _ in range(_MAX_CHAIN):
            unread = list(dict.fromkeys(o for links in walk.values() for o, _ in links if o not in read))
            if unread:
                read.update({f.id: f for f in (yield self._call("get", entity, unread))})
            nxt: dict[str, list[tuple[str, str]]] = {}
            for origin, links in walk.items():
                for older_id, newer_id in links:
                    f = read.get(older_id)
                    if f is None or f.superseded_by != newer_id or not self._visible(f.metadata):
                        continue
                    if _layout(f.metadata) is not None:
                        out[origin] = f
                        break
                    nxt.setdefault(origin, []).extend((o, f.id) for o in f.supersedes)
            walk = {origin: links for origin, links in nxt.items() if origin not in out}
            if not walk:
                break
        return out

    def _list_namespaces(self, plan: _ListNamespaces) -> _Program[list[tuple[str, ...]]]:
        if plan.entity is None or plan.limit == 0:
            return []
        if not (yield self._call("list", plan.entity, limit=1, where=self._scope)):
            return []
        ns = plan.namespace[: plan.max_depth] if plan.max_depth is not None else plan.namespace
        return [ns][plan.offset : plan.offset + plan.limit]

    def _ranker(self) -> RecallEngine:
        """The engine that ranks a search: the store's own, or with ``gate=False`` its ungated twin.

        The twin is a shallow copy of the engine with ``gate="off"`` in its config: it shares the store, the
        embedder, the caches and their locks (so it reads exactly the facts the engine holds, kept fresh by the
        same writes) and answers as ``RecallEngine(config=replace(config, gate="off"))`` would. It is made
        again when the engine's config is replaced, and after the embedder is loaded, so that both use one."""
        engine = self.engine
        if self.gate or engine.config.gate == "off":
            return engine
        twin = self._ungated
        if twin is None or twin[0] is not engine.config:
            base = engine.config
            engine.embedder  # noqa: B018 - loaded (if it was not) before the copy, which then shares it
            copy = _copy.copy(engine)
            copy.config = replace(base, gate="off")
            twin = self._ungated = (base, copy)
        return twin[1]


def _unscored_plan(plan: _Search, n_hits: int, n_page: int) -> _Search | None:
    """The listing that ends a search page with a query once the ranked items run out: the items put with
    ``index=False`` (never ranked: recall leaves them out) that match the filter, oldest first, unscored, as
    LangGraph's ``InMemoryStore`` returns them after its scored items. The page is a slice of the ranked items
    (``n_hits`` of them, ``n_page`` on this page) followed by these, so no page repeats one. ``None``: the
    ranked items fill the page."""
    room = plan.limit - n_page
    if room <= 0 or n_hits >= plan.offset + plan.limit:
        return None
    where = {**plan.where, SEARCHABLE_KEY: False}
    return replace(plan, query=None, where=where, offset=max(0, plan.offset - n_hits), limit=room)


class _Listing:
    """The facts of a search without a query, page by page: oldest first (LangGraph's order of insertion),
    expired ones left out, ``offset`` skipped."""

    def __init__(self, plan: _Search) -> None:
        self.plan = plan
        self.facts: list[StoredFact] = []
        self.now = datetime.now(timezone.utc)
        self.skip = plan.offset
        self.size = plan.offset + plan.limit  # the page engine.list builds facts for; more only past expired ones
        self.start = 0

    def take(self, page: Sequence[StoredFact]) -> bool:
        """Read one page (the next ``size`` facts from ``start``); ``True`` when the listing is complete."""
        for f in page:
            if _expired(f.expires_at, self.now):
                continue
            if self.skip:
                self.skip -= 1
                continue
            self.facts.append(f)
            if len(self.facts) == self.plan.limit:
                return True
        self.start += self.size
        return len(page) < self.size


def _lists_as_eq(value: Any) -> Any:
    """LangGraph's bare list in a filter (an equal list) as the engine's ``{"$eq": [...]}``; keys unchanged."""
    if isinstance(value, (list, tuple)):
        return {"$eq": list(value)}
    if isinstance(value, dict) and not any(isinstance(k, str) and k.startswith("$") for k in value):
        return {k: _lists_as_eq(v) for k, v in value.items()}
    return value


def _as_namespace_pattern(path: Any) -> tuple[str, ...]:
    if isinstance(path, str) or not isinstance(path, (tuple, list)):
        raise InvalidNamespaceError(f"a namespace pattern must be a tuple of labels, got {path!r}")
    return tuple(label if label == "*" else _check_label(label, path) for label in path)
