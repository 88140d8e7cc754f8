"""A fact's earlier versions in the store (the ``<id>@v<n>`` rows an update, or a superseded fact said again,
keeps, and a restore keeps of the period a supersede ended): the next free version id, a period kept as a version
row, the version rows of some facts, and ``restore``, which undoes the supersede or update that made a fact invalid,
as a new event of its history."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any

import numpy as np

from ..cache.cache_update import CacheUpdate
from ..facts import StoredFact
from ..validate import check_created_at, check_entity_id, iso_to_ts
from .closing import when_open
from .embedding import Embedding
from .fact_ids import _is_version_of, _one_id, version_id, version_of
from .storing import Storing, _bounded
from .told_at import check_told_after


class NothingToRestoreError(ValueError):
    """:meth:`~Versions.restore` of a fact that is valid already, or of a version whose text its fact has now: the
    state asked for holds already (a ``ValueError``, so callers that catch that go on catching it)."""


class Versions(Embedding, Storing):
    """The history methods of :class:`~memori_core.engine.RecallEngine`'s writes (a mixin: the state is the
    engine's)."""

    def _next_version_id(self, entity_id: str, fact_id: str) -> str:
        """The first ``<fact_id>@v<n>`` the entity has not stored (read from the store, under the write lock)."""
        start = 1
        while True:
            ids = [version_id(fact_id, n) for n in range(start, start + 16)]
            taken = set(self.store.present(entity_id, ids))
            for vid in ids:
                if vid not in taken:
                    return vid
            start += 16

    def _past_periods(self, entity_id: str, olds: list[StoredFact]) -> list[StoredFact]:
        """Version rows keeping the validity periods of ``olds`` (stored facts no longer valid, about to be valid
        again because they were said again or restored): each as it is, under ``<id>@v<n>``, ``superseded_by``
        its fact, as :meth:`update` keeps an old text. A version row already holding that period (a retry of a
        write that failed after writing it) is reused, so a period is kept once (under the write lock)."""
        out: list[StoredFact] = []
        for old in olds:
            kept = self._stored(entity_id, self._versions_of(entity_id, [old.id])).values()
            period = (old.content, old.created_at, old.valid_from, old.valid_to)
            same = [v.id for v in kept if (v.content, v.created_at, v.valid_from, v.valid_to) == period]
            vid = same[0] if same else self._next_version_id(entity_id, old.id)
            out.append(replace(old, id=vid, superseded_by=old.id))
        return out

    def _successors_naming(self, entity_id: str, olds: list[StoredFact], periods: list[StoredFact],
                           skip: set[str]) -> dict[str, tuple[StoredFact, dict[str, str]]]:
        """The facts that superseded ``olds`` (stored facts no longer valid, about to be valid again because they
        were said again), by id, each as stored with the renames its ``supersedes`` takes: each of ``olds`` it
        names to the version row of ``periods`` (from :meth:`_past_periods`, in the same order) that keeps the
        period it ended, as :meth:`restore` relinks the newer fact, so that :meth:`history` says that period was
        superseded by it, not by the fact itself. Facts whose ids are in ``skip`` (written by the same add) are
        left out (under the write lock)."""
        wanted = {o.superseded_by for o in olds if o.superseded_by and o.superseded_by not in skip}
        newer = self._stored(entity_id, dict.fromkeys(wanted)) if wanted else {}
        out: dict[str, tuple[StoredFact, dict[str, str]]] = {}
        for old, period in zip(olds, periods):
            fact = newer.get(old.superseded_by or "")
            if fact is not None and old.id in fact.supersedes:
                out.setdefault(fact.id, (fact, {}))[1][old.id] = period.id
        return out

    def _versions_of(self, entity_id: str, ids: list[str]) -> list[str]:
        """The stored version rows (``<id>@v<n>`` superseded by ``id``) of ``ids`` (under the write lock)."""
        out: list[str] = []
        todo = {fid: 1 for fid in ids}
        while todo:
            probe = {version_id(fid, n): fid for fid, start in todo.items() for n in range(start, start + 8)}
            taken = self._stored(entity_id, probe)
            out += [vid for vid, fid in probe.items() if vid in taken and taken[vid].superseded_by == fid]
            # A restored version leaves a gap: probe on while a block holds any version.
            todo = {fid: start + 8 for fid, start in todo.items()
                    if any(version_id(fid, n) in taken for n in range(start, start + 8))}
        return out

    @when_open
    @_bounded
    def restore(self, entity_id: str, id: str, *, at: Any = None) -> StoredFact:
        """Undo the supersede or update that made fact ``id`` invalid; returns the restored fact.

        A restore is a new event, kept in the history beside what it undoes. For a fact superseded by
        :meth:`add` (``supersedes=[...]``, or capture), the fact becomes valid again from now
        (``restored_at``), every other field as it was (its vector untouched); the period the supersede ended
        is kept as a version row ``<id>@v<n>``, which the newer fact's ``supersedes`` names instead of the
        fact. So :meth:`history` shows the fact, the newer one and the fact again, and ``recall(as_of=...)``
        inside the superseded period answers as it did before the restore. The newer fact stays valid. (A
        wrong supersede is usually two true facts, "User's mother lives in Porto." replaced by "User lives in
        Porto.": undoing it must not lose the newer one; delete that one yourself if it is wrong.) For a
        version row ``<x>@v<n>`` left by :meth:`update`, fact ``x`` becomes that version again (every field
        but its validity) from now on (``restored_at``), the text it had is kept as a new version row valid
        until now, and the restored version row stays as history: :meth:`history` shows the switch back, and
        ``recall(as_of=...)`` one text at any time. (A fact superseded since stays superseded, with the
        restored text.) Either way the text keeps the time it was stated (``stated_at``, the block's "Stated
        at"): restoring it is not saying it again. When the newer fact was deleted, the fact is made valid
        under its own id. Restoring a valid fact, or a version whose text the fact has now, raises
        :class:`NothingToRestoreError` (a ``ValueError``), an unknown id ``KeyError``.

        ``at``: when the restore was told (a ``datetime`` or ISO 8601 string, read as ``created_at``; ``None``:
        now), for a conversation replayed later: "from now" above is then; one before the fact was stated, or
        before the fact that replaced it (the supersede or update undone), raises ``ValueError`` naming ``at``.
        """
        entity_id = check_entity_id(entity_id)
        when = check_created_at(at, "at")
        fid = _one_id(id, "id")
        got = self.store.get(entity_id, [fid])
        newer = self.store.get(entity_id, [got[0].superseded_by]) if got and got[0].superseded_by else []
        # Embedded before the lock: the fact's text, and the newer text only for a version row, the one case that
        # stores it again (texts changed meanwhile are embedded under the lock).
        texts = [got[0].content, *(f.content for f in newer if _restores_version(fid, f))] if got else []
        vec_of = self._embed_texts(texts) if got and got[0].valid_to else {}
        with self._coord.writing(entity_id) as done:
            got = self.store.get(entity_id, [fid])
            if not got:
                raise KeyError(f"entity {entity_id!r} has no fact with id {fid!r}")
            old = got[0]
            if old.valid_to is None:
                versions = self._versions_of(entity_id, [fid])
                undo = (f" (to undo an update of its text, restore its earlier version: {', '.join(map(repr, versions))}"
                        ", as history lists it)") if versions else ""
                raise NothingToRestoreError(
                    f"fact {fid!r} of entity {entity_id!r} is valid: there is nothing to restore{undo}")
            newer = self.store.get(entity_id, [old.superseded_by]) if old.superseded_by else []
            check_told_after(when, [old])
            check_told_after(when, newer, "the supersede or update it undoes")
            now = when or datetime.now(timezone.utc).isoformat()
            # Only a version row of an update (``<newer id>@v<n>``) becomes its fact again; any other fact is a
            # superseded one, made valid again even when the newer fact was rewritten since (upsert by id, or
            # deleted and said again) and no longer lists it.
            if not newer or not _restores_version(fid, newer[0]):
                return self._restore_superseded(entity_id, old, newer[0] if newer else None, now, vec_of, done)
            # A version row: the fact becomes this version again, from now on; its current text a new version.
            current = newer[0]
            if old.content == current.content:
                raise NothingToRestoreError(
                    f"fact {current.id!r} of entity {entity_id!r} already says what its version {fid!r} said: there "
                    f"is nothing to restore (restore {current.id!r} itself to undo a supersede of it)")
            self._embed_missing(vec_of, [old.content, current.content])
            # Only the update is undone: a fact superseded since stays superseded, now with its old text. The
            # switch back is kept: the version row stays, the current text ends and the restored one starts now
            # (at the supersede, if earlier), so exactly one text is valid at any time.
            switch = min((now, current.valid_to or now), key=iso_to_ts)
            restored = replace(old, id=current.id, restored_at=switch, valid_to=current.valid_to,
                               superseded_by=current.superseded_by)
            archived = replace(current, id=self._next_version_id(entity_id, current.id), valid_to=switch,
                               superseded_by=current.id)
            rows = [archived, restored]
            vectors = np.stack([vec_of[current.content], vec_of[old.content]])
            done.begin()
            self.store.upsert(entity_id, rows, vectors)
            done.upsert(rows, vectors)
            return restored

    def _restore_superseded(self, entity_id: str, old: StoredFact, newer: StoredFact | None, now: str,
                            vec_of: dict[str, np.ndarray], done: CacheUpdate) -> StoredFact:
        """:meth:`restore` of ``old``, a fact ``newer`` superseded (``None``: deleted since): its superseded
        period kept as a version row (once, even when a restore that failed part-way is run again), which
        ``newer`` names in its ``supersedes`` instead of ``old``; ``old`` valid again from now (under the write
        lock). A fact a change told ahead is to end at its start (``valid_to`` ahead of now) never stopped holding:
        its end is taken off, in one write, with no period kept and no ``restored_at``."""
        if old.valid_to is not None and iso_to_ts(old.valid_to) > iso_to_ts(now):
            kept = replace(old, valid_to=None, superseded_by=None)
            rows = [kept]
            if newer is not None and old.id in newer.supersedes:
                rows.append(replace(newer, supersedes=tuple(i for i in newer.supersedes if i != old.id)))
            done.begin()
            self.store.update_seen(entity_id, rows)
            done.update_seen(rows)
            return kept
        [period] = self._past_periods(entity_id, [old])
        restored = replace(old, valid_to=None, superseded_by=None,
                           restored_at=max((now, old.valid_to or now), key=iso_to_ts))
        changed = [restored]
        if newer is not None and old.id in newer.supersedes:
            changed.append(replace(newer, supersedes=tuple(period.id if i == old.id else i for i in newer.supersedes)))
        self._embed_missing(vec_of, [old.content])
        vectors = vec_of[old.content][None, :]
        done.begin()
        self.store.upsert(entity_id, [period], vectors)
        done.upsert([period], vectors)
        self.store.update_seen(entity_id, changed)
        done.update_seen(changed)
        return restored

    def _embed_missing(self, vec_of: dict[str, np.ndarray], texts: list[str]) -> None:
        """Embed those of ``texts`` that ``vec_of`` lacks, into it: texts changed since they were embedded before
        the write lock (rare)."""
        missing = [t for t in texts if t not in vec_of]
        if missing:
            vec_of.update(self._embed_texts(missing))


