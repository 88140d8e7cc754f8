"""The date a plan names ("tomorrow", "on Monday", "next week", "the 14th"), resolved against when it was said.

A plan kept by the rules ("User has a job interview tomorrow at 3pm.") is stored with its date written out
("User has a job interview on Sunday 2026-12-06 at 3pm.") and expires when that day ends: read a day later,
"tomorrow" would say the wrong day, and an appointment that has happened would still read as one to come.

Dates are read in the zone of ``now`` (the user's, when the app says it; UTC otherwise). When the zone is not
known, a day ends when it has ended everywhere on Earth (24:00 at UTC-12, :data:`UNKNOWN_ZONE_MARGIN` after
24:00 UTC): a plan never expires before its day is over where the user is. Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from ..calendar_words import ANY_MONTH as _MONTH, ANY_WEEKDAY as _WEEKDAY, MONTH_NAMES, SHORT_MONTHS, WEEKDAYS, month_of
from ..number_words import count_of, number_words
from .patterns import rx

__all__ = [
    "DATED",
    "DUE_MARGIN",
    "IN_SPAN",
    "SAID_TIME",
    "UNKNOWN_ZONE_MARGIN",
    "WEEKDAY",
    "AnchoredPlan",
    "anchor_plan",
    "date_said",
    "date_told",
    "day_label",
    "said_time_end",
    "span_days",
]

UNKNOWN_ZONE_MARGIN = timedelta(hours=12)
"""How long after 24:00 of a plan's day (in UTC) it expires when the user's zone is not known: the day has then
ended everywhere (UTC-12 is the last zone to end a day)."""

_PART = r"morning|afternoon|evening|night"
_ORDINAL = r"(?:st|nd|rd|th)"
# "in May 15", "in 15 May": a day typed after "in" is written "on <day>" (the "in" is no part of it; "in May" stays)
_DAY_PREP = (r"(?:(?P<prep>on|by|until|till|before|after|from|for)\s+"
             rf"|in\s+(?=(?:{_MONTH})\s+\d{{1,2}}(?!\d)|\d{{1,2}}{_ORDINAL}?\s+(?:of\s+)?(?:{_MONTH})\b))?")
# "May 15-17", "the 15th to the 17th": the last day of a span (not a time: "May 15 until 5pm")
_TO = r"\s*(?:-|\u2013|\u2014|\s(?:to|through|until|till)\s)\s*(?=(?:the\s+)?\d{1,2}(?!\s*(?:am|pm|[:.]\d|o'clock)))"
WEEKDAY = rf"(?:{_WEEKDAY})"
"""A weekday's name, as a group in a pattern."""
# A time gone by, named: "yesterday", "last Friday", "two weeks ago", "in March".
DATED = rx(
    rf"\b(?:yesterday|last\s+(?:week|weekend|month|year|night|summer|winter|spring|fall|autumn|{WEEKDAY})|"
    r"(?:a\s+few|two|three|\d+)\s+(?:days|weeks|months|years)\s+ago|recently|this\s+(?:morning|week|weekend|month|"
    rf"year)|on\s+{WEEKDAY}|in\s+(?:{_MONTH}))\b"
)

# "in two weeks", "in 10 days", "in a fortnight": when a plan happens, counted from now.
IN_SPAN = rx(
    rf"\bin\s+(?:(?P<n>a|an|{number_words('eight')}|a\s+couple\s+of|a\s+few|\d{{1,2}})\s+"
    r"(?P<unit>days?|weeks?)|(?P<fortnight>a\s+fortnight))\b"
)

