"""memori_core.ranking.pipeline: pool assembly, scoring, neighbour bonus and selection over plain arrays."""

from __future__ import annotations

import numpy as np
import pytest

from memori_core import RecallConfig
from memori_core.ranking import pipeline
from memori_core.ranking.lexical import bm25_pool


def chain_neighbours(n: int):
    """Rows 0..n-1 said in one session, in order: row r's neighbours are r-1 and r+1."""

    def lookup(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        before = np.where(rows > 0, rows - 1, -1)
        after = np.where(rows < n - 1, rows + 1, -1)
        return before.astype(np.int64), after.astype(np.int64)

    return lookup


def test_dense_top_skips_minus_inf_and_maps_positions_to_rows() -> None:
    cos = np.array([0.1, -np.inf, 0.9, 0.5], dtype=np.float32)
    assert pipeline.dense_top(cos, 3).tolist() == [2, 3, 0]
    assert pipeline.dense_top(cos, 10).tolist() == [2, 3, 0]
    assert pipeline.dense_top(cos, 2, rows=np.array([40, 41, 42, 43])).tolist() == [42, 43]


def test_pool_is_dense_then_new_lexical_then_neighbours_first_seen_first() -> None:
    pool = pipeline.assemble_pool(np.array([5, 9]), np.array([9, 2, 5, 14]), chain_neighbours(20))
    # Lexical-only rows 2 and 14 follow the dense rows; then the neighbours of 5, 9, 2, 14
    # in that order (before, then after), skipping rows already in.
    assert pool.rows.tolist() == [5, 9, 2, 14, 4, 6, 8, 10, 1, 3, 13, 15]
    both = pipeline.SOURCE_DENSE | pipeline.SOURCE_LEXICAL
    assert pool.source.tolist() == [both] * 2 + [pipeline.SOURCE_LEXICAL] * 2 + [pipeline.SOURCE_NEIGHBOUR] * 8
    assert [pipeline.source_label(int(f)) for f in pool.source[[0, 2, 4]]] == ["dense+lexical", "lexical", "neighbour"]
    # Links cover every pool row, the entrants included.
    assert pool.links is not None and pool.links.shape == (2, 12)
    assert pool.links[:, 4].tolist() == [3, 5] and pool.links[:, 0].tolist() == [4, 6]


def test_pool_without_lexical_rows_or_neighbours() -> None:
    pool = pipeline.assemble_pool(np.array([3, 1]))
    assert pool.rows.tolist() == [3, 1] and pool.source.tolist() == [pipeline.SOURCE_DENSE] * 2 and pool.links is None
    assert pipeline.assemble_pool(np.array([3, 1]), np.array([], dtype=np.int64)).rows.tolist() == [3, 1]


def test_scores_fuse_normalised_bm25_and_add_the_neighbour_bonus() -> None:
    cfg = RecallConfig(neighbour_weight=0.5)
    docs = [["tea"], ["milk"], ["tea", "tea"]]
    pool = pipeline.assemble_pool(np.array([0, 1, 2]), None, chain_neighbours(3))
    lex = bm25_pool(["tea"], docs, k1=cfg.k1, b=cfg.b)
    tf = np.array([[1.0], [0.0], [2.0]])
    dl = np.array([1.0, 1.0, 2.0])
    cosine = np.array([0.2, 0.6, 0.1], dtype=np.float32)
    s = pipeline.score_pool(pool, cosine, tf, dl, ["tea"], cfg)
    assert np.array_equal(s.bm25, lex.raw) and np.array_equal(s.lexical, lex.normalised)
    assert np.array_equal(s.fused, s.w_cos * cosine.astype(np.float64) + s.w_lex * lex.normalised)
    best_neighbour = np.array([s.fused[1], max(s.fused[0], s.fused[2]), s.fused[1]])
    np.testing.assert_array_equal(s.bonus, 0.5 * best_neighbour)
    np.testing.assert_array_equal(s.rank_score, s.fused + s.bonus)


def test_blank_query_ranks_by_cosine_alone() -> None:
    pool = pipeline.assemble_pool(np.array([0, 1]))
    s = pipeline.score_pool(pool, np.array([0.3, 0.7]), np.zeros((2, 0)), np.zeros(2), [], RecallConfig(),
                            has_text=False)
    assert s.rank_score.tolist() == [0.3, 0.7] and (s.w_cos, s.w_lex) == (1.0, 0.0)


@pytest.mark.parametrize(("limit", "threshold"), [(2, 0.5), (10, 0.5), (3, None), (1, 0.95)])
def test_fates_agree_with_select_under_the_threshold_gate(limit: int, threshold: float | None) -> None:
    pool = pipeline.assemble_pool(np.arange(6))
    s = pipeline.score_pool(pool, np.array([0.9, 0.2, 0.6, 0.6, 0.8, 0.1]), np.zeros((6, 0)), np.ones(6), [],
                            RecallConfig(), has_text=False)
    cfg = RecallConfig(gate="threshold", relevance_threshold=threshold) if threshold is not None else RecallConfig(
        gate="off")
    order, fate, decision = pipeline.fates(s, limit, cfg)
    assert order.tolist() == [0, 4, 2, 3, 1, 5]  # ties (2, 3) by pool order
    kept = [int(i) for i, f in zip(order, fate) if f == pipeline.KEPT]
    assert kept == pipeline.select(s, limit, cfg).tolist()
    assert kept == [i for i in order.tolist()[:limit] if threshold is None or s.rank_score[i] >= threshold]
    assert all(f == pipeline.BEYOND_LIMIT for f in fate[limit:])
    assert all(f in (pipeline.KEPT, pipeline.BELOW_THRESHOLD) for f in fate[:limit])
    assert decision.kind == ("off" if threshold is None else "threshold")


def test_second_hop_pool_links_two_turns_away_and_their_entrants() -> None:
    pool = pipeline.assemble_pool(np.array([5]), None, chain_neighbours(10), hops=2)
    assert pool.rows.tolist() == [5, 4, 6, 3, 7]
    assert pool.links is not None and pool.links.shape == (4, 5)
    assert pool.links[:, 0].tolist() == [4, 6, 3, 7]
    assert pool.links[:, 3].tolist() == [2, 4, 1, 5]  # row 3: before 2, after 4, two before 1, two after 5
    edge = pipeline.assemble_pool(np.array([0]), None, chain_neighbours(3), hops=2)
    assert edge.links is not None and edge.links[:, 0].tolist() == [-1, 1, -1, 2]


def test_smoothing_adds_second_hop_and_session_shares_scaled_down_for_long_facts() -> None:
    cfg = RecallConfig(neighbour_weight=0.4, second_neighbour_weight=0.15, session_weight=0.3, neighbour_length_ref=100)
    pool = pipeline.assemble_pool(np.array([0, 1, 2, 3]), None, chain_neighbours(4), hops=2)
    fused = np.array([0.8, 0.1, 0.2, -0.1])
    sessions = np.array([0, 0, 0, 1])  # row 3 alone in its session
    lengths = np.array([50.0, 50.0, 400.0, 50.0])
    bonus = pipeline.smoothing_bonus(pool.rows, fused, pool.links, cfg, sessions, lengths)
    expected = np.array([
        0.4 * 0.1 + 0.15 * 0.2 + 0.3 * 0.8,
        0.4 * 0.8 + 0.15 * 0.0 + 0.3 * 0.8,  # two after row 1 is row 3, whose fused is negative: lends nothing
        (0.4 * 0.1 + 0.15 * 0.8 + 0.3 * 0.8) * 100 / 400,
        0.4 * 0.2 + 0.15 * 0.1 + 0.0,  # its own session's best is negative
    ])
    np.testing.assert_allclose(bonus, expected, atol=1e-12)
    assert pipeline.session_best(fused, np.array([-1, 2, 2, 7])).tolist() == [0.0, 0.2, 0.2, 0.0]


def test_lexical_floor_keeps_a_one_word_match_of_a_three_word_query_from_being_perfect() -> None:
    tf = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]])  # one query word each
    dl = np.full(4, 2.0)
    pool = pipeline.assemble_pool(np.arange(4))
    plain = pipeline.score_pool(pool, np.zeros(4), tf, dl, ["a", "b", "c"], RecallConfig(lexical_floor=0.0))
    floored = pipeline.score_pool(pool, np.zeros(4), tf, dl, ["a", "b", "c"], RecallConfig(lexical_floor=0.5))
    assert plain.lexical.tolist() == pytest.approx([1.0, 1.0, 1.0, 0.0])
    # Each matches a third of the query's idf mass; the floor is half of it: 1/3 / 1/2.
    assert floored.lexical.tolist() == pytest.approx([2 / 3, 2 / 3, 2 / 3, 0.0])
    assert np.array_equal(floored.bm25, plain.bm25)


