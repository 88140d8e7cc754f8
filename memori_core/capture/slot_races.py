"""A change of a slot another process stated at the same moment, settled as one process would have:
:func:`settle_slot_races`.

Capture ends a stored fact only when the extractor, shown the user's facts before the write, says the new fact
replaces it. Two processes capturing one user at once (tester j20, finding 8: "I moved to Porto last month." in
one, "I moved to Braga yesterday." in the other, a minute apart) each looked before the other wrote, so neither was
shown the other's home: both stayed valid, where one process ends Porto. The second look after a write
(:mod:`.repeats`) compares statements, not changes. So on a shared store, after its write and still under its
statement lock, a capture reads the user's newest valid facts again; those another writer stored after this
capture looked (a ``seq`` from then on, not among the facts it was shown nor its own) are racers, and the extractor
is asked once more, over the same turn, with the racers as the facts it is shown. Each racer a new fact of the
turn supersedes is settled by the time each was said, as a late turn is in one process: the earlier said is ended
by the later said, at the later one's time (:meth:`~memori_core.RecallEngine.end_raced`); said at the same time,
the racer ends.

Why both processes agree: the look begins by waiting for the other processes' writes under way
(:meth:`~memori_core.RecallEngine.wait_for_writes`), so the later written of two writers sees the earlier one's
facts and settles the pair; when both see each other's, both apply the same rule (the later said stays).
What it costs: on a shared store, after a capture that stored facts, one read of the user's newest facts (the
revision record, and a reload only when another process wrote); the extractor runs again only when a racer is
found. What it does not settle: the other writer's change of a fact this capture stored, when that writer wrote
first and its extractor (not this one's) would have read the change (this capture's extractor reads only its own
turn); a racer outside the user's :data:`RACERS_CHECKED` newest facts; writers whose clocks (``seq``) disagree by
more than the time between their writes; the same words captured by both at once, one row whose
``times_seen`` keeps one writer's count (docs/stores.md, "The same words said in two processes"). A store failure
here is logged and leaves both valid.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from ..error_log import warn_briefly
from ..extraction.types import FactExtractor, Message
from ..text import normalize_fact_text
from ..validate import iso_to_ts
from .repeats import on_a_shared_store

__all__ = ["RACERS_CHECKED", "settle_slot_races"]

_logger = logging.getLogger("memori_core.capture")

RACERS_CHECKED = 20
"""How many of the user's newest valid facts a capture reads again after its write for a racing change."""


def settle_slot_races(engine: Any, entity_id: str, turn: Sequence[Message], extractor: FactExtractor,
                      ids: Sequence[str], looked: int, shown: Collection[str], said_at: datetime | None) -> list[str]:
    """After a capture of ``turn`` wrote ``ids`` for ``entity_id`` (its look at the user's facts begun at
    ``looked``, ``time.time_ns()``, showing the extractor the facts ``shown``), on a shared store: the changes
    another process stored meanwhile settled (module docstring). Returns the ids ended; nothing on a store only
    this process writes, or for an extractor that reads no stored facts."""
    if not ids or not on_a_shared_store(engine) or not getattr(extractor, "uses_existing_facts", False):
        return []
    try:
        return _settle(engine, entity_id, turn, extractor, ids, looked, shown, said_at)
    except Exception as exc:  # noqa: BLE001 - the write landed: both stay valid, as before this look
        warn_briefly(_logger, exc, "looking again for a change another process stored for entity %r failed; both "
                     "may stay valid", entity_id)
        return []


def _settle(engine: Any, entity_id: str, turn: Sequence[Message], extractor: FactExtractor, ids: Sequence[str],
            looked: int, shown: Collection[str], said_at: datetime | None) -> list[str]:
    engine.wait_for_writes(entity_id)
    mine = {f.id: f for f in engine.get(entity_id, list(ids)) if f.valid_to is None}
    racers = [f for f in engine.list(entity_id, limit=RACERS_CHECKED)
              if f.seq >= looked and f.id not in mine and f.id not in shown]
    if not mine or not racers:
        return []
    by_text = {normalize_fact_text(f.content): f for f in mine.values()}
    racer_ids = {f.id: f for f in racers}
    pairs: list[tuple[str, str]] = []
    for fact in extractor.extract(list(turn), racers):
        own = by_text.get(normalize_fact_text(fact.text)) if isinstance(fact.text, str) else None
        if own is None:
            continue
        for fid in getattr(fact, "supersedes", ()) or ():
            racer = racer_ids.get(fid)
            if racer is not None:
                pairs.append(_ordered(own, racer, said_at))
    return engine.end_raced(entity_id, list(dict.fromkeys(pairs))) if pairs else []


def _ordered(own: Any, racer: Any, said_at: datetime | None) -> tuple[str, str]:
    """``(ended, by)`` of a fact this capture stored that replaces a racer: the earlier said ends (a late turn's
    change lands in the past, as in one process); said at the same time, the racer."""
    mine = said_at.timestamp() if said_at is not None else iso_to_ts(own.created_at)
    return (own.id, racer.id) if mine < iso_to_ts(racer.created_at) else (racer.id, own.id)