# The phrases a plan names its day with, first found wins; each alternative's groups say which it is.
_PHRASE = rx(
    rf"\b{_DAY_PREP}(?:"
    r"(?P<after_tomorrow>(?:the\s+)?day\s+after\s+tomorrow)"
    rf"|(?P<tomorrow>tomorrow)(?:\s+(?P<tomorrow_part>{_PART}))?"
    r"|(?P<tonight>tonight)|this\s+(?P<today_part>morning|afternoon|evening)|(?P<today>later\s+today|today)"
    rf"|(?:(?P<wd_rel>this\s+coming|this|next|coming)\s+)?(?P<wd>{_WEEKDAY})(?!s\b)"
    rf"(?:\s+(?P<wd_part>{_PART}))?(?:\s+(?:the\s+(?P<wd_dom>\d{{1,2}}){_ORDINAL}?|(?P<wd_dom2>\d{{1,2}}){_ORDINAL})\b"
    rf"(?!\s+(?:of\s+)?(?:{_MONTH})))?"
    r"|(?P<week_after>the\s+week\s+after\s+next)|(?P<next_week>next\s+week|this\s+coming\s+week)(?!end)"
    r"|(?P<this_week>this\s+week)(?!end)"
    rf"|the\s+(?P<dom>\d{{1,2}}){_ORDINAL}(?:{_TO}(?:the\s+)?(?P<dom_to>\d{{1,2}}){_ORDINAL}?)?"
    rf"(?:\s+of\s+(?P<dom_month>{_MONTH}))?(?:,?\s+(?P<dom_year>\d{{4}}))?"
    rf"|(?P<md_month>{_MONTH})\s+(?P<md_day>\d{{1,2}}){_ORDINAL}?\b(?:{_TO}(?P<md_to>\d{{1,2}}){_ORDINAL}?\b)?"
    rf"(?:,?\s+(?P<md_year>\d{{4}}))?"
    rf"|(?P<dm_day>\d{{1,2}}){_ORDINAL}?(?:{_TO}(?P<dm_to>\d{{1,2}}){_ORDINAL}?)?\s+(?:of\s+)?(?P<dm_month>{_MONTH})\b"
    rf"(?:,?\s+(?P<dm_year>\d{{4}}))?"
    r")\b"
    # the weekend has its own prepositions: "at the weekend", "on the weekend", "this weekend"
    r"|\b(?P<weekend>(?:(?P<we_rel>this|next|the\s+coming|this\s+coming)\s+|(?:at|on|over)\s+the\s+)weekend)\b"
    rf"|\b(?P<span>in\s+(?:(?:a|an|{number_words('eight')}|a\s+couple\s+of|a\s+few|\d{{1,2}})\s+"
    r"(?:days?|weeks?)|a\s+fortnight))\b"
    # "for Christmas", "over Christmas", "on Boxing Day", "at New Year": a holiday of a fixed day
    # "doing Thanksgiving at my mom's": the holiday as what is planned
    r"|\b(?P<holiday_prep>for|at|over|on|until|till|by|before|after|doing|having|hosting|spending)\s+"
    r"(?P<holiday>christmas(?:\s+(?:day|eve))?|xmas|thanksgiving|"
    r"boxing\s+day|new\s+year(?:'s)?(?:\s+(?:eve|day))?)(?!\s*(?:party|parties|dinner|lunch|do|jumper|tree|card|"
    r"present|shopping|market|show|concert|play|break|holidays?)\b)"
    # "at the end of the month", "the start of next month", "by the end of May", "end of next week"
    rf"|\b(?:(?P<part_prep>at|by|towards|around|for|in|until|till)\s+)?(?:the\s+)?(?:very\s+)?"
    rf"(?P<part>end|start|beginning|middle)\s+of\s+(?:the\s+|this\s+)?(?P<part_of>month|week|next\s+month|next\s+week|"
    rf"{_MONTH})\b(?!\s*\d)"
    r"|\b(?:(?P<month_prep>in|for|by|until)\s+)?(?P<next_month>next\s+month)\b"
    r"|\b(?:(?P<this_month_prep>in|for|by|until)\s+)?(?P<this_month>this\s+month)\b"
    r"|\b(?:(?P<year_prep>in|for|by|until)\s+)?(?P<next_year>next\s+year)\b"
    # "in November", "for early March": a month, not a day of it ("in May 15" is read above)
    rf"|\b(?P<named_prep>in|for|by|until|till)\s+(?:(?P<month_part>early|mid-?|late)\s*)?(?P<month>{_MONTH})\b"
    r"(?!\s*\d)(?!\s+(?:of|this|next|last)\b)"
)


@dataclass(frozen=True)
class AnchoredPlan:
    """A plan's text with its day written out, and when it stops being true (``None``: the caller's own rule,
    as for a month: the plan then expires when that month ends)."""

    text: str
    expires_at: datetime | None


def day_label(day: date) -> str:
    """``day`` as a plan's text names it: ``"Monday 2026-12-07"`` (English weekday, ISO date)."""
    return f"{WEEKDAYS[day.weekday()].capitalize()} {day.isoformat()}"


def span_days(span: re.Match[str]) -> timedelta:
    """How far ahead an :data:`IN_SPAN` match puts a plan."""
    if span.group("fortnight"):
        return timedelta(days=14)
    count = count_of(span.group("n"))
    return timedelta(days=count * (7 if span.group("unit").lower().startswith("week") else 1))


def _day_end(day: date, now: datetime, zone_known: bool) -> datetime:
    """The instant ``day`` is over: 24:00 in ``now``'s zone, and everywhere on Earth when the zone is not known."""
    end = datetime.combine(day + timedelta(days=1), time(0), tzinfo=now.tzinfo)
    return end if zone_known else end + UNKNOWN_ZONE_MARGIN


def _coming(today: date, weekday: int, *, today_counts: bool) -> date:
    """The next ``weekday`` after ``today`` (``today`` itself when ``today_counts`` and it is that day)."""
    ahead = (weekday - today.weekday()) % 7
    return today + timedelta(days=ahead if ahead or today_counts else 7)


