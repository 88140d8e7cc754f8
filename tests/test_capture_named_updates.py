"""Rule-based capture keeps news of a thing the user's stored facts name (tester j2, finding 9), through capture_facts
into a real embedded Chroma store: a named pet's or person's health, a part of the body getting better, how often a
sport is done now, a statement before a question; each replacing the older state of the same thing, never another
thing's.

Rows of messages -> the facts valid (and ended) afterwards are in the case book tests/cases/named_updates.toml,
run by test_capture_cases.py."""

from __future__ import annotations

from datetime import datetime, timezone
from functools import partial

import pytest

from _capture import core_texts, ended_texts, texts_after, valid_texts
from _helpers import ungated_engine

SAID = datetime(2026, 5, 20, 9, 0, tzinfo=timezone.utc)  # a Wednesday


_said = partial(texts_after, at=SAID)  # each turn said at SAID


# -- the health of a named pet or person --------------------------------------------------------------------------


def test_a_persons_health_is_theirs_too() -> None:
    valid = _said(ungated_engine(), "My daughter Mia is 7.", "Mia has the flu, poor thing")
    assert "User's daughter Mia has the flu." in valid and "User's daughter Mia is 7." in valid


def test_a_diagnosis_replaces_being_sick_and_leaves_the_pet() -> None:
    engine = ungated_engine()
    _said(engine, "I have a cat named Luna.", "Luna's been really sick")
    assert _said(engine, "Luna has kidney failure, the vet said") == [
        "User has a cat named Luna.", "User's cat Luna has kidney failure."]
    assert ended_texts(engine) == ["User's cat Luna has been really sick."]


def test_a_second_diagnosis_leaves_the_first_and_a_recovery_ends_both() -> None:
    engine = ungated_engine()
    _said(engine, "I have a cat named Luna.", "Luna has kidney failure", "Luna has an ear infection too")
    assert ended_texts(engine) == []
    _said(engine, "Luna has fully recovered!")
    assert ended_texts(engine) == ["User's cat Luna has an ear infection.", "User's cat Luna has kidney failure."]


def test_news_of_one_pet_leaves_anothers() -> None:
    engine = ungated_engine()
    _said(engine, "I have a cat named Luna and a dog named Rex.", "Rex has been sick", "Luna is much better now")
    assert ended_texts(engine) == []


def test_a_named_pets_death_ends_its_health_and_it() -> None:
    engine = ungated_engine()
    _said(engine, "I have a cat named Luna.", "Luna has kidney failure, the vet said", "Luna passed away this morning")
    assert ended_texts(engine) == ["User has a cat named Luna.", "User's cat Luna has kidney failure."]


# -- a part of the body getting better ----------------------------------------------------------------------------


def test_what_a_clinician_said_after_the_news_is_a_fact_of_its_own() -> None:
    engine = ungated_engine()
    valid = _said(engine, "I twisted my knee at the park", "knee is much better, physio says I can walk again normally")
    assert valid == ["User can walk again normally.", "User's knee is much better."]
    assert ended_texts(engine) == ["User twisted their knee at the park."]


@pytest.mark.parametrize(
    ("stored", "said"),
    [
        ("I sprained my ankle.", "knee is much better"),  # another part
        ("My sister broke her wrist.", "my wrist is fine"),  # someone else's
        ("I have a bad back.", "back to work tomorrow"),  # no back of the body's
    ],
)
def test_another_part_or_someone_elses_injury_is_not_ended(stored: str, said: str) -> None:
    engine = ungated_engine()
    _said(engine, stored, said)
    assert ended_texts(engine) == []


# -- how often a sport is done now --------------------------------------------------------------------------------


def test_a_new_frequency_replaces_the_old_and_leaves_how_it_started_and_other_sports() -> None:
    engine = ungated_engine()
    _said(engine, "I started bouldering at a gym, it's so fun!!", "I boulder twice a week.", "I run every morning.")
    assert _said(engine, "I boulder 3 times a week now 💪") == [
        "User boulders 3 times a week.", "User runs every morning.", "User started bouldering at a gym."]
    assert ended_texts(engine) == ["User boulders twice a week."]


# -- a statement about someone named, before a question ---------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Felix is coming over, what should I cook?",  # nothing memory keeps of Felix
        "Is Felix vegan?",  # a question only
        "Bob is vegan, any dinner ideas?",  # no stored fact names Bob
    ],
)
def test_a_question_with_nothing_kept_of_someone_stored_adds_nothing(said: str) -> None:
    stored = "I met someone at the climbing gym, his name is Felix."
    before = _said(ungated_engine(), stored)
    assert _said(engine := ungated_engine(), stored, said) == before and ended_texts(engine) == []


def test_a_partners_diet_said_before_a_question_is_kept_and_not_core() -> None:
    engine = ungated_engine()
    _said(engine, "I met someone at the climbing gym, his name is Felix.", "Felix is vegan, any dinner ideas for both of us?")
    assert "User's partner Felix is vegan." in valid_texts(engine)
    assert core_texts(engine) == []  # core is the user's own
