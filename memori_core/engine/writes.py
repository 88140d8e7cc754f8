"""The write path of :class:`~memori_core.engine.RecallEngine`: ``add``, ``update`` (and ``expire``), ``delete`` and
``forget``, in one :class:`WritePath`. Its bases hold the rest: :mod:`.versions` (a fact's earlier versions,
``restore``) and :mod:`.imports` (``import_``), over :mod:`.embedding` and :mod:`.storing` (the steps every write
takes); what replaces what in an add is worked out by :mod:`.supersede`, and what a failure part-way raises by
:mod:`.failures`.

Everything is validated and embedded before the entity's write lock is taken (the coordinator's
``writing()``); under it the store is written and the cached copy brought up to date, or dropped when the
write failed part-way (what landed is said exactly: :class:`~memori_core.PartialWriteError`). Each write
calls ``done.begin()`` right before its first change to the store (a shared store records the write's
intent there), and runs within the coordinator's deadline (twice the store's request time limit).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import Any

import numpy as np

from ..cache.cache_update import CacheUpdate
from ..error_log import warn_briefly
from ..facts import StoredFact
from ..lanes import ERASURES
from ..ranking.core import CORE_KEY
from ..store.base import PartialDeleteError, PartialWriteError, WriteOutcomeUnknown
from ..text import normalize_fact_text
from ..validate import (
    check_core,
    check_core_flag,
    check_created_at,
    check_entity_id,
    check_expiry,
    check_expiry_after,
    check_facts,
    check_id_list,
    check_ids,
    check_metadata,
    check_session_id,
    check_valid_from,
    iso_to_ts,
    per_fact,
)
from .closing import when_open
from .fact_ids import _is_version_row, _one_id, check_not_version, derived_fact_id
from .failures import _add_failure, _root_cause
from .imports import ImportPath
from .plans import Plans, check_told_by_target, put_back, started_early, told_by_ids, told_ended
from .progress import Progress, _safe_progress
from .replaced import ReplacedFactError, current_of, is_ended
from .storing import _bounded
from .successors import Successors
from .late_facts import PastPlace, landed, place_in_past, relinked, split_by_start
from .supersede import _check_known, _collapse, _linked, _split_new_and_seen, _superseded, numbered
from .text_owners import owners_of
from .told_at import check_told_after
from .versions import Versions, renamed_links


logger = logging.getLogger(__name__)

_UNSET: Any = object()


@dataclass(frozen=True)
class Forgotten:
    """What :meth:`~memori_core.RecallEngine.forget` erased: ``facts``, the entity's valid facts (expired ones
    included, as :meth:`~memori_core.RecallEngine.count` counts them), and ``older_versions``, the rows no longer
    valid that went with them (superseded facts, the earlier texts ``update`` kept). Both ``None`` when the store
    could not be read to count them: the erase went ahead all the same."""

    facts: int | None
    older_versions: int | None

    def __add__(self, other: Forgotten) -> Forgotten:
        """Both erases' counts (``None`` when either could not count)."""
        if self.facts is None or other.facts is None or self.older_versions is None or other.older_versions is None:
            return Forgotten(None, None)
        return Forgotten(self.facts + other.facts, self.older_versions + other.older_versions)


_NOW: Any = object()  # expire's expiry: the time of the edit


