"""What the engine and its cache need from a store: rows (:class:`RowStore`) and revisions (:class:`RevisionStore`).

:class:`FactStore` is both, plus where a cache may keep files beside the store
and what to run when the store closes. Every attribute the engine reads is
declared here, with its default: a store class that subclasses
:class:`FactStore` inherits the defaults, one that only matches it
structurally must set them itself. :class:`~memori_core.store.ChromaStore` is
the production store and :class:`~memori_core.store.InMemoryFactStore` the
reference one; ``tests/store_conformance.py`` is the behaviour both share.
"""

from __future__ import annotations

import functools
import logging
import sys
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

import numpy as np

from ..facts import StoredFact
from .rows import EntityColumns, EntityRows
from .unreachable import StoreUnreachable

__all__ = [
    "CacheFolder", "CloseCallbacks", "ClosedError", "ClosesWithCallbacks", "EntityColumns", "EntityRows", "FactStore",
    "PartialDeleteError", "PartialWriteError", "RevisionStore", "RowStore", "WriteOutcomeUnknown", "check_upsert_counts",
    "join_revision", "refused_once_closed", "settle_failed_delete", "settle_failed_write", "split_revision",
    "unanswered", "when_open",
]

INTENT_MARK = "~"
"""Separates a revision token from the ids of the writes in flight (or in doubt) it carries."""


def split_revision(token: str | None) -> tuple[str | None, frozenset[str]]:
    """A revision token as (the committed token, the ids of the write intents it carries)."""
    if token is None or INTENT_MARK not in token:
        return token, frozenset()
    head, _, tail = token.partition(INTENT_MARK)
    return head, frozenset(i for i in tail.split(",") if i)


def join_revision(committed: str | None, intents: frozenset[str] | set[str]) -> str | None:
    """The token :meth:`RevisionStore.revision` returns for a committed token and the write intents pending on it."""
    if not intents:
        return committed
    return f"{committed or ''}{INTENT_MARK}{','.join(sorted(intents))}"


class ClosedError(RuntimeError):
    """A store, or an engine, used after its ``close()``; the message names which, and what to do."""


_Method = TypeVar("_Method", bound=Callable[..., Any])


def refused_once_closed(closed_error: Callable[[Any, str], ClosedError | None]) -> Callable[[_Method], _Method]:
    """A decorator for the methods of an object that can be closed (a store, an engine): each call first asks
    ``closed_error(self, method_name)``, and raises the :class:`ClosedError` it returns, if any, instead of
    running the method."""

    def decorate(method: _Method) -> _Method:
        @functools.wraps(method)
        def run(self: Any, *args: Any, **kwargs: Any) -> Any:
            error = closed_error(self, method.__name__)
            if error is not None:
                raise error
            return method(self, *args, **kwargs)

        return cast(_Method, run)

    return decorate


def _closed_store_error(store: Any, what: str) -> ClosedError | None:
    """The error a call ``what`` of ``store`` raises once the store is closed, naming the store; else ``None``. A
    store that declares no ``closed`` (one subclassing :class:`RowStore` only) is open."""
    if not getattr(store, "closed", False):
        return None
    where = getattr(store, "location", None)
    name = f"{type(store).__name__}({where!r})" if where else type(store).__name__
    return ClosedError(f"{name} is closed (store.close() or engine.close() was called): {what} cannot run; "
                       "open a new store and engine")


when_open = refused_once_closed(_closed_store_error)
"""A store method that raises :class:`ClosedError` naming the store once ``self.closed`` is true (after its
``close()``), instead of whatever the released client would raise."""


class PartialWriteError(RuntimeError):
    """A write that failed after some of its batches were stored.

    ``stored_ids`` are the fact ids that are in the store now, ``unstored_ids``
    those that are not: retrying with the unstored ones only is exact. The
    original error is the ``__cause__``.
    """

    def __init__(self, message: str, stored_ids: Sequence[str], unstored_ids: Sequence[str]) -> None:
        super().__init__(message)
        self.stored_ids = list(stored_ids)
        self.unstored_ids = list(unstored_ids)


