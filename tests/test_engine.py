"""Behaviour of RecallEngine over a real in-memory Chroma store (hash embedder unless noted)."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterator
from contextlib import nullcontext
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from memori_core.text import analyzer

from _faults import held_loads_engine
from _helpers import HashEmbedder, left_unchanged, ungated_engine
from memori_core import (
    ChromaStore,
    NaiveTimeWarning,
    RecallConfig,
    RecallEngine,
    SwappedArgumentsWarning,
    format_context,
)
from memori_core.engine import derived_fact_id
from memori_core.store.chroma import default_store_path

FACTS = [
    "User is allergic to peanuts.",
    "User lives in Lisbon near the river.",
    "User works as a data engineer.",
    "User has a golden retriever named Biscuit.",
    "User plays the cello on weekends.",
    "User drives a blue Toyota.",
    "User's sister Maria lives in Porto.",
    "User prefers dark mode in every app.",
]


def contents(facts) -> list[str]:
    return [f.content for f in facts]


# -- add / recall basics ------------------------------------------------------


def test_add_returns_one_id_per_input_fact_including_repeats(engine: RecallEngine) -> None:
    ids = engine.add("u1", ["User likes tea.", "User likes jazz.", "User likes tea."])
    assert len(ids) == 3
    assert ids[0] == ids[2] != ids[1]
    assert engine.count("u1") == 2


def test_add_single_string_is_one_fact(engine: RecallEngine) -> None:
    ids = engine.add("u1", "User likes tea.")
    assert len(ids) == 1 and engine.count("u1") == 1


def test_recall_ranks_the_fact_sharing_query_words_first(engine: RecallEngine) -> None:
    engine.add("u1", FACTS)
    facts = engine.recall("golden retriever Biscuit", entity_id="u1")
    assert facts, "expected at least one recalled fact"
    assert facts[0].content == "User has a golden retriever named Biscuit."
    assert facts[0].entity_id == "u1"
    scores = [f.rank_score for f in facts]
    assert scores == sorted(scores, reverse=True)
    assert all(f.rank_score >= 0.1 for f in facts)


def test_recall_limit_caps_the_result(engine: RecallEngine) -> None:
    engine.add("u1", FACTS)
    eng = ungated_engine(store=engine.store)
    assert len(eng.recall("user", "u1", limit=3)) == 3
    assert len(eng.recall("user", "u1")) == RecallConfig().limit


def test_recall_for_unknown_entity_is_empty(engine: RecallEngine) -> None:
    engine.add("u1", FACTS)
    assert engine.recall("peanuts", entity_id="nobody") == []


def test_a_read_with_its_arguments_swapped_warns_and_a_new_users_first_question_does_not(engine: RecallEngine) -> None:
    # A tester wrote recall("user-1", "Which snacks...?") in add's order and got [] without a word.
    engine.add("user-1", FACTS)
    question = "Which snacks should I avoid?"
    with pytest.warns(SwappedArgumentsWarning, match=r"recall: entity 'Which snacks should I avoid\?' has no facts "
                      r"and entity_id .* reads as a question: are the arguments swapped\?") as seen:
        assert engine.recall("user-1", question) == []
    assert seen[0].filename == __file__  # pointed at the call
    with pytest.warns(SwappedArgumentsWarning, match=r"recall: entity 'bob' has no facts and the query 'user-1' is "
                      r"the id of an entity with facts"):
        assert engine.recall("user-1", "bob") == []
    with pytest.warns(SwappedArgumentsWarning, match="explain: entity 'bob'"):
        engine.explain("user-1", "bob")
    with pytest.warns(SwappedArgumentsWarning, match="count: entity 'Which snacks"):
        assert engine.count(question) == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no false alarm: a new user, a one-word query, an entity with facts
        assert engine.recall(question, "new-user") == []
        assert engine.recall("hello", "new-user") == []
        assert engine.count("new-user") == 0
        engine.recall("user-1", "user-1")  # the user's own id as the query: the entity has facts, no warning


# -- ids ----------------------------------------------------------------------


def test_derived_id_dedupes_normalised_text_and_updates_sightings(engine: RecallEngine) -> None:
    first = datetime(2024, 1, 1, 9, 0, tzinfo=timezone.utc)
    later = datetime(2024, 6, 1, 9, 0, tzinfo=timezone.utc)
    [a] = engine.add("u1", ["User likes green tea."], created_at=first)
    [b] = engine.add("u1", ["  user LIKES   green tea  "], created_at=later)
    assert a == b == derived_fact_id("User likes green tea.")
    assert engine.count("u1") == 1
    [stored] = engine.store.get("u1", [a])
    assert stored.content == "User likes green tea."  # the first text is kept
    assert stored.times_seen == 2
    assert stored.created_at == "2024-01-01T09:00:00+00:00"
    assert stored.last_seen == "2024-06-01T09:00:00+00:00"
    [recalled] = engine.recall("green tea", "u1")
    assert recalled.metadata["times_seen"] == 2
    assert recalled.metadata["last_seen"] == "2024-06-01T09:00:00+00:00"


def test_derived_id_repeat_within_one_call_counts_as_sighting(engine: RecallEngine) -> None:
    engine.add("u1", ["User likes tea.", "user likes tea"])
    [stored] = engine.store.get("u1", [derived_fact_id("User likes tea.")])
    assert stored.times_seen == 2
    assert engine.count("u1") == 1


def test_two_entities_may_store_the_same_text(engine: RecallEngine) -> None:
    [a] = engine.add("alice", ["User likes green tea."])
    [b] = engine.add("bob", ["User likes green tea."])
    assert a == b
    assert engine.count("alice") == 1 and engine.count("bob") == 1
    assert [f.entity_id for f in engine.recall("green tea", "alice")] == ["alice"]
    assert [f.entity_id for f in engine.recall("green tea", "bob")] == ["bob"]
    engine.add("alice", ["User likes green tea."])  # a sighting for alice only
    assert engine.store.get("alice", [a])[0].times_seen == 2
    assert engine.store.get("bob", [b])[0].times_seen == 1


def test_same_caller_id_in_two_entities_does_not_clobber(engine: RecallEngine) -> None:
    engine.add("alice", ["Alice plays chess."], ids=["fact-1"])
    engine.add("bob", ["Bob plays tennis."], ids=["fact-1"])
    assert contents(engine.store.get("alice", ["fact-1"])) == ["Alice plays chess."]
    assert contents(engine.store.get("bob", ["fact-1"])) == ["Bob plays tennis."]
    assert contents(engine.recall("plays chess", "alice")) == ["Alice plays chess."]


def test_caller_id_upsert_replaces_content_and_metadata(engine: RecallEngine) -> None:
    assert engine.add("u1", ["User owns a red bicycle."], ids=["bike"], metadata={"source": "chat"}) == ["bike"]
    assert contents(engine.recall("red bicycle", "u1")) == ["User owns a red bicycle."]
    engine.add("u1", ["User owns a green scooter."], ids=["bike"])
    assert engine.count("u1") == 1
    # The cache of this engine and a fresh engine (reading the store) agree.
    for eng in (engine, RecallEngine(store=engine.store, embedder=HashEmbedder())):
        [fact] = eng.recall("green scooter", "u1")
        assert fact.id == "bike" and fact.content == "User owns a green scooter."
        assert "source" not in fact.metadata
        assert "User owns a red bicycle." not in contents(eng.recall("red bicycle", "u1"))


# -- created_at and metadata ----------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (datetime(2024, 5, 1, 10, 0, tzinfo=timezone(timedelta(hours=2))), "2024-05-01T08:00:00+00:00"),
        (datetime(2024, 5, 1, 10, 0), "2024-05-01T10:00:00+00:00"),  # naive = UTC
        ("2024-05-01T10:00:00+02:00", "2024-05-01T08:00:00+00:00"),
        ("2024-05-01T10:00:00Z", "2024-05-01T10:00:00+00:00"),
    ],
)
def test_created_at_is_stored_as_utc_iso(engine: RecallEngine, value: object, expected: str) -> None:
    with pytest.warns(NaiveTimeWarning) if isinstance(value, datetime) and value.tzinfo is None else nullcontext():
        engine.add("u1", ["User likes tea.", "User likes jazz."], created_at=value)
    facts = engine.recall("likes", "u1", limit=5)
    assert len(facts) == 2
    assert {f.created_at for f in facts} == {expected}
    fresh = RecallEngine(store=engine.store, embedder=HashEmbedder())
    assert {f.created_at for f in fresh.recall("likes", "u1")} == {expected}


def test_created_at_one_per_fact(engine: RecallEngine) -> None:
    stamps = [datetime(2023, 1, 1, tzinfo=timezone.utc), "2024-02-03T04:05:06+00:00", None]
    before = datetime.now(timezone.utc)
    ids = engine.add("u1", ["User likes tea.", "User likes jazz.", "User likes chess."], created_at=stamps)
    by_id = {f.id: f for f in engine.store.get("u1", ids)}
    assert by_id[ids[0]].created_at == "2023-01-01T00:00:00+00:00"
    assert by_id[ids[1]].created_at == "2024-02-03T04:05:06+00:00"
    defaulted = datetime.fromisoformat(by_id[ids[2]].created_at)
    assert defaulted.utcoffset() == timedelta(0) and defaulted >= before - timedelta(seconds=1)


def test_metadata_one_dict_for_all_facts_round_trips(engine: RecallEngine) -> None:
    engine.add("u1", ["User likes tea.", "User likes jazz."], metadata={"source": "chat", "n": [1, 2]})
    facts = engine.recall("likes", "u1")
    assert len(facts) == 2
    for f in facts:
        assert f.metadata["source"] == "chat" and f.metadata["n"] == [1, 2]


def test_metadata_per_fact_round_trips_through_a_fresh_engine(engine: RecallEngine) -> None:
    metas = [{"topic": "drink", "score": 0.5}, {"topic": "music", "nested": {"a": "é"}}]
    ids = engine.add("u1", ["User likes tea.", "User likes jazz."], metadata=metas)
    fresh = ungated_engine(store=engine.store)
    by_id = {f.id: f for f in fresh.recall("likes tea jazz", "u1")}
    assert by_id[ids[0]].metadata["topic"] == "drink" and by_id[ids[0]].metadata["score"] == 0.5
    assert by_id[ids[1]].metadata["nested"] == {"a": "é"}


# -- delete / forget / count / cache ----------------------------------------------


def test_delete_removes_only_the_given_ids(engine: RecallEngine) -> None:
    ids = engine.add("u1", FACTS)
    engine.delete("u1", [ids[0], "no-such-id"])
    assert engine.count("u1") == len(FACTS) - 1
    assert "User is allergic to peanuts." not in contents(engine.recall("allergic peanuts", "u1", limit=10))


def test_forget_removes_one_entity_and_nothing_else(engine: RecallEngine) -> None:
    engine.add("u1", FACTS)
    engine.add("u2", FACTS[:3])
    engine.forget("u1")
    assert engine.count("u1") == 0
    assert engine.count("u2") == 3
    assert engine.recall("peanuts", "u1") == []
    assert contents(engine.recall("allergic peanuts", "u2"))[0] == "User is allergic to peanuts."


def test_cache_follows_this_engines_add_delete_and_forget() -> None:
    eng = ungated_engine()
    eng.add("u1", ["User likes tea."])
    assert contents(eng.recall("tea", "u1")) == ["User likes tea."]  # the cache is loaded now
    [jazz] = eng.add("u1", ["User likes jazz."])
    assert set(contents(eng.recall("likes", "u1"))) == {"User likes tea.", "User likes jazz."}
    eng.delete("u1", [jazz])
    assert contents(eng.recall("likes", "u1")) == ["User likes tea."]
    eng.add("u1", ["User likes tea."], metadata={"again": True})  # a sighting updates the cached row
    [tea] = eng.recall("likes", "u1")
    assert tea.metadata["times_seen"] == 2 and tea.metadata["again"] is True
    eng.forget("u1")
    assert eng.recall("likes", "u1") == []
    eng.add("u1", ["User likes chess."])
    assert contents(eng.recall("likes", "u1")) == ["User likes chess."]


def test_second_engine_on_the_same_store_sees_writes_and_forget() -> None:
    store = ChromaStore.in_memory()
    a, b = ungated_engine(store=store), ungated_engine(store=store)
    a.add("u1", ["User likes tea."])
    assert contents(a.recall("likes", "u1")) == ["User likes tea."]
    b.add("u1", ["User likes jazz."])
    assert set(contents(a.recall("likes", "u1"))) == {"User likes tea.", "User likes jazz."}
    a.add("u1", ["User likes chess."])  # a's cache was stale before this write: it must not lose b's row
    assert len(a.recall("likes", "u1", limit=10)) == 3
    b.forget("u1")
    assert a.recall("likes", "u1") == []


# -- explain -------------------------------------------------------------------


def test_explain_lists_every_pool_candidate_with_score_parts() -> None:
    # The threshold gate (its reasons are checked below) and BM25 divided by the pool maximum
    # (lexical_floor=0), so that every score part can be recomputed from the report alone.
    cfg = RecallConfig(gate="threshold", relevance_threshold=0.5, lexical_floor=0.0)
    eng = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder(), config=cfg)
    eng.add("u1", FACTS)
    query = "is the user allergic to peanuts or to dogs"
    report = eng.explain(query, "u1", limit=3)
    assert report.pool_size == len(report.candidates) == len(FACTS) == report.rows_scored
    # the default: stemmed unicode tokens, without the word every fact names the user by ("user")
    assert report.query_tokens == [t for t in analyzer("unicode", "english")(query) if t != "user"]
    assert report.w_lex == pytest.approx(0.35) and report.w_cos == pytest.approx(0.65)  # default weights
    assert report.threshold == 0.5 and report.limit == 3
    assert report.gate == "threshold" and report.gate_opened is True
    assert report.best_cosine == pytest.approx(max(c.cosine for c in report.candidates[:3]))
    assert [c.rank for c in report.candidates] == list(range(1, len(FACTS) + 1))
    assert {c.content for c in report.candidates} == set(FACTS)
    scores = [c.rank_score for c in report.candidates]
    assert scores == sorted(scores, reverse=True)
    top_bm25 = max(c.bm25 for c in report.candidates)
    assert top_bm25 > 0
    for c in report.candidates:
        assert c.lexical == pytest.approx(c.bm25 / top_bm25)
        assert c.rank_score == pytest.approx(report.w_cos * c.cosine + report.w_lex * c.lexical, abs=1e-6)
        expected = "beyond limit" if c.rank > 3 else ("kept" if c.rank_score >= 0.5 else "below threshold")
        assert c.reason == expected and c.kept == (expected == "kept")
    assert report.candidates[0].content == "User is allergic to peanuts."
    assert {c.reason for c in report.candidates} == {"kept", "below threshold", "beyond limit"}


def test_explain_prints_a_table_with_every_candidate() -> None:
    eng = ungated_engine()
    eng.add("u1", FACTS)
    report = eng.explain("dark mode app", "u1", limit=2)
    text = str(report)
    assert text == report.table()
    for word in ("rank", "cosine", "bm25", "score", "kept", "beyond limit", "dark", "mode"):
        assert word in text
    lines = text.splitlines()
    for c in report.candidates:
        assert any(c.content in line and line.lstrip().startswith(str(c.rank)) for line in lines)


@pytest.fixture(scope="module")
def facts_store() -> Iterator[ChromaStore]:
    """A store holding u1's FACTS, shared by tests that only read it (each through an engine of its own
    config; the rows a write stores do not depend on the config). Checked unchanged at teardown."""
    store = ChromaStore.in_memory()
    RecallEngine(store=store, embedder=HashEmbedder()).add("u1", FACTS)
    with left_unchanged(store, "the shared facts store") as shared:
        yield shared


@pytest.mark.parametrize("config", [
    RecallConfig(gate="off"),
    RecallConfig(gate="threshold", relevance_threshold=0.1),
    RecallConfig(gate="threshold", relevance_threshold=0.3),
    RecallConfig(),  # the relevance gate
    RecallConfig(gate_open=0.2, gate_keep=0.15, gate_confident=0.3),  # looser cutoffs: also a tentative opening
], ids=["no-gate", "threshold-0.1", "threshold-0.3", "relevance-gate", "relevance-gate-low"])
@pytest.mark.parametrize("limit", [1, 3, 20])
def test_recall_equals_the_kept_candidates_of_explain(facts_store: ChromaStore, config: RecallConfig,
                                                       limit: int) -> None:
    eng = RecallEngine(store=facts_store, embedder=HashEmbedder(), config=config)
    for query in ["user lives in Lisbon", "cello", "blue Toyota dark mode", "nothing matches xyzzy"]:
        recalled = eng.recall(query, "u1", limit=limit)
        report = eng.explain(query, "u1", limit=limit)
        assert recalled == report.facts
        assert [f.id for f in recalled] == [c.id for c in report.candidates if c.kept]


@pytest.mark.parametrize("config", [
    RecallConfig(),
    RecallConfig(gate="threshold", relevance_threshold=0.3),
    RecallConfig(judge_candidates=2),
], ids=["relevance-gate", "threshold-0.3", "judge-2-candidates"])
@pytest.mark.parametrize("limit", [1, 3, 20])
def test_recall_equals_the_kept_candidates_of_explain_with_a_judge(facts_store: ChromaStore, config: RecallConfig,
                                                                    limit: int) -> None:
    """With a judge (here: the facts naming a place), what it kept is what recall returns (tests/test_judge.py)."""
    def judge(query: str, facts: list[str], context: list[str]) -> list[int]:
        return [i for i, f in enumerate(facts) if "lives" in f or "Toyota" in f]

    eng = RecallEngine(store=facts_store, embedder=HashEmbedder(), config=config, judge=judge)
    for query in ["user lives in Lisbon", "cello", "blue Toyota dark mode", "nothing matches xyzzy"]:
        recalled = eng.recall(query, "u1", limit=limit)
        report = eng.explain(query, "u1", limit=limit)
        assert recalled == report.facts and report.gate == "judge"
        assert [f.id for f in recalled] == [c.id for c in report.candidates if c.kept]


@pytest.fixture(scope="module")
def core_facts_store() -> Iterator[ChromaStore]:
    """u1's FACTS with three of them core (the allergy, the dog, the car), read-only like ``facts_store``."""
    store = ChromaStore.in_memory()
    core = [i in (0, 3, 5) for i in range(len(FACTS))]
    RecallEngine(store=store, embedder=HashEmbedder()).add("u1", FACTS, core=core)
    with left_unchanged(store, "the shared core facts store") as shared:
        yield shared


