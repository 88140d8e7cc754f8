"""The mends of docs/ranking.md item 64 (review rev39b of items 61-63): a habit taken daily is no medicine, a
relative's body is not the user's own, a person after "of"/"from"/"visiting" is no place, a usual-question about the
user's dog or medicine is no general question, whom "feed" names, the turn before a courtesy turn and its reply,
bare fitness words, "a degree in baking", and "us" after a verb that takes it.

The word rules are read directly; the engine's answers with the real MiniLM (model tier), and the courtesy turn
through a real LangChain retriever.
"""

from __future__ import annotations

import pytest

from memori_core import ChromaStore, RecallEngine
from memori_core.ranking.care import is_personal, outside_holder
from memori_core.ranking.everyday import fact_domains, question_domains
from memori_core.ranking.implications import fed_to
from memori_core.ranking.intent import names_known, names_the_askers
from memori_langchain import MemoriRetriever
from test_carried import GOUT, KNEE_ASKED, KNEE_FOLLOW_UP, TAXI


# 1. a daily habit is not a daily medicine
@pytest.mark.parametrize("fact", ["User takes photos every day.", "User takes notes daily at work.",
                                  "User takes showers twice a day.", "User takes calls every morning.",
                                  "User takes Max and Bella out twice a day."])
def test_a_habit_taken_daily_is_no_health_fact(fact):
    assert "health" not in fact_domains(fact)


@pytest.mark.parametrize("fact", ["User takes allopurinol every day.", "I take baclofen three times a day.",
                                  "User takes her amlodipine every morning.",
                                  "User takes iron and folic acid every day.", "User takes vitamin D daily.",
                                  "I take hydroxyurea and folic acid every day."])
def test_a_medicine_taken_daily_stays_a_health_fact(fact):
    assert "health" in fact_domains(fact)


# 2. a relative's memory, kidneys or mood are the relative's
@pytest.mark.parametrize("fact, holder", [("User's mum's memory is failing.", "mum's memory"),
                                          ("User's dad's sleep is poor.", "dad's sleep"),
                                          ("User's boss's mood is awful.", "boss's mood")])
def test_a_possessed_body_word_is_held_by_its_owner_not_the_user(fact, holder):
    assert outside_holder(fact) == holder


@pytest.mark.parametrize("fact", ["User's English is good for emails.", "User's memory is failing.",
                                  "User's kidneys are failing."])
def test_the_users_own_body_word_stays_the_users(fact):
    assert outside_holder(fact) is None


@pytest.mark.model
def test_engine_gives_no_painkiller_question_the_mums_kidney_failure(minilm):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    for f in ("User's mum's kidneys are failing and she takes furosemide.", "User lives in Leeds.",
              "User works as an accountant.", "User plays five-a-side on Thursdays."):
        engine.add("u", f)
    got = [f.content for f in engine.recall("Can I take ibuprofen for my back pain?", "u")]
    assert "User's mum's kidneys are failing and she takes furosemide." not in got


# 3. a person after of / from / visiting is someone the memory knows; a place the question asks in is no one
@pytest.mark.parametrize("question, fact, known", [
    pytest.param("What time does Dan usually leave for work?", "User gets a lift to work from Dan every day.", True,
                 id="from-someone"),
    pytest.param("What does Mia usually eat?", "User takes care of Mia on Tuesdays.", True, id="care-of-someone"),
    pytest.param("What does Priya usually like as a gift?", "User is visiting Priya in Delhi next month.", True,
                 id="visiting-someone"),
    pytest.param("How old is Lily usually at her christening?", "User is the godmother of Lily.", True,
                 id="godmother-of-someone"),
    pytest.param("What does Tom usually charge?", "User bought a bike from Tom.", True, id="bought-from-someone"),
    pytest.param("What is the weather usually like in Japan?", "User and Kenji plan three weeks in Japan.", False,
                 id="a-place-planned-with-someone"),
    pytest.param("Is it usually cold in Lisbon?", "User moved to Lisbon last year.", False, id="a-place-moved-to"),
    pytest.param("When did Tonga first play at a Rugby World Cup?", "The family is going to Tonga in May.", False,
                 id="a-place-travelled-to"),
])
def test_a_person_after_a_preposition_is_known_and_a_place_the_question_asks_in_is_not(question, fact, known):
    assert names_known(question, [fact]) is known


# 4. a usual-question about the user's own thing; one about the world names nothing of the user's
_THE_USERS = ["User's dog Biscuit is on a grain-free diet.", "User takes metformin twice a day.",
              "User's drive to school is about 25 minutes on I-285."]


@pytest.mark.parametrize("question, facts, names", [
    pytest.param("What does the dog usually eat?", ["User's dog Biscuit is on a grain-free diet."], True,
                 id="the-dog"),
    pytest.param("Does metformin usually cause stomach upset?", ["User takes metformin twice a day."], True,
                 id="the-medicine-taken"),
    pytest.param("When are the bins usually collected?", ["User's bins are collected on Thursdays."], True,
                 id="the-bins"),
    pytest.param("How long does the car usually take to charge?", ["User has an electric car."], True, id="the-car"),
    pytest.param("How long do dogs usually live?", _THE_USERS, False, id="dogs-in-general"),
    pytest.param("Does ibuprofen usually upset the stomach?", _THE_USERS, False, id="a-medicine-not-taken"),
    pytest.param("what's the drive time from Atlanta to Asheville usually", _THE_USERS, False,
                 id="a-drive-between-places"),
    pytest.param("What age do babies usually start solids?", _THE_USERS, False, id="babies-in-general"),
])
def test_a_usual_question_names_the_users_thing_and_one_about_the_world_nothing_of_theirs(question, facts, names):
    assert names_the_askers(question, facts) is names