def _month_day(today: date, month: int | None, day: int, year: int | None) -> date | None:
    """The next date with ``day`` (in ``month``, else this month or the next), from ``today`` on; ``None`` when
    no such date exists ("the 31st of February")."""
    if month is None:
        for ahead in range(3):  # "the 31st" said in a short month: the next month that has one
            m = (today.month - 1 + ahead) % 12 + 1
            y = today.year + (today.month - 1 + ahead) // 12
            try:
                found = date(y, m, day)
            except ValueError:
                continue
            if found >= today:
                return found
        return None
    try:
        found = date(year or today.year, month, day)
        if year is None and found < today:
            found = date(today.year + 1, month, day)
    except ValueError:
        return None
    return found


def _last_month_day(today: date, month: int | None, day: int, year: int | None) -> date | None:
    """The last date with ``day`` (in ``month``, else this month or one before) up to ``today``; ``None`` when
    no such date exists."""
    if month is None:
        for back in range(3):
            m = (today.month - 1 - back) % 12 + 1
            y = today.year + (today.month - 1 - back) // 12
            try:
                found = date(y, m, day)
            except ValueError:
                continue
            if found <= today:
                return found
        return None
    try:
        found = date(year or today.year, month, day)
        if year is None and found > today:
            found = date(today.year - 1, month, day)
    except ValueError:
        return None
    return found


def _on(prep: str | None, day: date, part: str | None = None) -> str:
    """ "on Monday 2026-12-07", "by Monday 2026-12-07", "on the evening of Saturday 2026-12-05"."""
    said = f"the {part.lower()} of {day_label(day)}" if part else day_label(day)
    return f"{(prep or 'on').lower()} {said}"


# A month's short name before a day of it, as people type it: "Nov 1", "Sept. 30" (not "Nov" alone, nor "may 3").
_SHORT_MONTH = re.compile(rf"\b({SHORT_MONTHS.title()})\.?(?=\s+\d{{1,2}}(?!\d|\s*[:.]\d))")


def spell_months(text: str) -> str:
    """``text`` with a month's short name before a day written in full ("on Nov 1" -> "on November 1").

    >>> spell_months("User starts at Deloitte on Nov 1.")
    'User starts at Deloitte on November 1.'
    """
    return _SHORT_MONTH.sub(lambda m: month_of(m.group(1)).capitalize(), text)


# "on 2027-01-16" with no weekday before it: read as "on 16 January 2027" (a weekday before it: anchored already)
_ON_ISO_DAY = re.compile(r"\bon\s+(\d{4})-(\d{2})-(\d{2})\b")


def _spell_iso_day(m: re.Match[str]) -> str:
    month = int(m.group(2))
    if not 1 <= month <= 12:
        return m.group(0)
    return f"on {int(m.group(3))} {MONTH_NAMES[month - 1].capitalize()} {m.group(1)}"


