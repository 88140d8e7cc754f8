"""The month and weekday names are one table each (memori_core/calendar_words.py), read by capture's rules, the
gate's and the capture scorer: no other module writes them out again."""

from __future__ import annotations

import re

from _helpers import written_out_elsewhere
from memori_core.calendar_words import (ANY_MONTH_TITLED, MONTH_NAMES, SHORT_MONTHS, WEEKDAY_STEMS, WEEKDAYS,
                                        WEEKDAYS_PLURAL, WORKDAY_STEMS, month_number, month_of)

# Three names in a row, in any case, with anything but letters between them: a table or an alternation written out.
_WRITTEN_OUT = re.compile(
    r"january\W+february\W+march|april\W+may\W+june|monday\W+tuesday\W+wednesday|friday\W+saturday\W+sunday"
    # the short and plural forms built from them: "jan|feb|mar", "mon|tues|wednes", "mon|tue|wed", "mondays|tuesdays"
    r"|\bjan\W+feb\W+mar\b|\bmon\W+tues?\W+wed(?:nes)?\b|\bmondays\W+tuesdays\b",
    re.IGNORECASE,
)


def test_the_month_and_weekday_names_are_written_out_only_in_calendar_words() -> None:
    assert written_out_elsewhere(_WRITTEN_OUT, "calendar_words.py") == []


# The standard library's month and day names follow the process's locale (LC_TIME): read in English by the rules.
_LOCALE_NAMES = re.compile(r"\bcalendar\.(?:month_name|month_abbr|day_name|day_abbr)\b")


def test_no_module_reads_the_locale_bound_names_of_the_calendar_module() -> None:
    assert written_out_elsewhere(_LOCALE_NAMES, "calendar_words.py") == []


def test_the_tables_hold_the_names_in_calendar_order() -> None:
    assert len(MONTH_NAMES) == 12 and MONTH_NAMES[0] == "january" and MONTH_NAMES[11] == "december"
    assert len(WEEKDAYS) == 7 and WEEKDAYS[0] == "monday" and WEEKDAYS[6] == "sunday"


def test_the_built_forms_match_every_name_of_the_tables() -> None:
    assert all(re.fullmatch(rf"(?:{WEEKDAY_STEMS})day", day) for day in WEEKDAYS)
    assert all(re.fullmatch(rf"(?:{WORKDAY_STEMS})day", day) for day in WEEKDAYS[:5])
    assert not re.fullmatch(rf"(?:{WORKDAY_STEMS})day", "saturday")
    assert all(re.fullmatch(WEEKDAYS_PLURAL, f"{day}s") for day in WEEKDAYS)


def test_a_short_month_names_its_month_and_may_has_no_short_form() -> None:
    shorts = re.compile(rf"(?:{SHORT_MONTHS})", re.IGNORECASE)
    assert [month_of(s) for s in ("Jan", "sep", "Sept", "DEC")] == ["january", "september", "september", "december"]
    assert all(shorts.fullmatch(month[:3]) for month in MONTH_NAMES if month != "may")
    assert shorts.fullmatch("may") is None


def test_a_month_name_or_short_name_gives_its_number_and_the_titled_form_keeps_may_the_month() -> None:
    assert [month_number(s) for s in ("January", "sep", "Sept", "september", "DEC", "may")] == [1, 9, 9, 9, 12, 5]
    titled = re.compile(rf"(?:{ANY_MONTH_TITLED})")
    assert all(titled.fullmatch(month.capitalize()) for month in MONTH_NAMES)
    assert titled.search("you may go") is None
