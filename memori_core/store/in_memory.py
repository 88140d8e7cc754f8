"""The reference store: the whole :class:`~memori_core.store.base.FactStore` protocol in plain Python and numpy.

It answers as ``ChromaStore.in_memory()`` does (same round trip of facts and
metadata, same row order, same revision rules, same partial-write reports)
without Chroma, so it is both the readable model of the protocol and a fast
store for tests. Nothing leaves the process and nothing is written to disk.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..facts import StoredFact, validity_json
from ..text import text_fact_id
from .base import (
    CloseCallbacks,
    ClosesWithCallbacks,
    FactStore,
    settle_failed_delete,
    settle_failed_write,
    when_open,
)
from .keyed_locks import KeyedLocks
from .rows import EntityColumns, EntityRows, fact_of_row

__all__ = ["InMemoryFactStore"]

logger = logging.getLogger(__name__)

DEFAULT_BATCH = 5461
"""Facts per batch of a write (what an older Chroma server accepts; only progress reports and faults see it)."""


@dataclass(frozen=True, slots=True)
class _Record:
    """One stored fact as it reads back: empty strings as ``None``, user metadata as sorted JSON text."""

    id: str
    content: str
    created_at: str | None
    last_seen: str | None
    times_seen: int
    session_id: str | None
    seq: int
    updated_at: str | None
    expires_at: str | None
    metadata_json: str  # "" for none
    validity_json: str | None = None  # validity and history links (None: valid, no links)
    text_id: str = ""  # the id the text derives (text_fact_id), which holding_texts looks up

    @classmethod
    def of(cls, entity_id: str, fact: StoredFact) -> _Record:
        if fact.entity_id != entity_id:
            raise ValueError(f"fact {fact.id!r} of entity {fact.entity_id!r} in a write of entity {entity_id!r}")
        return cls(
            id=fact.id,
            content=fact.content,
            created_at=fact.created_at or None,
            last_seen=fact.last_seen or None,
            times_seen=int(fact.times_seen),
            session_id=fact.session_id or None,
            seq=int(fact.seq),
            updated_at=fact.updated_at or None,
            expires_at=fact.expires_at or None,
            metadata_json=_json_form(fact.metadata) if fact.metadata else "",
            validity_json=validity_json(fact),
            text_id=text_fact_id(fact.content),
        )

    def fact(self, entity_id: str) -> StoredFact:
        return fact_of_row(entity_id, self.content, self)


class InMemoryFactStore(ClosesWithCallbacks, FactStore):
    """Facts, vectors and revision tokens of every entity, in this object's memory.

    Each store is separate and empty when made, like ``ChromaStore.in_memory()``.
    Only this process writes to it (``shared`` is False), it offers no cache
    folder and ``close()`` only runs the :meth:`on_close` callbacks (then refuses every call, as any store).

    >>> from memori_core import RecallEngine
    >>> engine = RecallEngine(store=InMemoryFactStore(), embedder=my_embed_fn)  # doctest: +SKIP

    Writes go in batches of ``max_batch_size`` facts, each batch preceded by a
    call to :meth:`before_batch`. To see how code copes with a store that fails
    part-way, subclass it and raise from :meth:`before_batch`: that batch does
    not land, and the write reports what did (:class:`PartialWriteError`,
    :class:`PartialDeleteError`) as the protocol says.
    """

    def __init__(self, *, max_batch_size: int = DEFAULT_BATCH) -> None:
        self.shared = False
        self.request_timeout: float | None = None
        self.cache_folder = None
        self.max_batch_size = max_batch_size
        self._lock = threading.Lock()  # a leaf: guards the maps below, held only to read or change them
        # entity -> fact id -> (record, float32 vector); dicts keep write order, a replaced id its place
        self._entities: dict[str, dict[str, tuple[_Record, np.ndarray]]] = {}
        self._dimension: int | None = None
        self._tokens: dict[str, str] = {}
        self._forgotten: dict[str, float] = {}  # entity -> when it was last forgotten
        self._write_locks = KeyedLocks()
        self._closing = CloseCallbacks()

    def __repr__(self) -> str:
        with self._lock:
            facts = [len(rows) for rows in self._entities.values() if rows]
        return f"InMemoryFactStore({sum(facts)} facts of {len(facts)} entities)"

    def before_batch(self, op: str, entity_id: str, ids: Sequence[str]) -> None:
        """Called before each batch of a write lands (``op``: ``"upsert"``, ``"update_seen"`` or ``"delete"``);
        does nothing. Raise from it in a subclass to make that batch fail."""

    # -- reads ------------------------------------------------------------------

    @when_open
    def load_entity(self, entity_id: str) -> EntityRows:
        """Every row of ``entity_id`` in write order, with its vector (one float32 block)."""
        with self._lock:
            rows = list(self._entities.get(entity_id, {}).values())
        cols = EntityColumns.empty()
        for record, _ in rows:
            cols.add_row(record, record.content)
        cols.embeddings = [np.stack([v for _, v in rows])] if rows else []
        return EntityRows(entity_id=entity_id, columns=cols)

    @when_open
    def get(self, entity_id: str, ids: Sequence[str]) -> list[StoredFact]:
        """The stored facts of ``entity_id`` among ``ids``, in the order asked."""
        _distinct(ids)
        with self._lock:
            stored = self._entities.get(entity_id, {})
            records = [stored[i][0] for i in ids if i in stored]
        return [r.fact(entity_id) for r in records]

    @when_open
    def present(self, entity_id: str, ids: Sequence[str]) -> list[str]:
        """Those of ``ids`` that ``entity_id`` has stored, in the order given, each once."""
        with self._lock:
            stored = self._entities.get(entity_id, {})
            return [i for i in dict.fromkeys(ids) if i in stored]

    @when_open
    def holding_texts(self, entity_id: str, text_ids: Sequence[str]) -> list[StoredFact]:
        """The stored facts of ``entity_id`` whose text derives one of ``text_ids``, in write order."""
        wanted = set(text_ids)
        with self._lock:
            records = [r for r, _ in self._entities.get(entity_id, {}).values() if r.text_id in wanted]
        return [r.fact(entity_id) for r in records]

    @when_open
    def count(self, entity_id: str) -> int:
        """How many facts ``entity_id`` has stored."""
        with self._lock:
            return len(self._entities.get(entity_id, {}))

    @when_open
    def entity_ids(self) -> list[str]:
        """Every entity with at least one stored fact, sorted."""
        with self._lock:
            return sorted(entity for entity, facts in self._entities.items() if facts)

    @when_open
    def dimension(self) -> int | None:
        """The dimension of the first vector ever stored (kept after every row is deleted)."""
        with self._lock:
            return self._dimension

    # -- writes -----------------------------------------------------------------

    def _write_rows(self, entity_id: str, facts: Sequence[StoredFact], embeddings: np.ndarray,
                    progress: Callable[[int], None] | None) -> None:
        """:meth:`~memori_core.store.base.RowStore.upsert`'s writing (the store open, the counts checked):
        ``facts`` with their vectors; ``progress(stored_so_far)`` after each batch.

        Every batch is tried; when one fails, what the store holds is read back
        (see :class:`~memori_core.store.base.RowStore`).
        """
        if not facts:
            return
        vectors = np.array(embeddings, dtype=np.float32)  # a copy: the caller's array stays the caller's
        if vectors.ndim != 2:
            raise ValueError(f"embeddings must be one row per fact, got shape {vectors.shape}")
        _distinct(f.id for f in facts)
        records = [_Record.of(entity_id, f) for f in facts]
        with self._lock:
            if self._dimension is not None and vectors.shape[1] != self._dimension:
                raise ValueError(f"the store holds {self._dimension}-d vectors, got {vectors.shape[1]}-d ones")
        stored = 0
        failure: BaseException | None = None
        for start in range(0, len(records), self.max_batch_size):
            batch = records[start : start + self.max_batch_size]
            try:
                self.before_batch("upsert", entity_id, [r.id for r in batch])
            except Exception as exc:  # noqa: BLE001 - the other batches are still written, then reported below
                failure = failure or exc
                continue
            with self._lock:
                if self._dimension is None:
                    self._dimension = int(vectors.shape[1])
                entity = self._entities.setdefault(entity_id, {})
                for i, record in enumerate(batch, start):
                    entity[record.id] = (record, vectors[i])
            stored += len(batch)
            if progress is not None:
                progress(stored)
        if failure is not None:
            self._report_write(entity_id, records, failure)

    @when_open
    def update_seen(self, entity_id: str, facts: Sequence[StoredFact]) -> None:
        """Rewrite stored facts' fields, keeping their vectors (facts not stored are left out). Stops at the
        first failed batch and reports what the store holds."""
        _distinct(f.id for f in facts)
        records = [_Record.of(entity_id, f) for f in facts]
        for start in range(0, len(records), self.max_batch_size):
            batch = records[start : start + self.max_batch_size]
            try:
                self.before_batch("update_seen", entity_id, [r.id for r in batch])
            except Exception as exc:  # noqa: BLE001 - reported with what the store holds
                self._report_write(entity_id, records, exc)
                return
            with self._lock:
                entity = self._entities.get(entity_id, {})
                for record in batch:
                    if record.id in entity:
                        entity[record.id] = (record, entity[record.id][1])

    @when_open
    def delete(self, entity_id: str, ids: Sequence[str]) -> None:
        """Delete facts of ``entity_id`` by id (unknown ids are ignored). Stops at the first failed batch and
        reports what is gone."""
        _distinct(ids)
        for start in range(0, len(ids), self.max_batch_size):
            batch = list(ids[start : start + self.max_batch_size])
            try:
                self.before_batch("delete", entity_id, batch)
            except Exception as exc:  # noqa: BLE001 - reported with what is gone
                self._report_delete(entity_id, ids, exc)
                return
            with self._lock:
                entity = self._entities.get(entity_id, {})
                for fact_id in batch:
                    entity.pop(fact_id, None)

    @when_open
    def forget(self, entity_id: str) -> None:
        """Delete every fact of ``entity_id`` and nothing else, and record when (:meth:`forgotten_at`)."""
        with self._lock:
            self._forgotten[entity_id] = time.time()
            self._entities.pop(entity_id, None)

    @when_open
    def forgotten_at(self, entity_id: str) -> float | None:
        """When ``entity_id`` was last forgotten (``time.time()``); ``None`` when never."""
        with self._lock:
            return self._forgotten.get(entity_id)

    def _report_write(self, entity_id: str, records: list[_Record], error: BaseException) -> None:
        """After a failed write: return when every fact is stored as written, raise ``error`` when none is,
        else :class:`PartialWriteError` naming both parts."""
        with self._lock:
            entity = self._entities.get(entity_id, {})
            held = [r.id in entity and entity[r.id][0] == r for r in records]
        settle_failed_write(logger, entity_id, [r.id for r in records], held, error)

    def _report_delete(self, entity_id: str, ids: Sequence[str], error: BaseException) -> None:
        """After a failed delete: return when every fact is gone, raise ``error`` when none is, else
        :class:`PartialDeleteError` naming both parts."""
        settle_failed_delete(logger, entity_id, ids, self.present(entity_id, ids), error)

    # -- revisions ----------------------------------------------------------------

    @when_open
    def revision(self, entity_id: str) -> str | None:
        """The entity's current token; ``None`` before its first commit."""
        with self._lock:
            return self._tokens.get(entity_id)

    @when_open
    def record_intent(self, entity_id: str, intent: str) -> bool:
        """No intent is needed: only this process writes, and a commit changes the token at once (False)."""
        return False

    @when_open
    def withdraw_intent(self, entity_id: str, intent: str) -> None:
        """Nothing to take back: no intent is ever recorded (:meth:`record_intent`)."""

    @when_open
    def commit_revision(self, entity_id: str, base: str | None, intent: str | None = None) -> tuple[str, bool]:
        """A new token for ``entity_id``, and whether the token before it was ``base`` (then the caller's
        write, made under :meth:`write_lock`, is the only change since ``base``). There are no intents to
        clear (:meth:`record_intent`)."""
        token = uuid.uuid4().hex
        with self._lock:
            current = self._tokens.get(entity_id)
            self._tokens[entity_id] = token
        return token, base is not None and current == base

    @when_open
    def write_lock(self, entity_id: str) -> contextlib.AbstractContextManager[None]:
        """The lock held around a write of ``entity_id`` and its commit (one per entity of this store)."""
        return self._write_locks.hold(entity_id)


def _json_form(metadata: dict[str, Any]) -> str:
    """User metadata as it reads back from a store that keeps it as JSON: keys turned to strings, tuples to lists,
    then sorted. Raises ``TypeError`` for metadata that is not JSON, as such a store does."""
    return json.dumps(json.loads(json.dumps(metadata, ensure_ascii=False)), sort_keys=True, ensure_ascii=False)


def _distinct(ids: Iterable[str]) -> None:
    """Raise ``ValueError`` when an id repeats (the protocol's callers never repeat one within a call)."""
    seen: set[str] = set()
    for i in ids:
        if i in seen:
            raise ValueError(f"fact id {i!r} given twice in one call")
        seen.add(i)
