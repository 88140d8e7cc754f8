"""The everyday vocabulary (ranking/everyday.py): a question's words open a life domain, and the best ranked few
facts of the asker's constraints in it pass the gate. What a question or a fact reads as is in the rule book
tests/rules/everyday.toml, run by test_rule_books.py."""

from __future__ import annotations

import numpy as np

from _helpers import engine_among
from memori_core import RecallConfig, RecallEngine
from memori_core.ranking.everyday import MOST_IN_ALL, MOST_OPENED, everyday_rows

BALCONY = "User has only a small north-facing balcony."
NOTES = [f"User's reminder number {i} is about renewing the library card." for i in range(29)]


def engine_with(*facts: str, config: RecallConfig | None = None) -> RecallEngine:
    """An engine (in-memory store, hash embedder) where "u" has ``facts`` among 29 unrelated reminders."""
    return engine_among("u", NOTES, facts, config)


def test_a_garden_question_recalls_the_balcony_fact_its_cosine_leaves_out():
    question = "How often should I water the tomatoes?"
    assert BALCONY in [f.content for f in engine_with(BALCONY).recall(question, "u")]
    assert "everyday home" in engine_with(BALCONY).explain(question, "u").gate_note
    # the implication rules off, the cosine alone does not let it through
    assert BALCONY not in [f.content for f in engine_with(BALCONY, config=RecallConfig(gate_implied=False))
                           .recall(question, "u")]


def test_a_general_question_in_the_domains_words_lets_nothing_through():
    eng = engine_with(BALCONY)
    assert eng.recall("What is the capital of Australia?", "u") == []
    # about tomatoes, but no one's case: not a question of what the asker should do
    assert BALCONY not in [f.content for f in eng.recall("When were tomatoes brought to Europe?", "u")]


def test_a_relatives_fact_opens_only_when_the_question_names_them():
    sister = "User's sister Rita has a bad back and can't lift anything heavy."
    eng = engine_with(sister)
    assert sister not in [f.content for f in eng.recall("Any stretches before my run?", "u")]
    assert sister in [f.content for f in eng.recall("Any stretches I could show my sister before her run?", "u")]


def test_a_domain_lets_through_its_best_ranked_few_and_all_domains_together_a_few_more():
    facts = ["User drives a 2012 Corolla.", "User commutes by train.", "User has a bus pass.",
             "User's flat is on the top floor.", "User rents from a strict landlord.", "User lives in Leeds."]
    rank = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
    rows, held = everyday_rows("Should I sell my car and ask my landlord for a parking space?", facts, rank)
    assert rows[:3].tolist() == [True, True, False]  # the domain's best ranked MOST_OPENED
    assert MOST_OPENED == 2 and MOST_IN_ALL == 3
    assert rows.tolist() == [True, True, False, True, False, False]  # of both domains' four, the three best
    assert held == ["home", "transport"]
    assert everyday_rows("What is 17 times 23?", facts, rank)[0].sum() == 0


def test_a_domain_vouches_only_for_facts_the_ranking_holds_in_the_limit_best():
    facts = ["User drives a 2012 Corolla.", "User commutes by train.", "User lives in Leeds."]
    rank = np.array([0.9, 0.8, 0.7])
    within = np.array([True, False, True])  # the commute fact ranks below the limit best
    rows, held = everyday_rows("Any tips for my commute?", facts, rank, within=within)
    assert rows.tolist() == [True, False, False] and held == ["transport"]
    # a fact another rule opened already is left to it
    rows, held = everyday_rows("Any tips for my commute?", facts, rank, taken=np.array([True, False, False]))
    assert rows.tolist() == [False, True, False] and held == ["transport"]


def test_a_request_for_suggestions_opens_no_domain():
    eng = engine_with(BALCONY)
    question = "Can you recommend some tomatoes to grow?"
    assert "everyday" not in eng.explain(question, "u").gate_note
    assert BALCONY not in [f.content for f in eng.recall(question, "u")]


def test_a_question_asking_to_be_told_the_askers_own_habit_opens_no_domain():
    # "How often do I ...?" asks the memory to report a told fact, not what to do (LongMemEval dev's abstentions,
    # docs/ranking.md item 52): the balcony holds the home domain's words, not the question's
    eng = engine_with(BALCONY)
    assert "everyday home" in eng.explain("How often should I water the tomatoes?", "u").gate_note
    told = eng.explain("How often do I water the tomatoes?", "u")
    assert "everyday" not in told.gate_note
    assert BALCONY not in [f.content for f in eng.recall("How often do I water the tomatoes?", "u")]


def test_an_allergy_to_something_not_eaten_is_no_food_fact_so_a_dinner_question_does_not_vouch_for_it():
    # `memori demo`: "What should I cook for dinner tonight?" passed bob's "User is allergic to cats." as food
    from memori_core.ranking.everyday import fact_domains
    assert "food" not in fact_domains("User is allergic to cats.")
    assert "food" not in fact_domains("User is allergic to penicillin and ibuprofen.")
    assert "food" in fact_domains("User is allergic to peanuts.")
    assert "food" in fact_domains("User is allergic to cats and is vegan.")