@pytest.mark.parametrize("config", [
    RecallConfig(gate="off"),
    RecallConfig(gate="threshold", relevance_threshold=0.3),
    RecallConfig(),  # the relevance gate
    RecallConfig(core_limit=1),
    RecallConfig(core_limit=0),
], ids=["no-gate", "threshold-0.3", "relevance-gate", "core-limit-1", "core-off"])
@pytest.mark.parametrize("limit", [1, 3, 20])
def test_recall_equals_the_kept_candidates_of_explain_with_core_facts(core_facts_store: ChromaStore,
                                                                     config: RecallConfig, limit: int) -> None:
    eng = RecallEngine(store=core_facts_store, embedder=HashEmbedder(), config=config)
    for query in ["user lives in Lisbon", "peanuts", "blue Toyota dark mode", "nothing matches xyzzy"]:
        for where in (None, {"core": True}):
            recalled = eng.recall(query, "u1", limit=limit, where=where)
            report = eng.explain(query, "u1", limit=limit, where=where)
            assert recalled == report.facts
            core_tail = [c for c in report.candidates if c.reason == "core (injected)"]
            assert all(c.kept for c in core_tail)
            assert report.candidates[len(report.candidates) - len(core_tail):] == core_tail
            assert len(core_tail) <= config.core_limit
            assert len({f.id for f in recalled}) == len(recalled)  # a core fact recalled anyway is not repeated


