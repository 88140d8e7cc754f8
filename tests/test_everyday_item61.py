"""Item 61's words in the everyday vocabulary (ranking/everyday.py: the words marked "item 61" in `DOMAINS`' rows),
the daily-medicine family that never matched (backspace characters where ``\\b`` was meant), and the user's own
faculties that are no person (ranking/care.py `_OWN_THING`: "User's English ...", "User's blood sugar ..."). The
behaviour tests fail on main 9350148."""

from __future__ import annotations

import pytest

from _helpers import engine_among
from memori_core import RecallConfig, RecallEngine
from memori_core.ranking.care import named_by, outside_holder
from memori_core.ranking.everyday import fact_domains, question_domains

NOTES = [f"User's reminder number {i} is about renewing the library card." for i in range(29)]


def engine_with(*facts: str, config: RecallConfig | None = None) -> RecallEngine:
    """An engine (in-memory store, hash embedder) where "u" has ``facts`` among 29 unrelated reminders."""
    return engine_among("u", NOTES, facts, config)


@pytest.mark.parametrize(("fact", "domain"), [
    ("User takes iron and folic acid every day.", "health"),  # a medicine told only by its schedule
    ("I take levothyroxine every morning.", "health"),
    ("User is trying to lose 8 kg; he weighs 86 kg.", "fitness"),  # a weight told in numbers
    ("I want to lose 20 pounds before the summer.", "fitness"),
    ("User has high blood pressure.", "fitness"),  # what the heart allows of exertion
    ("User's father has heart trouble.", "health"),
    ("User's English is good for work emails but he struggles with spoken English.", "travel"),
    ("My Spanish is basic but I'm improving my Spanish every week.", "travel"),
    ("I carry a paso for my brotherhood in Holy Week.", "faith"),  # a festival told of the user
    ("The family is going to Okinawa for five days over Lunar New Year.", "faith"),
    ("We lose power most evenings in summer.", "home"),
])
def test_a_fact_the_vocabulary_read_as_no_domain_now_constrains_its_domain(fact, domain):
    assert domain in fact_domains(fact)


@pytest.mark.parametrize(("fact", "domain"), [
    ("User takes the bus every day.", "health"),
    ("User lost 3 games in a row last season.", "fitness"),  # a number of things lost, not of kilos
    ("User weighs up every offer before buying.", "fitness"),
    ("User is a warm person and people like her.", "travel"),
])
def test_a_fact_that_only_looks_like_a_family_opens_no_domain(fact, domain):
    assert domain not in fact_domains(fact)


@pytest.mark.parametrize(("question", "domain"), [
    ("i want to get a pedicure, is that ok", "health"),  # what a salon or a spa does to a body
    ("Can I use the sauna at the gym?", "health"),
    ("any good chair for my home desk", "fitness"),  # what a back sits at
    ("we have a 900 m descent tomorrow on the tour, any tips", "fitness"),
    ("i have a site inspection on a scaffold next week, should i go", "fitness"),
    ("I want to start water aerobics at the club. Is it good for me?", "fitness"),
    ("what can i make for iftar tomorrow", "food"),  # a meal a faith names
    ("the power keeps going off, how do i stop food from going bad", "home"),
    ("how can i practice speaking before the call", "travel"),
])
def test_a_question_in_a_domain_opens_it(question, domain):
    assert domain in question_domains(question)


def test_a_users_language_or_blood_sugar_is_the_users_own_not_someone_called_so():
    english = "User's English is good for work emails but he struggles with spoken English."
    assert outside_holder(english) is None
    assert outside_holder("User's blood sugar goes low if he skips lunch.") is None
    assert named_by(english, "how can i practice speaking?")
    assert outside_holder("User's colleague Tim is allergic to penicillin.") == "colleague Tim"  # still someone


@pytest.mark.parametrize(("fact", "question"), [
    ("User has numbness in both feet from diabetic neuropathy.", "i want to get a pedicure, is that ok"),
    ("User's English is good for work emails but he struggles with spoken English.",
     "i have a video call with the us team next week, how can i practice speaking"),
])
def test_the_fact_a_domain_vouches_for_passes_the_gate(fact, question):
    eng = engine_with(fact)
    assert fact in [f.content for f in eng.recall(question, "u")]
    assert "everyday" in eng.explain(question, "u").gate_note