def _relevance_scores(cosine: list[float], rank: list[float]):
    pool = pipeline.assemble_pool(np.arange(len(cosine)))
    s = pipeline.score_pool(pool, np.array(cosine), np.zeros((len(cosine), 0)), np.ones(len(cosine)), [],
                            RecallConfig(), has_text=False)
    return s.__class__(**{**s.__dict__, "rank_score": np.array(rank), "fused": np.array(rank)})


def test_relevance_gate_stays_closed_when_no_cosine_reaches_gate_open() -> None:
    cfg = RecallConfig()
    s = _relevance_scores([0.30, 0.29, 0.1], [0.9, 0.8, 0.7])  # high scores from words alone do not open it
    order, fate, decision = pipeline.fates(s, 3, cfg)
    assert pipeline.select(s, 3, cfg).tolist() == [] and not decision.opened
    assert fate == [pipeline.GATE_CLOSED] * 3 and "closed" in decision.note


def test_tentative_gate_keeps_only_cosines_above_gate_keep() -> None:
    cfg = RecallConfig()
    s = _relevance_scores([0.35, 0.31, 0.30, 0.05], [0.6, 0.5, 0.55, 0.52])
    order, fate, decision = pipeline.fates(s, 4, cfg)
    assert decision.opened and not decision.confident
    assert pipeline.select(s, 4, cfg).tolist() == [0, 1] == [int(i) for i, f in zip(order, fate) if f == pipeline.KEPT]
    assert fate.count(pipeline.BELOW_GATE) == 2


