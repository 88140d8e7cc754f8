"""The English names of the months and the weekdays: one table each, read by capture's rules
(:mod:`memori_core.extraction`: a plan's day, a month said again) and the gate's (:mod:`memori_core.ranking`: a day a
question names, the words that name no one)."""

from __future__ import annotations

__all__ = ["MONTH_NAMES", "MONTH_PREFIX", "WEEKDAYS", "WEEKDAYS_PLURAL", "WEEKDAY_STEMS", "WORKDAY_STEMS"]

MONTH_NAMES: tuple[str, ...] = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
                                "october", "november", "december")
"""The months, in order (lower case): ``MONTH_NAMES.index(name) + 1`` is the month's number."""

WEEKDAYS: tuple[str, ...] = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
"""The weekdays, in order (lower case): ``WEEKDAYS[day.weekday()]`` is the name of ``day``'s."""

WEEKDAYS_PLURAL = "|".join(f"{day}s" for day in WEEKDAYS)
"""A regex alternation of the weekdays as a habit names them: ``mondays|tuesdays|...|sundays``."""

WEEKDAY_STEMS = "|".join(day.removesuffix("day") for day in WEEKDAYS)
"""A regex alternation of the weekdays less their ``day`` (``mon|tues|...|sun``), for ``(?:{WEEKDAY_STEMS})days?``."""

WORKDAY_STEMS = "|".join(day.removesuffix("day") for day in WEEKDAYS[:5])
""":data:`WEEKDAY_STEMS` of Monday to Friday alone (``mon|tues|wednes|thurs|fri``)."""

MONTH_PREFIX = rf"(?:{'|'.join(month[:3] for month in MONTH_NAMES)})[a-z]*"
"""A regex for a month, whole or cut short: its first three letters and any letters after (``jan``, ``Sept``,
``september``)."""