def anchor_plan(fact: str, now: datetime, *, zone_known: bool = False, past: bool = False) -> AnchoredPlan | None:
    """``fact`` (a plan: "User's dentist appointment is on Monday at 10am.") with the first day it names
    resolved against ``now`` (an aware datetime in the user's zone) and written out ("... is on Monday 2026-12-07
    at 10am."), and the end of that day (for a weekend or a week, its Sunday) as its expiry; ``None`` when it
    names no day the rules resolve.

    "tomorrow", "the day after tomorrow", "tonight", "today", "this evening", a weekday ("on Monday": the next
    one, a week ahead on that day itself; "this Monday": today on a Monday), "this weekend", "this week", "next
    week", "the 14th", "March 3", "3 March", "in 3 days" are resolved to a day; the start, middle or end of a month
    or a week ("at the end of the month", "the start of next week") to that part, expiring when it is over
    (:func:`_month_part`); a holiday of a fixed day ("for Christmas", "at New Year") to it with its year, expiring
    after it; a span of days ("May 15-17",
    "the 15th to the 17th") to its first and last ("from Friday 2026-05-15 to Sunday 2026-05-17"), expiring
    after the last; "in two weeks" to about a day ("around ..."); "this month" to the month ("in May 2026"),
    expiring when it ends; "next month", a month named ("in November", "in early March": the next one, this
    month included) and "next year" to the month or year ("in January 2027", "in early March 2027", "in 2027";
    the caller's expiry holds). "next Friday" said early in a week (it may mean this week's or next week's) and
    "next weekend" said on a weekday keep their words, with the day they were said ("next Friday (as of
    Wednesday 2026-12-09)"), and expire after the later of the two.

    ``past``: ``fact`` tells of what happened ("User had their cousin's wedding May 15-17."): a weekday or a date
    is the last one up to ``now``, not the next one, so the expiry may be before ``now`` (it was over when said).

    >>> from datetime import timezone
    >>> said = datetime(2026, 12, 5, 9, 30, tzinfo=timezone.utc)  # a Saturday
    >>> anchor_plan("User's dentist appointment is on Monday at 10am.", said).text
    "User's dentist appointment is on Monday 2026-12-07 at 10am."
    >>> plan = anchor_plan("User has a job interview tomorrow at 3pm.", said)
    >>> plan.text, plan.expires_at.isoformat()
    ('User has a job interview on Sunday 2026-12-06 at 3pm.', '2026-12-07T12:00:00+00:00')
    >>> anchor_plan("User has their cousin's wedding December 11-13.", said).text
    "User has their cousin's wedding from Friday 2026-12-11 to Sunday 2026-12-13."
    >>> anchor_plan("User had their cousin's wedding November 20-22.", said, past=True).expires_at.isoformat()
    '2026-11-23T12:00:00+00:00'
    """
    fact = spell_months(_ON_ISO_DAY.sub(_spell_iso_day, fact))
    m = _PHRASE.search(fact)
    if m is None or re.search(r"\b(?:every|each)\s*$", fact[: m.start()], re.IGNORECASE):
        return None  # none, or a day that recurs ("every Monday")
    today = now.date()
    g = m.groupdict()
    prep = g["prep"]
    text: str
    last: date | None = None  # the last day the plan may fall on
    margin = timedelta(0)
    if g["after_tomorrow"]:
        last = today + timedelta(days=2)
        text = _on(prep, last)
    elif g["tomorrow"]:
        last = today + timedelta(days=1)
        text = _on(prep, last, g["tomorrow_part"])
    elif g["tonight"] or g["today_part"] or g["today"]:
        last = today
        part = "evening" if g["tonight"] else g["today_part"]
        text = _on(prep, last, part)
    elif g["wd"]:
        weekday = WEEKDAYS.index(g["wd"].lower())
        rel = re.sub(r"\s+", " ", (g["wd_rel"] or "").lower())
        dom = _month_day(today, None, int(g["wd_dom"] or g["wd_dom2"]), None) \
            if g["wd_dom"] or g["wd_dom2"] else None
        if dom is not None and dom.weekday() == weekday:  # "Friday the 12th": the day of the month says which
            last = dom
            text = _on(prep, last, g["wd_part"])
        elif dom is not None:  # the weekday and the day disagree: the words kept, with the day they were said
            last = max(dom, _coming(today, weekday, today_counts=rel == "this"))
            text = f"{m.group(0)} (as of {day_label(today)})"
        elif past and not rel:  # "User had a meeting on Monday": the last Monday, today included
            last = today - timedelta(days=(today.weekday() - weekday) % 7)
            text = _on(prep, last, g["wd_part"])
        elif rel == "next":
            coming = _coming(today, weekday, today_counts=False)
            next_monday = today + timedelta(days=7 - today.weekday())
            if coming >= next_monday:  # said late in the week: next week's, the coming one
                last = coming
                text = _on(prep, last, g["wd_part"])
            else:  # this week's or next week's: the words kept, with the day they were said
                last = coming + timedelta(days=7)
                text = f"{m.group(0)} (as of {day_label(today)})"
        else:
            last = _coming(today, weekday, today_counts=rel == "this")
            text = _on(prep, last, g["wd_part"])
    elif g["weekend"]:
        rel = re.sub(r"\s+", " ", (g["we_rel"] or "").lower())
        saturday = today + timedelta(days=(5 - today.weekday()) % 7) if today.weekday() < 6 \
            else today - timedelta(days=1)
        if rel == "next":
            if today.weekday() >= 5:  # said at the weekend: the following one
                saturday += timedelta(days=7)
            else:  # the coming one or the one after: the words kept, with the day they were said
                last = saturday + timedelta(days=8)
                return AnchoredPlan(_replace(fact, m, f"{m.group(0)} (as of {day_label(today)})"),
                                    _day_end(last, now, zone_known))
        last = saturday + timedelta(days=1)
        text = f"on the weekend of {day_label(saturday)}"
    elif g["this_week"]:
        monday = today - timedelta(days=today.weekday())
        last = monday + timedelta(days=6)
        text = f"in the week of {day_label(monday)}"
    elif g["week_after"] or g["next_week"]:
        monday = today + timedelta(days=7 - today.weekday() + (7 if g["week_after"] else 0))
        last = monday + timedelta(days=6)
        text = f"{(prep if prep in ('by', 'until', 'till', 'for', 'from', 'after', 'before') else 'in')} " \
               f"the week of {day_label(monday)}"
    elif g["dom"] or g["md_day"] or g["dm_day"]:
        day = int(g["dom"] or g["md_day"] or g["dm_day"])
        to = g["dom_to"] or g["md_to"] or g["dm_to"]
        month_name = g["dom_month"] or g["md_month"] or g["dm_month"]
        year = g["dom_year"] or g["md_year"] or g["dm_year"]
        month = MONTH_NAMES.index(month_name.lower()) + 1 if month_name else None
        span = int(to) - day if to and int(to) > day else 0  # "May 15-17": two days after the first
        if past:
            first = _last_month_day(today, month, day, int(year) if year else None)
        else:  # a span under way still counts: "May 15-17" said on the 16th is this year's
            first = _month_day(today - timedelta(days=span), month, day, int(year) if year else None)
        last = first + timedelta(days=span) if first is not None else None
        if first is None or last is None or (last < today and not past):
            return None
        if to and not span:  # "May 25 - 5 people": no span; only the day is the date's
            if g["dm_day"]:
                return None
            end = m.end("md_day") if g["md_day"] else m.end("dom") + 2  # "the 25th": with its ordinal
            return AnchoredPlan(fact[: m.start()] + _on(prep, first) + fact[end:], _day_end(first, now, zone_known))
        text = f"from {day_label(first)} to {day_label(last)}" if span else _on(prep, first)
    elif g["span"]:
        span = IN_SPAN.search(m.group(0))
        assert span is not None  # the same words
        ahead = span_days(span)
        target = today + ahead
        if ahead.days % 7 == 0 and not re.search(r"days?\b", m.group(0), re.IGNORECASE):
            text, margin = f"around {day_label(target)}", timedelta(days=2)  # "in two weeks": about then
        else:
            text = _on(None, target)
        last = target
    elif g["holiday"]:
        return _holiday(fact, m, now, zone_known)
    elif g["part"]:
        return None if past else _month_part(fact, m, now, zone_known)
    elif g["next_month"]:
        month = today.month % 12 + 1
        year = today.year + (today.month == 12)
        return AnchoredPlan(_replace(fact, m, f"{(g['month_prep'] or 'in').lower()} "
                                              f"{MONTH_NAMES[month - 1].capitalize()} {year}"), None)
    elif g["this_month"]:
        after = date(today.year + (today.month == 12), today.month % 12 + 1, 1)  # the month's end
        return AnchoredPlan(_replace(fact, m, f"{(g['this_month_prep'] or 'in').lower()} "
                                              f"{MONTH_NAMES[today.month - 1].capitalize()} {today.year}"),
                            _day_end(after - timedelta(days=1), now, zone_known))
    elif g["next_year"]:
        return AnchoredPlan(_replace(fact, m, f"{(g['year_prep'] or 'in').lower()} {today.year + 1}"), None)
    elif g["month"]:  # "in November": its next one, this month included (the caller's expiry: when it ends)
        if past:
            return None
        month = MONTH_NAMES.index(g["month"].lower()) + 1
        year = today.year if month >= today.month else today.year + 1
        part = (g["month_part"] or "").lower().rstrip("-")
        part = "mid-" if part == "mid" else f"{part} " if part else ""
        return AnchoredPlan(_replace(fact, m, f"{g['named_prep'].lower()} {part}"
                                              f"{MONTH_NAMES[month - 1].capitalize()} {year}"), None)
    else:  # pragma: no cover - every alternative of _PHRASE is read above
        return None
    return AnchoredPlan(_replace(fact, m, text), _day_end(last, now, zone_known) + margin)


