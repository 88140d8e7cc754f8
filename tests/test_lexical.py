"""BM25 over the candidate pool and the fusion weights (docs/ranking.md, section 3)."""

from __future__ import annotations

import math
import random
import warnings

import numpy as np
import pytest

from _bm25 import reference_bm25
from memori_core.config import RecallConfig
from memori_core.ranking.fusion import fusion_weights
from memori_core.ranking.lexical import bm25_pool, unique_terms


VOCAB = [f"w{i}" for i in range(12)]


def _random_pool(rng: random.Random) -> tuple[list[str], list[list[str]]]:
    docs = [[rng.choice(VOCAB) for _ in range(rng.randint(0, 15))] for _ in range(rng.randint(1, 60))]
    query = unique_terms([rng.choice(VOCAB + ["absent"]) for _ in range(rng.randint(0, 5))])
    return query, docs


def test_bm25_matches_the_reference_formula_on_random_pools():
    rng = random.Random(5)
    matched = 0
    for _ in range(500):
        query, docs = _random_pool(rng)
        k1 = rng.choice([1.2, 0.0, 2.0, rng.uniform(0, 3)])
        b = rng.choice([0.75, 0.0, 1.0, 0.4, rng.uniform(0, 1)])
        got = bm25_pool(query, docs, k1=k1, b=b)
        want = reference_bm25(query, docs, k1, b)
        np.testing.assert_allclose(got.raw, want, rtol=1e-12, atol=1e-12)
        top = max(want)
        if top > 0:
            matched += 1
            np.testing.assert_allclose(got.normalised, [s / top for s in want], rtol=1e-12, atol=1e-12)
            assert got.normalised.max() == pytest.approx(1.0)
            assert got.normalised.min() >= 0.0
        else:
            assert not got.normalised.any()
    assert matched > 300  # most pools had a match, the normalisation was exercised


def test_bm25_known_values():
    # Two docs, term "coffee" in one of them: df = 1, N = 2, idf = ln(1 + 1.5 / 1.5) = ln 2.
    docs = [["coffee", "tea"], ["milk", "tea", "sugar", "honey"]]
    got = bm25_pool(["coffee"], docs, k1=1.2, b=0.75)
    avgdl = 3.0
    expected = math.log(2) * 1 * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 2 / avgdl))
    assert got.raw[0] == pytest.approx(expected)
    assert got.raw[1] == 0.0
    assert list(got.normalised) == [1.0, 0.0]


def test_bm25_term_in_every_document_still_scores_positive():
    # ln(1 + (N - df + 0.5)/(df + 0.5)) stays > 0 when df == N (no negative idf).
    got = bm25_pool(["tea"], [["tea"], ["tea", "milk"], ["tea", "tea"]], k1=1.2, b=0.75)
    assert (got.raw > 0).all()
    assert got.normalised.max() == 1.0


def test_bm25_repeats_count_in_tf_and_length():
    got = bm25_pool(["tea"], [["tea"], ["tea", "tea"], ["tea", "milk"]], k1=1.2, b=0.0)
    # With b = 0 the length does not matter; tf 2 beats tf 1.
    assert got.raw[1] > got.raw[0] == pytest.approx(got.raw[2])
    got = bm25_pool(["tea"], [["tea"], ["tea", "milk", "sugar"]], k1=1.2, b=1.0)
    assert got.raw[0] > got.raw[1]  # the shorter document wins with full length normalisation


@pytest.mark.parametrize(
    ("query", "docs"),
    [
        ([], [["coffee"], ["tea"]]),  # no query terms
        (["absent"], [["coffee"], ["tea"]]),  # no document contains a query term
        (["coffee"], [[], [], []]),  # every document empty: avgdl 0
        (["coffee"], [[]]),  # a single empty document
    ],
)
def test_bm25_all_zero_cases(query, docs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no division-by-zero or invalid-value warnings
        got = bm25_pool(query, docs, k1=1.2, b=0.75)
    assert got.raw.shape == got.normalised.shape == (len(docs),)
    assert not got.raw.any() and not got.normalised.any()


def test_bm25_empty_pool():
    got = bm25_pool(["coffee"], [], k1=1.2, b=0.75)
    assert got.raw.shape == (0,) and got.normalised.shape == (0,)


def test_bm25_empty_document_beside_long_ones():
    # An empty document (dl 0) in a pool with avgdl > 0 scores 0 and does not disturb the others.
    docs = [[], ["coffee"], ["coffee"] + ["x"] * 20]
    got = bm25_pool(["coffee"], docs, k1=1.2, b=0.75)
    np.testing.assert_allclose(got.raw, reference_bm25(["coffee"], docs, 1.2, 0.75))
    assert got.raw[0] == 0.0 and got.raw[1] > got.raw[2] > 0


def test_unique_terms_keeps_first_occurrence_order():
    assert unique_terms(["b", "a", "b", "c", "a"]) == ["b", "a", "c"]
    assert unique_terms([]) == []


# -- fusion weights -------------------------------------------------------


@pytest.mark.parametrize(
    ("tokens", "expected"),
    [(0, (0.70, 0.30)), (1, (0.70, 0.30)), (2, (0.70, 0.30)), (3, (0.85, 0.15)), (40, (0.85, 0.15))],
)
def test_fusion_weights_short_and_long_queries(tokens, expected):
    assert fusion_weights(tokens, RecallConfig.memori_compat()) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("lex_weight", "lex_weight_short", "long_w", "short_w"),
    [
        (0.9, 0.01, 0.40, 0.05),  # both outside: clamped
        (0.0, 1.0, 0.05, 0.40),
        (0.40, 0.05, 0.40, 0.05),  # on the bounds: kept
        (0.2, 0.33, 0.2, 0.33),
    ],
)
def test_fusion_weights_are_clamped(lex_weight, lex_weight_short, long_w, short_w):
    cfg = RecallConfig.memori_compat(lex_weight=lex_weight, lex_weight_short=lex_weight_short)
    assert fusion_weights(5, cfg) == pytest.approx((1 - long_w, long_w))
    assert fusion_weights(1, cfg) == pytest.approx((1 - short_w, short_w))


def test_fusion_weights_follow_config_knobs():
    cfg = RecallConfig(short_query_max_tokens=4, weight_clamp=(0.0, 1.0), lex_weight=0.9, lex_weight_short=0.0)
    assert fusion_weights(4, cfg) == pytest.approx((1.0, 0.0))
    assert fusion_weights(5, cfg) == pytest.approx((0.1, 0.9))
    cfg = RecallConfig.memori_compat(short_query_max_tokens=0)
    assert fusion_weights(0, cfg) == pytest.approx((0.70, 0.30))
    assert fusion_weights(1, cfg) == pytest.approx((0.85, 0.15))
