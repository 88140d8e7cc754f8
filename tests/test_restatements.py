"""Newer restatements rank first (issue 21, LongMemEval's knowledge updates): a newer candidate that holds
every query term an older one holds (at least ``restatement_terms`` of them) is lifted just above it; it
passes nothing it does not restate, and a match of three words or fewer moves nothing."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from _helpers import HashEmbedder, ungated_engine
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.ranking.recency import asks_when, restatement_lift
from memori_core.store import InMemoryFactStore

T0 = datetime(2026, 1, 5, 10, 0, tzinfo=timezone.utc)
OLD = "My personal best time in the charity 5K run was 27:12."
NEW = "I want to beat my personal best time of 25:50 in the next charity 5K run."
OTHER = "I joined a running club that meets on Sundays."
QUERY = "What is my personal best time in the charity 5K run?"


def test_a_newer_candidate_holding_every_term_of_an_older_one_is_lifted_just_above_it() -> None:
    held = np.array([[1, 1, 1, 0], [0, 1, 1, 0], [1, 1, 1, 1]], dtype=bool)
    created = np.array([100.0, 300.0, 200.0])
    score = np.array([1.0, 0.9, 0.5])
    lift = restatement_lift(held, created, score, 3)
    # Candidate 2 is newer than 0 and holds all of 0's terms: it ends a hair above 0.
    assert lift[0] == 0.0 and lift[1] == 0.0
    assert 1.0 < score[2] + lift[2] < 1.0 + 1e-6


def test_nothing_moves_without_enough_terms_a_missing_term_or_a_newer_date() -> None:
    score = np.array([1.0, 0.5])
    two_terms = np.array([[1, 1, 0], [1, 1, 1]], dtype=bool)
    assert not restatement_lift(two_terms, np.array([1.0, 2.0]), score, 3).any()  # older holds only 2 terms
    missing = np.array([[1, 1, 1, 0], [1, 1, 0, 1]], dtype=bool)
    assert not restatement_lift(missing, np.array([1.0, 2.0]), score, 3).any()  # newer lacks one of its terms
    same = np.array([[1, 1, 1], [1, 1, 1]], dtype=bool)
    assert not restatement_lift(same, np.array([2.0, 1.0]), score, 3).any()  # the newer already ranks above
    assert not restatement_lift(same, np.array([1.0, 1.0]), score, 3).any()  # same time: no order to go by


def test_only_the_newest_restatement_of_a_fact_is_lifted_above_it() -> None:
    held = np.ones((3, 3), dtype=bool)
    created = np.array([100.0, 300.0, 200.0])
    score = np.array([1.0, 0.2, 0.6])
    lift = restatement_lift(held, created, score, 3)
    # 1 and 2 both restate 0; only the newest (1) is lifted above it: 2 is outdated too and stays below.
    assert lift[2] == 0.0
    assert list(np.argsort(-(score + lift))) == [1, 0, 2]


def _engine(store: str, **config: object) -> RecallEngine:
    return ungated_engine(store=ChromaStore.in_memory() if store == "chroma" else InMemoryFactStore(), **config)


def _towards(text: str) -> np.ndarray:
    (vector,) = HashEmbedder().embed_documents([text])
    return vector


@pytest.mark.parametrize("store", ["chroma", "reference"])
def test_the_newer_personal_best_ranks_first_by_default_and_not_when_turned_off(store: str) -> None:
    orders = {}
    for terms in (3, None):
        engine = _engine(store, restatement_terms=terms)
        engine.add("u", OLD, created_at=T0)
        engine.add("u", OTHER, created_at=T0 + timedelta(days=10))
        engine.add("u", NEW, created_at=T0 + timedelta(days=90))
        got = engine.recall(QUERY, "u", 3, query_vector=_towards(OLD))  # the older one is far closer
        orders[terms] = [f.content for f in got]
    assert orders[None][0] == OLD
    assert orders[3][:2] == [NEW, OLD]
    assert set(orders[3]) == set(orders[None])  # a reorder: the same facts come back


def test_a_newer_fact_already_first_gets_nothing_and_explain_shows_a_lift_in_the_bonus() -> None:
    engine = _engine("chroma")
    engine.add("u", OLD, created_at=T0)
    engine.add("u", NEW, created_at=T0 + timedelta(days=90))
    report = engine.explain(QUERY, "u", 2, query_vector=_towards(NEW))  # the newer is also the closer
    assert [c.content for c in report.candidates] == [NEW, OLD]
    assert all(c.neighbour_bonus - c.affinity == 0 for c in report.candidates)  # affinity is part of the bonus
    swapped = _engine("chroma")
    swapped.add("u", OLD, created_at=T0)
    swapped.add("u", NEW, created_at=T0 + timedelta(days=90))
    lifted = {c.content: c for c in swapped.explain(QUERY, "u", 2, query_vector=_towards(OLD)).candidates}
    assert lifted[NEW].neighbour_bonus - lifted[NEW].affinity > 0 and lifted[OLD].neighbour_bonus == lifted[OLD].affinity
    assert lifted[NEW].rank_score > lifted[OLD].rank_score


def test_on_by_default_off_in_memori_compat_and_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    assert RecallConfig().restatement_terms == 4
    assert RecallConfig.memori_compat().restatement_terms is None
    with pytest.raises(ValueError, match="restatement_terms must be >= 1"):
        RecallConfig(restatement_terms=0)
    with pytest.raises(TypeError, match="restatement_terms must be an int"):
        RecallConfig(restatement_terms=2.5)  # type: ignore[arg-type]
    monkeypatch.setenv("MEMORI_RECALL_RESTATEMENT_TERMS", "none")
    assert RecallConfig.from_env().restatement_terms is None
    monkeypatch.setenv("MEMORI_RECALL_RESTATEMENT_TERMS", "4")
    assert RecallConfig.from_env().restatement_terms == 4


def test_a_question_about_when_something_happened_keeps_the_first_telling_first() -> None:
    first = "I ran the charity 5K run with my personal best time on May 3."
    retold = "Remember the charity 5K run where I set my personal best time? Training again now."
    engine = _engine("chroma")
    engine.add("u", first, created_at=T0)
    engine.add("u", retold, created_at=T0 + timedelta(days=90))
    when = engine.recall("When did I set my personal best time in the charity 5K run?", "u", 2,
                         query_vector=_towards(first))
    what = engine.recall("What is my personal best time in the charity 5K run?", "u", 2, query_vector=_towards(first))
    assert [f.content for f in when] == [first, retold]
    assert [f.content for f in what] == [retold, first]


@pytest.mark.parametrize("question, expected", [
    ("When did Caroline go to the support group?", True), ("What year did we move?", True),
    ("How long ago did I start running?", True), ("What is my personal best time?", False),
    ("So when was the wedding?", True), ("Remind me: when is my dentist appointment?", True),
    ("What was the amount I was pre-approved for when I got my mortgage?", False),
    ("How often do I attend yoga classes?", False), ("Whenever I cook, what should I avoid?", False),
])
def test_asks_when_reads_the_question_shape(question: str, expected: bool) -> None:
    assert asks_when(question) is expected


def test_a_short_recall_is_the_head_of_a_longer_one() -> None:
    engine = _engine("chroma")
    texts = [OLD, OTHER, "Charity 5K run tips: pace yourself.", "I bought new running shoes.", NEW,
             "My personal best time in a 10K is 58 minutes.", "The charity 5K run raised money for the shelter."]
    for day, text in enumerate(texts):
        engine.add("u", text, created_at=T0 + timedelta(days=10 * day))
    vector = _towards(OLD)
    whole = [f.id for f in engine.recall(QUERY, "u", 7, query_vector=vector)]
    assert whole.index(engine.recall(QUERY, "u", 1, query_vector=vector)[0].id) == 0
    for k in (2, 3, 5):
        assert [f.id for f in engine.recall(QUERY, "u", k, query_vector=vector)] == whole[:k], k
    assert engine.recall(QUERY, "u", 1, query_vector=vector)[0].content == NEW  # lifted even at limit 1
