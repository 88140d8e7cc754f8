"""A change told ahead, read off the plan fact the rules keep: the state it brings and the day it starts.

"I got a job at Siemens, starting on January 4" is kept as "User got a job at Siemens, starting on Monday
2027-01-04." (the plan, true now); :func:`state_to_come` reads from it the state that holds from that day, "User works
at Siemens.", and the start, so capture stores that state valid from then, ending the job it replaces on that day and
not today (``RecallEngine.add(..., valid_from=...)``). Read only from a start the rules wrote out ("on Monday
2027-01-04", "around ...", "in the week of ...", "in January 2027" or "in October": the first of that month, the next
one of the name when no year is said), in the zone of the turn,
and only when it lies after the turn: a start already past is news of a change, which the rules read as such. The
phrasings read: a job ("got a (new) job at X, starting ...", "starts at X ...", "is starting (a new job) at X ...",
"will start at X ..."), a move ("is moving / relocating to X ...", "moves to X ...", "will move to X ..."), a
course of study ("starts / is starting / begins their PhD (at X) ..."), a medicine ("starts / is starting (taking)
metformin ...": "User takes metformin." from then, beside the medicines taken now). Pure: patterns over the fact, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time

from ..calendar_words import ANY_MONTH as _MONTH, MONTH_NAMES
from ..slots import slot_keys
from .diagnoses import is_medicine

__all__ = ["ChangeToCome", "ends_at_start", "moved_plans", "state_to_come"]


@dataclass(frozen=True)
class ChangeToCome:
    """The state a plan fact says will hold (``fact``) and when it starts to (``start``, midnight of its day)."""

    fact: str
    start: datetime
    slot: str | None = None
    """The slot whose stored facts the state ends (``"user:job"``, ``"user:residence"``); ``None``: it ends none
    (a course of study may go beside a job)."""


# The day written out by the rules (extraction.dates.anchor_plan): "on Monday 2027-01-04", "around Wednesday
# 2026-09-30", "in the week of Monday 2026-12-14", or a month with its year, "in January 2027".
_DAY = re.compile(r"\b(?:on|around|in\s+the\s+week\s+of)\s+[A-Z][a-z]+day\s+(\d{4})-(\d{2})-(\d{2})\b")
_MONTH_YEAR = re.compile(rf"\bin\s+({_MONTH})(?:\s+(\d{{4}}))?(?=[\s.,;]|$)", re.IGNORECASE)
# A name: capitalised words ("Siemens", "Porto", "New York", "Little Acorns"), "the"-less.
_NAME = r"([A-Z][\w&'.-]*(?:\s+(?:[A-Z][\w&'.-]*|of|de|da|do|la|le))*?)"
_WHEN = r"(?:,?\s+(?:starting|from)\b|\s+(?:on|around|in)\b)"
# The role told with the employer: "... at Deloitte as a tax manager on ...".
_ROLE = r"(?:\s+as\s+(an?\s+[\w'-]+(?:\s+[\w'-]+){0,3}?))?"
_JOB = re.compile(
    r"^User\s+(?:got\s+a\s+(?:new\s+)?job|starts(?:\s+a\s+new\s+job)?|is\s+starting(?:\s+a\s+new\s+job)?|"
    r"will\s+start(?:\s+a\s+new\s+job)?|is\s+going\s+to\s+start(?:\s+a\s+new\s+job)?)\s+at\s+" + _NAME + _ROLE
    + _WHEN)
_MOVE = re.compile(
    r"^User\s+(?:is\s+moving|is\s+relocating|moves|will\s+move|is\s+going\s+to\s+move)\s+to\s+" + _NAME + _WHEN)
_COURSE = re.compile(
    r"^User\s+(?:starts|is\s+starting|begins|is\s+beginning|will\s+start)\s+(?:their|a)\s+"
    r"(PhD|doctorate|master's(?:\s+degree)?|MBA|bachelor's(?:\s+degree)?|apprenticeship|residency)"
    r"(?:\s+(?:at|in)\s+" + _NAME + r")?" + _WHEN)

# A medicine to start: "User starts metformin in the week of ...", "User is starting (taking / on) insulin on ...";
# the words before the start are a medicine's only when :func:`~.diagnoses.is_medicine` says so ("User starts
# work on Monday ..." is no medicine).
_MEDICINE = re.compile(
    r"^User\s+(?:starts|is\s+starting|will\s+start|is\s+going\s+to\s+start|begins|is\s+beginning)"
    r"(?:\s+(?:taking|on))?\s+(?!at\b|a\b|their\b|the\b|work\b)([a-z][\w-]*(?:\s+[\w-]+)??)" + _WHEN, re.IGNORECASE)


def _start(fact: str, said: datetime) -> datetime | None:
    """The first moment of the day (or month) ``fact`` writes out, in the zone of ``said``; ``None`` without one."""
    zone = said.tzinfo
    if (m := _DAY.search(fact)) is not None:
        day = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    elif (m := _MONTH_YEAR.search(fact)) is not None:
        month = MONTH_NAMES.index(m.group(1).lower()) + 1
        if m.group(2):
            year = int(m.group(2))
        elif month == said.month:  # "in December", said in December: this one has begun, or a year ahead
            return None
        else:  # a month alone is the next one of that name
            year = said.year + (month < said.month)
        day = date(year, month, 1)
    else:
        return None
    return datetime.combine(day, time(0), tzinfo=zone)


def state_to_come(fact: str, said: datetime) -> ChangeToCome | None:
    """The state the plan ``fact`` (kept from a turn said at ``said``, a timezone-aware time) says will hold, and
    its start; ``None`` when it tells no change to come with a day written out after ``said`` (see the module).

    >>> from datetime import timezone
    >>> said = datetime(2026, 12, 7, 9, 0, tzinfo=timezone.utc)
    >>> job = state_to_come("User got a job at Siemens, starting on Monday 2027-01-04.", said)
    >>> job.fact, job.start.isoformat(), job.slot
    ('User works at Siemens.', '2027-01-04T00:00:00+00:00', 'user:job')
    >>> state_to_come("User is moving to Porto in January 2027.", said).fact
    'User lives in Porto.'
    >>> state_to_come("User starts at 8 on Monday 2026-12-14.", said) is None  # a starting time, no employer
    True
    >>> state_to_come("User starts metformin in the week of Monday 2026-12-14.", said).fact
    'User takes metformin.'
    >>> state_to_come("User starts work on Monday 2026-12-14.", said) is None
    True
    """
    start = _start(fact, said)
    if start is None or start <= said:
        return None
    if (m := _JOB.match(fact)) is not None:
        role = f" as {m.group(2)}" if m.group(2) else ""
        return ChangeToCome(f"User works at {m.group(1)}{role}.", start, "user:job")
    if (m := _MOVE.match(fact)) is not None:
        return ChangeToCome(f"User lives in {m.group(1)}.", start, "user:residence")
    if (m := _COURSE.match(fact)) is not None:
        where = f" at {m.group(2)}" if m.group(2) else ""
        return ChangeToCome(f"User is doing a {m.group(1)}{where}.", start)
    if (m := _MEDICINE.match(fact)) is not None and is_medicine(m.group(1)):
        return ChangeToCome(f"User takes {m.group(1)}.", start)
    return None


# A stored job fact that names where the user works: the one a new employer ends ("User is a nurse." may go on).
_EMPLOYER = re.compile(r"\b(?:works?|working|employed)\s+(?:at|for|by|with)\b|\bjob\s+(?:at|with)\b", re.IGNORECASE)


def ends_at_start(change: ChangeToCome, stored: str) -> bool:
    """Whether the state of ``change`` ends the stored fact ``stored`` at its start: a home any home of the user's
    ("User lives in Lisbon.", "User has a flat in Lisbon."), a job the employer the user works at.

    >>> said = datetime(2026, 12, 7, 9, 0).astimezone()
    >>> job = state_to_come("User starts at Siemens on Monday 2027-01-04.", said)
    >>> ends_at_start(job, "User works at Bosch."), ends_at_start(job, "User is a nurse.")
    (True, False)
    """
    if change.slot is None or change.slot not in slot_keys(stored):
        return False
    return change.slot != "user:job" or _EMPLOYER.search(stored) is not None


def moved_plans(plan: str, stored: Sequence[tuple[str, str]], said: datetime) -> tuple[str, ...]:
    """The ids of the stored plan facts ``stored`` (id, text) that the plan ``plan``, told at ``said``, moves to
    another start: they tell the same change (:func:`state_to_come`, read at ``said``) starting another day, so
    ``plan`` replaces them now ("User is moving to Porto in May 2027, not March." ends "User is moving to Porto in
    March 2027."). Only a change still to come at ``said`` is read; a plan of another state is left.

    >>> said = datetime(2026, 12, 7, 9, 0).astimezone()
    >>> moved_plans("User is moving to Porto in May 2027.", [("a", "User is moving to Porto in March 2027."),
    ...             ("b", "User is moving to Braga in March 2027."), ("c", "User lives in Lisbon.")], said)
    ('a',)
    """
    change = state_to_come(plan, said)
    if change is None:
        return ()
    out = []
    for fid, text in stored:
        other = state_to_come(text, said)
        if other is not None and other.fact == change.fact and other.start != change.start:
            out.append(fid)
    return tuple(out)
