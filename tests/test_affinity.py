"""Affinity (ranking/affinity.py, docs/ranking.md item 38): a personal question's ranking reaches the care facts
and same-domain facts its words never meet, through the public recall API with the real embedder."""

from __future__ import annotations

import numpy as np
import pytest

from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.ranking.affinity import COSINE_SHARE, affinity_bonus, domain_shares

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


def test_memori_compat_has_no_affinity():
    assert RecallConfig.memori_compat().affinity_weight == 0.0
    assert RecallConfig().affinity_weight == 1.0


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


def test_affinity_bonus_moves_the_score_toward_the_cosine_and_adds_domain_and_care():
    rank_score, cosine = np.array([0.5, 0.2]), np.array([0.3, 0.2])
    domains = np.array([[1.0, 0.0], [0.0, 1.0]])
    question = np.array([0.0, 1.0])
    care = np.array([False, True])
    plain = affinity_bonus(rank_score, cosine, domains, question, care, advice=False)
    advice = affinity_bonus(rank_score, cosine, domains, question, care, advice=True)
    assert plain[0] == pytest.approx(COSINE_SHARE * (0.3 - 0.5))  # no shared domain, no care
    assert plain[1] > 0 and advice[1] > plain[1] and advice[0] == plain[0]
    assert not affinity_bonus(rank_score, cosine, domains, question, care, advice=True, weight=0.0).any()
