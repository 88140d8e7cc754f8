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


# -- reviewer rev37c's misfires (docs/ranking.md item 58) ------------------------------------------------------------

CATS = "User is allergic to cats."


def test_an_allergy_is_no_health_fact_of_a_question_about_sleep_or_stress_only_of_one_about_treatment():
    rows, _ = everyday_rows("How can I sleep better?", [CATS, "User takes sertraline for anxiety."],
                            np.array([0.9, 0.5]))
    assert rows.tolist() == [False, True]  # main: [True, True], the cat allergy vouched for by health's allerg*
    from memori_core.ranking.everyday import asks_about_treatment, constrains
    assert not asks_about_treatment("How can I sleep better?")
    assert not constrains("health", "User is allergic to penicillin.", "How do I handle stress at work?")
    # a medicine or a symptom asks what an allergy bears on; a condition still bears on sleep
    assert constrains("health", "User is allergic to penicillin.", "What can I take for a headache?")
    assert constrains("health", "User takes sertraline for anxiety.", "How can I sleep better?")


def test_a_gift_for_someone_else_opens_their_facts_not_the_askers_own_hobbies():
    guitar = "User plays the guitar in a band."
    eng = engine_with(guitar)
    note = eng.explain("What gift should I get for my sister?", "u").gate_note
    assert "everyday hobbies" not in note  # main: the asker's guitar let through as hobbies
    assert guitar not in [f.content for f in eng.recall("What gift should I get for my sister?", "u")]
    rows, _ = everyday_rows("What gift should I get for my sister?", ["User's sister Rita knits.", guitar],
                            np.array([0.5, 0.9]), whose=lambda fact: not fact.startswith("User plays"))
    assert rows.tolist() == [True, False]


def test_the_askers_own_homework_opens_no_children_but_the_kids_homework_does():
    mia = "User's daughter Mia is 6 and in year 1."
    rows, held = everyday_rows("Can you help me with my homework?", [mia], np.array([0.9]))
    assert rows.tolist() == [False] and held == []  # main: children, by "homework" alone
    rows, held = everyday_rows("How do I get the kids to do their homework?", [mia], np.array([0.9]))
    assert rows.tolist() == [True] and held == ["children"]


def test_dealing_with_someone_is_no_money_question():
    deposit = "User is saving up for a house deposit."
    rows, held = everyday_rows("How do I deal with a difficult colleague?", [deposit], np.array([0.9]))
    assert rows.tolist() == [False]  # main: money, by "deal"
    rows, held = everyday_rows("Is this phone deal worth it?", [deposit], np.array([0.9]))
    assert rows.tolist() == [True] and held == ["money"]


def test_a_weekend_question_opens_no_weekday_commute_but_weekend_shifts_still_count():
    commute = "User cycles to work; the commute is 40 minutes."
    shifts = "User works weekends at the pub."
    rows, held = everyday_rows("What should we do this weekend?", [commute, shifts], np.array([0.9, 0.5]))
    assert rows.tolist() == [False, True]  # main: the commute vouched for by routine's "commute*"
    rows, _ = everyday_rows("Can you help me plan my week?", [commute], np.array([0.9]))
    assert rows.tolist() == [True]


def test_words_spoken_to_the_user_are_no_ones_situation():
    # LongMemEval stores the assistant's turns as facts: "you" speaks to the user, it tells nothing of them
    said = "You could try a warm bath and a regular bedtime."
    rows, _ = everyday_rows("How can I fix my sleep routine?", [said], np.array([0.9]))
    assert rows.tolist() == [False]  # main: routine, by "bedtime"
    rows, _ = everyday_rows("How can I fix my sleep routine?", ["User's bedtime is 2am after late shifts."],
                            np.array([0.9]))
    assert rows.tolist() == [True]


def test_a_present_question_of_what_to_do_with_the_askers_thing_is_no_recall_question():
    from memori_core.ranking.implications import asks_to_recall
    # main read these as asking to be told a fact, so the vocabulary was skipped
    assert not asks_to_recall("When do I plant my tomatoes?")
    assert not asks_to_recall("What do I feed my dog?")
    # still recall questions: a told place, a name, a habit, a plan
    assert asks_to_recall("Where do I keep my passport?")
    assert asks_to_recall("What do I call my boss?")
    assert asks_to_recall("What do I usually eat for breakfast?")
    assert asks_to_recall("When do I next see my GP?")
    assert asks_to_recall("How often do I water my plants?")
    eng = engine_with(BALCONY)
    assert "everyday home" in eng.explain("When do I plant my tomatoes?", "u").gate_note


def test_a_follow_up_of_a_request_for_suggestions_opens_no_domain():
    leeds = "User lives in Leeds."
    eng = engine_with(leeds)
    context = ["Can you recommend some good restaurants near me?"]
    note = eng.explain("What about Italian ones?", "u", context=context).gate_note
    assert "everyday" not in note  # main: "everyday place" let the asker's city through
    # a follow-up of a question of what to do still goes on with its domains
    assert "everyday place" in eng.explain("What about tomorrow?", "u",
                                           context=["What should I wear today, is it cold out?"]).gate_note


def test_degrees_of_heat_open_no_studies_a_degree_course_does():
    from memori_core.ranking.everyday import question_domains

    assert "studies" not in question_domains("How many degrees should I bake bread at?")
    assert "studies" not in question_domains("What temperature in degrees should I roast a chicken at?")
    assert "studies" in question_domains("Should I do a degree in nursing?")
    assert "studies" in question_domains("How can I finish my degree faster?")
