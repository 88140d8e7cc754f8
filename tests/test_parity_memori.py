"""Ranking parity with upstream Memori 3.3.6 (``memori.search.search_facts``).

Both sides get the same facts, the same embeddings and the same query
vector; Memori reads them through a small in-test driver (the interface its
search code calls), our engine through a store and an embedder that returns
the pre-made vectors. With ``RecallConfig.memori_compat(gate="off")`` the ids,
their order and the rank scores must agree.

The 420 random cases run over the reference store (``InMemoryFactStore``):
about 9,000 rows written and forgotten in one in-memory Chroma collection
crashed the test process now and then inside chromadb's Rust HNSW build (with
``hnsw:M`` 4, new collections' setting until then; see
benchmarks/chroma_segfault_repro.py and docs/stores.md), and the ranking is
the same over any store that passes the store conformance suite. The other
parity tests, a few hundred rows each, still run through in-memory Chroma.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from _memori_upstream import load_memori_search, memori_version, require_memori
from memori_core import ChromaStore, InMemoryFactStore, RecallConfig, RecallEngine
from memori_core.ranking.fusion import fusion_weights
from memori_core.text import memori_tokenize

DIM = 16
SCORE_TOL = 1e-5
BASE_TIME = datetime(2025, 1, 1, tzinfo=timezone.utc)

# A small vocabulary so that queries and facts share words often: stopwords,
# digits, mixed case, words glued to punctuation, a few non-ASCII words
# (which Memori's tokenizer drops or splits).
WORDS = (
    "User user USER likes Likes coffee Coffee tea TEA Berlin berlin Paris moved "
    "2024 2019 3 42 km marathon running run dog dog's cat peanut peanuts allergy "
    "allergic jazz piano PIANO x86_64 e-mail C++ python Python3 spicy food kids "
    "wife birthday May june 09:30 v2.1 café Zürich naïve 東京 über"
).split()
STOPWORDS = "a an and are as at be by did do does for from had has have how i in is it of on or that the their".split()
PUNCT = ["", "", "", "", ".", ",", "!", "?", ";", ":", "'s", "-", "...", ")"]


def _word(rng: random.Random) -> str:
    w = rng.choice(STOPWORDS) if rng.random() < 0.3 else rng.choice(WORDS)
    return w + rng.choice(PUNCT)


def _text(rng: random.Random, n_words: int) -> str:
    return " ".join(_word(rng) for _ in range(n_words))


@dataclass
class Case:
    facts: list[str]
    ids: list[str]
    vectors: np.ndarray
    created: list[datetime]
    query: str = ""
    query_vector: np.ndarray | None = None
    limit: int = 5


def make_facts(rng: random.Random, nrng: np.random.Generator, n_facts: int | None = None) -> Case:
    """A random memory: unique texts, random vectors, distinct creation times."""
    if n_facts is None:
        # Mostly around the pool size (50 or limit * 10), sometimes well above it.
        n_facts = rng.choice([rng.randint(1, 60), rng.randint(1, 160), rng.randint(100, 300)])
    texts: list[str] = []
    seen: set[str] = set()
    while len(texts) < n_facts:
        t = _text(rng, rng.randint(1, 12))
        if t not in seen:  # the test embedder looks vectors up by text
            seen.add(t)
            texts.append(t)
    return Case(
        facts=texts,
        ids=[f"f{i:04d}" for i in range(n_facts)],
        vectors=nrng.standard_normal((n_facts, DIM)).astype(np.float32),
        created=[BASE_TIME + timedelta(minutes=int(m)) for m in nrng.permutation(n_facts)],
    )


def with_query(case: Case, rng: random.Random, nrng: np.random.Generator) -> Case:
    """The same memory with a random query (1..6 words), query vector and limit (1..15)."""
    n = len(case.facts)
    # Steer the query vector towards a few facts so the cosines spread out and
    # the lexical part really reorders the pool.
    anchors = nrng.choice(n, size=min(3, n), replace=False)
    noise = nrng.standard_normal(DIM).astype(np.float32) * rng.uniform(0.5, 3.0)
    qv = (case.vectors[anchors].sum(axis=0) + noise).astype(np.float32)
    return replace(case, query=_text(rng, rng.randint(1, 6)), query_vector=qv, limit=rng.randint(1, 15))


class UpstreamDriver:
    """The two driver calls ``memori.search.search_facts`` makes, over one case's facts.

    Embeddings are handed over as little-endian float32 bytes, the format
    Memori's storage uses; the most recently created rows come first.
    """

    def __init__(self, case: Case) -> None:
        order = sorted(range(len(case.ids)), key=lambda i: case.created[i], reverse=True)
        self._rows = [
            {"id": case.ids[i], "content_embedding": case.vectors[i].astype("<f4").tobytes()} for i in order
        ]
        self._facts = {
            fid: {"id": fid, "content": text, "date_created": created.strftime("%Y-%m-%d %H:%M:%S")}
            for fid, text, created in zip(case.ids, case.facts, case.created)
        }

    def get_embeddings(self, entity_id: object, limit: int) -> list[dict]:
        return self._rows[:limit]

    def get_facts_by_ids(self, ids: list) -> list[dict]:
        return [self._facts[i] for i in ids if i in self._facts]


class LookupEmbedder:
    """Returns the case's pre-made vector for each text (the engine embeds facts through it)."""

    name = "parity-lookup"

    def __init__(self) -> None:
        self.table: dict[str, np.ndarray] = {}

    def __call__(self, texts: list[str]) -> np.ndarray:
        return np.stack([self.table[t] for t in texts])


