"""An ending told by naming what ended (``memori_core/extraction/named_endings.py``): the rows that end a stored fact
are in ``tests/cases/named_endings.toml``; here, what a leaving must not end, and the module's own functions."""

from __future__ import annotations

import pytest

from _capture import SAID_AT, told
from memori_core.extraction.named_endings import bare_named_ending, ends_named


@pytest.mark.parametrize(("before", "said"), [
    ("I work in an office in Leeds.", "I left the office at 6 and the trains were a mess"),
    ("I have two kids.", "dropped the kids off at school and went for a run"),
    ("I'm learning Spanish on Duolingo.", "done with work for today"),
    ("I live in a house in Didsbury.", "I left the house at 7"),
])
def test_a_place_left_daily_a_person_or_work_for_the_day_ends_no_stored_fact(before: str, said: str) -> None:
    valid, ended = told(before, said, at=SAID_AT)
    assert ended == []
    assert len(valid) >= 1


def test_a_leaving_ends_only_the_fact_that_names_what_was_left() -> None:
    assert ends_named("User has left the navy after 12 years.", "User is a marine engineer in the Royal Navy.")
    assert not ends_named("User has left the navy after 12 years.", "User is a marine engineer at Babcock.")
    assert not ends_named("User's sister has left the navy.", "User is a marine engineer in the Royal Navy.")


def test_a_bare_ending_is_restated_only_when_a_stored_fact_names_what_ended() -> None:
    known = ["User is doing an MSc in hydrology at Cranfield."]
    assert bare_named_ending("Officially done with Cranfield.", known) == ["I finished my MSc in hydrology at Cranfield."]
    assert bare_named_ending("dropped duolingo", ["User is learning Italian on Duolingo."]) == ["I gave up duolingo"]
    assert bare_named_ending("Officially done with Loughborough.", known) is None
    assert bare_named_ending("left the navy", []) is None
