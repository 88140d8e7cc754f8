"""How a :class:`~memori_langchain.MemoriStore` item lives in a fact: its text, the store's metadata that carries
its value, the value read back after its text was edited or superseded, its times and TTL (module docstring of
:mod:`memori_langchain.store`: items are facts)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

from langgraph.store.base import get_text_at_path, tokenize_path

from memori_core.facts import SEARCHABLE_KEY, StoredFact
from memori_core.metadata_keys import STORE_ITEM_KEY, STORE_NAMESPACE_KEY
from memori_core.validate import parse_utc

ITEM_KEY = STORE_ITEM_KEY
"""The metadata key of a fact written by :class:`MemoriStore`: ``{"value": ..., "updated_at": ..., "ttl": ...}``
(:data:`memori_core.metadata_keys.STORE_ITEM_KEY`, which every adapter hides from the model)."""

NAMESPACE_KEY = STORE_NAMESPACE_KEY
"""The metadata key under which :class:`MemoriStore` records the namespace of the item a fact holds (its
:attr:`NamespaceTemplate.kind`, ``"memories.*"``; :data:`memori_core.metadata_keys.STORE_NAMESPACE_KEY`). A fact
without it (``engine.add``, capture, an item a store wrote before it recorded namespaces) is read by every store
over its user."""

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)

OWN_KEYS = (ITEM_KEY, NAMESPACE_KEY, SEARCHABLE_KEY)
"""The metadata keys a put writes for itself (the item, its namespace, whether search reads it). A put over an
existing fact replaces these and keeps every other key: ``core``, capture's ``source`` / ``thread_id`` ..., the
app's own ``engine.add`` metadata."""


def _has_text(value: Any) -> bool:
    """Whether a JSON value holds anything to index: a non-blank str, a number or a bool, at any depth."""
    if isinstance(value, str):
        return bool(value.strip())
    if isinstance(value, dict):
        return any(_has_text(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_text(v) for v in value)
    return value is not None


def whole_text(value: Mapping[str, Any]) -> str:
    """The text of a whole value: its one str field alone (``{"content": "..."}``), else its JSON."""
    if len(value) == 1:
        (only,) = value.values()
        if isinstance(only, str) and only.strip():
            return only
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def copy_json(value: Any) -> Any:
    """A copy of a JSON value (its dicts and lists new), so that a caller may change it."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value


def stored_time(value: str | None) -> datetime:
    """A stored time (the engine writes UTC ISO 8601 with its offset) as an aware datetime."""
    if not value:
        return _EPOCH
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:  # another spelling ("Z" before Python 3.11): the engine's own parser
        return parse_utc(value)
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=timezone.utc)


def expired(expires_at: str | None, now: datetime) -> bool:
    """Whether a fact with this expiry (``None``: none) has expired at ``now``."""
    return bool(expires_at) and stored_time(expires_at) <= now


def item_text(value: dict[str, Any], fields: Sequence[str] | None) -> str | None:
    """The text of the fact that holds ``value``: the texts at ``fields`` (LangGraph's paths; ``None``: the whole
    value, ``"$"``) joined by newlines; ``None`` when they hold none (each field missing, ``None`` or blank; a
    whole value with no text in it), as LangGraph's own stores then embed nothing. The whole value is its one str
    field when it has just one (``{"content": "..."}``), else its JSON (``sort_keys``, as LangGraph embeds it)."""
    texts: list[str] = []
    for path in fields or ("$",):
        if path == "$":
            if _has_text(value):
                texts.append(whole_text(value))
        else:
            texts.extend(get_text_at_path(value, tokenize_path(path)))
    return "\n".join(t.strip() for t in texts if t and t.strip()) or None


def text_digest(text: str) -> str:
    """A short digest of a fact's text, kept with the item to tell later whether the text changed."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def _text_path(value: Any, digest: str | None) -> tuple[str, ...] | None:
    """The path of the str field of ``value`` whose text (stripped, as the fact's text is) has ``digest``: the
    field an item's text came from (nested objects are searched, lists are not)."""
    if digest is None or not isinstance(value, dict):
        return None
    for k, v in value.items():
        if isinstance(v, str) and text_digest(v.strip()) == digest:
            return (k,)
        sub = _text_path(v, digest)
        if sub is not None:
            return (k, *sub)
    return None


def with_text(value: dict[str, Any], path: Sequence[str], text: str) -> dict[str, Any]:
    """A copy of ``value`` with ``text`` at ``path`` (objects on the way made when missing)."""
    out = copy_json(value)
    node = out
    for k in path[:-1]:
        node = node.setdefault(k, {})
    node[path[-1]] = text
    return out


def edited_value(value: dict[str, Any], text: str, digest: str | None) -> dict[str, Any]:
    """The value of an item whose fact now says ``text``, though it was put saying the text of ``digest``: its
    text was edited outside the store (``engine.update``, the agent's ``update_memory`` tool, MCP ``update``), or
    its key now reads the newer fact that superseded it (capture's "User lives in Porto." over the item's "User
    lives in Lisbon."). The field the old text came from holds the new one and the value's other fields stay; a
    value whose text was several fields or its JSON, which the new text no longer matches, is
    ``{"content": text}``."""
    path = _text_path(value, digest)
    return with_text(value, path, text) if path is not None else {"content": text}


def item_layout(metadata: Mapping[str, Any]) -> dict[str, Any] | None:
    """The store item a fact's metadata holds (:data:`ITEM_KEY`), or ``None`` for a fact written without a store."""
    layout = metadata.get(ITEM_KEY)
    return layout if isinstance(layout, dict) and isinstance(layout.get("value"), dict) else None


def ttl_of(layout: Mapping[str, Any] | None) -> float | None:
    """The TTL (minutes) the put of an item gave it, or ``None``."""
    ttl = layout.get("ttl") if layout is not None else None
    return ttl if isinstance(ttl, (int, float)) and not isinstance(ttl, bool) else None


def updated_at_of(fact: Any) -> str | None:
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
        layout["text"] = text_digest(text)
    if ttl is not None:
        layout["ttl"] = ttl
    if key is not None:
        layout["key"] = key
    metadata: dict[str, Any] = {ITEM_KEY: layout}
    if namespace is not None:
        metadata[NAMESPACE_KEY] = namespace
    return metadata


REFRESH_AFTER = 0.1
"""A get starts an item's TTL again only once this share of it has passed since it was last started: a refresh is
a write (and makes every other process holding the user reload it), so ten gets in a row cost one write, not ten.
The item may then expire up to this share of its TTL earlier than after a refresh on every read."""


def due_for_refresh(fact: StoredFact, ttl: float, now: datetime) -> bool:
    """Whether a get should start the TTL (minutes) of ``fact`` again now (:data:`REFRESH_AFTER`)."""
    return fact.expires_at is None or stored_time(fact.expires_at) - now < timedelta(minutes=ttl * (1 - REFRESH_AFTER))
