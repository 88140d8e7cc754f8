"""With ``gate_implied_yield``, facts ranked into the ``limit`` best by an implication do not push out a fact the
gate keeps confidently on its own cosine (``pipeline.limit_best``, docs/ranking.md item 53); on by default."""

from __future__ import annotations

import numpy as np
import pytest

from memori_core import InMemoryFactStore, RecallConfig, RecallEngine
from memori_core.ranking.fusion import with_included
from memori_core.ranking.judged import judge_pool
from memori_core.ranking.pipeline import PoolScores, fates_with_rules, limit_best, select, select_with_rules


def _pool(cosine: list[float], implied: list[bool], *, general: bool = False) -> PoolScores:
    """A pool ranked by its cosines (no words), with ``implied`` rows marked."""
    cos = np.array(cosine)
    n = cos.shape[0]
    return PoolScores(
        rows=np.arange(n), source=np.ones(n, dtype=np.int8), cosine=cos, bm25=np.zeros(n), lexical=np.zeros(n),
        fused=0.65 * cos, bonus=np.zeros(n), rank_score=0.65 * cos, query_tokens=["q"], w_cos=0.65, w_lex=0.35,
        implied=np.array(implied), general=general,
    )


YIELD = RecallConfig(gate_implied_yield=True)

# Row 0 is about the question (0.48); rows 1-2 are near it by chance; rows 3-7 are five facts of one concern
# the question's words touch ("clinic": every allergy and medicine), with cosines near nothing.
COSINES = [0.48, 0.25, 0.2, 0.1, 0.05, 0.03, 0.02, 0.01]
IMPLIED = [False, False, False, True, True, True, True, True]


def test_five_implied_facts_no_longer_push_out_a_fact_of_confident_cosine():
    kept = select(_pool(COSINES, IMPLIED), 5, YIELD).tolist()
    assert kept[0] == 0  # main: [3, 4, 5, 6, 7], the fact about the question ranked sixth and never read
    assert kept[1:] == [3, 4, 5, 6]  # the implied facts fill the rest, best ranked first


def test_on_by_default_and_switched_off_the_implied_facts_take_the_places_as_before():
    assert RecallConfig().gate_implied_yield is True
    assert select(_pool(COSINES, IMPLIED), 5, RecallConfig()).tolist()[0] == 0
    off = RecallConfig(gate_implied_yield=False)
    assert select(_pool(COSINES, IMPLIED), 5, off).tolist() == [3, 4, 5, 6, 7]


def test_the_switch_is_a_bool_from_the_constructor_and_the_environment(monkeypatch):
    with pytest.raises(TypeError, match="gate_implied_yield"):
        RecallConfig(gate_implied_yield=1)
    monkeypatch.setenv("MEMORI_RECALL_GATE_IMPLIED_YIELD", "on")
    assert RecallConfig.from_env().gate_implied_yield is True


def test_a_fact_below_the_confident_cosine_still_gives_way_to_implied_facts():
    weaker = [0.40, *COSINES[1:]]  # kept by gate_keep (0.31) when read, but not a confident match
    assert select(_pool(weaker, IMPLIED), 5, YIELD).tolist() == [3, 4, 5, 6, 7]


def test_the_third_person_lift_counts_towards_the_confident_cosine():
    scores = _pool([0.40, *COSINES[1:]], IMPLIED)
    lift = np.zeros(len(COSINES))
    lift[0] = 0.05  # "User's furnace ..." for a personal question: 0.45 >= gate_confident
    lifted = PoolScores(**{**scores.__dict__, "lift": lift})
    assert select(lifted, 5, YIELD)[0] == 0


def test_explain_reports_the_same_facts_and_rules_as_recall_when_a_fact_holds_its_place():
    scores, cfg = _pool(COSINES, IMPLIED), YIELD
    rows, codes = select_with_rules(scores, 5, cfg)
    order, fate, rules, _ = fates_with_rules(scores, 5, cfg)
    kept = [k for k, f in enumerate(fate) if f == "kept"]
    assert order[kept].tolist() == rows.tolist()
    assert [rules[k] for k in kept] == ["cosine", "implied", "implied", "implied", "implied"]


def test_without_the_relevance_gate_implied_rows_are_ranked_in_as_before():
    assert select(_pool(COSINES, IMPLIED), 5, RecallConfig(gate="off")).tolist() == [3, 4, 5, 6, 7]
    assert limit_best(_pool(COSINES, IMPLIED), 5, None).tolist() == [3, 4, 5, 6, 7]


def test_a_general_question_reads_the_limit_best_as_before():
    assert limit_best(_pool(COSINES, IMPLIED, general=True), 5, YIELD).tolist() == [3, 4, 5, 6, 7]
    assert limit_best(_pool(COSINES, IMPLIED), 5, YIELD).tolist() == [0, 3, 4, 5, 6]


