"""What replaces what in an add, as pure functions over :class:`~memori_core.facts.StoredFact` (no store, no
locks): repeats within one call collapsed, new facts told from stored facts seen again (their sightings, metadata
and expiry merged), the facts ``supersedes`` names checked, ended and linked to the facts that replace them. A new
fact dated before a fact it replaces became valid lands in that fact's past: :mod:`.late_facts`."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any

from ..facts import StoredFact
from ..validate import iso_to_ts


def _longer_life(old: str | None, new: str | None) -> str | None:
    """The expiry of a stored fact seen again with expiry ``new`` (``None``: none, the fact never expires): a
    sighting never shortens a fact's life. A permanent fact stays permanent, a fact said again without an
    expiry becomes permanent (an expired one is recalled again), the later of two expiries wins; only
    :meth:`update` sets an earlier one."""
    if old is None or new is None:
        return None
    return new if datetime.fromisoformat(new) > datetime.fromisoformat(old) else old


def _split_new_and_seen(
    batch: dict[str, StoredFact], existing: dict[str, StoredFact]
) -> tuple[list[StoredFact], list[StoredFact], list[StoredFact]]:
    """Facts to store, stored facts seen again, and superseded facts said again after they ended (each with its
    sightings and metadata merged in). A superseded fact said again gets the ``valid_from`` it is valid again
    from (:func:`_valid_again_from`); one said at a time it was valid anyway (a turn captured late, dated inside
    its period) only counts the sighting and stays superseded, so it never stands beside the fact that ended it."""
    new: list[StoredFact] = []
    seen: list[StoredFact] = []
    again: list[StoredFact] = []
    for fid, fact in batch.items():
        old = existing.get(fid)
        if old is None:
            new.append(fact)
            continue
        sighted = replace(
            old,
            times_seen=old.times_seen + fact.times_seen,
            last_seen=max(old.last_seen or "", fact.last_seen or ""),
            metadata={**old.metadata, **fact.metadata},
            expires_at=_longer_life(old.expires_at, fact.expires_at),
        )
        if old.valid_to is None or _said_before_it_ended(old, fact):
            seen.append(_started_by(sighted, fact))
        else:
            again.append(replace(sighted, valid_from=max(_valid_again_from(old, fact), fact.valid_from or "",
                                                         key=iso_to_ts)))  # (a start to come wins)
    return new, seen, again


def _started_by(old: StoredFact, sighting: StoredFact) -> StoredFact:
    """``old`` (a stored fact seen again) as ``sighting`` leaves it: a change told ahead said again as holding
    before its start ("Survived my first day at the new job!" before the day it was to start) holds from the
    sighting's ``created_at`` on (never before it was first stated); told again ahead with a later start before its
    start came ("my start got pushed back to March"), it holds from that later start; any other fact as it is."""
    if not old.valid_from or old.restored_at or sighting.created_at is None:
        return old
    said = max(iso_to_ts(sighting.created_at), iso_to_ts(old.created_at))
    starts = iso_to_ts(sighting.valid_from) if sighting.valid_from else said
    if sighting.valid_from and starts > iso_to_ts(old.valid_from) > said:
        return replace(old, valid_from=sighting.valid_from)  # postponed before it began
    if starts >= iso_to_ts(old.valid_from):
        return old
    return replace(old, valid_from=sighting.valid_from or max((sighting.created_at, old.created_at or ""), key=iso_to_ts))


def _said_before_it_ended(old: StoredFact, sighting: StoredFact) -> bool:
    """Whether ``sighting`` (one fact of an add) of the superseded fact ``old`` is dated before ``old`` ended."""
    return sighting.created_at is not None and old.valid_to is not None \
        and iso_to_ts(sighting.created_at) < iso_to_ts(old.valid_to)


def _valid_again_from(old: StoredFact, sighting: StoredFact) -> str:
    """When a superseded fact ``old`` said again (``sighting``, one fact of an add) is valid again: the sighting's
    ``created_at`` (at most now), never before ``old`` stopped being valid, so that its periods never overlap, nor
    before it was first stated (a fact dated ahead of this clock, replaced and said again before its time came)."""
    now = datetime.now(timezone.utc).isoformat()
    said = min((now, sighting.created_at or now), key=iso_to_ts)
    return max((said, old.valid_to or said, old.created_at or said), key=iso_to_ts)


def _collapse(
    entity_id: str, ids: list[str], texts: list[str], stamps: list[str], metas: list[dict[str, Any]],
    sessions: list[str | None], expiries: list[str | None], *, by_id: bool,
) -> dict[str, StoredFact]:
    """One add's facts by id, repeats within the call collapsed: with caller ids (``by_id``) the last value of
    an id wins; for derived ids the first occurrence is stored and the rest count as sightings."""
    seq0 = time.time_ns()
    batch: dict[str, StoredFact] = {}
    for i, (fid, text, stamp, meta, session, expiry) in enumerate(zip(ids, texts, stamps, metas, sessions, expiries)):
        prev = batch.get(fid)
        if prev is None or by_id:
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
                expires_at=_longer_life(prev.expires_at, expiry),
            )
    return batch


def numbered(batch: dict[str, StoredFact]) -> dict[str, StoredFact]:
    """``batch`` (an add's facts by id, in order) with ``seq`` taken now, under the entity's write lock and after
    the write's intent is on the store (a shared store): a racing writer of another process that looks after its
    own write, and sees no intent of this one, looks before this ``seq`` was taken, so this write comes after its
    own (:mod:`memori_core.capture.repeats`). The facts keep their order (:func:`_collapse` numbered them)."""
    shift = time.time_ns() - min(f.seq for f in batch.values())
    return {fid: replace(f, seq=f.seq + shift) for fid, f in batch.items()}


def _check_known(entity_id: str, replaced: list[str], found: list[StoredFact]) -> None:
    """A ``KeyError`` naming ``supersedes`` and the ids of ``replaced`` the entity has no fact with (``found``:
    the stored facts among them); nothing has been written yet when it is raised."""
    have = {f.id for f in found}
    unknown = [fid for fid in replaced if fid not in have]
    if unknown:
        raise KeyError(f"supersedes names {', '.join(map(repr, unknown))}, but entity {entity_id!r} has no fact with "
                       f"{'that id' if len(unknown) == 1 else 'those ids'} (a typo, another entity's id, or a fact "
                       "deleted meanwhile); nothing was written")


def _superseded(olds: list[StoredFact], first: StoredFact) -> list[StoredFact]:
    """``olds`` (valid facts) marked superseded by ``first``, the first fact of the add that replaces them:
    ``valid_to`` is the earlier of now and ``first.created_at``.

    Without a ``created_at`` given (it is now) an old fact ends now, even one dated later: another writer whose
    clock runs ahead may date a fact up to a day ahead (:func:`check_created_at`), and a fact replaced now must
    stop being recalled now (an end moved to its start would keep it valid until then); no ``as_of`` ever sees
    such a fact, as none is both after its start and before its end. A given ``created_at`` before an old fact
    became valid never reaches here: the new fact lands in that fact's past (:mod:`.late_facts`).

    A ``first`` that holds only from a later start (``add(..., valid_from=...)``: "I start at Siemens on January
    4") ends them at that start: they hold until the change happens."""
    if not olds:
        return []
    now = datetime.now(timezone.utc).isoformat()
    end = min((now, first.created_at or now), key=iso_to_ts)
    if first.valid_from and iso_to_ts(first.valid_from) > iso_to_ts(end) and first.restored_at is None:
        end = first.valid_from
    return [replace(o, valid_to=end, superseded_by=first.id) for o in olds]


def _linked(facts: list[StoredFact], superseded: list[StoredFact]) -> list[StoredFact]:
    """``facts`` (an add's new facts, or stored facts seen again) valid, recording the ids of ``superseded``."""
    ids = tuple(f.id for f in superseded)
    out = []
    for f in facts:
        links = tuple(dict.fromkeys((*f.supersedes, *ids)))
        if links != f.supersedes or f.valid_to is not None or f.superseded_by is not None:
            f = replace(f, supersedes=links, valid_to=None, superseded_by=None)  # said again: valid again
        out.append(f)
    return out
