"""A change told ahead called off in a later turn ("Actually I'm staying at Bosch.", "I'm not moving to Porto after
all."): the turn's facts read for the slot whose change to come they call off, and the user's changes of that slot
still to come (``add(..., valid_from=...)``, before their start) cancelled (``RecallEngine.cancel``): the job or
home they were to replace holds on. English only; the rules read the fact the extractor kept, not the sentence."""

from __future__ import annotations

import logging
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from ..extraction.changes_to_come import state_to_come
from ..extraction.dates import anchor_plan
from ..extraction.patterns import rx
from ..slots import slot_keys
from ..validate import iso_to_ts

logger = logging.getLogger(__name__)

# Said of the change itself: "User is keeping their current job.", "User is not taking the new job.", "User's move
# to Porto fell through." (any change to come of the slot is off).
_KEEPS_JOB = rx(r"^User\s+is\s+(?:staying|remaining)\s+(?:at|with)\s+their\s+current\s+(?:employer|job|company)\b"
                r"|^User\s+is\s+keeping\s+their\s+(?:current\s+)?job\b"
                r"|^User\s+(?:is\s+not|isn't)\s+(?:starting|taking)\s+(?:the|a|their)\s+(?:new\s+)?(?:job|role|position)\b"
                r"|^User\s+turned\s+down\s+the\s+(?:job|offer)\b|\bjob\b.*\bfell\s+through\b")
_NOT_MOVING = rx(r"^User\s+(?:is\s+not|isn't|is\s+no\s+longer|won't\s+be)\s+(?:moving|relocating)\b"
                 r"|\bmove\b.*\b(?:fell\s+through|is\s+off|was\s+called\s+off)\b")
# "User is staying at Bosch.", "User is staying in Lisbon.": staying where the user is, named. It calls off only a
# change that ends what it names (a hotel in Rome, a stay with Anna, call off nothing).
_STAYS = rx(r"^User\s+is\s+(?:staying|remaining)\s+(?:at|in|with)\s+(?-i:(?P<name>[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*)*))")
# "User is staying at Bosch until then.": the wait for the change, not a call-off.
_UNTIL = rx(r"\b(?:until|till|for\s+now|in\s+the\s+meantime)\b")
# The place a negation names: "not moving to Porto" calls off a move to Porto only.
_TO = re.compile(r"\b(?:to|at)\s+(?P<name>[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*)*)")


@dataclass(frozen=True)
class CallOff:
    """What a kept fact calls off: the changes to come of ``slot`` (``None``: of any slot) that end a fact naming
    ``ends`` (``None``: whatever they end) and, when ``to`` is given, that name it themselves."""

    slot: str | None
    ends: str | None = None
    to: str | None = None

    def matches(self, change: str, replaced: Sequence[str]) -> bool:
        """Whether the change to come ``change`` (its text), ending the facts ``replaced``, is called off."""
        if self.slot is not None and self.slot not in slot_keys(change):
            return False
        if self.to is not None and not _names(change, self.to):
            return False
        return self.ends is None or any(_names(r, self.ends) for r in replaced)


def _names(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def calls_off(text: str) -> list[CallOff]:
    """What the kept fact ``text`` calls off (:class:`CallOff`), ``[]`` when it calls off nothing.

    >>> calls_off("User is staying at Bosch, they matched the offer.")
    [CallOff(slot=None, ends='Bosch', to=None)]
    >>> calls_off("User is staying in a hotel in Rome."), calls_off("User is staying with their parents.")
    ([], [])
    """
    out = []
    if _KEEPS_JOB.search(text):
        out.append(CallOff("user:job"))
    elif (m := _STAYS.search(text)) is not None and _UNTIL.search(text) is None:
        out.append(CallOff(None, ends=m.group("name")))
    if _NOT_MOVING.search(text):
        to = _TO.search(text)
        out.append(CallOff("user:residence", to=to.group("name") if to else None))
    return out


def cancel_called_off(engine: Any, entity_id: str, texts: Sequence[str], *, skip: Collection[str] = (),
                      said_at: datetime | None = None) -> list[str]:
    """Cancel the user's changes still to come that ``texts`` (a turn's kept facts) call off (:func:`calls_off`);
    the ids cancelled. Only a change told by the turn's time (``said_at``, a replayed turn's; ``None``: now) and
    whose start is still ahead then is cancelled (then), never one of ``skip`` (the ids the
    same turn stored: "I got a job at Siemens, starting next month! I'm staying at Bosch until then." tells the
    change and the wait for it). A store failure is logged and leaves it."""
    offs = [c for t in texts for c in calls_off(t)]
    cancel = getattr(engine, "cancel", None)
    if not offs or not callable(cancel):
        return []
    now = said_at.astimezone(timezone.utc) if said_at is not None else datetime.now(timezone.utc)
    try:
        pending = [f for f in engine.list(entity_id, include_invalid=True, limit=10_000,
                                          where={"valid_from": {"$gt": now.isoformat()}})
                   if f.id not in skip and f.valid_to is None and f.valid_from
                   and iso_to_ts(f.valid_from) > now.timestamp() >= iso_to_ts(f.created_at)]
        ended = {f.id: f.content for f in engine.get(entity_id, list({i for p in pending for i in p.supersedes}))}
    except Exception as exc:  # noqa: BLE001 - the turn's facts are stored already; this is a second step
        logger.warning("capture: the changes to come of entity %r could not be read: %s", entity_id, exc)
        return []
    done = []
    for fact in pending:
        replaced = [ended[i] for i in fact.supersedes if i in ended]
        if any(c.matches(fact.content, replaced) for c in offs):
            try:
                cancel(entity_id, fact.id, told_by=plans_of(engine, entity_id, fact),
                       **({"at": now} if said_at is not None else {}))
                done.append(fact.id)
            except (KeyError, ValueError) as exc:  # deleted or started meanwhile
                logger.info("capture: change %r of entity %r not cancelled: %s", fact.id, entity_id, exc)
    return done


def plans_of(engine: Any, entity_id: str, change: Any) -> list[str]:
    """The ids of the user's valid facts that told ``change`` (a change to come, :func:`told_it`), "User got a new
    job at Siemens, starting in January 2027." for "User works at Siemens." from 2027-01-01."""
    try:
        stated = engine.list(entity_id, limit=10_000, where={"created_at": {"$lte": change.created_at}})
    except Exception as exc:  # noqa: BLE001 - the change is still called off; its plan fact stays
        logger.warning("capture: the plan facts of entity %r could not be read: %s", entity_id, exc)
        return []
    return [fact.id for fact in stated if told_it(fact, change)]


def told_it(plan: Any, change: Any) -> bool:
    """Whether the fact ``plan`` told ``change`` (a change to come): the state and start it tells
    (:func:`~memori_core.extraction.changes_to_come.state_to_come`, read as of when it was stated) are the change's
    text and ``valid_from``."""
    if not change.valid_from:
        return False
    stated = datetime.fromisoformat(plan.created_at)
    anchored = anchor_plan(plan.content, stated)  # a model's plan is stored as said: its day read as it was then
    for text in dict.fromkeys((plan.content, anchored.text if anchored is not None else plan.content)):
        told = state_to_come(text, stated)
        if (told is not None and told.fact == change.content
                and abs(told.start.timestamp() - iso_to_ts(change.valid_from)) < 1.0):
            return True
    return False