def test_with_included_keeps_held_rows_and_gives_the_included_only_the_others_places():
    order = np.arange(8)
    include = np.array(IMPLIED)
    assert with_included(order, 5, include).tolist() == [3, 4, 5, 6, 7]
    assert with_included(order, 5, include, held=np.array([0])).tolist() == [0, 3, 4, 5, 6]
    assert with_included(order, 5, include, held=np.array([0, 2])).tolist() == [0, 2, 3, 4, 5]
    few = np.array([False, False, False, True, False, False, False, False])
    assert with_included(order, 3, few, held=np.array([2])).tolist() == [0, 2, 3]  # the best other fills the rest
    assert with_included(order, 0, include, held=np.array([0])).tolist() == []


@pytest.mark.model
def test_a_noise_from_the_boiler_recalls_the_old_boiler_among_health_facts_with_minilm(minilm):
    facts = ["User's boiler is 20 years old and failed its last safety check.", "User is allergic to penicillin.",
             "User takes metformin for type 2 diabetes.", "User's son Leo has asthma and uses an inhaler.",
             "User has coeliac disease.", "User's daughter Mia is allergic to eggs.", "User lives in Leeds.",
             "User plays five-a-side football on Thursdays.", "User's partner is called Sam.",
             "User rents a flat on the third floor."]
    question = "The boiler is making a banging noise when it starts. Should I be worried?"
    recalled = {}
    for on in (False, True):
        eng = RecallEngine(store=InMemoryFactStore(), embedder=minilm, config=RecallConfig(gate_implied_yield=on))
        eng.add("ann", facts)
        recalled[on] = [f.content for f in eng.recall(question, "ann")]
    assert facts[0] not in recalled[False]  # five health facts the noise implies ("clinic") took the five places
    assert facts[0] in recalled[True]


# Rows 0-4 are confident keeps on their own cosine; row 9 is the one implied care fact ("peanut" for "Can I have
# satay?"), ranked far below them.
CONFIDENT = [0.62, 0.60, 0.58, 0.57, 0.55, 0.30, 0.29, 0.28, 0.27, 0.26]
ONE_IMPLIED = [False] * 9 + [True]


@pytest.mark.parametrize("limit, kept", [(1, [9]), (2, [0, 9]), (5, [0, 1, 2, 3, 9])])
def test_confident_facts_filling_the_limit_still_leave_one_place_for_the_implied_fact(limit, kept):
    scores = _pool(CONFIDENT, ONE_IMPLIED)
    assert limit_best(scores, limit, YIELD).tolist() == kept  # main: the confident ones took every place
    assert select(scores, limit, YIELD)[-1] == 9


def test_the_held_facts_kept_when_the_limit_is_short_are_the_strongest():
    implied = [False] * 5 + [True] * 5  # five implied rows: only the best of them gets in
    assert limit_best(_pool(CONFIDENT, implied), 5, YIELD).tolist() == [0, 1, 2, 3, 5]


def test_the_judge_is_shown_the_facts_the_gate_holds_in_place_and_the_best_implied_ones():
    implied = [False] * 5 + [True] * 5
    scores = _pool(CONFIDENT, implied)
    cfg = RecallConfig(gate_implied_yield=True, judge_candidates=8)
    gate_reads = limit_best(scores, 5, cfg).tolist()
    shown = judge_pool(scores, 5, cfg).tolist()
    assert set(gate_reads) <= set(shown)  # main showed [0, 1, 2, 5, 6, 7, 8, 9]: held row 3 never judged
    assert shown == [0, 1, 2, 3, 5, 6, 7, 8]
    off = RecallConfig(gate_implied_yield=False, judge_candidates=8)
    assert judge_pool(scores, 5, off).tolist() == [0, 1, 2, 5, 6, 7, 8, 9]


def test_the_everyday_vocabulary_vouches_only_within_the_limit_best_the_gate_reads_with_the_held_facts():
    # rev37c (docs/ranking.md item 58): the vocabulary's `within` was the limit best without the facts the yield
    # holds, so at limit 3 it vouched for the orchid fact, which then pushed out a fact the name rule brought in
    from dataclasses import replace

    from memori_core.ranking.implications import with_implied
    texts = ["User grows orchids on a north-facing windowsill.", "User's repotting mix comes from Kew.",
             "User likes tea.", "User's neighbour Bruno is a florist.", "Bruno is away in May."]
    cos = np.array([0.40, 0.50, 0.20, 0.10, 0.05])
    scores = replace(_pool(cos.tolist(), [False] * 5), implied=None, rank_score=np.array([0.9, 0.8, 0.7, 0.3, 0.2]))
    implied = with_implied("Can Bruno help me repot my orchids?", scores, lambda: texts, limit=3, config=YIELD)
    assert implied.implied.tolist() == [False, False, False, True, True]  # main: the orchid fact vouched for too
    kept = select(implied, 3, YIELD).tolist()
    assert sorted(kept) == [1, 3, 4]  # the confident fact held, both of Bruno's brought in
