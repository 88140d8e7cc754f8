"""benchmarks/need_cause_study.py (docs/ranking.md item 49): how it files a turn with needs under the gate or
the ranking."""

from __future__ import annotations

from types import ModuleType

import pytest

from _helpers import benchmark_script


@pytest.fixture(scope="module")
def study() -> ModuleType:
    return benchmark_script("need_cause_study")


RANKED = [f"f{i}" for i in range(1, 31)]


def test_a_needed_fact_injected_and_in_the_ungated_five_is_kept(study):
    assert study.classify({"f2"}, ["f2"], RANKED[:5], RANKED) == "kept"


def test_a_needed_fact_injected_from_below_the_ungated_five_is_brought(study):
    assert study.classify({"f9"}, ["f1", "f9"], RANKED[:5], RANKED) == "brought"


def test_an_injected_needed_fact_counts_as_kept_when_another_needed_one_is_in_the_five(study):
    # the ungated five held a needed fact, so the ranking alone would have had the turn
    assert study.classify({"f3", "f9"}, ["f9"], RANKED[:5], RANKED) == "kept"


def test_a_needed_fact_in_the_ungated_five_that_nothing_injects_is_lost_by_the_gate(study):
    assert study.classify({"f4"}, ["f1"], RANKED[:5], RANKED) == "gate"
    assert study.classify({"f4"}, [], RANKED[:5], RANKED) == "gate"


@pytest.mark.parametrize(("rank", "label"), [(7, "rank@6-10"), (15, "rank@11-20"), (25, "rank@21-30")])
def test_a_needed_fact_below_the_five_is_filed_by_its_best_ungated_rank(study, rank, label):
    assert study.classify({f"f{rank}", "f29"}, ["f1"], RANKED[:5], RANKED) == label


def test_a_needed_fact_outside_the_ungated_depth_is_rank_beyond_30(study):
    assert study.classify({"f99"}, [], RANKED[:5], RANKED) == "rank>30"


def test_config_values_are_read_as_booleans_numbers_or_none(study):
    assert study._value("false") is False
    assert study._value("0.08") == 0.08
    assert study._value("None") is None
    assert study._value("relevance") == "relevance"
