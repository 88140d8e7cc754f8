"""The reads of :class:`~memori_core.store.ChromaStore`: a whole entity's rows, paged (:meth:`ChromaReads.load_entity`),
facts by id, counts, the entities stored and the collection's dimension."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..facts import StoredFact
from .base import when_open
from .chroma_client import READ_ATTEMPTS, retry_read
from .chroma_records import ENTITY, TEXT_KEY, chroma_id, read_fact, read_row, text_key
from .rows import EntityColumns, EntityRows

__all__ = ["ChromaReads"]

logger = logging.getLogger(__name__)

# Rows per read of a whole-entity load. chromadb hands a page over as Python lists (a float object per
# embedding value); smaller pages keep that transient peak small, and with it the heap the process keeps
# afterwards: a 100k-fact load from a server grew the client by 440-520 MiB with 5,000-row pages and by
# 300 MiB with 1,000-row pages, in the same time.
_PAGE = 1000


class ChromaReads:
    """The read methods of :class:`~memori_core.store.ChromaStore` (a mixin: the state is the store's, declared
    here)."""

    _facts: Any  # the facts collection
    _client: Any
    _dimension: int | None  # the collection's, once known (it never changes)
    closed: bool
    max_batch_size: int

    @when_open
    def load_entity(self, entity_id: str) -> EntityRows:
        """Every row of ``entity_id`` with its embedding (paged, filtered inside Chroma).

        A read that races another process's delete can fail inside Chroma
        (``InternalError: Error finding id``); the load then starts again, up
        to three times in all.
        """
        from chromadb.errors import InternalError

        for attempt in range(READ_ATTEMPTS):
            try:
                return self._load_entity(entity_id)
            except InternalError:
                if attempt == READ_ATTEMPTS - 1:
                    raise
                logger.info("entity %r: load raced a concurrent write; reading again", entity_id)
        raise AssertionError("unreachable")

    def _load_entity(self, entity_id: str) -> EntityRows:
        # Columns, not a StoredFact per row: the recall cache reads them as they are
        # (user metadata stays JSON text); ``rows.facts`` builds the facts on request.
        # The entity's ids first (one filtered read of ids alone), then its rows by id in
        # pages: Chroma pages a filtered read by offset, re-filtering for every page, so
        # reading by id is faster (100k rows: 6 s instead of 8-9 s). Chroma returns
        # rows in its own order whatever the order asked, so pages follow one another.
        cols = EntityColumns.empty()
        ids = self._facts.get(where={ENTITY: entity_id}, include=[])["ids"]
        for start in range(0, len(ids), _PAGE):
            page = self._facts.get(ids=ids[start : start + _PAGE], include=["embeddings", "documents", "metadatas"])
            _add_page(cols, entity_id, page)
            del page
        return EntityRows(entity_id=entity_id, columns=cols)

    @when_open
    def get(self, entity_id: str, ids: Sequence[str]) -> list[StoredFact]:
        """The stored facts of ``entity_id`` among ``ids`` (missing ids are left out)."""
        if not ids:
            return []
        out: list[StoredFact] = []
        for start in range(0, len(ids), self.max_batch_size):
            chunk = [chroma_id(entity_id, i) for i in ids[start : start + self.max_batch_size]]
            # The Chroma id names the entity (see chroma_id), so the lookup is scoped
            # to it without a `where` filter, which makes Chroma 1.x ~50x slower here.
            page = retry_read(lambda: self._facts.get(ids=chunk, include=["documents", "metadatas"]))
            for doc, meta in zip(page["documents"], page["metadatas"]):
                fact = read_fact(entity_id, doc, meta)
                if fact is not None:
                    out.append(fact)
        return out

    @when_open
    def present(self, entity_id: str, ids: Sequence[str]) -> list[str]:
        """Those of ``ids`` that ``entity_id`` has stored, in the order given (read by id)."""
        unique = list(dict.fromkeys(ids))
        have = self._records(entity_id, unique)
        return [i for i in unique if i in have]

    @when_open
    def holding_texts(self, entity_id: str, text_ids: Sequence[str]) -> list[StoredFact]:
        """The stored facts of ``entity_id`` whose text derives one of ``text_ids``: one read filtered on
        ``TEXT_KEY``, whose value names the entity too."""
        keys = list(dict.fromkeys(text_key(entity_id, t) for t in text_ids))
        if not keys:
            return []
        where = {TEXT_KEY: keys[0]} if len(keys) == 1 else {TEXT_KEY: {"$in": keys}}
        page = retry_read(lambda: self._facts.get(where=where, include=["documents", "metadatas"]))
        facts = (read_fact(entity_id, doc, meta) for doc, meta in zip(page["documents"], page["metadatas"]))
        return [f for f in facts if f is not None]

    def _records(self, entity_id: str, ids: Sequence[str]) -> dict[str, Any]:
        """The stored Chroma metadata of those of ``ids`` that are stored (fact id -> metadata)."""
        out: dict[str, Any] = {}
        for start in range(0, len(ids), self.max_batch_size):
            fact_ids = ids[start : start + self.max_batch_size]
            by_chroma = {chroma_id(entity_id, i): i for i in fact_ids}
            page = retry_read(lambda: self._facts.get(ids=list(by_chroma), include=["metadatas"]))
            for cid, meta in zip(page["ids"], page["metadatas"]):
                if cid in by_chroma:
                    out[by_chroma[cid]] = meta
        return out

    @when_open
    def count(self, entity_id: str) -> int:
        """Number of facts stored for ``entity_id``."""
        return len(self._facts.get(where={ENTITY: entity_id}, include=[])["ids"])

    @when_open
    def entity_ids(self) -> list[str]:
        """Every entity with at least one stored fact, sorted: the facts' metadata read page by page (Chroma
        cannot list the distinct values of one key). A write during the read may be missed."""
        found: set[str] = set()
        start = 0
        while True:
            offset = start
            page = retry_read(lambda: self._facts.get(include=["metadatas"], limit=_PAGE, offset=offset))
            metas = page.get("metadatas") or []
            found.update(m[ENTITY] for m in metas if m is not None and isinstance(m.get(ENTITY), str))
            if len(page["ids"]) < _PAGE:
                return sorted(found)
            start += _PAGE

    @when_open
    def dimension(self) -> int | None:
        """Dimension of the stored embeddings (a Chroma collection holds one), ``None`` when empty.

        Read from the store until it is known; a collection keeps its first dimension for good, so then it is
        remembered (a write costs no request for it)."""
        if self._dimension is not None:
            return self._dimension
        page = retry_read(lambda: self._facts.peek(limit=1))  # races a fresh segment like other reads
        embs = page.get("embeddings")
        if embs is not None and len(embs) > 0:
            self._dimension = int(len(embs[0]))
            return self._dimension
        # Emptied (e.g. by forget): Chroma still holds the collection to its first
        # dimension, which only a fresh read of the collection reports.
        try:
            dim = self._client.get_collection(self._facts.name).get_model().dimension
        except Exception:  # noqa: BLE001 - an old server may not report it
            return None
        self._dimension = int(dim) if dim else None
        return self._dimension


def _add_page(cols: EntityColumns, entity_id: str, page: dict[str, Any]) -> None:
    """Append a ``get`` page's rows of ``entity_id`` to ``cols`` (float32 embeddings, one block per page)."""
    keep: list[int] = []
    for i, (doc, meta) in enumerate(zip(page["documents"], page["metadatas"])):
        if meta is None or meta.get(ENTITY) != entity_id:
            continue  # belt and braces: the where filter already excludes these
        row = read_row(meta, doc)
        if row.text is None:
            continue
        keep.append(i)
        cols.add_row(row, row.text)
    if not keep:
        return
    embs = page["embeddings"]
    try:
        block = np.asarray(embs, dtype=np.float32)
    except ValueError:  # rows of several dimensions: one block per row
        block = None
    if block is None or block.ndim != 2:
        cols.embeddings.extend(np.asarray(embs[i], dtype=np.float32).reshape(1, -1) for i in keep)
    else:
        cols.embeddings.append(block if len(keep) == block.shape[0] else block[keep])
