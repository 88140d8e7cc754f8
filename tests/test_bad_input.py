"""Bad input fails early and clearly, and never writes half of an add."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import datetime

import numpy as np
import pytest

from _helpers import HashEmbedder, seeded_fixtures, shared_engine, ungated_engine
from memori_core import ChromaStore, RecallEngine


class BrokenEmbedder:
    """An embedder that returns a chosen kind of bad output (for documents and queries)."""

    name = "broken-embedder"

    def __init__(self, mode: str, dim: int = 64) -> None:
        self.mode = mode
        self.good = HashEmbedder(dim)

    def _spoil(self, arr: np.ndarray) -> np.ndarray:
        arr = np.array(arr, dtype=np.float32)
        if self.mode == "nan":
            arr[..., 1] = np.nan
        elif self.mode == "inf":
            arr[..., 1] = np.inf
        elif self.mode == "zero":
            arr[...] = 0.0
        elif self.mode == "extra-row":
            arr = np.concatenate([np.atleast_2d(arr), np.atleast_2d(arr)[:1]])
        elif self.mode == "3d":
            arr = arr[None, ...]
        return arr

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return self._spoil(self.good.embed_documents(texts))

    def embed_query(self, text: str) -> np.ndarray:
        return self._spoil(self.good.embed_query(text))


BAD_MODES = ["nan", "inf", "zero", "extra-row", "3d"]


def _fill(engine: RecallEngine) -> RecallEngine:
    engine.add("u1", ["User likes tea.", "User plays the cello."])
    return engine


filled, fresh_filled = seeded_fixtures(_fill)  # u1's two facts: shared by the tests that only read them / one's own


@pytest.fixture(scope="module")
def rejecting_engine() -> Iterator[RecallEngine]:
    """An engine over an empty in-memory store for the module's tests whose writes must all be refused:
    each checks that its own call wrote nothing, and the store must still be empty at teardown."""
    yield from shared_engine(lambda engine: engine, "the shared engine")


# -- queries and limits --------------------------------------------------------


@pytest.mark.parametrize("query", ["", "   ", "\n\t"])
def test_blank_query_returns_nothing_without_embedding(
    fresh_filled: RecallEngine, hash_embedder: HashEmbedder, query
) -> None:
    calls = hash_embedder.calls
    assert fresh_filled.recall(query, "u1") == []
    report = fresh_filled.explain(query, "u1")
    assert report.candidates == [] and report.facts == [] and "blank" in report.note
    assert hash_embedder.calls == calls


def test_limit_zero_returns_nothing_without_embedding(fresh_filled: RecallEngine, hash_embedder: HashEmbedder) -> None:
    calls = hash_embedder.calls
    assert fresh_filled.recall("tea", "u1", limit=0) == []
    assert fresh_filled.explain("tea", "u1", limit=0).candidates == []
    assert hash_embedder.calls == calls


@pytest.mark.parametrize("limit", [-1, -100])
def test_a_negative_limit_is_a_value_error_naming_it_as_list_says(filled: RecallEngine, limit: int) -> None:
    for call in (filled.recall, filled.explain, filled.nearest):
        with pytest.raises(ValueError, match=rf"limit must be an int >= 0, got {limit}"):
            call("tea", "u1", limit=limit)
    with pytest.raises(ValueError, match=rf"limit must be an int >= 0, got {limit}"):
        filled.list("u1", limit=limit)


@pytest.mark.parametrize("limit", ["3", 2.0, True, [3]])
def test_non_int_limit_is_a_type_error(filled: RecallEngine, limit) -> None:
    with pytest.raises(TypeError, match="limit"):
        filled.recall("tea", "u1", limit=limit)
    with pytest.raises(TypeError, match="limit"):
        filled.explain("tea", "u1", limit=limit)


@pytest.mark.parametrize("query", [b"tea", 42, ["tea"], None])
def test_non_str_query_none_included_is_a_type_error(filled: RecallEngine, query) -> None:
    with pytest.raises(TypeError, match="query must be a str"):
        filled.recall(query, "u1")
    with pytest.raises(TypeError, match="query must be a str"):
        filled.explain(query, "u1")


# -- broken embedders ------------------------------------------------------------


@pytest.mark.parametrize("mode", BAD_MODES)
def test_broken_embedder_on_add_raises_naming_it_and_writes_nothing(fresh_filled: RecallEngine, mode: str) -> None:
    bad = RecallEngine(store=fresh_filled.store, embedder=BrokenEmbedder(mode))
    with pytest.raises(ValueError, match="broken-embedder"):
        bad.add("u1", ["User owns a kayak.", "User likes tea."])
    with pytest.raises(ValueError, match="broken-embedder"):
        bad.add("u2", ["User owns a kayak."])
    assert fresh_filled.count("u1") == 2 and fresh_filled.count("u2") == 0
    # The sighting of the already-stored "User likes tea." was not written either.
    assert all(f.times_seen == 1 for f in fresh_filled.store.load_entity("u1").facts)


@pytest.mark.parametrize("mode", BAD_MODES)
def test_broken_embedder_on_recall_raises_naming_it(filled: RecallEngine, mode: str) -> None:
    bad = RecallEngine(store=filled.store, embedder=BrokenEmbedder(mode))
    with pytest.raises(ValueError, match="broken-embedder"):
        bad.recall("tea", "u1")
    with pytest.raises(ValueError, match="broken-embedder"):
        bad.explain("tea", "u1")


def test_plain_callable_embedder_with_wrong_row_count_is_rejected() -> None:
    def one_row_only(texts: list[str]) -> np.ndarray:
        return np.ones((1, 8), dtype=np.float32)

    eng = RecallEngine(store=ChromaStore.in_memory(), embedder=one_row_only)
    with pytest.raises(ValueError, match="one_row_only"):
        eng.add("u1", ["a fact", "another fact"])
    assert eng.count("u1") == 0


def test_bad_query_vector_is_rejected(filled: RecallEngine) -> None:
    with pytest.raises(ValueError, match="query_vector"):
        filled.recall("tea", "u1", query_vector=np.zeros(64))
    with pytest.raises(ValueError, match="query_vector"):
        filled.recall("tea", "u1", query_vector=np.full(64, np.nan))


# -- facts and per-fact arguments ----------------------------------------------------


@pytest.mark.parametrize(
    ("facts", "error"),
    [
        (["User likes tea.", ""], ValueError),
        (["User likes tea.", "   \n"], ValueError),
        (["User likes tea.", 3], TypeError),
        (["User likes tea.", None], TypeError),
        (["User likes tea.", b"bytes"], TypeError),
        (None, TypeError),
        (42, TypeError),
        ({"fact": "User likes tea."}, TypeError),
    ],
)
def test_empty_or_non_str_facts_are_rejected_before_anything_is_written(
    engine: RecallEngine, hash_embedder: HashEmbedder, facts, error: type[Exception]
) -> None:
    with pytest.raises(error):
        engine.add("u1", facts)
    assert engine.count("u1") == 0
    assert hash_embedder.calls == 0


def test_empty_fact_list_adds_nothing(engine: RecallEngine) -> None:
    assert engine.add("u1", []) == []
    assert engine.count("u1") == 0


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"ids": ["a", "b", "c"]}, "ids"),
        ({"ids": ["a"]}, "ids"),
        ({"created_at": ["2024-01-01T00:00:00+00:00"]}, "created_at"),
        ({"created_at": [datetime(2024, 1, 1)] * 3}, "created_at"),
        ({"metadata": [{"a": 1}]}, "metadata"),
        ({"metadata": [{}, {}, {}]}, "metadata"),
    ],
)
def test_mismatched_lengths_are_a_clear_error(rejecting_engine: RecallEngine, kwargs: dict, name: str) -> None:
    with pytest.raises(ValueError, match=rf"{name} has \d+ entries for 2 facts"):
        rejecting_engine.add("u1", ["User likes tea.", "User likes jazz."], **kwargs)
    assert rejecting_engine.count("u1") == 0


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"ids": ["same", "same"]}, ValueError),
        ({"ids": ["ok", ""]}, TypeError),
        ({"ids": ["ok", 7]}, TypeError),
        ({"created_at": "yesterday"}, ValueError),
        ({"created_at": 1700000000}, TypeError),
        ({"metadata": "source=chat"}, TypeError),
        ({"metadata": [{"ok": 1}, "x"]}, TypeError),
    ],
)
def test_bad_ids_timestamps_and_metadata_write_nothing(rejecting_engine: RecallEngine, kwargs: dict, error) -> None:
    with pytest.raises(error):
        rejecting_engine.add("u1", ["User likes tea.", "User likes jazz."], **kwargs)
    assert rejecting_engine.count("u1") == 0


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"metadata": "chat"}, "metadata must be a dict (for every fact) or a list with one per fact, got str 'chat'"),
    ({"core": "yes"}, "core must be a bool (for every fact) or a list with one per fact, got str 'yes'"),
    ({"session_id": 7}, "session_id must be a str (for every fact) or a list with one per fact, got int 7"),
    ({"created_at": 1.5}, "created_at must be a str or datetime (for every fact) or a list with one per fact, got "
                          "float 1.5"),
])
def test_a_value_of_the_wrong_kind_is_refused_naming_the_kind_meant(rejecting_engine: RecallEngine, kwargs: dict,
                                                                   message: str) -> None:
    # A tester's metadata="chat" was told "must be one value or a list": "chat" is one value.
    with pytest.raises(TypeError) as raised:
        rejecting_engine.add("u1", ["User likes tea."], **kwargs)
    assert str(raised.value) == message
    assert rejecting_engine.count("u1") == 0


@pytest.mark.parametrize(
    "metadata",
    [{"when": datetime(2024, 1, 1)}, {"obj": object()}, {"s": {1, 2}}, {1: "int key"}, [{"a": 1}, {"b": b"x"}]],
)
def test_non_json_metadata_is_a_type_error(rejecting_engine: RecallEngine, metadata) -> None:
    with pytest.raises(TypeError, match="metadata"):
        rejecting_engine.add("u1", ["User likes tea.", "User likes jazz."], metadata=metadata)
    assert rejecting_engine.count("u1") == 0


# -- dimensions -------------------------------------------------------------------


def test_rows_of_another_dimension_are_skipped_with_one_warning(caplog: pytest.LogCaptureFixture) -> None:
    store = ChromaStore.in_memory()
    RecallEngine(store=store, embedder=HashEmbedder(dim=32)).add("u1", ["User likes tea.", "User plays chess."])
    eng64 = ungated_engine(HashEmbedder(dim=64), store=store)
    with caplog.at_level(logging.WARNING, logger="memori_core"):
        for _ in range(3):
            assert eng64.recall("tea", "u1") == []
        assert eng64.explain("chess", "u1").candidates == []
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    message = warnings[0].getMessage()
    assert "32" in message and "64" in message and "u1" in message


def test_adding_with_another_dimension_than_the_store_is_a_clear_value_error() -> None:
    store = ChromaStore.in_memory()
    RecallEngine(store=store, embedder=HashEmbedder(dim=32)).add("u1", ["User likes tea."])
    eng64 = RecallEngine(store=store, embedder=HashEmbedder(dim=64))
    for entity in ("u1", "u2"):
        with pytest.raises(ValueError, match=r"64-d.*32-d") as info:
            eng64.add(entity, ["User owns a kayak."])
        assert type(info.value) is ValueError  # ours, not a chromadb error
    assert store.count("u1") == 1 and store.count("u2") == 0


def test_adding_another_dimension_after_everything_was_forgotten_is_a_clear_value_error() -> None:
    store = ChromaStore.in_memory()
    eng32 = RecallEngine(store=store, embedder=HashEmbedder(dim=32))
    eng32.add("u1", ["User likes tea."])
    eng32.forget("u1")
    with pytest.raises(ValueError, match=r"64-d.*32-d") as info:
        RecallEngine(store=store, embedder=HashEmbedder(dim=64)).add("u1", ["User owns a kayak."])
    assert type(info.value) is ValueError


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda e: e.add("u", ["bad \ud800 text"]), "fact #0 is not valid Unicode"),
        (lambda e: e.add("u", ["ok"], ids=["id-\ud800"]), r"ids\[0\] is not valid Unicode"),
        (lambda e: e.add("u", ["ok"], session_id="s-\ud800"), "session_id #0 is not valid Unicode"),
        (lambda e: e.add("u", ["ok"], metadata={"k": "v\ud800"}), "metadata #0 is not valid Unicode"),
        (lambda e: e.add("u\ud800", ["ok"]), "entity_id is not valid Unicode"),
        (lambda e: e.recall("q \ud800", "u"), "query is not valid Unicode"),
        (lambda e: e.add("u", ["ok"], metadata={"score": float("nan")}), "NaN or an infinity"),
        (lambda e: e.add("u", ["ok"], metadata={"score": float("inf")}), "NaN or an infinity"),
        (lambda e: e.add("u", ["ok"], metadata={"times_seen": 3}), r"reserved key\(s\) \['times_seen'\]"),
        (lambda e: e.add("u", ["ok"], metadata={"session_id": "x", "last_seen": "y"}), "reserved key"),
        (lambda e: e.add("u", ["ok"], created_at="9999-12-31T23:00:00-05:00"), "outside the years 1-9999"),
    ],
)
def test_input_chroma_or_json_would_refuse_is_refused_first_with_the_argument_named(
    rejecting_engine, call, match
) -> None:
    with pytest.raises(ValueError, match=match):
        call(rejecting_engine)
    assert rejecting_engine.count("u") == 0  # nothing was written


@pytest.mark.parametrize("facts", [b"User likes tea.", bytearray(b"abc"), memoryview(b"abc")])
def test_add_of_bytes_names_the_type_it_got(rejecting_engine, facts) -> None:
    with pytest.raises(TypeError, match=f"facts must be a str or a list of str, got {type(facts).__name__}"):
        rejecting_engine.add("u", facts)
    assert rejecting_engine.count("u") == 0


@pytest.mark.parametrize("text", ["\u200b\u200b", "\x00", " \u200d\u2060 ", "\u202e\u202c", "\u00a0\u200b"])
def test_a_fact_with_no_visible_character_is_refused(rejecting_engine, text) -> None:
    with pytest.raises(ValueError, match="fact #1 has no visible character"):
        rejecting_engine.add("u", ["User likes tea.", text])
    assert rejecting_engine.count("u") == 0  # validated before anything is written


@pytest.mark.parametrize("timeout", [2.0, None])
def test_a_chroma_server_that_is_not_running_is_a_connection_error_naming_it(timeout) -> None:
    # chromadb's own error ("Could not connect to a Chroma server. Are you sure it is running?") names no server.
    import socket

    with socket.socket() as probe:  # a port nothing listens on once the probe is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    named = rf"no Chroma server answers at http://127\.0\.0\.1:{port}.*chroma run"
    with pytest.raises(ConnectionError, match=named):
        ChromaStore.http(host="127.0.0.1", port=port, timeout=timeout, lazy=False)
    store = ChromaStore.http(host="127.0.0.1", port=port, timeout=timeout)  # built: its calls say the same
    with pytest.raises(ConnectionError, match=named):
        store.count("u")


@pytest.mark.parametrize("key", ["entity_id", "created_at", "rank_score", "id", "content", "valid_to", "supersedes"])
def test_metadata_named_like_a_fact_field_is_refused_naming_the_key(key: str) -> None:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder())
    with pytest.raises(ValueError, match=rf"metadata #0 uses reserved key\(s\) \['{key}'\]: the fact has field"):
        engine.add("alice", "User is allergic to peanuts.", metadata={key: "bob", "diet": "vegan"})
    assert engine.count("alice") == 0
    [fid] = engine.add("alice", "User is allergic to peanuts.", metadata={"diet": "vegan"})
    with pytest.raises(ValueError, match=rf"reserved key\(s\) \['{key}'\]"):
        engine.update("alice", fid, metadata={key: "bob"})
    assert [f.metadata for f in engine.get("alice", fid)] == [{"diet": "vegan"}]
    # An export of a version that accepted such keys restores whole: a backup must not be refused.
    engine.import_("alice", [{"text": "User likes tea.", "metadata": {key: 1}}])
    assert engine.count("alice") == 2
    assert [f.metadata for f in engine.list("alice") if f.content == "User likes tea."] == [{key: 1}]


def test_the_reserved_metadata_keys_are_every_field_a_recalled_fact_reports() -> None:
    import dataclasses

    from memori_core.facts import RecalledFact
    from memori_core.metadata_keys import USER_RESERVED_METADATA_KEYS

    fields = {f.name for f in dataclasses.fields(RecalledFact)} - {"metadata"}
    assert fields <= set(USER_RESERVED_METADATA_KEYS)