class PartialDeleteError(PartialWriteError):
    """A delete that failed after some of the facts were deleted.

    ``deleted_ids`` are no longer in the store, ``remaining_ids`` still are:
    deleting the remaining ones again is exact. (As a :class:`PartialWriteError`,
    ``stored_ids`` are the remaining ids and ``unstored_ids`` the deleted ones.)
    The original error is the ``__cause__``.
    """

    def __init__(self, message: str, deleted_ids: Sequence[str], remaining_ids: Sequence[str]) -> None:
        super().__init__(message, remaining_ids, deleted_ids)
        self.deleted_ids = list(deleted_ids)
        self.remaining_ids = list(remaining_ids)


class WriteOutcomeUnknown(TimeoutError):
    """A write that sent a change to the store and got no answer (its request timed out, or the connection
    dropped before the reply): the change may have been made, or may be made later by a server that was paused.

    ``entity_id``, ``operation`` (``"add"``, ``"update"``, ``"delete"``, ``"forget"``...), and what was asked:
    ``ids`` (the fact ids given or derived) and ``texts``. Check what the store holds with ``engine.get`` /
    ``engine.list`` or a recall before writing again; adding the same text again is safe (it is found, not
    stored twice). A :class:`TimeoutError`, so code that treats timeouts as an outage still does; the store's
    own error is the ``__cause__``.
    """

    def __init__(self, entity_id: str, operation: str = "write", *, ids: Sequence[str] = (),
                 texts: Sequence[str] = ()) -> None:
        super().__init__(entity_id, operation)
        self.entity_id = entity_id
        self.operation = operation
        self.ids = list(ids)
        self.texts = list(texts)

    def asked(self, operation: str, *, ids: Sequence[str] = (), texts: Sequence[str] = ()) -> WriteOutcomeUnknown:
        """This error naming the call that raised it (the engine's write method fills it in on its way out)."""
        self.operation = operation
        self.ids, self.texts = list(ids) or self.ids, list(texts) or self.texts
        return self

    def __str__(self) -> str:
        cause = self.__cause__
        why = f" ({type(cause).__name__}: {cause})" if cause is not None else ""
        asked = "".join([f"; ids {', '.join(map(repr, self.ids))}" if self.ids else "",
                         f"; texts {', '.join(repr(t[:80]) for t in self.texts[:5])}" if self.texts else ""])
        return (f"{self.operation} for entity {self.entity_id!r} got no answer from the store{why}{asked}: the change "
                "may have been made (a paused server can still make it later); check with engine.get or "
                "engine.list (or a recall) before writing again; adding the same text again is safe")


def unanswered(exc: BaseException) -> bool:
    """Whether ``exc`` says a request reached the store and no answer came back (a read or write timeout, a
    connection dropped mid-reply), so what it asked for may have been done. A connection never made (refused, a
    connect timeout) or a deadline passed before a request was sent is not: nothing of that request was sent."""
    if isinstance(exc, StoreUnreachable):
        return exc.sent
    httpx = sys.modules.get("httpx")  # not imported: no httpx error can have been raised
    if httpx is None:
        return False
    if isinstance(exc, (httpx.ConnectTimeout, httpx.PoolTimeout)):
        return False
    return isinstance(exc, (httpx.TimeoutException, httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError))


def check_upsert_counts(facts: Sequence[StoredFact], embeddings: np.ndarray) -> None:
    """Raise ``ValueError`` when an upsert's facts and embeddings differ in number (:meth:`RowStore.upsert`
    checks it before writing anything; a store that writes its own ``upsert`` may call it)."""
    if len(facts) != len(embeddings):
        raise ValueError(f"{len(facts)} facts but {len(embeddings)} embeddings")


def settle_failed_write(
    logger: logging.Logger, entity_id: str, ids: Sequence[str], stored: Sequence[bool], error: BaseException,
    note: str = "",
) -> None:
    """After a write of ``ids`` raised ``error``, what the store holds decides (``stored``: per id, whether it
    holds what was written): every one, a warning and the write stands; none, ``error`` is raised; some,
    :class:`PartialWriteError` names both parts (``note`` ends its message)."""
    stored_ids = [i for i, ok in zip(ids, stored) if ok]
    if len(stored_ids) == len(ids):
        logger.warning("entity %r: the store raised %r, but every fact of the write landed", entity_id, error)
        return
    if not stored_ids:
        raise error
    raise PartialWriteError(
        f"stored {len(stored_ids)} of {len(ids)} facts for entity {entity_id!r} before failing: {error}{note}",
        stored_ids, [i for i, ok in zip(ids, stored) if not ok],
    ) from error


