"""The gate's fourth signal: a question that touches what a care fact rules out (ranking/implications.py).

Rows of what the rules read in one fact or question are in the rule book tests/rules/implications.toml, run by
test_rule_books.py."""

from __future__ import annotations

import re

import numpy as np
import pytest

from _helpers import HashEmbedder, engine_among
from memori_core import ChromaStore, InMemoryFactStore, RecallConfig, RecallEngine
from memori_core.ranking.fusion import rank_order
from memori_core.ranking.gate import decide
from memori_core.ranking.care import for_the_asker
from memori_core.ranking.concerns import question_concerns
from memori_core.ranking.kin import MOST_OF_KIN, kin_rows
from memori_core.ranking.implications import (
    MOST_OF_SLOT,
    asks_about_named,
    asked_about,
    day_rows,
    implied_rows,
    named_days,
    named_rows,
    slot_rows,
)

COELIAC = "User has coeliac disease and eats strictly gluten-free."
OTHERS = [f"User's note number {i} is about the garden shed." for i in range(29)]


def ann_with(*facts: str, config: RecallConfig | None = None) -> RecallEngine:
    """An engine (in-memory store, hash embedder) where "ann" has ``facts`` among 29 notes about other things."""
    return engine_among("ann", OTHERS, facts, config)


def with_and_without_implications(embedder, facts: list[str]) -> tuple[RecallEngine, RecallEngine]:
    """Two engines where "ann" has ``facts``: the default one, and one with ``gate_implied=False``."""
    engines = (RecallEngine(store=InMemoryFactStore(), embedder=embedder),
               RecallEngine(store=InMemoryFactStore(), embedder=embedder, config=RecallConfig(gate_implied=False)))
    for eng in engines:
        eng.add("ann", facts)
    return engines


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


def test_the_weather_or_the_sunset_asked_for_tonight_or_here_recalls_where_the_asker_lives():
    home = "User has moved into their flat in Tampere."
    eng = ann_with(home)
    for question in ("What's the weather going to be like for netball tonight?",
                     "What time does the sun set here today?"):
        assert home in [f.content for f in eng.recall(question, "ann")], question
    for question in ("What's the weather like in Oslo tomorrow?", "How does a weather forecast work?"):
        assert home not in [f.content for f in eng.recall(question, "ann")], question


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


@pytest.mark.model  # the default gate over the MiniLM's cosines decides what reaches the answer
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


def test_a_visa_worry_recalls_the_residence_permit_and_the_girls_are_the_users_daughters(minilm):
    # Tester j8: "Do I still need to worry about my visa?" got the diet and no permit fact (the user's word is
    # not the fact's); "The girls are with me this weekend..." kept the job by the place name it repeats and hid
    # the daughters' ages. "With the girls" (friends) names no child.
    permit = "User's residence permit expires on October 30."
    girls = "User's two girls Kayla and Brooke are 16 and 14."
    facts = [permit, girls, "User is vegan.", "User drives long-haul for Prairie Freight out of Winnipeg.",
             "User moved to Berlin in 2021.", "User plays bass in a band.", "User's migraines come with red wine."]
    eng = RecallEngine(store=InMemoryFactStore(), embedder=minilm)
    eng.add("u", facts)
    assert permit in [f.content for f in eng.recall("Do I still need to worry about my visa?", "u")]
    assert "(papers)" in eng.explain("Do I still need to worry about my visa?", "u").gate_note
    assert girls in [f.content for f in eng.recall("The girls are with me this weekend, what can we do?", "u")]
    assert "children" not in eng.explain("Booking a wine tasting with the girls, good idea?", "u").gate_note


def test_a_partners_diet_is_no_care_fact_of_the_users_own_state_unless_the_turn_names_her(minilm):
    # Tester j7: "im so hungover" got "User's girlfriend Priya is coeliac." (the care rule read the turn as a food
    # or health question and kept every care fact of the household). Her diet shapes a meal cooked for her.
    priya = "User's girlfriend Priya is coeliac."
    eng = RecallEngine(store=InMemoryFactStore(), embedder=minilm)
    eng.add("zoe", [priya, "User is 23.", "User plays bass in a band."])
    eng.add("zoe", ["User is vegan."], core=True)
    hungover = [f.content for f in eng.recall("im so hungover", "zoe")]
    assert priya not in hungover and "User is vegan." in hungover
    assert priya in [f.content for f in eng.recall("What can I make for Priya tonight?", "zoe")]
    assert priya in [f.content for f in eng.recall("What should we cook tonight?", "zoe")]


