"""Follow-ups that go on from a conversation keep its concerns; questions of their own do not inherit them.

The rules are pure functions over the turn's words (fast tier; rows of what one rule says of one turn are in the
rule book tests/rules/followup_threads.toml, run by test_rule_books.py); the conversations are recalled with the
real MiniLM (model tier), as an app would send them through an adapter.
"""

from __future__ import annotations

import logging

import pytest

from memori_core import ChromaStore, RecallEngine
from memori_core.ranking.conversation import points_back
from memori_core.ranking.implications import asks_to_be_reminded, recalls_the_asker, thread_of


def test_the_thread_runs_back_to_the_turn_that_opened_the_topic():
    read = ["I moved to Porto.", "I'm planning a dinner party on Saturday.", "What starter would you suggest?"]
    assert thread_of(read) == ["What starter would you suggest?", "I'm planning a dinner party on Saturday."]
    assert thread_of([]) == []
    assert thread_of(["I moved to Porto."]) == ["I moved to Porto."]


@pytest.mark.parametrize("question, recalls, reminded", [
    ("What instrument do I play?", True, False),  # no slot the rules know
    ("What's my job?", True, True),
    ("Where do I live?", True, True),
    ("What should I cook?", False, False),
    ("How about the satay?", False, False),
])
def test_questions_about_the_asker_and_reminders(question, recalls, reminded):
    assert recalls_the_asker(question) is recalls
    assert asks_to_be_reminded(question) is reminded


def test_points_back():
    assert points_back("How long will it take to get there?")
    assert not points_back("What's my job?")


FACTS = ["User is allergic to peanuts.", "User is vegetarian.", "User lives in Lisbon.", "User plays the cello.",
         "User works as a nurse."]
ALLERGY = "User is allergic to peanuts."
FOOD = {ALLERGY, "User is vegetarian."}


@pytest.fixture(scope="module")
def alice(minilm):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("alice", FACTS, created_at="2026-05-01T09:30:00Z")
    return engine


def _chat(engine: RecallEngine, turns: list[str]) -> list[set[str]]:
    """What each user turn recalls when read with the turns before it (the adapters read three)."""
    out = []
    for k, turn in enumerate(turns):
        out.append({f.content for f in engine.recall(turn, "alice", context=turns[max(0, k - 3):k] or None)})
    return out


@pytest.mark.model
def test_follow_ups_at_a_thai_restaurant_keep_the_peanut_allergy(alice):
    turns = ["I'm at a Thai restaurant with friends.", "What should I order?", "How about the satay skewers?",
             "The satay looks great, thoughts?", "Pad thai or green curry?"]
    assert all(ALLERGY in got for got in _chat(alice, turns))


@pytest.mark.model
def test_follow_ups_planning_a_dinner_party_keep_the_diet_and_allergy(alice):
    turns = ["I'm planning a dinner party on Saturday.", "What starter would you suggest?", "And a main course?"]
    assert all(FOOD <= got for got in _chat(alice, turns))


@pytest.mark.model
@pytest.mark.parametrize("before, question, expected", [
    ("Can I eat satay?", "What instrument do I play?", "User plays the cello."),
    ("Can I eat satay?", "Where do I live?", "User lives in Lisbon."),
    ("Is a ham sandwich OK for me?", "What's my job?", "User works as a nurse."),
])
def test_a_question_of_its_own_after_a_food_turn_gets_no_food_facts(alice, before, question, expected):
    got = {f.content for f in alice.recall(question, "alice", context=[before])}
    assert expected in got
    assert not got & FOOD


@pytest.mark.model
def test_explain_lifts_a_told_fact_on_the_questions_own_cosine(minilm):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("bob", ["User is training for a marathon.", "User lives in Leeds.", "User has a cat."])
    logging.disable(logging.WARNING)
    try:
        report = engine.explain("Any tips for the weekend?", "bob", context=["I am training for a marathon."])
    finally:
        logging.disable(logging.NOTSET)
    told = next(c for c in report.candidates if c.content == "User is training for a marathon.")
    assert report.third_person > 0
    assert told.gate_cosine is not None
    # The gate reads the fact on the question's own cosine (the turn told it), lifted like any 'User' fact.
    alone = engine.explain("Any tips for the weekend?", "bob")
    solo = next(c for c in alone.candidates if c.content == told.content)
    assert told.gate_cosine == pytest.approx(solo.gate_cosine if solo.gate_cosine is not None else solo.cosine + 0.05,
                                             abs=0.02)


# -- tester j20 (findings 6, 7): a pronoun's referent and "where I live" ------------------------------------------

@pytest.fixture(scope="module")
def maya(minilm):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("maya", ["User is allergic to tree nuts, especially cashews.", "User is vegetarian."], core=True)
    engine.add("maya", ["User lives in Lyon.", "User is going to Japan in March for two weeks.",
                        "User has a beagle puppy named Max.", "User adopted a rescue greyhound called Bolt.",
                        "User plays the cello."])
    return engine


@pytest.mark.parametrize("question, before, needed", [
    ("What should I feed him?", "We got a puppy, a beagle named Max.", "User has a beagle puppy named Max."),
    ("How often should I walk him?", "I adopted a rescue greyhound called Bolt.",
     "User adopted a rescue greyhound called Bolt."),
    ("What food should I be careful with over there?", "I'm going to Japan in March for two weeks.",
     "User is going to Japan in March for two weeks."),
])
def test_a_pronoun_follow_up_recalls_the_pet_or_the_trip_the_turn_before_named(maya, question, before, needed):
    recalled = [f.content for f in maya.recall(question, "maya", context=[before])]
    assert needed in recalled


def test_what_to_feed_the_puppy_named_the_turn_before_gets_none_of_the_askers_own_core_facts(maya):
    recalled = {f.content for f in maya.recall("What should I feed him?", "maya",
                                               context=["We got a puppy, a beagle named Max."])}
    assert not {"User is allergic to tree nuts, especially cashews.", "User is vegetarian."} & recalled


@pytest.mark.parametrize("question", ["What's the weather usually like where I live?",
                                      "Is it going to rain in the town I live in?",
                                      "What's a nice day trip from where I live?"])
def test_a_question_about_where_the_asker_lives_recalls_the_home(maya, question):
    assert "User lives in Lyon." in [f.content for f in maya.recall(question, "maya")]


def test_a_request_only_for_media_after_a_medical_turn_is_read_alone_and_gets_none_of_its_facts(minilm):
    # tester j20 (finding 9): the thread's care facts and the move came along with a podcast request
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("raj", ["User is allergic to penicillin.", "User has asthma.", "User is halal."], core=True)
    engine.add("raj", ["User is moving to Vancouver in January 2027.", "User works at Stripe as a staff engineer."])
    thread = ["We're moving to Vancouver in January.", "Where do I live?",
              "Can I take amoxicillin for my sinus infection?"]
    assert engine.recall("Recommend a podcast about history.", "raj", context=thread) == []
    # one that leans on the thread still reads it
    assert engine.recall("Any podcasts about that?", "raj", context=thread) != []
