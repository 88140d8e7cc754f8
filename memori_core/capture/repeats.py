"""A statement two processes stored at once, in other words, kept once: :func:`settle_repeats`.

The statement lock (:mod:`.statements`) is the process's only. Writers in two processes over one shared store (a
Chroma server) can each look at the user's facts before the other writes, and both store the statement: capture's
"User's band rehearses every tuesday at 7." beside a ``remember("User's band rehearses every Tuesday at 7pm.")``
of another process. (The same words need nothing more: their id is derived from the normalised text, so the second
write lands on the first's row.) So on a shared store every writer of statements looks again right after its
write, still under its statement lock: its new facts that say what another valid fact says
(:func:`~memori_core.extraction.same_statement.same_fact`), among the user's newest facts and those ranked nearest
to each, are settled by one rule every process applies alike: the first written (the smaller ``seq``, then id)
stays, and the writer deletes each of its new facts that is not that one (never another writer's fact).

Why that is enough for two writers, A and B: a write's ``seq`` is taken under its write lock, after its intent
is on the user's revision record (:func:`~memori_core.engine.supersede.numbered`), and A's second look begins
by waiting until the writes of other processes whose intents are on the record have ended
(:meth:`~memori_core.RecallEngine.wait_for_writes`), and a read sees every write finished before it began. So
of two writers the later written (B) always sees the earlier one's fact: A recorded its intent before it took
its ``seq``, so B's wait found it on the record, or A's write had finished. B deletes its own fact; A keeps its
own whether or not it sees B's. So the fact a writer keeps (and a ``remember`` answers with) is the one that
stays: no other writer deletes it. (Deleting a racer instead would take a fact its writer may have answered
with already.) Where that fails, a repeat stays, never a fact a writer answered with: a write still under
way after the wait's bound (a write in doubt), or writers on hosts whose clocks (``seq``) disagree by more
than the time between their writes. A fact that ended others is
never deleted (its links would be lost): two such stay. What it costs: on a shared store, after each write that
stored a new fact, four small requests (the user's revision record, polled while another process's write is
under way, for at most the time a write in doubt takes to settle; the written rows read by id; and the revision
record before the newest facts and before each new fact's ranking, both over the process's copy, which is
reloaded only when another process wrote), one more read when a fact says the same, and a ``delete`` when a
repeat is found; nothing on a store only this process writes to (an embedded folder, memory), where the
statement lock suffices. A store failure of that second look is logged and leaves the repeat: the write itself
stands.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ..engine.fact_ids import is_version_id
from ..error_log import warn_briefly
from ..extraction.same_statement import same_fact
from ..facts import StoredFact

if TYPE_CHECKING:
    from ..store.base import FactStore

__all__ = ["NEAREST_CHECKED", "NEWEST_CHECKED", "asettle_repeats", "on_a_shared_store", "repeats", "settle_repeats"]

_logger = logging.getLogger("memori_core.capture")

NEWEST_CHECKED = 20
"""How many of the user's newest facts a writer looks at again after its write (a racing write is among them)."""

NEAREST_CHECKED = 10
"""How many of the user's facts ranked nearest to each new fact it looks at too (a racer dated long ago)."""


def _order(fact: StoredFact) -> tuple[int, str]:
    """The order facts were written in, the same in every process: ``seq`` (taken under its write's lock), then
    id."""
    return fact.seq, fact.id


def _plain(fact: StoredFact) -> bool:
    """A valid fact that ends no other: one a repeat may be settled by deleting."""
    return fact.valid_to is None and not fact.supersedes and not is_version_id(fact.id)


def repeats(new: Sequence[StoredFact], others: Iterable[StoredFact]) -> dict[str, StoredFact]:
    """Which facts to delete, each with the fact that stays: each of ``new`` (the facts a write just stored) that
    says what a valid one of ``others`` written before it says goes, in favour of the first written of them.
    Only the writer's own facts go: a racer written later deletes its own (module docstring), and its writer may
    have answered with it already."""
    valid = [f for f in others if f.valid_to is None]
    out: dict[str, StoredFact] = {}
    for fact in new:
        group = [fact, *(o for o in valid if o.id != fact.id and same_fact(fact.content, [o]) is not None)]
        keeper = min(group, key=_order)
        if keeper is not fact and keeper.id not in out and _plain(fact):
            out[fact.id] = keeper
    return out