@pytest.mark.parametrize(("told", "changed", "now"), [
    ("I'm vegetarian.", "I'm no longer vegetarian, I eat fish now.", "User eats fish."),
    ("I'm vegan.", "I went keto, no more vegan for me.", "User went keto."),
])
def test_a_meal_question_after_a_change_of_diet_shows_the_diet_now(minilm, told, changed, now):
    # Tester j10: the change superseded the core restriction with facts no rule read as a diet, so "What should I
    # cook tonight?" showed no diet at all.
    from memori_core import RuleBasedFactExtractor, capture_facts

    eng, rules = RecallEngine(store=InMemoryFactStore(), embedder=minilm), RuleBasedFactExtractor()
    capture_facts(eng, "u", [("user", "I live in Leeds.")], rules, created_at="2026-10-01T09:00:00Z")
    capture_facts(eng, "u", [("user", told)], rules, created_at="2026-10-02T09:00:00Z")
    capture_facts(eng, "u", [("user", changed)], rules, created_at="2026-11-16T09:00:00Z")
    assert now in [f.content for f in eng.list("u")]
    assert now in [f.content for f in eng.recall("What should I cook tonight?", "u")]


def test_a_weekday_inside_a_span_or_weekdays_opens_the_fact_that_covers_it():
    # blind6: "A friend invited me to her book club, Wednesdays at 8 pm. Can I do it?" never saw the shifts fact
    # "... Tuesday to Saturday ...", which names no Wednesday.
    shifts = "User works in a hotel kitchen, Tuesday to Saturday, until about 11 pm."
    office = "User's partner Kim works weekdays at a bank."
    eng = ann_with(shifts, office, "User swims on Sunday mornings.")
    recalled = [f.content for f in eng.recall("My cousin runs a pottery class on Thursday evenings. Can I join?", "ann")]
    assert shifts in recalled and office in recalled
    assert shifts not in [f.content for f in eng.recall("My cousin runs a pottery class on Monday evenings. Can I join?",
                                                        "ann")]
    rows, held = day_rows(frozenset({"sunday"}), ["From Friday sunset to Sunday noon User rests.", "Gym on Monday."])
    assert rows.tolist() == [True, False] and held == ["sunday"]  # a span past the week's end wraps round


def test_a_gift_for_a_relative_opens_the_few_facts_naming_them():
    niece = "User's niece Lola is 7 and mad about horses."
    eng = ann_with(niece, "User is allergic to penicillin.")
    assert niece in [f.content for f in eng.recall("What's a good present for my niece?", "ann")]
    assert niece not in [f.content for f in eng.recall("What's a good present for my boss?", "ann")]


def _recalled_only_by_the_implications(minilm, question: str, needed: str) -> None:
    """``needed`` among seven everyday facts is recalled for ``question``, and not with the implications off."""
    facts = [needed, "User works as an accountant in Bristol.", "User plays five-a-side football on Tuesdays.",
             "User's sister lives in Cardiff.", "User loves Thai food.", "User is learning the ukulele.",
             "User has a cat called Mochi.", "User is saving for a new bike."]
    eng = RecallEngine(store=InMemoryFactStore(), embedder=minilm)
    eng.add("u", facts)
    assert needed in [f.content for f in eng.recall(question, "u")]
    off = RecallEngine(store=InMemoryFactStore(), embedder=minilm, config=RecallConfig(gate_implied=False))
    off.add("u", facts)
    assert needed not in [f.content for f in off.recall(question, "u")]  # the cosine alone does not keep it


@pytest.mark.parametrize(("question", "needed"), [
    ("There's a free bar at my cousin's christening party. How do I handle it?", "User gave up drinking two years ago."),
    ("My niece wants me to bake her birthday cake. Which one should I make?", "User's flat has a microwave but no oven."),
    ("Our bedroom might have to move to the top floor when the baby comes. Thoughts?",
     "User has osteoarthritis in her knees and finds stairs hard."),
    ("My in-laws are visiting us for a week. Where will they sleep?", "User and Jo rent a 32 m² studio."),
    ("A storm is forecast for tonight. What should we do to get ready?", "User's bungalow is wooden with a tin roof."),
    ("We're invited to a ski chalet in the Alps in February. Good idea?", "User had a heart attack last year."),
])
def test_the_eighth_rounds_concerns_recall_what_minilm_scores_low(minilm, question, needed):
    _recalled_only_by_the_implications(minilm, question, needed)