def test_threshold_none_keeps_everything_even_negative_scores() -> None:
    eng = ungated_engine()
    eng.add("u1", FACTS)
    facts = eng.recall("quantum chromodynamics", "u1", limit=len(FACTS))
    assert len(facts) == len(FACTS)
    assert min(f.rank_score for f in facts) < 0.1


def test_threshold_gate_filters_weak_matches() -> None:
    cfg = RecallConfig(gate="threshold", relevance_threshold=0.99)
    eng = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder(), config=cfg)
    eng.add("u1", FACTS)
    assert eng.recall("quantum chromodynamics", "u1", limit=len(FACTS)) == []
    report = eng.explain("quantum chromodynamics", "u1", limit=len(FACTS))
    assert {c.reason for c in report.candidates} == {"below threshold"}
    # The same ranking with the threshold off returns every fact: the threshold did the filtering.
    loose = RecallEngine(store=eng.store, embedder=HashEmbedder(), config=cfg.replace(gate="off"))
    assert len(loose.recall("quantum chromodynamics", "u1", limit=len(FACTS))) == len(FACTS)


def test_dense_limit_scores_only_the_most_recent_rows() -> None:
    eng = ungated_engine(dense_limit=2)
    eng.add("u1", ["User likes tea."], created_at="2020-01-01T00:00:00+00:00")
    eng.add("u1", ["User likes jazz."], created_at="2021-01-01T00:00:00+00:00")
    eng.add("u1", ["User likes chess."], created_at="2022-01-01T00:00:00+00:00")
    report = eng.explain("likes tea", "u1", limit=5)
    assert report.rows_scored == 2
    assert {c.content for c in report.candidates} == {"User likes jazz.", "User likes chess."}
    # Mentioning the oldest fact again makes it recent (last_seen), pushing out jazz.
    eng.add("u1", ["user likes tea"], created_at="2023-01-01T00:00:00+00:00")
    assert {f.content for f in eng.recall("likes tea", "u1")} == {"User likes tea.", "User likes chess."}
    fresh = RecallEngine(store=eng.store, embedder=HashEmbedder(), config=eng.config)
    assert {f.content for f in fresh.recall("likes tea", "u1")} == {"User likes tea.", "User likes chess."}