# A holiday's day (month, day), and how many days a visit or a plan for it may run on after it: Christmas runs to
# Boxing Day; New Year's Eve into the new year.
_HOLIDAYS = {"christmas": ((12, 25), 1), "xmas": ((12, 25), 1), "christmas day": ((12, 25), 1),
             "christmas eve": ((12, 24), 2), "boxing day": ((12, 26), 0), "new year's eve": ((12, 31), 1),
             "new years eve": ((12, 31), 1), "new year": ((1, 1), 0), "new year's": ((1, 1), 0),
             "new years": ((1, 1), 0), "new year's day": ((1, 1), 0), "new years day": ((1, 1), 0)}


def _thanksgiving(year: int) -> date:
    """Thanksgiving of ``year`` as the US keeps it: the fourth Thursday of November."""
    first = date(year, 11, 1)
    return first + timedelta(days=(3 - first.weekday()) % 7 + 21)


def _holiday_day(name: str, year: int) -> tuple[date, int]:
    """The day of the holiday ``name`` in ``year``, and how many days a plan for it runs on after it."""
    if name == "thanksgiving":
        return _thanksgiving(year), 0
    (month, day), after = _HOLIDAYS[name]
    return date(year, month, day), after


def _holiday(fact: str, m: re.Match[str], now: datetime, zone_known: bool) -> AnchoredPlan:
    """``fact`` with the holiday ``m`` names ("for Christmas", "at New Year", "doing Thanksgiving") written out
    with its year from ``now`` ("for Christmas 2026": the next one, today's included), expiring when it is over
    (Christmas after Boxing Day)."""
    name = re.sub(r"\s+", " ", m.group("holiday").lower())
    today = now.date()
    when, after = _holiday_day(name, today.year)
    if when + timedelta(days=after) < today:
        when, after = _holiday_day(name, today.year + 1)
    said = f"{m.group('holiday_prep').lower()} {m.group('holiday')} {when.year}"
    return AnchoredPlan(_replace(fact, m, said), _day_end(when + timedelta(days=after), now, zone_known))


# How many days after the first of a month, and of a week, its start and its middle run; the rest is its end.
_PART_DAYS = {"start": (9, 2), "beginning": (9, 2), "middle": (19, 4)}


