"""Items 57 and 61's additions to the everyday vocabulary (ranking/everyday.py: the words marked "item 57" and
"item 61" in `DOMAINS`' rows, a temperature told in numbers, the daily-medicine family that never matched while
backspace characters stood where ``\\b`` was meant), the names a user types in lower case or opens a turn with
(ranking/implications.py `typed_words`, `given_names`), and the user's own faculties that are no person
(ranking/care.py `_OWN_THING`: "User's English ...", "User's blood sugar ..."). The behaviour cases failed on main
6269563 (item 57) or 9350148 (item 61)."""

from __future__ import annotations

import pytest

from _helpers import engine_among
from memori_core import RecallConfig, RecallEngine
from memori_core.ranking.care import named_by, outside_holder
from memori_core.ranking.everyday import fact_domains, question_domains
from memori_core.ranking.implications import given_names, named_rows, typed_words

NOTES = [f"User's reminder number {i} is about renewing the library card." for i in range(29)]


def engine_with(*facts: str, config: RecallConfig | None = None) -> RecallEngine:
    """An engine (in-memory store, hash embedder) where "u" has ``facts`` among 29 unrelated reminders."""
    return engine_among("u", NOTES, facts, config)


@pytest.mark.parametrize(("fact", "domain", "opens"), [
    ("User has gout and takes allopurinol every day.", "health", True),  # a chronic condition no health word named
    ("I take baclofen three times a day for muscle spasms.", "health", True),  # a daily medicine told by its schedule
    ("User's haematologist told her to drink three litres of water a day.", "health", True),  # a specialist
    ("I'm scared of needles.", "health", True),
    ("User walks about 15 km a day on her round.", "fitness", True),
    ("Cold weather makes my spasms a lot worse.", "place", True),
    ("I'm allergic to bee stings and carry an EpiPen.", "place", True),  # outdoors: what stings
    ("The power at User's shop goes off often and she runs a small petrol generator.", "home", True),
    ("I brew my own beer in the kitchen.", "hobbies", True),
    ("User hunts deer in the fall and fishes at the lake.", "hobbies", True),
    ("We've set aside 1.5 lakh rupees for the delivery.", "money", True),  # a sum told in a currency
    ("After rent I have about 3,000 pesos a month left.", "money", True),
    ("My maternity leave starts on 1 February.", "work", True),
    ("User works on a drilling rig, 14 days on and 14 off.", "work", True),
    ("I'm 30 weeks pregnant with my first baby.", "travel", True),  # a pregnancy limits flying
    ("My A1c came back borderline, so I'm cutting down on sugar.", "food", True),
    # item 61 (gate9), read from blind15
    ("User takes iron and folic acid every day.", "health", True),  # a medicine told only by its schedule
    ("I take levothyroxine every morning.", "health", True),
    ("User is trying to lose 8 kg; he weighs 86 kg.", "fitness", True),  # a weight told in numbers
    ("I want to lose 20 pounds before the summer.", "fitness", True),
    ("User has high blood pressure.", "fitness", True),  # what the heart allows of exertion
    ("User's father has heart trouble.", "health", True),
    ("User's English is good for work emails but he struggles with spoken English.", "travel", True),
    ("My Spanish is basic but I'm improving my Spanish every week.", "travel", True),
    ("I carry a paso for my brotherhood in Holy Week.", "faith", True),  # a festival told of the user
    ("The family is going to Okinawa for five days over Lunar New Year.", "faith", True),
    ("We lose power most evenings in summer.", "home", True),
    # what only looks like a family of the rows: no domain
    ("User takes the bus every day.", "health", False),  # a daily schedule that is no medicine
    ("User takes the kids to school every morning.", "health", False),
    ("User lost 3 games in a row last season.", "fitness", False),  # a number of things lost, not of kilos
    ("User weighs up every offer before buying.", "fitness", False),
    ("User is a warm person and people like her.", "travel", False),
])
def test_a_fact_the_vocabulary_read_as_no_domain_now_constrains_it_and_a_look_alike_does_not(fact, domain, opens):
    assert (domain in fact_domains(fact)) is opens