def test_query_vector_skips_the_embedder() -> None:
    emb = HashEmbedder()
    eng = ungated_engine(emb)
    eng.add("u1", FACTS)
    vec = emb.embed_query("golden retriever")
    calls = emb.calls
    facts = eng.recall("golden retriever", "u1", query_vector=vec)
    assert emb.calls == calls
    assert facts[0].content == "User has a golden retriever named Biscuit."
    assert facts == eng.recall("golden retriever", "u1")


# -- async twins ----------------------------------------------------------------


async def test_async_twins_give_the_same_results() -> None:
    eng = ungated_engine()
    ids = await eng.aadd("u1", FACTS, metadata={"via": "async"})
    assert ids == [derived_fact_id(f) for f in FACTS]
    for query in ["golden retriever", "lives in Lisbon", "cello weekends"]:
        assert await eng.arecall(query, "u1", limit=4) == eng.recall(query, "u1", limit=4)
        assert (await eng.aexplain(query, "u1", limit=4)).to_dict() == eng.explain(query, "u1", limit=4).to_dict()
    await eng.adelete("u1", ids[:2])
    assert eng.count("u1") == len(FACTS) - 2
    await eng.aforget("u1")
    assert await eng.arecall("golden retriever", "u1") == []


# -- the real local model ---------------------------------------------------------


