"""Issue 20's ranking leftovers, part 2: a medicine on a schedule whatever its name, a breed the question names is no
one the memory knows, and the head noun of a short noun phrase after the/my/our.

The word rules are read directly; the engine's answer with the real MiniLM (model tier).
"""

from __future__ import annotations

import pytest

from memori_core import ChromaStore, RecallEngine
from memori_core.ranking.everyday import fact_domains
from memori_core.ranking.intent import names_known, names_the_askers


# 1. a medicine on a schedule whatever its name, told with its dose (a bare word on a schedule is too often no
# medicine: rev40d finding 2)
@pytest.mark.parametrize("fact", ["I take loratadine 10mg every night.", "User takes cetirizine 10 mg each morning.",
                                  "User takes her Zyrtec 10mg daily."])
def test_an_unlisted_medicine_on_a_schedule_with_its_dose_is_a_health_fact(fact):
    assert "health" in fact_domains(fact)


@pytest.mark.parametrize("fact", ["User takes the bus every day.", "User takes bus 42 every morning.",
                                  "User takes a pottery class every night.", "User takes the stairs daily.",
                                  "User takes the train to work every day.", "User takes a walk each morning.",
                                  "User takes it every day.", "User takes class every morning.",
                                  "User's commute takes forever every morning.", "User takes yoga every morning.",
                                  "User takes Max every morning.", "User takes lunch every day.",
                                  "User takes his kids every evening."])
def test_a_vehicle_a_route_or_a_class_taken_daily_is_no_medicine(fact):
    assert "health" not in fact_domains(fact)


# 2. a breed the question names is a kind, not a name the facts give; a name a fact gives is still known
@pytest.mark.parametrize("question, fact, known", [
    pytest.param("How long do Shiba Inus usually live?", "User has a Shiba Inu named Kumo.", False,
                 id="a-breed-the-dog-is-no-name"),
    pytest.param("How long do Shiba Inus usually live?", "User and Kenji have a 13-year-old Shiba Inu called Kuro.",
                 False, id="a-breed-beside-a-named-person-is-no-name"),
    pytest.param("How long does Kumo usually sleep?", "User has a Shiba Inu named Kumo.", True,
                 id="the-dogs-name-is-known"),
    # a name after an owner or an age alone is a name (rev40d finding 1)
    pytest.param("What does Ava usually eat for breakfast?", "User's 5-year-old Ava is lactose intolerant.", True,
                 id="a-name-after-an-owner-and-an-age"),
    pytest.param("How much water should Tunde usually drink?", "My 7-year-old Tunde has sickle cell disease.", True,
                 id="a-name-after-my-and-an-age"),
    pytest.param("What does Kemi usually have for breakfast?", "My Kemi is allergic to cow's milk.", True,
                 id="a-name-after-my"),
    pytest.param("Does Kenji like hiking?", "User and Kenji have a 13-year-old Shiba Inu called Kuro.", True,
                 id="a-person-beside-the-breed"),
    pytest.param("What did Mia say about the trip?", "User takes care of Mia on Tuesdays.", True,
                 id="a-person-cared-for"),
])
def test_a_breed_the_question_names_is_no_name_the_memory_knows_and_a_name_a_fact_gives_is(question, fact, known):
    assert names_known(question, [fact]) is known


@pytest.mark.model
def test_engine_answers_a_general_breed_question_with_no_fact_of_the_users_dog(minilm):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    for f in ("User has a Shiba Inu named Kumo.", "User lives in Leeds.", "User works as a nurse.",
              "User is vegetarian.", "User plays the cello on Sundays."):
        engine.add("u", f)
    assert [f.content for f in engine.recall("How long do Shiba Inus usually live?", "u")] == []
    assert "User has a Shiba Inu named Kumo." in [f.content for f in engine.recall("How long does Kumo usually sleep?", "u")]


# 3. the head noun of a short noun phrase
@pytest.mark.parametrize("question, fact, names", [
    pytest.param("How often does my older daughter usually need a checkup?", "User's daughter Amy is 9.", True,
                 id="my-older-daughter"),
    pytest.param("What time does my son's school usually start?", "User's kids' school starts at 8:45.", True,
                 id="my-sons-school-is-the-kids-school"),
    pytest.param("When does my son's school usually break up?", "User's son Leo is 7.", True,
                 id="my-sons-school-is-the-sons"),
    pytest.param("How much does our new puppy usually eat?", "User has a puppy named Kumo.", True,
                 id="our-new-puppy"),
    pytest.param("How much does my weekly shop usually cost?", "User's weekly shop is at Aldi.", True,
                 id="my-weekly-shop"),
    pytest.param("How long does my family usually stay?", "User's family lives in Goa.", True, id="my-family"),
    pytest.param("How much does the dog food usually cost?", "User has a dog named Biscuit.", True,
                 id="the-dog-food-is-the-dogs"),
    # after "the", a typical one, the best one or someone else's is any one of its kind (rev40d finding 4)
    pytest.param("What does the typical cat usually eat?", "User has a cat named Miso.", False,
                 id="the-typical-cat"),
    pytest.param("How much does the best dog food usually cost?", "User's dog Biscuit is 3.", False,
                 id="the-best-dog-food"),
    pytest.param("What does the average husband usually earn?", "User's husband Tom works late.", False,
                 id="the-average-husband"),
    pytest.param("How loud does the neighbour's dog usually bark?", "User has a dog named Biscuit.", False,
                 id="the-neighbours-dog"),
    # an adverb right after "my" ends the phrase before it has a noun
    pytest.param("How do people usually cope with my usually busy week?", "User's week is busy with shifts.", False,
                 id="an-adverb-after-my"),
    # the phrase stops at the verb: "older" is no thing, "daughter" is no son
    pytest.param("How often does my older daughter usually see a dentist?", "User's son Leo is 7.", False,
                 id="a-daughter-is-no-son"),
    # a measure is the head: the drive qualifies it
    pytest.param("What's the drive time from Leeds to York usually?", "User's drive to work is 20 minutes.", False,
                 id="a-measure-is-the-head"),
])
def test_the_head_noun_of_a_short_phrase_names_the_users_thing_and_a_phrase_with_no_head_of_theirs_nothing(
        question, fact, names):
    assert names_the_askers(question, [fact]) is names