@pytest.mark.model
@pytest.mark.parametrize("question, fact", [
    ("What does the dog usually eat?", "User's dog Biscuit is on a grain-free diet."),
    ("Does metformin usually cause stomach upset?", "User takes metformin twice a day."),
])
def test_engine_answers_a_usual_question_about_the_users_dog_or_medicine(minilm, question, fact):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    for f in (fact, "User is vegetarian.", "User gets a lift to work from Dan every day."):
        engine.add("u", f)
    assert fact in [f.content for f in engine.recall(question, "u")]
    assert "a general question" not in engine.explain(question, "u").gate_note


# 5. whom "feed" names
@pytest.mark.parametrize("question", ["What's a cheap way to feed my family of four?",
                                      "What can I feed the two of us for dinner?",
                                      "What should I feed the kids tonight?", "What should I feed the children?"])
def test_feeding_a_meal_the_asker_shares_feeds_no_one_else(question):
    assert fed_to(question) is None


@pytest.mark.parametrize("question, who", [("How do I feed my baby solids?", "baby"),
                                           ("What should I feed my little son for lunch?", "son"),
                                           ("Any ideas what to feed my in-laws on Sunday?", "in-laws"),
                                           ("What can I feed Biscuit?", "Biscuit")])
def test_feeding_someone_else_names_them(question, who):
    assert fed_to(question) == who


@pytest.mark.model
def test_engine_keeps_the_askers_lactose_intolerance_for_feeding_the_kids_as_for_cooking_for_them(minilm):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    for f in ("User is vegetarian, like her kids.", "User cooks halal for the family.", "User is lactose intolerant.",
              "User's dog Biscuit is on a grain-free diet.", "User lives in Leeds.", "User works as a teacher."):
        engine.add("u", f)
    for question in ("What should I feed the kids tonight?", "What should I cook for the kids tonight?"):
        assert "User is lactose intolerant." in [f.content for f in engine.recall(question, "u")], question


# 6. the turn before a courtesy turn and the assistant's reply to it
@pytest.mark.model
@pytest.mark.parametrize("reply", ["You're welcome!", "You're welcome! Let me know if anything else comes up."])
def test_retriever_carries_the_gout_past_thanks_and_the_reply_to_it(minilm, reply):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("u", TAXI)
    retriever = MemoriRetriever(engine=engine, entity_id="u")
    # the app recalls each of the user's turns, as the adapters do
    assert GOUT in [d.page_content for d in retriever.invoke(KNEE_ASKED)]
    retriever.invoke("thanks", context=[KNEE_ASKED])
    docs = retriever.invoke(KNEE_FOLLOW_UP, context=[KNEE_ASKED, "thanks", reply])
    assert {d.page_content: d.metadata["passed_by"] for d in docs}.get(GOUT) == "follow-up"


# 7. bare fitness words
@pytest.mark.parametrize("question", ["How do I put a positive spin on bad news for my boss?",
                                      "How should I word an email to my landlord about the desk?",
                                      "Can I carry liquids in my hand luggage?",
                                      "Is this chair a good gift for my dad?"])
def test_a_bare_spin_desk_carry_or_chair_opens_no_fitness(question):
    assert "fitness" not in question_domains(question)


@pytest.mark.parametrize("question", ["Should I get a standing desk for work?", "Is a spin class good for my knees?",
                                      "Which office chair helps a bad back?", "Is it ok to carry heavy boxes?"])
def test_the_fitness_phrases_still_open_fitness(question):
    assert "fitness" in question_domains(question)


# 8. a degree as a course
@pytest.mark.parametrize("question", ["Should I do a degree in baking or an apprenticeship?",
                                      "Is it realistic to finish my degree early if I bake cakes on the side?",
                                      "Should I take a degree or go straight to work? It's getting cold out"])
def test_a_degree_in_a_course_shape_stays_studies(question):
    assert "studies" in question_domains(question)


@pytest.mark.parametrize("question", ["How many degrees should I bake bread at?",
                                      "Is 38 degrees a fever for a toddler?", "What degree should I set the oven to?"])
def test_degrees_of_heat_are_no_studies(question):
    assert "studies" not in question_domains(question)


# 9. "us" after a verb that takes it
@pytest.mark.parametrize("question", ["Can you help us open a savings account for the kids?",
                                      "Could you recommend us states to visit on a road trip?"])
def test_us_after_a_verb_is_the_asker(question):
    assert is_personal(question)


def test_us_before_dollars_is_still_the_country():
    assert not is_personal("How much is 4200 yen in us dollars?")



def test_names_the_askers_compiles_no_pattern_per_call(monkeypatch):
    import memori_core.ranking.intent as intent

    real, compiled = intent.re.compile, []
    monkeypatch.setattr(intent.re, "compile", lambda *a, **k: compiled.append(a) or real(*a, **k))
    assert names_the_askers("What does the dog usually eat?", ["User's son and my dog Biscuit eat kibble."])
    assert not names_the_askers("What does the dog usually eat?", ["User's son Max is 8."])
    assert compiled == []
