"""Affinity (ranking/affinity.py, docs/ranking.md item 40): a personal question's ranking reaches the care facts
and same-domain facts its words never meet, through the public recall API with the real embedder."""

from __future__ import annotations

import numpy as np
import pytest

from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.ranking.affinity import CARE_WEIGHT, DOMAIN_WEIGHT, affinity_bonus, domain_shares

FACTS = [
    "User works as a bus driver in Glasgow.", "User's daughter Isla is starting university in September.",
    "User supports Celtic and has a season ticket.", "User has type 2 diabetes.", "User is allergic to shellfish.",
    "User lives in a top-floor flat in Partick.", "User plays five-a-side football on Tuesday evenings.",
    "User's favourite takeaway is the Indian place on Dumbarton Road.", "User drives a 2015 Skoda Octavia.",
    "User's husband Callum works night shifts at the hospital.", "User is saving for a holiday in Tenerife.",
    "User listens to true-crime podcasts on the bus.", "User is learning Spanish on Duolingo.",
    "User's mum lives in Paisley.",
]
FOOD_QUESTIONS = ["What should I have for lunch today?", "Any ideas for a snack on my break?",
                  "Is paella a good choice for dinner tonight?", "Can you suggest a pudding for Sunday?"]


def _engine(minilm, **config) -> RecallEngine:
    config = {"affinity_weight": 1.0, **config}  # off by default (docs/ranking.md item 40)
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm, config=RecallConfig(gate="off", **config))
    engine.add("u", FACTS)
    return engine


@pytest.mark.parametrize("question", FOOD_QUESTIONS)
def test_a_personal_food_question_ranks_the_diabetes_its_words_never_meet_into_the_five_best(minilm, question):
    with_affinity = [f.content for f in _engine(minilm).recall(question, "u", 5)]
    without = [f.content for f in _engine(minilm, affinity_weight=0.0).recall(question, "u", 5)]
    assert "User has type 2 diabetes." in with_affinity
    assert "User has type 2 diabetes." not in without


def test_a_question_about_the_world_is_ranked_as_before(minilm):
    question = "What is the capital of Australia?"
    assert ([f.id for f in _engine(minilm).recall(question, "u", 5)]
            == [f.id for f in _engine(minilm, affinity_weight=0.0).recall(question, "u", 5)])


def test_explain_shows_the_affinity_column_and_equals_recall(minilm):
    engine = _engine(minilm)
    report = engine.explain("What should I have for lunch today?", "u", 5)
    diabetes = next(c for c in report.candidates if c.content == "User has type 2 diabetes.")
    assert diabetes.affinity > 0  # a care fact in the food and health domains
    assert diabetes.affinity <= diabetes.neighbour_bonus + 1e-9  # part of the bonus column
    assert "affin" in report.table() and "life domains" in report.table()
    assert [f.id for f in report.facts] == [f.id for f in engine.recall("What should I have for lunch today?", "u", 5)]


def test_affinity_is_off_by_default_and_in_memori_compat():
    assert RecallConfig.memori_compat().affinity_weight == 0.0
    assert RecallConfig().affinity_weight == 0.0


@pytest.mark.parametrize("weight", [-0.1, 1.5])
def test_an_affinity_weight_outside_0_to_1_is_refused_naming_it(weight):
    with pytest.raises(ValueError, match="affinity_weight must be in"):
        RecallConfig(affinity_weight=weight)


def test_domain_shares_are_a_softmax_over_each_domains_best_prototype():
    prototypes = np.eye(4)[[0, 1, 2, 3]]  # domain 0: rows 0-1, domain 1: rows 2-3
    starts = np.array([0, 2])
    shares = domain_shares(np.array([[1.0, 0, 0, 0], [0, 0, 0, 1.0]]), prototypes, starts, temperature=0.5)
    assert shares.shape == (2, 2)
    np.testing.assert_allclose(shares.sum(axis=1), 1.0)
    assert shares[0, 0] > 0.8 and shares[1, 1] > 0.8
    np.testing.assert_allclose(domain_shares(np.array([1.0, 0, 0, 0]), prototypes, starts, 0.5), shares[0])


def test_affinity_bonus_adds_the_shared_domain_and_care_and_takes_nothing_away():
    domains = np.array([[1.0, 0.0], [0.0, 1.0]])
    question = np.array([0.0, 1.0])
    care = np.array([False, True])
    plain = affinity_bonus(domains, question, care, advice=False)
    advice = affinity_bonus(domains, question, care, advice=True)
    assert plain[0] == 0.0  # no shared domain, no care: nothing added, nothing taken
    assert plain[1] == pytest.approx(DOMAIN_WEIGHT + CARE_WEIGHT)
    assert advice[1] == pytest.approx(DOMAIN_WEIGHT + 2 * CARE_WEIGHT) and advice[0] == 0.0
    assert not affinity_bonus(domains, question, care, advice=True, weight=0.0).any()


def test_affinity_fades_from_short_facts_to_none_for_long_chat_turns():
    n = 5
    args = (np.ones((n, 1)), np.ones(1), np.zeros(n, dtype=bool))
    full = affinity_bonus(*args, advice=False)
    faded = affinity_bonus(*args, advice=False, lengths=np.array([60, 120, 130, 300, 500]))
    np.testing.assert_allclose(faded, full * np.array([1.0, 1.0, 1.0, 0.5, 0.0]))


def test_a_pool_of_chat_turns_takes_no_affinity():
    n = 3
    args = (np.ones((n, 1)), np.ones(1), np.ones(n, dtype=bool))
    assert not affinity_bonus(*args, advice=True, lengths=np.array([150, 560, 900])).any()  # median 560 chars


def test_a_rare_name_the_question_holds_still_ranks_first(minilm):
    engine = _engine(minilm)
    engine.add("u", ["User's physiotherapist is Dr. Okonkwo-Baptiste.", "User has a dentist appointment next Tuesday."])
    [first] = engine.recall("When am I seeing Dr. Okonkwo-Baptiste again?", "u", 1)
    assert first.content == "User's physiotherapist is Dr. Okonkwo-Baptiste."


def test_a_long_chat_turn_gets_no_affinity_in_explain(minilm):
    engine = _engine(minilm)
    long_turn = ("I was telling my sister about the trip we took last spring, " * 8).strip()
    engine.add("u", [long_turn])
    report = engine.explain("What should I have for lunch today?", "u", 20)
    assert next(c for c in report.candidates if c.content == long_turn).affinity == 0.0


def test_the_gates_score_band_does_not_read_the_affinity():
    from memori_core.ranking.pipeline import PoolScores, select

    cosine = np.array([0.5, 0.2])
    fused = cosine.copy()
    affinity = np.array([0.0, 0.1])  # lifts the second into the band (0.5 x best score) only with it
    scores = PoolScores(rows=np.arange(2), source=np.ones(2, dtype=np.int8), cosine=cosine, bm25=np.zeros(2),
                        lexical=np.zeros(2), fused=fused, bonus=affinity, rank_score=fused + affinity,
                        query_tokens=["lunch"], w_cos=0.65, w_lex=0.35, affinity=affinity)
    assert select(scores, 5, RecallConfig()).tolist() == [0]
    assert select(scores, 5, None).tolist() == [0, 1]  # ranked, not vouched for