@pytest.mark.parametrize(("question", "needed"), [
    ("We're off to the beach for the whole afternoon tomorrow. Anything to keep in mind?",
     "User has lupus, and strong sunlight brings on her flares."),
    ("I'm going to Singapore next week, what should I sort out before the flight?",
     "User takes two tablets of tacrolimus twice a day since his kidney transplant."),
    ("Which drill should I buy to put up a few shelves?", "User has a tremor in both hands and struggles with fiddly jobs."),
    ("A friend wants us to go into business raising pigs. Should I?", "User is a Seventh-day Adventist."),
    ("I want to lose 4 kg before my holiday, can you give me a plan?",
     "User goes to aqua aerobics at the leisure centre two evenings a week."),
    ("Friends are coming over on Saturday, what should I serve?", "User is allergic to kiwi."),  # a food no table names
])
def test_the_ninth_rounds_concerns_recall_what_minilm_scores_low(minilm, question, needed):
    _recalled_only_by_the_implications(minilm, question, needed)


@pytest.mark.parametrize(("question", "needed"), [
    ("Should we do the drive to Inverness in one go or stop overnight?",
     "User's husband can't sit in a car for more than two hours."),  # sitting long limits a journey
    ("My grandson wants to come with me on my delivery round tomorrow. Can he?",
     "User's courier firm allows no passengers in its vans."),  # a rule of the user's work
    ("The city is expecting 39 degrees this weekend. Any advice?",
     "User's body doesn't regulate temperature well since his spinal injury."),  # the user's own body
    ("My cousin is getting married in Manchester in October. What should I plan for?",
     "User is 14 weeks pregnant."),  # a pregnancy has a due date: a month to come meets it
    ("Found a second-hand jet ski for 4,000 dollars. Should I get it?",
     "User still owes 12,000 dollars on a line of credit."),  # a debt is money
])
def test_the_tenth_rounds_concerns_recall_what_minilm_scores_low(minilm, question, needed):
    _recalled_only_by_the_implications(minilm, question, needed)


def test_a_plural_in_ies_reads_as_its_word_and_an_investor_is_work_not_money():
    assert "motion" in question_concerns("Should we take the ferries between the islands?")
    assert "meal" in question_concerns("What food should we bring to the parties?")
    assert "money" not in question_concerns("Lunch with an investor tomorrow, where should we go?")
    assert "money" in question_concerns("Should I invest my bonus?")


@pytest.mark.parametrize(("question", "needed"), [
    ("My friends want to go clubbing on Saturday night. Should I go?", "User has photosensitive epilepsy."),
    ("Is it okay to have a long bath while everyone is out?", "User has epilepsy."),  # never alone in water
    ("A colleague is selling his 2015 Honda Civic for 6,000 pounds. Should I buy it?",
     "User lost his licence after a seizure in May."),
    ("Should I start jogging every morning before work?", "User tore his ACL skiing and his knee still swells."),
    ("The coach home takes 12 hours. What can I do to make it easier?", "User has varicose veins."),
    ("My friends booked me a manicure for my birthday. Anything to watch out for?", "User is allergic to acrylates."),
    ("Planning to get a small tattoo on my wrist next week, anything I should know?", "User has chronic hepatitis B."),
    ("Last Ramadan I was dizzy by noon every day. Any tips for this year?", "User has type 1 diabetes."),
])
def test_the_eleventh_rounds_concerns_recall_what_minilm_scores_low(minilm, question, needed):
    _recalled_only_by_the_implications(minilm, question, needed)


def test_what_is_left_of_a_debt_is_the_askers_not_a_general_question(minilm):
    facts = ["User has a car loan with 14 monthly payments of 230 pounds left.", "User works as a nurse in Leeds.",
             "User's daughter is 6.", "User plays the cello.", "User is vegetarian."]
    eng = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    eng.add("u", facts)
    assert facts[0] in [f.content for f in eng.recall("How much is left on the car loan?", "u")]
    assert [f.content for f in eng.recall("How much of the Berlin Wall is left?", "u")] == []


def test_a_relative_the_asker_names_opens_the_facts_about_them_by_their_name():
    father = ["User's father Joost (84) lives alone in Delft.", "Joost uses a walker and tires after ten minutes.",
              "Joost's neighbour Anke checks on him every morning."]
    eng = ann_with(*father)
    kept = [f.content for f in eng.recall("Can my dad come with us to the zoo on Sunday?", "ann")]
    assert set(father) <= set(kept)
    # someone else's dad, and a question naming no relative, open none of them
    assert not set(father) & {f.content for f in eng.recall("The kids are at their dad's, what should I cook?", "ann")}
    assert not set(father) & {f.content for f in eng.recall("What should I cook tonight?", "ann")}


