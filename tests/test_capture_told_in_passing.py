"""A lasting fact told in passing, inside a request or beside a moment (tester j12's finding 1): the fact is kept
and the request is not glued to it. Rows of the rules are in tests/rules/told_in_passing.toml."""

from __future__ import annotations

import pytest

from _capture import SAID_AT
from memori_core import RuleBasedFactExtractor
from memori_core.extraction import Message


def _kept(said: str) -> list[str]:
    """The texts of the lasting facts the shipped rules keep of ``said``."""
    return [f.text for f in RuleBasedFactExtractor().extract([Message("user", said, created_at=SAID_AT)])
            if f.expires_at is None]


@pytest.mark.parametrize(("said", "kept"), [
    ("also I have hypothyroidism, anything I should tell the new GP", ["User has hypothyroidism."]),
    ("my hypothyroidism is acting up, what can I eat", ["User has hypothyroidism."]),
    ("my mum lives in winnipeg and wants me home for thanksgiving. i refuse to fly, planes terrify me. options?",
     ["User's mum lives in winnipeg.", "User is afraid of planes."]),
    ("lol my cat Biscuit just ate a bit of my halloumi, is cheese bad for cats?", ["User has a cat named Biscuit."]),
    ("my mum lives in Leicester and wants us up for her birthday on the 20th, what's a good present",
     ["User's mum lives in Leicester."]),
    ("My name's Priya btw, you always call me 'you' haha", ["User's name is Priya."]),
])
def test_a_lasting_fact_told_in_passing_is_kept_without_the_request(said: str, kept: list[str]) -> None:
    assert _kept(said) == kept


def test_a_question_or_an_exclamation_alone_keeps_no_question_text() -> None:
    kept = [fact for said in ("what can I eat before a run", "is cheese bad for cats?", "I moved to Leeds, what a year")
            for fact in _kept(said)]
    assert kept == ["User lives in Leeds."]
