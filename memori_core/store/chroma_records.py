"""How a fact is laid out in a Chroma row: its id, its metadata record, and reading a row back.

Chroma filters on ``ENTITY`` and on ``TEXT_KEY`` (the entity and the id the fact's text derives,
:func:`~memori_core.text.text_fact_id`, as one value: how an add finds a fact an update gave that text, whatever
its id); everything else the store keeps about a
fact travels as one JSON object under ``FACT_KEY`` (written by :func:`pack`,
read by :func:`read_row`): the fact's id, text, sightings, order, session,
times and expiry, its validity and history links
(:data:`~memori_core.facts.VALIDITY_FIELDS`, by name; absent when unset), and the
user's ``metadata``. The text sits in the record
rather than in the Chroma document because a document also feeds Chroma's
full-text index, which the engine never queries and which costs more than
every other part of a write (10k facts: 4.8 s with documents, 2.3 s without;
benchmarks/bench_writes.py). A text longer than ``INLINE_TEXT_BYTES`` is kept
as the document instead, so the record stays small (Chroma Cloud bounds a
metadata value at 4 KiB). Rows older versions wrote, one metadata key per
field, are read by :mod:`.chroma_old_layout`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..facts import StoredFact, record_validity_json, validity_record
from ..text import text_fact_id
from .chroma_old_layout import old_row_fields
from .rows import fact_of_row

ENTITY, FACT_KEY, TEXT_KEY = "entity_id", "memori_fact", "memori_text"
INLINE_TEXT_BYTES = 2048

_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode  # one encoder for every row


def chroma_id(entity_id: str, fact_id: str) -> str:
    """The Chroma id of an entity's fact (or revision record): length-prefixed, so that no (entity, fact)
    pair can spell another's id."""
    return f"{len(entity_id)}:{entity_id}:{fact_id}"


def inline(text: str) -> bool:
    """Whether ``text`` travels in the record (else it is the row's document)."""
    return len(text) * 4 <= INLINE_TEXT_BYTES or len(text.encode("utf-8")) <= INLINE_TEXT_BYTES


def text_key(entity_id: str, text_id: str) -> str:
    """The ``TEXT_KEY`` value of ``entity_id``'s facts whose text derives ``text_id``."""
    return chroma_id(entity_id, text_id)


def pack(fact: StoredFact) -> dict[str, Any]:
    """A fact's Chroma metadata: its entity and its text's key (filtered on), and the rest as one JSON object."""
    rec: dict[str, Any] = {"id": fact.id, "times_seen": int(fact.times_seen), "seq": int(fact.seq)}
    if inline(fact.content):
        rec["text"] = fact.content
    for name in ("session_id", "created_at", "last_seen", "updated_at", "expires_at"):
        value = getattr(fact, name)
        if value:
            rec[name] = value
    if fact.metadata:
        rec["metadata"] = fact.metadata
    rec.update(validity_record(fact))
    return {ENTITY: fact.entity_id, TEXT_KEY: text_key(fact.entity_id, text_fact_id(fact.content)),
            FACT_KEY: _ENCODE(rec)}


@dataclass(slots=True)
class Row:
    """A fact's fields as read from its Chroma row (either layout); ``text`` is ``None`` for a row without one,
    and ``metadata_json`` is the user metadata as JSON text (``""`` for none)."""

    id: str
    text: str | None
    times_seen: int
    seq: int
    session_id: str | None
    created_at: str | None
    last_seen: str | None
    updated_at: str | None
    expires_at: str | None
    metadata_json: str
    validity_json: str | None = None

    def fact(self, entity_id: str) -> StoredFact:
        """This row as a :class:`StoredFact` of ``entity_id`` (call only for a row with a text)."""
        assert self.text is not None
        return fact_of_row(entity_id, self.text, self)


def read_row(meta: dict[str, Any], document: str | None) -> Row:
    """The fields of a row from its Chroma metadata and document."""
    packed = meta.get(FACT_KEY)
    if packed is None:
        return Row(**old_row_fields(meta, document))
    rec = json.loads(packed)
    user = rec.get("metadata")
    return Row(
        id=str(rec["id"]),
        text=rec.get("text", document),
        times_seen=int(rec.get("times_seen", 1)),
        seq=int(rec.get("seq", 0)),
        session_id=rec.get("session_id") or None,
        created_at=rec.get("created_at"),
        last_seen=rec.get("last_seen"),
        updated_at=rec.get("updated_at") or None,
        expires_at=rec.get("expires_at") or None,
        metadata_json=json.dumps(user, sort_keys=True, ensure_ascii=False) if user else "",
        validity_json=record_validity_json(rec),
    )


def read_fact(entity_id: str, document: str | None, meta: dict[str, Any] | None) -> StoredFact | None:
    """The fact a row holds for ``entity_id``; ``None`` for a row of another entity or without a text."""
    if meta is None or meta.get(ENTITY) != entity_id:
        return None  # belt and braces: the id or the where filter already excludes these
    row = read_row(meta, document)
    return row.fact(entity_id) if row.text is not None else None
