"""Two supersedes of one fact racing in two processes (``add(..., supersedes=[old])`` by both, each having read
``old`` as valid): both new facts are valid afterwards. Each writer looks again after its write
(:meth:`Successors._settle_successors`, on a shared store only) and one rule that every process applies alike
settles it: of the valid facts that supersede one fact, those of the newest add (its ``created_at``; of adds dated
alike, the first written: the smaller ``seq``, then id) stay valid and the others are marked superseded by its
first fact, kept as history, and the ended fact points to that fact.

Why every process ends with the same one, and a writer knows when its own fact lost: a write's ``seq`` is taken
under its write lock after its intent is on the user's revision record
(:func:`~memori_core.engine.supersede.numbered`), and a writer's look begins by waiting until the writes other
processes have under way have ended (:meth:`~memori_core.RecallEngine.wait_for_writes`), so of two writers the
later written sees the earlier one's facts. Of adds dated alike the earlier written stays: the writer that can
miss the other keeps its own, and the one whose fact loses is the one that sees it lose (its caller reads it:
:meth:`~memori_core.RecallEngine.get` shows ``superseded_by``). A fact dated later than a kept one ends it as any
later statement would. If both see both, both write the same.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timezone

from ..error_log import warn_briefly
from ..facts import StoredFact
from ..validate import check_entity_id, iso_to_ts
from .closing import when_open
from .storing import Storing, _bounded

logger = logging.getLogger(__name__)


def outlived(facts: Sequence[StoredFact], ended: Sequence[str], mine: Sequence[str] = ()) -> list[StoredFact]:
    """The facts to rewrite so that each fact of ``ended`` has the successors of one add only among ``facts`` (an
    entity's facts with history links, and the facts of the add that asked to end them, ``mine``, which count as
    their successors even when another add ended them first). An add's facts share their ``created_at``: the
    valid successors of a fact are grouped by add (:func:`_adds`), the newest add's (``created_at``; dated alike, the
    first written) stay valid, every fact of the others is marked superseded by the newest add's first fact (its
    ``valid_to`` the earlier of now and that fact's ``created_at``), and that fact is linked to them and to the
    ended fact, which points to it."""
    now = datetime.now(timezone.utc).isoformat()
    by_id = {f.id: f for f in facts}
    out: dict[str, StoredFact] = {}
    for old in dict.fromkeys(ended):
        rivals = [f for f in facts if f.valid_to is None and f.id not in out and (old in f.supersedes or f.id in mine)]
        groups = _adds(rivals)
        if len(groups) < 2:
            continue
        newest = min(groups, key=lambda g: (-iso_to_ts(g[0].created_at), g[0].seq, g[0].id))
        first = newest[0]
        end = min((now, first.created_at or now), key=iso_to_ts)
        losers = [f for g in groups if g is not newest for f in g]
        for f in losers:
            out[f.id] = replace(f, valid_to=end, superseded_by=first.id)
        links = tuple(dict.fromkeys((*out.get(first.id, first).supersedes, old, *(f.id for f in losers))))
        out[first.id] = replace(out.get(first.id, first), supersedes=links)
        ended_fact = out.get(old, by_id.get(old))
        if ended_fact is not None and ended_fact.superseded_by in out and ended_fact.superseded_by != first.id:
            out[old] = replace(ended_fact, superseded_by=first.id)  # it ended by the add that stays
    return list(out.values())


def ends_raced(facts: dict[str, StoredFact], pairs: Sequence[tuple[str, str]]) -> list[StoredFact]:
    """The facts to rewrite so that, for each ``(ended, by)`` of ``pairs`` whose facts are both in ``facts`` (by id)
    and still valid, ``ended`` is superseded by ``by`` at ``by``'s ``created_at`` (the time it was said) and ``by``
    is linked to it: a change another process stored at the same moment, settled as one process would have."""
    out: dict[str, StoredFact] = {}
    for ended_id, by_id in pairs:
        ended, by = out.get(ended_id, facts.get(ended_id)), out.get(by_id, facts.get(by_id))
        if ended is None or by is None or ended.valid_to is not None or by.valid_to is not None or ended_id == by_id:
            continue
        end = by.created_at or datetime.now(timezone.utc).isoformat()
        out[ended_id] = replace(ended, valid_to=end, superseded_by=by_id)
        out[by_id] = replace(by, supersedes=tuple(dict.fromkeys((*by.supersedes, ended_id))))
    return list(out.values())


ONE_ADD_NS = 1_000
"""An add numbers its facts one nanosecond apart (:func:`~memori_core.engine.supersede.numbered`); facts dated alike
whose ``seq`` lie closer than this are taken as one add's (two adds numbered within it stay both valid: rare)."""


def _adds(rivals: Sequence[StoredFact]) -> list[list[StoredFact]]:
    """``rivals`` grouped by the add that wrote them (one ``created_at``, ``seq`` numbered in a run), each group in
    the order written."""
    groups: list[list[StoredFact]] = []
    for f in sorted(rivals, key=lambda f: (iso_to_ts(f.created_at), f.created_at or "", f.seq, f.id)):
        last = groups[-1][-1] if groups else None
        if last is not None and last.created_at == f.created_at and f.seq - last.seq < ONE_ADD_NS:
            groups[-1].append(f)
        else:
            groups.append([f])
    return groups


class Successors(Storing):
    """The look after a supersede of :class:`~memori_core.engine.RecallEngine` (a mixin: the state is the
    engine's)."""

    @when_open
    @_bounded
    def end_raced(self, entity_id: str, pairs: Sequence[tuple[str, str]]) -> list[str]:
        """End facts another writer stored at the same moment as a change of them: for each ``(ended, by)``,
        ``ended`` is marked superseded by ``by`` at the time ``by`` was said (its ``created_at``), kept as history,
        and ``by`` is linked to it, as an ``add(..., supersedes=[ended])`` dated then would have done. For a
        writer's look after its write on a shared store (:mod:`memori_core.capture.slot_races`); a pair whose
        facts are gone or no longer valid (read again under the write lock) is left alone. Returns the ids
        ended."""
        entity_id = check_entity_id(entity_id)
        ids = list(dict.fromkeys(i for pair in pairs for i in pair))
        if not ids:
            return []
        with self._coord.writing(entity_id) as done:
            changed = ends_raced(self._stored(entity_id, ids), pairs)
            if changed:
                done.begin()
                self.store.update_seen(entity_id, changed)
                done.update_seen(changed)
        ended = {ended_id for ended_id, _ in pairs}
        return [f.id for f in changed if f.id in ended and f.valid_to is not None]

    def _settle_successors(self, entity_id: str, ended: Sequence[str], mine: Sequence[str]) -> None:
        """After an add of ``mine`` that asked to supersede ``ended`` on a shared store: when another process
        superseded one of them at the same time, keep the newest add's facts valid (module docstring). A store
        failure is logged and leaves both valid; the add stands."""
        if not ended or not self.store.shared:
            return
        try:
            self._coord.wait_for_writes(entity_id)  # a racing write begun before ours is seen (module docstring)
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
            warn_briefly(logger, exc, "entity %r: the add was stored, but another process's fact that replaced %s "
                         "at the same time could not be marked replaced by it: both stay valid until the next "
                         "change of that fact", entity_id, ", ".join(ended))
