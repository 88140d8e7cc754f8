"""A job told from the day it starts: "Starting Monday I'm driving local delivery for Red River Grocers" is the
user's job from that day, read as "I drive local delivery for Red River Grocers from Monday 2026-10-12 now"
(:func:`as_job_started`). Told as a plan it would expire when Monday is over; told as what holds from then on, it
is the job, and it ends the job it replaces. Pure: patterns, English only.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ..calendar_words import ANY_MONTH, ANY_WEEKDAY
from ..slots import slots_of
from .dates import anchor_plan
from .leads import strip_lead
from .patterns import I_AM, rx
from .rewrite import article

__all__ = ["as_job_started"]

# The work the user does, said as going on: "driving", "working", "teaching" -> "drive", "work", "teach".
_DOING = {"working": "work", "driving": "drive", "teaching": "teach", "cooking": "cook", "cleaning": "clean",
          "nursing": "nurse", "delivering": "deliver", "managing": "manage", "coding": "code", "serving": "serve",
          "tutoring": "tutor", "waiting": "wait", "bartending": "bartend", "temping": "temp"}
_DAY = rf"(?:next\s+)?(?:{ANY_WEEKDAY})|tomorrow|next\s+week"
# "Starting Monday I'm driving local delivery for Red River Grocers, home every night.": the work and the employer
# it is for (a name), then an aside after a comma, which is left out.
_STARTING = rx(
    rf"^(?:starting|from|as\s+of|beginning)\s+(?P<when>{_DAY})\s*,?\s+(?:i'm|i\s+am|i'll\s+be|i\s+will\s+be)\s+"
    rf"(?P<doing>{'|'.join(_DOING)})\s+(?P<what>(?:[\w-]+\s+){{0,4}}?(?:for|at|with)\s+"
    r"(?-i:[A-Z])[\w&'-]*(?:\s+(?-i:[A-Z])[\w&'-]*)*)\s*(?:,.*)?[.!]*$"
)


# "starting as sous chef in a hotel kitchen on the 3rd", "I'm starting as a dispatcher at DHL on Monday": a role taken
# from a day to come, where it is said or not (an occupation the slots know: not "starting as a volunteer").
_STARTING_AS = rx(
    r"^(?:" + I_AM + r"\s+)?(?:starting|beginning)\s+as\s+(?:(?:a|an)\s+)?(?P<role>[\w-]+(?:\s+[\w-]+){0,2}?)"
    r"(?P<where>\s+(?:at|in|with|for)\s+[^,.!]+?)?\s+(?:on|from)\s+"
    rf"(?P<when>the\s+\d{{1,2}}(?:st|nd|rd|th)|{_DAY}|(?:{ANY_MONTH})\s+\d{{1,2}}(?:st|nd|rd|th)?)[\s.!]*$"
)


def _role_from(clause: str, now: datetime) -> str | None:
    """ "starting as sous chef in a hotel kitchen on the 3rd" -> "I work as a sous chef in a hotel kitchen from
    Tuesday 2026-02-03 now"; ``None`` for any other clause."""
    m = _STARTING_AS.match(clause)
    role = m.group("role") if m is not None else ""
    day = anchor_plan(f"from {m.group('when')}", now) if m is not None else None
    if day is None or "job" not in slots_of(f"User is a {role}."):
        return None
    return f"I work as {article(role)} {role}{m.group('where') or ''} {day.text} now"


def as_job_started(clauses: Sequence[str], now: datetime) -> list[str]:
    """``clauses`` with each that tells work for a named employer from a day to come ("Starting Monday I'm
    driving local delivery for Red River Grocers"), or a role taken from a day to come ("starting as sous chef in a
    hotel kitchen on the 3rd"), as the job it is from that day, the day written out from ``now``; any other clause
    as it is.

    >>> from datetime import timezone
    >>> said = datetime(2026, 10, 5, 18, 0, tzinfo=timezone.utc)  # a Monday
    >>> as_job_started(["Starting Monday I'm driving local delivery for Red River Grocers, home every night."], said)
    ['I drive local delivery for Red River Grocers from Monday 2026-10-12 now']
    """
    out: list[str] = []
    for clause in clauses:
        role = _role_from(strip_lead(clause).strip(), now)
        if role is not None:
            out.append(role)
            continue
        m = _STARTING.match(strip_lead(clause).strip())
        day = anchor_plan(f"from {m.group('when')}", now) if m is not None else None
        if m is None or day is None:
            out.append(clause)
            continue
        out.append(f"I {_DOING[m.group('doing').lower()]} {m.group('what')} {day.text} now")
    return out
