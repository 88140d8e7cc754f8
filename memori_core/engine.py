"""The recall engine: writes, the per-entity caches and locks, and recall over them.

Under an entity's lock a recall only gathers what the ranking needs from the
cache (cosines, the lexical top rows, neighbour links, the pool's term
frequencies and facts); the ranking itself is :mod:`memori_core.ranking.pipeline`.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import hashlib
import logging
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import Any

import numpy as np

from .cache import DEFAULT_MAX_CACHED_BYTES, EntityCache
from .cache.coordinator import Coordinator
from .config import RecallConfig
from .embedders import Embedder, as_embedder, check_matrix, default_embedder, embed_in_batches
from .explain import CandidateScore, RecallReport
from .facts import RecalledFact, StoredFact
from .filters import Where, check_where
from .judge import Judge, as_indices
from .ranking.candidates import gather
from .ranking.care import care_share, is_care_fact, is_personal, prototype_texts
from .query import recent_turns
from .ranking.conversation import COURTESY_WORDS, blend_query, conversation_text, gate_cosine, is_courtesy
from .ranking.core import CORE, CORE_KEY, core_picks
from .ranking.dense import cosine_scores, l2_normalise
from .ranking.fusion import fusion_weights, rank_order
from .ranking.judged import JUDGED_RELEVANT, judge_pool, judged_fates, judged_select
from .ranking.lexical import unique_terms
from .ranking.pipeline import (
    KEPT,
    PoolScores,
    fates,
    score_pool,
    select,
    source_label,
)
from .records import from_record, to_record
from .store.base import FactStore, PartialDeleteError, PartialWriteError
from .stemming import analyzer
from .text import normalize_fact_text
from .validate import (
    check_context,
    check_core,
    check_core_flag,
    check_entity_id,
    check_expiry,
    check_facts,
    check_id_list,
    check_ids,
    check_limit,
    check_metadata,
    check_query,
    check_session_id,
    per_fact,
    to_iso_utc,
)

logger = logging.getLogger(__name__)

_UNSET: Any = object()

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: stage ``"embed"`` or ``"store"``, facts done of ``total``."""


def _safe_progress(progress: Any) -> Progress | None:
    """``progress`` wrapped so that its failures are logged once and never break a write."""
    if progress is None:
        return None
    if not callable(progress):
        raise TypeError(f"progress must be a callable(stage, done, total) or None, got {type(progress).__name__}")
    failed = False

    def report(stage: str, done: int, total: int) -> None:
        nonlocal failed
        if failed:
            return
        try:
            progress(stage, done, total)
        except Exception:
            failed = True
            logger.warning("progress callback raised; no more progress is reported for this call", exc_info=True)

    return report



MAX_JUDGE_CALLS = 16
"""Judge calls one engine lets run at once. A call past ``judge_timeout`` keeps its thread until the judge
returns; with this many still running, recall falls back to the gate at once instead of starting another."""


def _check_judge(judge: Any, judge_timeout: Any) -> float:
    """``judge`` must be callable or ``None``; ``judge_timeout`` a positive, finite number of seconds."""
    if judge is not None and not callable(judge):
        raise TypeError(f"judge must be a callable(query, facts, context) -> indices or None, "
                        f"got {type(judge).__name__}")
    if isinstance(judge_timeout, bool) or not isinstance(judge_timeout, (int, float)):
        raise TypeError(f"judge_timeout must be a number of seconds, got {type(judge_timeout).__name__}")
    if not (0 < judge_timeout < float("inf")):
        raise ValueError(f"judge_timeout must be a positive, finite number of seconds, got {judge_timeout!r}")
    return float(judge_timeout)