def _month_part(fact: str, m: re.Match[str], now: datetime, zone_known: bool) -> AnchoredPlan:
    """``fact`` with the part of a month or a week ``m`` names ("at the end of the month", "the start of next
    week") written out from ``now`` ("at the end of August 2026", "at the start of the week of Monday
    2026-08-10"), expiring when that part is over (a start: the 10th of the month, a week's Wednesday; a middle:
    the 20th, its Friday; an end: the month's last day, the week's Sunday). "the start of the month" said after
    its start is the next month's; a month named is its next one, this month included."""
    part, of = m.group("part").lower(), re.sub(r"\s+", " ", m.group("part_of").lower())
    today = now.date()
    prep = (m.group("part_prep") or "at").lower()
    month_days, week_days = _PART_DAYS.get(part, (None, 6))
    if of.endswith("week"):
        monday = today - timedelta(days=today.weekday()) + timedelta(days=7 if of == "next week" else 0)
        return AnchoredPlan(_replace(fact, m, f"{prep} the {part} of the week of {day_label(monday)}"),
                            _day_end(monday + timedelta(days=week_days), now, zone_known))
    if of == "next month" or (of == "month" and month_days is not None and today.day > month_days + 1):
        first = date(today.year + (today.month == 12), today.month % 12 + 1, 1)
    elif of == "month":
        first = today.replace(day=1)
    else:
        number = MONTH_NAMES.index(of) + 1
        first = date(today.year + (number < today.month), number, 1)
    after = date(first.year + (first.month == 12), first.month % 12 + 1, 1)
    last = first + timedelta(days=month_days) if month_days is not None else after - timedelta(days=1)
    said = f"{prep} the {part} of {MONTH_NAMES[first.month - 1].capitalize()} {first.year}"
    return AnchoredPlan(_replace(fact, m, said), _day_end(last, now, zone_known))


def _replace(fact: str, m: re.Match[str], said: str) -> str:
    """``fact`` with the words of ``m`` replaced by ``said``."""
    return fact[: m.start()] + said + fact[m.end():]


# The day a told event happened, named from the day it was told: "today", "this morning", "tonight", "earlier
# today", "yesterday (morning)", "last night".
_TOLD_DAY = rx(
    r"(?:\s*,)?\s+(?:(?:earlier|later)\s+)?(?:(?P<today>today|tonight|this\s+(?:morning|afternoon|evening))"
    r"|(?P<yesterday>yesterday(?:\s+(?:morning|afternoon|evening|night))?|last\s+night))\b"
)


def date_told(fact: str, now: datetime) -> str:
    """``fact``, an event told as over ("User's cat Luna passed away this morning.", "User got laid off today."),
    with the day it names from the day it was told (``now``) written out ("... passed away on Tuesday
    2026-10-20."): read weeks later, "this morning" would say the wrong day. Any other ``fact`` as it is.

    >>> from datetime import timezone
    >>> said = datetime(2026, 10, 20, 9, 30, tzinfo=timezone.utc)  # a Tuesday
    >>> date_told("User's retriever Biscuit died yesterday.", said)
    "User's retriever Biscuit died on Monday 2026-10-19."
    """
    m = _TOLD_DAY.search(fact)
    if m is None:
        return fact
    day = now.date() - timedelta(days=1 if m.group("yesterday") else 0)
    return fact[: m.start()] + f" on {day_label(day)}" + fact[m.end():]