@pytest.mark.parametrize(("question", "domain"), [
    ("It's going to be -25 this weekend, any tips?", "place"),  # a temperature told in numbers
    ("It's going to be 35 degrees all week, anything I should do?", "place"),
    ("What do we need to get ready for Obon this year?", "faith"),  # a festival the faith row lacked
    ("Ideas to make a small flat feel less cramped?", "home"),
    ("The lights keep going off at home, what can I do?", "home"),
    ("I have an afternoon off, what should I do?", "hobbies"),
    ("Is it smart to buy a new car this year?", "money"),
    ("Should I finance a new boat?", "money"),
    ("Need new work boots, what should I look for?", "fitness"),
    ("How many calories should I be eating a day?", "fitness"),
    ("Driving up to see my grandson, how long will it take?", "children"),
    ("We want to take my parents to a temple on Sunday, which one would be easy?", "access"),
    # item 61 (gate9), read from blind15
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
def test_a_question_in_words_the_rows_lacked_opens_its_domain(question, domain):
    assert domain in question_domains(question)


def test_a_number_that_is_no_temperature_opens_no_place():
    assert "place" not in question_domains("What is 10-25?")
    assert "place" not in question_domains("Is a 20% tip enough?")


def test_a_cold_sensitive_condition_passes_the_gate_for_a_frost_told_in_numbers():
    spasms = "Cold weather makes my spasms a lot worse."
    question = "It's going to be -25 this weekend, what should I do?"
    eng = engine_with(spasms)
    assert spasms in [f.content for f in eng.recall(question, "u")]
    assert "everyday place" in eng.explain(question, "u").gate_note


def test_the_names_a_fact_gives_are_a_persons_or_a_pets_not_a_place_or_a_kind():
    assert given_names("User is divorced and lives with two retired greyhounds, Rocket and Bess.") == {"rocket", "bess"}
    assert given_names("We have a Labrador called Mylo who pulls hard on the lead.") == {"mylo"}
    assert given_names("User's daughter Kirsty lives in Aberdeen.") == {"kirsty"}  # not the city
    assert given_names("User is a Southern Baptist and goes to the Bell Centre.") == frozenset()
    assert "mylo" in typed_words("can I still walk mylo every morning")
    assert "sigge" in typed_words("Sigge has been scratching his ears a lot.")


@pytest.mark.parametrize("turn", [
    "can I still walk mylo every morning",  # typed in lower case
    "mylo has been limping since the weekend",  # a turn told of the name it opens with
    "Mylo keeps scratching his ears, what should I do?",
])
def test_a_pets_name_typed_in_lower_case_or_opening_the_turn_recalls_the_pet(turn):
    mylo = "We have a Labrador called Mylo who pulls hard on the lead."
    eng = engine_with(mylo, "User has a bad left knee.")
    assert mylo in [f.content for f in eng.recall(turn, "u")]


def test_a_lower_case_word_a_fact_holds_only_as_a_place_or_a_kind_opens_nothing():
    facts = ["User's daughter Kirsty lives in Aberdeen.", "User is a Southern Baptist."]
    rows, held = named_rows(frozenset(), facts, typed_words("should i drive to aberdeen or fly, southern route?"))
    assert not rows.any() and held == []
    rows, held = named_rows(frozenset(), facts, typed_words("what should i get kirsty for her birthday"))
    assert rows.tolist() == [True, False] and held == ["kirsty"]


@pytest.mark.parametrize("turn", [
    "is it smart to buy a new car this year",  # a decision asked of the assistant, with no "I"
    "car failed its MOT on the brakes, is it worth fixing",
    "It's going to be -25 this weekend, any tips?",  # a closing request after a comma
    "tips for lectures? the prof talks super fast",  # a request that opens the turn
    "ideas to make a small flat feel less cramped",
])
def test_a_request_for_advice_with_no_i_is_the_askers_own_case(turn):
    from memori_core.ranking.care import for_the_asker
    assert for_the_asker(turn)


@pytest.mark.parametrize("turn", ["What is the capital of Australia?", "How do you tell if a dog's leg is broken?",
                                  "Is it true that bats are blind?"])
def test_a_general_question_is_still_no_one_s_case(turn):
    from memori_core.ranking.care import for_the_asker
    assert not for_the_asker(turn)


def test_a_car_fact_passes_the_gate_for_a_repair_asked_without_i():
    car = "User drives a 2012 Ford Fiesta."
    question = "car failed its MOT on the brakes, is it worth fixing"
    eng = engine_with(car)
    assert car in [f.content for f in eng.recall(question, "u")]


def test_a_title_is_no_given_name_the_word_after_it_is():
    assert given_names("User has to give Herr Huber his insulin at 8.") == {"huber"}
    assert given_names("User drives Frau Weber to church on Sundays.") == {"weber"}
    assert "herr" not in typed_words("Herr Huber's doctor gave him antibiotics. Can I crush them into his yoghurt?")


@pytest.mark.parametrize(("turn", "word"), [
    ("max out my credit card or pay off my loan?", "max"),
    ("lucky me, I got the job! what should I wear on day one?", "lucky"),
    ("ginger is supposed to help with nausea, right?", "ginger"),
])
def test_an_ordinary_lower_case_word_opening_a_turn_is_no_typed_name(turn, word):
    assert word not in typed_words(turn)
    assert "mylo" in typed_words("mylo has been limping since the weekend")  # no ordinary word: may be a name
    assert "max" in typed_words("Max keeps coughing at night, what should I do?")  # capitalised: may be


def test_an_ordinary_lower_case_word_opening_a_turn_makes_it_about_no_named_pet():
    from memori_core.ranking.implications import asks_about_named
    facts = ["User has a cat named Ginger.", "User has gout and takes allopurinol every day.", "User is vegetarian."]
    assert not asks_about_named("ginger is supposed to help with nausea, right?", lambda: facts)
    assert asks_about_named("Ginger is limping on her back leg", lambda: facts)



@pytest.mark.parametrize("question", [
    "Tips for a 360 degree review at work?",  # no temperature: a kind of review
    "I have 2 degrees, which job should I apply for?",  # university degrees
    "My score dropped -30 points, what should I do?",  # a negative number of points
])
def test_a_number_of_degrees_or_below_zero_without_a_unit_or_weather_word_opens_no_place(question):
    assert "place" not in question_domains(question)


@pytest.mark.parametrize("question", [
    "It will be 30\u00b0C tomorrow, what should I wear?",
    "It's going to be 90 degrees Fahrenheit, any tips?",
    "It is -5 outside, can I still go for a run?",
])
def test_a_temperature_told_by_its_unit_or_a_weather_word_opens_place(question):
    assert "place" in question_domains(question)


def test_typed_words_read_the_names_of_a_pool_once_not_per_question():
    from memori_core.ranking.implications import _pool_given_names
    facts = [f"User went to the gym on day {i} and felt fine." for i in range(999)]
    facts.append("Dinner with friends is every Friday.")  # a capitalised word that gives no name
    typed = typed_words("can I take mylo to the beach tonight?")
    assert "mylo" in typed
    assert not named_rows(frozenset(), facts, typed)[0].any()
    before = _pool_given_names.cache_info()
    for _ in range(5):
        assert not named_rows(frozenset(), facts, typed)[0].any()
    after = _pool_given_names.cache_info()
    # on main 6269563..ac63194 each call joined and scanned the whole pool; now the pool's names are read once
    assert (after.hits - before.hits, after.misses - before.misses) == (5, 0)

@pytest.mark.parametrize("question", [
    "what goes well with rocky road cake?",  # a horse named Rocky
    "How long have I been collecting vintage films?",  # "Long" capitalised in a stored reply
    "is green bean casserole hard to make?",  # a cat named Bean
])
def test_an_ordinary_lower_case_word_anywhere_in_a_turn_is_no_typed_name(question):
    assert not typed_words(question) & {"rocky", "long", "bean"}


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
