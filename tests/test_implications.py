"""The gate's fourth signal: a question that touches what a care fact rules out (ranking/implications.py)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from _helpers import HashEmbedder
from memori_core import ChromaStore, InMemoryFactStore, RecallConfig, RecallEngine
from memori_core.ranking.fusion import rank_order
from memori_core.ranking.gate import decide
from memori_core.ranking.care import for_the_asker
from memori_core.ranking.concerns import fact_concerns, question_concerns
from memori_core.ranking.implications import (
    MOST_OF_SLOT,
    asks_about_named,
    asked_about,
    asked_slots,
    asks_for_advice,
    asks_what_to_do,
    day_rows,
    implied_rows,
    named_days,
    named_rows,
    named_words,
    slot_rows,
)

COELIAC = "User has coeliac disease and eats strictly gluten-free."
OTHERS = [f"User's note number {i} is about the garden shed." for i in range(29)]


def ann_with(*facts: str, config: RecallConfig | None = None) -> RecallEngine:
    """An engine (in-memory store, hash embedder) where "ann" has ``facts`` among 29 notes about other things."""
    eng = RecallEngine(store=InMemoryFactStore(), embedder=HashEmbedder(), config=config)
    eng.add("ann", [*OTHERS, *facts])
    return eng


def with_and_without_implications(embedder, facts: list[str]) -> tuple[RecallEngine, RecallEngine]:
    """Two engines where "ann" has ``facts``: the default one, and one with ``gate_implied=False``."""
    engines = (RecallEngine(store=InMemoryFactStore(), embedder=embedder),
               RecallEngine(store=InMemoryFactStore(), embedder=embedder, config=RecallConfig(gate_implied=False)))
    for eng in engines:
        eng.add("ann", facts)
    return engines


@pytest.mark.parametrize("fact, concerns", [
    (COELIAC, {"gluten", "clinic", "meal"}),  # any food concern makes it a fact a meal question opens
    ("User is allergic to peanuts.", {"peanut", "clinic", "meal"}),
    ("User is vegan.", {"meat", "fish", "egg", "dairy", "meal"}),
    ("User doesn't drink alcohol.", {"alcohol"}),  # what to drink, not what to eat
    ("User is 26 weeks pregnant.", {"pregnancy", "clinic", "meal", "exertion", "sleep", "travel"}),
    ("User takes warfarin for atrial fibrillation.", {"packing", "blood thinner", "clinic"}),
    ("User is allergic to latex.", {"latex", "clinic"}),
    ("User is allergic to sesame.", {"sesame", "clinic", "meal"}),  # the EU's fourteen allergens
    ("User is allergic to aspirin and other NSAIDs.", {"painkiller", "clinic"}),  # a drug allergy
    ("User is allergic to penicillin.", {"antibiotic", "clinic"}),
    ("User has type 2 diabetes and takes metformin.", {"packing", "sugar", "diabetes", "clinic", "meal", "alcohol"}),
    ("User has high blood pressure and takes amlodipine.", {"packing", "salt", "alcohol", "clinic", "meal"}),
    ("I have asthma and carry a blue inhaler.", {"packing", "exertion", "clinic"}),
    ("User follows a Jain diet: no meat, fish or eggs.", {"meat", "fish", "egg", "meal"}),
    ("User has prediabetes and is cutting down on sugar.", {"sugar", "diabetes", "clinic", "meal"}),
    ("User has gout.", {"alcohol", "sugar", "meat", "clinic", "meal"}),
    ("User gets seasick on boats.", {"motion"}),  # a limitation, care fact or not
    ("User is afraid of flying.", {"flying"}),
    ("User takes the train rather than fly whenever she can.", {"flying", "getting around"}),
    ("I'm scared of dogs.", {"dogs"}),
    ("User suffers from vertigo and avoids heights.", {"heights"}),
    ("User had her right knee replaced last year.", {"exertion", "walking"}),
    ("User can't swim.", {"water"}),
    # situations that shape plans, whatever the user's health
    ("User's daughter Mia is 6.", {"children"}),
    ("User has four grandchildren; the youngest just turned 3.", {"children"}),
    ("User is a children's author.", set()),  # a possessive: not the user's own children
    ("User lives on a teacher's pension.", {"money"}),
    ("My student loan runs out by week 8 and I'm usually skint.", {"money"}),
    ("We don't have a car.", {"getting around"}),
    ("User uses a wheelchair.", {"getting around", "mobility"}),  # how to get there, and a place's steps
    ("I'm a wheelchair user; I have a spinal cord injury.", {"getting around", "mobility"}),
    ("User has never had a driving licence.", {"getting around"}),
    ("User has a bad lower back from years of desk work.", {"exertion"}),
    ("User's surgeon told her not to lift anything heavier than 5 kg.", {"exertion"}),
    ("User had her gallbladder removed three weeks ago and is still recovering.", {"exertion"}),
    ("User wears hearing aids.", {"hearing"}),
    ("User's mother has dementia and shouldn't be left alone for long.", {"caring"}),
    ("My cat is 12 and needs a pill twice a day.", {"caring", "pets"}),
    ("User's landlord doesn't allow pets.", {"renting", "pets"}),  # "Do I have any pets?"
    ("User rents a small flat in Leith.", {"renting"}),
    ("User's house has an inverter but no generator.", {"power"}),
    ("User has sleep apnoea and uses a CPAP machine.", {"packing", "sleep", "power"}),
    ("User plays basketball on Wednesday evenings and Saturday mornings.", {"schedule", "pastimes"}),
    ("User's commute is 70 minutes each way.", {"schedule"}),
    ("User has IBS and follows a low-FODMAP diet.", {"gut", "meal", "clinic"}),
    ("User is allergic to buckwheat.", {"buckwheat", "meal", "clinic"}),
    ("User is breastfeeding her three-month-old.", {"pregnancy", "clinic", "meal"}),  # wine, coffee, pills
    ("User drives a city bus in Kraków.", {"work"}),
    ("User sends her sister money towards her rent.", set()),  # someone else's rent: not a rented home
    ("User lives in a fourth-floor walk-up.", {"stairs"}),
    ("User works night shifts as a nurse.", {"sleep"}),
    ("User grows tomatoes in raised beds.", {"outdoors"}),
    ("User keeps two beehives.", {"outdoors"}),
    ("I work as a backend developer for a fintech startup.", {"work"}),
    ("User runs a small online candle business from home.", {"work"}),
    ("User only buys vegan cosmetics.", set()),  # a diet word about what is bought, not eaten
    ("User is not vegan.", set()),  # negated: no care fact
    ("User has no allergies.", set()),
    ("User loves sushi.", set()),  # a taste, not a constraint
    ("User is a big Cleveland Guardians fan.", {"fandom"}),
    ("I support Man City.", {"fandom"}),
    ("User is not a fan of spicy food.", set()),  # a dislike, no team
    ("User is learning the cello.", {"music"}),
    ("User gave up on guitar.", {"music"}),  # "Do I play any instruments?" is answered by it
    ("User sings in a community choir.", {"music"}),
    ("User drives a Nissan Leaf.", {"vehicle"}),
    ("User drives a 2009 Škoda Octavia estate.", {"vehicle"}),
    ("User plays basketball on Wednesday evenings.", {"schedule", "pastimes"}),  # a sport, no instrument
    ("User mostly reads Civil War history.", {"reading"}),
    ("User loves old jazz records.", {"listening"}),
    ("User likes dry comedy movies.", {"watching"}),
    ("I'm originally from Toronto.", {"home"}),
    ("My parents still live in Toronto.", {"home"}),
    ("User lives in Leeds.", set()),
    ("User's retriever Biscuit died yesterday.", {"pets"}),  # a breed is a dog
    ("User has two guinea pigs.", {"pets"}),
    ("User is afraid of dogs.", {"dogs"}),  # a fear, no pet
    ("User goes bouldering with friends.", {"pastimes"}),
    ("User took up pottery last spring.", {"pastimes"}),
    ("User is training for a half marathon.", {"pastimes"}),
    ("User runs a small bakery.", {"work"}),  # runs a business, not running
    # ways of travelling the user avoids or prefers, kinds of outing the user does not enjoy
    ("I dislike crowded public transportation.", {"transport"}),
    ("I refuse to use ride-sharing services due to safety concerns.", {"transport"}),
    ("User prefers trains or flights for long trips.", {"transport"}),
    ("User takes the train to work.", set()),  # a habit, no preference
    ("I don't enjoy historical monuments or museums.", {"sights"}),
    ("User dislikes any form of camping, even glamping.", {"sights"}),
    ("User works in a museum.", {"work"}),  # no dislike
    ("I am really uncomfortable with heights.", {"heights"}),
    ("I have a severe aversion to water activities of any kind.", {"water"}),
    ("User loves water sports.", set()),
    # what a person avoids or keeps to as their diet is a care fact
    ("I avoid caffeine entirely.", {"caffeine"}),
    ("I strongly avoid foods containing soy products.", {"soy", "meal"}),
    ("I have a strong aversion to seafood and avoid any kind of fish or shellfish.", {"fish", "shellfish", "meal"}),
    ("I follow a whole-food, plant-based diet.", {"meal"}),
    ("I prefer to eat only fermented foods.", {"meal"}),
    ("User avoids people who gossip.", set()),
    ("User only eats out on Fridays.", {"schedule"}),
    # alcohol lowers blood sugar: diabetes and its medicines meet a drink
    ("User has type 2 diabetes.", {"packing", "alcohol", "clinic", "diabetes", "meal", "sugar"}),
    ("User takes gliclazide every morning.", {"packing", "alcohol", "clinic", "diabetes", "meal", "sugar"}),
    # a damaged spinal disc limits lifting and carrying, however it is named
    ("User has got a bulging disc at L4/L5 from 20 years of this job.", {"exertion", "work"}),
    ("User has a prolapsed disc in his lower back.", {"exertion"}),
    ("User's neck injury from the crash still hurts.", {"exertion"}),
    ("User collects vinyl discs from the 70s.", {"listening"}),  # a disc that is no spine
    # a knee or hip that limits walking meets a trip
    ("User's left knee is bad; they are waiting for a knee replacement.", {"exertion", "walking"}),
    ("User has arthritis in both knees.", {"exertion", "walking"}),
    ("User's hips are stiff in the mornings.", {"walking"}),
    ("User loves long walks.", set()),  # a liking, no limit
    ("User walks the dog every morning.", {"pets"}),  # a dog, no limit on walking
])
def test_a_care_fact_constrains_its_concerns_and_any_other_fact_none(fact, concerns):
    assert fact_concerns(fact) == frozenset(concerns)


@pytest.mark.parametrize("question, concerns", [
    ("Can I have a beer at the pub on Friday night?", {"alcohol", "gluten", "pregnancy", "blood thinner", "sulphite",
                                                       "mobility", "hearing"}),  # a pub: its steps, its noise
    ("Is pad thai safe for me to order?", {"peanut"}),  # a phrase
    ("Can I order PAD-THAI?", {"peanut"}),  # case and hyphens do not matter
    ("Are anchovies okay on my pizza?", {"fish", "salt", "gluten", "dairy", "sugar", "gut"}),  # a word prefix, a plural
    ("Do I need to tell the dentist anything?", {"clinic", "blood thinner", "latex"}),
    ("Any x-ray risks for me?", {"pregnancy"}),
    ("Is hummus OK for me?", {"sesame", "gut"}),  # chickpeas: what a low-FODMAP diet leaves out
    ("Can I take ibuprofen for my headache?", {"painkiller", "blood thinner", "pregnancy", "clinic"}),
    ("Where do I live?", set()),
    ("Should I take the nutty professor to the cinema?", {"peanut", "tree nut", "mobility", "hearing", "watching"}),  # words, not meaning
    ("What should I cook for dinner tonight?", {"meal"}),  # any meal opens every food concern
    ("I'm feeling shaky and sweaty all of a sudden.", {"clinic", "diabetes"}),  # symptoms
    ("My feet are really swollen.", {"clinic", "diabetes"}),
    ("Is it okay to still play football tonight?", {"exertion"}),
    ("My friends want to do bottomless brunch.", {"alcohol", "meal", "blood thinner", "pregnancy"}),
    ("Can I give her paracetamol?", {"clinic"}),  # a medicine: what a pharmacist asks about
    ("Would taking the ferry be a good idea?", {"motion", "mobility"}),
    ("My flatmate wants to get a puppy.", {"dogs", "renting", "pets"}),  # what a landlord may forbid
    ("What should I wear to the dinner?", set()),  # worn, not eaten
    ("Any body lotions or creams you would suggest?", set()),
    ("Can I wear brie-scented perfume while pregnant?", {"pregnancy"}),  # only what eating meets is dropped
    ("Can you plan a fun Saturday for the kids?", {"children"}),
    ("Is it worth trading in my car?", {"money", "vehicle"}),
    ("Plan me a cheap weekend trip home.", {"money", "getting around", "travel", "mobility", "caring", "home", "walking"}),
    ("Got a small bonus. What's the smartest thing to do with R5,000?", {"money"}),  # an amount is money
    ("Is 300 euros too much for a pram?", {"money", "children", "stairs"}),
    ("What should I send for the baby's first Easter?", {"children"}),  # a possessive is the word
    ("They'll push baijiu on me all night.", {"alcohol", "blood thinner", "pregnancy"}),
    ("Need to paint the hallway ceiling this weekend.", {"heights", "pregnancy", "renting"}),
    ("My neighbour asked me to look after his shiba for a week.", {"dogs", "caring"}),
    ("Stage 6 load-shedding all weekend. What do I do about food?", {"power", "meal"}),
    ("Going camping by the lake in June, tent only.", {"power", "sleep", "travel", "water"}),
    ("Client dinner at a really loud hotpot place.", {"hearing", "gut", "meal"}),
    ("Colleagues want to take me to a juwari soba place for lunch.", {"buckwheat", "gluten", "meal", "work"}),
    ("Should I rent a car for the day?", {"getting around", "transport"}),
    ("Help me fit everything in next week.", {"schedule"}),
    ("I've been absolutely exhausted for weeks.", {"sleep"}),
    ("Frost is forecast this weekend. What should I do outside?", {"outdoors"}),
    ("Any plant-based dinner ideas?", {"meal"}),  # a diet, not a garden
    ("Should I buy a stroller that folds small?", {"children", "stairs"}),
    ("A stray cat bit me and the wound is red.", {"clinic", "pets"}),
    ("Can you help me write a cover letter?", {"work"}),
    ("How do I get more orders in before Christmas?", {"work"}),
    ("Should I get tickets for the home opener?", {"fandom"}),
    ("What pieces should I practise this month?", {"music"}),
    ("How far can I get on a single charge on the highway?", {"vehicle"}),
    ("The car's grinding again when I change gear. Worth fixing?", {"vehicle"}),
    ("Any good book recommendations?", {"reading"}),
    ("Something relaxing to put on tonight?", {"listening", "watching"}),
    ("Can you recommend some pieces to go with my jeans?", set()),  # clothes, not music
    ("I'm going home for Christmas, can you help me plan it?", {"home"}),
    ("Do I have a dog?", {"pets", "dogs", "renting"}),
    ("What do I do for fun?", {"pastimes", "music", "reading", "listening", "watching", "fandom"}),
    ("Any fun things to do this weekend?", {"sights"}),  # no pastime of the user's, but an outing
    ("What are some efficient ways to get around New York City?", {"getting around", "transport"}),
    ("What are some outdoor activities I can try in Switzerland?", {"heights", "water"}),
    ("What cultural experiences should I try in Florence?", {"sights"}),
    ("What local tapas should I try?", {"meal"}),
    ("Any popular beverages to try in Seattle?", {"alcohol", "blood thinner", "caffeine", "pregnancy"}),
    ("How do I fix the transport layer in my networking code?", {"transport"}),  # a word, read on its own
    ("What experiences would make a good birthday present?", {"money"}),  # "experiences" alone is no outing
])
def test_a_question_touches_the_concerns_its_words_name(question, concerns):
    assert question_concerns(question) == frozenset(concerns)


@pytest.mark.parametrize("question, expected", [
    ("Can I have a beer at the pub?", True),
    ("What should I order there?", True),
    ("What was the date on which I attended the first BBQ event in June?", False),  # what happened
    ("Did I tell you about the pub quiz?", False),
    ("What is satay sauce made of?", False),  # about the world
    ("Is it okay to eat a big bowl of kale every day?", True),  # asked in a chat: the asker's own case
    ("Would taking the ferry be a good idea?", True),
    ("Is Pluto a planet?", False),
    ("Can you plan a fun Saturday for the kids?", True),  # "the kids": in a chat, the asker's own
    ("Any ideas for a family getaway in the school holidays?", True),  # a request asks for the asker
    ("Plan a cheap week in Rome.", True),
    ("What is the best age for kids to start school?", False),  # about children in general
])
def test_only_a_personal_question_about_what_to_do_reads_the_implications(question, expected):
    assert asks_what_to_do(question) is expected


@pytest.mark.parametrize("turn, expected", [
    ("Stopping for lunch. What should I grab?", True),
    ("can I have a beer at the pub", True),  # no question mark, a question's first words
    ("I get seasick on boats.", False),  # a statement
    ("What was the name of that pub we went to?", False),  # what happened
    ("Plan me a cheap weekend trip home.", True),  # a request is a question about what to do
])
def test_a_follow_up_goes_on_only_with_a_question_about_what_to_do(turn, expected):
    assert asks_for_advice(turn) is expected


def test_implied_rows_marks_the_facts_whose_concerns_the_question_touches():
    facts = ["User lives in Leeds.", COELIAC, "User is allergic to peanuts."]
    assert implied_rows("Can I have a beer?", facts).tolist() == [False, True, False]
    assert implied_rows("Is satay safe?", facts).tolist() == [False, False, True]
    assert implied_rows("Where do I live?", facts).tolist() == [False, False, False]


def test_rank_order_puts_included_rows_among_the_first_k_in_rank_order():
    score = np.array([0.9, 0.8, 0.7, 0.6, 0.1, 0.05])
    cos = np.zeros(6)
    include = np.array([False, False, False, False, False, True])
    assert rank_order(score, cos, 3, include).tolist() == [0, 1, 5]  # the weakest other gives way
    assert rank_order(score, cos, 3, np.zeros(6, dtype=bool)).tolist() == [0, 1, 2]
    everything = np.array([False, True, False, True, True, True])
    assert rank_order(score, cos, 2, everything).tolist() == [1, 3]  # the best two of those included
    assert rank_order(score, cos, 0, include).tolist() == []


def test_the_gate_keeps_and_opens_for_an_implied_fact_whatever_its_cosine():
    cos = np.array([0.2, 0.05])
    score = np.array([0.2, 0.05])
    implied = np.array([False, True])
    cfg = RecallConfig()
    closed = decide(cos, score, cfg)
    assert not closed.opened and not closed.keep.any()
    opened = decide(cos, score, cfg, implied=implied, concerns=("gluten",))
    assert opened.opened and opened.keep.tolist() == [False, True]
    assert "facts whose concerns the question touches (gluten)" in opened.note
    off = decide(cos, score, RecallConfig(gate_implied=False), implied=implied)
    assert not off.keep.any()


@pytest.fixture
def engine():
    return ann_with(COELIAC)


def test_a_beer_question_recalls_the_coeliac_fact_the_cosine_ranks_low(engine):
    answer = [f.content for f in engine.recall("Can I have a beer at the pub on Friday?", "ann")]
    assert COELIAC in answer and len(answer) <= 5
    assert [f.content for f in engine.recall("Can I have a beer at the pub on Friday?", "ann", limit=1)] == [COELIAC]
    report = engine.explain("Can I have a beer at the pub on Friday?", "ann")
    assert "facts whose concerns the question touches (gluten)" in report.gate_note
    assert [(c.kept, c.reason) for c in report.candidates if c.content == COELIAC] == [(True, "kept")]
    assert [f.id for f in report.facts] == [f.id for f in engine.recall("Can I have a beer at the pub on Friday?", "ann")]


@pytest.mark.parametrize("question", [
    "What should I cook for dinner tonight?",  # a meal opens every food concern
    "Is it okay to have spaghetti tonight?",  # no first person: asked for the asker's own case
])
def test_a_meal_or_advice_question_recalls_the_coeliac_fact(engine, question):
    assert COELIAC in [f.content for f in engine.recall(question, "ann")]
    assert "more kept as facts whose concerns the question touches" in engine.explain(question, "ann").gate_note


def test_a_question_about_what_to_wear_to_dinner_does_not_open_the_diet(engine):
    assert COELIAC not in [f.content for f in engine.recall("What should I wear to the dinner tonight?", "ann")]


@pytest.mark.parametrize("question", [
    "What is beer made from?",  # about the world
    "When did I last have a beer at the pub?",  # what happened
    "Where is the garden shed?",  # no concern
])
def test_no_implication_without_a_personal_question_about_what_to_do_that_touches_a_concern(engine, question):
    assert COELIAC not in [f.content for f in engine.recall(question, "ann")]


def test_the_signal_is_off_when_configured_and_in_memori_compat():
    for cfg in (RecallConfig(gate_implied=False), RecallConfig.memori_compat()):
        eng = ann_with(COELIAC, config=cfg)
        top = [f.content for f in eng.recall("Can I have a beer at the pub on Friday?", "ann")]
        assert COELIAC not in top


def test_gate_implied_is_a_bool_from_the_constructor_and_the_environment(monkeypatch):
    with pytest.raises(TypeError, match="gate_implied"):
        RecallConfig(gate_implied="no")  # type: ignore[arg-type]
    monkeypatch.setenv("MEMORI_RECALL_GATE_IMPLIED", "off")
    assert RecallConfig.from_env().gate_implied is False
    monkeypatch.setenv("MEMORI_RECALL_GATE_IMPLIED", "maybe")
    assert RecallConfig.from_env().gate_implied is True  # unparsable: ignored with a warning


@pytest.mark.model
def test_pad_thai_recalls_the_peanut_allergy_with_minilm(minilm):
    facts = ["User is allergic to peanuts.", "User's favourite cuisine is Thai.", "User lives in Leeds.",
             "User works night shifts as a nurse.", "User's daughter Mia is 6.", "User rides a bike to work.",
             "User is training for a half marathon.", "User's partner is called Sam.", "User gets seasick.",
             "User rents a flat with no oven."]
    eng, plain = with_and_without_implications(minilm, facts)
    question = "Is pad thai safe for me to order?"
    assert "User is allergic to peanuts." not in [f.content for f in plain.recall(question, "ann")]
    assert "User is allergic to peanuts." in [f.content for f in eng.recall(question, "ann")]
    assert eng.recall("What's the capital of Australia?", "ann") == []


def test_walking_is_met_by_going_somewhere_on_foot_not_by_exploring_an_idea():
    assert "walking" in question_concerns("Any day trips you'd recommend for us?")
    assert "walking" not in question_concerns("What steps should I take to explore a career change?")


def test_a_bad_knee_is_implied_by_a_trip_and_diabetes_by_a_pint():
    eng = ann_with("User's left knee is bad; they are waiting for a knee replacement.")
    for question in ("Any day trips you'd recommend for us?",
                     "We fancy a coach holiday to the Scottish Highlands in the spring. Is that a good idea?"):
        assert "User's left knee is bad; they are waiting for a knee replacement." in [
            f.content for f in eng.recall(question, "ann")], question
    eng = ann_with("User takes gliclazide every morning.")
    assert "User takes gliclazide every morning." in [
        f.content for f in eng.recall("Can I have a pint at the Christmas do?", "ann")]
    assert "User takes gliclazide every morning." not in [
        f.content for f in eng.recall("What's a good book for the flight?", "ann")]


def test_a_limitation_that_is_no_care_fact_is_implied_too():
    eng = ann_with("User gets seasick on boats.")
    assert "User gets seasick on boats." in [f.content for f in eng.recall("Should we take the ferry to France?", "ann")]
    assert "User gets seasick on boats." not in [f.content for f in eng.recall("How old is the ferry to France?", "ann")]


def test_a_follow_up_that_names_no_concern_goes_on_with_its_conversations(engine):
    context = ["We're at the pub tonight. Can I have a beer?"]
    assert COELIAC in [f.content for f in engine.recall("And for my friend's round after that?", "ann",
                                                          context=context)]
    assert COELIAC not in [f.content for f in engine.recall("And for my friend's round after that?", "ann")]
    # a plan told before it lends its concerns too, but not to the fact it tells itself
    assert COELIAC in [f.content for f in engine.recall("And for my friend's round after that?", "ann",
                                                          context=["We're at the pub tonight, the beer is great."])]
    assert COELIAC not in [f.content for f in engine.recall(
        "And for my friend's round after that?", "ann",
        context=["At the pub tonight. I have coeliac disease and eat strictly gluten-free, beer is out."])]
    # what happened is no plan
    assert COELIAC not in [f.content for f in engine.recall("And for my friend's round after that?", "ann",
                                                              context=["We went to the pub last night for a beer."])]
    # a turn with a topic of its own is judged on it: a general question about rice is not about the user
    assert COELIAC not in [f.content for f in engine.recall("How long can cooked rice keep in the fridge?", "ann",
                                                              context=context)]


def test_sunscreen_is_put_on_the_skin_not_eaten():
    assert implied_rows("What should I pack for lunch?", [COELIAC]).all()
    assert not implied_rows("What SPF should kids' sunscreen be?\nWhat should I pack for lunch?", [COELIAC]).any()


KIDS = ["User's daughter Ruby is 5.", "User's son Jack is 9 and plays cricket on Saturdays."]


def test_a_family_plan_recalls_the_children_and_a_general_question_about_children_does_not():
    eng = ann_with(*KIDS)
    for question in ("Any ideas for a family getaway in the school holidays?",
                     "Can you plan a fun Saturday for the kids?"):
        assert set(KIDS) <= {f.content for f in eng.recall(question, "ann")}, question
        assert re.search(r"\(children[,)]", eng.explain(question, "ann").gate_note)
    assert not set(KIDS) & {f.content for f in eng.recall("How many kids are in an average school class?", "ann")}


def test_a_request_before_a_follow_up_lends_it_its_concerns():
    skint = "My student loan comes in each term and I'm usually skint by week 8."
    eng = ann_with(skint)
    assert skint in [f.content for f in eng.recall("Train or coach?", "ann", context=["Plan me a cheap weekend trip."])]
    assert skint not in [f.content for f in eng.recall("Train or coach?", "ann", context=["I took the train home."])]


@pytest.mark.model
def test_a_pregnancy_is_recalled_for_a_trip_and_a_sleepless_night_with_minilm(minilm):
    pregnant = "User is 30 weeks pregnant with her first baby."
    facts = [pregnant, "User works as a solicitor in Leeds.", "User loves Italian food.", "User's husband is Tom.",
             "User plays the violin.", "User has a cat called Pip.", "User supports Leeds United.",
             "User's sister lives in Bristol.", "User drives a blue Fiat.", "User is learning Spanish."]
    eng, plain = with_and_without_implications(minilm, facts)
    for question in ("Any ideas for a weekend away next month?", "I can't sleep at night, what can I do?"):
        assert pregnant in [f.content for f in eng.recall(question, "ann")], question
    assert pregnant not in [f.content for f in plain.recall("Any ideas for a weekend away next month?", "ann")]
    assert eng.recall("What's the capital of Australia?", "ann") == []


@pytest.mark.parametrize("question, names", [
    ("Is it okay to take Dash on a long hike in this heat?", {"Dash"}),
    ("Can Rosie eat grapes?", {"Rosie"}),
    ("I'm visiting my dad in Annecy on Saturday. Any ideas?", {"Annecy"}),  # no day, no sentence's first word
    ("What should I cook tonight?", set()),
])
def test_named_words_are_capitalised_words_past_a_sentences_first(question, names):
    assert named_words(question) == frozenset(names)


def test_a_name_opens_the_few_facts_that_hold_it_and_not_one_every_fact_holds():
    facts = ["User has a rescue greyhound called Dash.", "User lives in Portland.", "Dash hates the rain."]
    rows, held = named_rows(frozenset({"Dash"}), facts)
    assert rows.tolist() == [True, False, True] and held == ["Dash"]
    speaker = [f"Caroline: note {i}" for i in range(3)]
    rows, held = named_rows(frozenset({"Caroline"}), speaker)
    assert not rows.any() and held == []


def test_a_personal_question_naming_a_pet_recalls_the_pet_fact():
    dash = "User has a rescue greyhound called Dash."
    eng = ann_with(dash)
    question = "Is it okay to take Dash on a long hike in this heat?"
    assert dash in [f.content for f in eng.recall(question, "ann")]
    assert "name Dash" in eng.explain(question, "ann").gate_note
    plain = ann_with(dash, config=RecallConfig(gate_implied=False))
    assert dash not in [f.content for f in plain.recall(question, "ann")]


@pytest.mark.parametrize("question, slots", [
    ("Where do I work?", {"user:job"}),
    ("What's my job?", {"user:job"}),  # "what's" is no one's possessive
    ("What do I do for a living?", {"user:job"}),
    ("What car do I drive?", {"user:car"}),
    ("Do I have a car?", {"user:car"}),
    ("Where did I live before Porto?", {"user:residence"}),
    ("What's my sister's job?", {"sister:job"}),
    ("Any tips for my job?", {"user:job"}),  # the user's own one, named in a question
    ("My car makes a weird noise, what should I do?", {"user:car"}),
    ("My car makes a weird noise.", set()),  # a statement
    ("What should I cook tonight?", set()),  # a request for advice: the other signals judge it
    ("What can I drink at the wedding?", set()),
    ("Can you suggest a good car for a family?", set()),
    ("I work at Meta.", set()),  # a statement
    ("What's the weather like in my city today?", {"user:residence"}),  # the asker's place, used
    ("Any good events in my town this weekend?", {"user:residence"}),
    ("Any decent sushi places near me?", {"user:residence"}),
    ("My town is so boring.", set()),  # a statement
    ("What's the weather like in Paris?", set()),
    ("How far is the airport from my place?", {"user:residence"}),  # the place, in a question about the asker
    ("Where does my brother live?", {"brother:residence"}),  # someone else's slot, asked the way one asks one's own
    ("Where does my little sister work?", {"sister:job"}),
    ("Where does my best friend live?", {"best friend:residence"}),
    ("What does my wife do for work?", {"wife:job", "user:relationship"}),  # a partner's relationship is the user's
    ("Where does Bob live?", set()),  # a name: not a slot of the asker's
    ("How long does it take by train from home?", {"user:residence"}),  # the asker's home, used
    ("How far is the nearest pharmacy to home?", {"user:residence"}),
    ("Is working from home good for productivity?", set()),  # a way of working
    ("Tips to work from home?", set()),
    ("What is the best home page design?", set()),
])
def test_asked_slots_are_the_slots_a_question_asks_the_assistant_to_recall_about_the_asker(question, slots):
    assert asked_slots(question) == frozenset(slots)


def test_a_question_about_a_relatives_home_recalls_theirs_not_the_askers():
    home = "User's older brother Tom moved to Leeds after university and rents a flat near the station."
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder())
    engine.add("kim", ["User lives in Lisbon.", home, "User works as a nurse.", "User likes jazz.",
                       "User has a dog named Rex.", "User's brother plays the cello.", "User's brother is allergic to cats.",
                       "User's brother has two kids.", "User drinks green tea.", "User runs on Sundays.",
                       "User's sister is a pilot.", "User reads crime novels."])
    got = [f.content for f in engine.recall("Where does my brother live?", "kim")]
    assert home in got  # opened by its slot (brother:residence) at a cosine below the gate's
    assert "User lives in Lisbon." not in got


def test_a_slot_opens_the_few_facts_that_fill_it_and_the_best_ranked_of_one_many_facts_fill():
    facts = ["User works at Meta.", "User lives in Lisbon.", "User's sister works at a bank."]
    rows, held = slot_rows(frozenset({"user:job"}), facts)
    assert rows.tolist() == [True, False, False] and held == ["user:job"]  # the sister's job is hers
    many = [f"User worked at company number {i}." for i in range(MOST_OF_SLOT + 2)]
    rows, held = slot_rows(frozenset({"user:job"}), many)
    assert not rows.any() and held == []  # without ranks, a slot many facts fill says nothing about which
    rank = np.array([0.1, 0.9, 0.2, 0.5])
    rows, held = slot_rows(frozenset({"user:job"}), many, rank)
    assert rows.tolist() == [False, True, False, True] and held == ["user:job"]


def test_am_i_married_recalls_the_partner_after_months_of_facts_about_him():
    facts = ["User is engaged to Leo.", "User lives in Exeter.", "User's partner Leo is a nurse.",
             "User's partner Leo's birthday is 20 April.", "User's partner Leo has coeliac disease.",
             "User's fiancé Leo lives in Bristol.", "User's partner Leo likes climbing and sourdough baking.",
             "User and Leo are going to Amsterdam in May."]
    eng = ann_with(*facts)
    recalled = [f.content for f in eng.recall("Am I married?", "ann")]
    assert recalled and all("Leo" in f for f in recalled), recalled


@pytest.mark.parametrize("question", ["Where do I work?", "What's my job?", "What do I do for a living?"])
def test_a_question_about_the_users_job_recalls_the_job_fact_minilm_scores_low(minilm, question):
    # A tester's app: MiniLM scores "Where do I work?" against "User works at Meta." at 0.15, so recall
    # returned nothing though the fact holds the question's only informative word.
    job = "User works at Meta."
    facts = [job, "User lives in Lisbon.", "User is vegetarian.", "User has a dog named Rex.",
             "User's sister lives in Porto."]
    eng = RecallEngine(store=InMemoryFactStore(), embedder=minilm)
    eng.add("u", facts)
    assert [f.content for f in eng.recall(question, "u")] == [job]
    assert "slot user:job" in eng.explain(question, "u").gate_note
    plain = RecallEngine(store=InMemoryFactStore(), embedder=minilm, config=RecallConfig(gate_implied=False))
    plain.add("u", facts)
    assert plain.recall(question, "u") == []


def test_a_question_whose_subject_is_a_name_the_facts_hold_recalls_them_and_a_stranger_does_not():
    rosie = "User has an old Labrador called Rosie with arthritic hips."
    eng = ann_with(rosie, "Rosie is on a daily anti-inflammatory from the vet.")
    recalled = [f.content for f in eng.recall("Can Rosie come along on the hike on Sunday?", "ann")]
    assert rosie in recalled
    assert "name Rosie" in eng.explain("Can Rosie come along on the hike on Sunday?", "ann").gate_note
    assert rosie not in [f.content for f in eng.recall("Can Napoleon come along on the hike on Sunday?", "ann")]
    assert not asks_about_named("Did Rosie win?", lambda: ["User lives in Leeds."])
    assert asks_about_named("Does Rosie like walks?", lambda: [rosie])


def test_a_weekday_the_question_names_opens_the_few_facts_on_that_day():
    netball = "User's daughter plays netball for her school on Saturday mornings."
    eng = ann_with(netball, "User sings in a choir that rehearses on Tuesdays.")
    assert named_days("Should I take the extra Saturday overtime? Maybe in May.") == {"saturday", "may"}
    assert named_days("May I ask something?") == frozenset()  # a sentence's first word is no month
    recalled = [f.content for f in eng.recall("Should I take the extra Saturday overtime they're offering?", "ann")]
    assert netball in recalled
    assert netball not in [f.content for f in eng.recall("Should I take the extra Friday overtime?", "ann")]
    rows, held = day_rows(frozenset({"tuesday"}), ["Choir is on Tuesdays.", "Gym on Tuesday.", "Swim on Tuesday."])
    assert not rows.any() and held == []  # a day three facts name says nothing about which matters


@pytest.mark.parametrize("question", [
    "Got a small bonus from work. What's the smartest thing to do with R5,000?",  # the dropped "I"
    "Bad wind and loose stools since the souvlaki last night. Is that normal?",
    "Client dinner next week at a really loud hotpot place. Any advice?",
    "Would golf be a good fit?",
    "Any podcast recommendations for long drives?",  # a request whose subject is the asker's own
    "Who do you reckon wins the derby this weekend?",  # the assistant's opinion, asked by a fan
])
def test_chat_phrasings_count_as_the_askers_own_case(question):
    assert for_the_asker(question)


@pytest.mark.parametrize("question", [
    "What's the capital of Australia?", "Was the Magna Carta signed in 1215?",
    "Who won the 1966 World Cup?", "Gotham is a fictional city. Where is it set?",
])
def test_general_questions_stay_general(question):
    assert not for_the_asker(question)


def test_a_fans_ticket_question_recalls_the_team_and_a_general_sports_question_does_not():
    fan = "User is a big Cleveland Guardians fan."
    eng = ann_with(fan, "User is learning the cello.")
    assert fan in [f.content for f in eng.recall("Should I get tickets for the home opener?", "ann")]
    assert "fandom" in eng.explain("Should I get tickets for the home opener?", "ann").gate_note
    assert fan not in [f.content for f in eng.recall("Who won the 1966 World Cup final?", "ann")]
    cello = [f.content for f in eng.recall("What pieces should I practise this month?", "ann")]
    assert "User is learning the cello." in cello and fan not in cello


def test_a_question_about_the_users_pets_or_hobbies_recalls_them_whatever_the_words():
    dog, climbing = "User's retriever Biscuit died yesterday.", "User goes bouldering on Saturdays."
    eng = ann_with(dog, climbing, "User is learning the cello.")
    assert dog in [f.content for f in eng.recall("Do I have any pets?", "ann")]
    assert "pets" in eng.explain("Do I have a dog?", "ann").gate_note
    hobbies = [f.content for f in eng.recall("What hobbies do I have?", "ann")]
    assert climbing in hobbies and "User is learning the cello." in hobbies and dog not in hobbies
    assert dog not in [f.content for f in eng.recall("What is the capital of Australia?", "ann")]


@pytest.mark.parametrize("question, who", [
    ("What medication does my dad take?", "dad"),
    ("Is my wife allergic to anything?", "wife"),
    ("Where does my older brother live?", "brother"),
    ("How old is my son?", "son"),
    ("What is Bob allergic to?", "Bob"),
    ("Can Bob eat peanuts?", "Bob"),
    ("What am I allergic to?", None),
    ("What can my wife and I cook tonight?", None),  # both of them
    ("What should I get my dad for his birthday?", None),  # the asker's choice
    ("What's my sister's job?", None),  # a slot question (asked_slots)
    ("Does Pilates help with back pain?", None),  # a name must be someone who is or does something
    ("What is Python?", None),
])
def test_asked_about_is_the_person_a_question_asks_about_when_not_the_asker(question, who):
    assert asked_about(question) == who


def test_a_question_about_someone_else_is_not_answered_with_the_askers_own_facts():
    engine = RecallEngine(store=ChromaStore.in_memory())
    engine.add("ann", ["User takes warfarin.", "User's dad takes statins for his cholesterol.",
                       "User is allergic to peanuts.", "User lives in Lisbon."])
    dads = [f.content for f in engine.recall("What medication does my dad take?", "ann")]
    assert "User's dad takes statins for his cholesterol." in dads and "User takes warfarin." not in dads
    assert "User is allergic to peanuts." not in [f.content for f in engine.recall("What is Bob allergic to?", "ann")]
    report = engine.explain("What is Bob allergic to?", "ann")
    assert "the question asks about Bob" in report.gate_note
    # The asker's own question still gets the asker's own facts.
    assert "User is allergic to peanuts." in [f.content for f in engine.recall("What am I allergic to?", "ann")]
