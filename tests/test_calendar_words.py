"""The month and weekday names are one table each (memori_core/calendar_words.py), read by capture's rules, the
gate's and the capture scorer: no other module writes them out again."""

from __future__ import annotations

import re
from pathlib import Path

from memori_core.calendar_words import MONTH_NAMES, WEEKDAYS

ROOT = Path(__file__).resolve().parent.parent
# Three names in a row, in any case, with anything but letters between them: a table or an alternation written out.
_WRITTEN_OUT = re.compile(
    r"january\W+february\W+march|april\W+may\W+june|monday\W+tuesday\W+wednesday|friday\W+saturday\W+sunday",
    re.IGNORECASE,
)


def test_the_month_and_weekday_names_are_written_out_only_in_calendar_words() -> None:
    found = [f"{path.relative_to(ROOT)}:{text[: m.start()].count(chr(10)) + 1}"
             for package in ("memori_core", "memori_langchain", "memori_llamaindex")
             for path in sorted((ROOT / package).rglob("*.py")) if path.name != "calendar_words.py"
             for text in [path.read_text(encoding="utf-8")] for m in _WRITTEN_OUT.finditer(text)]
    assert found == []


def test_the_tables_hold_the_names_in_calendar_order() -> None:
    assert len(MONTH_NAMES) == 12 and MONTH_NAMES[0] == "january" and MONTH_NAMES[11] == "december"
    assert len(WEEKDAYS) == 7 and WEEKDAYS[0] == "monday" and WEEKDAYS[6] == "sunday"
