"""The recall engine: long-term memory for many users over one store, recalled through per-entity caches.

:class:`RecallEngine` holds the store, the embedder, the config and the caches
(:mod:`memori_core.cache.coordinator`: freshness and locking, the lock order written there); its read path
is :mod:`.reads`, its write path :mod:`.writes` (with :mod:`.versions` and :mod:`.imports` beneath it), and
the async twins run either on the engine's own threads (:mod:`.workers`: one pool for reads, one for writes,
so a bulk import never delays a recall).
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import logging
import threading
import time
import weakref
from collections.abc import Sequence
from types import TracebackType
from typing import Any

import numpy as np

from ..cache import DEFAULT_MAX_CACHED_BYTES, EntityCache
from ..cache.coordinator import Coordinator
from ..config import RecallConfig
from ..embedders import Embedder, as_embedder, default_embedder
from ..explain import RecallReport
from ..facts import RecalledFact, StoredFact
from ..filters import check_reaches_valid, check_where
from ..judge import Judge
from ..lanes import DEFAULT_CAPTURE_WORKERS, Lanes
from ..minilm import threads_from_env
from ..outage import DEFAULT_OUTAGE_COOLDOWN, OutageBreaker, outage_breaker
from ..records import to_record
from ..store.base import ClosedError, FactStore
from ..validate import check_entity_id, check_id_list, check_session_id, iso_to_ts
from .closing import CLOSE_TIMEOUT, HELD_AT_CLOSE_SECONDS, engine_closed_error, when_open
from .progress import Progress
from .judging import MAX_JUDGE_CALLS, _check_judge
from .reads import ReadPath, _Scoring
from .versions import named_successors
from .swapped import warn_if_swapped
from .workers import READ, WRITE, AsyncWorkers
from .writes import _UNSET, Forgotten, WritePath


logger = logging.getLogger(__name__)


def _close_with_store(ref: weakref.ref[RecallEngine]) -> None:
    """The engine's ``store.on_close`` callback: the engine (if still alive) waits for its captures and closes."""
    engine = ref()
    if engine is not None:
        engine._shut(CLOSE_TIMEOUT, f"its store {engine.store!r} was closed")


def _analysis_settings(ref: weakref.ref[RecallEngine]) -> tuple[Any, Any]:
    """The engine's ``(tokenizer, stemmer)``, read at each call (its config may be replaced). Through a weak
    reference, so that the engine is no cycle and is freed, with its store, as soon as its last user drops it."""
    engine = ref()
    if engine is None:
        raise ClosedError("RecallEngine: the engine is gone")
    return engine.config.tokenizer, engine.config.stemmer


def _store_down(ref: weakref.ref[RecallEngine]) -> str | None:
    """The error the engine's store is failing with while its outage breaker is open, else ``None`` (its capture
    pool drops the captures not started when it closes then: :meth:`~memori_core.lanes.Lanes.close_down`)."""
    engine = ref()
    breaker = getattr(engine, "outage", None)
    if not isinstance(breaker, OutageBreaker) or not breaker.is_open:
        return None
    return breaker.error or "an outage"


def _check_flag(value: Any, name: str) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be a bool, got {type(value).__name__}")