@pytest.fixture(scope="module")
def upstream():
    require_memori()  # skips every parity test, with the reason, when upstream Memori is missing
    assert memori_version() == "3.3.6"
    return load_memori_search()


@pytest.fixture
def lookup() -> LookupEmbedder:
    return LookupEmbedder()


def _engine(lookup: LookupEmbedder, config: RecallConfig, *, chroma: bool = True) -> RecallEngine:
    store = ChromaStore.in_memory() if chroma else InMemoryFactStore()
    return RecallEngine(store=store, embedder=lookup, config=config)


def _store(engine: RecallEngine, lookup: LookupEmbedder, case: Case, entity: str, split: bool = False) -> None:
    """Add the memory's facts; with ``split``, in two calls with a recall between them,
    so the second half reaches the engine's warm in-process copy incrementally."""
    lookup.table = dict(zip(case.facts, case.vectors))
    cut = len(case.facts) // 2 if split else len(case.facts)
    engine.add(entity, case.facts[:cut], ids=case.ids[:cut], created_at=case.created[:cut])
    if cut < len(case.facts):
        if cut:
            engine.recall("warm up", entity, 1, query_vector=case.vectors[0])
        engine.add(entity, case.facts[cut:], ids=case.ids[cut:], created_at=case.created[cut:])


def _both(engine: RecallEngine, upstream, case: Case, entity: str, embeddings_limit: int = 1000,
          driver: UpstreamDriver | None = None) -> tuple[list, list]:
    ours = engine.recall(case.query, entity, case.limit, query_vector=case.query_vector)
    theirs = upstream.search_facts(
        driver or UpstreamDriver(case), entity, case.query_vector.tolist(), case.limit, embeddings_limit,
        query_text=case.query,
    )
    return ours, theirs


def _assert_same(ours: list, theirs: list, case: Case, label: str) -> None:
    ctx = f"{label}: query={case.query!r} limit={case.limit} facts={len(case.facts)}"
    assert [f.id for f in ours] == [r.id for r in theirs], ctx
    for f, r in zip(ours, theirs):
        assert f.content == r.content, ctx
        assert abs(f.rank_score - r.rank_score) <= SCORE_TOL, f"{ctx}: {f.id} {f.rank_score} vs {r.rank_score}"
        assert abs(f.cosine - r.similarity) <= SCORE_TOL, f"{ctx}: {f.id} {f.cosine} vs {r.similarity}"


@pytest.mark.slow  # several seconds: left out of `make test-fast`
def test_memori_compat_matches_upstream_search_facts_on_random_cases(upstream, lookup):
    """420 random cases: 60 random memories (1..300 facts), 7 random queries and limits each."""
    rng = random.Random(20260501)
    nrng = np.random.default_rng(20260501)
    engine = _engine(lookup, RecallConfig.memori_compat(gate="off"), chroma=False)
    stats = {"cases": 0, "short": 0, "long": 0, "lex_reordered": 0, "pool_cut": 0, "no_query_tokens": 0}
    for m in range(60):
        memory = make_facts(rng, nrng)
        entity = f"user-{m}"
        _store(engine, lookup, memory, entity, split=m % 3 == 0)
        driver = UpstreamDriver(memory)
        for q in range(7):
            case = with_query(memory, rng, nrng)
            ours, theirs = _both(engine, upstream, case, entity, driver=driver)
            _assert_same(ours, theirs, case, f"memory {m} query {q}")
            assert len(ours) == min(case.limit, len(case.facts))
            q_tokens = memori_tokenize(case.query)
            stats["cases"] += 1
            stats["short" if len(q_tokens) <= 2 else "long"] += 1
            stats["no_query_tokens"] += not q_tokens
            stats["pool_cut"] += len(case.facts) > max(case.limit * 10, 50)
            by_cos = sorted(ours, key=lambda f: -f.cosine)
            stats["lex_reordered"] += [f.id for f in by_cos] != [f.id for f in ours]
        engine.forget(entity)
    # The random cases really exercised every branch of the ranking.
    assert stats["cases"] == 420
    assert stats["short"] > 50 and stats["long"] > 50, stats
    assert stats["no_query_tokens"] > 0, stats
    assert stats["pool_cut"] > 30, stats
    assert stats["lex_reordered"] > 30, stats


