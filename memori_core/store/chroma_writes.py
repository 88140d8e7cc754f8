"""The writes of :class:`~memori_core.store.ChromaStore`: upserts in batches Chroma accepts (two at a time),
metadata rewrites, deletes and ``forget``; a write that fails is read back to say what landed, and in an
embedded folder a delete scrubs the deleted texts from Chroma's log (:mod:`.chroma_log`)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any
import numpy as np

from ..facts import StoredFact
from . import deadline
from .base import settle_failed_delete, settle_failed_write, unanswered, when_open
from .chroma_log import scrub_erased
from .chroma_reads import ChromaReads
from .chroma_records import ENTITY, chroma_id, inline, pack
from .folder_lock import FolderHold

__all__ = ["ChromaWrites"]

logger = logging.getLogger(__name__)

_WRITE_THREADS = 2


class ChromaWrites(ChromaReads):
    """The write methods of :class:`~memori_core.store.ChromaStore` (a mixin: the state is the store's, declared
    here and on its reads, which a failed write is read back with)."""

    _folder_hold: FolderHold | None  # an embedded store's hold on its folder (None: none, or closed)
    _revision_tokens: Any  # its ChromaRevisions: forget records its time there
    location: str

    def _write_rows(self, entity_id: str, facts: Sequence[StoredFact], embeddings: np.ndarray,
                    progress: Callable[[int], None] | None) -> None:
        """:meth:`~memori_core.store.base.RowStore.upsert`'s writing (the store open, the counts checked):
        ``facts`` with their embeddings, in batches Chroma accepts (two at a time).

        ``progress`` is called with the number of facts stored so far after
        each batch lands. A failure after some batches landed raises
        :class:`PartialWriteError` with the ids that landed.
        """
        step = self.max_batch_size

        def write(start: int) -> int:
            chunk = facts[start : start + step]
            metas = [pack(f) for f in chunk]
            long_texts = any(not inline(f.content) for f in chunk)
            self._facts.upsert(
                ids=[chroma_id(entity_id, f.id) for f in chunk],
                embeddings=np.asarray(embeddings[start : start + step], dtype=np.float32),
                # Documents only for a chunk holding a text too long for its record (see chroma_records.INLINE_TEXT_BYTES).
                documents=[f.content for f in chunk] if long_texts else None,
                metadatas=metas,
            )
            return len(chunk)

        starts = list(range(0, len(facts), step))
        landed: list[int] = []
        failures: list[BaseException] = []
        stored = 0
        if len(starts) == 1:
            try:
                stored = write(0)
            except Exception as exc:  # noqa: BLE001 - read back below: it may have landed before failing
                failures.append(exc)
            else:
                if progress is not None:
                    progress(stored)
                return
        else:
            # Chroma spends most of an upsert in work that runs beside a second batch's (12 s -> 9 s at 10k).
            # A bulk write's batches are bounded by the request time limit each, outside the write's deadline.
            with deadline.paused(), ThreadPoolExecutor(_WRITE_THREADS, thread_name_prefix="memori-upsert") as pool:
                futures = {pool.submit(write, start): start for start in starts}
                for future in as_completed(futures):
                    try:
                        stored += future.result()
                    except Exception as exc:  # noqa: BLE001 - reported below with what landed
                        failures.append(exc)
                        continue
                    landed.append(futures[future])
                    if progress is not None:
                        progress(stored)
        if failures:
            # A batch whose reply was lost may have landed; a quickly refused one that failed first must not hide it.
            error = next((exc for exc in failures if unanswered(exc)), failures[0])
            self._report_upsert(entity_id, facts, [f for start in sorted(landed) for f in facts[start : start + step]],
                                error)

    def _report_upsert(
        self, entity_id: str, facts: Sequence[StoredFact], in_landed_batches: list[StoredFact], error: BaseException
    ) -> None:
        """After a failed upsert: which facts landed, read back from the store (a batch can fail after
        landing). Returns when every fact landed; raises ``error`` when none did, else PartialWriteError. When the
        store cannot be read back and ``error`` got no answer (:func:`.base.unanswered`), ``error`` is raised as it
        is: what its batch did is unknown (the engine's writes raise WriteOutcomeUnknown from it)."""
        flags = self._holds(entity_id, facts)
        note = ""
        if flags is None:  # the store cannot be read either: only the batches that returned are known to be in
            if unanswered(error):
                raise error
            landed = {f.id for f in in_landed_batches}
            flags = [f.id in landed for f in facts]
            note = " (read back failed: facts of the failed batches may have landed too)"
        settle_failed_write(logger, entity_id, [f.id for f in facts], flags, error, note)

    def _holds(self, entity_id: str, facts: Sequence[StoredFact]) -> list[bool] | None:
        """Per fact, whether the store holds exactly the record written for it (``None``: it cannot be read)."""
        try:
            have = self._records(entity_id, [f.id for f in facts])
        except Exception as exc:  # noqa: BLE001 - a store that fails reads too: nothing more can be said
            logger.warning("entity %r: a write failed, and reading back which of its facts were stored failed too "
                           "(%s); the write's error lists what may have landed", entity_id, exc)
            return None
        return [have.get(f.id) == pack(f) for f in facts]

    @when_open
    def update_seen(self, entity_id: str, facts: Sequence[StoredFact]) -> None:
        """Rewrite the metadata of existing facts (``last_seen``, ``times_seen``, user metadata).

        A failure is read back like :meth:`upsert`'s: :class:`PartialWriteError`
        names the facts whose new record landed (``stored_ids``) and those that
        still hold the old one.
        """
        for start in range(0, len(facts), self.max_batch_size):
            chunk = facts[start : start + self.max_batch_size]
            try:
                self._facts.update(ids=[chroma_id(entity_id, f.id) for f in chunk], metadatas=[pack(f) for f in chunk])
            except Exception as exc:  # noqa: BLE001 - read back: what landed before (or despite) the failure
                self._report_upsert(entity_id, facts, list(facts[:start]), exc)
                return

    @when_open
    def delete(self, entity_id: str, ids: Sequence[str]) -> None:
        """Delete facts of ``entity_id`` by id (unknown ids are ignored).

        A failure is read back: when some of the facts are gone and some are
        not, :class:`PartialDeleteError` names both; when none is gone, the
        store's error is raised; when all are, the delete is done. In an
        embedded folder the texts of the deleted rows are then scrubbed from
        Chroma's log (:meth:`_scrub_log`).
        """
        for start in range(0, len(ids), self.max_batch_size):
            chunk = [chroma_id(entity_id, i) for i in ids[start : start + self.max_batch_size]]
            try:
                self._facts.delete(ids=chunk)  # entity-scoped ids; see ChromaReads.get
            except Exception as exc:  # noqa: BLE001 - read back: what was deleted before (or despite) the failure
                self._report_delete(entity_id, ids, ids[:start], exc)
                break
        self._scrub_log()

    def _scrub_log(self) -> None:
        """In an embedded folder, blank the entries of Chroma's write-ahead log that rows deleted from the facts
        collection left behind: their texts, metadata and vectors (:func:`.chroma_log.scrub_erased`). A
        failure is logged: the rows are gone from every read all the same, and the next delete or forget
        scrubs them. A server's log is its own (docs/stores.md says what stays there)."""
        hold = self._folder_hold
        if hold is None:
            return
        try:
            scrub_erased(hold.folder, str(self._facts.id))
        except Exception as exc:  # noqa: BLE001 - the delete itself landed
            logger.warning("could not scrub deleted texts from Chroma's log in %s: %s", self.location, exc)

    def _report_delete(self, entity_id: str, ids: Sequence[str], done: Sequence[str], error: BaseException) -> None:
        """After a delete of ``ids`` failed with ``error`` once the chunks holding ``done`` had returned: what the
        store still holds decides (:func:`.base.settle_failed_delete`). When it cannot be read back, ``error`` is
        raised when it got no answer (its chunk may have been deleted: the engine's writes raise WriteOutcomeUnknown
        from it) or when no earlier chunk returned; else :class:`PartialDeleteError` names ``done`` as deleted."""
        unique = list(dict.fromkeys(ids))
        try:
            left = self._records(entity_id, unique)
        except Exception as exc:  # noqa: BLE001 - nothing more can be said than what the chunks that returned did
            logger.warning("entity %r: a delete failed, and reading back which facts are gone failed too (%s): some "
                           "may have been deleted; engine.get shows which remain", entity_id, exc)
            deleted = set(done)
            if unanswered(error) or not deleted:
                raise error from error.__cause__  # the read-back's failure hidden, the error's own cause kept
            left = {i: None for i in unique if i not in deleted}  # its chunk was refused: nothing of it sent
        settle_failed_delete(logger, entity_id, unique, [i for i in unique if i in left], error)

    @when_open
    def forget(self, entity_id: str) -> None:
        """Delete every fact of ``entity_id`` and nothing else (in an embedded folder, their texts are then
        scrubbed from Chroma's log, as :meth:`delete` does), after recording when on its revision record
        (``forgotten_at``).

        A failure is read back: when the entity has no fact left (the delete landed, its reply was lost), the
        call returns as a success; otherwise the store's error is raised."""
        self._revision_tokens.record_forget(entity_id)
        try:
            self._facts.delete(where={ENTITY: entity_id})
        except Exception as exc:
            try:
                left = self.count(entity_id)
            except Exception:  # noqa: BLE001 - nothing more can be said than the delete's own error
                raise exc from exc.__cause__  # the count's failure hidden, the error's own cause kept
            if left:
                raise
            logger.info("entity %r: forget's reply failed (%s) but no fact is left: it landed", entity_id, exc)
        self._scrub_log()