def _restores_version(fid: str, newer: StoredFact) -> bool:
    """Whether restoring ``fid``, which ``newer`` replaced, makes ``newer`` that version again: ``fid`` is a version
    row an update of ``newer`` left (``<newer id>@v<n>``), not a fact ``newer`` superseded."""
    return fid not in newer.supersedes and _is_version_of(fid, newer.id)


def renamed_links(facts: list[StoredFact], renames: dict[str, tuple[StoredFact, dict[str, str]]]) -> list[StoredFact]:
    """``facts`` (rows a write rewrites) with the ``supersedes`` renames of :meth:`Versions._successors_naming`
    applied, followed by the renamed facts not among them."""
    out = [replace(f, supersedes=tuple(renames[f.id][1].get(i, i) for i in f.supersedes)) if f.id in renames else f
           for f in facts]
    written = {f.id for f in facts}
    return out + [replace(f, supersedes=tuple(names.get(i, i) for i in f.supersedes))
                  for fid, (f, names) in renames.items() if fid not in written]


def named_successors(history: Sequence[StoredFact]) -> list[StoredFact]:
    """``history`` (a fact's versions) with each superseded period a restore kept as a version row (``<id>@v<n>``,
    stored ``superseded_by`` its own fact: how :meth:`Versions._versions_of` finds it) naming the fact that
    superseded it instead, the one whose ``supersedes`` lists it ("User lives in Munich." restored after "User
    moved to Hamburg.": its earlier period superseded by Hamburg, not by Munich itself). An update's version row,
    which no fact's ``supersedes`` lists, stays superseded by its fact, whose new text replaced it.

    A fact deleted since supersedes nothing: a row it superseded names no successor (``superseded_by`` ``None``),
    and so does a period a restore kept once the fact that ended it was deleted ("User lives in Porto." restored
    after "User lives in Lisbon.", then Lisbon forgotten: Porto's kept period ended, superseded by no fact, and
    Porto is valid again; not "superseded by" Porto itself, nor by the fact forgotten). Such a period is told from
    an update's version row by the text after it: the same text again (restored), where an update's is new."""
    by = {old: f.id for f in history for old in f.supersedes}
    here = {f.id for f in history}
    return [replace(f, superseded_by=_successor(f, by, here, history)) for f in history]


