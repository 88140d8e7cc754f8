"""A state the user says holds until an end the turn names: kept until then, with that end written out.

"I'm in Rome this week", "I'm on holiday until Friday", "my oven's broken till tuesday", "I'm staying with my sister
for the next two weeks", "I'm away from the 10th to the 17th": true now, and over at an end a careful person reads
from the day it was said. Dropped as a passing whereabouts it is lost the next day; kept as lasting it stays true
after it has ended. :func:`held_until` writes the end out ("in the week of Monday 2026-01-05", "until Friday
2026-01-09", "until Monday 2026-01-19") and gives the end of that day, week or month as the fact's expiry, as a
plan's day is (:func:`~memori_core.extraction.dates.anchor_plan`); :func:`away_until` says whether a passing
whereabouts or a time off ("I'm in Rome", "I'm off work") names such an end after today, so that it is kept, not
dropped. A fact told of the past ("User lived in Rome until 2019."), of a start, or of what recurs ("User works
Monday until Friday.") names no end of its own. Pure: patterns, English only.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from ..calendar_words import ANY_MONTH, MONTH_NAMES
from ..number_words import count_of, number_words
from .dates import WEEKDAY, AnchoredPlan, anchor_plan, said_time_end
from .grammar import is_past_statement
from .patterns import I_OR_WE_ARE, USER_OR_THEIRS, rx

__all__ = ["away_until", "held_until"]

_COUNT = rf"a\s+couple\s+of|couple\s+of|a\s+few|few|{number_words('ten')}|\d{{1,2}}"
# "for the next two weeks", "for the coming week", "for the rest of the month": an end counted from the day said.
_SPAN = rx(
    rf"\bfor\s+the\s+(?:(?:next|coming)\s+(?:(?P<n>{_COUNT})\s+)?(?P<unit>days?|weeks?|fortnight)"
    r"|rest\s+of\s+the\s+(?P<rest>week|month))\b"
)
# "for a few days", "for a week", "for 5 days", "for a fortnight": how long a state the user is in now lasts, counted
# from the day said as "for the next ..." is ("The doctor put me on paracetamol for a few days": over in three days;
# issue 21). Read only on a fact kept as a state held now ("User is ..."), not on what has held so far ("User has
# been on it for a week"), what recurs ("for two weeks on, two off") or starts later ("for a week in March").
_FOR_SPAN = rx(
    # "for 3 weeks total", "for 3 weeks in total", "for 3 weeks altogether": the whole span, the word with it
    rf"\bfor\s+(?P<n>{_COUNT}|a|an)\s+(?P<unit>days?|weeks?|fortnight)\b(?:\s+(?:in\s+)?total\b|\s+altogether\b)?"
    r"(?!\s+(?:on|off|a|an|per|every|each|at\s+a\s+time|out\s+of|ago|now|straight|running|in\s+a\s+row|in|from|"
    r"or|so\s+far|over|this|next|when|whenever|once|twice|\w+\s+times|already|yet|by\s+now)\b)"
)
# What, after the span, says it is not counted from today: so far ("for a week so far"), a rough length ("for a week
# or two"), a time of year or a holiday ("for a week over Christmas", "for a week this summer"), a time to come ("for
# a week when the baby comes", "once school's out"), a repeat ("for a week twice a year").
_NOT_FROM_TODAY = rx(
    r"\b(?:so\s+far|or\s+(?:two|three|so|more|longer)|over|this\s+(?!(?:week|month)\b)\w+|when|whenever|once|twice|"
    r"\w+\s+times\s+a|christmas|easter|new\s+year|thanksgiving|half[\s-]term|summer|winter|spring|autumn|fall|"
    r"holidays|hols)\b"
)
_HELD_NOW = rx(rf"^{USER_OR_THEIRS}\s+(?:is|are|'s)\s+(?!going\s+to\b)")
_LATER = rx(rf"\b(?:next|tomorrow|tonight|from|starting|after|later|{WEEKDAY}|{ANY_MONTH})\b")
# An end a plan's day is read from (dates.anchor_plan): "until Friday", "till tuesday", "until the 17th", "until
# March", "until Christmas", "until the end of the month", "this week", "this weekend", "this month", "from the 10th
# to the 17th".
_END = rx(
    r"\b(?:(?:until|till)\s+(?!(?:then|now|later|further|tonight|today|i|we|my|our|he|she|they|it|you)\b)"
    r"|this\s+(?:week(?:end)?|month)\b|from\s+(?=the\s+\d|\d{1,2}(?:st|nd|rd|th)?\s|(?:" + ANY_MONTH + r")\s+\d))"
)
# What names no end of its own: what recurs ("every", "Monday until Friday"), what starts then and holds after it.
_NO_END = rx(
    rf"\b(?:every|each|daily|weekly|usually|always|normally|weekdays|weekends|{WEEKDAY}s)\b"
    rf"|\b{WEEKDAY}\s+(?:until|till|to|through|-)\s"
    r"|\b(?:start|begin|join|move|moving\s+in|relocat)\w*"
)
# A fact told of what happened: "User was in Rome until Friday.", "User had the flu this week."
_WAS = rx(rf"^{USER_OR_THEIRS}\s+(?:was|were|had)\b")

# Where the user is, or a time off, said for now: "I'm in Rome", "we're at my mum's", "I'm away", "I'm on holiday",
# "I'm off work", "I'm working from home", "I'm staying with my sister" (not a mood: "I'm stressed until Friday").
_AWAY = rx(
    r"^" + I_OR_WE_ARE + r"\s+(?:currently\s+|still\s+|just\s+)?"
    r"(?:in\s+(?-i:[A-Z])|at\s+(?:my|our)\s+(?:[\w-]+\s+)?[\w-]+(?:'s|s')(?:\s|$)|away|abroad|"
    r"out\s+of\s+(?:town|the\s+country|the\s+office|office)|home\b|back\s+home|"
    r"on\s+(?:vacation|holiday|holidays|leave|annual\s+leave|sick\s+leave|a\s+(?:work\s+|business\s+)?trip|"
    r"call|nights|night\s+shifts?|jury\s+duty|a\s+course|a\s+retreat)\b|"
    r"off\s+(?:work|sick|school|uni)\b|working\s+(?:from\s+home|remotely|nights)\b|staying\s+(?:with|at|in)\b|"
    r"visiting\s+(?:my|our|(?-i:[A-Z]))|travell?ing\b)"
)
# An end today, which makes the stay a moment still: "until tonight", "till later".
_TODAY = rx(r"\b(?:until|till)\s+(?:tonight|today|later|this\s+(?:morning|afternoon|evening))\b")


def _span_end(m: re.Match[str], now: datetime) -> str:
    """The day a :data:`_SPAN` (or :data:`_FOR_SPAN`) match ends on, as a date ``anchor_plan`` reads ("January 19,
    2026")."""
    today = now.date()
    if m.groupdict().get("rest"):
        if m.group("rest").lower() == "week":
            last = today + timedelta(days=6 - today.weekday())
        else:
            after = today.replace(day=1) + timedelta(days=32)
            last = after.replace(day=1) - timedelta(days=1)
    else:
        unit = m.group("unit").lower()
        count = 2 if unit == "fortnight" else count_of(m.group("n") or "one")
        last = today + timedelta(days=count * (1 if unit.startswith("day") else 7))
    return f"{MONTH_NAMES[last.month - 1].capitalize()} {last.day}, {last.year}"


def held_until(fact: str, now: datetime, *, zone_known: bool = False) -> AnchoredPlan | None:
    """``fact`` (a lasting fact said at ``now``) with the end it names written out, and the end of that day, week or
    month as its expiry; ``None`` when it names no end the rules read, tells of the past, of a start or of what
    recurs.

    >>> from datetime import timezone
    >>> said = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)  # a Monday
    >>> held = held_until("User is in Rome this week.", said, zone_known=True)
    >>> held.text, held.expires_at.isoformat()
    ('User is in Rome in the week of Monday 2026-01-05.', '2026-01-12T00:00:00+00:00')
    >>> held_until("User is staying with their sister for the next two weeks.", said, zone_known=True).text
    'User is staying with their sister until Monday 2026-01-19.'
    >>> held_until("User lived in Rome until March.", said) is None
    True
    """
    if _NO_END.search(fact) or is_past_statement(fact) or _WAS.match(fact):
        return None
    span = _SPAN.search(fact)
    if span is None and _HELD_NOW.match(fact) and not _END.search(fact) and not _LATER.search(fact):
        span = _FOR_SPAN.search(fact)  # "User is on paracetamol for a few days."
        if span is not None and _NOT_FROM_TODAY.search(fact[span.end():]):
            span = None  # "User is staying with their mum for a week over Christmas."
    if span is not None:
        fact = f"{fact[: span.start()]}until {_span_end(span, now)}{fact[span.end():]}"
    end = _END.search(fact)
    if end is None:
        return None
    plan = anchor_plan(fact, now, zone_known=zone_known)
    # the day written out must be the end's, not another the fact names before it
    if plan is None or plan.text == fact or plan.text[: end.start()] != fact[: end.start()]:
        return None
    expires = said_time_end(plan.text[end.start():], plan.expires_at, now, zone_known)
    return AnchoredPlan(plan.text, expires) if expires is not None and expires > now else None


def away_until(body: str) -> bool:
    """Whether ``body`` says where the user is, or a time off, until an end after today the rules read ("I'm in Rome
    this week", "I'm off work until Friday", "we're at my mum's for the rest of the week"): kept until then, not
    dropped as a passing moment ("I'm in Rome for a conference" names no end; "I'm at my mum's till tonight" ends
    today)."""
    return bool(_AWAY.match(body)) and not _TODAY.search(body) and bool(_SPAN.search(body) or _END.search(body)) \
        and not _NO_END.search(body)
