"""memori_core.rerank (memori_core/ranking/rerank.py): the engine's ranking applied to (content, cosine) candidates from elsewhere."""

from __future__ import annotations

import math

import pytest

from _helpers import USER_FACTS
from memori_core import RecallConfig, RecallEngine
from memori_core.ranking.fusion import fusion_weights
from memori_core import rerank

TEXTS = ["Lives in New York City.", "Favorite color is blue.", "Likes pizza with extra cheese."]
SCORES = [0.9, 0.8, 0.7]


def test_worked_example_blue_first_with_086() -> None:
    ranked = rerank("blue", TEXTS, SCORES, limit=5, config=RecallConfig.memori_compat())
    assert [r.index for r in ranked] == [1, 0, 2]
    assert ranked[0].rank_score == pytest.approx(0.7 * 0.8 + 0.3 * 1.0, abs=1e-12)
    assert ranked[0].rank_score == pytest.approx(0.86, abs=1e-12)
    assert (ranked[0].lexical, ranked[1].lexical, ranked[2].lexical) == (1.0, 0.0, 0.0)
    assert ranked[1].rank_score == pytest.approx(0.7 * 0.9)


def test_default_config_uses_its_short_query_weights() -> None:
    cfg = RecallConfig()
    w_cos, w_lex = fusion_weights(1, cfg)
    ranked = rerank("blue", TEXTS, SCORES, limit=5, config=cfg)
    assert ranked[0].index == 1
    assert ranked[0].rank_score == pytest.approx(w_cos * 0.8 + w_lex * 1.0)


def test_ranking_matches_the_engine_on_the_same_candidates(engine: RecallEngine) -> None:
    facts = list(USER_FACTS)
    engine.add("u", facts)
    query = "what food allergy do I have"
    report = engine.explain(query, "u", limit=len(facts))
    contents = [c.content for c in report.candidates]
    cosines = [c.cosine for c in report.candidates]
    expected = engine.recall(query, "u", limit=3)

    ranked = rerank(query, contents, cosines, limit=3, config=engine.config)
    assert [contents[r.index] for r in ranked] == [f.content for f in expected]
    for r, f in zip(ranked, expected):
        assert r.rank_score == pytest.approx(f.rank_score, abs=1e-6)
        assert r.lexical == pytest.approx(f.lexical, abs=1e-9)


# 60 candidates with slowly falling cosines; only the weakest one has the query word.
POOL_TEXTS = [f"note number {i}" for i in range(59)] + ["favorite color blue"]
POOL_SCORES = [0.5 - 0.001 * i for i in range(60)]


def test_dense_pool_is_sized_like_the_engines() -> None:
    dense = RecallConfig(pool="dense", gate="off")
    # limit 1 -> pool max(1, min(60, max(10, 50))) = 50: the last candidate is never scored.
    assert rerank("blue", POOL_TEXTS, POOL_SCORES, limit=1, config=dense)[0].index == 0
    # A larger floor brings it into the pool, where its words win.
    wider = dense.replace(candidate_floor=60)
    assert rerank("blue", POOL_TEXTS, POOL_SCORES, limit=1, config=wider)[0].index == 59


def test_union_pool_adds_the_best_lexical_candidates_like_the_engine() -> None:
    union = RecallConfig(pool="union", gate="off")
    best = rerank("blue", POOL_TEXTS, POOL_SCORES, limit=1, config=union)[0]
    assert best.index == 59 and best.lexical == 1.0


def test_blank_query_ranks_by_cosine_alone() -> None:
    ranked = rerank("  ", TEXTS, [0.2, 0.6, 0.4], limit=2, config=RecallConfig())
    assert [r.index for r in ranked] == [1, 2]
    assert [r.rank_score for r in ranked] == [0.6, 0.4]
    assert all(r.lexical == 0.0 and r.bm25 == 0.0 for r in ranked)


def test_missing_or_non_finite_scores_count_as_zero_cosine() -> None:
    ranked = rerank("pizza", TEXTS, [None, math.nan, None], limit=3, config=RecallConfig(gate="off"))
    assert ranked[0].index == 2
    assert [r.cosine for r in ranked] == [0.0, 0.0, 0.0]
    w_cos, w_lex = fusion_weights(1, RecallConfig())
    assert ranked[0].rank_score == pytest.approx(w_lex)


@pytest.mark.parametrize("cfg", [
    RecallConfig(gate="threshold", relevance_threshold=0.5),  # rank scores <= 0.65 x 0.2 + 0.35 x 1 < 0.5
    RecallConfig(),  # the relevance gate: no cosine reaches gate_open
], ids=["threshold-gate", "relevance-gate"])
def test_gate_drops_weak_candidates_unless_disabled(cfg: RecallConfig) -> None:
    assert [r.index for r in rerank("cheese", TEXTS, [0.1, 0.1, 0.2], limit=3, config=cfg)] == []
    kept = rerank("cheese", TEXTS, [0.1, 0.1, 0.2], limit=3, config=cfg, apply_threshold=False)
    assert [r.index for r in kept] == [2, 0, 1]


def test_ties_keep_input_order() -> None:
    cfg = RecallConfig(gate="off")
    ranked = rerank("zebra", ["a one", "b two", "c three"], [0.5, 0.5, 0.5], limit=3, config=cfg)
    assert [r.index for r in ranked] == [0, 1, 2]


def test_limit_zero_or_no_candidates_gives_nothing() -> None:
    assert rerank("blue", TEXTS, SCORES, limit=0) == []
    assert rerank("blue", [], [], limit=5) == []


def test_limit_defaults_to_the_configs() -> None:
    texts = [f"blue thing {i}" for i in range(10)]
    assert len(rerank("blue", texts, [0.5] * 10, config=RecallConfig(limit=4))) == 4


def test_mismatched_inputs_are_rejected() -> None:
    with pytest.raises(ValueError, match="3 contents but 2 cosines"):
        rerank("blue", TEXTS, [0.1, 0.2])
    with pytest.raises(TypeError, match=r"contents\[1\]"):
        rerank("blue", ["ok", None], [0.1, 0.2])  # type: ignore[list-item]


def test_a_care_fact_the_question_implies_is_kept_whatever_its_score_as_in_the_engine() -> None:
    contents = ["User's shed is painted green.", "User has coeliac disease.", "User likes the garden."]
    cosines = [0.32, 0.05, 0.20]
    question = "Can I have a beer at the pub on Friday?"
    kept = [contents[h.index] for h in rerank(question, contents, cosines, limit=2)]
    assert "User has coeliac disease." in kept and len(kept) <= 2
    plain = rerank(question, contents, cosines, limit=2, config=RecallConfig(gate_implied=False))
    assert "User has coeliac disease." not in [contents[h.index] for h in plain]
    ungated = rerank(question, contents, cosines, limit=2, apply_threshold=False)
    assert [contents[h.index] for h in ungated] == [contents[0], contents[2]]  # no gate: rank order only
