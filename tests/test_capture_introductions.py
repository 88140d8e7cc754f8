"""How the user introduces themselves in one run-on message ("I'm an ICU nurse at Manchester Royal, mostly on
nights, three 12-hour shifts a week", "I'm Frank, 71, retired electrician, live in Norwich"): one clean fact per
part. The message -> facts rows are in ``tests/cases/introductions.toml``; here, what the rules read as a way of
working and what they must not."""

from __future__ import annotations

import pytest

from memori_core.extraction.introductions import work_pattern


@pytest.mark.parametrize(("said", "parts"), [
    ("I'm an ICU nurse at Manchester Royal, mostly on nights at the moment, three 12-hour shifts a week",
     ["I'm an ICU nurse at Manchester Royal", "I mostly work nights at the moment, three 12-hour shifts a week"]),
    ("I'm a nurse, mostly on nights", ["I'm a nurse", "I mostly work nights"]),
    ("I work at Tesco, on nights, 40 hours a week", ["I work at Tesco", "I work nights, 40 hours a week"]),
    ("I'm a paramedic, four 12-hour shifts a week.", ["I'm a paramedic", "I work four 12-hour shifts a week"]),
])
def test_a_job_then_how_it_is_worked_gives_the_job_and_the_way_of_working(said: str, parts: list[str]) -> None:
    assert work_pattern(said) == parts


@pytest.mark.parametrize("said", [
    "I'm a mum, on nights with the baby",  # no job
    "I'm a nurse, three kids and a dog",
    "I'm a teacher, two days off a week",
    "I'm a nurse, mostly on my feet",
    "I'm a chef, on nights out I drink too much",
    "I'm a nurse, and on nights I can't sleep",
    "I'm a nurse",
    "My sister is a nurse, mostly on nights",  # someone else's job
])
def test_what_is_no_job_then_a_way_of_working_is_not_read_as_one(said: str) -> None:
    assert work_pattern(said) is None
