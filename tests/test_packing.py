"""What to pack: a question about packing for a trip meets the medicines and devices the user cannot travel
without, a packed lunch does not, and a follow-up goes on with the topic of the turn before, not with its packing."""

from __future__ import annotations

import pytest

from memori_core import ChromaStore, RecallEngine
from memori_core.ranking.concerns import fact_concerns, question_concerns


@pytest.mark.parametrize("question", [
    "What should I bring in my hand luggage?", "What should I pack?", "Help me pack for the beach.",
    "What do I need to pack for my Christmas trip?", "Is there anything I should put in my carry-on?",
])
def test_a_question_about_packing_for_a_trip_touches_packing(question: str) -> None:
    assert "packing" in question_concerns(question)


@pytest.mark.parametrize("question", [
    "What should I pack for her lunch?", "Can you pack a punch into this paragraph?", "What's a good snack to pack?",
    "How do I get to the airport?",
])
def test_a_packed_lunch_or_a_punch_is_no_packing(question: str) -> None:
    assert "packing" not in question_concerns(question)


@pytest.mark.parametrize("fact, packing", [
    ("User uses an insulin pump.", True), ("User takes levothyroxine every morning.", True),
    ("User carries an EpiPen.", True), ("User has type 1 diabetes.", True), ("User's son has asthma.", True),
    ("User has a cat called Miso.", False), ("User is on a gap year.", False), ("User packs shelves at Tesco.", False),
])
def test_a_medicine_or_device_the_user_relies_on_is_what_to_pack(fact: str, packing: bool) -> None:
    assert ("packing" in fact_concerns(fact)) is packing


@pytest.mark.model  # the local MiniLM: the hash embedder reads the follow-up as a general question
def test_packing_for_a_trip_recalls_the_insulin_pump_and_a_follow_up_goes_on_with_the_trip_not_the_packing() -> None:
    engine = RecallEngine(store=ChromaStore.in_memory())
    engine.add("u", ["User uses an insulin pump.", "User's son Mason can't swim well.", "User lives in Austin.",
                     "User drives a truck for a living."])
    trip = "I'm taking Mason camping by the river this weekend."
    packing = [f.content for f in engine.recall("What should I pack?", "u", context=[trip])]
    assert "User uses an insulin pump." in packing
    follow = [f.content for f in engine.recall("Is the river safe for him to swim in?", "u",
                                               context=[trip, "What should I pack?"])]
    assert follow == ["User's son Mason can't swim well."]  # the pump came with the packing, not with the river
