"""A mood told in the perfect ("I've been shattered lately"), a mood said in a figure ("I don't know what to do with
myself"), a vague caution ("so I'm really careful about food") and a flare-up ("My back's flared up again"): dropped,
or kept only for the couple of weeks they are news. Rows of one message -> the facts kept of it are in the case book
tests/cases/moods_and_flare_ups.toml, run by tests/test_capture_cases.py; here, how long what is kept lasts."""

from __future__ import annotations

from datetime import timedelta

import pytest

from _capture import SAID_AT
from memori_core import RuleBasedFactExtractor
from memori_core.extraction import Message
from memori_core.extraction.moments import MOOD_LIFETIME


def _expiry(said: str) -> timedelta | None:
    """How long after it was said the one fact the shipped rules keep of ``said`` expires (``None``: never)."""
    [fact] = RuleBasedFactExtractor().extract([Message("user", said, created_at=SAID_AT)])
    return None if fact.expires_at is None else fact.expires_at - SAID_AT


@pytest.mark.parametrize("said", [
    "I've been shattered lately.",
    "I've been feeling rubbish lately.",
    "My back's flared up again.",
    "My knee has been playing up.",
    "My eczema is flaring up.",
])
def test_a_mood_of_the_weeks_or_a_flare_up_expires_after_the_mood_lifetime(said: str) -> None:
    assert _expiry(said) == MOOD_LIFETIME


@pytest.mark.parametrize("said", [
    "My asthma flares up in winter.",
    "I've been vegan for years.",
    "I've been off work since the accident.",
])
def test_a_condition_that_recurs_or_what_holds_for_good_never_expires(said: str) -> None:
    assert _expiry(said) is None