def test_confident_gate_also_keeps_facts_within_the_band_of_the_best_score() -> None:
    cfg = RecallConfig()
    s = _relevance_scores([0.60, 0.10, 0.05, 0.02], [1.0, 0.55, 0.45, 0.2])
    order, fate, decision = pipeline.fates(s, 4, cfg)
    assert decision.confident
    assert pipeline.select(s, 4, cfg).tolist() == [0, 1]  # 0.55 >= 0.5 x 1.0 through its words / session; 0.45 is not
    assert fate[:4] == [pipeline.KEPT, pipeline.KEPT, pipeline.BELOW_GATE, pipeline.BELOW_GATE]


def test_relevance_threshold_none_turns_the_relevance_gate_off() -> None:
    s = _relevance_scores([0.1, 0.05], [0.1, 0.05])
    assert pipeline.select(s, 2, RecallConfig(gate="off")).tolist() == [0, 1]
    assert pipeline.select(s, 2, RecallConfig()).tolist() == []


def _scores_with_words(cosine: list[float], lexical: list[float], bm25: list[float]):
    s = _relevance_scores(cosine, [0.65 * c + 0.35 * x for c, x in zip(cosine, lexical)])
    return s.__class__(**{**s.__dict__, "lexical": np.array(lexical), "bm25": np.array(bm25)})


def test_a_fact_holding_the_querys_informative_words_opens_the_gate_and_is_kept() -> None:
    cfg = RecallConfig()
    s = _scores_with_words([0.27, 0.20, 0.26], [1.0, 0.1, 0.5], [3.2, 0.3, 1.6])
    order, fate, decision = pipeline.fates(s, 3, cfg)
    assert decision.opened and "kept by their words" in decision.note
    assert pipeline.select(s, 3, cfg).tolist() == [0]  # 0.26 matches half the words: not enough