def test_a_relative_with_many_facts_opens_only_the_best_ranked_few():

    facts = ["User's mother Ines is 70.", "Ines loves tulips.", "Ines had a hip replacement.", "Ines sings in a choir.",
             "Ines lives in Porto.", "User's sister Rita is a nurse."]
    rank = np.array([0.1, 0.5, 0.9, 0.2, 0.3, 0.8])
    rows, found = kin_rows(frozenset({"mother"}), facts, rank)
    assert found == ["mother"] and rows.sum() == MOST_OF_KIN
    assert rows.tolist() == [False, True, True, False, True, False]  # Rita is no mother, whatever her rank


@pytest.mark.parametrize(("question", "needed"), [
    ("Can I help carry my brother's new sofa up to his flat?", "User hurt her shoulder years ago; lifting above her head hurts."),
    ("It's meant to be 4 degrees at the match on Saturday, should I still go?",
     "I get short of breath in cold or windy weather."),
    ("The drive to the coast is two hours there and back. Can I go on my own?",
     "Mum gets frightened if she is left alone for long."),
    # the thirteenth round
    ("The baby has kept me up all week and now I'm coughing and a bit wheezy. Should I see someone?",
     "User smokes about fifteen a day."),
    ("My laptop keeps crashing. Should I buy a new one?", "User lives on about 900 pounds a month."),
    ("Is it ok to have an energy drink before my driving test?",
     "Coffee on top of my tablets makes me jittery, so I keep to one cup."),
    ("A young lad at the services asked me for a lift to Turin, can I take him?",
     "User's haulage firm forbids passengers in its lorries."),
])
def test_the_twelfth_and_thirteenth_rounds_concerns_recall_what_minilm_scores_low(minilm, question, needed):
    _recalled_only_by_the_implications(minilm, question, needed)


@pytest.mark.model
def test_a_follow_up_changing_the_plan_keeps_the_plans_concerns_beside_its_own(minilm):
    needed = "User's lower back hurts if he sits for long."
    facts = [needed, "User works as an accountant in Bristol.", "User plays five-a-side football on Tuesdays.",
             "User's sister lives in Cardiff.", "User loves Thai food.", "User is learning the ukulele.",
             "User has a cat called Mochi.", "User is saving for a new bike."]
    eng = RecallEngine(store=InMemoryFactStore(), embedder=minilm)
    eng.add("u", facts)
    plan = ["My sister wants me to drive up to Inverness with her, it's a 9-hour drive. Good idea?"]
    assert needed in [f.content for f in eng.recall("what if we take the train instead?", "u", context=plan)]
    assert needed in [f.content for f in eng.recall("what if we fly?", "u", context=plan)]
    # a question of its own after the plan is read on its own concerns
    assert needed not in [f.content for f in eng.recall("What's a good podcast about trains?", "u", context=plan)]


@pytest.mark.model
def test_a_food_the_user_is_allergic_to_named_in_a_long_question_opens_the_allergy(minilm):
    needed = "User is allergic to kiwi and strawberries: her lips swell."
    question = ("My sister is hosting the christening lunch on Sunday and she's doing her kiwi pavlova and a big "
                "cheese board for everyone. I said I'd bring something too. What should I make?")
    facts = [needed, "User works as an accountant in Bristol.", "User plays five-a-side football on Tuesdays.",
             "User's sister lives in Cardiff.", "User loves Thai food.", "User is learning the ukulele.",
             "User has a cat called Mochi.", "User is saving for a new bike."]
    eng = RecallEngine(store=InMemoryFactStore(), embedder=minilm)
    eng.add("u", facts)
    report = eng.explain(question, "u")
    assert [c.kept for c in report.candidates if c.content == needed] == [True]
    assert "allergen kiwi" in report.gate_note
    eng.add("u", ["User's colleague Tom is allergic to cheese."])  # someone the question does not name
    assert "User's colleague Tom is allergic to cheese." not in [f.content for f in eng.recall(question, "u")]


