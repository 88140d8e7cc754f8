"""Moods, asides and one-off moments are not stored as lasting facts (tester j12's finding 12), through the
extractor; what lasts in the same message is still kept. Rows of the rule: tests/rules/asides.toml."""

from __future__ import annotations

import pytest

from _capture import SAID_AT
from memori_core import RuleBasedFactExtractor
from memori_core.extraction import Message


def _kept(said: str) -> list[str]:
    return [f.text for f in RuleBasedFactExtractor().extract([Message("user", said, created_at=SAID_AT)])]


@pytest.mark.parametrize(("said", "kept"), [
    ("meds are kicking in i think. I feel... normal? weird", []),
    ("ok I'll set an alarm for 6", []),
    ("My son says maybe they come for Christmas, or maybe we go to Lyon. I cannot decide.", []),
    ("first day at the BBC done. MediaCity is massive, I got lost twice", []),
    ("my daughter Anaya starts reception in september and I'm weirdly emotional about it",
     ["User's daughter Anaya starts reception in september."]),
])
def test_a_remark_of_the_moment_is_not_stored_and_what_lasts_beside_it_is(said: str, kept: list[str]) -> None:
    assert _kept(said) == kept


def test_a_lasting_fact_told_after_a_mishap_is_still_kept() -> None:
    assert _kept("I got lost twice. I work at the BBC now") == ["User works at the BBC."]