def _new_facts(facts: Sequence[StoredFact], since: int) -> list[StoredFact]:
    """The facts a write stored anew (``seq`` from its ``add``, begun after ``since``, time.time_ns), not sightings."""
    return [f for f in facts if f.seq >= since and _plain(f)]


def _looked_at(new: Sequence[StoredFact], newest: Sequence[Any], nearest: Iterable[Any]) -> list[str]:
    """The ids of the facts read again that say what one of ``new`` says."""
    return list(dict.fromkeys(o.id for o in [*newest, *nearest] for f in new
                              if o.id != f.id and same_fact(f.content, [o]) is not None))


def on_a_shared_store(engine: Any) -> bool:
    """Whether other processes write to ``engine``'s store: its :attr:`~memori_core.store.FactStore.shared`, which
    the store protocol declares (an engine-like object without a store: no)."""
    store: FactStore | None = getattr(engine, "store", None)
    return store is not None and bool(store.shared)


def _unsettled(entity_id: str, exc: Exception) -> dict[str, StoredFact]:
    # The write itself landed: a store failure of the second look leaves a repeat, as before it, not a failed write.
    warn_briefly(_logger, exc, "looking again for a statement another process stored for entity %r failed; a "
                 "repeat in other words may stay", entity_id)
    return {}


def settle_repeats(engine: Any, entity_id: str, ids: Sequence[str], since: int) -> dict[str, StoredFact]:
    """After a write of ``ids`` for ``entity_id`` begun at ``since`` (``time.time_ns()`` before its ``add``), under
    the writer's statement lock: the repeats of its new facts another process stored meanwhile deleted (module
    docstring); returns each deleted id with the fact that stays. Nothing on a store only this process writes; a
    store failure is logged, and nothing is deleted."""
    if not ids or not on_a_shared_store(engine):
        return {}
    try:
        return _settle(engine, entity_id, ids, since)
    except Exception as exc:  # noqa: BLE001 - see _unsettled
        return _unsettled(entity_id, exc)


async def asettle_repeats(engine: Any, entity_id: str, ids: Sequence[str], since: int) -> dict[str, StoredFact]:
    """Async :func:`settle_repeats`."""
    if not ids or not on_a_shared_store(engine):
        return {}
    try:
        return await _asettle(engine, entity_id, ids, since)
    except Exception as exc:  # noqa: BLE001 - see _unsettled
        return _unsettled(entity_id, exc)


def _settle(engine: Any, entity_id: str, ids: Sequence[str], since: int) -> dict[str, StoredFact]:
    engine.wait_for_writes(entity_id)
    new = _new_facts(engine.get(entity_id, list(ids)), since)
    if not new:
        return {}
    nearest = [hit for f in new for hit in engine.nearest(f.content, entity_id, NEAREST_CHECKED)]
    same = _looked_at(new, engine.list(entity_id, limit=NEWEST_CHECKED), nearest)
    gone = repeats(new, engine.get(entity_id, same)) if same else {}
    if gone:
        engine.delete(entity_id, list(gone))
    return gone


async def _asettle(engine: Any, entity_id: str, ids: Sequence[str], since: int) -> dict[str, StoredFact]:
    await engine.await_for_writes(entity_id)
    new = _new_facts(await engine.aget(entity_id, list(ids)), since)
    if not new:
        return {}
    nearest = [hit for f in new for hit in await engine.anearest(f.content, entity_id, NEAREST_CHECKED)]
    same = _looked_at(new, await engine.alist(entity_id, limit=NEWEST_CHECKED), nearest)
    gone = repeats(new, await engine.aget(entity_id, same)) if same else {}
    if gone:
        await engine.adelete(entity_id, list(gone))
    return gone
