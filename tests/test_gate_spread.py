"""The spread cut (``RecallConfig.gate_spread``, ``ranking/spread.py``): how many facts the relevance gate lets
through once open. Through the public ``recall`` / ``explain`` over a real in-memory Chroma store, with an
embedder whose cosines are set by hand so the gate's reading of each fact is known exactly."""

from __future__ import annotations

import numpy as np
import pytest

from memori_core import ChromaStore, RecallConfig, RecallEngine

QUESTION = "Which way should we go this weekend?"
CLOSE = "Weekend plans involve the coast road."  # cosine 0.80 to the question
MIDDLE = "The autumn light was lovely in October."  # 0.45 (no everyday domain's fact words: ranking/everyday.py)
FAR = "Bicycles need a service each spring."  # 0.35
CARE = "Peanuts cause a severe allergic reaction."  # 0.33, a care fact
FOOD_QUESTION = "Is satay sauce safe for me to eat this weekend?"  # read as QUESTION is: the same cosines


class SetCosines:
    """Each known text's vector is set so that its cosine to ``QUESTION`` is the one written beside it above;
    every other text (the gate's prototype sentences) is orthogonal to all of them."""

    name = "set-cosines"
    _COSINES = {CLOSE: 0.80, MIDDLE: 0.45, FAR: 0.35, CARE: 0.33}

    def _vec(self, text: str) -> np.ndarray:
        v = np.zeros(8, dtype=np.float32)
        if text in (QUESTION, FOOD_QUESTION):
            v[0] = 1.0
        elif text in self._COSINES:
            c = self._COSINES[text]
            slot = 1 + list(self._COSINES).index(text)  # facts orthogonal to each other beyond the question
            v[0], v[slot] = c, float(np.sqrt(1.0 - c * c))
        else:
            v[7] = 1.0
        return v

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return np.stack([self._vec(t) for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        return self._vec(text)


def _engine(**config: object) -> RecallEngine:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=SetCosines(), config=RecallConfig(**config))
    engine.add("u1", [CLOSE, MIDDLE, FAR])
    return engine


def test_without_a_spread_the_gate_keeps_every_fact_above_its_cosine_bar() -> None:
    assert [f.content for f in _engine().recall(QUESTION, "u1")] == [CLOSE, MIDDLE, FAR]


def test_a_spread_drops_the_facts_kept_far_below_the_best_kept_one() -> None:
    # 0.80 best: with a spread of 0.3 the bar is 0.50, so 0.45 and 0.35 go; with 0.4 (bar 0.40) only 0.35 goes.
    assert [f.content for f in _engine(gate_spread=0.3).recall(QUESTION, "u1")] == [CLOSE]
    assert [f.content for f in _engine(gate_spread=0.4).recall(QUESTION, "u1")] == [CLOSE, MIDDLE]


def test_explain_names_the_spread_cut_as_the_reason_a_kept_fact_was_left_out() -> None:
    engine = _engine(gate_spread=0.4)
    report = engine.explain(QUESTION, "u1")
    reasons = {c.content: c.reason for c in report.candidates}
    assert reasons == {CLOSE: "kept", MIDDLE: "kept", FAR: "far below the best kept"}
    assert "more than 0.4 below the best kept fact's" in report.gate_note
    assert report.facts == engine.recall(QUESTION, "u1")


def test_a_spread_of_zero_keeps_only_the_best_fact_and_never_empties_an_open_gate() -> None:
    assert [f.content for f in _engine(gate_spread=0.0).recall(QUESTION, "u1")] == [CLOSE]


def test_a_care_fact_of_a_food_question_is_vouched_for_and_stays_where_a_fact_as_far_below_goes() -> None:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=SetCosines(), config=RecallConfig(gate_spread=0.1))
    engine.add("u1", [CLOSE, CARE, FAR])
    report = engine.explain(FOOD_QUESTION, "u1")
    reasons = {c.content: c.reason for c in report.candidates}
    assert reasons == {CLOSE: "kept", CARE: "kept", FAR: "far below the best kept"}


@pytest.mark.parametrize("value, error", [(-0.1, ValueError), ("0.2", TypeError), (float("nan"), ValueError),
                                          (True, TypeError)])
def test_gate_spread_refuses_a_value_that_is_not_a_non_negative_number(value: object, error: type) -> None:
    with pytest.raises(error, match="gate_spread"):
        RecallConfig(gate_spread=value)  # type: ignore[arg-type]


def test_gate_spread_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORI_RECALL_GATE_SPREAD", "0.25")
    assert RecallConfig.from_env().gate_spread == 0.25
    monkeypatch.setenv("MEMORI_RECALL_GATE_SPREAD", "off")
    assert RecallConfig.from_env().gate_spread is None


def test_memori_compat_has_no_spread() -> None:
    assert RecallConfig.memori_compat().gate_spread is None