_COUNT = rf"a|an|{number_words('twelve')}|\d{{1,2}}"
# A past time named from the day it was said: "last month", "this year", "two weeks ago", "last Friday". "this
# month", "this week" and "this year" name the month, week or year said in, whether the fact is past or present.
# Not a time followed by "'s" or "of" ("last year's festival", "last year of college": a thing, not a time).
_PAST_WORDS = rx(
    r"\b(?:(?P<prep>in|since|from|during|until|till|by|before|after)\s+)?(?:"
    r"(?P<rel>this|last)\s+(?P<unit>month|year)"
    rf"|last\s+(?P<wd>{_WEEKDAY})|(?P<week_rel>this|last)\s+(?P<week>week)(?!end)|last\s+(?P<weekend>weekend)"
    rf"|(?P<n>{_COUNT})\s+(?P<ago_unit>day|week|month|year)s?\s+ago"
    r"|(?P<few>a\s+few|a\s+couple(?:\s+of)?|several)\s+(?P<few_unit>day|week|month|year)s\s+ago"
    r")\b(?!\s*['\u2019]s\b|\s+of\b)"
)
# A word before "last" or "this" that makes the words no time counted from today: "the last week" (the seven days
# up to now), "their last year of college", "all last week" (kept as said).
_NOT_FROM_TODAY = rx(r"\b(?:the|their|his|her|its|our|your|my|a|an|every|each|that|all)\s+$")
# A word before "two weeks ago" that makes the count rough or a bound ("about two weeks ago", "over a year ago"):
# the words are kept, counted from the day said ("over a year before Friday 2026-08-07").
_ROUGH = rx(
    r"\b(?:about|around|roughly|approximately|almost|nearly|over|under|some|only|just|maybe|exactly|than|at\s+least"
    r"|at\s+most)\s+$"
)
# A preposition before the time that the written-out time takes as it is: "the end of last year" -> "the end of
# 2025", not "the end of in 2025".
_BARE_AFTER = rx(r"\b(?:of|at|around|for|over|through|throughout|across|to|as\s+of)\s+$")
# Quoted words ("a band called 'Last Year'", "the film \u201cTwo Weeks Ago\u201d"): a name, never a time. A single
# quote opens only after a space or the start and closes before a non-letter, so "User's" is no quote.
_QUOTED = re.compile(
    r'"[^"]*"|\u201c[^\u201d]*\u201d|\u2018[^\u2019]*\u2019(?!\w)|(?<![\w\u2019\'])\'[^\']*\'(?!\w)'
)
# "due next month", "due in September", "due in two weeks": when something is due, counted from the day said.
_DUE = rx(r"\bdue\s+(?=(?:next|this|in|on|by|tomorrow)\b)")
# A baby may come up to two weeks after its due date (births are induced by about 42 weeks): a pregnancy with a
# due date stays true that much longer than the due day or month.
_PREGNANCY = rx(r"\b(?:pregnan\w*|expecting|baby|babies|twins|triplets)\b")
DUE_MARGIN = timedelta(days=14)
"""How long after the day or month a pregnancy is due its fact expires (:func:`date_said`): a baby may come up to
two weeks late."""
SAID_TIME = (
    r"(?:(?:in|on|since|from|during|until|till|by|before|after)\s+)?(?:(?:the\s+week(?:end)?\s+of\s+)?"
    rf"(?i:{_WEEKDAY})\s+\d{{4}}-\d{{2}}-\d{{2}}|(?i:{_MONTH})\s+\d{{4}}|\d{{4}}"
    # "a few weeks before Friday 2026-08-07", "about two weeks before ..."
    rf"|(?:(?:[a-z]+\s+){{0,2}}?(?:{_COUNT}|a\s+few|a\s+couple\s+of|several)\s+(?:day|week|month|year)s?\s+"
    rf"before\s+(?i:{_WEEKDAY})\s+\d{{4}}-\d{{2}}-\d{{2}}))"
)
"""A past time as :func:`date_said` writes it out ("in the week of Monday 2026-07-20", "in July 2026", "since
2025", "on Friday 2026-07-31", "a few weeks before Friday 2026-08-07"), as a pattern for the rules that read
stored facts."""


def _months_back(today: date, months: int) -> tuple[int, int]:
    """The (year, month) ``months`` before ``today``'s month."""
    index = today.year * 12 + today.month - 1 - months
    return index // 12, index % 12 + 1


def _said_past(m: re.Match[str], today: date, before: str) -> str | None:
    """The words of a :data:`_PAST_WORDS` match written out from ``today``, ``before`` being the fact's text
    before it; ``None`` when they are to be kept as said."""
    g = m.groupdict()
    prep = (g["prep"] or "").lower()
    if not prep and (g["rel"] or g["wd"] or g["week_rel"] or g["weekend"]) and _NOT_FROM_TODAY.search(before):
        return None
    if g["few"] or ((g["n"]) and _ROUGH.search(before)):
        # no count to go back by, or a rough one: the words kept, with the day they were said from
        count = re.sub(r"\s+", " ", (g["few"] or g["n"]).lower())
        count = "a couple of" if count == "a couple" else count  # "a couple months ago", typed without "of"
        unit = (g["few_unit"] or g["ago_unit"]).lower()
        plural = "" if count in ("a", "an", "one") else "s"
        return f"{prep + ' ' if prep else ''}{count} {unit}{plural} before {day_label(today)}"
    lead = "" if _BARE_AFTER.search(before) else "in"
    if g["unit"]:
        back = 1 if g["rel"].lower() == "last" else 0
        if g["unit"].lower() == "year":
            said = str(today.year - back)
        else:
            year, month = _months_back(today, back)
            said = f"{MONTH_NAMES[month - 1].capitalize()} {year}"
    elif g["wd"]:
        back = (today.weekday() - WEEKDAYS.index(g["wd"].lower())) % 7 or 7  # the last one before today
        said, lead = day_label(today - timedelta(days=back)), lead and "on"
    elif g["week"]:
        monday = today - timedelta(days=today.weekday() + (7 if g["week_rel"].lower() == "last" else 0))
        said = f"the week of {day_label(monday)}"
    elif g["weekend"]:
        saturday = today - timedelta(days=(today.weekday() - 5) % 7 or 7)
        said, lead = f"the weekend of {day_label(saturday)}", lead and "on"
    else:
        count = count_of(g["n"])
        unit = g["ago_unit"].lower()
        if unit == "day":
            said, lead = day_label(today - timedelta(days=count)), lead and "on"
        elif unit == "week":
            said = f"the week of {day_label(today - timedelta(days=today.weekday() + 7 * count))}"
        elif unit == "month":
            year, month = _months_back(today, count)
            said = f"{MONTH_NAMES[month - 1].capitalize()} {year}"
        else:
            said = str(today.year - count)
    lead = prep or lead
    return f"{lead} {said}" if lead else said


