"""Large adds: the cached copy is brought up to date with tokens made while the store wrote."""

from __future__ import annotations

import numpy as np
import pytest

from _faults import Faults
from _helpers import HashEmbedder, ungated_engine
from memori_core import ChromaStore, RecallEngine
from memori_core.cache.writing import _TOKENISE_BESIDE
from memori_core.facts import StoredFact
from memori_core.cache.entity import EntityCache
from memori_core.text import analyzer

WORDS = "apple banana cherry dog eagle fig grape hiking kite lemon mango night ocean piano quilt running".split()
QUERIES = ["apple hiking", "running kites", "ocean night piano", "quilt fact 7"]


def _gaussian(texts: list[str]) -> np.ndarray:
    """A Gaussian vector per text, seeded by the text, so that no two facts tie on cosine (ties would let row
    order, which differs between a replayed copy and a reload, decide the order of equal scores)."""
    import hashlib

    return np.stack([np.random.default_rng(int(hashlib.sha256(t.encode()).hexdigest()[:12], 16)).standard_normal(16)
                     for t in texts]).astype(np.float32)


def _texts(n: int, offset: int = 0) -> list[str]:
    return [f"User {WORDS[i % 16]} {WORDS[(i * 7) % 16]} {WORDS[(i * 3) % 16]} fact {i + offset}." for i in range(n)]


def _ranking(engine: RecallEngine, entity: str) -> list[list[tuple[str, float]]]:
    return [[(c.id, c.rank_score) for c in engine.explain(q, entity, 10).candidates] for q in QUERIES]


def assert_same_ranking(a: list[list[tuple[str, float]]], b: list[list[tuple[str, float]]]) -> None:
    """Same ids in the same order, scores equal up to float32 summation order."""
    assert [[i for i, _ in q] for q in a] == [[i for i, _ in q] for q in b]
    assert [s for q in a for _, s in q] == pytest.approx([s for q in b for _, s in q], rel=1e-5, abs=1e-6)


class _Spy:
    """Records what the coordinator's write_and_tokenise returned."""

    def __init__(self, engine: RecallEngine) -> None:
        self.results: list[object] = []
        inner = engine._coord.write_and_tokenise  # noqa: SLF001

        def spy(facts, write):  # type: ignore[no-untyped-def]
            out = inner(facts, write)
            self.results.append(out)
            return out

        engine._coord.write_and_tokenise = spy  # type: ignore[method-assign]  # noqa: SLF001


def test_a_large_add_tokenised_beside_the_store_write_ranks_as_a_fresh_engine() -> None:
    store = ChromaStore.in_memory()
    engine = ungated_engine(_gaussian, store=store)
    engine.add("u", _texts(50), session_id="s0")
    engine.recall("apple", "u")  # a loaded copy, so the next write is replayed on it
    spy = _Spy(engine)
    n = _TOKENISE_BESIDE + 88
    ids = [f"big{i}" for i in range(n)]
    engine.add("u", _texts(n, offset=50), ids=ids, session_id=[f"s{i % 5}" for i in range(n)])
    assert spy.results and spy.results[-1] is not None, "the large add must have made its tokens beside the write"
    key, tokens = spy.results[-1]  # type: ignore[misc]
    assert len(tokens) == n and tokens[0] == analyzer(*key)(_texts(1, offset=50)[0])
    # Replacing some of them by id: old rows die, new ones take the tokens made for them.
    engine.add("u", [f"User replaced note {i} about ocean." for i in range(n)], ids=ids)
    fresh = ungated_engine(_gaussian, store=store)
    assert_same_ranking(_ranking(engine, "u"), _ranking(fresh, "u"))
    assert engine.count("u") == 50 + n


def test_tokens_made_with_another_analyzer_are_not_used() -> None:
    facts = [StoredFact(f"f{i}", "u", t, "2026-01-01T00:00:00+00:00", {}, seq=i) for i, t in enumerate(_texts(20))]
    vectors = HashEmbedder().embed_documents([f.content for f in facts])
    plain = ("memori", None)
    wrong = (plain, [analyzer(*plain)(f.content) for f in facts])
    given = EntityCache("u")
    given.upsert(facts, vectors, tokens=wrong)
    built = EntityCache("u")
    built.upsert(facts, vectors)
    for q in ("apple hiking", "runs"):
        terms = analyzer(*given.key)(q)
        assert np.array_equal(given.lexicon.scores(terms, k1=1.2, b=0.75), built.lexicon.scores(terms, k1=1.2, b=0.75))


def test_a_failed_large_write_leaves_answers_of_a_fresh_engine() -> None:
    store = ChromaStore.in_memory()
    engine = ungated_engine(_gaussian, store=store)
    engine.add("u", _texts(30))
    engine.recall("apple", "u")
    faults = Faults(store)
    faults.arm("upsert", "after", error=OSError, message="disk went away after the write")  # the rows landed
    with pytest.raises(OSError, match="disk went away"):
        engine.add("u", _texts(_TOKENISE_BESIDE, offset=30))
    faults.disarm()
    fresh = ungated_engine(_gaussian, store=store)
    assert engine.count("u") == 30 + _TOKENISE_BESIDE
    assert_same_ranking(_ranking(engine, "u"), _ranking(fresh, "u"))
