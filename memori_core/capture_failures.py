"""Strict capture failures kept per entity, for an adapter shared by many users (:class:`EntityCaptures`).

A :class:`~memori_core.capture.BackgroundCapture` with ``strict=True`` keeps the first capture failure and raises
it at the adapter's next call. One adapter serving every user of an app (a ``MemoriMiddleware`` or capture node
built once for a server) would then raise user A's failure, whose message may quote A's turn, in user B's
request, while A never hears of it. :class:`EntityCaptures` keeps the first failure of each entity instead, and the
adapter raises only the failure of the entity its call is for; ``flush`` / ``aflush`` (the app's own call, not a
user's) raise the oldest one kept, of whichever entity.
"""

from __future__ import annotations

from collections import OrderedDict

from .capture import BackgroundCapture
from .failopen import error_text

KEPT_ENTITIES = 1024
"""How many entities' failures an :class:`EntityCaptures` keeps at most; beyond that the oldest is logged as a
warning and forgotten (an outage under ``strict`` fails every user's capture, and most users may never call
again)."""


class EntityCaptures(BackgroundCapture):
    """A :class:`~memori_core.capture.BackgroundCapture` whose ``strict`` failures are kept per entity.

    :meth:`raise_failure` with an ``entity_id`` raises (and forgets) only that entity's first failure since it was
    last raised; without one it raises the oldest failure kept (what ``flush`` / ``aflush`` do). Without
    ``strict`` nothing differs: failures are logged as they happen.
    """

    def _set_up(self) -> None:
        self._failures: OrderedDict[str, BaseException] = OrderedDict()

    def _keep(self, exc: BaseException, entity_id: str) -> None:
        forgotten: list[tuple[str, BaseException]] = []
        with self._done:
            if entity_id not in self._failures:
                self._failures[entity_id] = exc
            while len(self._failures) > KEPT_ENTITIES:
                forgotten.append(self._failures.popitem(last=False))
        for whose, old in forgotten:
            self.logger.warning("%s: capture failed for entity %r (%s: %s); not raised: failures of more than %d "
                                "entities were waiting for their next call", self.owner, whose, type(old).__name__,
                                error_text(old), KEPT_ENTITIES)

    def raise_failure(self, entity_id: str | None = None) -> None:
        """Raise (and forget) ``entity_id``'s first failure kept under ``strict=True`` (``None``: the oldest of any
        entity); nothing when there is none."""
        with self._done:
            if entity_id is None:
                exc = self._failures.popitem(last=False)[1] if self._failures else None
            else:
                exc = self._failures.pop(entity_id, None)
        if exc is not None:
            raise exc