def _successor(f: StoredFact, by: dict[str, str], here: set[str], history: Sequence[StoredFact]) -> str | None:
    """The fact that superseded ``f`` in its ``history`` (:func:`named_successors`): ``by`` names the fact whose
    ``supersedes`` lists each row; ``here``: the ids of the history's rows."""
    if f.superseded_by is None or f.id in by and f.superseded_by == version_of(f.id):
        return by[f.id] if f.superseded_by is not None else None
    if f.superseded_by not in here or _began_after(f.superseded_by, f, history):
        return None  # deleted since (and, the same id, said again after this period ended: not what ended it)
    if f.superseded_by == version_of(f.id) and f.valid_to is not None and _same_text_after(f, history):
        return None  # a kept period whose ending fact was deleted: the fact holds again, superseded by none
    return f.superseded_by


def _began_after(fact: str, period: StoredFact, history: Sequence[StoredFact]) -> bool:
    """Whether every row of ``fact`` in ``history`` (its own and its version rows) became valid after ``period``
    ended: ``fact`` cannot be what ended it (a fact deleted and added again later under the same id)."""
    if period.valid_to is None:
        return False
    starts = [iso_to_ts(f.valid_since) for f in history if fact in (f.id, version_of(f.id)) and f.valid_since]
    return bool(starts) and min(starts) > iso_to_ts(period.valid_to)


def _same_text_after(period: StoredFact, history: Sequence[StoredFact]) -> bool:
    """Whether the row of ``period``'s fact that became valid next, at or after ``period`` ended, says its text:
    the fact held again as it was (a restore, or the fact said again), not an update's new text."""
    fact = version_of(period.id)
    end = iso_to_ts(period.valid_to)
    after = [f for f in history if f.id != period.id and fact in (f.id, version_of(f.id))
             and iso_to_ts(f.valid_since) >= end]
    nxt = min(after, key=lambda f: iso_to_ts(f.valid_since), default=None)
    return nxt is not None and nxt.content == period.content
