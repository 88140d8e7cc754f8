"""What every :class:`~memori_core.store.FactStore` does: one suite of protocol tests, run against each store.

To run it against a store, subclass :class:`StoreConformance` in a ``test_*``
module (``tests/test_store_conformance.py`` does so for the in-memory and
embedded ChromaStore and for InMemoryFactStore) and give it:

* a ``store`` fixture yielding a new, empty store (closed by the fixture);
* :meth:`StoreConformance.fail_batches_holding`, which makes the store's
  batches of one operation fail before they land (the partial-write tests
  are skipped for a store without it);
* :meth:`StoreConformance.use_batches_of` when the store does not batch by a
  ``max_batch_size`` attribute.

Each test names the behaviour it checks; together they are the protocol's
written semantics (:mod:`memori_core.store.base`) made executable.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from memori_core import PartialDeleteError, PartialWriteError, StoredFact
from memori_core.store import CacheFolder, FactStore
from memori_core.store.base import ClosedError, split_revision
from memori_core.text import text_fact_id

DIM = 8
CREATED = "2024-05-01T09:30:00+00:00"


class InjectedFault(RuntimeError):
    """The error a batch made to fail raises."""


def fact(fact_id: str, entity_id: str = "u", content: str | None = None, **fields: Any) -> StoredFact:
    """A fact with a text derived from its id unless given."""
    fields.setdefault("created_at", CREATED)
    return StoredFact(fact_id, entity_id, content if content is not None else f"fact {fact_id} about tea", **fields)


def vectors(n: int, dim: int = DIM, seed: int = 0) -> np.ndarray:
    """``n`` distinct float32 vectors (no two parallel)."""
    return np.random.default_rng(seed).normal(size=(n, dim)).astype(np.float32)


def facts_f(n: int) -> list[StoredFact]:
    """Facts ``f0`` .. ``f<n-1>`` of entity ``u``."""
    return [fact(f"f{i}") for i in range(n)]


class StoreConformance:
    """The protocol tests; see the module docstring for what a subclass provides."""

    @pytest.fixture
    def store(self) -> FactStore:  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    def use_batches_of(self, store: FactStore, size: int) -> None:
        """Make ``store`` write in batches of ``size`` facts."""
        store.max_batch_size = size  # type: ignore[attr-defined]

    def fail_batches_holding(self, store: FactStore, op: str, fact_id: str) -> None:
        """Make ``store``'s batches of ``op`` (``"upsert"``, ``"update_seen"``, ``"delete"``) that hold
        ``fact_id`` raise :class:`InjectedFault` before they land."""
        pytest.skip("this store has no way to make a batch fail")

    # -- round trip ---------------------------------------------------------------

    def test_a_fact_reads_back_with_every_field_it_was_written_with(self, store: FactStore) -> None:
        full = fact(
            "a", content="User drinks green tea 🍵 every morning.", metadata={"b": [1, 2], "a": {"z": 1, "y": None}},
            last_seen="2024-06-01T00:00:00+00:00", times_seen=3, session_id="s1", seq=42,
            updated_at="2024-06-02T00:00:00+00:00", expires_at="2030-01-01T00:00:00+00:00",
        )
        long = fact("long", content="User wrote: " + "é" * 3000)  # longer than a metadata value may be
        store.upsert("u", [full, long], vectors(2))
        got = {f.id: f for f in store.get("u", ["a", "long"])}
        assert got == {"a": full, "long": long}
        assert got["a"].embedding is None

    def test_empty_strings_read_back_as_none(self, store: FactStore) -> None:
        store.upsert("u", [fact("e", created_at="", last_seen="", session_id="", updated_at="", expires_at="")],
                     vectors(1))
        [got] = store.get("u", ["e"])
        assert (got.created_at, got.last_seen, got.session_id, got.updated_at, got.expires_at) == (None,) * 5

    def test_metadata_reads_back_as_its_json_form_with_sorted_keys(self, store: FactStore) -> None:
        store.upsert("u", [fact("m", metadata={"t": (1, 2), 3: "x", "a": {"z": 0, "b": 1}})], vectors(1))
        [got] = store.get("u", ["m"])
        assert got.metadata == {"3": "x", "a": {"b": 1, "z": 0}, "t": [1, 2]}
        assert list(got.metadata) == ["3", "a", "t"] and list(got.metadata["a"]) == ["b", "z"]

    def test_load_entity_gives_columns_facts_and_vectors_of_what_was_written(self, store: FactStore) -> None:
        written = [fact("a", metadata={"k": 1}, session_id="s", seq=5), fact("b", times_seen=2)]
        vecs = vectors(2)
        store.upsert("u", written, vecs)
        rows = store.load_entity("u")
        assert len(rows) == 2 and rows.entity_id == "u"
        assert rows.facts == written
        cols = rows.columns
        assert cols.ids == ["a", "b"] and cols.texts == [f.content for f in written]
        assert cols.metadata_json == ['{"k": 1}', ""] and cols.times_seen == [1, 2] and cols.seq == [5, 0]
        assert cols.session_id == ["s", None]
        assert all(block.dtype == np.float32 for block in cols.embeddings)
        assert np.allclose(np.stack(rows.embeddings), vecs, rtol=0, atol=1e-6)

    def test_an_unknown_entity_loads_as_no_rows(self, store: FactStore) -> None:
        store.upsert("u", [fact("a")], vectors(1))
        rows = store.load_entity("nobody")
        assert len(rows) == 0 and rows.columns.ids == [] and rows.columns.embeddings == []

    # -- order ----------------------------------------------------------------------

    def test_rows_load_in_write_order_a_rewritten_row_keeping_its_place(self, store: FactStore) -> None:
        store.upsert("u", [fact("c"), fact("a"), fact("b")], vectors(3))
        store.upsert("v", [fact("z", entity_id="v")], vectors(1, seed=1))
        store.upsert("u", [fact("a", content="a rewritten")], vectors(1, seed=2))  # keeps its place
        store.delete("u", ["c"])
        store.upsert("u", [fact("c")], vectors(1, seed=3))  # written again: last
        rows = store.load_entity("u")
        assert rows.columns.ids == ["a", "b", "c"]
        assert rows.columns.texts[0] == "a rewritten"
        assert np.allclose(rows.embeddings[0], vectors(1, seed=2)[0], rtol=0, atol=1e-6)

    def test_a_large_entity_loads_every_row_in_write_order(self, store: FactStore) -> None:
        order = [f"r{i}" for i in np.random.default_rng(7).permutation(1100)]  # more than one page of a paged read
        vecs = vectors(len(order), seed=3)
        store.upsert("u", [fact(i) for i in order], vecs)
        rows = store.load_entity("u")
        assert rows.columns.ids == order
        assert np.allclose(np.stack(rows.embeddings), vecs, rtol=0, atol=1e-6)

    # -- reads by id, isolation ----------------------------------------------------------

    def test_get_leaves_out_unknown_ids(self, store: FactStore) -> None:
        store.upsert("u", [fact("a"), fact("b")], vectors(2))
        assert {f.id for f in store.get("u", ["b", "missing", "a"])} == {"a", "b"}
        assert store.get("u", []) == [] and store.get("u", ["missing"]) == []

    def test_entities_never_see_each_others_facts_even_with_the_same_ids(self, store: FactStore) -> None:
        store.upsert("a", [fact("k", "a", "A's fact")], vectors(1))
        store.upsert("b", [fact("k", "b", "B's fact"), fact("only-b", "b")], vectors(2, seed=1))
        assert [f.content for f in store.get("a", ["k", "only-b"])] == ["A's fact"]
        assert store.present("a", ["k", "only-b"]) == ["k"] and store.count("a") == 1 and store.count("b") == 2
        store.delete("a", ["k", "only-b"])
        assert store.get("a", ["k"]) == [] and store.count("b") == 2
        assert [f.content for f in store.get("b", ["k"])] == ["B's fact"]
        assert store.load_entity("b").columns.ids == ["k", "only-b"] and len(store.load_entity("a")) == 0

    def test_present_keeps_the_order_given_once_each_and_only_stored_ids(self, store: FactStore) -> None:
        store.upsert("u", [fact("a"), fact("b"), fact("c")], vectors(3))
        assert store.present("u", ["c", "x", "a", "c"]) == ["c", "a"]
        assert store.present("u", []) == [] and store.present("other", ["a"]) == []

    def test_holding_texts_finds_facts_by_the_id_their_text_derives_whatever_their_own_id(
            self, store: FactStore) -> None:
        store.upsert("u", [fact("own", content="User works at Globex."), fact("other", content="User is vegan."),
                           fact("later", content="User works at Acme.")], vectors(3))
        store.upsert("b", [fact("own", "b", content="User works at Globex.")], vectors(1, seed=1))
        globex, acme = text_fact_id("user works at globex"), text_fact_id("User works at Acme.")
        assert sorted(f.id for f in store.holding_texts("u", [globex, acme, "nothing"])) == ["later", "own"]
        store.upsert("u", [fact("later", content="User works at Initech.")], vectors(1))  # its text changed
        assert [f.id for f in store.holding_texts("u", [acme])] == []
        assert [(f.id, f.content) for f in store.holding_texts("u", [globex])] == [("own", "User works at Globex.")]
        assert store.holding_texts("u", []) == [] and store.holding_texts("nobody", [globex]) == []

    def test_count_counts_one_entitys_facts(self, store: FactStore) -> None:
        assert store.count("u") == 0
        store.upsert("u", facts_f(3), vectors(3))
        store.upsert("v", [fact("f0", "v")], vectors(1))
        assert store.count("u") == 3 and store.count("v") == 1

    def test_entity_ids_lists_every_entity_with_a_fact_sorted_and_none_forgotten_or_emptied(
        self, store: FactStore
    ) -> None:
        assert store.entity_ids() == []
        store.upsert("bob", [fact("b0", "bob"), fact("b1", "bob")], vectors(2))
        store.upsert("alice", [fact("f0", "alice")], vectors(1))
        store.upsert("carol", [fact("c", "carol")], vectors(1))
        store.upsert("dave", [fact("d", "dave")], vectors(1))
        assert store.entity_ids() == ["alice", "bob", "carol", "dave"]
        store.forget("bob")
        store.delete("carol", ["c"])
        assert store.entity_ids() == ["alice", "dave"]

    def test_entity_ids_reads_past_one_page_of_a_paged_read(self, store: FactStore) -> None:
        names = [f"user-{i % 7}" for i in range(1100)]  # more rows than one page, entities spread over them
        store.upsert("user-0", [fact(f"r{i}", "user-0") for i in range(1100)], vectors(1100, seed=5))
        for name in sorted(set(names) - {"user-0"}):
            store.upsert(name, [fact("x", name)], vectors(1, seed=6))
        assert store.entity_ids() == sorted(set(names))

    # -- dimension ----------------------------------------------------------------------

    def test_the_dimension_is_set_by_the_first_write_and_kept_when_every_row_is_gone(self, store: FactStore) -> None:
        assert store.dimension() is None
        store.upsert("u", [fact("a")], vectors(1, dim=DIM))
        assert store.dimension() == DIM
        store.forget("u")
        assert store.count("u") == 0 and store.dimension() == DIM

    def test_a_write_of_another_dimension_raises_and_stores_nothing(self, store: FactStore) -> None:
        store.upsert("u", [fact("a")], vectors(1, dim=DIM))
        with pytest.raises(Exception):  # noqa: B017 - each store raises its own (ValueError, Chroma's error)
            store.upsert("u", [fact("b")], vectors(1, dim=DIM // 2))
        assert store.present("u", ["a", "b"]) == ["a"] and store.dimension() == DIM

    def test_a_write_with_more_facts_than_vectors_raises_value_error_and_stores_nothing(self, store: FactStore) -> None:
        with pytest.raises(ValueError):
            store.upsert("u", facts_f(3), vectors(2))
        assert store.count("u") == 0

    # -- writes ---------------------------------------------------------------------------

    def test_upsert_replaces_a_fact_by_id_text_metadata_and_vector(self, store: FactStore) -> None:
        store.upsert("u", [fact("x", content="first", metadata={"a": 1})], vectors(1))
        store.upsert("u", [fact("x", content="second", created_at="2024-02-01T00:00:00+00:00")], vectors(1, seed=9))
        [got] = store.get("u", ["x"])
        assert got.content == "second" and got.metadata == {} and got.created_at == "2024-02-01T00:00:00+00:00"
        assert store.count("u") == 1
        assert np.allclose(store.load_entity("u").embeddings[0], vectors(1, seed=9)[0], rtol=0, atol=1e-6)

    def test_update_seen_rewrites_fields_keeps_the_vector_and_skips_facts_not_stored(self, store: FactStore) -> None:
        a = fact("a", metadata={"k": 1})
        store.upsert("u", [a], vectors(1))
        seen = replace(a, times_seen=2, last_seen="2024-07-01T00:00:00+00:00", metadata={"k": 2})
        store.update_seen("u", [seen, fact("ghost")])
        assert store.get("u", ["a", "ghost"]) == [seen]
        assert store.count("u") == 1
        assert np.allclose(store.load_entity("u").embeddings[0], vectors(1)[0], rtol=0, atol=1e-6)

    def test_delete_removes_the_given_ids_and_ignores_unknown_ones(self, store: FactStore) -> None:
        store.upsert("u", facts_f(3), vectors(3))
        store.delete("u", ["f1", "nope"])
        assert store.present("u", ["f0", "f1", "f2"]) == ["f0", "f2"]

    def test_forget_deletes_one_entity_and_nothing_else(self, store: FactStore) -> None:
        store.upsert("u", facts_f(3), vectors(3))
        store.upsert("v", [fact("f0", "v")], vectors(1))
        store.forget("u")
        assert store.count("u") == 0 and store.load_entity("u").columns.ids == []
        assert [f.id for f in store.get("v", ["f0"])] == ["f0"]

    def test_forget_records_when_it_ran_for_that_entity_alone_and_commits_keep_it(self, store: FactStore) -> None:
        assert store.forgotten_at("u") is None
        store.upsert("u", facts_f(2), vectors(2))
        base = store.bump_revision("u")
        before = time.time()
        store.forget("u")
        at = store.forgotten_at("u")
        assert at is not None and before <= at <= time.time()
        assert store.revision("u") == base  # the record is no change of the facts
        store.commit_revision("u", base)
        assert store.forgotten_at("u") == at and store.forgotten_at("v") is None

    def test_progress_reports_the_facts_stored_so_far_after_each_batch(self, store: FactStore) -> None:
        self.use_batches_of(store, 2)
        calls: list[int] = []
        store.upsert("u", facts_f(5), vectors(5), progress=calls.append)
        assert len(calls) == 3 and calls == sorted(calls) and calls[-1] == 5
        assert sorted(np.diff([0, *calls]).tolist()) == [1, 2, 2]  # one report per batch, whatever their order

    # -- partial writes -------------------------------------------------------------------

    def test_an_upsert_whose_middle_batch_fails_names_exactly_what_landed(self, store: FactStore) -> None:
        self.use_batches_of(store, 2)
        self.fail_batches_holding(store, "upsert", "f2")  # batches [f0 f1] [f2 f3] [f4]
        with pytest.raises(PartialWriteError) as caught:
            store.upsert("u", facts_f(5), vectors(5))
        err = caught.value
        assert not isinstance(err, PartialDeleteError)
        assert err.stored_ids == ["f0", "f1", "f4"] and err.unstored_ids == ["f2", "f3"]
        assert isinstance(err.__cause__, InjectedFault)
        assert store.present("u", [f"f{i}" for i in range(5)]) == ["f0", "f1", "f4"]

    def test_a_write_of_which_nothing_landed_raises_the_stores_own_error(self, store: FactStore) -> None:
        self.use_batches_of(store, 2)
        self.fail_batches_holding(store, "upsert", "f0")
        with pytest.raises(InjectedFault):
            store.upsert("u", facts_f(2), vectors(2))
        assert store.count("u") == 0

    def test_a_failed_rewrite_of_facts_already_stored_as_written_returns(self, store: FactStore) -> None:
        self.use_batches_of(store, 2)
        written = facts_f(4)
        store.upsert("u", written, vectors(4))
        self.fail_batches_holding(store, "upsert", "f2")
        store.upsert("u", written, vectors(4))  # the failed batch held nothing new: no error
        assert store.get("u", ["f2", "f3"]) == written[2:]

    def test_an_update_seen_whose_batch_fails_names_the_facts_rewritten_before_it(self, store: FactStore) -> None:
        self.use_batches_of(store, 2)
        written = facts_f(5)
        store.upsert("u", written, vectors(5))
        self.fail_batches_holding(store, "update_seen", "f2")
        with pytest.raises(PartialWriteError) as caught:
            store.update_seen("u", [replace(f, times_seen=2) for f in written])
        assert caught.value.stored_ids == ["f0", "f1"] and caught.value.unstored_ids == ["f2", "f3", "f4"]
        assert {f.id: f.times_seen for f in store.get("u", [f.id for f in written])} == {
            "f0": 2, "f1": 2, "f2": 1, "f3": 1, "f4": 1}

    def test_a_delete_whose_batch_fails_names_the_deleted_and_the_remaining_facts(self, store: FactStore) -> None:
        self.use_batches_of(store, 2)
        store.upsert("u", facts_f(5), vectors(5))
        self.fail_batches_holding(store, "delete", "f2")
        with pytest.raises(PartialDeleteError) as caught:
            store.delete("u", [f"f{i}" for i in range(5)])
        err = caught.value
        assert err.deleted_ids == ["f0", "f1"] and err.remaining_ids == ["f2", "f3", "f4"]
        assert err.stored_ids == err.remaining_ids and err.unstored_ids == err.deleted_ids
        assert isinstance(err.__cause__, InjectedFault)
        assert store.present("u", [f"f{i}" for i in range(5)]) == ["f2", "f3", "f4"]

    def test_a_delete_of_which_nothing_was_deleted_raises_the_stores_own_error(self, store: FactStore) -> None:
        self.use_batches_of(store, 2)
        store.upsert("u", facts_f(2), vectors(2))
        self.fail_batches_holding(store, "delete", "f0")
        with pytest.raises(InjectedFault):
            store.delete("u", ["f0", "f1"])
        assert store.count("u") == 2

    # -- revisions ------------------------------------------------------------------------

    def test_an_entity_has_no_revision_until_its_first_commit(self, store: FactStore) -> None:
        assert store.revision("u") is None
        store.upsert("u", [fact("a")], vectors(1))  # rows alone do not make a revision
        assert store.revision("u") is None
        token = store.bump_revision("u")
        assert isinstance(token, str) and store.revision("u") == token
        assert store.revision("v") is None

    def test_every_commit_makes_a_new_token(self, store: FactStore) -> None:
        tokens = [store.bump_revision("u") for _ in range(3)] + [store.commit_revision("u", None)[0]]
        assert len(set(tokens)) == 4 and store.revision("u") == tokens[-1]

    def test_a_commit_is_the_only_change_exactly_when_its_base_is_the_current_token(self, store: FactStore) -> None:
        first, only = store.commit_revision("u", None)
        assert only is False  # no base: nothing to compare with
        second, only = store.commit_revision("u", first)
        assert only is True and second != first
        third, only = store.commit_revision("u", first)  # another change since `first`
        assert only is False and store.revision("u") == third
        assert store.commit_revision("v", first)[1] is False  # another entity's token

    def test_a_recorded_intent_rides_on_the_token_until_its_commit_clears_it(self, store: FactStore) -> None:
        base = store.bump_revision("u")
        recorded = store.record_intent("u", "0123abcd")
        assert isinstance(recorded, bool)
        if not recorded:  # a store only this process writes to needs none: the token is untouched
            assert store.revision("u") == base
            return
        assert split_revision(store.revision("u")) == (base, frozenset({"0123abcd"}))
        assert store.revision("v") is None  # nothing of another entity
        token, _ = store.commit_revision("u", base, "0123abcd")
        assert store.revision("u") == token and split_revision(token)[1] == frozenset()

    def test_a_withdrawn_intent_leaves_the_token_as_it_was_before_the_intent(self, store: FactStore) -> None:
        base = store.bump_revision("u")
        if not store.record_intent("u", "0a1b2c3d"):
            store.withdraw_intent("u", "0a1b2c3d")  # nothing to take back: a no-op
            assert store.revision("u") == base
            return
        store.record_intent("u", "4e5f6a7b")
        store.withdraw_intent("u", "0a1b2c3d")
        assert split_revision(store.revision("u")) == (base, frozenset({"4e5f6a7b"}))  # the other intent stays
        store.withdraw_intent("u", "4e5f6a7b")
        assert store.revision("u") == base

    def test_the_write_lock_is_per_entity(self, store: FactStore) -> None:
        entered = {"u": threading.Event(), "v": threading.Event()}

        def enter(entity: str) -> None:
            with store.write_lock(entity):
                entered[entity].set()

        with store.write_lock("u"):
            waiting = threading.Thread(target=enter, args=("u",))
            other = threading.Thread(target=enter, args=("v",))
            waiting.start()
            other.start()
            assert entered["v"].wait(10), "another entity's writer waited"
            assert not entered["u"].wait(0.2), "a second writer of the entity did not wait"
        assert entered["u"].wait(10)
        waiting.join(10)
        other.join(10)

    # -- declared attributes, closing -------------------------------------------------------

    def test_declared_attributes_have_their_declared_types(self, store: FactStore) -> None:
        assert isinstance(store.shared, bool)
        assert store.request_timeout is None or store.request_timeout > 0
        folder = store.cache_folder
        if folder is not None:  # the store's own folder exists; the cache's may not yet
            assert isinstance(folder, CacheFolder) and folder.collection_id
            assert folder.path.parent.parent.is_dir()

    def test_close_runs_the_callbacks_once_in_order_while_the_store_is_usable(self, store: FactStore) -> None:
        store.upsert("u", [fact("a")], vectors(1))
        token = store.bump_revision("u")
        calls: list[tuple[str, Any]] = []
        store.on_close(lambda: calls.append(("count", store.count("u"))))
        store.on_close(lambda: calls.append(("revision", store.revision("u"))))
        store.close()
        store.close()
        assert calls == [("count", 1), ("revision", token)]
        assert store.cache_folder is None
        with pytest.raises(RuntimeError):
            store.on_close(lambda: None)

    def test_every_call_after_close_raises_closed_error_naming_the_store(self, store: FactStore) -> None:
        store.upsert("u", [fact("a")], vectors(1))
        assert store.closed is False
        store.close()
        assert store.closed is True
        calls: dict[str, Any] = {
            "load_entity": lambda: store.load_entity("u"), "get": lambda: store.get("u", ["a"]),
            "present": lambda: store.present("u", ["a"]), "count": lambda: store.count("u"),
            "holding_texts": lambda: store.holding_texts("u", ["a"]),
            "entity_ids": store.entity_ids,
            "dimension": store.dimension, "upsert": lambda: store.upsert("u", [fact("b")], vectors(1)),
            "update_seen": lambda: store.update_seen("u", [fact("a")]), "delete": lambda: store.delete("u", ["a"]),
            "forget": lambda: store.forget("u"), "revision": lambda: store.revision("u"),
            "bump_revision": lambda: store.bump_revision("u"), "record_intent": lambda: store.record_intent("u", "i"),
            "withdraw_intent": lambda: store.withdraw_intent("u", "i"),
            "commit_revision": lambda: store.commit_revision("u", None), "write_lock": lambda: store.write_lock("u"),
        }
        for name, call in calls.items():
            with pytest.raises(ClosedError, match=rf"{type(store).__name__}.* is closed .*: {name} cannot run"):
                call()

