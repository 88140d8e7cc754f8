"""The day a lasting fact names by its weekday, or the month to come, written out from the day it was said.

A fact kept as lasting may still name a day relative to the turn: "User's last day at school before maternity leave
is this Friday.", "User's baby girl Manaia was born on Tuesday.", "User's mum is moving in with them next month."
Read weeks later, "this Friday" names the wrong day and the baby's age cannot be told. :func:`with_lasting_day`
writes the day out ("on Friday 2026-10-30", "on Tuesday 2026-11-17", "in November 2026"): a day to come with the
end of that day or month as the fact's expiry (it is over then), unless what it tells starts then (a job, a move:
what starts holds after it); a day gone by with none (it stays true of that day). What a fact tells as done with a
start to come ("User got a job at Tesco, starting on Monday.") names the start's day, to come. Only "this" / "next"
/ "coming" before a weekday, "next month" and someone's event on a weekday ("Joy's birthday is on Saturday") are
read as to come, and "on <weekday>" otherwise only in a fact told as over: "User plays football on Saturday." is a
habit, kept as said. Pure: no I/O.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from ..calendar_words import WEEKDAYS
from .dates import WEEKDAY, AnchoredPlan, anchor_plan, day_label, said_time_end

__all__ = ["with_lasting_day"]

# A day's event of someone else's kept as lasting ("User's roommate Joy's birthday is on Saturday.") is one day to
# come, as the user's own plan ("User's exam is on Thursday.") is.
_EVENTS = "birthday bday wedding party funeral graduation anniversary christening exam interview surgery operation " \
    "recital concert gig match".split()
_EVENT_ON = rf"(?:{'|'.join(_EVENTS)}|due\s+date)\s+(?:is|'s)\s+on\s+{WEEKDAY}(?!s\b)(?!\s+\d{{4}}-)"
# "this Friday", "next Tuesday", "this coming Monday", "next month": a time to come (not "next Fridays", nor a day
# already written out: "Friday 2026-10-30"; "next week" is read as a plan's or a start's week by the other rules).
_TO_COME = re.compile(
    rf"\b(?:(?:this\s+coming|this|next|coming)\s+{WEEKDAY}(?!s\b)(?!\s+\d{{4}}-)|next\s+month\b|{_EVENT_ON})",
    re.IGNORECASE,
)
# The start of what lasts: "starts as a dispatcher ... next week", "is moving in with them next month".
_STARTS = re.compile(r"\b(?:start|begin|join|move|moving\s+in|relocat)\w*\b", re.IGNORECASE)
# ", starting in January": the start to come of what a fact tells as done ("User got a job at X, starting ...").
# Not a start already written out ("starting today" is "starting on Tuesday 2026-10-27" by then).
_STARTING = re.compile(r",\s+starting\s+(?!today\b|now\b|tonight\b)(?![^,.]*\d{4}-\d\d-\d\d)", re.IGNORECASE)
# "on Tuesday" in a fact told as over: the last such day before the turn.
_ON_WEEKDAY = re.compile(rf"\bon\s+(?P<wd>{WEEKDAY})\b(?!s\b)(?!\s+\d{{4}}-)", re.IGNORECASE)


def with_lasting_day(fact: str, now: datetime, *, past: bool, zone_known: bool = False) -> AnchoredPlan | None:
    """``fact`` (a lasting fact said at ``now``) with the weekday or month it names from the turn written out,
    and its expiry (``None``: it stays true); ``None`` when it names none of them. ``past``: ``fact`` is told as
    over ("... was born on Tuesday."): "on <weekday>" is the last such day before ``now``.

    >>> from datetime import timezone
    >>> said = datetime(2026, 11, 19, 14, 0, tzinfo=timezone.utc)  # a Thursday
    >>> with_lasting_day("User's baby girl Manaia was born on Tuesday.", said, past=True).text
    "User's baby girl Manaia was born on Tuesday 2026-11-17."
    >>> plan = with_lasting_day("User's last day at work is this Friday.", said, past=False, zone_known=True)
    >>> plan.text, plan.expires_at.isoformat()
    ("User's last day at work is on Friday 2026-11-20.", '2026-11-21T00:00:00+00:00')
    >>> with_lasting_day("User plays football on Saturday.", said, past=False) is None
    True
    >>> with_lasting_day("User's roommate Joy's birthday is on Saturday.", said, past=False).text
    "User's roommate Joy's birthday is on Saturday 2026-11-21."
    >>> with_lasting_day("User got a job at Tesco, starting on Monday.", said, past=True).text
    'User got a job at Tesco, starting on Monday 2026-11-23.'
    """
    if past and _STARTING.search(fact):
        # "User got a job at Tesco, starting on Monday.": told as over, but the start is to come
        plan = anchor_plan(fact, now, zone_known=zone_known)
        return AnchoredPlan(plan.text, None) if plan is not None and plan.text != fact else None
    if past:
        m = _ON_WEEKDAY.search(fact)
        if m is None:
            return None
        today = now.date()
        back = (today.weekday() - WEEKDAYS.index(m.group("wd").lower())) % 7 or 7
        on = "On" if m.group(0)[0] == "O" else "on"  # "On Saturday, User volunteered ..."
        return AnchoredPlan(fact[: m.start()] + f"{on} {day_label(today - timedelta(days=back))}" + fact[m.end():],
                            None)
    m = _TO_COME.search(fact)
    if m is None:
        return None
    plan = anchor_plan(fact, now, zone_known=zone_known)
    if plan is None or plan.text == fact:
        return None  # another day named first, or "next Friday" kept with its words: left to the other rules
    if _STARTS.search(fact):  # what begins then holds after it: the day written out, the fact kept
        return AnchoredPlan(plan.text, None)
    return AnchoredPlan(plan.text, said_time_end(plan.text, plan.expires_at, now, zone_known))
