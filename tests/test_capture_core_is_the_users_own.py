"""Core facts (injected on every turn) are the user's own: someone else's allergy, diet or medicine, even a
partner's or a child's, is stored but not core (:func:`memori_core.extraction.core_facts.is_core_fact`), so a
boyfriend's vegan diet is not read as the user's on every turn."""

from __future__ import annotations

import pytest

from _capture import capture_turns, core_texts, valid_texts
from _helpers import ungated_engine
from memori_core.extraction.core_facts import is_core_fact


@pytest.mark.parametrize("fact", [
    "User's boyfriend Tom is vegan.",
    "User's partner Leo is coeliac.",
    "User's son has a nut allergy.",
    "User's youngest daughter is allergic to tree nuts.",
    "User's husband takes warfarin.",
    "User's twins are lactose intolerant.",
    "My son has a nut allergy.",
    "User's doctor switched their mum from metformin to Ozempic.",
    "The GP put my dad on statins.",
])
def test_someone_elses_care_fact_even_of_the_household_is_not_core(fact: str) -> None:
    assert not is_core_fact(fact)


@pytest.mark.parametrize("fact", [
    "User is vegan.",
    "User and their partner are vegan.",
    "User's family is vegetarian.",
    "User's peanut allergy is severe.",
    "User's doctor told her to cut down on salt.",
    "User takes ferrous fumarate.",
])
def test_the_users_own_care_fact_or_a_clinicians_advice_to_them_is_core(fact: str) -> None:
    assert is_core_fact(fact)


def test_a_boyfriends_diet_is_stored_but_only_the_users_own_facts_are_core() -> None:
    engine = ungated_engine()
    capture_turns(engine, "I have coeliac disease.", "My boyfriend Tom is coming for Diwali dinner too, he's vegan.")
    assert "User's boyfriend Tom is vegan." in valid_texts(engine)
    assert core_texts(engine) == ["User has coeliac disease."]