PERSONAL_FACTS = [
    "User is allergic to peanuts.",
    "User lives in Lisbon.",
    "User works as a data engineer.",
    "User has a golden retriever named Biscuit.",
    "User plays the cello on weekends.",
    "User drives a blue Toyota.",
    "User's sister is called Maria.",
    "User prefers dark mode in every app.",
    "User is learning Japanese.",
    "User runs a marathon every spring.",
]
ALLERGY = PERSONAL_FACTS[0]


@pytest.fixture(scope="module")
def minilm_engine(minilm) -> RecallEngine:
    """The shipped config (relevance gate) and the local MiniLM over one user's personal facts."""
    eng = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    eng.add("u1", PERSONAL_FACTS)
    return eng


@pytest.mark.model
def test_minilm_ranks_the_allergy_first_for_a_snack_question(minilm_engine: RecallEngine) -> None:
    report = minilm_engine.explain("what snacks should I avoid?", "u1")
    assert report.candidates[0].content == ALLERGY
    # By meaning, not by words: the question shares no word with the fact.
    assert report.candidates[0].bm25 == 0.0
    assert report.candidates[0].cosine > 2 * report.candidates[1].cosine


@pytest.mark.model
# The allergy's cosine is 0.30-0.31 (MiniLM), at gate_open: the gate's care signal keeps it (a personal food
# question, a care fact), where the cosine gate alone stayed closed.
@pytest.mark.parametrize("query", ["what snacks should I avoid?", "Which snacks should I avoid?"])
def test_minilm_recalls_the_allergy_for_a_snack_question(minilm_engine: RecallEngine, query: str) -> None:
    facts = minilm_engine.recall(query, "u1")
    assert facts and facts[0].content == ALLERGY
    assert ALLERGY in format_context(facts)


