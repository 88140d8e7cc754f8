"""An ending told by naming what ended (``memori_core/extraction/named_endings.py``): the rows that end a stored fact
are in ``tests/cases/named_endings.toml``; what a leaving must not end (a place left for the day, work done for
today) in ``tests/test_capture_stale_endings.py``'s table of what ends no stored fact; here, the module's own
functions."""

from __future__ import annotations

from memori_core.extraction.named_endings import bare_named_ending, ends_named


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