def test_parity_when_only_the_most_recent_rows_are_scored(upstream, lookup):
    """``dense_limit`` / ``embeddings_limit`` keep the same most recent rows on both sides."""
    rng = random.Random(7)
    nrng = np.random.default_rng(7)
    for dense_limit in (1, 5, 37, 120):
        engine = _engine(lookup, RecallConfig.memori_compat(gate="off", dense_limit=dense_limit))
        for m in range(4):
            memory = make_facts(rng, nrng, n_facts=rng.randint(dense_limit, 200))
            entity = f"recent-{dense_limit}-{m}"
            _store(engine, lookup, memory, entity)
            by_age = sorted(range(len(memory.ids)), key=lambda j: memory.created[j])
            recent = {memory.ids[j] for j in by_age[-dense_limit:]}
            for q in range(4):
                case = with_query(memory, rng, nrng)
                ours, theirs = _both(engine, upstream, case, entity, embeddings_limit=dense_limit)
                _assert_same(ours, theirs, case, f"dense_limit {dense_limit} memory {m} query {q}")
                assert {f.id for f in ours} <= recent


@pytest.mark.parametrize(
    ("lex_weight", "lex_weight_short"),
    [
        ("0.9", "0.01"),  # both clamped: 0.40 for long queries, 0.05 for short ones
        ("0.22", "0.35"),  # inside the clamp: used as given
        ("not-a-number", "0.33"),  # unparsable long weight: default 0.15
        ("0.02", ""),  # empty short weight: default 0.30; long weight clamped up to 0.05
        (" 0.25 ", "inf"),  # surrounding spaces are fine; inf clamps to the upper bound
        ("-inf", "-1"),  # both clamped to the lower bound
        # Not covered: "nan". Upstream's min/max clamp turns NaN into 0.40 by
        # accident of comparison order; from_env ignores it (base value stays).
    ],
)
def test_env_lexical_weights_match_upstream(upstream, lookup, monkeypatch, lex_weight, lex_weight_short):
    monkeypatch.setenv("MEMORI_RECALL_LEX_WEIGHT", lex_weight)
    monkeypatch.setenv("MEMORI_RECALL_LEX_WEIGHT_SHORT", lex_weight_short)
    config = RecallConfig.from_env(base=RecallConfig.memori_compat(gate="off"))
    # Upstream reads the same variables on every search_facts call.
    lexical = upstream._lexical
    for query in ("coffee", "coffee jazz", "coffee jazz piano", "the of and", "Berlin marathon 2024 km running"):
        assert fusion_weights(len(memori_tokenize(query)), config) == pytest.approx(
            lexical.dense_lexical_weights(query_text=query), abs=1e-12
        ), query
    rng = random.Random(zlib.crc32(f"{lex_weight}|{lex_weight_short}".encode()))
    nrng = np.random.default_rng(11)
    engine = _engine(lookup, config)
    for m in range(3):
        memory = make_facts(rng, nrng)
        _store(engine, lookup, memory, f"env-{m}")
        for q in range(6):
            case = with_query(memory, rng, nrng)
            ours, theirs = _both(engine, upstream, case, f"env-{m}")
            _assert_same(ours, theirs, case, f"env memory {m} query {q}")


def test_env_weights_are_read_when_the_config_is_built(monkeypatch, upstream):
    monkeypatch.setenv("MEMORI_RECALL_LEX_WEIGHT_SHORT", "0.9")
    first = RecallConfig.from_env(base=RecallConfig.memori_compat())
    monkeypatch.setenv("MEMORI_RECALL_LEX_WEIGHT_SHORT", "0.1")
    second = RecallConfig.from_env(base=RecallConfig.memori_compat())

    assert fusion_weights(1, first) == pytest.approx((0.6, 0.4))
    assert fusion_weights(1, second) == pytest.approx((0.9, 0.1))
    assert fusion_weights(1, second) == pytest.approx(upstream._lexical.dense_lexical_weights(query_text="coffee"))