def _short_repr(value: Any, width: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def _split_new_and_seen(
    batch: dict[str, StoredFact], existing: dict[str, StoredFact]
) -> tuple[list[StoredFact], list[StoredFact]]:
    """Facts to store, and stored facts seen again (their sightings and metadata merged in)."""
    new: list[StoredFact] = []
    seen: list[StoredFact] = []
    for fid, fact in batch.items():
        old = existing.get(fid)
        if old is None:
            new.append(fact)
        else:
            seen.append(
                replace(
                    old,
                    times_seen=old.times_seen + fact.times_seen,
                    last_seen=max(old.last_seen or "", fact.last_seen or ""),
                    metadata={**old.metadata, **fact.metadata},
                    expires_at=fact.expires_at or old.expires_at,
                )
            )
    return new, seen


@functools.lru_cache(maxsize=8)
def _courtesy_terms(key: tuple[str, str | None]) -> frozenset[str]:
    """The courtesy words as the analyzer ``key`` turns them into terms."""
    analyse = analyzer(*key)
    return frozenset(t for word in COURTESY_WORDS for t in analyse(word))


def derived_fact_id(text: str) -> str:
    """Stable id of a fact from its normalised text (ids are scoped per entity)."""
    return hashlib.sha256(normalize_fact_text(text).encode("utf-8")).hexdigest()[:32]


@dataclass(frozen=True)
class _Scored:
    """One recall's pool scores, before they are turned into facts or a report."""

    scores: PoolScores
    facts: Sequence[StoredFact]  # the pool's facts (PoolFacts: made under the lock, right after it)
    rows_scored: int
    core: _CoreRows | None = None  # the core facts recall may append (None: none, or core_limit 0)


@dataclass(frozen=True)
class _Judgement:
    """What the judge said about one recall's best candidates."""

    seen: np.ndarray  # pool positions it was shown, best first
    relevant: list[int] | None  # indices into ``seen`` it called relevant; None: it failed, the gate decides
    failure: str = ""  # why it failed


@dataclass(frozen=True)
class _CoreRows:
    """The entity's core facts that a recall may return (live, not expired, matching ``where``)."""

    rows: np.ndarray
    cosine: np.ndarray  # to the query
    recency: np.ndarray  # later of created / last seen (epoch s): breaks cosine ties
    facts: Sequence[StoredFact]  # PoolFacts of ``rows``, made under the lock


def _root_cause(exc: Exception) -> BaseException:
    """The store's own error behind a PartialWriteError (``exc`` itself otherwise)."""
    return exc.__cause__ if isinstance(exc, PartialWriteError) and exc.__cause__ is not None else exc


def _add_failure(
    entity_id: str, facts: list[StoredFact], written: list[str], replaced: list[str], exc: Exception
) -> Exception:
    """What an ``add`` that failed part-way raises: the store's error when nothing landed, else a
    PartialWriteError naming every fact of the call that landed (stored or seen again) and every one that
    did not; superseded facts left in place are named in the message."""
    cause = _root_cause(exc)
    if isinstance(exc, PartialWriteError) and not isinstance(exc, PartialDeleteError):
        if not written and len(exc.stored_ids) + len(exc.unstored_ids) == len(facts):
            return exc  # the only step that ran said it all
        landed = set(written) | set(exc.stored_ids)  # the step that failed said which of its facts landed
    elif isinstance(exc, PartialDeleteError) or (written and len(written) == len(facts) and replaced):
        left = (f"still stored: {', '.join(exc.remaining_ids)}" if isinstance(exc, PartialDeleteError)
                else f"not known to be deleted: {', '.join(replaced)}")
        return PartialWriteError(
            f"stored every fact for entity {entity_id!r}, but deleting the superseded facts failed ({left}): {cause}",
            [f.id for f in facts], [],
        )
    else:
        landed = set(written)
    if not landed:
        return exc
    stored = [f.id for f in facts if f.id in landed]
    return PartialWriteError(
        f"stored {len(stored)} of {len(facts)} facts for entity {entity_id!r} before failing: {cause}",
        stored, [f.id for f in facts if f.id not in landed],
    )


class RecallEngine:
    """Long-term memory for many users: add facts, recall the few that matter for a query.

    >>> engine = RecallEngine(store=ChromaStore.in_memory(), embedder=my_embed_fn)
    >>> engine.add("user-1", ["User is allergic to peanuts."])
    >>> engine.recall("what should I cook?", entity_id="user-1")

    Recall scores an in-process copy of each entity's rows (exactly, no ANN),
    kept fresh by this engine's own writes, and for stores shared between
    processes (HTTP) by a revision record read before each recall.
    """

    def __init__(
        self,
        store: FactStore | None = None,
        embedder: Any | None = None,
        config: RecallConfig | None = None,
        *,
        embed_batch_size: int = 256,
        max_cached_entities: int = 256,
        max_cached_bytes: int | None = DEFAULT_MAX_CACHED_BYTES,
        async_workers: int = 8,
        judge: Judge | None = None,
        judge_timeout: float = 10.0,
    ) -> None:
        """``store`` defaults to the embedded Chroma store in the user's data directory,
        ``embedder`` to the local all-MiniLM-L6-v2, ``config`` to :class:`RecallConfig` defaults.
        The async methods run on ``async_workers`` threads of the engine's own
        (not the event loop's default executor).

        The per-entity caches are bounded by ``max_cached_entities`` and
        ``max_cached_bytes`` (default 1 GiB; ``None``: no byte bound): the least
        recently recalled entities are dropped first (an entity alone above the
        byte bound is still cached).

        ``judge`` (:class:`~memori_core.judge.Judge`, off by default) replaces the gate's decision by a
        judge's, typically one model call per recall: it is shown the query, the
        ``config.judge_candidates`` best candidates and the earlier turns, and recall keeps the ones it
        calls relevant (core facts are still appended). It runs on a thread of its own for at most
        ``judge_timeout`` seconds; when it raises, times out or answers something that is not a list
        of indices, a warning is logged and the gate decides as without a judge. It is not called
        when the gate is off (``gate="off"``) or there is nothing to rank."""
        judge_timeout = _check_judge(judge, judge_timeout)
        if store is None:
            from .store.chroma import ChromaStore

            store = ChromaStore()
        self.store: FactStore = store
        self._embedder: Embedder | None = as_embedder(embedder) if embedder is not None else None
        self.config = config if config is not None else RecallConfig()
        if not isinstance(self.config, RecallConfig):
            raise TypeError(f"config must be a RecallConfig, got {type(self.config).__name__}")
        if embed_batch_size < 1:
            raise ValueError("embed_batch_size must be >= 1")
        self.embed_batch_size = embed_batch_size
        if isinstance(async_workers, bool) or not isinstance(async_workers, int) or async_workers < 1:
            raise ValueError(f"async_workers must be an int >= 1, got {async_workers!r}")
        self.async_workers = async_workers
        self.judge: Judge | None = judge
        self.judge_timeout: float = judge_timeout
        self._judge_slots = threading.BoundedSemaphore(MAX_JUDGE_CALLS)
        self._executor: ThreadPoolExecutor | None = None
        self._executor_lock = threading.Lock()
        self._prototypes: tuple[np.ndarray, np.ndarray] | None = None  # care-domain prototypes, embedded once
        self._prototypes_lock = threading.Lock()
        # Caches, locks and the write protocol; the lock order is written down there.
        self._coord = Coordinator(
            self.store, max_cached_entities, max_cached_bytes, lambda: (self.config.tokenizer, self.config.stemmer)
        )

    @property
    def embedder(self) -> Embedder:
        """The embedder in use (the local MiniLM is loaded on first use when none was given)."""
        if self._embedder is None:
            self._embedder = default_embedder()
        return self._embedder

    # -- write path ---------------------------------------------------------

    def add(
        self,
        entity_id: str,
        facts: Sequence[str] | str,
        ids: Sequence[str] | None = None,
        created_at: Any = None,
        metadata: Any = None,
        *,
        session_id: Any = None,
        supersedes: Sequence[str] | str | None = None,
        expires_at: Any = None,
        progress: Progress | None = None,
        core: bool | Sequence[bool] = False,
    ) -> list[str]:
        """Store facts for ``entity_id``; returns their ids, one per input fact.

        Without ``ids``, a fact whose normalised text is already stored for the
        entity is not stored again: its ``last_seen`` / ``times_seen`` are
        updated. With ``ids``, facts are upserted by id. ``created_at`` (datetime
        or ISO 8601; default now) and ``metadata`` (dict) take one value for all
        facts or a list with one per fact. ``session_id`` (a str, or one per
        fact) marks the conversation the facts were said in: facts of one
        session keep the order in which they were added, and recall lets a
        fact borrow relevance from its neighbours (``neighbour_weight``).

        ``supersedes`` lists ids of the entity's stored facts that the new
        facts replace ("User moved to Paris" over "User lives in Lyon"): they
        are deleted in the same write, after the new facts are stored, so
        recall shows only the newer fact (deleted rather than hidden: a
        replaced fact should not linger in exports, counts or the store; keep
        history by exporting first). Ids of the facts being added and unknown
        ids are ignored. ``expires_at`` (datetime, ISO 8601, or a
        ``timedelta`` from now; one or one per fact) is when a fact stops
        being recalled; a fact seen again with a new ``expires_at`` takes it.
        ``progress(stage, done, total)`` is called as a bulk add goes:
        ``"embed"`` after each embedding batch, ``"store"`` after each store
        batch (an exception it raises is logged and ignored).

        ``core`` (one bool, or one per fact) marks facts worth injecting on
        every turn (an allergy, a medication, a diet): they get ``"core": True``
        in their own metadata, and recall appends up to
        ``config.core_limit`` of them after the facts it chose, whatever the
        query. Metadata ``{"core": True}`` given by hand has the same effect;
        ``core=False`` leaves a ``"core"`` key the metadata gives alone. A
        fact seen again with ``core=True`` becomes core (a repeat without it
        stays as it was); an upsert by ``ids`` replaces the metadata, core
        flag included. ``update(..., core=False)`` unmarks a fact.

        Everything is validated and embedded before anything is written. A
        store failure after some of the facts landed (stored, or counted as
        seen again) raises :class:`~memori_core.PartialWriteError` whose
        ``stored_ids`` / ``unstored_ids`` say which (add the unstored ones
        again); superseded facts a failure left in place are named in its
        message. After any failure the next recall reads what the store really
        holds.
        """
        entity_id = check_entity_id(entity_id)
        texts = check_facts(facts)
        report = _safe_progress(progress)
        n = len(texts)
        if n == 0:
            return []
        given_ids = check_ids(ids, n)
        now = datetime.now(timezone.utc).isoformat()
        stamps = [to_iso_utc(v) or now for v in per_fact(created_at, n, "created_at", (str, datetime))]
        metas = [check_metadata(m, i) for i, m in enumerate(per_fact(metadata, n, "metadata", (dict,)))]
        sessions = [check_session_id(v, i) for i, v in enumerate(per_fact(session_id, n, "session_id", (str,)))]
        expiries = [check_expiry(v) for v in per_fact(expires_at, n, "expires_at", (str, datetime, timedelta))]
        metas = [{**m, CORE_KEY: True} if c else m for m, c in zip(metas, check_core(core, n))]
        replaced = check_id_list(supersedes, "supersedes") if supersedes is not None else []
        out_ids = given_ids or [derived_fact_id(t) for t in texts]
        seq0 = time.time_ns()

        # Collapse repeats within the call: the last value of an id wins for
        # caller ids; for derived ids the first occurrence is stored and the rest count as sightings.
        batch: dict[str, StoredFact] = {}
        for i, (fid, text, stamp, meta, session, expiry) in enumerate(
            zip(out_ids, texts, stamps, metas, sessions, expiries)
        ):
            prev = batch.get(fid)
            if prev is None or given_ids is not None:
                batch[fid] = StoredFact(
                    fid, entity_id, text, stamp, meta, last_seen=stamp, times_seen=1, session_id=session,
                    seq=seq0 + i, expires_at=expiry,
                )
            else:
                batch[fid] = replace(
                    prev,
                    times_seen=prev.times_seen + 1,
                    last_seen=max(prev.last_seen or stamp, stamp),
                    metadata={**prev.metadata, **meta},
                    expires_at=expiry or prev.expires_at,
                )
        replaced = [fid for fid in replaced if fid not in batch]

        derived = given_ids is None
        # Embed (slow) before taking the locks, only what is not stored yet...
        new, _ = _split_new_and_seen(batch, self._stored(entity_id, batch) if derived else {})
        vec_of = self._embed_new(new, report)

        with self._coord.writing(entity_id) as done:
            # ...and decide under them, so that concurrent adds of one fact count every sighting.
            new, seen = _split_new_and_seen(batch, self._stored(entity_id, batch) if derived else {})
            late = [f for f in new if f.id not in vec_of]  # deleted meanwhile: embed now (rare)
            if late:
                vec_of.update(self._embed_new(late))
            written: list[str] = []  # facts whose write landed, step by step
            try:
                if new:
                    vectors = np.stack([vec_of[f.id] for f in new])
                    tokens = self._coord.write_and_tokenise(new, lambda: self._upsert(entity_id, new, vectors, report))
                    written += [f.id for f in new]
                    done.upsert(new, vectors, tokens)
                if seen:
                    self.store.update_seen(entity_id, seen)
                    written += [f.id for f in seen]
                    done.update_seen(seen)
                if replaced:
                    self.store.delete(entity_id, replaced)
                    done.remove(replaced)
            except Exception as exc:
                failure = _add_failure(entity_id, [*new, *seen], written, replaced, exc)
                if failure is exc:
                    raise
                raise failure from _root_cause(exc)
        return out_ids

    def _stored(self, entity_id: str, batch: dict[str, StoredFact]) -> dict[str, StoredFact]:
        return {f.id: f for f in self.store.get(entity_id, list(batch))}

    def _embed_new(self, facts: list[StoredFact], progress: Progress | None = None) -> dict[str, np.ndarray]:
        """Embed facts about to be stored, checking the dimension against the store's."""
        if not facts:
            return {}
        texts = [f.content for f in facts]
        if progress is None:
            vectors = embed_in_batches(self.embedder, texts, self.embed_batch_size)
        else:
            parts = []
            for start in range(0, len(texts), self.embed_batch_size):
                parts.append(embed_in_batches(self.embedder, texts[start : start + self.embed_batch_size],
                                              self.embed_batch_size))
                progress("embed", min(start + self.embed_batch_size, len(texts)), len(texts))
            dims = {p.shape[1] for p in parts}
            if len(dims) > 1:
                raise ValueError(f"embedder {self.embedder.name!r} returned vectors of several dimensions: {sorted(dims)}")
            vectors = np.vstack(parts)
        stored_dim = self.store.dimension()
        if stored_dim is not None and stored_dim != vectors.shape[1]:
            raise ValueError(
                f"embedder {self.embedder.name!r} produces {vectors.shape[1]}-d vectors but the store "
                f"holds {stored_dim}-d vectors; use the embedder the store was filled with, or a new store"
            )
        return {f.id: v for f, v in zip(facts, vectors)}

    def _upsert(self, entity_id: str, facts: list[StoredFact], vectors: np.ndarray, progress: Progress | None) -> None:
        if progress is None:
            self.store.upsert(entity_id, facts, vectors)
            return
        total = len(facts)
        self.store.upsert(entity_id, facts, vectors, progress=lambda done: progress("store", done, total))

    def delete(self, entity_id: str, ids: Sequence[str]) -> list[str]:
        """Delete some of ``entity_id``'s facts by id; returns the ids that were stored (and are deleted now),
        in the order given, each once. Unknown ids are ignored.

        A store failure after some of them were deleted raises
        :class:`~memori_core.PartialDeleteError` with ``deleted_ids`` and
        ``remaining_ids`` (read back from the store; deleting the remaining ones
        again is exact); after any failure the next recall reads what the store
        really holds.
        """
        entity_id = check_entity_id(entity_id)
        id_list = check_id_list(ids, "ids")
        if not id_list or not self.store.present(entity_id, id_list):
            return []  # nothing to delete: no write, so the revision (and a snapshot) stay as they are
        with self._coord.writing(entity_id) as done:
            present = self.store.present(entity_id, id_list)  # again under the locks: exact
            if present:
                self.store.delete(entity_id, present)
                done.remove(present)
        return present

    def forget(self, entity_id: str) -> None:
        """Delete every fact of ``entity_id`` (and nothing of any other entity)."""
        entity_id = check_entity_id(entity_id)
        with self._coord.writing(entity_id) as done:
            self.store.forget(entity_id)
            done.drop()

    def count(self, entity_id: str) -> int:
        """Number of facts stored for ``entity_id``."""
        return self.store.count(check_entity_id(entity_id))

    # -- browse, update, export --------------------------------------------

    def list(
        self,
        entity_id: str,
        *,
        limit: int = 100,
        offset: int = 0,
        session_id: str | None = None,
        where: dict[str, Any] | None = None,
        newest_first: bool = True,
    ) -> list[StoredFact]:
        """A page of ``entity_id``'s stored facts, newest first (by ``created_at``, then order of addition).

        ``session_id`` and ``where`` (as in :meth:`recall`) narrow the list;
        expired facts are listed (they are stored until deleted) with their
        ``expires_at``. Page with ``offset``: ``list(e, offset=100)`` is the next
        100.
        """
        entity_id = check_entity_id(entity_id)
        for name, value in (("limit", limit), ("offset", offset)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be an int >= 0, got {value!r}")
        if session_id is not None:
            session_id = check_session_id(session_id, 0)
        where = check_where(where)
        with self._entity_lock(entity_id):
            cache = self._cache_for(entity_id)
            rows = cache.matching_rows(where) if where is not None else cache.live_rows()
            if session_id is not None:
                code = cache.session_code(session_id)
                rows = rows[cache.sessions[rows] == code] if code is not None else rows[:0]
            # Sorted as columns (created_at, then seq; ties keep row order); facts only for the page.
            page = cache.newest_first(rows, newest_first)[offset : offset + limit]
            return [f for f in map(cache.fact, page.tolist()) if f is not None]

    def get(self, entity_id: str, ids: Sequence[str] | str) -> list[StoredFact]:
        """The stored facts of ``entity_id`` with these ids, in the order asked (unknown ids are left out)."""
        entity_id = check_entity_id(entity_id)
        id_list = check_id_list(ids, "ids")
        found = {f.id: f for f in self.store.get(entity_id, id_list)}
        return [found[i] for i in id_list if i in found]

    def update(
        self,
        entity_id: str,
        id: str,
        *,
        text: str | None = None,
        metadata: dict[str, Any] | None = None,
        expires_at: Any = _UNSET,
        core: bool | None = None,
    ) -> StoredFact:
        """Edit one stored fact in place and return it; its id, session place and sightings are kept.

        A new ``text`` is re-embedded; ``metadata`` replaces the user metadata
        (pass the whole dict); ``expires_at`` sets (``None`` clears) the
        expiry; ``core=True`` / ``False`` marks / unmarks the fact core (its
        ``"core"`` metadata key, applied after ``metadata``; ``None`` leaves it
        as the metadata says). ``updated_at`` records when. An unknown id raises ``KeyError``.
        Note that the id stays the one derived from the old text: adding the
        new text later without ``ids`` stores it as a second fact.
        """
        entity_id = check_entity_id(entity_id)
        fid = check_id_list(id, "id")
        if len(fid) != 1:
            raise TypeError("id must be one fact id (a str)")
        fid_s = fid[0]
        new_text = check_facts(text)[0] if text is not None else None
        new_meta = check_metadata(metadata, 0) if metadata is not None else None
        new_expiry = check_expiry(expires_at) if expires_at is not _UNSET else None
        new_core = check_core_flag(core)
        vector = self._embed_new([StoredFact(fid_s, entity_id, new_text, None)]) if new_text is not None else {}
        with self._coord.writing(entity_id) as done:
            old = self.store.get(entity_id, [fid_s])
            if not old:
                raise KeyError(f"entity {entity_id!r} has no fact with id {fid_s!r}")
            meta = dict(new_meta if new_meta is not None else old[0].metadata)
            if new_core is True:
                meta[CORE_KEY] = True
            elif new_core is False:
                meta.pop(CORE_KEY, None)
            fact = replace(
                old[0],
                content=new_text if new_text is not None else old[0].content,
                metadata=meta,
                expires_at=new_expiry if expires_at is not _UNSET else old[0].expires_at,
                updated_at=datetime.now(timezone.utc).isoformat(),
            )
            if new_text is not None:
                vectors = np.stack([vector[fid_s]])
                self.store.upsert(entity_id, [fact], vectors)
                done.upsert([fact], vectors)
            else:
                self.store.update_seen(entity_id, [fact])
                done.update_seen([fact])
        return fact

    def export(self, entity_id: str, *, include_vectors: bool = False) -> list[dict[str, Any]]:
        """Every stored fact of ``entity_id`` as a record (see :mod:`memori_core.records`), in order of addition.

        Read from the store itself, not the cache. Write them as JSON Lines
        (one ``json.dumps`` per line) to move a user's memory between stores;
        with ``include_vectors`` an import into the same embedder's store needs
        no re-embedding.
        """
        entity_id = check_entity_id(entity_id)
        rows = self.store.load_entity(entity_id)
        order = sorted(range(len(rows.facts)), key=lambda i: (rows.facts[i].seq, rows.facts[i].id))
        return [to_record(rows.facts[i], rows.embeddings[i] if include_vectors else None) for i in order]

    def import_(
        self, entity_id: str, records: Sequence[dict[str, Any]], *, reembed: bool = False,
        progress: Progress | None = None,
    ) -> list[str]:
        """Store exported records as ``entity_id``'s facts (upserted by id); returns their ids.

        Vectors in the records are used when every record has one of the
        store's dimension and ``reembed`` is False; otherwise every text is
        embedded with this engine's embedder (e.g. to move to another
        embedder). Ids, timestamps, sightings, sessions and their order are
        kept, so recall over the imported facts is the recall of the export.
        Everything is validated before anything is written; a failure part-way
        raises :class:`~memori_core.PartialWriteError` like :meth:`add`.
        ``progress`` is reported as in :meth:`add`.
        """
        entity_id = check_entity_id(entity_id)
        report = _safe_progress(progress)
        if isinstance(records, (str, bytes, dict)) or not isinstance(records, Sequence):
            raise TypeError(f"records must be a list of dicts, got {type(records).__name__}")
        now = datetime.now(timezone.utc).isoformat()
        seq0 = time.time_ns()
        batch: dict[str, tuple[StoredFact, np.ndarray | None]] = {}
        for i, record in enumerate(records):
            text = record.get("text") if isinstance(record, dict) else None
            default_id = derived_fact_id(text) if isinstance(text, str) and text.strip() else ""
            fact, vec = from_record(entity_id, record, i, default_id=default_id, default_seq=seq0 + i, now=now)
            batch[fact.id] = (fact, vec)  # a repeated id: the last record wins, as in add(ids=...)
        if not batch:
            return []
        facts = [f for f, _ in batch.values()]
        given = [v for _, v in batch.values()]
        stored_dim = self.store.dimension()
        dims = {v.shape[0] for v in given if v is not None}
        usable = not reembed and all(v is not None for v in given) and len(dims) == 1
        if usable and stored_dim is not None and dims != {stored_dim}:
            raise ValueError(
                f"records carry {dims.pop()}-d vectors but the store holds {stored_dim}-d vectors; "
                "pass reembed=True to embed the texts with this engine's embedder"
            )
        if usable:
            vectors = np.stack(given).astype(np.float32)  # type: ignore[arg-type]
        else:
            vec_of = self._embed_new(facts, report)
            vectors = np.stack([vec_of[f.id] for f in facts])
        with self._coord.writing(entity_id) as done:
            self._upsert(entity_id, facts, vectors, report)
            done.upsert(facts, vectors)  # kept as the whole copy when it is the entity's first write...
            done.drop()  # ...else a bulk write: the next recall loads it whole
        return list(batch)

    def clear_cache(self) -> None:
        """Forget the in-process copies (the next recall reloads from the store)."""
        self._coord.clear()

    # -- read path ----------------------------------------------------------

    def _entity_lock(self, entity_id: str) -> threading.RLock:
        return self._coord.entity_lock(entity_id)

    def _cache_for(self, entity_id: str) -> EntityCache:
        return self._coord.cache_for(entity_id)

    def _embed_query(self, query: str, query_vector: Any | None) -> np.ndarray:
        if query_vector is None:
            return self.embedder.embed_query(query)
        vec = np.asarray(query_vector, dtype=np.float32)
        if vec.ndim == 1 and vec.size and np.isfinite(sq := float(np.dot(vec, vec))) and sq > 0:
            return vec  # fast path: a finite, non-zero vector (the norm check covers NaN and inf)
        return check_matrix([query_vector], rows=1, name="query_vector")[0]

    def _score(
        self, query: str, entity_id: str, limit: int, query_vector: Any | None, where: Where | None = None,
        conversation: str | None = None,
    ) -> _Scored | str:
        """Score the candidates, or return the reason nothing could be scored. ``conversation`` (see
        :func:`~memori_core.ranking.conversation.conversation_text`) moves the search direction."""
        with self._entity_lock(entity_id):
            if len(self._cache_for(entity_id)) == 0:
                # Said before the query is embedded: an unknown entity never loads the model.
                return "no facts stored for this entity"
        vec = self._embed_query(query, query_vector)
        question = conv = None
        if conversation is not None:
            question = l2_normalise(vec)[0]
            conv = l2_normalise(self.embedder.embed_query(conversation))[0]
            vec = blend_query(question, conv, self.config.context_weight)
        q = l2_normalise(vec)[0]
        cfg = self.config
        key = (cfg.tokenizer, cfg.stemmer)
        q_tokens = analyzer(*key)(query)
        q_terms = unique_terms(q_tokens)
        with self._entity_lock(entity_id):
            cache = self._cache_for(entity_id)
            if cache.skipped_dims and not cache.warned_skipped:
                cache.warned_skipped = True
                logger.warning(
                    "entity %r: skipped %d stored row(s) whose dimension differs from the others (%s)",
                    entity_id, sum(cache.skipped_dims.values()), dict(cache.skipped_dims),
                )
            if len(cache) == 0:
                return "no facts stored for this entity"
            if cache.dim != q.shape[0]:
                if q.shape[0] not in cache.warned_dims:
                    cache.warned_dims.add(q.shape[0])
                    logger.warning(
                        "entity %r: query embedding is %d-d but the stored rows are %d-d; skipping them",
                        entity_id, q.shape[0], cache.dim,
                    )
                return f"query embedding is {q.shape[0]}-d but stored rows are {cache.dim}-d"

            # The rows a recall may return: live, not expired, matching ``where`` (None: all live rows).
            allowed = self._allowed_rows(cache, where)
            if allowed is not None and allowed.size == 0:
                return "no stored fact matches the filter" if where else "every stored fact has expired"
            found = gather(cache, q, q_terms, key, limit, cfg, allowed, blank=not query.strip())
            pool = found.pool
            pool_facts = cache.pool_facts(pool.rows)  # a StoredFact is built only for the facts read from it
            core = self._core_rows(cache, allowed, q) if cfg.core_limit > 0 else None
            gate_cos = None
            if question is not None and conv is not None and question.shape == q.shape:
                pooled = cache.matrix[pool.rows]
                gate_cos = gate_cosine(cosine_scores(pooled, question), cosine_scores(pooled, conv))
        scores = score_pool(pool, found.cosine, found.tf, found.dl, q_tokens, cfg, sessions=found.sessions,
                            lengths=found.lengths)
        if gate_cos is not None:
            scores = replace(scores, gate_cosine=gate_cos.astype(scores.cosine.dtype))
        care = self._care(query, question if question is not None else q, conv is not None, scores, pool_facts, limit)
        if care is not None:
            scores = replace(scores, care=care)
        return _Scored(scores, pool_facts, found.scorable, core)

    def _care(self, query: str, question: np.ndarray, in_conversation: bool, scores: PoolScores,
              facts: Sequence[StoredFact], limit: int) -> np.ndarray | None:
        """The pool rows the gate may keep as care facts (:mod:`~.ranking.care`): among the ``limit`` best,
        allergies, medications and diets, when the question is personal and about food or health.

        Cheapest test first: only rows the cosine rules would drop and the care bar admits are read, and
        the question's domains are measured only when one of them is a care fact."""
        cfg = self.config
        if (cfg.gate != "relevance" or cfg.gate_care is None
                or not (in_conversation or is_personal(query))):
            return None
        cosine = scores.cosine if scores.gate_cosine is None else scores.gate_cosine
        top = rank_order(scores.rank_score, scores.cosine, limit)
        top = top[(cosine[top] < cfg.gate_keep) & (cosine[top] >= cfg.gate_care_cosine)]
        rows = [i for i in top.tolist() if is_care_fact(facts[i].content)]
        if not rows:
            return None
        prototypes = self._care_prototypes(question.shape[0])
        if prototypes is None or care_share(question, *prototypes) < cfg.gate_care:
            return None
        mask = np.zeros(scores.rows.shape[0], dtype=bool)
        mask[rows] = True
        return mask

    def _care_prototypes(self, dim: int) -> tuple[np.ndarray, np.ndarray] | None:
        """The domain prototypes embedded once by this engine's embedder (``None`` while they cannot be).

        A failure is not remembered: the next recall that needs them tries again, so after a passing fault
        the engine answers as a fresh one would."""
        with self._prototypes_lock:
            if self._prototypes is None:
                texts, starts = prototype_texts()
                try:
                    self._prototypes = (l2_normalise(self.embedder.embed_documents(texts)), starts)
                except Exception as exc:  # noqa: BLE001 - the signal is optional: the gate works without it
                    logger.warning("care-domain prototypes could not be embedded (%s): the gate's care signal is "
                                   "off for this recall", exc)
                    return None
            matrix, starts = self._prototypes
        return (matrix, starts) if matrix.shape[1:] == (dim,) else None

    @staticmethod
    def _core_rows(cache: EntityCache, allowed: np.ndarray | None, q: np.ndarray) -> _CoreRows | None:
        """The core facts a recall may append (live, not expired, matching ``where``: among ``allowed``,
        ``None`` meaning every live row), with their cosines to ``q``; ``None`` when there are none."""
        rows = cache.core_rows()  # memoised and kept current by writes: nothing to do without core facts
        if rows.size and allowed is not None:
            rows = rows[np.isin(rows, allowed)]
        if rows.size == 0:
            return None
        cosine = cosine_scores(cache.matrix[rows], q)
        return _CoreRows(rows, cosine, cache.recency[rows].copy(), cache.pool_facts(rows))

    def _core_added(self, scored: _Scored, chosen: np.ndarray) -> list[tuple[int, int]]:
        """The core facts to append after the pool positions ``chosen``, in order: (position among
        ``scored.core``, position in the pool or -1 when the fact was not a candidate)."""
        core = scored.core
        if core is None:
            return []
        pool_rows = scored.scores.rows
        pos = np.full(core.rows.shape[0], -1, dtype=np.int64)
        if pool_rows.shape[0]:
            order = np.argsort(pool_rows, kind="stable")
            sorted_rows = pool_rows[order]
            at = np.minimum(np.searchsorted(sorted_rows, core.rows), sorted_rows.shape[0] - 1)
            hit = sorted_rows[at] == core.rows
            pos[hit] = order[at[hit]]
        is_chosen = np.zeros(pool_rows.shape[0] + 1, dtype=bool)  # the last slot (pos -1): not in the pool
        is_chosen[np.asarray(chosen, dtype=np.int64)] = True
        picks = core_picks(core.cosine, core.recency, is_chosen[pos], self.config.core_limit)
        return [(p, int(pos[p])) for p in picks.tolist()]

    def _core_fact(self, scored: _Scored, p: int, i: int) -> RecalledFact:
        """Core fact ``p`` of ``scored.core`` as recall returns it: with its pool scores when it was a
        candidate (pool position ``i`` >= 0), else with its cosine and 0 for the lexical and rank scores."""
        if i >= 0:
            return self._fact(scored, i)
        core = scored.core
        assert core is not None
        return self._recalled(core.facts[p], float(core.cosine[p]), 0.0, 0.0)

    def _with_core(
        self, scored: _Scored, order: np.ndarray, fate: Sequence[str], candidates: list[CandidateScore]
    ) -> list[CandidateScore]:
        """``explain``'s candidates with the core facts recall appends moved (pool candidates) or added (the
        others, ``source="core"``, numbered after the pool) to the end, kept, with the fate :data:`CORE`:
        the kept candidates in list order are exactly what ``recall`` returns."""
        added = self._core_added(scored, order[np.asarray([r in (KEPT, JUDGED_RELEVANT) for r in fate], dtype=bool)])
        if not added:
            return candidates
        at = {i: k for k, i in enumerate(order.tolist())}  # pool position -> index in candidates
        moved: set[int] = set()
        tail: list[CandidateScore] = []
        rank = len(order)
        for p, i in added:
            if i >= 0:
                moved.add(at[i])
                tail.append(replace(candidates[at[i]], kept=True, reason=CORE))
                continue
            f = self._core_fact(scored, p, i)
            rank += 1
            tail.append(CandidateScore(
                rank=rank, id=f.id, content=f.content,
                created_at=f.created_at, cosine=f.cosine, bm25=0.0, lexical=0.0, rank_score=0.0, kept=True,
                reason=CORE, metadata=f.metadata, source="core",
            ))
        return [c for k, c in enumerate(candidates) if k not in moved] + tail

    def _conversation(self, query: str, context: Any) -> tuple[list[str], str | None]:
        """The turns of ``context`` that recall reads (a judge is shown them too) and the conversation text
        that moves the query: ``None`` without read turns, with ``context_weight`` 0, or for a courtesy turn."""
        read = recent_turns(check_context(context), self.config.context_turns)
        if not read or self.config.context_weight <= 0 or self._is_courtesy(query):
            return read, None
        return read, conversation_text(query, read)

    def _is_courtesy(self, query: str) -> bool:
        """A courtesy turn ("Thanks!", "ok"): it reads no context (:func:`~.ranking.conversation.is_courtesy`)."""
        key = (self.config.tokenizer, self.config.stemmer)
        return is_courtesy(analyzer(*key)(query), _courtesy_terms(key))

    @staticmethod
    def _allowed_rows(cache: EntityCache, where: Where | None) -> np.ndarray | None:
        """Live rows that are not expired and match ``where``; ``None`` when that is every live row."""
        expired = cache.expired_rows(time.time())
        if where is None and expired.size == 0:
            return None
        rows = cache.matching_rows(where) if where is not None else cache.live_rows()
        if expired.size:
            rows = rows[~np.isin(rows, expired, assume_unique=True)]
        return rows

    def _fact(self, scored: _Scored, i: int) -> RecalledFact:
        s = scored.scores
        return self._recalled(scored.facts[i], float(s.cosine[i]), float(s.lexical[i]), float(s.rank_score[i]))

    @staticmethod
    def _recalled(f: StoredFact, cosine: float, lexical: float, rank_score: float) -> RecalledFact:
        meta = dict(f.metadata)
        meta.setdefault("times_seen", f.times_seen)
        if f.last_seen:
            meta.setdefault("last_seen", f.last_seen)
        if f.session_id is not None:
            meta.setdefault("session_id", f.session_id)
        if f.updated_at:
            meta.setdefault("updated_at", f.updated_at)
        if f.expires_at:
            meta.setdefault("expires_at", f.expires_at)
        return RecalledFact(
            id=f.id,
            entity_id=f.entity_id,
            content=f.content,
            created_at=f.created_at,
            cosine=cosine,
            lexical=lexical,
            rank_score=rank_score,
            metadata=meta,
        )

    def _judgement(self, query: str, scored: _Scored, limit: int, turns: list[str]) -> _Judgement | None:
        """The judge's verdict on the best candidates (``turns``: the earlier turns it is shown); ``None``
        when no judge applies (none set, the gate off, no candidate). A failure is logged and returned."""
        if self.judge is None or self.config.gate == "off":
            return None
        seen = judge_pool(scored.scores, limit, self.config)
        if seen.shape[0] == 0:
            return None
        facts = [scored.facts[i].content for i in seen.tolist()]
        try:
            answer = self._call_judge(query, facts, turns)
        except TimeoutError as exc:
            logger.warning("judge gave no answer (%s); the gate decides instead", exc)
            return _Judgement(seen, None, f"timed out: {exc}")
        except Exception as exc:
            logger.warning("judge raised %s; the gate decides instead", type(exc).__name__, exc_info=True)
            return _Judgement(seen, None, f"raised {type(exc).__name__}: {exc}")
        relevant = as_indices(answer, len(facts))
        if relevant is None:
            failure = f"answered {_short_repr(answer)}, not a list of indices 0..{len(facts) - 1}"
            logger.warning("judge %s; the gate decides instead", failure)
            return _Judgement(seen, None, failure)
        return _Judgement(seen, relevant)

    def _call_judge(self, query: str, facts: list[str], context: list[str]) -> Any:
        """``judge(query, facts, context)`` on a thread of its own, waited for at most ``judge_timeout``
        seconds (``TimeoutError`` after that). The thread is a daemon, so a judge that never returns holds
        only that thread, never the recall nor the interpreter's exit; at most :data:`MAX_JUDGE_CALLS` run
        at once."""
        judge = self.judge
        assert judge is not None
        if not self._judge_slots.acquire(blocking=False):
            raise TimeoutError(f"{MAX_JUDGE_CALLS} earlier judge calls are still running")
        result: list[Any] = []
        error: list[Exception] = []
        done = threading.Event()

        def run() -> None:
            try:
                result.append(judge(query, list(facts), list(context)))
            except Exception as exc:
                error.append(exc)
            finally:
                self._judge_slots.release()
                done.set()

        worker = threading.Thread(target=contextvars.copy_context().run, args=(run,), name="memori-judge",
                                  daemon=True)
        try:
            worker.start()
        except BaseException:
            self._judge_slots.release()
            raise
        if not done.wait(self.judge_timeout):
            raise TimeoutError(f"nothing within judge_timeout={self.judge_timeout:g} s")
        if error:
            raise error[0]
        if not result:
            raise RuntimeError("the judge's thread ended without an answer")
        return result[0]

    def recall(
        self,
        query: str,
        entity_id: str,
        limit: int | None = None,
        *,
        query_vector: Any | None = None,
        where: dict[str, Any] | None = None,
        context: Sequence[str] | str | None = None,
    ) -> list[RecalledFact]:
        """The facts of ``entity_id`` most relevant to ``query``, best first, threshold applied.

        A blank query or ``limit <= 0`` returns ``[]`` without touching the
        embedder or the store. ``query_vector`` skips embedding the query (it
        must come from the same embedder as the stored facts). ``where``
        restricts recall to facts whose own metadata matches (``{"source":
        "chat"}``, ``{"topic": {"$in": ["food", "health"]}}``; keys are ANDed),
        before the candidate pool is sized. Expired facts are never recalled.
        ``context`` is the conversation before ``query`` (earlier user turns,
        oldest first, optionally the last assistant reply): the latest
        ``config.context_turns`` of them move the search towards what the
        conversation is about, so a follow-up recalls what an earlier turn named.
        With a ``judge`` (see ``__init__``) the judge, shown those turns too, chooses instead of the gate.
        """
        query = check_query(query)
        entity_id = check_entity_id(entity_id)
        limit = check_limit(limit, self.config.limit)
        where = check_where(where)
        read, conversation = self._conversation(query, context)
        if not query.strip() or limit <= 0:
            return []
        scored = self._score(query, entity_id, limit, query_vector, where, conversation)
        if isinstance(scored, str):
            return []
        judged = self._judgement(query, scored, limit, read)
        if judged is not None and judged.relevant is not None:
            chosen = judged_select(judged.seen, judged.relevant, limit)  # the judge decided
        else:
            chosen = select(scored.scores, limit, self.config)
        # Then the core facts not chosen (at most core_limit, most relevant first): on every turn.
        core = [self._core_fact(scored, p, i) for p, i in self._core_added(scored, chosen)]
        return [*(self._fact(scored, i) for i in chosen.tolist()), *core]

    def explain(
        self,
        query: str,
        entity_id: str,
        limit: int | None = None,
        *,
        query_vector: Any | None = None,
        where: dict[str, Any] | None = None,
        context: Sequence[str] | str | None = None,
    ) -> RecallReport:
        """Recall with every pool candidate's score parts and fate; ``print()`` it for a table."""
        query = check_query(query)
        entity_id = check_entity_id(entity_id)
        limit = check_limit(limit, self.config.limit)
        where = check_where(where)
        cfg = self.config
        read, conversation = self._conversation(query, context)
        q_tokens = analyzer(cfg.tokenizer, cfg.stemmer)(query)
        w_cos, w_lex = fusion_weights(len(q_tokens), cfg)

        def empty(note: str) -> RecallReport:
            return RecallReport(query, entity_id, limit, q_tokens, w_cos, w_lex, cfg.relevance_threshold, 0, 0, [], note,
                                conversation=conversation, context_weight=cfg.context_weight if conversation else 0.0)

        if not query.strip():
            return empty("blank query: nothing is recalled")
        if limit <= 0:
            return empty(f"limit {limit} <= 0: nothing is recalled")
        scored = self._score(query, entity_id, limit, query_vector, where, conversation)
        if isinstance(scored, str):
            return empty(scored)
        s = scored.scores
        order, fate, gate = fates(s, limit, cfg)
        gate_kind, gate_opened, gate_note = gate.kind, gate.opened, gate.note
        judged = self._judgement(query, scored, limit, read)
        if judged is not None and judged.relevant is not None:
            order, fate = judged_fates(s, judged.seen, judged.relevant, limit)
            kept_n = fate.count(JUDGED_RELEVANT)
            gate_kind, gate_opened = "judge", kept_n > 0
            gate_note = (f"judge: {len(judged.relevant)} of the {len(judged.seen)} best candidates judged relevant, "
                         f"{kept_n} kept (limit {limit}); without the judge, {gate.note}")
        elif judged is not None:
            gate_note = (f"judge failed on the {len(judged.seen)} best candidates ({judged.failure}); fell back to "
                         f"the {gate.kind} gate: {gate.note}")
        candidates = []
        for rank, (i, reason) in enumerate(zip(order.tolist(), fate), start=1):
            fact = self._fact(scored, i)
            candidates.append(
                CandidateScore(
                    rank=rank,
                    id=fact.id,
                    content=fact.content,
                    created_at=fact.created_at,
                    cosine=fact.cosine,
                    bm25=float(s.bm25[i]),
                    lexical=fact.lexical,
                    rank_score=fact.rank_score,
                    kept=reason in (KEPT, JUDGED_RELEVANT),
                    reason=reason,
                    metadata=fact.metadata,
                    source=source_label(int(s.source[i])),
                    fused=float(s.fused[i]),
                    neighbour_bonus=float(s.bonus[i]),
                    gate_cosine=None if s.gate_cosine is None else float(s.gate_cosine[i]),
                )
            )
        candidates = self._with_core(scored, order, fate, candidates)
        return RecallReport(
            query, entity_id, limit, s.query_tokens, s.w_cos, s.w_lex,
            cfg.relevance_threshold, scored.rows_scored, len(order), candidates,
            gate=gate_kind, gate_opened=gate_opened, best_cosine=gate.best_cosine, gate_note=gate_note,
            conversation=conversation, context_weight=cfg.context_weight if conversation else 0.0,
        )

    # -- async twins --------------------------------------------------------

    async def _in_worker(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a blocking call on this engine's own worker threads (not the event loop's default executor,
        so calls waiting on a slow store can never starve unrelated ``to_thread`` work)."""
        with self._executor_lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(self.async_workers, thread_name_prefix="memori-recall")
        ctx = contextvars.copy_context()
        call = functools.partial(ctx.run, fn, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._executor, call)

    async def aadd(self, entity_id: str, facts: Sequence[str] | str, ids: Sequence[str] | None = None,
                   created_at: Any = None, metadata: Any = None, *, session_id: Any = None,
                   supersedes: Sequence[str] | str | None = None, expires_at: Any = None,
                   progress: Progress | None = None, core: bool | Sequence[bool] = False) -> list[str]:
        """Async :meth:`add` (runs in a worker thread; ``progress`` is called from it)."""
        return await self._in_worker(self.add, entity_id, facts, ids, created_at, metadata, session_id=session_id,
                                     supersedes=supersedes, expires_at=expires_at, progress=progress, core=core)

    async def arecall(self, query: str, entity_id: str, limit: int | None = None, *,
                      query_vector: Any | None = None, where: dict[str, Any] | None = None,
                      context: Sequence[str] | str | None = None) -> list[RecalledFact]:
        """Async :meth:`recall` (runs in a worker thread)."""
        return await self._in_worker(self.recall, query, entity_id, limit, query_vector=query_vector, where=where,
                                     context=context)

    async def aexplain(self, query: str, entity_id: str, limit: int | None = None, *,
                       query_vector: Any | None = None, where: dict[str, Any] | None = None,
                       context: Sequence[str] | str | None = None) -> RecallReport:
        """Async :meth:`explain` (runs in a worker thread)."""
        return await self._in_worker(self.explain, query, entity_id, limit, query_vector=query_vector, where=where,
                                     context=context)

    async def adelete(self, entity_id: str, ids: Sequence[str]) -> list[str]:
        """Async :meth:`delete`."""
        return await self._in_worker(self.delete, entity_id, ids)

    async def aforget(self, entity_id: str) -> None:
        """Async :meth:`forget`."""
        await self._in_worker(self.forget, entity_id)

    async def alist(self, entity_id: str, **kwargs: Any) -> list[StoredFact]:
        """Async :meth:`list`."""
        return await self._in_worker(self.list, entity_id, **kwargs)

    async def aget(self, entity_id: str, ids: Sequence[str] | str) -> list[StoredFact]:
        """Async :meth:`get`."""
        return await self._in_worker(self.get, entity_id, ids)

    async def aupdate(self, entity_id: str, id: str, **kwargs: Any) -> StoredFact:
        """Async :meth:`update`."""
        return await self._in_worker(self.update, entity_id, id, **kwargs)

    async def aexport(self, entity_id: str, *, include_vectors: bool = False) -> list[dict[str, Any]]:
        """Async :meth:`export`."""
        return await self._in_worker(self.export, entity_id, include_vectors=include_vectors)

    async def aimport_(self, entity_id: str, records: Sequence[dict[str, Any]], *, reembed: bool = False,
                       progress: Progress | None = None) -> list[str]:
        """Async :meth:`import_`."""
        return await self._in_worker(self.import_, entity_id, records, reembed=reembed, progress=progress)
