"""The bounded recency tie-break (issue 21): of two valid facts of one person's same slot, the newer wins a
near-tie, never a clear loss; off by default and in memori_compat()."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from _helpers import HashEmbedder
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.ranking.recency import newest_of_slot_bonus
from memori_core.slots import slot_keys
from memori_core.store import InMemoryFactStore

T0 = datetime(2026, 1, 5, 10, 0, tzinfo=timezone.utc)
LISBON, PORTO = "User lives in Lisbon.", "User lives in Porto."
QUERY = "where does the user live"


def test_slot_keys_name_the_person_and_the_slot() -> None:
    assert slot_keys(PORTO) == {"user:residence"}
    assert slot_keys("User's sister lives in Porto.") == {"sister:residence"}
    assert slot_keys("User has a cat.") == frozenset()
    # what the user lives on or off is no place ("a route near home" must not open it as where they live)
    assert slot_keys("User lives on a teacher's pension and Social Security.") == frozenset()
    assert slot_keys("User is living off savings.") == frozenset()
    assert slot_keys("User lives on a farm.") == {"user:residence"}


def test_the_newest_of_each_shared_slot_gets_the_weight_and_nothing_else_does() -> None:
    keys = [frozenset({"user:residence"}), frozenset({"user:residence"}), frozenset({"sister:residence"}),
            frozenset(), frozenset({"user:job"})]
    created = np.array([100.0, 200.0, 300.0, 400.0, 500.0])
    assert newest_of_slot_bonus(keys, created, 0.02).tolist() == [0.0, 0.02, 0.0, 0.0, 0.0]
    # Same time: the later candidate of the pair is taken as the newer one.
    assert newest_of_slot_bonus(keys[:2], np.array([5.0, 5.0]), 0.01).tolist() == [0.0, 0.01]


def _engine(weight: float, store: str) -> RecallEngine:
    config = RecallConfig(gate="off", slot_recency_weight=weight)
    return RecallEngine(store=ChromaStore.in_memory() if store == "chroma" else InMemoryFactStore(),
                        embedder=HashEmbedder(), config=config)


def _between(a: str, b: str, lean: float = 0.0) -> np.ndarray:
    """A query vector as close to ``a`` as to ``b``, leaning ``lean`` towards ``a``: a near-tie."""
    va, vb = HashEmbedder().embed_documents([a, b])
    return (1 + lean) * va / np.linalg.norm(va) + vb / np.linalg.norm(vb)


@pytest.mark.parametrize("store", ["chroma", "reference"])
def test_the_newer_fact_of_a_slot_wins_a_tie_only_with_the_weight(store: str) -> None:
    near = _between(LISBON, PORTO, lean=0.02)  # the older fact ahead by less than the weight
    gaps = {}
    for weight, first in ((0.0, LISBON), (0.02, PORTO)):
        engine = _engine(weight, store)
        engine.add("u", LISBON, created_at=T0)  # never superseded: both valid
        engine.add("u", PORTO, created_at=T0 + timedelta(days=30))
        got = engine.recall(QUERY, "u", 2, query_vector=near)
        assert [f.content for f in got] == [first, LISBON if first == PORTO else PORTO], weight
        gaps[weight] = got[0].rank_score - got[1].rank_score
    assert 0 < gaps[0.0] < 0.02 and gaps[0.02] == pytest.approx(0.02 - gaps[0.0])


def test_a_clear_lead_and_other_peoples_facts_are_left_alone() -> None:
    engine = _engine(0.05, "chroma")
    engine.add("u", LISBON, created_at=T0)
    engine.add("u", PORTO, created_at=T0 + timedelta(days=30))
    (lisbon_vec,) = HashEmbedder().embed_documents([LISBON])
    assert engine.recall(QUERY, "u", 1, query_vector=lisbon_vec)[0].content == LISBON  # far ahead: it stays
    sister = "User's sister lives in Porto."
    other = _engine(0.05, "chroma")
    other.add("u", LISBON, created_at=T0)
    other.add("u", sister, created_at=T0 + timedelta(days=30))
    report = other.explain(QUERY, "u", 2, query_vector=_between(LISBON, sister))
    assert all(c.neighbour_bonus == 0 for c in report.candidates)  # different people: no tie-break


def test_explain_shows_the_tie_break_in_the_bonus() -> None:
    engine = _engine(0.02, "chroma")
    engine.add("u", LISBON, created_at=T0)
    engine.add("u", PORTO, created_at=T0 + timedelta(days=30))
    report = engine.explain(QUERY, "u", 2, query_vector=_between(LISBON, PORTO))
    assert {c.content: round(c.neighbour_bonus, 6) for c in report.candidates} == {PORTO: 0.02, LISBON: 0.0}


def test_off_by_default_and_in_memori_compat_and_bounded() -> None:
    assert RecallConfig().slot_recency_weight == 0.0
    assert RecallConfig.memori_compat().slot_recency_weight == 0.0
    with pytest.raises(ValueError, match="slot_recency_weight must be in"):
        RecallConfig(slot_recency_weight=0.2)


@pytest.mark.parametrize("text, keys", [
    ("User makes a living as a potter.", {"user:job"}),  # "a living" is a job, not a home
    ("User is living in Leeds.", {"user:residence"}),
    ("What's my job?", {"user:job"}),  # "what's" is no one's possessive
    ("User moved to Bath for Tom's new job.", {"user:residence", "tom:job"}),
])
def test_slot_keys_read_a_living_as_a_job_and_whats_as_no_possessive(text, keys):
    assert slot_keys(text) == frozenset(keys)


@pytest.mark.parametrize("store", ["chroma", "reference"])
def test_a_fact_said_again_now_by_an_undated_add_is_the_later_said_of_its_slot(store: str) -> None:
    # Issue 21: the tie-break read only when a fact was first said. Lisbon said in January, Porto in February, then
    # "User lives in Lisbon." added again without created_at (said now): the later-said fact is Lisbon.
    engine = _engine(0.02, store)
    engine.add("u", LISBON, created_at=T0)
    engine.add("u", PORTO, created_at=T0 + timedelta(days=30))
    engine.add("u", LISBON)  # a sighting, dated now
    got = engine.recall(QUERY, "u", 2, query_vector=_between(LISBON, PORTO))
    assert [f.content for f in got] == [LISBON, PORTO]


@pytest.mark.parametrize("store", ["chroma", "reference"])
def test_a_sighting_dated_before_the_other_fact_leaves_that_fact_the_later_said(store: str) -> None:
    # A replayed turn dated in January saying Lisbon again is no later saying than Porto's in February.
    engine = _engine(0.02, store)
    engine.add("u", LISBON, created_at=T0)
    engine.add("u", PORTO, created_at=T0 + timedelta(days=30))
    engine.add("u", LISBON, created_at=T0 + timedelta(days=1))
    assert [f.content for f in engine.recall(QUERY, "u", 2, query_vector=_between(LISBON, PORTO))] == [PORTO, LISBON]
    # read as of a time, the first saying counts (a sighting after it is not known then)
    as_of = engine.recall(QUERY, "u", 2, query_vector=_between(LISBON, PORTO), as_of=T0 + timedelta(days=40))
    assert [f.content for f in as_of] == [PORTO, LISBON]


@pytest.mark.parametrize("store", ["chroma", "reference"])
def test_an_undated_add_is_later_said_than_a_capture_dated_in_the_past_whichever_is_written_first(
    store: str,
) -> None:
    # An add without created_at is said when it is called; a turn captured with said_at is said then, however
    # late its capture writes: the write order never decides.
    past = datetime.now(timezone.utc) - timedelta(days=2)
    for order in ("undated first", "dated first"):
        engine = _engine(0.02, store)
        if order == "undated first":
            engine.add("u", PORTO)
            engine.add("u", LISBON, created_at=past)
        else:
            engine.add("u", LISBON, created_at=past)
            engine.add("u", PORTO)
        got = engine.recall(QUERY, "u", 2, query_vector=_between(LISBON, PORTO))
        assert [f.content for f in got] == [PORTO, LISBON], order
        assert [f.content for f in engine.list("u")] == [PORTO, LISBON], order  # newest first: the same order
