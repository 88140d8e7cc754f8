"""A write's way through the coordinator (:class:`Writing`, the write side of
:class:`~memori_core.cache.coordinator.Coordinator`): the store's write lock held around it, its intent recorded
before it reads (shared stores), the erases other processes have in flight waited for, its revision committed,
and the writer's cached copy updated in place, adopted (an entity's first write) or dropped."""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..error_log import warn_briefly
from ..facts import StoredFact
from ..lanes import ERASURES, ForgottenError
from ..store import deadline
from ..store.base import FactStore, WriteOutcomeUnknown, split_revision, unanswered
from ..store.rows import EntityColumns
from ..text import analyzer
from . import intents
from .cache_update import CacheUpdate
from .columns import columns_from_store
from .entity import AnalyzerKey, EntityCache
from .entity_writes import Tokens
from .registry import CacheRegistry
from .snapshot_files import snapshot_files_for

logger = logging.getLogger(__name__)

_SETTLED = float("-inf")
"""A mark's first-seen time once it has settled."""
_COPY = object()
"""``Coordinator.writing``'s default base: the token of the cached copy."""
# Writes of at least this many facts tokenise them for the cache while the store writes.
_TOKENISE_BESIDE = 512


class Writing:
    """The writes of :class:`~memori_core.cache.coordinator.Coordinator` (a mixin: the state and the entity locks
    are the coordinator's, declared here)."""

    store: FactStore
    caches: CacheRegistry[EntityCache]
    settle: float
    _analyzer_key: Callable[[], AnalyzerKey]
    entity_lock: Callable[[str], threading.RLock]
    _marks_seen: dict[str, dict[str, float]]
    _marks_lock: threading.Lock

    def write_and_tokenise(self, facts: Sequence[StoredFact], write: Callable[[], None]) -> Tokens | None:
        """Run ``write`` (the store write of ``facts``); for a large write, tokenise the facts' texts for the
        cached copy meanwhile, on a helper thread.

        Tokenising is most of the cost of bringing a copy up to date, and Chroma
        releases the GIL while it writes, so the two overlap. The tokens are
        only used once the write has succeeded (:meth:`CacheUpdate.upsert`).
        """
        if len(facts) < _TOKENISE_BESIDE:
            write()
            return None
        key = self._analyzer_key()
        run = analyzer(*key)
        texts = [f.content for f in facts]
        with ThreadPoolExecutor(1, thread_name_prefix="memori-tokenise") as pool:
            future = pool.submit(lambda: [run(t) for t in texts])
            write()
            return key, future.result()

    @contextlib.contextmanager
    def writing(
        self, entity_id: str, *, base: str | None | object = _COPY, erasing: bool = False,
        since: int | None = None, what: str = "add",
    ) -> Iterator[CacheUpdate]:
        """Hold the store's write lock of ``entity_id`` around a write, then commit its revision and bring the
        cached copy up to date.

        On a shared store the write's intent is recorded first, before the body
        reads anything (:meth:`CacheUpdate.reserve`). The body calls
        :meth:`CacheUpdate.begin` right before it first changes the store,
        writes, and records what it did on the yielded :class:`CacheUpdate`.
        The engine's entity lock is taken only to read the copy before and to
        update it after, so recalls go on meanwhile with the copy as it was.
        If the body or the commit fails at any point, the copy is dropped, and
        the write's intent stays on the token (a shared store), or the token is
        changed, before the error propagates; a body that fails before
        :meth:`CacheUpdate.begin` changed nothing, and its intent is taken back. A body that began and met a
        request that got no answer (:func:`~memori_core.store.base.unanswered`) raises
        :class:`~memori_core.store.base.WriteOutcomeUnknown` from it: the change may have landed.
        The commit's base is the cached copy's token, or ``base`` when given.
        Unless ``erasing`` (the body of :meth:`erase`), the write first waits for
        the erases other processes have in flight on the entity (:meth:`_await_erasures`).
        With ``since`` (the entity's erase generation when the write ``what`` began), a ``forget`` of the
        entity in this process since then makes it raise :class:`~memori_core.lanes.ForgottenError` under the
        write lock, before anything is read or written; so does, for a held turn's write
        (:meth:`~memori_core.lanes.EraseGenerations.said_by`), a ``forget`` the store recorded since the turn was
        held, in any process (:meth:`_check_forgotten`).
        """
        with self.store.write_lock(entity_id):
            ERASURES.check(entity_id, since, what)
            with self.entity_lock(entity_id):
                cache = self.caches.get(entity_id)
            snaps = snapshot_files_for(self.store)
            if snaps is not None:
                snaps.invalidate(entity_id)
            first = cache is None and self._never_written(entity_id)
            if base is _COPY:
                base = cache.revision if cache is not None else None
            assert base is None or isinstance(base, str)
            update = CacheUpdate(lambda: self._begin(entity_id))
            try:
                if self.store.shared:
                    update.reserve()
                    if not erasing:
                        self._await_erasures(entity_id, update)
                if not erasing:
                    self._check_forgotten(entity_id, what)
                yield update
                if update.intent is None:
                    token, only_change = self.store.commit_revision(entity_id, base)
                else:
                    token, only_change = self.store.commit_revision(entity_id, base, update.intent)
                update.committed, update.only_change = token, only_change
            except BaseException as exc:
                with self.entity_lock(entity_id):
                    self.caches.drop(entity_id)
                # A recorded intent stays: every process distrusts its copy until the write has settled. Without
                # one (a store only this process writes to), the token changes instead.
                if update.intent is not None and not update.began:
                    self._withdraw(entity_id, update.intent)
                elif update.intent is None and (update.began or not self.store.shared):
                    self._bump(entity_id)
                intents.leave(update.intent)
                if update.began and unanswered(exc):  # a change was sent and no answer came: it may have landed
                    raise WriteOutcomeUnknown(entity_id, what) from exc
                raise
            try:
                with self.entity_lock(entity_id):
                    self._keep(entity_id, cache, first, token, only_change, update)
            finally:
                intents.leave(update.intent)

    def _check_forgotten(self, entity_id: str, what: str) -> None:
        """Raise :class:`~memori_core.lanes.ForgottenError` when this context writes for a turn held since a
        time (:meth:`~memori_core.lanes.EraseGenerations.said_by`) and the store recorded a ``forget`` of
        ``entity_id`` at or after it. Read after the erases in flight were waited for (a shared store): one
        request, made only for such writes."""
        said_by = ERASURES.said_by(entity_id)
        if said_by is None:
            return
        forgotten = self.store.forgotten_at(entity_id)
        if forgotten is not None and forgotten >= said_by:
            raise ForgottenError(entity_id, what)

    def _begin(self, entity_id: str) -> str | None:
        """Record a write intent for ``entity_id`` (:meth:`CacheUpdate.begin`); its id, or None when the store
        needs none. Counted as in flight here from before it is sent, so this process never distrusts it."""
        intent = uuid.uuid4().hex[:16]
        intents.enter(intent)
        try:
            recorded = self.store.record_intent(entity_id, intent)
        except BaseException:
            intents.leave(intent)  # it may have landed: from now on it is another writer's intent, even here
            raise
        if not recorded:
            intents.leave(intent)
            return None
        return intent

    def _keep(
        self, entity_id: str, cache: EntityCache | None, first: bool, token: str, only_change: bool,
        update: CacheUpdate,
    ) -> None:
        """After a committed write (under lock 2): update the copy the write began with in place when the write
        is the only change since it, else drop it (a copy a recall loaded since the commit is kept)."""
        current = self.caches.get(entity_id)
        if cache is None or current is not cache:
            if current is not None and current.revision != token:
                self.caches.drop(entity_id)
                current = None
            if first and current is None:
                self._adopt_first_write(entity_id, token, update)
            return
        # Intents on the new token must be ones the copy had already waited out (or fewer); this process's erase
        # mark is no one else's.
        fresh = intents.others(token) <= split_revision(cache.revision)[1]
        if only_change and not update.reload and fresh:
            update.apply(cache)
            cache.revision = token
        else:
            # Someone else wrote since the copy was loaded (another process, or
            # another engine of this one): only a reload is sure to include it.
            self.caches.drop(entity_id)

    def _never_written(self, entity_id: str) -> bool:
        """Whether ``entity_id`` has no rows and no revision in a store only this process writes to.

        Then, under the write lock, the rows after a write are exactly the ones it
        wrote (the revision alone could be missing after a crash between a write
        and its revision record, hence the count).
        """
        if self.store.shared:
            return False
        return self.store.revision(entity_id) is None and self.store.count(entity_id) == 0

    def _adopt_first_write(self, entity_id: str, token: str, update: CacheUpdate) -> None:
        """Cache an entity's first write as a reload would build it, so that the first recall after a bulk
        add needs no reload (the rows are in hand; reload order depends only on sessions and ``seq``)."""
        written = update.only_rows()
        if written is None:
            return
        facts, vectors = written
        rows = EntityColumns.from_facts(facts, ())
        rows.embeddings = [np.asarray(vectors, dtype=np.float32).reshape(len(facts), -1)]  # one block
        cache = EntityCache.from_columns(entity_id, token, columns_from_store(rows), self._analyzer_key())
        self.caches.put(cache)
        snaps = snapshot_files_for(self.store)
        if snaps is not None:
            snaps.schedule(cache)

    def _await_erasures(self, entity_id: str, update: CacheUpdate) -> None:
        """Before a write reads anything: while an erase another process has in flight on ``entity_id`` is on the
        token, take the write's intent back (so the erase, which waits for the writes it may race, does not wait
        for this one), wait until the erase ends or :attr:`settle` seconds have passed since this engine first saw
        it (it landed or never will), within the write's deadline, and record the intent again."""
        while True:
            marks = self._unsettled_marks(entity_id, self.store.revision(entity_id))
            if not marks:
                return
            if update.intent is not None:
                self.store.withdraw_intent(entity_id, update.intent)
                intents.leave(update.intent)
            update.unreserve()
            pause = 0.02
            while marks:
                deadline.check(f"an erase of entity {entity_id!r} in another process ended", waiting=True)
                time.sleep(pause)
                pause = min(pause * 2, 0.25)
                marks = self._unsettled_marks(entity_id, self.store.revision(entity_id))
            update.reserve()

    def _unsettled_marks(self, entity_id: str, token: str | None) -> set[str]:
        """The erase marks of other processes on ``token`` that this engine first saw less than :attr:`settle`
        seconds ago (a mark older than that is of an erase that landed or never will: no write waits for it
        again); starts the clock of those seen now for the first time."""
        now = time.monotonic()
        marks = intents.others_erases(token)
        with self._marks_lock:
            seen = {m: t for m, t in self._marks_seen.get(entity_id, {}).items() if m in marks}
            for m in marks:
                seen.setdefault(m, now)
            for m, t in seen.items():
                if t != _SETTLED and now - t >= self.settle:
                    seen[m] = _SETTLED  # for good: a later change of settle does not bring it back
            if seen:
                self._marks_seen[entity_id] = seen
            else:
                self._marks_seen.pop(entity_id, None)
        return {m for m, t in seen.items() if t != _SETTLED}

    def _withdraw(self, entity_id: str, intent: str) -> None:
        try:
            self.store.withdraw_intent(entity_id, intent)
        except Exception as exc:  # the intent stays; other processes then only distrust their copies until it settles
            warn_briefly(logger, exc, "entity %r: a write failed before storing anything (nothing of it landed), "
                         "and its 'write under way' mark could not be cleared from the store: other processes "
                         "read this user's facts from the store instead of their copies for about %.0f s",
                         entity_id, self.settle)

    def _bump(self, entity_id: str) -> None:
        try:
            self.store.bump_revision(entity_id)
        except Exception as exc:  # the store is failing; the local token has changed, the error that matters is the first
            warn_briefly(logger, exc, "entity %r: a write failed (its own error says what of it landed), and the "
                         "store could not be told that this user's facts changed: a copy of them saved before "
                         "(a snapshot beside the store) may be read in place of the store's rows until the next write "
                         "succeeds", entity_id)
