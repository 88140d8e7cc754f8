"""Changes told ahead ("I start at Siemens on January 4"): ``cancel``, which calls one off before it starts.

``add(..., valid_from=..., supersedes=[...])`` stores such a change valid from its start and ends the facts it
replaces then (:func:`~memori_core.engine.supersede._superseded`), so until that day recall shows what holds now.
A change called off before its start ("actually I'm staying at Bosch") never happened: its fact is ended when it is
called off, before its start (valid at no time: ``history`` keeps it with the start it had, ``recall(as_of=...)``
never shows it, ``list`` no longer does) and the facts it was to end hold on, with no end (they never stopped holding, so no period is kept as a version row, unlike ``restore``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any

from ..facts import StoredFact
from ..validate import check_created_at, check_entity_id, iso_to_ts
from .closing import when_open
from .fact_ids import _one_id
from .storing import Storing, _bounded


class NothingToCancelError(ValueError):
    """:meth:`~Plans.cancel` of a fact that holds already, or that was never told ahead: there is no change to come to
    call off (a ``ValueError``)."""


def is_to_come(fact: StoredFact, now: float) -> bool:
    """Whether ``fact`` is a change told ahead that has not started at ``now`` (epoch seconds): valid from a
    ``valid_from`` after it, not ended (a cancelled one is ended at its start)."""
    return fact.valid_to is None and bool(fact.valid_from) and iso_to_ts(fact.valid_from) > now


def called_off(fact: StoredFact, replaced: list[StoredFact], now: str) -> list[StoredFact]:
    """The rows a cancel of ``fact`` (a change to come) writes at ``now``: ``fact`` ended then, no longer naming what
    it was to replace, and each of ``replaced`` it was to end at that start (``superseded_by`` it) valid again with
    no end; facts of ``replaced`` ended otherwise are left out (another change, a restore, a rewrite)."""
    start = fact.valid_from
    back = [replace(o, valid_to=None, superseded_by=None) for o in replaced
            if o.superseded_by == fact.id and o.valid_to == start]
    return [replace(fact, valid_to=now, supersedes=()), *back]


def told_by_ids(told_by: Sequence[str], leaving: Sequence[str]) -> list[str]:
    """The fact ids ``told_by`` names (the facts that told a change to come), checked, each once, without
    ``leaving`` (the facts the call ends or erases itself). A lone ``str`` raises ``TypeError`` naming
    ``told_by``; an id that is not a non-empty ``str``, ``ValueError`` / ``TypeError`` naming it."""
    if isinstance(told_by, str):
        raise TypeError("told_by must be a sequence of fact ids, not one str")
    gone = set(leaving)
    return [i for i in dict.fromkeys(_one_id(t, "told_by") for t in told_by) if i not in gone]


def not_to_come(fact: StoredFact) -> str:
    """Why ``fact`` is no change to come."""
    return ("it was ended already" if fact.valid_to is not None else
            f"it holds already (from {fact.valid_since})" if fact.valid_from else "it was never told ahead")


def check_told_by_target(entity_id: str, facts: Sequence[StoredFact], now: float, call: str) -> None:
    """Refuse ``told_by`` for a ``delete`` / ``expire`` (``call``) none of whose ``facts`` is a change to come: only
    a change called off before its start ends the facts that told it. :class:`NothingToCancelError` (a
    ``ValueError``) naming ``told_by``, as :meth:`Plans.cancel` refuses such a fact; nothing is written."""
    if facts and not any(is_to_come(f, now) for f in facts):
        named = "; ".join(f"fact {f.id!r}: {not_to_come(f)}" for f in facts)
        raise NothingToCancelError(
            f"told_by names the facts that told a change to come, ended with it, but {call} of entity {entity_id!r} "
            f"ends no change to come ({named}); call {call} without told_by")


def told_ended(plans: Sequence[StoredFact], now: str, taken: Sequence[str] = ()) -> list[StoredFact]:
    """The facts that told a change (``plans``, read by their ``told_by`` ids) ended at ``now`` (ISO 8601), as
    :meth:`Plans.cancel`, :meth:`~memori_core.RecallEngine.expire` and :meth:`~memori_core.RecallEngine.delete`
    end them: those valid, stated by then and not among the rows the call writes anyway (``taken``)."""
    skip, at = set(taken), iso_to_ts(now)
    return [replace(p, valid_to=now) for p in plans
            if p.valid_to is None and p.id not in skip and iso_to_ts(p.created_at) <= at]


def put_back(facts: Sequence[StoredFact], read: Callable[[list[str]], list[StoredFact]], now: float,
             leaving: Sequence[str] = ()) -> list[StoredFact]:
    """The facts to make valid again, with no end, when ``facts`` leave before their start (a change to come deleted
    or expired: the job it was to end holds on, as :func:`called_off` puts it back); ``read``: stored facts by id;
    ``leaving``: ids that leave too, not put back."""
    ahead = [f for f in facts if is_to_come(f, now) and f.supersedes]
    if not ahead:
        return []
    gone = set(leaving)
    wanted = [i for i in dict.fromkeys(i for f in ahead for i in f.supersedes) if i not in gone]
    olds = read(wanted) if wanted else []
    return [o for f in ahead for o in called_off(f, olds, "")[1:]]


def started_early(seen: Sequence[StoredFact], stored: Mapping[str, StoredFact],
                  read: Callable[[list[str]], list[StoredFact]]) -> list[StoredFact]:
    """The facts to end anew when an add's sightings ``seen`` moved a change told ahead to an earlier start (it was
    said again as holding already) or, before it began, to a later one (told again ahead, postponed):
    :func:`~memori_core.engine.supersede._started_by`; ``stored``: the facts as
    they were, by id): each fact the change was to end at its old start (``superseded_by`` it, ``valid_to`` that
    start; ``read``: stored facts by id) now ends at the new one."""
    moved = {f.id: (stored[f.id].valid_from, f.valid_from) for f in seen
             if f.id in stored and stored[f.id].valid_from and f.valid_from != stored[f.id].valid_from}
    if not moved:
        return []
    wanted = list(dict.fromkeys(i for f in seen if f.id in moved for i in f.supersedes))
    out = []
    for old in read(wanted) if wanted else []:
        starts = moved.get(old.superseded_by or "")
        if starts is not None and old.valid_to == starts[0]:
            out.append(replace(old, valid_to=starts[1]))
    return out


class Plans(Storing):
    """``cancel`` of :class:`~memori_core.engine.RecallEngine` (a mixin: the state is the engine's)."""

    @when_open
    @_bounded
    def cancel(self, entity_id: str, id: str, *, told_by: Sequence[str] = (), at: Any = None) -> StoredFact:
        """Call off fact ``id``, a change told ahead (``add(..., valid_from=...)``) whose start has not come; returns
        it, ended now.

        It is kept as history valid at no time (``valid_to``, now, is before its ``valid_from``: ``recall``, now or
        ``as_of``, never shows it, nor ``list``; :meth:`history` and ``list(include_invalid=True)`` do), and the facts it was to replace at
        its start (``supersedes``) hold on with no end, in the same write ("User works at Bosch." when the job at
        Siemens is called off). An unknown id raises ``KeyError``; a fact that holds already (its start has
        come: record a change back with ``add(..., supersedes=...)``, or :meth:`restore` the fact it ended), or one
        never told ahead, raises :class:`NothingToCancelError` (a ``ValueError``).

        ``told_by``: ids of facts that told the change, true until it was called off ("User got a new job at
        Siemens, starting in January 2027."), ended now in the same write (those not valid, or not stored, are
        left as they are).

        ``at``: when it was called off (a ``datetime`` or ISO 8601 string, as ``created_at``; ``None``: now), for a
        conversation replayed later: the change must still be to come then, and told by then (``ValueError`` naming
        ``at`` when told after it); it ends then."""
        entity_id = check_entity_id(entity_id)
        fid = _one_id(id, "id")
        when = check_created_at(at, "at")
        plan_ids = told_by_ids(told_by, [fid])
        with self._coord.writing(entity_id) as done:
            got = self.store.get(entity_id, [fid])
            if not got:
                raise KeyError(f"entity {entity_id!r} has no fact with id {fid!r}")
            fact = got[0]
            now = datetime.fromisoformat(when) if when else datetime.now(timezone.utc)
            if when and iso_to_ts(when) < iso_to_ts(fact.created_at):
                raise ValueError(f"at {when} is before fact {fid!r} was stated ({fact.created_at}): a change is "
                                 "called off after it was told")
            if not is_to_come(fact, now.timestamp()):
                raise NothingToCancelError(
                    f"fact {fid!r} of entity {entity_id!r} is no change to come to call off: {not_to_come(fact)}; "
                    "to record a change "
                    "back, add the fact that holds with supersedes=[...], or restore the fact it ended")
            rows = called_off(fact, self.store.get(entity_id, list(fact.supersedes)) if fact.supersedes else [],
                              now.isoformat())
            if plan_ids:
                rows += told_ended(self.store.get(entity_id, plan_ids), now.isoformat(), [r.id for r in rows])
            done.begin()
            self.store.update_seen(entity_id, rows)  # one write: the change, what told it and what it was to end
            done.update_seen(rows)
            return rows[0]
