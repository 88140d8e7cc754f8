"""The gate's second signal: personal food / health questions open the user's care facts (ranking/care.py).

Rows of what the care rules say of one question or fact are in the rule book tests/rules/care.toml, run by
test_rule_books.py."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.ranking.intent import prototype_texts as intent_texts
from memori_core.ranking.care import (
    CARE_DOMAINS,
    DOMAIN_PROTOTYPES,
    care_share,
    outside_holder,
    prototype_texts,
)

FACTS = ["User lives in Lyon.", "User is vegetarian.", "User is allergic to peanuts."]


def test_prototypes_cover_every_domain_once_in_order():
    texts, starts = prototype_texts()
    assert len(texts) == sum(len(v) for v in DOMAIN_PROTOTYPES.values())
    assert len(starts) == len(DOMAIN_PROTOTYPES) and starts[0] == 0 and (np.diff(starts) > 0).all()
    for start, sentences in zip(starts.tolist(), DOMAIN_PROTOTYPES.values()):
        assert texts[start] == sentences[0]
    assert set(CARE_DOMAINS) <= set(DOMAIN_PROTOTYPES)


def test_care_share_is_the_softmax_share_of_the_care_domains():
    names = list(DOMAIN_PROTOTYPES)
    starts = np.arange(len(names))
    prototypes = np.eye(len(names), dtype=np.float32)  # one prototype per domain, orthogonal
    food = np.zeros(len(names), dtype=np.float32)
    food[names.index("food")] = 1.0
    travel = np.zeros(len(names), dtype=np.float32)
    travel[names.index("travel")] = 1.0
    assert care_share(food, prototypes, starts) > 0.99
    assert care_share(travel, prototypes, starts) < 0.01
    assert care_share(np.full(len(names), 0.1, np.float32), prototypes, starts) == pytest.approx(2 / len(names))


def test_care_share_takes_each_domains_best_prototype():
    prototypes = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]], dtype=np.float32)  # domain 0: rows 0-1
    share = care_share(np.array([0.0, 1.0], np.float32), prototypes, np.array([0, 2]), domains=["food"])
    assert share == pytest.approx(1 / (1 + np.exp((0.8 - 1.0) / 0.05)))


# -- through the engine, with MiniLM --------------------------------------------


@pytest.fixture
def engines(minilm):
    # Without the third-person lift, which alone admits some of these facts ("Is a ham sandwich OK for me?"
    # reads "User is vegetarian." at 0.27 + 0.05), and without the implications (ham -> a vegetarian diet):
    # the care signal is what is tested here.
    lift_off = RecallConfig(gate_third_person=None, gate_implied=False)
    with_care = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm, config=lift_off)
    without = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm,
                           config=replace(lift_off, gate_care=None, gate_general=None))
    for engine in (with_care, without):
        engine.add("u1", FACTS)
        engine.add("u2", ["User is allergic to shellfish."])
    return with_care, without


@pytest.mark.parametrize("question, needed", [
    ("Is a ham sandwich OK for me?", "User is vegetarian."),
    ("What should I cook tonight?", "User is vegetarian."),
    ("Is satay sauce safe for me to eat?", "User is allergic to peanuts."),
])
def test_a_personal_food_question_gets_the_care_fact_the_cosine_gate_drops(engines, question, needed):
    with_care, without = engines
    assert needed not in [f.content for f in without.recall(question, "u1")]
    recalled = [f.content for f in with_care.recall(question, "u1")]
    assert needed in recalled and "User lives in Lyon." not in recalled
    assert all(f.entity_id == "u1" for f in with_care.recall(question, "u1"))


@pytest.mark.parametrize("question", ["What's the capital of Peru?", "How many grams are in a cup of rice?",
                                      "Explain how a mutex works."])
def test_questions_with_no_personal_food_or_health_angle_stay_clean(engines, question):
    assert engines[0].recall(question, "u1") == []


def test_explain_names_the_care_facts_and_equals_recall(engines):
    report = engines[0].explain("Is a ham sandwich OK for me?", "u1")
    assert [f.id for f in report.facts] == [f.id for f in engines[0].recall("Is a ham sandwich OK for me?", "u1")]
    assert "2 more kept as care facts" in report.gate_note


@pytest.mark.parametrize("fact, holder", [
    ("User's colleague Tim is allergic to penicillin.", "colleague Tim"),
    ("User's best friend Nora is allergic to cats.", "best friend Nora"),
    ("A friend of the user is vegan.", "friend"),
    ("User's mother is diabetic.", "mother"),
    ("User is allergic to peanuts.", None),
    ("User's husband is coeliac.", None),
    ("User's daughter Mia is allergic to eggs.", None),
    ("User's doctor told her to cut down on salt.", None),  # a clinician's advice is the user's own
    ("User's left knee is bad; they are waiting for a knee replacement.", None),  # the user's own body
    ("User's blood pressure is high.", None),
    ("User's mother has a bad hip.", "mother"),
    ("User's head of department is allergic to nuts.", "head of department"),  # a person, not the user's head
    ("My shift is 9pm to 6am, Monday to Friday.", None),  # the user's own things, not someone
    ("User's income is irregular.", None),
    ("User's favourite cuisine is Thai.", None),
    ("User's bungalow is wooden with a tin roof.", None),  # the user's home, which a storm reaches
    ("User's days off are Sunday and Monday.", None),
    ("User's team lead Sarah is vegan.", "team lead Sarah"),
])
def test_outside_holder_names_someone_outside_the_users_household(fact, holder):
    assert outside_holder(fact) == holder


def test_someone_elses_care_fact_is_no_answer_to_the_users_own_food_or_health_question(minilm):
    # A tester's app: a neighbour's diet and a colleague's penicillin allergy had been injected as care facts
    # (cosine 0.05-0.11) into "What should I cook tonight?" and "Is ibuprofen ok for my headache?".
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("u1", ["User's neighbour is vegan.", "User's colleague Tim is allergic to penicillin.",
                      "User's best friend Nora is allergic to cats.", "User lives in Leeds.",
                      "User plays the cello."])
    for question in ["What should I cook tonight?", "Is ibuprofen ok for my headache?",
                     "What local food should I try there?"]:
        assert engine.recall(question, "u1") == [], question
    named = [f.content for f in engine.recall("What should I cook when my neighbour comes over?", "u1")]
    assert "User's neighbour is vegan." in named
    # named in an earlier turn of the conversation
    engine.add("u1", ["User's friend Sam is allergic to peanuts."])
    alone = [f.content for f in engine.recall("Is satay chicken a good idea for dinner?", "u1")]
    assert "User's friend Sam is allergic to peanuts." not in alone
    followed = [f.content for f in engine.recall("Is satay chicken a good idea for dinner?", "u1",
                                                 context=["Sam is coming over on Friday."])]
    assert "User's friend Sam is allergic to peanuts." in followed


# -- through the engine, without a model ----------------------------------------


class PrototypesDown:
    """An embedder that embeds as ``embedder`` does, except the gate's prototype sentences (one batch: the
    domains, then the intents), which fail while ``down``."""

    name = "prototypes-down"

    def __init__(self, embedder):
        self.embedder = embedder
        self.down = True
        self.n_prototypes = len(prototype_texts()[0]) + len(intent_texts()[0])

    def embed_documents(self, texts):
        if self.down and len(texts) == self.n_prototypes:
            raise RuntimeError("embedding service unavailable")
        return self.embedder.embed_documents(texts)

    def embed_query(self, text):
        return self.embedder.embed_query(text)


def test_the_prototypes_are_embedded_once_per_engine_and_only_when_a_care_fact_is_in_doubt(hash_embedder):
    # affinity (ranking/affinity.py) reads them on every personal question: off here, the care signal alone
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder,
                          config=RecallConfig(affinity_weight=0.0))
    engine.add("u1", FACTS)
    calls = hash_embedder.calls
    engine.recall("Where do I live?", "u1")  # no care fact between the care bar and gate_keep
    assert hash_embedder.calls == calls + 1  # the query only
    engine.recall("Is my dinner plan ok with peanuts tonight or not really?", "u1")  # peanuts at cosine 0.24
    assert hash_embedder.calls == calls + 3  # the query, then the prototypes (one batch)
    engine.recall("Is my lunch plan ok with peanuts today or not really?", "u1")
    assert hash_embedder.calls == calls + 4  # the query only


def test_prototypes_that_cannot_be_embedded_leave_the_gate_as_it_was(hash_embedder, caplog):
    failing = RecallEngine(store=ChromaStore.in_memory(), embedder=PrototypesDown(hash_embedder))
    plain = RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder, config=RecallConfig(gate_care=None, gate_general=None))
    for engine in (failing, plain):
        engine.add("u1", FACTS)
    # The peanut fact is a care fact at cosine 0.24 (hash embedder): the signal needs the prototypes here.
    for question in ["Is my dinner plan ok with peanuts tonight or not really?", "What's the capital of Peru?",
                     "vegetarian"]:
        assert [f.id for f in failing.recall(question, "u1")] == [f.id for f in plain.recall(question, "u1")]
    assert "care and general-question signals are off" in caplog.text


def test_a_passing_prototype_failure_is_not_remembered(hash_embedder):
    """After the embedder recovers, the engine answers as a fresh engine over the same store does."""
    flaky = PrototypesDown(hash_embedder)
    store = ChromaStore.in_memory()
    # the care signal alone decides this question's fact (the implications keep a peanut fact for "peanuts")
    lift_off = RecallConfig(gate_third_person=None, gate_implied=False)
    engine = RecallEngine(store=store, embedder=flaky, config=lift_off)
    engine.add("u1", FACTS)
    question = "Is my dinner plan ok with peanuts tonight or not really?"
    during = [f.id for f in engine.recall(question, "u1")]
    flaky.down = False
    after = [f.id for f in engine.recall(question, "u1")]
    fresh = [f.id for f in RecallEngine(store=store, embedder=flaky, config=lift_off).recall(question, "u1")]
    assert after == fresh and after != during  # the signal is back once the prototypes could be embedded
    assert during == [f.id for f in RecallEngine(store=store, embedder=hash_embedder,
                                                 config=replace(lift_off, gate_care=None, gate_general=None)).recall(question, "u1")]


def test_a_lasting_prototype_failure_warns_once_until_they_can_be_embedded_again(hash_embedder, caplog):
    flaky = PrototypesDown(hash_embedder)
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=flaky)
    engine.add("u1", FACTS)
    question = "Is my dinner plan ok with peanuts tonight or not really?"

    def warnings() -> int:
        return sum(r.levelname == "WARNING" and "prototype sentences" in r.getMessage() for r in caplog.records)

    with caplog.at_level("DEBUG", logger="memori_core"):
        for _ in range(4):
            engine.recall(question, "u1")
        assert warnings() == 1  # tried on every recall, warned once
        assert sum("prototype sentences" in r.getMessage() for r in caplog.records) == 4
        flaky.down = False
        engine.recall(question, "u1")  # embedded: the signals are back
        engine._prototypes = None  # as if a new process: the next failure is news again
        flaky.down = True
        engine.recall(question, "u1")
        assert warnings() == 2


def test_upstream_compat_and_the_threshold_gate_have_no_care_signal():
    assert RecallConfig.memori_compat().gate_care is None
    with pytest.raises(ValueError, match="gate_care"):
        RecallConfig(gate_care=float("nan"))


def test_an_allergy_to_something_not_eaten_is_no_care_fact_of_a_food_question_but_stays_one_of_health(minilm):
    # rev37c (docs/ranking.md item 58): the care path passed "User is allergic to cats." on "Any snack ideas for my
    # lunchbox?"; concerns.NOT_EATEN_ALLERGY, which the vocabulary and the concerns read, now rules here too
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm,
                          config=RecallConfig(gate_third_person=None, gate_implied=False))
    engine.add("u1", ["User is allergic to cats.", "User is allergic to penicillin.", "User is vegetarian.",
                      "User lives in Leeds."])
    report = engine.explain("Any snack ideas for my lunchbox?", "u1")
    kept = {c.content: c.passed_by for c in report.candidates if c.kept}
    assert "User is allergic to cats." not in kept and "User is allergic to penicillin." not in kept
    assert kept.get("User is vegetarian.") == "care"  # the eaten restriction stays
    health = {c.content: c.passed_by for c in engine.explain("Which painkiller is safe for me to take?", "u1").candidates
              if c.kept}
    assert "User is allergic to penicillin." in health


def test_us_typed_in_lower_case_before_dollars_is_the_country_not_the_asker():
    from memori_core.ranking.care import is_personal

    assert not is_personal("whats 4200 yen in us dollars roughly")
    assert not is_personal("how much do us citizens pay for a visa")
    assert is_personal("Could you send us the plan?")  # the asker and company
    assert is_personal("What should we cook for us tonight?")


PET_OWNER = ["User is vegetarian.", "User has a Labrador called Mylo.", "User is allergic to peanuts.",
             "User is lactose intolerant.", "User has type 2 diabetes.", "User walks Mylo every morning.",
             "User works as a nurse on night shifts.", "User lives in Porto."]
ASKERS_DIET = {"User is vegetarian.", "User is allergic to peanuts.", "User is lactose intolerant.",
               "User has type 2 diabetes."}


@pytest.mark.model
def test_a_question_of_what_to_feed_a_pet_gets_none_of_the_askers_own_diet(minilm):
    eng = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    eng.add("u", PET_OWNER)
    fed_the_dog = {f.content for f in eng.recall("What do I feed my dog?", "u")}
    assert not fed_the_dog & ASKERS_DIET  # main let all four through as the meal's concerns
    # by the pet's name: the care path keeps none of the asker's allergies either
    fed_mylo = {f.content for f in eng.recall("What should I feed Mylo?", "u")}
    assert not fed_mylo & {"User is allergic to peanuts.", "User is lactose intolerant."}
    # the asker's own meal still reads them
    assert ASKERS_DIET <= {f.content for f in eng.recall("What should I cook tonight?", "u")}


def test_a_pets_fact_written_about_the_user_is_not_the_askers_own_diet():
    from memori_core.ranking.implications import is_the_askers_own

    assert is_the_askers_own("User is vegetarian.") and is_the_askers_own("I'm allergic to cashews.")
    assert not is_the_askers_own("User has a 10-year-old beagle called Rusty who has diabetes and gets insulin.")
    assert not is_the_askers_own("User has two cats.")
    assert not is_the_askers_own("User's son Leo is allergic to eggs.")