@pytest.mark.model
def test_minilm_blank_and_unrelated_questions_recall_nothing(minilm_engine: RecallEngine) -> None:
    assert minilm_engine.recall("   ", "u1") == [] and format_context(minilm_engine.recall("", "u1")) == ""
    irrelevant = minilm_engine.recall("What is the boiling point of mercury in kelvin?", "u1")
    assert irrelevant == [] and format_context(irrelevant) == ""


@pytest.mark.model
def test_relevance_gate_stays_closed_for_an_off_topic_question(minilm_engine: RecallEngine) -> None:
    query = "What's the capital of Australia?"
    cfg = minilm_engine.config
    assert cfg.gate == "relevance"
    assert minilm_engine.recall(query, "u1") == []
    # Every fact within the limit, each one "gate closed".
    report = minilm_engine.explain(query, "u1", limit=len(PERSONAL_FACTS))
    assert report.gate == "relevance" and report.gate_opened is False
    assert len(report.candidates) == len(PERSONAL_FACTS)
    assert [c.reason for c in report.candidates] == ["gate closed"] * len(PERSONAL_FACTS)
    assert not any(c.kept for c in report.candidates) and report.facts == []
    assert report.best_cosine == pytest.approx(max(c.cosine for c in report.candidates))
    assert report.best_cosine < cfg.gate_open
    assert "closed" in report.gate_note and "gate closed" in str(report)
    # With the default limit the candidates past it are "beyond limit", the others still "gate closed".
    reasons = [c.reason for c in minilm_engine.explain(query, "u1").candidates]
    assert reasons == ["gate closed"] * cfg.limit + ["beyond limit"] * (len(PERSONAL_FACTS) - cfg.limit)


@pytest.mark.model
def test_relevance_gate_opens_for_a_direct_question_and_keeps_only_the_allergy(minilm_engine: RecallEngine) -> None:
    query = "Am I allergic to anything?"
    cfg = minilm_engine.config
    facts = minilm_engine.recall(query, "u1")
    assert [f.content for f in facts] == [ALLERGY]
    report = minilm_engine.explain(query, "u1")
    assert report.gate == "relevance" and report.gate_opened is True
    # the gate reads the fact's cosine plus the third-person lift ("User is allergic..." for a first-person question)
    assert report.candidates[0].gate_cosine == pytest.approx(facts[0].cosine + cfg.gate_third_person, abs=1e-6)
    assert report.best_cosine == pytest.approx(report.candidates[0].gate_cosine) and report.best_cosine >= cfg.gate_open
    assert report.candidates[0].reason == "kept"
    assert {c.reason for c in report.candidates[1:cfg.limit]} == {"below gate"}
    assert report.facts == facts
    assert np.isfinite([f.cosine for f in facts]).all()


# -- concurrency -----------------------------------------------------------------


def test_scored_pool_keeps_its_facts_when_a_write_lands_before_they_are_read() -> None:
    # recall scores under the engine lock, then builds RecalledFacts after releasing it;
    # a delete (here one that also compacts the cache) in between must not change them.
    eng = ungated_engine()
    eng.add("u1", [f"User note number {i} about tea." for i in range(400)])
    scored = eng._score(eng._request("tea note", "u1", 5, None, None, None, None))
    expected = [scored.facts[i].content for i in range(len(scored.facts))]
    eng.delete("u1", [f.id for f in scored.facts] + [f"x{i}" for i in range(10)])
    eng.delete("u1", [derived_fact_id(f"User note number {i} about tea.") for i in range(300)])  # compacts
    assert [eng._fact(scored, i).content for i in range(len(expected))] == expected


