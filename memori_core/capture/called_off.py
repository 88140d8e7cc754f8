"""A change told ahead called off in a later turn ("Actually I'm staying at Bosch.", "I'm not moving to Porto after
all."): the turn's facts read for the slot whose change to come they call off, and the user's changes of that slot
still to come (``add(..., valid_from=...)``, before their start) cancelled (``RecallEngine.cancel``): the job or
home they were to replace holds on. English only; the rules read the fact the extractor kept, not the sentence."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

from ..extraction.patterns import rx
from ..slots import slot_keys
from ..validate import iso_to_ts

logger = logging.getLogger(__name__)

# "User is staying at Bosch.", "User is staying with their current employer.", "User is keeping their job at Bosch."
_STAYS_AT_JOB = rx(r"^User\s+is\s+(?:staying|remaining)\s+(?:at|with)\s+(?!(?:a|an|the|home|their\s+(?:parents|mum|mom|dad|"
                   r"friend|sister|brother|grand\w*))\b)\w|^User\s+is\s+keeping\s+their\s+(?:current\s+)?job\b"
                   r"|^User\s+(?:is\s+not|isn't)\s+(?:starting|taking)\s+(?:the|a|their)\s+(?:new\s+)?(?:job|role|position)\b"
                   r"|^User\s+turned\s+down\s+the\s+(?:job|offer)\b|\bjob\b.*\bfell\s+through\b")
# "User is not moving to Porto after all.", "User is staying in Lisbon.", "User's move to Porto fell through."
_STAYS_HOME = rx(r"^User\s+(?:is\s+not|isn't|is\s+no\s+longer|won't\s+be)\s+(?:moving|relocating)\b"
                 r"|^User\s+is\s+(?:staying|remaining)\s+in\b|\bmove\b.*\b(?:fell\s+through|is\s+off|was\s+called\s+off)\b")


def slots_called_off(text: str) -> frozenset[str]:
    """The slots (``"user:job"``, ``"user:residence"``) whose change to come the kept fact ``text`` calls off.

    >>> sorted(slots_called_off("User is staying at Bosch.")), sorted(slots_called_off("User is staying in Lisbon."))
    (['user:job'], ['user:residence'])
    >>> slots_called_off("User is staying at a hotel in Rome."), slots_called_off("User is staying with their parents.")
    (frozenset(), frozenset())
    """
    out = set()
    if _STAYS_AT_JOB.search(text):
        out.add("user:job")
    if _STAYS_HOME.search(text):
        out.add("user:residence")
    return frozenset(out)


def cancel_called_off(engine: Any, entity_id: str, texts: Sequence[str]) -> list[str]:
    """Cancel the user's changes still to come of the slots ``texts`` (a turn's kept facts) call off; the ids
    cancelled. Only a change whose start is still ahead now is cancelled (a slot with none to come is left alone);
    a store failure is logged and leaves it."""
    slots = frozenset().union(*(slots_called_off(t) for t in texts)) if texts else frozenset()
    cancel = getattr(engine, "cancel", None)
    if not slots or not callable(cancel):
        return []
    now = datetime.now(timezone.utc)
    try:
        pending = engine.list(entity_id, include_invalid=True, limit=10_000,
                              where={"valid_from": {"$gt": now.isoformat()}})
    except Exception as exc:  # noqa: BLE001 - the turn's facts are stored already; this is a second step
        logger.warning("capture: the changes to come of entity %r could not be read: %s", entity_id, exc)
        return []
    done = []
    for fact in pending:
        if fact.valid_to is None and fact.valid_from and iso_to_ts(fact.valid_from) > now.timestamp() \
                and slot_keys(fact.content) & slots:
            try:
                cancel(entity_id, fact.id)
                done.append(fact.id)
            except (KeyError, ValueError) as exc:  # deleted or started meanwhile
                logger.info("capture: change %r of entity %r not cancelled: %s", fact.id, entity_id, exc)
    return done
