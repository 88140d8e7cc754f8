"""A state told with the time it began in front of it: "Since Monday I am Senior QA in Zalando", "as of this month
I'm reporting to the county office", "Since the strike in autumn I make the way with the bicycle", or after it, "I'm
reporting to the county office as an officer from this month".

The time is what makes it news: what follows holds now, in place of what held before. :func:`as_held_now` reads it
as the plain statement "<clause> now", which the rules read as a change of the clause's slot (a "now" ends the
stored job, commute, home or diet it replaces). A time still to come ("From next month I'm ...", "Starting Monday
...") is a plan, left to the rules of plans; a "since" that gives a reason ("Since you asked, I'm vegan", "since
it's cold, ...") names no time and is left as said. Pure: English patterns.
"""

from __future__ import annotations

from ..calendar_words import ANY_MONTH as _MONTH
from .dates import WEEKDAY
from .patterns import rx

__all__ = ["TIME_LEAD", "as_held_now"]

# A time gone by or this one, named: "Monday", "last week", "this month", "mid-November", "January", "2024", "the
# 14th", "new year", "the start of the month" (not "today": "I'm vegan as of today" is a diet begun that day, with its
# day written out, read by .events).
_TIME = (
    r"(?:(?:last|this)\s+(?:week|weekend|month|year|term|semester|summer|winter|spring|fall|autumn|" + WEEKDAY + r")"
    r"|(?:the\s+)?(?:start|beginning|end)\s+of\s+(?:the\s+|this\s+|last\s+)?(?:week|month|year|"
    + _MONTH + r")"
    r"|(?:early\s+|late\s+|mid[\s-]?)?(?:" + _MONTH + r")(?:\s+\d{1,2}(?:st|nd|rd|th)?)?"
    r"|(?:the\s+)?\d{1,2}(?:st|nd|rd|th)(?:\s+of\s+(?:" + _MONTH + r"))?|(?:19|20)\d\d"
    r"|new\s+year(?:'s)?|christmas|easter)"
)
# "since Monday", "since the strike in autumn", "since my surgery": a time, or an event of the user's named with
# its article ("since you asked", "since it's cold" give a reason, not a time).
_SINCE = (r"since\s+(?:" + _TIME + r"|" + WEEKDAY
          + r"|(?P<event>(?:the|my|our)\s+(?!(?:i|we|you|he|she|it|they)\b)[a-z-]+"
          r"(?:\s+(?!(?:i|we|my|our)\b)[a-z-]+){0,3}?))")
# What happened in the user's life, which the fact keeps: "since the divorce", "since my surgery" (a strike or a
# storm tells only when).
_LIFE_EVENT = rx(r"\b(?:divorce|separation|wedding|marriage|break-?up|split|move|surgery|operation|accident|"
                 r"diagnosis|stroke|injury|baby|birth|redundancy|retirement|promotion|graduation|funeral)\b")
# "as of Friday", "from this month", "starting this week": from a time gone by or this one (a bare weekday after
# "from" or "starting" is more often one to come: "Starting Monday I work from home").
_FROM = r"(?:as\s+of\s+(?:" + _TIME + r"|" + WEEKDAY + r")|(?:from|starting|beginning)\s+" + _TIME + r")"
TIME_LEAD = (r"(?:(?:since|as\s+of|from|starting)\s+(?:" + _TIME + r"|" + WEEKDAY + r")|last\s+(?:week|month|year|"
             + WEEKDAY + r")|yesterday|today|this\s+(?:week|month|year)|on\s+" + WEEKDAY + r"|in\s+(?:" + _MONTH + r"))")
"""A time told before a clause: "since Monday", "from this month", "last week", "on Friday" (for the clause
breaks of :mod:`.clauses`: "I handed over my classes and from this month I am ...")."""
# Whose the state is: the user's, or their household's, as the rules read a statement.
_SUBJECT = r"(?:i|i'm|im|i\s+am|i've|we|we're|we've|my|our)\b"
_LEADING = rx(r"^(?:" + _SINCE + r"|" + _FROM + r")\s*,?\s+(?P<rest>" + _SUBJECT + r".*)$")
# "... from this week", "... as of this month": the time after the clause (only one of now: a named day after a
# clause is read by the rules of dates).
_TRAILING = rx(
    r"^(?P<rest>" + _SUBJECT + r".*?\S)\s*,?\s+(?:from|as\s+of|starting)\s+(?:this\s+(?:week|month|year)"
    r"|now\s+on)$"
)
# "I've been vegetarian since January", "Since 2025 I've lived in Porto": a length of time, whose "since" the rules
# keep with the fact.
_PERFECT = rx(r"^(?:i've|we've)\s+(?!got\b)|^(?:i|we)\s+have\s+(?:been|lived|had|worked|done|[a-z]+ed)\b")
_NOW_ALREADY = rx(r"\bnow$")
# "as of friday i'm in limerick": a home told as where the user is, which the rules of homes read with its time.
_WHERE = rx(r"^(?:i'm|im|i\s+am|we're|we\s+are)\s+in\b")


def as_held_now(said: str) -> list[str] | None:
    """``said`` (one clause, its lead cut and its end stripped) with the time its state began in front of it, or
    "from this week" / "as of this month" after it, as the plain statement of what holds now; ``None`` for any
    other clause.

    >>> as_held_now("Since Monday I am Senior QA in Zalando")
    ['I am Senior QA in Zalando now']
    >>> as_held_now("I'm reporting to the county office from this month")
    ["I'm reporting to the county office now"]
    >>> as_held_now("Since January I've been vegetarian") is None
    True
    >>> as_held_now("From next month I'm working at Google") is None
    True
    """
    m = _LEADING.match(said) or _TRAILING.match(said)
    if m is None:
        return None
    rest = m.group("rest").rstrip(" ,.!")
    if _WHERE.match(rest):
        return None
    if _PERFECT.match(rest):
        return None  # a length told ("Since January I've been vegetarian"): the rules keep its time as said
    if _LIFE_EVENT.search(m.groupdict().get("event") or ""):  # what happened, "since the divorce", stays with it
        when = said[:m.start("rest")].strip(" ,") if m.re is _LEADING else said[m.end("rest"):].strip(" ,")
        return [f"{rest} {when[0].lower()}{when[1:]}"]
    return [rest if _NOW_ALREADY.search(rest) else f"{rest} now"]