def test_two_engines_writing_one_store_concurrently_both_see_every_fact() -> None:
    import threading

    store = ChromaStore.in_memory()
    a, b = ungated_engine(store=store), ungated_engine(store=store)
    a.add("u1", ["User likes tea."])
    b.add("u1", ["User likes jazz."])
    a.recall("likes", "u1")
    b.recall("likes", "u1")  # both caches loaded, so later writes update them in place when they may

    def write(engine: RecallEngine, tag: str) -> None:
        for i in range(25):
            engine.add("u1", [f"User likes {tag} {i}."])

    threads = [threading.Thread(target=write, args=(e, t)) for e, t in ((a, "red"), (b, "blue"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert a.count("u1") == 52
    assert len(a.recall("likes", "u1", limit=100)) == 52
    assert len(b.recall("likes", "u1", limit=100)) == 52


def test_a_slow_load_of_one_entity_does_not_block_recall_for_another() -> None:
    import threading

    release = threading.Event()
    loading = threading.Event()

    class SlowStore(ChromaStore):
        def load_entity(self, entity_id: str):  # type: ignore[override]
            if entity_id.startswith("slow"):
                loading.set()
                release.wait(30)
            return super().load_entity(entity_id)

    base = ChromaStore.in_memory()
    store = SlowStore(client=base._client, collection=base._facts.name, shared=False)
    eng = ungated_engine(store=store)
    fast = "fast"
    slow = next(f"slow{i}" for i in range(1000) if eng._entity_lock(f"slow{i}") is not eng._entity_lock(fast))
    eng.add(fast, ["User likes tea."])
    eng.add(slow, ["User likes jazz."])
    eng.clear_cache()

    slow_result: list = []
    t_slow = threading.Thread(target=lambda: slow_result.extend(eng.recall("likes", slow)))
    t_slow.start()
    assert loading.wait(30)
    fast_result: list = []
    t_fast = threading.Thread(target=lambda: fast_result.extend(eng.recall("likes", fast)))
    t_fast.start()
    t_fast.join(30)
    finished_while_slow_was_loading = not t_fast.is_alive() and t_slow.is_alive()
    release.set()
    t_slow.join(30)
    assert finished_while_slow_was_loading
    assert [f.content for f in fast_result] == ["User likes tea."]
    assert [f.content for f in slow_result] == ["User likes jazz."]


def test_a_warm_user_whose_id_hashed_onto_a_held_cold_loads_old_lock_stripe_is_served_without_waiting() -> None:
    from concurrent.futures import ThreadPoolExecutor, wait

    # The engine once hashed entities onto 64 lock stripes: pick a warm user on the cold user's stripe, so that a
    # lock shared by the two (as the stripes were) shows as this test hanging on the held load.
    cold = "cold"
    warm = next(f"warm{i}" for i in range(100_000) if hash(f"warm{i}") % 64 == hash(cold) % 64)
    with held_loads_engine(HashEmbedder(), cold, ["User likes jazz."], config=RecallConfig(gate="off")) as eng:
        store = eng.store
        store.release.set()
        eng.add(warm, ["User likes tea."])
        assert contents(eng.recall("likes", warm)) == ["User likes tea."]  # the warm user's copy is cached
        store.release.clear()
        store.loading.clear()

        with ThreadPoolExecutor(2) as pool:
            cold_recall = pool.submit(eng.recall, "likes", cold)
            assert store.loading.wait(30)  # the cold user's load is in the store, held
            warm_recall = pool.submit(eng.recall, "likes", warm)
            wait([warm_recall], timeout=30)  # bounded only so that a failure shows as an assertion, not a hang
            served_while_held = warm_recall.done() and not cold_recall.done() and not store.release.is_set()
            store.release.set()
        assert served_while_held
        assert contents(warm_recall.result()) == ["User likes tea."]
        assert contents(cold_recall.result()) == ["User likes jazz."]


def test_concurrent_adds_of_one_fact_count_every_sighting() -> None:
    import threading

    store = ChromaStore.in_memory()
    engines = [RecallEngine(store=store, embedder=HashEmbedder()) for _ in range(2)]
    engines[0].add("u1", ["User likes tea."])

    def sight(engine: RecallEngine) -> None:
        for _ in range(10):
            engine.add("u1", ["user likes tea"])

    threads = [threading.Thread(target=sight, args=(e,)) for e in engines for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    [stored] = store.get("u1", [derived_fact_id("User likes tea.")])
    assert stored.times_seen == 1 + 4 * 10
    assert engines[0].count("u1") == 1


def test_an_engine_without_a_store_opens_the_embedded_store_at_the_default_path(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("MEMORI_RECALL_PATH", str(tmp_path / "memory"))
    engine = RecallEngine(embedder=HashEmbedder())
    try:
        assert isinstance(engine.store, ChromaStore) and engine.store.location == str(tmp_path / "memory")
        engine.add("u", ["User lives in Lisbon."])
        assert [f.content for f in engine.recall("Lisbon", "u")] == ["User lives in Lisbon."]
    finally:
        engine.store.close()


def test_the_same_text_under_two_ids_is_recalled_once_and_explain_says_why() -> None:
    engine = ungated_engine()
    engine.add("u", ["User is vegetarian."], ids=["diet"])  # a store key
    engine.add("u", ["user is vegetarian", "User plays the cello."])  # a captured repeat, derived ids
    engine.add("u", ["User is vegetarian. "], ids=["diet-2"])
    assert len(engine.list("u")) == 4  # all stored: recall, not the store, reads them as one
    recalled = [f.content for f in engine.recall("vegetarian", "u", limit=5)]
    assert sorted(recalled) == ["User is vegetarian.", "User plays the cello."] or sorted(recalled) == [
        "User plays the cello.", "user is vegetarian"]
    report = engine.explain("vegetarian", "u", limit=5)
    assert [f.id for f in report.facts] == [f.id for f in engine.recall("vegetarian", "u", limit=5)]
    assert sum(c.reason == "same text as a fact above" for c in report.candidates) == 2


def test_a_core_fact_saying_what_a_recalled_one_says_is_not_appended_again() -> None:
    engine = ungated_engine()
    engine.add("u", ["User is allergic to peanuts."], ids=["allergy"], core=True)
    engine.add("u", ["User is allergic to peanuts.", "User lives in Leeds."])  # the same text, derived id
    recalled = [f.content for f in engine.recall("peanuts allergic", "u", limit=3)]
    assert recalled.count("User is allergic to peanuts.") == 1 and "User lives in Leeds." in recalled
    # the copy is left out, not replaced: two copies among the 2 best leave one fact
    assert [f.content for f in engine.recall("peanuts allergic", "u", limit=2)] == ["User is allergic to peanuts."]


def test_one_per_text_off_returns_every_copy_as_upstream_memori_does() -> None:
    engine = ungated_engine(one_per_text=False)
    engine.add("u", ["User is vegetarian."], ids=["diet"])
    engine.add("u", ["User is vegetarian."])
    assert [f.content for f in engine.recall("vegetarian", "u")] == ["User is vegetarian."] * 2
    assert RecallConfig.memori_compat().one_per_text is False


def test_the_store_path_variable_is_stripped_and_a_blank_one_is_ignored_with_a_warning(
    tmp_path, monkeypatch, caplog
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MEMORI_RECALL_PATH", f"  {tmp_path / 'memory'}  ")
    store = ChromaStore()
    try:
        assert store.location == str(tmp_path / "memory")
    finally:
        store.close()
    for blank in (" ", "\t\n"):
        monkeypatch.setenv("MEMORI_RECALL_PATH", blank)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="memori_core.store.chroma_paths"):
            assert default_store_path() == default_store_path(env=False)  # as every bad MEMORI_RECALL_* value
        assert caplog.messages == [f"ignoring MEMORI_RECALL_PATH={blank!r}: blank, not a folder; using the default "
                                   f"folder {default_store_path(env=False)}"]
    monkeypatch.setenv("MEMORI_RECALL_PATH", "")  # empty: unset, the default folder (not opened here)
    assert default_store_path() == default_store_path(env=False)
    with pytest.raises(ValueError, match=r"path must name a folder, got ' '"):
        ChromaStore(path=" ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memory"]  # no folder named ' ' was made


@pytest.mark.parametrize("kind", ["embedded", "in-memory store"])
async def test_entities_lists_every_user_with_a_fact_and_not_a_forgotten_one(tmp_path, kind: str) -> None:
    from memori_core.store import InMemoryFactStore

    store = ChromaStore(path=str(tmp_path / "mem")) if kind == "embedded" else InMemoryFactStore()
    with RecallEngine(store=store, embedder=HashEmbedder()) as engine:
        assert engine.entities() == []
        engine.add("u2", ["User lives in Lisbon."])
        engine.add("u1", ["User lives in Lisbon."])
        engine.add("u1", ["User lives in Porto."], supersedes=engine.list("u1")[0].id)
        engine.add("gone", ["User has a cat."])
        engine.forget("gone")
        assert engine.entities() == ["u1", "u2"]
        assert await engine.aentities() == ["u1", "u2"]
        for entity in engine.entities():  # what a backup loops over
            assert engine.export(entity)
