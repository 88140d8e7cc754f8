"""benchmarks/affinity_gate_study.py (docs/ranking.md item 41): its AUC and the rows it reads off a dump."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

from _helpers import benchmark_script


@pytest.fixture(scope="module")
def study() -> ModuleType:
    return benchmark_script("affinity_gate_study")


def test_auc_counts_pairs_ranked_right_and_ties_as_half(study):
    assert study.auc(np.array([3.0, 4.0]), np.array([1.0, 2.0])) == 1.0
    assert study.auc(np.array([1.0]), np.array([2.0])) == 0.0
    assert study.auc(np.array([1.0, 3.0]), np.array([1.0, 2.0])) == pytest.approx(0.625)  # 2.5 of 4 pairs
    assert np.isnan(study.auc(np.array([]), np.array([1.0])))


def _candidate(fid: str, rank: int, affinity: float, kept: bool = False) -> dict:
    return {"id": fid, "text": fid, "rank": rank, "cosine": 0.2, "gate_cosine": 0.25, "bm25": 0.0, "lexical": 0.0,
            "affinity": affinity, "rank_score": 0.3, "reason": "kept" if kept else "below gate", "kept": kept,
            "care": False, "fact_row": rank - 1, "overlap": 0.5, "qcos": 0.2}


def test_candidate_rows_read_the_five_with_the_affinity_rank_and_margin(study):
    turn = {"user": "u", "dialogue": "d", "turn": 0, "kind": "implicit", "needs": ["b"], "aff": ["a"], "open": ["a", "b"],
            "opened": True, "personal": True, "advice": True, "what_to_do": False, "care_share": 0.3,
            "general_margin": -0.1,
            "candidates": [_candidate("a", 1, 0.05, kept=True), _candidate("b", 2, 0.20), _candidate("c", 6, 0.5)]}
    rows = study.candidate_rows({"dev": [turn], "facts": {}})
    assert [r["rank"] for r in rows] == [1, 2]  # the sixth is not among the five the gate reads
    a, b = rows
    assert (b["needed"], b["kept"], b["turn_hit"]) == (True, False, False)
    assert (b["affinity_rank"], b["affinity_margin"]) == (1, pytest.approx(0.15))
    assert (a["affinity_rank"], a["affinity_margin"]) == (2, pytest.approx(-0.15))