@pytest.mark.model
def test_a_relative_named_by_the_asker_recalls_the_facts_about_them_by_name_with_minilm(minilm):
    needed = "Greta loves orchids and Nordic crime novels."
    facts = ["User's mother Greta (78) lives in Tromsø.", needed, "User works as an accountant in Bristol.",
             "User plays five-a-side football on Tuesdays.", "User loves Thai food.", "User is saving for a new bike.",
             "User's sister lives in Cardiff.", "User has a cat called Mochi."]
    engines = (RecallEngine(store=InMemoryFactStore(), embedder=minilm),
               RecallEngine(store=InMemoryFactStore(), embedder=minilm, config=RecallConfig(gate_implied=False)))
    for eng in engines:
        eng.add("u", facts)
    question = "What should I get my mum for her birthday?"
    assert needed in [f.content for f in engines[0].recall(question, "u")]
    assert needed not in [f.content for f in engines[1].recall(question, "u")]  # "mum" is no word of the fact


# A tester's two users over six weeks (j19): implicit needs outside food and health, and the asker's new job.
J19_OTHERS = ["User lives in Toronto.", "User is lactose intolerant.", "User loves Thai food.",
              "User's sister lives in Cardiff.", "User is saving for a new bike.", "User drinks two coffees a day.",
              "User is flying to Morocco for a cousin's wedding on 2027-01-10."]


@pytest.mark.parametrize(("question", "needed"), [
    ("Is it safe to bring lilies into the house?", "User has a cat named Pixel."),  # lilies poison cats
    ("Which houseplants are safe to keep at home?", "User has a cat named Pixel."),
    ("Suggest a weekend activity for the family.", "User has two sons, Karim and Yusuf."),
    ("What shoes should I buy?", "User took up rock climbing in November 2026."),  # a pastime's gear
    ("What's a good Christmas present for myself?", "User started learning pottery."),  # a gift to oneself
    ("Help me plan my Monday.", "User is a high school math teacher."),  # a weekday is mostly the job's hours
])
def test_j19_implicit_needs_outside_food_and_health_recall_the_fact_minilm_scores_low(minilm, question, needed):
    facts = [needed, *J19_OTHERS]
    eng, off = with_and_without_implications(minilm, facts)
    assert needed in [f.content for f in eng.recall(question, "ann")]
    assert needed not in [f.content for f in off.recall(question, "ann")]  # the cosine alone does not keep it


@pytest.mark.parametrize(("question", "job"), [
    ("What should I learn first in my new role?", "User is now a software engineer at Shopify."),
    ("Any tips for my first week at the new job?", "User works as a clinical data analyst at Novartis."),
])
def test_a_question_about_the_askers_new_role_or_job_recalls_the_job_whatever_its_wording(minilm, question, job):
    eng = RecallEngine(store=InMemoryFactStore(), embedder=minilm)
    eng.add("ann", [job, *J19_OTHERS])
    assert job in [f.content for f in eng.recall(question, "ann")]
    # a team the asker supports and a role model are no job
    assert job not in [f.content for f in eng.recall("Who is my role model?", "ann")]


def test_things_suggested_for_the_home_bring_the_homes_facts_not_the_town_it_is_in():
    # PrefEval dev's abstentions (docs/ranking.md item 58): "my living room" asks the residence slot, which let "I live
    # in Philadelphia." through on rugs, sofas and speakers; what the asker keeps out of the home still comes
    notes = [f"User's reminder number {i} is about renewing the library card." for i in range(29)]
    town, leather = "I live in Philadelphia.", "I prefer not to have any leather items in my home."
    eng = engine_among("u", notes, (town, leather))
    question = "Can you suggest some comfortable sofa options for my living room?"
    recalled = [f.content for f in eng.recall(question, "u")]
    assert town not in recalled  # main: let through as the residence slot
    assert leather in recalled
    # the home as a place still asks where it is
    assert town in [f.content for f in eng.recall("Can you recommend some walks near my home?", "u")]


LUCKY_FACTS = ["User has a dog named Lucky.", "User's cat is called Bean.", "User's son Max is 8.",
               "User's horse Rocky is 20.", "User is vegetarian.", "User lives in Denver.", "User has asthma.",
               "User works as a teacher.", "User has gout and takes allopurinol every day.",
               "User is allergic to penicillin.", "User's mother Ana lives in Lisbon.", "User is saving for a house deposit."]


@pytest.mark.model
def test_a_food_for_a_named_pet_does_not_imply_the_askers_own_diet_with_minilm(minilm):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("u", LUCKY_FACTS)
    got = {f.content: f.passed_by for f in engine.recall("Is it ok to give Lucky some chocolate?", "u")}
    assert "User has a dog named Lucky." in got
    assert got.get("User is vegetarian.") != "implied"  # the asker's diet is no concern of what Lucky eats
    # the asker eating with them keeps their own diet
    shared = [f.content for f in engine.recall("Can Max and I share a pizza tonight?", "u")]
    assert "User is vegetarian." in shared
