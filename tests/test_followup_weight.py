"""Follow-ups read further into their conversation (docs/ranking.md 55): a turn that leans on the turns before it
searches with ``normalise(q + context_weight_leaning * c)``, the thread's implied facts leave room for the
follow-up's own best-ranked fact, and a "what if" turn naming the asker's job is not read alone as a reminder.

Fast tier: the pure parts, and the engine with the hashing test embedder (the search direction is arithmetic, so
the cosines it reports can be checked exactly). The app-memory sets measure the effect with MiniLM.
"""

from __future__ import annotations

import numpy as np
import pytest

from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.engine.gate_signals import _turn
from memori_core.ranking.conversation import blend_query

FACTS = ["User drives a Honda Click motorbike.", "User's son Jun-jun has asthma.", "User lives in Cebu."]
EARLIER = "Any ideas for this Sunday with the family? Not too expensive."


def _engine(embedder, **config) -> RecallEngine:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=embedder, config=RecallConfig(**config))
    engine.add("u1", FACTS)
    return engine


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


@pytest.mark.parametrize("turn, weight", [("and if it rains the whole day", 1.0), ("cheaper?", 1.0),
                                          ("How long do homemade empanadas keep in the fridge?", 0.5)])
def test_a_turn_leaning_on_its_conversation_is_searched_with_the_leaning_weight(hash_embedder, turn, weight):
    engine = _engine(hash_embedder)
    report = engine.explain(turn, "u1", context=[EARLIER])
    assert report.context_weight == weight
    # the cosines explain shows are to normalise(q + weight * c), the question's and the conversation's embeddings
    direction = blend_query(hash_embedder.embed_query(turn), hash_embedder.embed_query(report.conversation), weight)
    fact = {c.content: c.cosine for c in report.candidates}["User drives a Honda Click motorbike."]
    stored = hash_embedder.embed_documents(["User drives a Honda Click motorbike."])[0]
    expected = float(_unit(direction) @ _unit(stored))
    assert fact == pytest.approx(expected, abs=1e-5)


def test_the_leaning_weight_moves_the_ranking_and_none_falls_back_to_context_weight(hash_embedder):
    turn = "and if it rains the whole day"
    cosines = {}
    for leaning in (None, 0.5, 1.0):
        report = _engine(hash_embedder, context_weight_leaning=leaning).explain(turn, "u1", context=[EARLIER])
        cosines[leaning] = [round(c.cosine, 6) for c in sorted(report.candidates, key=lambda c: c.id)]
    assert cosines[None] == cosines[0.5] != cosines[1.0]


def test_a_turn_without_context_is_searched_with_its_own_words_whatever_the_leaning_weight(hash_embedder):
    plain = [(f.id, f.cosine) for f in _engine(hash_embedder).recall("cheaper?", "u1")]
    other = [(f.id, f.cosine) for f in _engine(hash_embedder, context_weight_leaning=3.0).recall("cheaper?", "u1")]
    assert plain == other


@pytest.mark.parametrize("value", [-0.5, float("nan"), float("inf")])
def test_a_bad_leaning_weight_is_refused_naming_it(value):
    with pytest.raises((TypeError, ValueError), match="context_weight_leaning"):
        RecallConfig(context_weight_leaning=value)


def test_the_leaning_weight_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("MEMORI_RECALL_CONTEXT_WEIGHT_LEANING", "0.75")
    assert RecallConfig.from_env().context_weight_leaning == 0.75
    monkeypatch.setenv("MEMORI_RECALL_CONTEXT_WEIGHT_LEANING", "none")
    assert RecallConfig.from_env().context_weight_leaning is None


def test_memori_compat_reads_no_context_so_the_leaning_weight_cannot_move_it():
    assert RecallConfig.memori_compat().context_turns == 0


def test_a_what_if_turn_naming_the_askers_job_goes_on_from_the_conversation():
    before = ["we need to sit down and work out next year's budget now daycare's starting"]
    assert not _turn("what if I go back part-time?", before, False).alone
    assert _turn("What's my job?", before, False).alone  # a reminder is still read on its own words
