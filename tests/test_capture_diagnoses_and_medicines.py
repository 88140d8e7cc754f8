"""How a diagnosis or a new medicine is told ("they say I have gestational diabetes", "she put me on ferrous
sulphate", "she's added gliclazide"): captured as the user's condition and medicine, core. The message -> facts rows
are in ``tests/cases/diagnoses_and_medicines.toml``; here, what is stored core, and the words the rules read."""

from __future__ import annotations

import pytest

from _capture import SAID_AT, capture_turns, core_texts, valid_texts
from _helpers import ungated_engine
from memori_core.extraction.core_facts import is_core_fact
from memori_core.extraction.diagnoses import as_diagnosis, is_lasting_condition, is_medicine


def test_a_reported_diagnosis_and_a_medicine_begun_are_stored_core() -> None:
    engine = ungated_engine()
    capture_turns(engine, "Had my glucose test today and they say I have gestational diabetes.",
                  "also been super tired lately, GP did bloods and says I'm anaemic. she put me on ferrous sulphate",
                  at=SAID_AT)
    assert core_texts(engine) == ["User has gestational diabetes.", "User is anaemic.", "User takes ferrous sulphate."]


def test_a_medicine_added_beside_a_stored_one_is_core_and_ends_nothing() -> None:
    engine = ungated_engine()
    capture_turns(engine, "I've got type 2 diabetes, on metformin twice a day.",
                  "Saw the GP today. My HbA1c is up so she's added gliclazide, one in the morning with breakfast.",
                  at=SAID_AT)
    assert "User takes gliclazide, one in the morning with breakfast." in core_texts(engine)
    assert any("metformin" in text for text in valid_texts(engine))


@pytest.mark.parametrize("fact", [
    "User takes ferrous sulphate.", "User is on iron tablets.", "User has been prescribed folic acid.",
    "User uses a steroid inhaler.", "User is anaemic.", "User has high cholesterol.",
    "User was diagnosed with chronic kidney disease.",
])
def test_a_medicine_known_by_its_form_salt_or_kind_and_a_condition_that_limits_food_are_core(fact: str) -> None:
    assert is_core_fact(fact)


@pytest.mark.parametrize("fact", [
    "User takes the bus to work.", "User takes no tablets.", "User is on the rota.", "User takes a packed lunch.",
    "User's friend takes iron tablets.", "User's sister is anaemic.", "User used to take iron tablets.",
    "User is no longer anaemic.",
])
def test_what_is_no_medicine_or_not_the_users_own_now_is_not_core(fact: str) -> None:
    assert not is_core_fact(fact)


@pytest.mark.parametrize("words", ["gestational diabetes", "anaemic", "mildly asthmatic", "an underactive thyroid",
                                   "high blood pressure", "coeliac disease", "type 2 diabetes"])
def test_lasting_conditions_are_read_as_such(words: str) -> None:
    assert is_lasting_condition(words)


@pytest.mark.parametrize("words", ["a cold", "flu", "a chest infection", "a good chance", "lazy", "to wait",
                                   "a natural", "diabetes of the mind, apparently"])
def test_passing_illnesses_and_other_words_are_no_lasting_condition(words: str) -> None:
    assert not is_lasting_condition(words)


@pytest.mark.parametrize("words", ["ferrous sulphate", "gliclazide", "iron tablets", "a steroid inhaler",
                                   "amlodipine", "antibiotics"])
def test_medicines_are_read_by_name_stem_form_salt_or_kind(words: str) -> None:
    assert is_medicine(words)


@pytest.mark.parametrize("words", ["the rota", "a waiting list", "the guest list", "a new training plan", "a raise"])
def test_what_one_is_put_on_that_is_no_medicine_is_not_read_as_one(words: str) -> None:
    assert not is_medicine(words)


def test_as_diagnosis_reads_only_what_tells_of_a_diagnosis_or_a_medicine() -> None:
    assert as_diagnosis("GP did bloods and says I'm anaemic") == ["I'm anaemic"]
    assert as_diagnosis("she put me on ferrous sulphate") == ["I take ferrous sulphate"]
    assert as_diagnosis("they say I have a good chance") is None
    assert as_diagnosis("I live in Leeds") is None
