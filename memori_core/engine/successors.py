"""Two supersedes of one fact racing in two processes (``add(..., supersedes=[old])`` by both, each having read
``old`` as valid): both new facts are valid afterwards. Each writer looks again after its write
(:meth:`Successors._settle_successors`, on a shared store only) and one rule that every process applies alike
settles it: of the valid facts that supersede one fact, those of the newest add (``created_at``, then ``seq``,
then id) stay valid and the others are marked superseded by its first fact, kept as history. A writer's look comes after its own new fact
landed, and a read sees every row written before it began, so of two racing writers the one that looks second
sees both; if both do, both write the same.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timezone

from ..error_log import warn_briefly
from ..facts import StoredFact
from ..validate import iso_to_ts
from .storing import Storing

logger = logging.getLogger(__name__)


def outlived(facts: Sequence[StoredFact], ended: Sequence[str], mine: Sequence[str] = ()) -> list[StoredFact]:
    """The facts to rewrite so that each fact of ``ended`` has the successors of one add only among ``facts`` (an
    entity's facts with history links, and the facts of the add that asked to end them, ``mine``, which count as
    their successors even when another add ended them first). An add's facts share their ``created_at``: the
    valid successors of a fact are grouped by it, the newest group (``created_at``, then ``seq``, then id) stays
    valid, every fact of the others is marked superseded by the newest group's first fact (its ``valid_to`` the
    earlier of now and that fact's ``created_at``), and that fact is linked to them and to the ended fact."""
    now = datetime.now(timezone.utc).isoformat()
    out: dict[str, StoredFact] = {}
    for old in dict.fromkeys(ended):
        rivals = [f for f in facts if f.valid_to is None and f.id not in out and (old in f.supersedes or f.id in mine)]
        groups: dict[str | None, list[StoredFact]] = {}
        for f in rivals:
            groups.setdefault(f.created_at, []).append(f)
        if len(groups) < 2:
            continue
        newest = max(groups.values(), key=lambda g: max((iso_to_ts(f.created_at), f.seq, f.id) for f in g))
        first = min(newest, key=lambda f: (f.seq, f.id))
        end = min((now, first.created_at or now), key=iso_to_ts)
        losers = [f for f in rivals if all(f is not n for n in newest)]
        for f in losers:
            out[f.id] = replace(f, valid_to=end, superseded_by=first.id)
        links = tuple(dict.fromkeys((*out.get(first.id, first).supersedes, old, *(f.id for f in losers))))
        out[first.id] = replace(out.get(first.id, first), supersedes=links)
    return list(out.values())


class Successors(Storing):
    """The look after a supersede of :class:`~memori_core.engine.RecallEngine` (a mixin: the state is the
    engine's)."""

    def _settle_successors(self, entity_id: str, ended: Sequence[str], mine: Sequence[str]) -> None:
        """After an add of ``mine`` that asked to supersede ``ended`` on a shared store: when another process
        superseded one of them at the same time, keep the newest add's facts valid (module docstring). A store
        failure is logged and leaves both valid; the add stands."""
        if not ended or not self.store.shared:
            return
        try:
            with self._coord.reading(entity_id):
                cache = self._coord.cache_for(entity_id)
                rows = {*cache.history_rows().tolist(), *(cache.pos[i] for i in mine if i in cache.pos)}
                seen = [f for f in map(cache.fact, sorted(rows)) if f is not None]
            if not outlived(seen, ended, mine):
                return
            with self._coord.writing(entity_id) as done:  # (within the add's deadline)
                again = list(self._stored(entity_id, [f.id for f in seen]).values())
                changed = outlived(again, ended, mine)  # read again under the lock
                if changed:
                    done.begin()
                    self.store.update_seen(entity_id, changed)
                    done.update_seen(changed)
        except Exception as exc:  # noqa: BLE001 - the add landed; the next supersede of the slot settles it
            warn_briefly(logger, exc, "entity %r: could not settle facts that superseded %s at the same time",
                         entity_id, ", ".join(ended))