def settle_failed_delete(
    logger: logging.Logger, entity_id: str, ids: Sequence[str], remaining: Sequence[str], error: BaseException
) -> None:
    """After a delete of ``ids`` (each once) raised ``error``, what the store still holds of them (``remaining``)
    decides: none, a warning and the delete stands; all, ``error`` is raised; some, :class:`PartialDeleteError`
    names both parts."""
    if not remaining:
        logger.warning("entity %r: the store raised %r, but every fact of the delete is gone", entity_id, error)
        return
    if len(remaining) == len(ids):
        raise error
    left = set(remaining)
    raise PartialDeleteError(
        f"deleted {len(ids) - len(remaining)} of {len(ids)} facts of entity {entity_id!r} before failing: {error}",
        [i for i in ids if i not in left], remaining,
    ) from error


class RowStore(Protocol):
    """Facts and their embeddings, isolated per entity.

    Every method takes the entity and must filter by it inside the store's own
    query, so one entity's rows are never read for another; two entities may
    hold facts with the same id. Within one call, fact ids are distinct, and
    the facts a write is given are of the entity it names (the engine
    guarantees both; a store may raise otherwise).

    Round trip: a fact reads back with the fields it was written with, except
    that empty strings read back as ``None`` (``session_id``, ``created_at``,
    ``last_seen``, ``updated_at``, ``expires_at``) and user metadata reads back
    as its JSON form (keys sorted; ``{}`` for none). ``get`` returns facts
    without their embedding.

    Failures: ``upsert``, ``update_seen`` and ``delete`` may write in batches.
    When one fails, the store reads back what it holds: if every fact of the
    call turned out written (or deleted) the call returns, if none did the
    store's error is raised, and otherwise :class:`PartialWriteError`
    (:class:`PartialDeleteError` for a delete) names both parts.
    """

    def load_entity(self, entity_id: str) -> EntityRows:
        """Every row of ``entity_id`` with its embedding (paged inside the store as it needs), in the store's
        order: the order rows were first written, a rewritten row keeping its place."""
        ...

    def get(self, entity_id: str, ids: Sequence[str]) -> list[StoredFact]:
        """The stored facts of ``entity_id`` among ``ids``, each once, in no particular order (unknown ids are
        left out)."""
        ...

    def present(self, entity_id: str, ids: Sequence[str]) -> list[str]:
        """Those of ``ids`` that are stored for ``entity_id``, in the order given, each once."""
        ...

    def holding_texts(self, entity_id: str, text_ids: Sequence[str]) -> list[StoredFact]:
        """The stored facts of ``entity_id`` whose text derives one of ``text_ids``
        (:func:`~memori_core.text.text_fact_id`), whatever id each is stored under, in no particular order: how
        an add finds a fact whose text :meth:`~memori_core.RecallEngine.update` changed. One request (Chroma: a
        metadata key each row carries; rows an older version wrote carry none and are not found)."""
        ...

    def count(self, entity_id: str) -> int:
        """How many facts ``entity_id`` has stored."""
        ...

    def entity_ids(self) -> list[str]:
        """Every entity with at least one stored fact (superseded facts count), sorted. Reads the whole store:
        for operators (a backup, a migration, an erasure audit), not for a request path."""
        ...

    def dimension(self) -> int | None:
        """The dimension of the stored embeddings (a store holds one), ``None`` before the first write.

        Set by the first write and kept after every row is deleted."""
        ...

    @when_open
    def upsert(
        self,
        entity_id: str,
        facts: Sequence[StoredFact],
        embeddings: np.ndarray,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        """Insert or replace facts (by id) with their embeddings (one row per fact); ``progress(stored_so_far)``
        after each batch (the engine passes it only when its caller asked for progress, so a store may leave
        the argument out). Raises ``ValueError`` when the counts differ, before writing anything.

        A store that subclasses this protocol inherits this method, which refuses once the store is closed and
        checks the counts, and writes its rows in ``_write_rows(entity_id, facts, embeddings, progress)``
        (:class:`~memori_core.store.ChromaStore`, :class:`~memori_core.store.InMemoryFactStore`); a store that
        only matches the protocol writes ``upsert`` itself."""
        check_upsert_counts(facts, embeddings)
        self._write_rows(entity_id, facts, embeddings, progress)  # type: ignore[attr-defined]

    def update_seen(self, entity_id: str, facts: Sequence[StoredFact]) -> None:
        """Rewrite stored facts' fields (sightings, times, user metadata), keeping their embeddings; facts not
        stored are left out."""
        ...

    def delete(self, entity_id: str, ids: Sequence[str]) -> None:
        """Delete facts of ``entity_id`` by id (unknown ids are ignored)."""
        ...

    def forget(self, entity_id: str) -> None:
        """Delete every fact of ``entity_id`` and nothing else; a store that keeps a record of forgets
        (:meth:`RevisionStore.forgotten_at`) records the time first."""
        ...


class RevisionStore(Protocol):
    """Per-entity revision tokens, and the locks a write and its revision commit are held under.

    The engine tags its in-process copy of an entity with the token it read
    before loading it, and uses the copy only while :meth:`revision` is
    unchanged. Lock order and the write protocol: :mod:`memori_core.cache.coordinator`.
    """

    shared: bool = True
    """True when other processes may write to the same store (an HTTP server).

    The engine reads :meth:`revision` before every recall and reloads an
    entity when it changed; a store only this process writes to should answer
    it from memory (several engines of one process share the store), and the
    engine then also keeps the copy a first write builds and trusts it after a
    failed write. The default is True: assuming other writers costs reloads,
    assuming none when there are some costs stale answers."""

    request_timeout: float | None = None
    """Seconds any one request to the store may take; ``None``: no limit, or nothing leaves the process.

    Each write runs within twice this long (:mod:`memori_core.store.deadline`:
    a store that sends requests gives each the time left). A process that
    sees a write intent it did not make trusts a load again only once three
    times this long has passed since it first saw it."""

    def revision(self, entity_id: str) -> str | None:
        """A token that changes whenever ``entity_id``'s facts change; ``None`` before its first commit.

        While writes of the entity are in flight, or failed in a way that leaves
        their outcome unknown, the token carries their intents
        (:meth:`record_intent`): ``<committed token>~<intent>,<intent>``
        (:func:`split_revision` reads it). A committed token never holds ``~``."""
        ...

    def record_intent(self, entity_id: str, intent: str) -> bool:
        """Record, before a write changes any row of ``entity_id``, that the write ``intent`` (a fresh id made
        of ``[0-9a-f]``, and for an erase's mark ``-erase`` after it) is in flight: until
        :meth:`commit_revision` clears it (or :meth:`withdraw_intent` takes it back), :meth:`revision` carries it, in
        every process. Returns False when the store needs no intents (only this process writes to it: a
        failed write changes the token this process reads at once). Raises when the intent could not be
        recorded: the write must then not change anything.

        The default records none (False)."""
        return False

    def withdraw_intent(self, entity_id: str, intent: str) -> None:
        """Take back write ``intent`` (recorded by :meth:`record_intent`) of a write that changed nothing, without
        a new revision: :meth:`revision` no longer carries it. The default does nothing (no intents recorded)."""
        return None

    def forgotten_at(self, entity_id: str) -> float | None:
        """When ``entity_id`` was last forgotten (:meth:`RowStore.forget`; ``time.time()`` of the forgetting
        process, recorded before it deleted anything), as every process reads it and kept when the store
        reopens; ``None`` when never. A held capture is not stored after a forget recorded after it was held.
        The default keeps no record (``None``)."""
        return None

    def bump_revision(self, entity_id: str) -> str:
        """Record that ``entity_id`` changed (after a write, or a failed one); returns the new token."""
        ...

    def commit_revision(self, entity_id: str, base: str | None, intent: str | None = None) -> tuple[str, bool]:
        """Record a change made by a writer whose copy was at ``base``: the new token (as :meth:`revision`
        reads it right after), and whether that write is the only change since ``base`` (so the writer may
        update its copy in place). Clears the write's ``intent`` (from :meth:`record_intent`), if any. Call it
        while holding :meth:`write_lock`."""
        ...

    def write_lock(self, entity_id: str) -> AbstractContextManager[Any]:
        """A lock held around each write of ``entity_id`` and its revision commit (shared by this
        process's writers of the same store; different entities do not wait for each other)."""
        ...


@dataclass(frozen=True)
class CacheFolder:
    """Where a recall cache may keep files for one store (its snapshots, :mod:`memori_core.cache.snapshot_files`).

    ``path`` is reserved for the cache of this store's collection and may not
    exist yet: the cache creates it, and its parent, when it first writes. Its
    grandparent is the store's own folder, which the cache never creates (a
    store folder that is gone means there is nothing to keep files for).
    ``collection_id`` names the stored collection (unique, stable while it
    exists): a file the cache wrote for another collection is never used.
    """

    path: Path
    collection_id: str


class FactStore(RowStore, RevisionStore, Protocol):
    """A store the engine can use: rows and revisions, plus a cache's files beside it and work to run at close.

    Subclass it (as :class:`~memori_core.store.ChromaStore` and
    :class:`~memori_core.store.InMemoryFactStore` do) to inherit the declared
    defaults, or match it structurally and set every attribute.
    """

    cache_folder: CacheFolder | None = None
    """Where a cache may keep files for this store; ``None`` (the default): nowhere. Reads ``None`` once the
    store is closed."""

    closed: bool = False
    """``True`` once :meth:`close` has run its callbacks: every call to the store then raises
    :class:`ClosedError` naming it."""

    def on_close(self, callback: Callable[[], None]) -> None:
        """Run ``callback()`` when :meth:`close` is first called, while the store can still be read and written
        (callbacks run in the order registered). Raises :class:`ClosedError` (a ``RuntimeError``) once the store
        is closed."""
        ...

    def close(self) -> None:
        """Run the :meth:`on_close` callbacks, then release what the store holds and set :attr:`closed`.
        Idempotent."""
        ...

    @when_open
    def bump_revision(self, entity_id: str) -> str:
        """Record that ``entity_id`` changed (after a write, or a failed one); returns the new token. The default
        is :meth:`commit_revision` with no base."""
        return self.commit_revision(entity_id, None)[0]


class CloseCallbacks:
    """The callbacks a store's :meth:`FactStore.on_close` registered, run once by its ``close()``.

    Its lock is a leaf: callbacks run after it is released.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] | None = []

    def add(self, callback: Callable[[], None]) -> None:
        """Register ``callback``; ``RuntimeError`` once :meth:`run` has been called."""
        with self._lock:
            if self._callbacks is None:
                raise ClosedError("the store is closed (store.close() was called): open a new store")
            self._callbacks.append(callback)

    def run(self) -> None:
        """Run every callback once, in the order registered (later calls do nothing). All of them run even
        when one raises; the first error is raised afterwards."""
        with self._lock:
            callbacks, self._callbacks = self._callbacks or [], None
        error: BaseException | None = None
        for callback in callbacks:
            try:
                callback()
            except BaseException as exc:  # noqa: BLE001 - the others must still run; raised below
                error = error or exc
        if error is not None:
            raise error


def _nothing() -> None:
    """Nothing to let go of."""


class ClosesWithCallbacks:
    """The one ``on_close`` / ``close`` of the stores here (:class:`~memori_core.store.ChromaStore`,
    :class:`~memori_core.store.InMemoryFactStore`); a store sets ``self._closing = CloseCallbacks()`` first in its
    ``__init__`` (a store that fails to open is closed) and says what else it lets go of in :meth:`_held`.
    """

    _closing: CloseCallbacks
    cache_folder: CacheFolder | None
    closed: bool

    def on_close(self, callback: Callable[[], None]) -> None:
        """Run ``callback()`` when :meth:`close` is first called, before the store lets go of anything (callbacks
        run in the order registered). Raises :class:`ClosedError` (a ``RuntimeError``) once the store is
        closed."""
        self._closing.add(callback)

    def close(self) -> None:
        """Close the store: run the :meth:`on_close` callbacks (the recall cache writes its snapshots then, while
        the store is open), then set :attr:`closed` and let go of what the store holds (:meth:`_held`). An engine
        over the store closes with it: its pending captures are waited for first (the callbacks,
        :meth:`RecallEngine.close <memori_core.RecallEngine.close>`). Any call afterwards raises
        :class:`ClosedError` naming the store. Idempotent."""
        self.cache_folder = None
        let_go = self._held()
        try:
            self._closing.run()
        finally:
            self.closed = True
            let_go()

    def _held(self) -> Callable[[], None]:
        """Take what the store lets go of at close, before the callbacks run (so a second ``close``, even one
        racing the first, finds nothing), and return how to let go of it once they have; nothing here."""
        return _nothing
