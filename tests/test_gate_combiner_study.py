"""The gate-combiner study (benchmarks/gate_combiner_study.py): its simulation of the engine's selection
reproduces ``memori eval app``, and its logistic fit and admissibility rules do what the study's tables say."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from _helpers import benchmark_script, HashEmbedder
from memori_core import RecallConfig
from memori_core.evaluation.app_memory import evaluate_app_memory, load_app_memory

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def study() -> ModuleType:
    return benchmark_script("gate_combiner_study")


def test_the_dump_reproduces_memori_eval_app_with_and_without_the_gate(study: ModuleType) -> None:
    users = load_app_memory(ROOT / "evals" / "app_memory" / "dev.json").users[:2]
    rows = study.app_rows(users, HashEmbedder())
    json.dumps(rows)  # the dump is plain JSON
    cands = study.candidates("app", rows)
    # The shipped gate without its implications signal (which the study leaves out: see _dump_set).
    result = evaluate_app_memory(users, embedder=HashEmbedder(), config=RecallConfig(gate_implied=False), limit=5)
    overall = result["overall"]
    shipped = study.shipped_metrics(cands)
    assert shipped["hit"] == pytest.approx(overall["needed_hit"])
    assert shipped["all"] == pytest.approx(overall["all_needed_hit"])
    assert shipped["follow"] == pytest.approx(overall["followup_hit"])
    assert shipped["clean"] == pytest.approx(overall["offtopic_clean"])
    off = study.metrics(cands, None)  # the limit best: the gate off
    assert off["hit"] == pytest.approx(overall["no_gate_needed_hit"])
    assert off["all"] == pytest.approx(overall["no_gate_all_needed_hit"])
    # The shipped gate's facts are among the candidates the study decides over, and keeping exactly
    # those through a mask gives the shipped numbers back.
    assert sum(len(r["shipped"]) for r in rows) == int(cands.shipped.sum())
    assert study.metrics(cands, cands.shipped) == shipped
    # Every query's candidates are in rank order and at most the limit.
    assert all([c["rank"] for c in r["cands"][:5]] == list(range(1, min(5, len(r["cands"])) + 1)) for r in rows)


def test_fit_logistic_recovers_known_coefficients_and_l2_shrinks_them(study: ModuleType) -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(20000, 2))
    true = np.array([-1.0, 2.0, -0.5])
    xs = np.concatenate([np.ones((x.shape[0], 1)), x], axis=1)
    y = (rng.random(x.shape[0]) < 1 / (1 + np.exp(-(xs @ true)))).astype(np.float64)
    w = np.ones(x.shape[0])
    beta = study.fit_logistic(xs, y, w, l2=0.0)
    np.testing.assert_allclose(beta, true, atol=0.08)
    shrunk = study.fit_logistic(xs, y, w, l2=5000.0)
    assert np.all(np.abs(shrunk[1:]) < np.abs(beta[1:]))


def test_admissibility_and_the_lowest_admissible_threshold(study: ModuleType) -> None:
    # Two PrefEval-shaped queries: one needs fact "a" (p 0.6), one is an abstention whose best candidate
    # has p 0.4. Clean >= 0.5 needs t > 0.4; the need is met up to t = 0.6.
    rows = [
        {"needs": ["a"], "abst": False, "kind": "x", "shipped": [], "cands": []},
        {"needs": [], "abst": True, "kind": "x", "shipped": ["c"], "cands": []},
    ]
    c = study.Candidates("prefeval", rows, np.array([0, 0, 1]), np.array([True, False, False]), {},
                         [["a", "b"], ["c"]], np.array([False, False, True]))
    p = np.array([0.6, 0.1, 0.4])

    class Fixed(study.Combiner):
        def prob(self, _: object) -> np.ndarray:
            return p

    ship, off = study.shipped_metrics(c), study.metrics(c, None)
    assert ship == {"hit": 0.0, "clean": 0.0, "fpa": 1.0}
    assert off == {"hit": 1.0, "clean": 0.0, "fpa": 1.0}
    t = study.lowest_admissible(Fixed(), [c], {"prefeval": (ship, off)})
    assert t == pytest.approx(0.41)
    kept = study.metrics(c, p >= t)
    assert kept == {"hit": 1.0, "clean": 1.0, "fpa": 0.0}
    assert study.verdict("prefeval", kept, ship, off) == "+"
    assert study.verdict("prefeval", off, ship, off) == "-"  # not clean enough
    # LoCoMo: admissible only within 0.005 of no gate.
    assert study.admissible("locomo", {"hit": 0.731}, {"hit": 0.732}, {"hit": 0.736})
    assert not study.admissible("locomo", {"hit": 0.730}, {"hit": 0.732}, {"hit": 0.736})
