"""A day the user must meet, written out with its year and kept until it has passed.

A deadline ("User needs to submit their tax return by January 31.", "User's boss wants the report by Friday."), a
due day ("User's thesis is due October 30.") or a document's end date ("User's residence permit expires on October
30.") names a day that read a year later says another one; once it has passed, what it asked is done or missed.
:func:`with_day_due` writes that day out ("by Sunday 2027-01-31") and gives the fact the day's end as its expiry, as a
plan's day is (:func:`~memori_core.extraction.dates.anchor_plan`). A month or a year alone ("valid until 2028", "by
June") is left as said. A lasting start told with its day to come ("User starts at Siemens in three weeks.", "User's son
Eli starts daycare next week.") has its day written out too, and no expiry: what starts holds from then on. Pure: patterns, English only.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from ..calendar_words import ANY_MONTH as _MONTH
from .dates import WEEKDAY, anchor_plan
from .patterns import USER_OR_THEIRS, rx
from .verdicts import SentenceVerdict

__all__ = ["with_day_due"]

# A deadline's word, then a day: "by Friday", "due October 30", "expires on the 30th", "runs out on 3 May", "valid
# until June 2", "deadline is March 3".
_DUE_DAY = rx(
    r"\b(?:by|due(?:\s+on|\s+by)?|deadline\s+(?:is|of)|expires?(?:\s+on)?|expiring(?:\s+on)?|runs?\s+out\s+on|"
    r"valid\s+(?:until|till|through|to))\s+"
    rf"(?=(?:this\s+|next\s+)?{WEEKDAY}\b|tomorrow\b|(?:{_MONTH})\s+\d|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTH})\b|"
    r"the\s+\d{1,2}(?:st|nd|rd|th)\b|the\s+end\s+of\s+(?:the|this|next)\s+(?:week|month)\b)"
)
# A lasting start told with its day to come, the user's or someone's: "User starts at Siemens in three weeks.", "User's
# son Eli starts daycare at Little Acorns next week.", "User's daughter begins school on September 3.". (Before, the
# user's own was left to the job rules, which read "Starting Monday I'm driving ..." but not "I start at X on Monday".)
_STARTS_VERB = r"(?:starts|is\s+starting|begins|is\s+beginning)"
_STARTS = rx(rf"^{USER_OR_THEIRS}\s+{_STARTS_VERB}\b")
# "User starts at 8 tomorrow.", "User starts work at 7am on Monday.": that day's starting time, over with the day.
_AT_A_TIME = rx(rf"\b{_STARTS_VERB}\s+(?:work\s+|school\s+|their\s+shift\s+)?at\s+\d")
# A day a deadline word does not make one: "by the way", a past "User was due on ..." is history.
_PAST = rx(rf"^{USER_OR_THEIRS}\s+(?:was|were|had|did|got|passed|missed|submitted|handed)\b")


def with_day_due(verdict: SentenceVerdict, now: datetime, *, zone_known: bool = False) -> SentenceVerdict:
    """``verdict`` with the day its durable fact must be met by written out and the end of that day as its expiry
    (see the module's doc); any other verdict as it is.

    >>> from datetime import timezone
    >>> said = datetime(2026, 9, 9, 9, 0, tzinfo=timezone.utc)
    >>> due = with_day_due(SentenceVerdict("", "User's residence permit expires on October 30.", "kept"), said)
    >>> due.fact, str(due.expires_in)
    ("User's residence permit expires on Friday 2026-10-30.", '52 days, 3:00:00')
    >>> with_day_due(SentenceVerdict("", "User's permit is valid until 2028.", "kept"), said).expires_in is None
    True

    A lasting start told with its day to come has the day written out and no expiry: what starts holds from then on.

    >>> with_day_due(SentenceVerdict("", "User's son Eli starts daycare next week.", "kept"), said).fact
    "User's son Eli starts daycare in the week of Monday 2026-09-14."
    >>> with_day_due(SentenceVerdict("", "User starts at Siemens in three weeks.", "kept"), said).fact
    'User starts at Siemens around Wednesday 2026-09-30.'
    """
    fact = verdict.fact
    due = _DUE_DAY.search(fact) if fact is not None and verdict.expires_in is None else None
    if fact is not None and due is None and verdict.expires_in is None and _STARTS.match(fact):
        started = anchor_plan(fact, now, zone_known=zone_known)
        # what starts then holds from that day on: the day (or week) written out, no expiry; a month stays as said
        if started is None or started.expires_at is None:
            return verdict
        if _AT_A_TIME.search(fact) and started.expires_at > now:  # a day's starting time: a plan of that day
            return replace(verdict, fact=started.text, expires_in=started.expires_at - now)
        return replace(verdict, fact=started.text)
    if fact is None or due is None or _PAST.match(fact):
        return verdict
    plan = anchor_plan(fact, now, zone_known=zone_known)
    # the day written out is the one after the deadline's word, not another the fact names before it
    if plan is None or plan.expires_at is None or plan.text[: due.end()] != fact[: due.end()] \
            or plan.text == fact or plan.expires_at <= now:
        return verdict
    return replace(verdict, fact=plan.text, expires_in=plan.expires_at - now)
