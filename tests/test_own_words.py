"""A question about the world asked after a personal turn is read on its own words (issue 20): the gate reads the
question's own cosine, so the conversation before it does not pull in what it was about; a turn that goes on from
the conversation is still read with it.

The word rules are read directly, the gate's reading of a turn through ``gate_signals._turn``, and the engine's
answers with the real MiniLM and a real in-memory Chroma (model tier). The questions were written for these tests,
not taken from the app-memory sets.
"""

from __future__ import annotations

import pytest

from memori_core import ChromaStore, RecallEngine
from memori_core.engine.gate_signals import _turn
from memori_core.ranking.own_words import (about_someone_named, adds_to_the_question_before, asks_a_judgement,
                                          names_what_was_told, read_on_its_own_words)

WORLD_QUESTIONS = [
    "How long do you boil an egg?",
    "how much onion is toxic for a cat",
    "what's the etiquette for tipping in Portugal",
    "Where does the custard tart come from?",
    "how do you tell if a knee ligament is torn",
    "What is tempeh actually made from?",
    "Do you need a visa for Canada as a tourist?",
    "how often should you brush a long-haired cat",
    "What's the cheapest way to post a parcel abroad?",
    "Why does bread go stale?",
    "Does camomile tea really help you sleep?",
    "Is 8GB of memory enough for video editing?",
]


@pytest.mark.parametrize("question", WORLD_QUESTIONS)
def test_a_world_question_that_leans_on_nothing_is_read_on_its_own_words(question):
    assert read_on_its_own_words(question)


@pytest.mark.parametrize("turn", [
    "What should I order there?",  # points back ("there")
    "And how long does it take?",  # opens by going on, points back
    "Is it okay for me to fly?",  # the asker's own case
    "What can I cook tonight?",  # first person
    "Any ideas for a rainy day?",  # a request for the asker
    "Would melatonin help Ruben too?",  # adds one more to the question before
    "Is the cross-trainer fine as well?",  # likewise
    "What kind of pillow would help?",  # a judgement of the case told
    "Which days does the rota need to cover?",  # picks among what a plan named holds
    "quick lunch idea with leeks and eggs?",  # a fragment: a request, not a world question
    "What's the best way over, the overnight ferry or a flight to Bilbao?",  # ends on a choice offered
    "When is the dentist again?",  # asks what the asker told
    "How much is left on the car loan?",  # only the memory holds it
    "Where should she sleep when she visits?",  # someone the conversation named
    "Pad thai or green curry?",  # a bare choice
])
def test_a_turn_that_goes_on_from_its_conversation_is_not_read_on_its_own_words(turn):
    assert not read_on_its_own_words(turn)


@pytest.mark.parametrize("turn, adds", [("Can the kids come along as well?", True), ("Is that one also gluten free?", True),
                                        ("Doesn't the other one work either?", True),
                                        ("How tall is the Eiffel Tower?", False)])
def test_adds_to_the_question_before_reads_too_as_well_also_either(turn, adds):
    assert adds_to_the_question_before(turn) is adds


@pytest.mark.parametrize("turn, judges", [("Could a humidifier help with that?", True),
                                          ("What kind of pillow would help?", True), ("co-codamol, ok or not?", True),
                                          ("Does camomile tea really help you sleep?", False),
                                          ("When was penicillin discovered?", False)])
def test_asks_a_judgement_reads_help_problem_enough_worth(turn, judges):
    assert asks_a_judgement(turn) is judges


def test_the_gate_reads_a_world_question_after_a_personal_turn_alone():
    turn = _turn("how much onion is toxic for a cat", ["Miso has been sneezing all week, should I take her to the vet?"],
                 general=False)
    assert turn.alone and not turn.general and not turn.leans


def test_the_gate_reads_a_follow_up_that_points_back_with_its_conversation():
    turn = _turn("What should I order there?", ["I'm going to a seafood restaurant tonight."], general=False)
    assert not turn.alone and turn.leans


def test_a_first_turn_has_no_conversation_to_be_read_apart_from():
    assert not _turn("How long do you boil an egg?", [], general=False).alone


FACTS = ["User is training for the Bristol marathon in April.", "User follows a high-protein vegetarian diet.",
         "User lives in Bristol with his partner Sam.", "User has a tabby cat called Miso.",
         "User works as a graphic designer from home.", "User takes amlodipine for high blood pressure.",
         "User is allergic to shellfish.", "User and Sam are going to Lisbon in May.",
         "User's mum lives in Cork.", "User plays five-a-side football on Wednesdays."]


