"""A fact said again after another replaced it ("No wait, I still live in Porto." after "User lives in Porto." was
replaced by "User lives in Lisbon."): ``engine.add`` makes it valid again under its own id, and capture ends the fact
that replaced it when both fill one single-valued slot of the same person (a home, a job, a diet:
:data:`memori_core.slots.SLOTS`), as a supersede would, so the slot holds one value again. The replaced fact stays
as history (``engine.history``). Said before that fact began (a turn captured late), the fact said again lands in
its past instead, so the fact said later stays the one valid now. A fact of a slot that holds several values, or
about someone else, is left alone, as :meth:`~memori_core.engine.RecallEngine.restore` leaves the newer fact: a
wrong supersede is often two true facts."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ..engine.fact_ids import derived_fact_id
from ..slots import holder, slots_of
from ..validate import iso_to_ts

CHAIN_LIMIT = 8
"""How many supersedes capture follows from a fact said again to the valid fact that now fills its slot."""


def replacers_to_end(engine: Any, entity_id: str, texts: Sequence[str],
                     said_at: datetime | None) -> dict[str, list[Any]]:
    """For each of ``texts`` (a turn's facts about to be added) that says again a stored fact no longer valid, the
    valid fact at the end of its ``superseded_by`` chain (a :class:`~memori_core.facts.StoredFact`) when that fact
    fills a single-valued slot the text fills, for the same person; texts with none are left out. A text said
    inside the old fact's own period (a turn captured late) brings nothing back: ``add`` counts it as a sighting.

    The valid fact may have become valid after ``said_at`` (``None``: now): a turn captured late, said while a
    fact of the chain between them held ("I still live in Porto." said while Lisbon was the home, captured after
    "User lives in Faro." was said). Superseding it then lands the text in its past (``engine.add``,
    :mod:`memori_core.engine.late_facts`): the text is valid from the turn until that fact began, ending the fact
    of the chain valid at the turn's time, and the fact said after it stays the one valid now."""
    slotted = {t: slots_of(t) for t in texts}
    wanted = {derived_fact_id(t): t for t, slots in slotted.items() if slots}
    if not wanted or not callable(getattr(engine, "get", None)):  # (an engine without one: nothing to follow)
        return {}
    said = said_at.timestamp() if said_at is not None else None
    out: dict[str, list[Any]] = {}
    for old in engine.get(entity_id, list(wanted)):
        text = wanted[old.id]
        if old.valid_to is None or old.superseded_by is None or (said is not None and said < iso_to_ts(old.valid_to)):
            continue
        now = _valid_end(engine, entity_id, old.superseded_by)
        if now is None:
            continue
        if any(holder(text, slot) == holder(now.content, slot) for slot in slotted[text] & slots_of(now.content)):
            out.setdefault(text, []).append(now)
    return out


def _valid_end(engine: Any, entity_id: str, fid: str) -> Any:
    """The valid fact at the end of the ``superseded_by`` chain from fact ``fid`` (``None``: none within
    :data:`CHAIN_LIMIT` steps, or a fact deleted since)."""
    for _ in range(CHAIN_LIMIT):
        got = engine.get(entity_id, [fid])
        if not got:
            return None
        if got[0].valid_to is None:
            return got[0]
        if got[0].superseded_by is None:
            return None
        fid = got[0].superseded_by
    return None
