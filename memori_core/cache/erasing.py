"""Erases that no racing write outlives (:class:`Erasing`, the ``forget`` / ``delete`` side of
:class:`~memori_core.cache.coordinator.Coordinator`): on a shared store an erase mark on the revision token while
the erase runs, the writes that may have raced it waited for, and the erase run again after them."""

from __future__ import annotations

import contextlib
import logging
import time
import uuid
from collections.abc import Callable

from ..store import deadline
from ..store.base import join_revision, split_revision
from . import intents
from .cache_update import CacheUpdate
from .writing import Writing

logger = logging.getLogger(__name__)


class Erasing(Writing):
    """The erases of :class:`~memori_core.cache.coordinator.Coordinator` (a mixin over its writes: the state, the
    entity locks and the write deadline are the coordinator's, declared here and on :class:`Writing`)."""

    deadline: Callable[[], contextlib.AbstractContextManager[None]]

    def erase(self, entity_id: str, erase: Callable[[CacheUpdate], None]) -> None:
        """Run ``erase`` (a write that deletes rows: ``forget``, ``delete``) so that no row of a write racing it
        in another process outlives it. ``erase`` is run as the body of :meth:`writing`, once or twice.

        On a shared store, the erase first records an *erase mark* on the token
        (an intent whose id ends in :data:`~memori_core.cache.intents.ERASE_SUFFIX`), kept until it ends:
        a write that begins meanwhile, in any process, waits for it to end
        before it reads anything (:meth:`_await_erasures`), so it reads what the
        erase left. A write that began before the mark may have read the rows
        first and write them back after the delete (an ``update`` writes the
        fact, and its old text as a version). Such a write either has its
        intent on the token read right after the mark, or on the token the
        erase's commit leaves (writers record their intent before they read:
        :meth:`CacheUpdate.reserve`), or committed in between (then the erase's
        commit is not the only change since that token). In any of these cases
        the erase waits until those intents are gone from the token (those
        writes ended), for at most :attr:`settle` seconds, and runs ``erase``
        again. A store only this process writes to needs none of this: its
        writes are serialised by the write lock.
        """
        if not self.store.shared:
            with self.writing(entity_id) as done:
                erase(done)
            return
        mark = uuid.uuid4().hex[:16] + intents.ERASE_SUFFIX
        intents.enter(mark)
        try:
            self._erase_marked(entity_id, mark, erase)
        except BaseException:
            # Its mark may stay on the token; this process's writes need not wait for an erase that failed here
            # (its caller got the error and must erase again), other processes' do until it settles.
            intents.fail_mark(mark)
            raise
        finally:
            intents.leave(mark)  # a mark left on the token (a failed erase) is another writer's from now on, even here

    def _erase_marked(self, entity_id: str, mark: str, erase: Callable[[CacheUpdate], None]) -> None:
        """:meth:`erase` on a shared store, under the erase mark ``mark``."""
        self.store.record_intent(entity_id, mark)
        before = self.store.revision(entity_id)
        with self.writing(entity_id, base=before, erasing=True) as done:
            erase(done)
        racing = intents.others_writes(before) | intents.others_writes(done.committed)
        if done.began and not (done.only_change and not racing):
            with deadline.paused():  # the racing writes' time, not this write's: then a whole new deadline
                self._wait_until_gone(entity_id, racing)
                with self.deadline():
                    with self.writing(entity_id, erasing=True) as again:
                        erase(again)
                    self._unmark(entity_id, mark)
        else:
            self._unmark(entity_id, mark)

    def _unmark(self, entity_id: str, mark: str) -> None:
        """Take an erase's mark off the token; the copy the erase left, tagged with the token that carried it, is
        tagged with the token without it (what the store now reads, unless someone else wrote meanwhile)."""
        self.store.withdraw_intent(entity_id, mark)
        with self.entity_lock(entity_id):
            cache = self.caches.get(entity_id)
            committed, on_token = split_revision(cache.revision if cache is not None else None)
            if cache is not None and mark in on_token:
                cache.revision = join_revision(committed, on_token - {mark})

    def wait_for_writes(self, entity_id: str) -> None:
        """Return once the writes other processes have in flight on ``entity_id`` now (their intents on the token)
        have ended, or after at most :attr:`settle` seconds (one that failed stays on the token); at once on a
        store only this process writes to. What a read begun afterwards sees: every write that had recorded its
        intent by now, finished."""
        if self.store.shared:
            racing = intents.others_writes(self.store.revision(entity_id))
            if racing:
                self._wait_until_gone(entity_id, racing)

    def _wait_until_gone(self, entity_id: str, racing: frozenset[str]) -> None:
        """Poll the token until none of the intents ``racing`` is on it, for at most :attr:`settle` seconds."""
        end = time.monotonic() + self.settle
        pending = set(racing)
        pause = 0.02
        while pending and time.monotonic() < end:
            time.sleep(min(pause, max(0.0, end - time.monotonic())))
            pause = min(pause * 2, 0.25)
            try:
                pending &= split_revision(self.store.revision(entity_id))[1]
            except Exception:  # noqa: BLE001 - the call after the wait reports a store that keeps failing
                logger.debug("entity %r: could not read the token while waiting for writes", entity_id, exc_info=True)