class RecallEngine(ReadPath, WritePath):
    """Long-term memory for many users: add facts, recall the few that matter for a query.

    >>> engine = RecallEngine(store=ChromaStore.in_memory(), embedder=my_embed_fn)
    >>> engine.add("user-1", ["User is allergic to peanuts."])
    >>> engine.recall("what should I cook?", entity_id="user-1")

    Recall scores an in-process copy of each entity's rows (exactly, no ANN),
    kept fresh by this engine's own writes, and for stores shared between
    processes (HTTP) by a revision record read before each recall.

    Close it when the app stops (:meth:`close`, or ``with RecallEngine(...) as engine:``): its pending
    captures are stored first, then its store is closed.
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
        async_write_workers: int = 4,
        capture_workers: int = DEFAULT_CAPTURE_WORKERS,
        judge: Judge | None = None,
        judge_timeout: float = 10.0,
        outage_cooldown: float = DEFAULT_OUTAGE_COOLDOWN,
    ) -> None:
        """``store`` defaults to the embedded Chroma store in the user's data directory,
        ``embedder`` to the local all-MiniLM-L6-v2 (loaded on first use; a ``MEMORI_EMBED_THREADS`` that is not a
        positive integer is a ``ValueError`` here), ``config`` to :class:`RecallConfig` defaults.
        The async methods run on threads of the engine's own (not the event loop's default executor), in two
        pools so that a write never holds up a read: reads (``arecall``, ``anearest``, ``aexplain``, ``aentities``,
        ``acount``, ``alist``, ``aget``, ``ahistory``) on at most ``async_workers`` threads (default 8), writes
        and whole-user transfers (``aadd``, ``aupdate``, ``aexpire``, ``adelete``, ``arestore``, ``aforget``,
        ``aimport_``, ``aexport``) on at most ``async_write_workers`` (default 4); calls beyond that wait for a
        thread of their pool. So eight bulk ``aadd`` calls delay other writes, never another user's ``arecall``
        (:mod:`memori_core.engine.workers`). A write once called (``aadd``, ``aupdate``, ``aexpire``, ``adelete``,
        ``arestore``, ``aforget``, ``aimport_``) runs to its end even if the awaiting task is cancelled
        (``asyncio.wait_for``, a client disconnect): the caller gets ``CancelledError`` at once, the write lands
        (or fails, logged as a warning) afterwards; read the store to learn which.
        The adapters' background captures (``capture=True``) of this engine run on ``capture_workers``
        threads of its own (default eight per CPU, at most 32: :data:`~memori_core.lanes.DEFAULT_CAPTURE_WORKERS`;
        a capture mostly waits for the store and an LLM extractor): captures of one entity one at a time, in
        order, those of different entities in parallel.

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
        when the gate is off (``gate="off"``) or there is nothing to rank.

        ``outage_cooldown`` (seconds, default 10; 0: off) is for the framework adapters over this engine that
        fail open: after one of their store calls timed out or could not connect, they all skip memory for
        that long instead of waiting for the store on every call (``engine.outage``,
        :class:`~memori_core.outage.OutageBreaker`). The engine's own methods always call the store."""
        judge_timeout = _check_judge(judge, judge_timeout)
        if embedder is None:
            # The default MiniLM loads on first use; a bad MEMORI_EMBED_THREADS must fail here, not on every
            # later recall (where the adapters would fail open and run without memory).
            threads_from_env()
        self.outage: OutageBreaker = OutageBreaker(outage_cooldown)
        if store is None:
            from ..store.chroma import ChromaStore

            store = ChromaStore()
        if isinstance(store, type) or not callable(getattr(store, "on_close", None)):
            # A folder name or the class itself, e.g. RecallEngine(store="./memories"), would fail further down
            # with "'str' object has no attribute 'on_close'".
            got = f"the class {store.__name__}" if isinstance(store, type) else f"{type(store).__name__} {store!r}"
            raise TypeError(f"store must be a fact store such as ChromaStore(path=...) or ChromaStore.http(...), "
                            f"got {got}")
        self.store: FactStore = store
        self._embedder: Embedder | None = as_embedder(embedder) if embedder is not None else None
        self.config = config if config is not None else RecallConfig()
        if not isinstance(self.config, RecallConfig):
            raise TypeError(f"config must be a RecallConfig, got {type(self.config).__name__}")
        if embed_batch_size < 1:
            raise ValueError("embed_batch_size must be >= 1")
        self.embed_batch_size = embed_batch_size
        self._workers = AsyncWorkers(async_workers, async_write_workers)
        self.async_workers: int = async_workers
        """Threads of the pool the async reads run on."""
        self.async_write_workers: int = async_write_workers
        """Threads of the pool the async writes (and ``aimport_`` / ``aexport``) run on."""
        self.capture_lanes = Lanes(capture_workers, unreachable=functools.partial(_store_down, weakref.ref(self)))
        """The pool the adapters' background captures of this engine run on (:mod:`memori_core.lanes`)."""
        self._closed_by: str | None = None  # what closed the engine: every call raises ClosedError naming it
        self._close_lock = threading.Lock()
        self._close_finished = True
        self.judge: Judge | None = judge
        self.judge_timeout: float = judge_timeout
        self._judge_slots = threading.BoundedSemaphore(MAX_JUDGE_CALLS)
        self._prototypes: Any = None  # the gate's prototype sentences, embedded once (engine.gate_signals._Prototypes)
        self._prototypes_lock = threading.Lock()
        self._prototypes_failing = False  # the last try to embed them failed (warned once until one succeeds)
        try:  # before the cache's own callbacks (snapshots): the captures are stored before snapshots are written
            self.store.on_close(functools.partial(_close_with_store, weakref.ref(self)))
        except ClosedError:
            raise ClosedError(f"RecallEngine: the store {self.store!r} is closed (store.close() was called): "
                              "open a new store for the engine") from None
        # Caches, locks and the write protocol; the lock order is written down there.
        self._coord = Coordinator(
            self.store, max_cached_entities, max_cached_bytes, functools.partial(_analysis_settings, weakref.ref(self))
        )

    @property
    def embedder(self) -> Embedder:
        """The embedder in use (the local MiniLM is loaded on first use when none was given)."""
        if self._embedder is None:
            self._embedder = default_embedder()
        return self._embedder

    @when_open
    def count(self, entity_id: str, *, include_invalid: bool = False, include_expired: bool = True) -> int:
        """Number of ``entity_id``'s valid facts: stored and not superseded. It counts what :meth:`list` lists, so
        facts past their ``expires_at`` count by default (they are stored, listed and exported until deleted,
        though recall skips them); ``include_expired=False`` leaves them out: the facts recall could return now
        (``searchable: False`` ones aside). ``include_invalid=True`` counts every stored row, superseded facts
        and the versions :meth:`update` and :meth:`restore` kept included (read from the store alone, unless
        ``include_expired=False``)."""
        entity_id = check_entity_id(entity_id)
        _check_flag(include_invalid, "include_invalid")
        _check_flag(include_expired, "include_expired")
        if include_invalid and include_expired:
            counted = self.store.count(entity_id)
        else:
            with self._entity_lock(entity_id):
                cache = self._cache_for(entity_id)
                left_out = cache.uncounted_rows(time.time(), invalid=not include_invalid,
                                                expired=not include_expired)
                counted = self.store.count(entity_id) - len(left_out)
        if counted == 0:
            warn_if_swapped("count", None, entity_id, lambda _: False, stacklevel=3)
        return counted

    @when_open
    def entities(self) -> list[str]:
        """The ids of every entity (user) with at least one stored fact, superseded ones included, sorted:
        what to loop over to export, back up or migrate a whole store, or to audit it after an erasure (a
        forgotten user is not listed). Read from the store itself, all of it: an operator's call, not one for
        a request path. ``TypeError`` for a store that cannot list its entities (one without ``entity_ids``)."""
        entity_ids = getattr(self.store, "entity_ids", None)
        if not callable(entity_ids):
            raise TypeError(f"store {type(self.store).__name__} cannot list its entities (it has no entity_ids())")
        return list(entity_ids())

    @when_open
    def list(
        self,
        entity_id: str,
        *,
        limit: int = 100,
        offset: int = 0,
        session_id: str | None = None,
        where: dict[str, Any] | None = None,
        newest_first: bool = True,
        include_invalid: bool = False,
    ) -> list[StoredFact]:
        """A page of ``entity_id``'s valid facts, newest first (by ``created_at``, then order of addition).

        ``session_id`` and ``where`` (as in :meth:`recall`) narrow the list;
        expired facts are listed (they are stored until deleted) with their
        ``expires_at``. Facts no longer valid (superseded, or earlier versions
        kept by :meth:`update`), and those not valid yet (a change told ahead, ``add(..., valid_from=...)``,
        before its start) are listed only with ``include_invalid=True``.
        Page with ``offset``: ``list(e, offset=100)`` is the next 100.
        """
        entity_id = check_entity_id(entity_id)
        for name, value in (("limit", limit), ("offset", offset)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be an int >= 0, got {value!r}")
        if session_id is not None:
            session_id = check_session_id(session_id, 0)
        where = check_where(where)
        _check_flag(include_invalid, "include_invalid")
        if not include_invalid:
            check_reaches_valid(where, "list", "pass include_invalid=True (memori list --all)")
        with self._entity_lock(entity_id):
            cache = self._cache_for(entity_id)
            rows = cache.matching_rows(where) if where is not None else cache.live_rows()
            if not include_invalid:
                now = time.time()  # not valid: ended, or a change told ahead before its start
                invalid = np.union1d(cache.invalid_rows(now), cache.starting_rows(now))
                if invalid.size:
                    rows = rows[~np.isin(rows, invalid)]
            if session_id is not None:
                code = cache.session_code(session_id)
                rows = rows[cache.sessions[rows] == code] if code is not None else rows[:0]
            # Sorted as columns (created_at, then seq; ties keep row order); facts only for the page.
            page = cache.newest_first(rows, newest_first)[offset : offset + limit]
            return [f for f in map(cache.fact, page.tolist()) if f is not None]

    @when_open
    def history(self, entity_id: str, id: str) -> list[StoredFact]:
        """The versions of fact ``id``, oldest first: every fact linked to it by a supersede
        (``superseded_by`` / ``supersedes``) or an update (the ``<id>@v<n>`` rows it kept; a superseded fact
        said again keeps its earlier period so too), followed both ways. The last one is the valid fact when
        there is one (a fact with no history: ``[fact]``). Ordered by ``valid_to`` (the valid ones last), then
        by when each became valid (``valid_since``: a restored fact after the fact that superseded it), then by
        order of addition. A superseded period a restore kept as a version row names the fact that superseded it
        (:func:`~memori_core.engine.versions.named_successors`). An unknown id raises ``KeyError``."""
        entity_id = check_entity_id(entity_id)
        id_list = check_id_list(id, "id")
        if not isinstance(id, str) or len(id_list) != 1:
            raise TypeError(f"id must be one fact id (a str), got {type(id).__name__}")
        fid = id_list[0]
        with self._entity_lock(entity_id):
            cache = self._cache_for(entity_id)
            if fid not in cache.pos:
                raise KeyError(f"entity {entity_id!r} has no fact with id {fid!r}")
            linked = [f for f in map(cache.fact, cache.history_rows().tolist()) if f is not None]
            edges: dict[str, set[str]] = {}
            for f in linked:
                for other in ([f.superseded_by] if f.superseded_by else []) + list(f.supersedes):
                    edges.setdefault(f.id, set()).add(other)
                    edges.setdefault(other, set()).add(f.id)
            seen, todo = {fid}, [fid]
            while todo:
                for other in edges.get(todo.pop(), ()):
                    if other not in seen:
                        seen.add(other)
                        todo.append(other)
            rows = [cache.pos[i] for i in seen if i in cache.pos]
            facts = [f for f in map(cache.fact, rows) if f is not None]
        return named_successors(sorted(facts, key=lambda f: (f.valid_to is None, iso_to_ts(f.valid_to),
                                                             iso_to_ts(f.valid_since), f.seq, f.id)))

    @when_open
    def get(self, entity_id: str, ids: Sequence[str] | str) -> list[StoredFact]:
        """The stored facts of ``entity_id`` with these ids, in the order asked (unknown ids are left out)."""
        entity_id = check_entity_id(entity_id)
        id_list = check_id_list(ids, "ids")
        found = {f.id: f for f in self.store.get(entity_id, id_list)}
        return [found[i] for i in id_list if i in found]

    @when_open
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

    @when_open
    def wait_for_writes(self, entity_id: str) -> None:
        """Return once the writes of ``entity_id`` that other processes had under way at the call have ended (for
        at most the time a write in doubt takes to settle, :mod:`memori_core.cache.coordinator`); at once on a
        store only this process writes to. A writer's second look begins with it
        (:mod:`memori_core.capture.repeats`): a racing write it does not see then began after it looked."""
        self._coord.wait_for_writes(check_entity_id(entity_id))

    def clear_cache(self) -> None:
        """Forget the in-process copies (the next recall reloads from the store)."""
        self._coord.clear()

    # -- closing ------------------------------------------------------------

    @property
    def closed(self) -> bool:
        """Whether the engine is closed (:meth:`close`, or its store's ``close()``): every call then raises
        :class:`~memori_core.store.base.ClosedError`."""
        return self._closed_by is not None

    def close(self, timeout: float | None = CLOSE_TIMEOUT) -> bool:
        """Wait for this engine's pending background captures (at most ``timeout`` seconds; ``None``: no limit),
        then close the engine and its store (``store.close()``: an embedded store writes its cache snapshots and
        lets go of its folder). Returns ``True`` when no capture was left or dropped. Captures that have not
        started when ``timeout`` ends are dropped; so are they, at once, when the store is unreachable (the
        outage breaker is open, or a capture meets a timeout or refused connection while close waits), since each
        would only wait ``timeout`` for the same failure: closing over a dead server takes about one ``timeout``.
        Dropped captures are counted by their adapters (``capture_stats.dropped``) and logged once, with how
        many. First, the turns its adapters hold after a store outage get one attempt (within ``timeout``, at
        most :data:`~memori_core.engine.closing.HELD_AT_CLOSE_SECONDS`): the store is asked at once whether it
        answers, as ``flush()`` asks it; those it does not take are counted as dropped and named in one warning.

        Idempotent. Afterwards every call of the engine raises
        :class:`~memori_core.store.base.ClosedError` naming what was closed, and so does every call of the
        store; other engines over the same store close with it (they wait for their own captures first). Call
        it when the app stops using the engine (a shutdown hook, a lifespan's end), after the requests that
        use it have finished. ``with RecallEngine(...) as engine:`` closes it at the end of the block.
        """
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
                                    or not timeout >= 0):
            raise ValueError(f"timeout must be a number of seconds >= 0 or None, got {timeout!r}")
        finished = self._shut(timeout, "engine.close() was called")
        self.store.close()
        return finished

    def __enter__(self) -> RecallEngine:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def _shut(self, timeout: float | None, closed_by: str) -> bool:
        """Wait for the engine's captures (at most ``timeout`` s; those not started are dropped at once when the
        store is found unreachable), then refuse every call (``closed_by`` says why); ``True`` when no capture was
        left or dropped. Only the first call waits; later ones return what it found."""
        with self._close_lock:
            if self._closed_by is not None:
                return self._close_finished
            # The turns an outage kept from the store, which the adapters hold: one bounded attempt (the store
            # asked at once whether it answers, as a flush does), in the time close waits; then the captures.
            began = time.monotonic()
            self.capture_lanes.before_close(HELD_AT_CLOSE_SECONDS if timeout is None
                                            else min(timeout, HELD_AT_CLOSE_SECONDS))
            left = None if timeout is None else max(0.0, timeout - (time.monotonic() - began))
            closing = self.capture_lanes.close_down(left)
            self.capture_lanes.after_close()  # what the adapters still hold is named in the log, and dropped
            outage = outage_breaker(self)
            lost = outage.told_at_close() if outage is not None else None
            if lost is not None:  # said now, as its recovery or interpreter exit would have said it
                logger.warning("RecallEngine.close: the store had not answered again after %.0f s down (%s); "
                               "background captures skipped or failed meanwhile: %d (not stored)", lost.seconds,
                               outage.error, lost.lost_captures)
            finished = closing.finished and not closing.dropped
            if closing.dropped or closing.unreached or closing.running:
                logger.warning("RecallEngine.close: %s", closing.describe())
            self._closed_by = closed_by
            self._close_finished = finished
            self.capture_lanes.shutdown()
            self._workers.shutdown()
            return finished

    def _entity_lock(self, entity_id: str) -> contextlib.AbstractContextManager[None]:
        """Lock 2 of the entity for a read (:meth:`Coordinator.reading`: a fail-open call waits for it no longer
        than its time to reach the store)."""
        return self._coord.reading(entity_id)

    def _cache_for(self, entity_id: str) -> EntityCache:
        return self._coord.cache_for(entity_id)

    # -- async twins --------------------------------------------------------

    async def _read(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a blocking read on this engine's read threads."""
        self._refuse_if_closed(fn)
        return await self._workers.run(READ, fn, *args, **kwargs)

    async def _write(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a blocking write on this engine's write threads, to its end even if the caller is cancelled
        (:meth:`~memori_core.engine.workers.AsyncWorkers.run_to_end`)."""
        self._refuse_if_closed(fn)
        return await self._workers.run_to_end(WRITE, fn, *args, **kwargs)

    def _refuse_if_closed(self, fn: Any) -> None:
        if self._closed_by is not None:
            raise engine_closed_error(self._closed_by, getattr(fn, "__name__", "the call"))

    async def aadd(self, entity_id: str, facts: Sequence[str] | str, ids: Sequence[str] | None = None,
                   created_at: Any = None, metadata: Any = None, *, session_id: Any = None,
                   supersedes: Sequence[str] | str | None = None, expires_at: Any = None,
                   progress: Progress | None = None, core: bool | Sequence[bool] = False,
                   valid_from: Any = None) -> list[str]:
        """Async :meth:`add` (runs on a write thread; ``progress`` is called from it)."""
        return await self._write(self.add, entity_id, facts, ids, created_at, metadata, session_id=session_id,
                                 supersedes=supersedes, expires_at=expires_at, progress=progress, core=core,
                                 valid_from=valid_from)

    async def arecall(self, query: str, entity_id: str, limit: int | None = None, *,
                      query_vector: Any | None = None, where: dict[str, Any] | None = None,
                      context: Sequence[str] | str | None = None, as_of: Any = None) -> list[RecalledFact]:
        """Async :meth:`recall` (runs on a read thread; with a ``judge``, the judge is awaited on the event loop
        between the read thread's two parts, so a slow judge holds no read thread)."""
        if self.judge is None:
            return await self._read(self.recall, query, entity_id, limit, query_vector=query_vector, where=where,
                                    context=context, as_of=as_of)

        def arecall() -> list[RecalledFact] | _Scoring:  # the read thread's first part: up to the judge
            return self._recall_scored(self._request(query, entity_id, limit, query_vector, where, context, as_of))

        begun = await self._read(arecall)
        if isinstance(begun, list):
            return begun
        judged = await self._ajudgement(begun.query, begun.scored, begun.limit, begun.read)
        return await self._read(self._recall_chosen, begun, judged)

    async def anearest(self, query: str, entity_id: str, limit: int | None = None, *,
                       where: dict[str, Any] | None = None, as_of: Any = None) -> list[RecalledFact]:
        """Async :meth:`nearest` (runs on a read thread)."""
        return await self._read(self.nearest, query, entity_id, limit, where=where, as_of=as_of)

    async def aexplain(self, query: str, entity_id: str, limit: int | None = None, *,
                       query_vector: Any | None = None, where: dict[str, Any] | None = None,
                       context: Sequence[str] | str | None = None, as_of: Any = None) -> RecallReport:
        """Async :meth:`explain` (runs on a read thread)."""
        return await self._read(self.explain, query, entity_id, limit, query_vector=query_vector, where=where,
                                     context=context, as_of=as_of)

    async def ahistory(self, entity_id: str, id: str) -> list[StoredFact]:
        """Async :meth:`history`."""
        return await self._read(self.history, entity_id, id)

    async def arestore(self, entity_id: str, id: str, *, at: Any = None) -> StoredFact:
        """Async :meth:`restore`."""
        return await self._write(self.restore, entity_id, id, at=at)

    async def acount(self, entity_id: str, *, include_invalid: bool = False, include_expired: bool = True) -> int:
        """Async :meth:`count`."""
        return await self._read(self.count, entity_id, include_invalid=include_invalid,
                                include_expired=include_expired)

    async def aentities(self) -> list[str]:
        """Async :meth:`entities`."""
        return await self._read(self.entities)

    async def adelete(self, entity_id: str, ids: Sequence[str], *, told_by: Sequence[str] = (),
                      at: Any = None) -> list[str]:
        """Async :meth:`delete`."""
        return await self._write(self.delete, entity_id, ids, told_by=told_by, at=at)

    async def aforget(self, entity_id: str) -> Forgotten:
        """Async :meth:`forget`."""
        return await self._write(self.forget, entity_id)

    async def alist(self, entity_id: str, *, limit: int = 100, offset: int = 0, session_id: str | None = None,
                    where: dict[str, Any] | None = None, newest_first: bool = True,
                    include_invalid: bool = False) -> list[StoredFact]:
        """Async :meth:`list`."""
        return await self._read(self.list, entity_id, limit=limit, offset=offset, session_id=session_id,
                                     where=where, newest_first=newest_first, include_invalid=include_invalid)

    async def await_for_writes(self, entity_id: str) -> None:
        """Async :meth:`wait_for_writes` (waits on a read thread)."""
        await self._read(self.wait_for_writes, entity_id)

    async def aget(self, entity_id: str, ids: Sequence[str] | str) -> list[StoredFact]:
        """Async :meth:`get`."""
        return await self._read(self.get, entity_id, ids)

    async def aupdate(self, entity_id: str, id: str, *, text: str | None = None,
                      metadata: dict[str, Any] | None = None, expires_at: Any = _UNSET,
                      core: bool | None = None, at: Any = None) -> StoredFact:
        """Async :meth:`update`."""
        return await self._write(self.update, entity_id, id, text=text, metadata=metadata,
                                     expires_at=expires_at, core=core, at=at)

    async def aexpire(self, entity_id: str, id: str, *, told_by: Sequence[str] = (), at: Any = None) -> StoredFact:
        """Async :meth:`expire`."""
        return await self._write(self.expire, entity_id, id, told_by=told_by, at=at)

    async def acancel(self, entity_id: str, id: str, *, told_by: Sequence[str] = (), at: Any = None) -> StoredFact:
        """Async :meth:`cancel`."""
        return await self._write(self.cancel, entity_id, id, told_by=told_by, at=at)

    async def aexport(self, entity_id: str, *, include_vectors: bool = False) -> list[dict[str, Any]]:
        """Async :meth:`export` (on a write thread: a whole user's rows, which a recall must not wait behind; a
        read, so a cancelled call that has not started yet is dropped)."""
        self._refuse_if_closed(self.export)
        return await self._workers.run(WRITE, self.export, entity_id, include_vectors=include_vectors)

    async def aimport_(self, entity_id: str, records: Sequence[dict[str, Any]], *, reembed: bool = False,
                       progress: Progress | None = None) -> list[str]:
        """Async :meth:`import_` (runs on a write thread; ``progress`` is called from it)."""
        return await self._write(self.import_, entity_id, records, reembed=reembed, progress=progress)


def _named_for_the_engine(cls: type) -> None:
    """The public methods ``cls`` inherits from its mixins (``ReadPath.recall``, ``WritePath.add`` ...) take its
    name, so that a wrong call's ``TypeError`` reads ``RecallEngine.recall() got an unexpected keyword argument
    'k'``, naming the class a user holds, not an internal one."""
    for name in dir(cls):
        if name.startswith("_") or name in vars(cls):
            continue
        function = getattr(inspect.getattr_static(cls, name), "__func__", inspect.getattr_static(cls, name))
        while inspect.isfunction(function):
            function.__qualname__ = f"{cls.__name__}.{name}"
            function = getattr(function, "__wrapped__", None)


_named_for_the_engine(RecallEngine)
