"""A fact said again after another replaced it ("No wait, I still live in Porto." after "User lives in Porto." was
replaced by "User lives in Lisbon."): ``engine.add`` makes it valid again under its own id, and capture ends the fact
that replaced it when both fill one single-valued slot of the same person (a home, a job, a diet:
:data:`memori_core.slots.SLOTS`), as a supersede would, so the slot holds one value again. The replaced fact stays
as history (``engine.history``). A fact of a slot that holds several values, or about someone else, is left alone,
as :meth:`~memori_core.engine.RecallEngine.restore` leaves the newer fact: a wrong supersede is often two true
facts."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ..engine.fact_ids import derived_fact_id
from ..slots import holder, slots_of
from ..validate import iso_to_ts

CHAIN_LIMIT = 8
"""How many supersedes capture follows from a fact said again to the valid fact that now fills its slot."""


def replacers_to_end(engine: Any, entity_id: str, texts: Sequence[str], said_at: datetime | None) -> dict[str, list[str]]:
    """For each of ``texts`` (a turn's facts about to be added) that says again a stored fact no longer valid, the
    ids of the valid fact at the end of its ``superseded_by`` chain when that fact fills a single-valued slot the
    text fills, for the same person, and became valid at or before ``said_at`` (``None``: now); texts with none are
    left out. A text said inside the old fact's own period (a turn captured late) brings nothing back: ``add``
    counts it as a sighting."""
    slotted = {t: slots_of(t) for t in texts}
    wanted = {derived_fact_id(t): t for t, slots in slotted.items() if slots}
    if not wanted or not callable(getattr(engine, "get", None)):  # (an engine without one: nothing to follow)
        return {}
    said = said_at.timestamp() if said_at is not None else None
    out: dict[str, list[str]] = {}
    for old in engine.get(entity_id, list(wanted)):
        text = wanted[old.id]
        if old.valid_to is None or old.superseded_by is None or (said is not None and said < iso_to_ts(old.valid_to)):
            continue
        now = _valid_end(engine, entity_id, old.superseded_by)
        if now is None or (said is not None and now.valid_since and said < iso_to_ts(now.valid_since)):
            continue
        if any(holder(text, slot) == holder(now.content, slot) for slot in slotted[text] & slots_of(now.content)):
            out.setdefault(text, []).append(now.id)
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
