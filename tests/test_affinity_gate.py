"""Affinity and the relevance gate (docs/ranking.md item 41): affinity orders the pool, and what it pushes below the
limit that the gate passes without it is still injected, through the public recall API with the real embedder and
over the pipeline's arrays."""

from __future__ import annotations

import numpy as np
import pytest

from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.ranking.pipeline import BEYOND_LIMIT, KEPT, PoolScores, fates, gate_rows, select

FACTS = [
    "I'm very short-sighted and wear contact lenses.", "I have ADHD and take methylphenidate in the mornings.",
    "I'm allergic to penicillin.", "I sleep badly if I eat late.", "I'm trying to cut down on screen time in the evenings.",
    "I want to switch to a four-day week next year.", "I'm vegan.", "I work as a backend developer, fully remote.",
    "I go bouldering three times a week.", "My sister is getting married in Lisbon in June.",
    "I play piano, mostly jazz standards.", "I get around by tram and bike.",
]
DRY_EYES = "My eyes feel really dry after a long day at the screen."
LENSES = "I'm very short-sighted and wear contact lenses."


def _engine(minilm, weight: float) -> RecallEngine:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm, config=RecallConfig(affinity_weight=weight))
    engine.add("u", FACTS)
    return engine


def test_a_fact_the_gate_passes_stays_injected_when_affinity_ranks_it_sixth(minilm):
    # Affinity ranks the medication, the allergy and the late meals above the lenses (cosine 0.365, above
    # gate_keep), which fell to sixth, beyond the limit, and out of the prompt.
    without = [f.content for f in _engine(minilm, 0.0).recall(DRY_EYES, "u", 5)]
    engine = _engine(minilm, 1.0)
    report = engine.explain(DRY_EYES, "u", 5)
    lenses = next(c for c in report.candidates if c.content == LENSES)
    assert LENSES in without
    assert lenses.rank > 5 and lenses.kept and lenses.reason == KEPT
    assert [f.content for f in engine.recall(DRY_EYES, "u", 5)] == [c.content for c in report.candidates if c.kept]
    assert "without affinity" in report.gate_note


def test_a_question_about_the_world_keeps_what_it_kept_with_affinity_on(minilm):
    question = "What is the capital of Australia?"
    assert engine_ids(_engine(minilm, 1.0), question) == engine_ids(_engine(minilm, 0.0), question) == []


def engine_ids(engine: RecallEngine, question: str) -> list[str]:
    return [f.id for f in engine.recall(question, "u", 5)]


def _scores(cosine: list[float], affinity: list[float]) -> PoolScores:
    cos = np.array(cosine)
    add = np.array(affinity)
    n = cos.shape[0]
    return PoolScores(rows=np.arange(n), source=np.ones(n, dtype=np.int8), cosine=cos, bm25=np.zeros(n),
                      lexical=np.zeros(n), fused=cos.copy(), bonus=add, rank_score=cos + add,
                      query_tokens=["lunch"], w_cos=0.65, w_lex=0.35, affinity=add)


def test_select_keeps_what_the_gate_passes_of_the_limit_best_without_affinity():
    # Row 0 passes the gate (cosine 0.4 >= gate_keep 0.31); affinity lifts rows 1 and 2 above it, out of a limit of 2.
    scores = _scores([0.40, 0.20, 0.18, 0.05], [0.0, 0.25, 0.25, 0.0])
    assert select(scores, 2, RecallConfig()).tolist() == [0]
    order, fate, decision = fates(scores, 2, RecallConfig())
    assert order.tolist() == [1, 2, 0, 3]
    assert fate == ["below gate", "below gate", KEPT, BEYOND_LIMIT]
    assert decision.opened and "without affinity" in decision.note


def test_affinitys_kept_entrants_only_fill_what_is_left_of_the_limit():
    # With affinity the two best are rows 3 (dropped) and 1 (kept, cosine 0.32); without it rows 0 and 2, both
    # passing: they come first, and at a limit of 2 leave row 1 no room.
    scores = _scores([0.40, 0.32, 0.36, 0.10], [0.0, 0.3, 0.0, 0.6])
    assert select(scores, 2, RecallConfig()).tolist() == [0, 2]
    kept = select(scores, 3, RecallConfig())
    assert kept.tolist() == [1, 0, 2]  # in rank order, the limit never exceeded


@pytest.mark.parametrize("config", [None, RecallConfig(gate="off"), RecallConfig(gate="threshold")])
def test_without_the_relevance_gate_affinity_alone_orders_the_limit_best(config):
    scores = _scores([0.40, 0.20, 0.18, 0.05], [0.0, 0.25, 0.25, 0.0])
    kept = select(scores, 2, config).tolist()
    assert 0 not in kept


def test_the_gate_reads_the_signals_of_both_limit_best():
    scores = _scores([0.40, 0.20, 0.18, 0.05], [0.0, 0.25, 0.25, 0.0])
    assert sorted(gate_rows(scores, 2).tolist()) == [0, 1, 2]
    assert gate_rows(_scores([0.4, 0.2], [0.0, 0.0]), 1).tolist() == [0]


@pytest.mark.parametrize("seed", range(40))
def test_explains_kept_facts_are_recalls_with_affinity_and_the_spread_cut_both_on(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 12))
    cosine = rng.uniform(0.0, 0.7, n).round(3).tolist()
    affinity = np.where(rng.random(n) < 0.4, rng.uniform(0.0, 0.6, n), 0.0).round(3).tolist()
    config = RecallConfig(gate_spread=float(rng.choice([0.05, 0.1, 0.2])))
    limit = int(rng.integers(1, 6))
    scores = _scores(cosine, affinity)
    order, fate, _ = fates(scores, limit, config)
    kept = {int(r) for r, f in zip(order.tolist(), fate) if f == KEPT}
    assert kept == set(select(scores, limit, config).tolist())
    assert len(kept) <= limit