class WritePath(Versions, ImportPath, Successors, Plans):
    """The write methods of :class:`~memori_core.engine.RecallEngine`: ``add``, ``update``, ``delete``, ``forget``
    here, ``restore`` and ``import_`` from its bases (a mixin: the state is the engine's, declared on its bases)."""

    @when_open
    @_bounded
    def add(
        self,
        entity_id: str,
        facts: Sequence[str] | str,
        ids: Sequence[str] | None = None,
        created_at: Any = None,
        metadata: Any = None,
        *,
        session_id: Any = None,
        supersedes: Sequence[str] | str | None = None,
        expires_at: Any = None,
        progress: Progress | None = None,
        core: bool | Sequence[bool] = False,
        valid_from: Any = None,
    ) -> list[str]:
        """Store facts for ``entity_id``; returns their ids, one per input fact.

        Without ``ids``, a fact whose normalised text is already stored for the
        entity is not stored again: its ``last_seen`` / ``times_seen`` are
        updated. With ``ids``, facts are upserted by id. ``created_at`` (datetime
        or ISO 8601; default now; more than a day ahead is refused) and ``metadata`` (dict) take one value for all
        facts or a list with one per fact. ``session_id`` (a str, or one per
        fact) marks the conversation the facts were said in: facts of one
        session keep the order in which they were added, and recall lets a
        fact borrow relevance from its neighbours (``neighbour_weight``).

        ``supersedes`` lists ids of the entity's stored facts that the new
        facts replace ("User moved to Paris" over "User lives in Lyon"): in the
        same write, after the new facts are stored, each is marked no longer
        valid (``valid_to``: the earlier of now and the first new fact's
        ``created_at``; ``superseded_by``: the first new fact's id) and kept as
        history, and the new facts record them in ``supersedes``. Recall,
        ``list`` and ``count`` leave invalid facts out (``recall(as_of=...)``
        and ``list(include_invalid=True)`` see them); :meth:`history` shows a
        fact's versions and :meth:`restore` undoes a supersede. Ids of the
        facts being added and facts already superseded are ignored, except on a shared store (a server), where
        another process may have superseded the fact a moment before: there the add looks again once it has
        landed, and of the valid facts that supersede one fact (its own counted) the newest add's stay valid
        (dated alike, the first written's), the others marked superseded by its first fact (:mod:`.successors`):
        the ids returned may then name facts already history (:meth:`get` shows their ``superseded_by``). An id
        the entity has no fact with (a typo, another entity's id, or a fact
        another writer deleted after you read it) raises ``KeyError`` naming
        ``supersedes`` and the id, and nothing is written: the caller decides
        whether to add the facts without it. A ``created_at`` given before a
        replaced fact became valid (a turn told late, or out of order) does not end it: the new facts land in
        its past (:mod:`~memori_core.engine.late_facts`), stored already superseded by it (valid from their
        ``created_at`` until it began), and what it had replaced that was still valid at their
        ``created_at`` ends then, superseded by them; without ``created_at``
        the replaced fact ends now, even one a writer whose clock runs ahead
        dated later. A superseded fact whose text is added again (derived ids: moving back to Lisbon) is valid
        again from its ``created_at`` here (``valid_from``), and its
        earlier period is kept first as a version row ``<id>@v<n>``, as :meth:`update` keeps an old text, and the
        fact that had superseded it names that row in its ``supersedes``, as after :meth:`restore`: so
        ``history`` shows each period, ended by the fact that ended it, and ``recall(as_of=...)`` one of them at
        any time; one added with a
        ``created_at`` inside its own period only counts a sighting and stays superseded. ``expires_at``
        (datetime, ISO 8601, or a ``timedelta`` from now; one or one per fact) is when a fact stops
        being recalled: one at or before the fact's ``created_at`` raises
        ``ValueError`` naming it (the fact would never be valid); one already
        past but after ``created_at`` (history being backfilled) is stored
        expired, listed and exported but recalled only by ``as_of`` before
        it; a fact seen again keeps the longer life (said again without an expiry, it never
        expires; of two expiries the later wins: only :meth:`update` shortens it).
        ``valid_from`` (datetime or ISO 8601; one for all the facts) is when a change told ahead starts to hold
        ("I start at Siemens on January 4", "I'm moving to Porto on the 1st"): later than ``created_at``, the
        facts are stored valid from then (recall, now or ``as_of``, does not show them before; ``list`` and
        ``get`` do, with their ``valid_from``), and the facts ``supersedes`` names end then, not now: they stay
        recalled until that day, in the same write. :meth:`cancel` calls such a change off before it starts. One
        before a fact's ``created_at``, or not before its ``expires_at``, raises ``ValueError`` naming
        ``valid_from``.
        ``progress(stage, done, total)`` is called as a bulk add goes:
        ``"embed"`` after each embedding batch, ``"store"`` after each store
        batch (an exception it raises is logged and ignored).

        ``core`` (one bool, or one per fact) marks facts worth injecting on
        every turn (an allergy, a medication, a diet): they get ``"core": True``
        in their own metadata, and recall appends up to
        ``config.core_limit`` of them after the facts it chose, whatever the
        query. Metadata ``{"core": True}`` given by hand has the same effect;
        ``core=False`` leaves a ``"core"`` key the metadata gives alone. A
        fact seen again with ``core=True`` becomes core (a repeat without it
        stays as it was); an upsert by ``ids`` replaces the metadata, core
        flag included. ``update(..., core=False)`` unmarks a fact.

        Everything is validated and embedded before anything is written. A
        store failure after some of the facts landed (stored, or counted as
        seen again) raises :class:`~memori_core.PartialWriteError` whose
        ``stored_ids`` / ``unstored_ids`` say which (add the unstored ones
        again); superseded facts a failure left in place are named in its
        message. A change sent to a store that gave no answer (a request timed out, a connection dropped
        mid-reply) raises :class:`~memori_core.WriteOutcomeUnknown` naming the ids and texts: it may have
        landed (check with :meth:`get` or :meth:`list`; adding the same text again is safe). After any failure
        the next recall reads what the store really holds. To erase a fact for good (its history included), use
        :meth:`delete` or :meth:`forget`. When this process forgets the
        entity (:meth:`forget`) after the call began and before it wrote (a
        bulk add still embedding), nothing is written and
        :class:`~memori_core.lanes.ForgottenError` naming the entity is raised.
        """
        entity_id = check_entity_id(entity_id)
        since = ERASURES.since(entity_id)  # a forget from now on makes this add write nothing
        texts = check_facts(facts)
        report = _safe_progress(progress)
        n = len(texts)
        if n == 0:
            return []
        given_ids = check_ids(ids, n)
        now = datetime.now(timezone.utc).isoformat()
        stamps = [check_created_at(v) or now for v in per_fact(created_at, n, "created_at", (str, datetime))]
        metas = [check_metadata(m, i) for i, m in enumerate(per_fact(metadata, n, "metadata", (dict,)))]
        sessions = [check_session_id(v, i) for i, v in enumerate(per_fact(session_id, n, "session_id", (str,)))]
        expiries = [check_expiry_after(check_expiry(v), stamp, i) for i, (v, stamp) in
                    enumerate(zip(per_fact(expires_at, n, "expires_at", (str, datetime, timedelta)), stamps))]
        metas = [{**m, CORE_KEY: True} if c else m for m, c in zip(metas, check_core(core, n))]
        start = check_valid_from(valid_from, stamps, expiries)
        replaced = check_id_list(supersedes, "supersedes") if supersedes is not None else []
        out_ids = given_ids or [derived_fact_id(t) for t in texts]
        stored = None
        if given_ids is None:
            stored = self._stored(entity_id, dict.fromkeys(out_ids))
            out_ids = self._past_updates(entity_id, out_ids, texts, stored)
            out_ids = self._said_under_other_ids(entity_id, out_ids, texts, stored)
        batch = _collapse(entity_id, out_ids, texts, stamps, metas, sessions, expiries, by_id=given_ids is not None)
        if start is not None:  # a change told ahead: valid from its start (and what it replaces ends then)
            batch = {fid: replace(f, valid_from=start) for fid, f in batch.items()}
        replaced = [fid for fid in replaced if fid not in batch]
        if replaced:  # a typo fails here, before anything is embedded (checked again under the locks)
            _check_known(entity_id, replaced, self.store.get(entity_id, replaced))
        try:
            self._write_batch(entity_id, batch, replaced, derived=given_ids is None, report=report, stored=stored,
                              dated=next(iter(batch.values())).created_at != now,  # (now: no created_at given)
                              since=since)
        except WriteOutcomeUnknown as exc:
            exc.ids = list(out_ids)  # the ids to look for, derived ones included
            raise
        self._settle_successors(entity_id, replaced, list(batch))  # another process may have superseded them too
        return out_ids

    def _past_updates(self, entity_id: str, ids: list[str], texts: list[str],
                      stored: dict[str, StoredFact]) -> list[str]:
        """``ids`` (derived from ``texts``) with each whose stored fact now says something else (:meth:`update`
        gave it a new text and kept the id) moved to ``<id>-<n>``: the first of those that holds the same text,
        else the first free one. Saying the old text again then stores it, instead of counting a sighting of
        the new one. ``stored`` (the facts under ``ids``) gains the facts read under the moved ids."""
        moved: dict[str, str] = {}
        for fid, text in zip(ids, texts):
            old = stored.get(fid)
            key = normalize_fact_text(text)
            if old is not None and fid not in moved and normalize_fact_text(old.content) != key:
                moved[fid] = self._id_for_text(entity_id, fid, key, stored)
        return [moved.get(fid, fid) for fid in ids]

    def _said_under_other_ids(self, entity_id: str, ids: list[str], texts: list[str],
                              stored: dict[str, StoredFact]) -> list[str]:
        """``ids`` with each that no fact is stored under but another fact's text derives (an update gave it that
        text: :func:`.text_owners.owners_of`) replaced by that fact's id, which ``stored`` gains: the text said
        again is a sighting of it, not a second fact."""
        missing = [fid for fid, text in zip(ids, texts) if fid not in stored and fid == derived_fact_id(text)]
        owners = owners_of(self.store, entity_id, missing)
        stored.update({f.id: f for f in owners.values()})
        return [owners[fid].id if fid in owners else fid for fid in ids]

    def _id_for_text(self, entity_id: str, fid: str, key: str, stored: dict[str, StoredFact]) -> str:
        """The first ``<fid>-<n>`` (n = 1, 2, ...) that holds the normalised text ``key`` or is free."""
        start = 1
        while True:
            probe = [f"{fid}-{n}" for n in range(start, start + 8)]
            got = self._stored(entity_id, probe)
            stored.update(got)
            for candidate in probe:
                if candidate not in got or normalize_fact_text(got[candidate].content) == key:
                    return candidate
            start += 8

    def _write_batch(self, entity_id: str, batch: dict[str, StoredFact], replaced: list[str], *, derived: bool,
                     report: Progress | None, stored: dict[str, StoredFact] | None = None,
                     dated: bool = False, since: int | None = None) -> None:
        """Store ``batch`` (derived ids: facts already stored count as seen again; ``stored``: those facts, if
        read already) and mark ``replaced`` superseded by it (``dated``: the caller gave ``created_at``; see
        :meth:`_ended_by`). An id of ``replaced`` not stored (any more) raises before anything is written, and
        so does a ``forget`` of the entity after erase generation ``since``
        (:class:`~memori_core.lanes.ForgottenError`)."""
        # Embed (slow) before taking the locks, only what is not stored yet...
        if derived and stored is None:
            stored = self._stored(entity_id, batch)
        new, _, again = _split_new_and_seen(batch, stored if derived and stored is not None else {})
        vec_of = self._embed_new(new, report)
        vec_of.update(self._embed_new(again))  # their periods' archives

        with self._coord.writing(entity_id, since=since) as done:
            # ...and decide under them, so that concurrent adds of one fact count every sighting; the order of
            # writes every process reads (``seq``) is taken here too.
            batch = numbered(batch)
            existing = self._stored(entity_id, batch) if derived else {}
            new, seen, again = _split_new_and_seen(batch, existing)  # again: superseded facts said again
            periods = self._past_periods(entity_id, [existing[f.id] for f in again])
            renames = self._successors_naming(entity_id, [existing[f.id] for f in again], periods, set(batch))
            late = [f for f in [*new, *again] if f.id not in vec_of]
            if late:  # deleted, or superseded, meanwhile: embed now (rare)
                vec_of.update(self._embed_new(late))
            found = self.store.get(entity_id, replaced) if replaced else []
            _check_known(entity_id, replaced, found)  # deleted since the check before embedding: nothing written
            olds = [f for f in found if f.valid_to is None]
            superseded, place = self._ended_by(entity_id, olds, batch, dated=dated, lands=bool(new or again))
            # a change told ahead said again as begun ("Survived my first day at the new job!") ends what it
            # replaces at its new start, in the same write
            superseded += started_early(seen, existing, lambda ids: self.store.get(entity_id, ids))
            new, again = _linked(new, superseded), _linked(again, superseded)
            seen = [*_linked([f for f in seen if f.valid_to is None], superseded),
                    *(f for f in seen if f.valid_to is not None)]  # (a sighting dated before it ended: as it was)
            relinks: list[StoredFact] = []
            if place is not None:
                new, again = landed(new, place), landed(again, place)
                relinks = relinked(place, [f.id for f in [*new, *again]])
            seen += again
            # the facts that had ended those said again now name their kept periods, as after a restore
            ended_links = renamed_links([*superseded, *relinks], renames)
            written: list[str] = []  # facts whose write landed, step by step
            done.begin()
            if periods:  # first the past period of each superseded fact said again, kept as a version row
                period_vectors = np.stack([vec_of[f.id] for f in again])  # the same texts
                try:
                    self.store.upsert(entity_id, periods, period_vectors)
                except PartialWriteError as exc:  # no fact of the call landed: the store's own error says it
                    root = _root_cause(exc)
                    raise root from root.__cause__  # the partial write's wrapper hidden, the store's detail kept
                done.upsert(periods, period_vectors)
            try:
                if new:
                    vectors = np.stack([vec_of[f.id] for f in new])
                    tokens = self._coord.write_and_tokenise(new, lambda: self._upsert(entity_id, new, vectors, report))
                    written += [f.id for f in new]
                    done.upsert(new, vectors, tokens)
                if seen:
                    self.store.update_seen(entity_id, seen)
                    written += [f.id for f in seen]
                    done.update_seen(seen)
            except Exception as exc:
                failure = _add_failure(entity_id, [*new, *seen], written, [f.id for f in superseded], exc)
                if failure is exc:
                    raise
                raise failure from _root_cause(exc)
            if ended_links:
                try:
                    self.store.update_seen(entity_id, ended_links)
                except Exception as exc:
                    cause = _root_cause(exc)
                    raise PartialWriteError(
                        f"stored every fact for entity {entity_id!r}, but marking the superseded facts "
                        f"({', '.join(f.id for f in ended_links)}) as superseded failed: {cause}",
                        [f.id for f in [*new, *seen]], [],
                    ) from cause
                done.update_seen(ended_links)

    def _ended_by(self, entity_id: str, olds: list[StoredFact], batch: dict[str, StoredFact], *, dated: bool,
                  lands: bool) -> tuple[list[StoredFact], PastPlace | None]:
        """The facts an add of ``batch`` ends (``olds``: the valid facts it supersedes, marked superseded by its
        first fact), and where its facts land when it is dated (``dated``) before some of them became valid
        (:mod:`.late_facts`; ``lands``: the add makes a fact valid). Those stay valid; it ends what they had
        replaced that was valid when it was said. An add that makes no fact valid (sightings only) leaves them
        alone (under the write lock)."""
        first = next(iter(batch.values()))
        if not dated or first.created_at is None:
            return _superseded(olds, first), None
        earlier, later = split_by_start(olds, first.created_at)
        place = None
        if later and lands:
            place = place_in_past(later, first.created_at, lambda ids: self.store.get(entity_id, ids), batch)
        return _superseded([*earlier, *(place.ended if place else ())], first), place

    @when_open
    @_bounded
    def delete(self, entity_id: str, ids: Sequence[str], *, told_by: Sequence[str] = (), at: Any = None) -> list[str]:
        """Delete some of ``entity_id``'s facts by id; returns the ids that were stored (and are deleted now),
        in the order given, each once. Unknown ids are ignored.

        Deleting erases: the fact leaves the store, and so do its earlier versions
        (the ``<id>@v<n>`` rows :meth:`update` kept); nothing of it stays as history
        (use this, or :meth:`forget`, to honour a request to erase data). Facts it
        had superseded, or that superseded it, are separate facts and stay (those
        a change told ahead was to end at its start, before it came, hold on
        again with no end, in the same write, as :meth:`cancel` leaves them; ``told_by``, as in :meth:`cancel`:
        the facts that told such a change, "User got a new job at Siemens, starting in January 2027.", ended now
        in that write, kept as history, not erased; nothing is written when no id is stored; ``told_by`` for
        a delete of no change to come raises :class:`~memori_core.engine.NothingToCancelError` naming
        ``told_by``, as :meth:`cancel` refuses such a fact, and writes nothing). The id
        of one earlier version (``<id>@v<n>``, see :meth:`history`) erases that
        version alone: an administrator may erase one old text while the fact
        and its other versions stay. (The agent tools and the MCP server refuse
        version ids: a model edits and deletes facts, not their history.)

        A store failure after some of them were deleted raises
        :class:`~memori_core.PartialDeleteError` with ``deleted_ids`` and
        ``remaining_ids`` (read back from the store; deleting the remaining ones
        again is exact); after any failure the next recall reads what the store
        really holds. A delete of a change to come writes twice (what it was to
        end, put back; then the delete): when the delete fails after the first
        landed, the ``PartialDeleteError`` names the facts put back and the ``told_by`` facts ended too.

        ``at``: when the delete was told (as in :meth:`update`; ``None``: now), the time a change to come is
        judged still to come at and the ``told_by`` facts end at; one before a fact it deletes was stated raises
        ``ValueError`` naming ``at``, and nothing is deleted.
        """
        entity_id = check_entity_id(entity_id)
        when = check_created_at(at, "at")
        id_list = check_id_list(ids, "ids")
        plan_ids = told_by_ids(told_by, id_list)
        if not id_list or not self.store.present(entity_id, id_list):
            return []  # nothing to delete: no write, so the revision (and a snapshot) stay as they are
        present: list[str] = []

        def erase(done: CacheUpdate) -> None:
            # Under the locks: exact. Again, for a second pass (an update in another process that read these facts
            # before the first delete may have written them, and a new version, back after it).
            present[:] = present or self.store.present(entity_id, id_list)
            if present:
                gone = [*present, *(v for v in self._versions_of(entity_id, present) if v not in present)]
                read = lambda wanted: self.store.get(entity_id, wanted)  # noqa: E731
                # A change to come erased: what it was to end at its start holds on (then the delete: retried exactly).
                now = iso_to_ts(when) if when else time.time()
                targets = read(present)
                check_told_after(when, targets)
                if plan_ids:
                    check_told_by_target(entity_id, targets, now, "delete")
                restored = put_back(targets, read, now, gone)
                ended = told_ended(read([i for i in plan_ids if i not in gone]),
                                   datetime.fromtimestamp(now, timezone.utc).isoformat(),
                                   [b.id for b in restored]) if plan_ids else []
                back = [*restored, *ended]
                done.begin()
                if back:
                    self.store.update_seen(entity_id, back)
                    done.update_seen(back)
                try:
                    self.store.delete(entity_id, gone)
                except Exception as exc:
                    if not back or isinstance(exc, WriteOutcomeUnknown):
                        raise
                    raise _put_back_then_failed(entity_id, restored, ended, present, exc) from _root_cause(exc)
                done.remove(gone)

        self._coord.erase(entity_id, erase)
        return present

    @when_open
    @_bounded
    def forget(self, entity_id: str) -> Forgotten:
        """Delete every fact of ``entity_id``, history included (and nothing of any other entity); returns what it
        erased (:class:`Forgotten`), counted under the entity's write lock right before each delete: the rows by
        one request, the older versions off the copy of the entity this process holds (read by an earlier
        ``count``, ``list`` or recall). Without such a copy the counts are ``None``: loading one would spend the
        erase's time limit, and an erase is never held up by its count.

        Writes of this process that began before the call write nothing after it returns
        (:mod:`memori_core.lanes`): an ``add`` or ``import_`` of the entity still embedding raises
        :class:`~memori_core.lanes.ForgottenError` naming the entity instead of writing, and a background
        capture (an adapter's ``capture=True``) of a turn that began before it, queued or running, stores
        nothing (it is counted as erased). One that had already written is deleted with the rest. ``forget``
        does not wait for them.

        A store server that does not answer raises :class:`~memori_core.StoreTimedOut` or
        :class:`~memori_core.StoreUnreachable` (before the delete was sent, or on a shared store while the erase's
        mark is taken off after it), or :class:`~memori_core.WriteOutcomeUnknown` when the delete itself got no
        answer: after any of them the facts may or may not be gone. Calling ``forget`` again when the store
        answers is safe and erases everything."""
        entity_id = check_entity_id(entity_id)
        ERASURES.erase(entity_id)  # before the delete takes the entity's write lock: see memori_core.lanes
        erased: list[Forgotten] = []

        def erase(done: CacheUpdate) -> None:
            erased.append(self._erasing(entity_id))
            done.begin()
            self.store.forget(entity_id)
            done.drop()

        self._coord.erase(entity_id, erase)  # (run again after writes that raced it: their rows counted too)
        return sum(erased[1:], erased[0])

    def _erasing(self, entity_id: str) -> Forgotten:
        """What a ``forget`` under the entity's write lock is about to erase: the store's rows (one request), those
        no longer valid read off the copy this process holds (its writes keep it current); ``None`` for both
        without that copy, which is not loaded here (it would spend the erase's time limit). A store that cannot
        be read is warned and counts nothing: an erase never fails for its count."""
        try:
            rows = self.store.count(entity_id)
            if not rows:
                return Forgotten(0, 0)
            with self._coord.entity_lock(entity_id):
                cache = self._coord.caches.get(entity_id)
                older = None if cache is None else int(cache.invalid_rows(time.time()).size)
            if older is None:
                return Forgotten(None, None)
        except Exception as exc:  # noqa: BLE001 - the erase goes on, and fails on its own if the store is down
            warn_briefly(logger, exc, "forget of entity %r: its facts could not be counted; erasing them all the "
                                      "same", entity_id)
            return Forgotten(None, None)
        return Forgotten(rows - older, older)

    @when_open
    @_bounded
    def update(
        self,
        entity_id: str,
        id: str,
        *,
        text: str | None = None,
        metadata: dict[str, Any] | None = None,
        expires_at: Any = _UNSET,
        core: bool | None = None,
        at: Any = None,
    ) -> StoredFact:
        """Edit one stored fact and return it; its id, session place and sightings are kept.

        A new ``text`` is re-embedded; ``metadata`` replaces the user metadata
        (pass the whole dict); ``expires_at`` sets (``None`` clears) the
        expiry, which must come after the fact's ``created_at``, as :meth:`add` requires (one at or before it
        would unmake the fact's past, ``recall(as_of=...)``, and raises ``ValueError`` naming ``expires_at``:
        :meth:`expire` ends a fact now); ``core=True`` / ``False`` marks / unmarks the fact core (its
        ``"core"`` metadata key, applied after ``metadata``; ``None`` leaves it
        as the metadata says). ``updated_at`` records when. An unknown id raises ``KeyError``; the id of a
        version row (``<id>@v<n>``, superseded by ``<id>``; a fact of your own whose id only looks like one
        is updated as any) raises ``ValueError``: history is changed only by :meth:`restore`, or erased
        with :meth:`delete`.
        A new text keeps the fact as it was as history: a version row
        ``<id>@v<n>`` (n = 1, 2, ...), no longer valid, ``superseded_by`` the
        fact (see :meth:`history`; :meth:`restore` of the version undoes the
        update). The new text holds from now, or for a change told ahead
        (``add(..., valid_from=...)``) from its start still, the old text's version
        then ending at that start, having held at no time. Metadata, expiry and core
        edits change the fact in place (no version, nothing re-embedded).
        Note that the id stays the one derived from the old text: adding the
        new text later without ``ids`` counts a sighting of this fact (found by
        its text, :mod:`~memori_core.engine.text_owners`), not a second fact, and adding
        the old text again stores it anew (under ``<id>-<n>``), not as a
        sighting of the new text.

        A new text for a fact that is no longer valid (a newer fact replaced it, as ``add(supersedes=...)`` or a
        model's ``remember`` of a change does) raises :class:`~memori_core.engine.ReplacedFactError` (a
        ``ValueError``) naming the fact that holds in its place now, and nothing is written. Its text is what held
        until it was replaced: rewriting it would change the past and leave what holds now as it was, and the
        update is not moved to the newer fact either, which may say something else altogether (a wrong supersede
        joins two true facts: "User's mother lives in Porto." ended by "User lives in Porto."). So the caller
        updates the fact the error names, or restores the old one first (:meth:`restore`). Metadata, expiry and
        core edits of such a fact are made in place, as of any fact.

        ``at``: when the edit was told (a ``datetime`` or ISO 8601 string, read as ``created_at``; ``None``: now),
        for a conversation replayed later: the new text holds from then and the old one ends then (``updated_at``
        is then too); one before the fact was stated raises ``ValueError`` naming ``at``.
        """
        return self._edit(entity_id, id, text=text, metadata=metadata, expires_at=expires_at, core=core, at=at)

    @when_open
    @_bounded
    def expire(self, entity_id: str, id: str, *, told_by: Sequence[str] = (), at: Any = None) -> StoredFact:
        """Make fact ``id`` expire now and return it: its ``expires_at`` becomes the time of the call (an earlier
        one is kept), so recall no longer returns it; :meth:`list`, :meth:`get` and :meth:`export` still show it
        until it is deleted, and ``recall(as_of=...)`` before now still sees it. An edit in place, as
        :meth:`update` of the expiry (``updated_at`` records when), with its errors: ``KeyError`` for an unknown
        id, ``ValueError`` for a version row's. A change told ahead expired before its start never starts: the
        facts it was to end then hold on with no end, in the same write; ``told_by``, as in :meth:`cancel`: the
        facts that told it, ended now in that write (for a fact that is no change to come,
        :class:`~memori_core.engine.NothingToCancelError` naming ``told_by``, and nothing is written). ``at``: when
        it ended, as in :meth:`update` (``None``: now)."""
        return self._edit(entity_id, id, expires_at=_NOW, told_by=told_by, at=at)

    def _edit(self, entity_id: str, id: str, *, text: str | None = None, metadata: dict[str, Any] | None = None,
              expires_at: Any = _UNSET, core: bool | None = None, told_by: Sequence[str] = (),
              at: Any = None) -> StoredFact:
        """:meth:`update`, and :meth:`expire` (``expires_at=_NOW``, with the ``told_by`` facts it ends)."""
        entity_id = check_entity_id(entity_id)
        when = check_created_at(at, "at")
        fid_s = _one_id(id, "id")
        plan_ids = told_by_ids(told_by, [fid_s])
        new_text = check_facts(text)[0] if text is not None else None
        new_meta = check_metadata(metadata, 0) if metadata is not None else None
        new_expiry = None if expires_at is _UNSET or expires_at is _NOW else check_expiry(expires_at)
        new_core = check_core_flag(core)
        before = self.store.get(entity_id, [fid_s]) if new_text is not None else []
        if before and _is_version_row(before[0]):  # (checked again under the locks)
            check_not_version(fid_s)
        changes_text = bool(before) and new_text != before[0].content
        if changes_text:  # (checked again under the locks)
            self._check_valid(entity_id, before[0], when or datetime.now(timezone.utc).isoformat())
        vec_of = self._embed_texts([new_text, before[0].content]) if changes_text and new_text is not None else {}
        with self._coord.writing(entity_id) as done:
            old = self.store.get(entity_id, [fid_s])
            if not old:
                raise KeyError(f"entity {entity_id!r} has no fact with id {fid_s!r}")
            if _is_version_row(old[0]):
                check_not_version(fid_s)
            meta = dict(new_meta if new_meta is not None else old[0].metadata)
            if new_core is True:
                meta[CORE_KEY] = True
            elif new_core is False:
                meta.pop(CORE_KEY, None)
            now = when or datetime.now(timezone.utc).isoformat()
            check_told_after(when, old)
            if expires_at is _UNSET:
                expiry = old[0].expires_at
            elif expires_at is _NOW:
                expiry = min((now, old[0].expires_at or now), key=iso_to_ts)
            else:
                expiry = check_expiry_after(new_expiry, old[0].created_at)
            fact = replace(
                old[0],
                content=new_text if new_text is not None else old[0].content,
                metadata=meta,
                expires_at=expiry,
                updated_at=now,
            )
            if fact.content == old[0].content:
                # An expired change to come never starts: what it was to end holds on, in the same write.
                back = put_back([old[0]], lambda ids: self.store.get(entity_id, ids), iso_to_ts(now)) \
                    if expires_at is _NOW else []
                if plan_ids:
                    check_told_by_target(entity_id, old, iso_to_ts(now), "expire")
                    back += told_ended(self.store.get(entity_id, plan_ids), now, [fid_s, *(b.id for b in back)])
                done.begin()
                self.store.update_seen(entity_id, [fact, *back])  # the same text: edited in place, no version
                done.update_seen([fact, *back])
                return fact
            self._check_valid(entity_id, old[0], now)
            # The new text is true from now on (``as_of`` reads it), or, for a fact dated ahead of this clock, from
            # its own time: never before it was stated; a change told ahead still from its start.
            fact = replace(fact, valid_from=max((now, old[0].created_at, old[0].valid_from or now), key=iso_to_ts))
            # The old text ends now, or, never having held (a change to come), at its start: valid at no time.
            ended = now if not old[0].valid_from or iso_to_ts(old[0].valid_from) <= iso_to_ts(now) \
                else old[0].valid_from
            missing = [t for t in (fact.content, old[0].content) if t not in vec_of]
            if missing:  # the text changed meanwhile (rare): embed now
                vec_of.update(self._embed_texts(missing))
            version = replace(old[0], id=self._next_version_id(entity_id, fid_s),
                              valid_to=ended, superseded_by=fid_s)
            rows = [version, fact]
            vectors = np.stack([vec_of[old[0].content], vec_of[fact.content]])
            done.begin()
            self.store.upsert(entity_id, rows, vectors)
            done.upsert(rows, vectors)
        return fact

    def _check_valid(self, entity_id: str, fact: StoredFact, now: str) -> None:
        """Refuse a new text for ``fact`` when it is no longer valid at ``now``: :class:`.ReplacedFactError` names
        the fact that holds in its place."""
        if is_ended(fact, now):
            raise ReplacedFactError(entity_id, fact, current_of(fact, lambda ids: self.store.get(entity_id, ids), now))


def _put_back_then_failed(entity_id: str, restored: Sequence[StoredFact], ended: Sequence[StoredFact],
                          present: Sequence[str], exc: Exception) -> PartialDeleteError:
    """The error of a delete of a change to come whose first write landed (``restored``: what it was to end, valid
    again; ``ended``: the ``told_by`` facts that told it, ended) and whose delete failed (``exc``): what landed,
    each named as what it is; deleting again is exact (nothing is put back or ended twice)."""
    deleted = list(exc.deleted_ids) if isinstance(exc, PartialDeleteError) else []
    remaining = list(exc.remaining_ids) if isinstance(exc, PartialDeleteError) else [i for i in present]
    landed = []
    if restored:
        landed.append(f"the facts the change to come was to end ({', '.join(b.id for b in restored)}) hold again")
    if ended:
        landed.append(f"the facts that told it (told_by: {', '.join(p.id for p in ended)}) are ended")
    return PartialDeleteError(
        f"deleting facts of entity {entity_id!r} failed: {_root_cause(exc)}; {' and '.join(landed)} already (that "
        f"write landed); deleted: {', '.join(deleted) or 'none'}, still stored: {', '.join(remaining) or 'none'} "
        "(deleting them again is exact)", deleted, remaining)
