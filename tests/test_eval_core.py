"""The task-independent parts of `memori eval`: compared configs, caching embedder, RRF, short queries, progress."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from memori_core import RecallConfig
from memori_core.evaluation import (
    CachingEmbedder,
    Injection,
    Query,
    baseline_configs,
    gate_configs,
    progress_bar,
    reciprocal_rank_fusion,
)
from memori_core.evaluation.short_queries import document_frequency, rarest_words


def test_baseline_configs_are_the_given_config_with_parts_turned_off() -> None:
    given = RecallConfig(b=0.5, stemmer=None, relevance_threshold=0.3, neighbour_weight=0.25,
                         second_neighbour_weight=0.1, session_weight=0.2, neighbour_length_ref=300,
                         lexical_floor=0.4, gate="threshold", gate_open=0.35)
    configs = baseline_configs(given)
    assert set(configs) == {"default", "memori_compat", "dense", "bm25"}
    assert all(c.gate == "off" for c in configs.values())
    assert configs["default"] == given.replace(gate="off")
    assert configs["memori_compat"] == RecallConfig.memori_compat(gate="off")
    smoothing = ("neighbour_weight", "second_neighbour_weight", "session_weight", "slot_recency_weight")
    dense = configs["dense"]
    assert (dense.pool, dense.lex_weight, dense.lex_weight_short, dense.weight_clamp) == (
        "dense", 0.0, 0.0, (0.0, 0.0))
    bm25 = configs["bm25"]
    assert (bm25.lex_weight, bm25.lex_weight_short, bm25.weight_clamp) == (1.0, 1.0, (1.0, 1.0))
    # The plain baselines borrow nothing from other facts and move past none: every smoothing share and
    # recency rule is off.
    for cfg in (dense, bm25):
        assert [getattr(cfg, name) for name in smoothing] == [0.0, 0.0, 0.0, 0.0]
        assert cfg.restatement_terms is None
    # Everything else is the given config's (tokenizer, stemmer, BM25 parameters, lexical floor, gate...).
    changed = {"pool", "lex_weight", "lex_weight_short", "weight_clamp", *smoothing, "restatement_terms", "gate"}
    for cfg in (dense, bm25):
        for f in dataclasses.fields(RecallConfig):
            if f.name not in changed:
                assert getattr(cfg, f.name) == getattr(given, f.name), f.name


def test_the_plain_cosine_baseline_matches_the_spelled_out_config() -> None:
    assert baseline_configs(RecallConfig())["dense"] == RecallConfig(
        pool="dense", lex_weight=0.0, lex_weight_short=0.0, weight_clamp=(0.0, 0.0), neighbour_weight=0.0,
        second_neighbour_weight=0.0, session_weight=0.0, restatement_terms=None, gate="off")


def test_the_default_ranking_keeps_the_given_smoothing() -> None:
    given = RecallConfig(neighbour_weight=0.2, second_neighbour_weight=0.1, session_weight=0.05)
    default = baseline_configs(given)["default"]
    assert (default.neighbour_weight, default.second_neighbour_weight, default.session_weight) == (0.2, 0.1, 0.05)


def test_gate_configs_keep_the_shipped_thresholds() -> None:
    given = RecallConfig(relevance_threshold=0.25)
    gates = gate_configs(given)
    assert gates["default"] is given
    assert gates["memori_compat"] == RecallConfig.memori_compat()
    assert gates["memori_compat"].relevance_threshold == 0.1
    assert gates["default_no_threshold"] == baseline_configs(given)["default"]
    assert gates["dense_no_threshold"] == baseline_configs(given)["dense"]


class Recorder:
    name = "recorder"

    def __init__(self) -> None:
        self.documents: list[str] = []
        self.queries: list[str] = []

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        self.documents.extend(texts)
        return np.asarray([[len(t), 1.0, 2.0] for t in texts], dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return np.asarray([len(text), 1.0, 0.0], dtype=np.float32)


def test_caching_embedder_embeds_each_text_once_and_keeps_queries_apart() -> None:
    inner = Recorder()
    cache = CachingEmbedder(inner)
    assert cache.name == "recorder"
    first = cache.embed_documents(["a", "bb", "a"])
    again = cache.embed_documents(["bb", "ccc"])
    assert inner.documents == ["a", "bb", "ccc"]
    assert first.shape == (3, 3) and np.array_equal(first[0], first[2]) and np.array_equal(first[1], again[0])
    q = cache.embed_query("a")
    cache.embed_query("a")
    assert inner.queries == ["a"]  # a query is not served a document's vector
    assert q.tolist() == [1.0, 1.0, 0.0]
    assert cache.embedded == 4
    assert cache.embed_documents([]).shape[0] == 0


def test_caching_embedder_warm_reports_progress_in_batches() -> None:
    inner = Recorder()
    cache = CachingEmbedder(inner)
    seen: list[tuple[int, int]] = []
    cache.warm([f"t{i}" for i in range(5)] + ["t0"], batch_size=2, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(0, 5), (2, 5), (4, 5), (5, 5)]
    assert len(inner.documents) == 5
    cache.embed_documents(["t3", "t4"])
    assert len(inner.documents) == 5


def test_caching_embedder_accepts_a_plain_function() -> None:
    cache = CachingEmbedder(lambda texts: np.ones((len(texts), 4)))
    assert cache.embed_query("x").shape == (4,)


def test_reciprocal_rank_fusion() -> None:
    fused = reciprocal_rank_fusion([["a", "b", "c"], ["c", "d"]], k=60)
    # c: 1/63 + 1/61 beats a: 1/61; b (1/62) and d (1/62) tie: first seen first.
    assert fused == ["c", "a", "b", "d"]
    assert reciprocal_rank_fusion([["x", "y"], []]) == ["x", "y"]
    assert reciprocal_rank_fusion([]) == []


def test_rarest_words_keep_the_question_order() -> None:
    df = document_frequency(["Alice went to the lake", "Alice likes the lake", "Bob sold a kayak"])
    assert df["alice"] == 2 and df["the"] == 2 and df["kayak"] == 1
    assert rarest_words("Did Alice sell the kayak?", df, 1) == "Did"  # never seen: rarest
    assert rarest_words("Alice sold the kayak?", df, 2) == "sold kayak"
    assert rarest_words("?!", df, 2) == ""


def test_injection_counts_abstentions_apart() -> None:
    inj = Injection(k=3, threshold=0.2)
    inj.add(Query("q1", ("a",), "x"), ["a", "b"])
    inj.add(Query("q2", ("c", "d"), "x"), ["b", "d", "c"])
    inj.add(Query("q3", (), "x", abstention=True), [])
    inj.add(Query("q4", (), "x", abstention=True), ["a", "b", "c"])
    s = inj.summary()
    assert s["hit@k"] == 1.0
    assert s["R@1"] == 0.5  # q1: 1, q2: neither evidence first
    assert s["facts_per_answerable"] == 2.5
    assert s["clean_abstentions"] == 0.5 and s["facts_per_abstention"] == 1.5
    assert (s["n_answerable"], s["n_abstention"], s["k"], s["threshold"]) == (2, 2, 3, 0.2)
    assert Injection(k=5, threshold=None).summary()["clean_abstentions"] is None


def test_progress_bar_says_what_it_counts(capsys: pytest.CaptureFixture[str]) -> None:
    for done in range(0, 4):
        progress_bar(done, 3, "embedding facts")
    progress_bar(0, 0, "embedding facts")  # nothing to embed: no bar
    for done in range(1, 3):
        progress_bar(done, 2)
    err = capsys.readouterr().err
    assert "3/3 embedding facts\n" in err and "2/2 questions\n" in err
    assert "0/0" not in err