def test_words_common_to_the_candidates_or_an_unrelated_meaning_cannot_open_the_gate() -> None:
    cfg = RecallConfig()
    common = _scores_with_words([0.27, 0.2], [1.0, 1.0], [0.2, 0.2])  # full match, but on a word every fact has
    assert pipeline.select(common, 2, cfg).tolist() == [] and not pipeline.fates(common, 2, cfg)[2].opened
    unrelated = _scores_with_words([0.1, 0.05], [1.0, 0.0], [4.0, 0.0])  # the words, but nothing of the meaning
    assert pipeline.select(unrelated, 2, cfg).tolist() == []


def test_in_a_new_users_tiny_memory_a_word_held_by_one_fact_can_open_the_gate() -> None:
    from memori_core.ranking.gate import decide, words_bm25_bar
    from memori_core.ranking.lexical import bm25_idf

    cfg = RecallConfig()
    # "Where do I live?" over "User lives in Lyon." + "User is vegetarian.": only "live" is left of the query,
    # held by one fact of two, so its BM25 is about ln 2 = 0.69, below the bar of large memories (1.0).
    rarest_of_two = float(bm25_idf(2.0, 1.0))
    scores = _scores_with_words([0.27, 0.04], [1.0, 0.0], [0.95 * rarest_of_two, 0.0])
    assert pipeline.select(scores, 2, cfg).tolist() == [0]
    # The same scores from a large pool are a word that many facts hold: the bar is not lowered there.
    args = (np.array([0.27, 0.04]), np.array([0.52, 0.03]), cfg, np.array([1.0, 0.0]), np.array([0.66, 0.0]))
    assert not decide(*args, pool_size=50).opened and decide(*args, pool_size=2).opened
    assert words_bm25_bar(cfg, 50) == cfg.gate_words_bm25 and words_bm25_bar(cfg, None) == cfg.gate_words_bm25
    assert [round(words_bm25_bar(cfg, n), 3) for n in (1, 2, 3, 4, 5)] == [
        round(min(1.0, 0.8 * float(bm25_idf(float(n), 1.0))), 3) for n in (1, 2, 3, 4, 5)
    ]
    assert words_bm25_bar(cfg, 5) == cfg.gate_words_bm25  # from five facts on, the usual bar


def test_neighbour_hops_follow_the_smoothing_weights() -> None:
    assert pipeline.neighbour_hops(RecallConfig()) == 2
    assert pipeline.neighbour_hops(RecallConfig(second_neighbour_weight=0.0)) == 1
    # the session prior still reads one hop
    assert pipeline.neighbour_hops(RecallConfig(second_neighbour_weight=0.0, neighbour_weight=0.0)) == 1
    assert pipeline.neighbour_hops(RecallConfig.memori_compat()) == 0


def test_the_gates_bm25_leaves_out_the_words_of_asking_and_the_ranking_keeps_them() -> None:
    from memori_core.ranking.asking import gate_columns

    cfg = RecallConfig()
    terms = ["suggest", "podcast", "tri"]  # "Can you suggest a podcast to try?", stemmed
    assert gate_columns(terms, cfg.tokenizer, cfg.stemmer).tolist() == [False, True, False]
    assert gate_columns(["podcast", "jazz"], cfg.tokenizer, cfg.stemmer) is None
    # fact 0 holds "try" twice ("I try to ... and try again"), fact 1 "podcast", the rest neither
    tf = np.zeros((8, 3))
    tf[0, 2], tf[1, 1] = 2.0, 1.0
    dl = np.full(8, 6.0)
    pool = pipeline.assemble_pool(np.arange(8))
    cosine = np.full(8, 0.27)  # above the words rule's cosine guard, below gate_keep
    s = pipeline.score_pool(pool, cosine, tf, dl, terms, cfg)
    assert s.bm25[0] > s.bm25[1] > 0 and s.lexical[0] == 1.0  # the ranking reads "try"
    assert s.gate_bm25 is not None and s.gate_lexical is not None
    assert s.gate_bm25[0] == 0.0 and s.gate_lexical[1] == 1.0  # the gate does not
    assert pipeline.select(s, 5, cfg).tolist() == [1]  # only the fact holding the question's topic opens the gate
