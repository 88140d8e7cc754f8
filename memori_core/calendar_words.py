"""The English names of the months and the weekdays: one table each, read by capture's rules
(:mod:`memori_core.extraction`: a plan's day, a month said again) and the gate's (:mod:`memori_core.ranking`: a day a
question names, the words that name no one)."""

from __future__ import annotations

__all__ = ["MONTH_NAMES", "WEEKDAYS"]

MONTH_NAMES: tuple[str, ...] = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
                                "october", "november", "december")
"""The months, in order (lower case): ``MONTH_NAMES.index(name) + 1`` is the month's number."""

WEEKDAYS: tuple[str, ...] = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
"""The weekdays, in order (lower case): ``WEEKDAYS[day.weekday()]`` is the name of ``day``'s."""