def _quoted(text: str) -> list[tuple[int, int]]:
    """The spans of ``text`` in quotes (:data:`_QUOTED`)."""
    return [q.span() for q in _QUOTED.finditer(text)]


def _is_name(text: str, m: re.Match[str], quoted: Sequence[tuple[int, int]]) -> bool:
    """Whether the words of ``m`` are part of a name, not a time: in quotes, or capitalised inside the sentence
    ("User watches Last Week Tonight.")."""
    if any(a <= m.start() < b for a, b in quoted):
        return True
    return m.group(0)[:1].isupper() and m.start() > 0 and not re.search(r"[.!?:;]\s*$", text[: m.start()])


def said_time_end(tail: str, expires: datetime | None, now: datetime, zone_known: bool) -> datetime | None:
    """When a thing due at the time ``tail`` names (resolved by :func:`anchor_plan`, its expiry ``expires``) is
    over: that day or week, else the month or year it names."""
    if expires is not None:
        return expires
    month = re.search(rf"\b({_MONTH})\s+(\d{{4}})\b", tail, re.IGNORECASE)
    if month is not None:
        number = MONTH_NAMES.index(month.group(1).lower()) + 1
        after = date(int(month.group(2)) + (number == 12), number % 12 + 1, 1)
    else:
        year = re.search(r"\bin\s+(\d{4})\b", tail)
        if year is None:
            return None
        after = date(int(year.group(1)) + 1, 1, 1)
    return _day_end(after - timedelta(days=1), now, zone_known)


def date_said(fact: str, now: datetime, *, zone_known: bool = False) -> AnchoredPlan:
    """``fact`` (a lasting fact) with the past times it names from the day it was said (``now``) written out, and
    what it says is due resolved like a plan: read months later, "this month" or "two weeks ago" would name the
    wrong time, and "due next month" would never be over.

    "this/last month" and "N months ago" become the month ("in July 2026"), "this/last year" and "N years ago"
    the year ("in 2025"), "N days ago" and "last Friday" the day ("on Friday 2026-07-31"), "this/last week" and
    "N weeks ago" the week ("in the week of Monday 2026-07-20"), "last weekend" its Saturday; a preposition said
    stays ("since 2025"), and one that takes the time bare drops the "in" ("the end of 2025"). "a few weeks ago"
    and a rough count ("about two weeks ago", "over a year ago") keep their words, with the day they were said
    from ("a few weeks before Friday 2026-08-07"). A time after "due" ("due next month", "due in September") is
    resolved as a plan's day (:func:`anchor_plan`), and the fact expires when that day, week or month is over; a
    pregnancy's :data:`DUE_MARGIN` later, as a baby may come late.

    Kept as said: words in quotes or capitalised inside the sentence (a name: "a band called 'Last Year'"),
    "last"/"this" after "the", a possessive, "all" or "every" ("the last week", "their last year of college"),
    a time followed by "'s" or "of" ("last year's festival"), and what the rules do not resolve ("last
    summer", "recently"). The expiry is ``None`` unless something is due.

    >>> from datetime import timezone
    >>> said = datetime(2026, 8, 7, 10, 0, tzinfo=timezone.utc)  # a Friday
    >>> date_said("User got married last year.", said).text
    'User got married in 2025.'
    >>> date_said("User's last name is Novak, at last.", said).text
    "User's last name is Novak, at last."
    >>> due = date_said("User is pregnant, due next month.", said)
    >>> due.text, due.expires_at.isoformat()
    ('User is pregnant, due in September 2026.', '2026-10-15T12:00:00+00:00')
    """
    today = now.date()
    expires: datetime | None = None
    due = _DUE.search(fact)
    if due is not None and not re.search(r"\d{4}-\d{2}-\d{2}", fact[due.end():]) \
            and not _is_name(fact, due, _quoted(fact)):  # not one written out already, nor a title's
        tail = anchor_plan(fact[due.end():], now, zone_known=zone_known)
        if tail is not None:
            fact = fact[: due.end()] + tail.text
            expires = said_time_end(tail.text, tail.expires_at, now, zone_known)
            if expires is not None and _PREGNANCY.search(fact):
                expires += DUE_MARGIN
    quoted = _quoted(fact)
    out, at = [], 0
    for m in _PAST_WORDS.finditer(fact):
        said = None if _is_name(fact, m, quoted) else _said_past(m, today, fact[: m.start()])
        if said is None:
            continue
        if m.start() == 0:
            said = said[:1].upper() + said[1:]
        out += [fact[at: m.start()], said]
        at = m.end()
    return AnchoredPlan("".join(out) + fact[at:], expires)