@pytest.fixture()
def engine(minilm):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("u", FACTS)
    return engine


@pytest.mark.parametrize("context, question", [
    ("Miso has been sneezing all week, should I take her to the vet?", "how much onion is toxic for a cat"),
    ("Miso threw up twice today, should I worry?", "how much garlic is toxic for a cat"),
])
def test_engine_keeps_the_askers_allergy_out_of_a_world_question_after_a_turn_about_the_cat(engine, context, question):
    got = [f.content for f in engine.recall(question, "u", context=[context])]
    assert "User is allergic to shellfish." not in got


def test_engine_still_gives_a_follow_up_that_points_back_the_fact_its_conversation_needs(engine):
    got = [f.content for f in engine.recall("What should I order there?", "u",
                                            context=["I'm going to a seafood restaurant tonight."])]
    assert "User is allergic to shellfish." in got


# issue 20, gatefix40: a world question asked for a person or a thing the turn before named


@pytest.mark.parametrize("fact, earlier, named", [
    pytest.param("Sam is allergic to peanuts.", "I'm cooking dinner for Sam tonight.", True, id="a-name"),
    pytest.param("User's daughter Ava is lactose intolerant.", "Making Ava's lunchbox for the week.", True,
                 id="a-relatives-name"),
    pytest.param("User's mum is coeliac.", "Taking my mum out for lunch on Sunday.", True, id="a-relative"),
    pytest.param("User's son Theo starts at Greenfield Primary in September.", "Theo's nervous about starting school.",
                 True, id="a-relatives-name-possessive"),
    pytest.param("User is allergic to shellfish.", "Miso has been sneezing all week, should I take her to the vet?",
                 False, id="the-users-own-fact"),
    pytest.param("Sam is allergic to peanuts.", "I'm cooking dinner for Ava tonight.", False, id="someone-unnamed"),
    pytest.param("User lives in Bristol.", "Driving to Bristol tomorrow.", False, id="a-place-named"),
])
def test_a_fact_about_someone_the_turn_before_names_is_about_someone_named_the_users_own_or_an_unnamed_ones_not(
        fact, earlier, named):
    assert about_someone_named(fact, [earlier]) is named


def test_a_question_whose_the_x_names_a_thing_told_goes_on_from_it():
    assert names_what_was_told("What time does the game start?", ["Going to the Tigers game tonight!"])
    assert not names_what_was_told("What's the best paella in Valencia?", ["Taking my husband out for his birthday."])
    turn = _turn("What time does the game start?", ["Going to the Tigers game tonight!"], general=False)
    assert not turn.own_words and not turn.alone


OTHERS = ["Sam is allergic to peanuts.", "User's daughter Ava is lactose intolerant.", "Sam has type 1 diabetes.",
          "User lives in Bristol.", "User works as a nurse on night shifts.", "User plays tennis on Sundays.",
          "User has a tabby cat called Miso.", "User is allergic to shellfish."]


@pytest.mark.parametrize("context, question, needed", [
    ("I'm cooking dinner for Sam tonight.", "What goes well with tofu?", OTHERS[0]),
    ("Making Ava's lunchbox for the week.", "What are good snacks for a 6 year old?", OTHERS[1]),
    ("Sam's got his first half marathon on Sunday.", "What should a runner eat the night before a race?", OTHERS[2]),
])
def test_engine_gives_a_world_question_the_care_fact_of_the_person_the_turn_before_named(minilm, context, question,
                                                                                          needed):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("u", OTHERS)
    assert read_on_its_own_words(question)
    assert needed in [f.content for f in engine.recall(question, "u", context=[context])]


KEMI = ["Kemi has eczema and is allergic to cow's milk.",
        "I have sickle cell disease, so I have to stay well hydrated and avoid the cold.",
        "I take hydroxyurea and folic acid every day.", "I love egusi soup and fried plantain but I can't stand okra.",
        "I work as a pharmacist in Abuja.", "I play squash on Thursdays.", "My daughter Kemi is 4 and my son Tunde is 7."]


def test_engine_keeps_the_named_persons_fact_without_opening_the_gate_to_the_askers_own(minilm):
    # the conversation keeps Kemi's eczema for a skin question asked after her, but does not make the gate confident
    # and let its score band bring the asker's own illness, medicine and food in
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("u", KEMI)
    got = [f.content for f in engine.recall("Is coconut oil good for dry skin?", "u",
                                            context=["Kemi's skin is flaring up again, what should we use in her bath?"])]
    assert got == [KEMI[0]]
