"""A write that fails at any point never leaves the engine's cache out of step with the store.

The faults are real: a Chroma store whose method does its work and then raises
(the store changed, the caller saw an error), or raises before doing anything.
After every failure the engine must answer exactly as a fresh engine over the
same store would.
"""

from __future__ import annotations

import random

import pytest

from _faults import Faults, InjectedFault
from memori_core import ChromaStore, RecallConfig, RecallEngine

CONFIG = RecallConfig(gate="off", limit=8)
QUERIES = ["passport number", "favourite tea", "dog walking schedule", "allergy", "user"]


class Answers(list):
    """Each query's recalled ids with their scores. Two are equal when they hold the same facts with the
    same scores to 1e-6, best first: float32 products over a cache with tombstoned rows and over a freshly
    loaded one can differ in the last bits (BLAS blocking), which no caller can tell apart."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, list) or len(self) != len(other):
            return False
        for mine, theirs in zip(self, other):
            score_of = dict(theirs)
            if len(mine) != len(theirs) or set(score_of) != {fid for fid, _ in mine}:
                return False
            if any(abs(score - score_of[fid]) > 1e-6 for fid, score in mine):
                return False
            # Best first in both; facts whose scores tie within the noise may come in either order.
            if any(abs(a - b) > 1e-6 for (_, a), (_, b) in zip(mine, theirs)):
                return False
        return True

    __hash__ = None  # type: ignore[assignment]


def _answers(engine: RecallEngine, entity: str = "u") -> Answers:
    return Answers([(f.id, f.rank_score) for f in engine.recall(q, entity)] for q in QUERIES)


def _fresh(store: ChromaStore, embedder) -> RecallEngine:
    return RecallEngine(store=store, embedder=embedder, config=CONFIG)


@pytest.fixture
def setup(hash_embedder):
    """A store holding u's three facts and other's one, its engine's copy loaded, and the store's faults to arm
    (each armed call fails once: ``faults.arm(method, when, times=1)``)."""
    store = ChromaStore.in_memory()
    engine = RecallEngine(store=store, embedder=hash_embedder, config=CONFIG)
    engine.add("u", ["User's passport number is X123.", "User likes green tea.", "User walks the dog at 7."],
               ids=["passport", "tea", "dog"])
    engine.add("other", ["Other user's allergy is peanuts."], ids=["peanuts"])
    assert _answers(engine)  # the cache is loaded before the fault
    return store, engine, hash_embedder, Faults(store)


def test_a_delete_that_fails_after_deleting_never_recalls_the_deleted_fact_again(setup) -> None:
    store, engine, emb, faults = setup
    faults.arm("delete", "after", times=1)
    with pytest.raises(InjectedFault):
        engine.delete("u", ["passport"])
    assert all("passport" not in [fid for fid, _ in answer] for answer in _answers(engine))
    assert _answers(engine) == _answers(_fresh(store, emb))
    engine.add("u", ["User drinks coffee on Mondays."], ids=["coffee"])  # later writes keep it so
    assert _answers(engine) == _answers(_fresh(store, emb))


def test_an_add_that_fails_after_storing_recalls_what_was_stored(setup) -> None:
    store, engine, emb, faults = setup
    faults.arm("upsert", "after", times=1)
    with pytest.raises(InjectedFault):
        engine.add("u", ["User's allergy is shellfish."], ids=["shellfish"])
    assert "shellfish" in {fid for answer in _answers(engine) for fid, _ in answer}
    assert _answers(engine) == _answers(_fresh(store, emb))


def test_a_forget_that_fails_after_forgetting_recalls_nothing(setup) -> None:
    store, engine, emb, faults = setup
    faults.arm("forget", "after", times=1)
    with pytest.raises(InjectedFault):
        engine.forget("u")
    assert _answers(engine) == [[] for _ in QUERIES]
    assert _answers(engine) == _answers(_fresh(store, emb))
    assert _answers(engine, "other") == _answers(_fresh(store, emb), "other")
    assert not _answers(engine, "other") == [[] for _ in QUERIES]


def test_a_failed_revision_write_still_reaches_another_engine_of_the_process(setup) -> None:
    store, engine, emb, faults = setup
    reader = _fresh(store, emb)
    assert _answers(reader) == _answers(engine)  # the reader has its own cache now
    faults.arm("commit_revision", "after", times=1)  # the local token changed, the store write of the record "failed"
    with pytest.raises(InjectedFault):
        engine.delete("u", ["tea"])
    assert all("tea" not in [fid for fid, _ in answer] for answer in _answers(reader))
    assert _answers(reader) == _answers(engine)
    assert _answers(reader) == _answers(_fresh(store, emb))


def test_a_write_that_fails_before_doing_anything_changes_nothing(setup) -> None:
    store, engine, emb, faults = setup
    before = _answers(engine)
    faults.arm("delete", "before", times=1)
    with pytest.raises(InjectedFault):
        engine.delete("u", ["dog"])
    assert _answers(engine) == before
    assert _answers(engine) == _answers(_fresh(store, emb))


@pytest.mark.slow  # several seconds: left out of `make test-fast`
def test_random_writes_with_injected_faults_always_answer_as_a_fresh_engine(setup) -> None:
    store, engine, emb, faults = setup
    rng = random.Random(11)
    words = ["tea", "dog", "passport", "allergy", "coffee", "user", "walks", "number", "green", "Monday"]
    methods = {"add": ["upsert", "update_seen", "commit_revision"], "delete": ["delete", "commit_revision"],
               "forget": ["forget", "commit_revision"]}
    failures = 0
    for step in range(60):
        op = rng.choices(["add", "delete", "forget"], weights=[6, 3, 1])[0]
        if rng.random() < 0.5:
            faults.arm(rng.choice(methods[op]), rng.choice(["before", "after"]), times=1)
        try:
            if op == "add":
                texts = [" ".join(rng.sample(words, 3)) + f" note{step}x{j}" for j in range(rng.randint(1, 3))]
                engine.add("u", texts, session_id=f"s{step % 4}")
            elif op == "delete":
                ids = [fid for answer in _answers(engine) for fid, _ in answer][:2]
                engine.delete("u", ids or ["missing"])
            else:
                engine.forget("u")
        except InjectedFault:
            failures += 1
        faults.disarm()
        assert _answers(engine) == _answers(_fresh(store, emb)), f"step {step}: {op}"
        assert _answers(engine, "other") == _answers(_fresh(store, emb), "other")
    assert failures >= 5  # the faults really fired


def test_delete_takes_repeated_ids_and_refuses_none(setup) -> None:
    store, engine, emb, faults = setup
    engine.delete("u", ["dog", "dog", "tea"])
    assert engine.count("u") == 1
    with pytest.raises(TypeError, match="ids must be a str or a sequence of str"):
        engine.delete("u", None)  # type: ignore[arg-type]


@pytest.fixture
def faulty(hash_embedder):
    """A store writing two facts a batch, its engine, and the faults of its real Chroma collection to arm
    (a full disk, a dropped connection, a store that went down; batches may be written in parallel)."""
    store = ChromaStore.in_memory()
    store.max_batch_size = 2
    return store, RecallEngine(store=store, embedder=hash_embedder, config=CONFIG), hash_embedder, Faults(store._facts)


FIVE = [f"User fact number {i} about tea" for i in range(5)]
FIVE_IDS = [f"f{i}" for i in range(5)]
HNSW_RACE = "Error executing plan: Internal error: Error creating hnsw segment reader"


def test_an_add_that_fails_after_its_first_batch_says_exactly_which_facts_landed(faulty) -> None:
    from memori_core import PartialWriteError

    store, engine, emb, faults = faulty
    faults.arm("upsert", ids=["f2"], message="disk full")  # batches [f0 f1] [f2 f3] [f4]: the 2nd fails
    with pytest.raises(PartialWriteError) as caught:
        engine.add("u", FIVE, ids=FIVE_IDS)
    err = caught.value
    assert err.stored_ids == ["f0", "f1", "f4"] and err.unstored_ids == ["f2", "f3"]
    assert isinstance(err.__cause__, InjectedFault)
    assert sorted(f.id for f in store.get("u", FIVE_IDS)) == ["f0", "f1", "f4"]
    # Retrying the unstored ones is exact: every fact once, and recall agrees with a fresh engine.
    faults.disarm()  # the disk has room again
    engine.add("u", FIVE[2:4], ids=err.unstored_ids)
    assert engine.count("u") == 5
    assert _answers(engine) == _answers(_fresh(store, emb))


def test_an_add_that_fails_on_its_first_batch_raises_the_store_error_itself(faulty) -> None:
    store, engine, emb, faults = faulty
    faults.arm("upsert", times=1, message="disk full")
    with pytest.raises(InjectedFault):
        engine.add("u", ["User likes tea."])
    assert engine.count("u") == 0


def test_an_add_whose_batch_failed_after_landing_counts_it_as_stored(faulty) -> None:
    from memori_core import PartialWriteError

    store, engine, emb, faults = faulty
    # batches [f0 f1] [f2 f3] [f4]: the second lands and then fails, the third fails before landing
    faults.arm("upsert", "after", ids=["f2"])
    faults.arm("upsert", "before", ids=["f4"])
    with pytest.raises(PartialWriteError) as caught:
        engine.add("u", FIVE, ids=FIVE_IDS)
    assert caught.value.stored_ids == ["f0", "f1", "f2", "f3"] and caught.value.unstored_ids == ["f4"]
    assert sorted(store.present("u", FIVE_IDS)) == ["f0", "f1", "f2", "f3"]
    assert _answers(engine) == _answers(_fresh(store, emb))


def test_an_add_whose_only_batch_failed_after_landing_is_done(faulty) -> None:
    store, engine, emb, faults = faulty
    faults.arm("upsert", "after", ids=["f0"])
    assert engine.add("u", FIVE[:2], ids=FIVE_IDS[:2]) == ["f0", "f1"]  # the store's error, read back: all landed
    assert engine.count("u") == 2
    assert _answers(engine) == _answers(_fresh(store, emb))


def test_an_add_that_cannot_be_read_back_reports_only_what_surely_landed(faulty) -> None:
    from memori_core import PartialWriteError

    store, engine, emb, faults = faulty
    faults.arm("upsert", "after", ids=["f2"])
    real_upsert = store._facts.upsert

    def upsert_then_go_down(**kwargs):
        try:
            return real_upsert(**kwargs)
        except InjectedFault:
            faults.arm("get", message="get failed: the store is down")  # nothing can be read back
            raise

    store._facts.upsert = upsert_then_go_down
    with pytest.raises(PartialWriteError, match="read back failed") as caught:
        engine.add("u", FIVE, ids=FIVE_IDS)
    assert caught.value.stored_ids == ["f0", "f1", "f4"]  # the batches that returned
    faults.disarm("get")
    assert set(store.present("u", FIVE_IDS)) >= set(caught.value.stored_ids)
    assert _answers(engine) == _answers(_fresh(store, emb))


def _stored_once_then_failing_update(engine, faults, when: str) -> str:
    """Store "User likes green tea." once; its next sighting update will fail ``when``; returns its id."""
    engine.add("u", ["User likes green tea."])
    fid = engine.list("u")[0].id
    faults.arm("update", when, ids=[fid])
    return fid


def test_a_sighting_update_that_failed_after_landing_is_done(faulty) -> None:
    store, engine, emb, faults = faulty
    fid = _stored_once_then_failing_update(engine, faults, "after")
    engine.add("u", ["User likes green tea."])  # seen again: times_seen 2, although the update raised
    assert engine.get("u", [fid])[0].times_seen == 2
    assert _answers(engine) == _answers(_fresh(store, emb))


def test_delete_returns_the_ids_that_were_stored_once_each_in_order(faulty) -> None:
    store, engine, emb, faults = faulty
    engine.add("u", FIVE, ids=FIVE_IDS)
    assert engine.delete("u", ["f3", "nope", "f1", "f3"]) == ["f3", "f1"]
    revision = store.revision("u")
    assert engine.delete("u", ["f3", "nope"]) == []
    assert store.revision("u") == revision  # nothing deleted: no write, no new revision
    assert engine.delete("other-user", ["f0"]) == []  # another entity's ids are not this one's
    assert sorted(store.present("u", FIVE_IDS)) == ["f0", "f2", "f4"]
    assert _answers(engine) == _answers(_fresh(store, emb))


def test_a_delete_that_fails_part_way_says_which_facts_are_gone(faulty) -> None:
    from memori_core import PartialDeleteError, PartialWriteError

    store, engine, emb, faults = faulty
    engine.add("u", FIVE, ids=FIVE_IDS)
    faults.arm("delete", ids=["f2"])  # chunks [f0 f1] [f2 f3] [f4]: the second fails
    with pytest.raises(PartialDeleteError) as caught:
        engine.delete("u", FIVE_IDS)
    err = caught.value
    assert isinstance(err, PartialWriteError) and isinstance(err.__cause__, InjectedFault)
    assert err.deleted_ids == ["f0", "f1"] and err.remaining_ids == ["f2", "f3", "f4"]
    assert sorted(store.present("u", FIVE_IDS)) == ["f2", "f3", "f4"]
    assert _answers(engine) == _answers(_fresh(store, emb))
    faults.disarm()
    assert engine.delete("u", err.remaining_ids) == ["f2", "f3", "f4"]  # deleting the rest again is exact
    assert engine.count("u") == 0


def test_a_delete_whose_chunk_failed_after_deleting_is_done_and_one_that_failed_first_raises(faulty) -> None:
    store, engine, emb, faults = faulty
    engine.add("u", FIVE, ids=FIVE_IDS)
    faults.arm("delete", "after", ids=["f0"])
    assert engine.delete("u", ["f0", "f1"]) == ["f0", "f1"]
    faults.disarm()
    faults.arm("delete", ids=["f2"])
    with pytest.raises(InjectedFault):
        engine.delete("u", ["f2", "f3"])  # nothing deleted: the store's own error
    assert sorted(store.present("u", FIVE_IDS)) == ["f2", "f3", "f4"]
    assert _answers(engine) == _answers(_fresh(store, emb))


def test_an_add_whose_sightings_fail_after_its_new_facts_landed_names_both(faulty) -> None:
    from memori_core import PartialWriteError

    store, engine, emb, faults = faulty
    seen_id = _stored_once_then_failing_update(engine, faults, "before")
    with pytest.raises(PartialWriteError) as caught:
        engine.add("u", ["User walks the dog at 7.", "User likes green tea."])
    err = caught.value
    assert seen_id in err.unstored_ids and len(err.stored_ids) == 1 and isinstance(err.__cause__, InjectedFault)
    assert engine.get("u", err.stored_ids)[0].content == "User walks the dog at 7."
    assert engine.get("u", [seen_id])[0].times_seen == 1
    faults.disarm()
    engine.add("u", ["User likes green tea."])  # adding the unstored one again is exact
    assert engine.get("u", [seen_id])[0].times_seen == 2 and engine.count("u") == 2
    assert _answers(engine) == _answers(_fresh(store, emb))


def test_an_add_whose_supersede_marking_fails_says_every_fact_is_stored_and_the_old_one_still_valid(faulty) -> None:
    from memori_core import PartialWriteError

    store, engine, emb, faults = faulty
    engine.add("u", FIVE, ids=FIVE_IDS)
    faults.arm("update", ids=["f1"])
    with pytest.raises(PartialWriteError, match="as superseded failed") as caught:
        engine.add("u", ["User moved to Porto."], ids=["porto"], supersedes=["f1"])
    assert caught.value.stored_ids == ["porto"] and caught.value.unstored_ids == []
    assert "f1" in str(caught.value)
    assert sorted(store.present("u", ["porto", "f1"])) == ["f1", "porto"]
    assert store.get("u", ["f1"])[0].valid_to is None  # not marked: still valid, as a fresh engine sees it
    assert _answers(engine) == _answers(_fresh(store, emb))


def test_an_add_that_stores_nothing_raises_the_store_error_itself(faulty) -> None:
    store, engine, emb, faults = faulty
    faults.arm("upsert", ids=["f0"])
    with pytest.raises(InjectedFault):
        engine.add("u", FIVE[:2], ids=FIVE_IDS[:2])
    assert engine.count("u") == 0


def test_reads_that_chroma_fails_internally_are_tried_again(faulty) -> None:
    from chromadb.errors import InternalError

    store, engine, emb, faults = faulty
    engine.add("u", FIVE, ids=FIVE_IDS)
    faults.arm("get", error=InternalError, message=HNSW_RACE, times=2)  # a server racing its own segment flush, twice
    assert store.present("u", ["f1", "nope"]) == ["f1"]
    assert [f.id for f in store.get("u", ["f2"])] == ["f2"]
    faults.arm("get", error=InternalError, message=HNSW_RACE, times=3)  # three in a row: the error is the caller's
    with pytest.raises(InternalError):
        store.present("u", ["f1"])


def test_the_dimension_read_is_tried_again_when_chroma_fails_it_internally(faulty) -> None:
    """Two processes importing into a new collection at once hit chroma-core/chroma#4212 on this read."""
    from chromadb.errors import InternalError

    store, engine, emb, faults = faulty
    engine.add("u", FIVE, ids=FIVE_IDS)
    dim = store.dimension()
    store._dimension = None  # as a store object in another process that has not read it yet
    faults.arm("peek", error=InternalError, message=HNSW_RACE, times=2)
    assert store.dimension() == dim
    store._dimension = None
    faults.arm("peek", error=InternalError, message=HNSW_RACE, times=3)
    with pytest.raises(InternalError):
        store.dimension()


def test_a_forget_whose_reply_is_lost_after_deleting_returns_as_a_success(faulty) -> None:
    store, engine, emb, faults = faulty
    engine.add("u", FIVE, ids=FIVE_IDS)
    engine.add("other", ["User likes tea."])
    faults.arm("delete", "after", times=1)  # the collection deleted u's rows, the caller saw an error
    engine.forget("u")  # read back: nothing of u is left, so the forget landed
    assert engine.count("u") == 0 and _answers(engine) == [[] for _ in QUERIES]
    assert _answers(engine) == _answers(_fresh(store, emb))
    assert engine.count("other") == 1


def test_a_forget_that_fails_before_deleting_raises_and_keeps_every_fact(faulty) -> None:
    store, engine, emb, faults = faulty
    engine.add("u", FIVE, ids=FIVE_IDS)
    faults.arm("delete", "before", times=1)
    with pytest.raises(InjectedFault):
        engine.forget("u")
    assert engine.count("u") == 5
    assert _answers(engine) == _answers(_fresh(store, emb))
