"""The English names of the months and the weekdays: one table each, read by capture's rules
(:mod:`memori_core.extraction`: a plan's day, a month said again) and the gate's (:mod:`memori_core.ranking`: a day a
question names, the words that name no one)."""

from __future__ import annotations

__all__ = ["ANY_MONTH", "ANY_MONTH_TITLED", "ANY_WEEKDAY", "CALENDAR_NAMES", "MONTH_NAMES", "MONTH_PREFIX", "MONTH_STARTS", "SHORT_MONTHS", "WEEKDAYS", "WEEKDAY_STARTS", "WEEKDAYS_PLURAL",
           "WEEKDAY_STEMS", "WORKDAY_STEMS", "month_number", "month_of"]

MONTH_NAMES: tuple[str, ...] = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
                                "october", "november", "december")
"""The months, in order (lower case): ``MONTH_NAMES.index(name) + 1`` is the month's number."""

WEEKDAYS: tuple[str, ...] = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
"""The weekdays, in order (lower case): ``WEEKDAYS[day.weekday()]`` is the name of ``day``'s."""

CALENDAR_NAMES: frozenset[str] = frozenset((*MONTH_NAMES, *WEEKDAYS))
"""Every month's and weekday's name (lower case): a capitalised word that names a time, not a person or a place."""

ANY_MONTH = "|".join(MONTH_NAMES)
"""A regex alternation of the month names (``january|february|...|december``)."""

ANY_MONTH_TITLED = ANY_MONTH.title()
"""The month names as a name is written, capitalised (``January|February|...|December``): with case kept, "May"
the month and not "may"."""

ANY_WEEKDAY = "|".join(WEEKDAYS)
"""A regex alternation of the weekday names (``monday|tuesday|...|sunday``)."""

WEEKDAYS_PLURAL = "|".join(f"{day}s" for day in WEEKDAYS)
"""A regex alternation of the weekdays as a habit names them: ``mondays|tuesdays|...|sundays``."""

WEEKDAY_STEMS = "|".join(day.removesuffix("day") for day in WEEKDAYS)
"""A regex alternation of the weekdays less their ``day`` (``mon|tues|...|sun``), for ``(?:{WEEKDAY_STEMS})days?``."""

WORKDAY_STEMS = "|".join(day.removesuffix("day") for day in WEEKDAYS[:5])
""":data:`WEEKDAY_STEMS` of Monday to Friday alone (``mon|tues|wednes|thurs|fri``)."""

MONTH_STARTS = "|".join(month[:3] for month in MONTH_NAMES)
"""A regex alternation of the months' first three letters (``jan|feb|...|dec``)."""

WEEKDAY_STARTS = "|".join(day[:3] for day in WEEKDAYS)
"""A regex alternation of the weekdays' first three letters (``mon|tue|...|sun``)."""

MONTH_PREFIX = rf"(?:{MONTH_STARTS})[a-z]*"
"""A regex for a month, whole or cut short: its first three letters and any letters after (``jan``, ``Sept``,
``september``)."""

SHORT_MONTHS = "|".join(month[:3] + ("t?" if month == "september" else "") for month in MONTH_NAMES if len(month) > 3)
"""A regex alternation of the months' short names as people type them, ``Sept`` too (``jan|feb|...|sept?|...|dec``);
not ``may``, whose short name is its name."""


def month_of(short: str) -> str:
    """The name of the month ``short`` (a name or a short name, in any case) names.

    >>> month_of("Sept"), month_of("nov")
    ('september', 'november')
    """
    return next(month for month in MONTH_NAMES if month[:3] == short[:3].lower())


def month_number(short: str) -> int:
    """The number (1 to 12) of the month ``short`` (a name or a short name, in any case) names.

    >>> month_number("Sept"), month_number("december")
    (9, 12)
    """
    return MONTH_NAMES.index(month_of(short)) + 1
