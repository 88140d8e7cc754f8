"""Union candidate pool (dense top P + whole-memory BM25 top P) and session smoothing.

The embedder of most tests here gives every fact a chosen cosine to the query
vector, so which facts the dense pool holds is known exactly. The one-hop
neighbour tests pin the ranking-v1 config they were written for (``V1``); the
ranking-v2 parts (second hop, session prior, length scaling) are checked
through the engine at the end, against the score parts ``explain`` reports.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.explain import RecallReport

DIM = 16
QUERY_VEC = np.eye(DIM, dtype=np.float32)[0]
FILLERS = 200
TARGET = "Grandpa flies a zephyr kite on Sundays"


class ControlledEmbedder:
    """A callable embedder: each registered text gets a vector with a chosen cosine to ``QUERY_VEC``."""

    def __init__(self) -> None:
        self.vecs: dict[str, np.ndarray] = {}

    def set(self, text: str, cosine: float) -> str:
        v = np.zeros(DIM, dtype=np.float32)
        v[0] = cosine
        v[1 + len(self.vecs) % (DIM - 1)] = math.sqrt(1.0 - cosine * cosine)
        self.vecs[text] = v
        return text

    def __call__(self, texts: list[str]) -> np.ndarray:
        return np.stack([self.vecs[t] for t in texts])


# Ranking v1's smoothing and gate: the one-hop neighbour bonus alone (alpha 0.3, no second hop,
# no session prior, no length scaling), BM25 divided by the pool maximum, and the rank-score
# threshold 0.19. The one-hop tests below check exactly this arithmetic.
V1 = RecallConfig(
    neighbour_weight=0.3,
    second_neighbour_weight=0.0,
    session_weight=0.0,
    neighbour_length_ref=None,
    lexical_floor=0.0,
    gate="threshold",
    relevance_threshold=0.19,
)


def make_engine(config: RecallConfig, fillers: int = FILLERS, lo: float = 0.2, hi: float = 0.5):
    """An engine whose entity ``u`` holds ``fillers`` session-less facts with cosines spread over [lo, hi)."""
    emb = ControlledEmbedder()
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=emb, config=config)
    if fillers:
        texts = [emb.set(f"filler number {i} about weather notes", lo + (hi - lo) * i / fillers) for i in range(fillers)]
        engine.add("u", texts, ids=[f"filler{i}" for i in range(fillers)])
    return engine, emb


def by_id(report: RecallReport) -> dict:
    return {c.id: c for c in report.candidates}


def assert_score_parts_add_up(report: RecallReport) -> None:
    assert report.candidates
    for c in report.candidates:
        assert c.rank_score == pytest.approx(c.fused + c.neighbour_bonus, abs=1e-12)
        assert c.fused == pytest.approx(report.w_cos * c.cosine + report.w_lex * c.lexical, abs=1e-6)
        assert c.neighbour_bonus >= 0.0


def explain(engine: RecallEngine, query: str = "zephyr", limit: int = 5) -> RecallReport:
    return engine.explain(query, "u", limit, query_vector=QUERY_VEC)


def recall_ids(engine: RecallEngine, query: str = "zephyr", limit: int = 5) -> list[str]:
    return [f.id for f in engine.recall(query, "u", limit, query_vector=QUERY_VEC)]


# -- union pool ----------------------------------------------------------------


def with_target(config: RecallConfig) -> RecallEngine:
    engine, emb = make_engine(config)
    engine.add("u", [emb.set(TARGET, 0.0)], ids=["t"])
    return engine


def test_union_pool_recalls_a_word_match_outside_the_dense_pool() -> None:
    engine = with_target(RecallConfig())
    report = explain(engine)
    cands = by_id(report)
    # P = max(5, min(201, 50)) = 50: the dense pool is 50 fillers (cos >= 0.2 > 0 = the target's).
    assert [c.source for c in report.candidates].count("dense") == 50
    assert cands["t"].source == "lexical"
    assert cands["t"].cosine == pytest.approx(0.0, abs=1e-6)
    assert cands["t"].bm25 > 0 and cands["t"].lexical == 1.0
    assert_score_parts_add_up(report)
    assert recall_ids(engine)[0] == "t"


@pytest.mark.parametrize(
    "config", [RecallConfig.memori_compat(), RecallConfig(pool="dense")], ids=["memori_compat", "pool=dense"]
)
def test_dense_only_pool_cannot_recall_it(config: RecallConfig) -> None:
    engine = with_target(config)
    report = explain(engine)
    assert "t" not in by_id(report)
    assert {c.source for c in report.candidates} == {"dense"}
    assert "t" not in recall_ids(engine)


def test_fact_in_both_pools_is_labelled_dense_plus_lexical() -> None:
    engine, emb = make_engine(RecallConfig())
    engine.add("u", [emb.set("a zephyr is a gentle west wind", 0.9)], ids=["both"])
    report = explain(engine)
    assert by_id(report)["both"].source == "dense+lexical"
    assert report.candidates[0].id == "both"


def test_union_pool_forgets_deleted_facts() -> None:
    engine = with_target(RecallConfig())
    assert recall_ids(engine)[0] == "t"  # cache and inverted index built
    engine.delete("u", ["t"])
    report = explain(engine)
    assert "t" not in by_id(report)
    assert {c.source for c in report.candidates} == {"dense"}


def test_union_pool_sees_facts_added_after_the_index_was_built() -> None:
    engine, emb = make_engine(RecallConfig())
    assert "t" not in recall_ids(engine)
    engine.add("u", [emb.set(TARGET, 0.0)], ids=["t"])
    assert by_id(explain(engine))["t"].source == "lexical"


def test_lexical_pool_adds_at_most_p_rows() -> None:
    engine, emb = make_engine(RecallConfig())
    matches = [emb.set(f"zephyr sighting number {i}", -0.5 + 0.001 * i) for i in range(120)]
    engine.add("u", matches, ids=[f"z{i}" for i in range(120)])
    report = explain(engine)
    sources = [c.source for c in report.candidates]
    assert sources.count("dense") == 50 and sources.count("lexical") == 50
    assert report.pool_size == 100


# -- neighbour smoothing -------------------------------------------------------


def session_engine(config: RecallConfig):
    """Fillers (cos 0.15..0.30, no session) plus session s1 = [before, match, after], then s2 and a loose fact."""
    engine, emb = make_engine(config, lo=0.15, hi=0.30)
    engine.add(
        "u",
        [
            emb.set("we chatted over breakfast", 0.10),
            emb.set("the zephyr kite is blue", 0.30),
            emb.set("then it started to rain", 0.05),
        ],
        ids=["before", "match", "after"],
        session_id="s1",
    )
    engine.add("u", [emb.set("someone else said hello", 0.10)], ids=["other"], session_id="s2")
    engine.add("u", [emb.set("a loose remark", 0.10)], ids=["loose"])
    return engine


def one_session(**turns: tuple[str, float]) -> RecallEngine:
    """A ``V1`` engine whose entity ``u`` holds only ``turns`` (``id=(text, cosine to the query)``), said in this
    order in session ``s``."""
    engine, emb = make_engine(V1, fillers=0)
    engine.add("u", [emb.set(text, cosine) for text, cosine in turns.values()], ids=list(turns), session_id="s")
    return engine


def test_neighbour_gains_weight_times_the_neighbours_fused_score() -> None:
    engine = session_engine(V1)
    report = explain(engine, limit=10)
    cands = by_id(report)
    match = cands["match"]
    assert match.source == "dense+lexical"  # cos 0.30 is above every filler
    for fid in ("before", "after"):
        c = cands[fid]
        assert c.source == "neighbour"  # outside both pools, brought in by the match
        assert c.lexical == 0.0
        assert c.neighbour_bonus == pytest.approx(0.3 * match.fused, abs=1e-12)
        assert c.rank_score == pytest.approx(c.fused + 0.3 * match.fused, abs=1e-12)
    # The match's own neighbours have a lower fused score than it, but still lend it some.
    assert match.neighbour_bonus == pytest.approx(0.3 * max(cands["before"].fused, cands["after"].fused), abs=1e-12)
    assert_score_parts_add_up(report)
    # "before": 0.65 * 0.10 + 0.3 * match.fused beats every filler (0.65 * cos <= 0.195) and the threshold.
    assert recall_ids(engine, limit=10)[:2] == ["match", "before"]


def test_no_bonus_across_sessions_or_without_session() -> None:
    engine = session_engine(RecallConfig())
    cands = by_id(explain(engine, limit=10))
    # "other" (session s2) and "loose" (no session) were added right after the session s1 turns,
    # but neither is anyone's neighbour: they stay out of the pool.
    assert "other" not in cands and "loose" not in cands
    assert all(c.neighbour_bonus == 0.0 for fid, c in cands.items() if fid.startswith("filler"))


def test_no_bonus_for_facts_in_the_pool_without_a_matching_neighbour() -> None:
    # Small memory: every fact is in the dense pool.
    engine, emb = make_engine(V1, fillers=0)
    engine.add("u", [emb.set("first turn", 0.2), emb.set("zephyr kite", 0.4)], ids=["a1", "m1"], session_id="s1")
    engine.add("u", [emb.set("another session turn", 0.2)], ids=["d"], session_id="s2")
    engine.add("u", [emb.set("no session here", 0.2)], ids=["e"])
    engine.add("u", [emb.set("last turn of s1", 0.2)], ids=["a2"], session_id="s1")
    cands = by_id(explain(engine, limit=10))
    assert {c.source for c in cands.values()} <= {"dense", "dense+lexical"}
    assert cands["a1"].neighbour_bonus == pytest.approx(0.3 * cands["m1"].fused)
    # a2 was added to s1 after d and e: its neighbour in s1 is the match.
    assert cands["a2"].neighbour_bonus == pytest.approx(0.3 * cands["m1"].fused)
    assert cands["d"].neighbour_bonus == 0.0  # only other sessions around it
    assert cands["e"].neighbour_bonus == 0.0  # no session, no neighbours


def test_bonus_takes_the_better_of_both_neighbours() -> None:
    engine = one_session(weak=("zephyr", 0.1), mid=("middle turn", 0.0), strong=("zephyr kite zephyr", 0.6))
    cands = by_id(explain(engine))
    assert cands["strong"].fused > cands["weak"].fused > 0
    assert cands["mid"].neighbour_bonus == pytest.approx(0.3 * cands["strong"].fused, abs=1e-12)


def test_neighbour_with_negative_fused_score_lends_nothing() -> None:
    engine = one_session(neg=("far away", -0.8), pos=("close by", 0.5))
    cands = by_id(explain(engine, query="unrelated words"))
    assert cands["neg"].fused < 0
    assert cands["pos"].neighbour_bonus == 0.0
    assert cands["neg"].neighbour_bonus == pytest.approx(0.3 * cands["pos"].fused)


def test_neighbour_weight_is_configurable() -> None:
    engine = session_engine(V1.replace(neighbour_weight=0.5))
    cands = by_id(explain(engine, limit=10))
    assert cands["before"].neighbour_bonus == pytest.approx(0.5 * cands["match"].fused, abs=1e-12)


@pytest.mark.parametrize(
    "config",
    [
        V1.replace(neighbour_weight=0.0),
        RecallConfig(neighbour_weight=0.0, second_neighbour_weight=0.0, session_weight=0.0),
        RecallConfig.memori_compat(),
    ],
    ids=["v1 weight=0", "all smoothing weights 0", "memori_compat"],
)
def test_smoothing_weights_all_zero_turn_smoothing_off(config: RecallConfig) -> None:
    engine = session_engine(config)
    report = explain(engine, limit=10)
    cands = by_id(report)
    assert "before" not in cands and "after" not in cands
    assert all(c.neighbour_bonus == 0.0 and c.source != "neighbour" for c in report.candidates)
    assert_score_parts_add_up(report)


def test_neighbours_skip_deleted_turns_in_recall() -> None:
    engine = one_session(open=("opening", 0.1), gone=("deleted turn", 0.1), match=("zephyr kite", 0.5))
    explain(engine)  # cache built
    engine.delete("u", ["gone"])
    cands = by_id(explain(engine))
    assert "gone" not in cands
    assert cands["open"].neighbour_bonus == pytest.approx(0.3 * cands["match"].fused, abs=1e-12)


def test_fresh_engine_on_the_same_store_gives_the_same_bonuses() -> None:
    engine = session_engine(RecallConfig())
    a = by_id(explain(engine, limit=10))
    fresh = RecallEngine(store=engine.store, embedder=engine.embedder, config=engine.config)
    b = by_id(explain(fresh, limit=10))
    assert a.keys() == b.keys()
    for fid in a:
        assert a[fid].neighbour_bonus == pytest.approx(b[fid].neighbour_bonus, abs=1e-9)
        assert a[fid].source == b[fid].source


def test_session_id_is_returned_in_metadata() -> None:
    engine = session_engine(RecallConfig(gate="off"))  # metadata plumbing: no gate
    facts = engine.recall("zephyr", "u", 10, query_vector=QUERY_VEC)
    meta = {f.id: f.metadata for f in facts}
    assert meta["match"]["session_id"] == "s1"


# -- union pool with a recency window (dense_limit) ---------------------------


def test_lexical_pool_within_the_recency_window_finds_recent_matches() -> None:
    engine, emb = make_engine(RecallConfig(dense_limit=60), fillers=0)
    old = [emb.set(f"zephyr {i}", 0.0) for i in range(100)]  # short docs: high BM25
    engine.add("u", old, ids=[f"old{i}" for i in range(100)], created_at="2020-01-01T00:00:00+00:00")
    recent = [emb.set(f"filler number {i} about weather notes", 0.2 + 0.001 * i) for i in range(59)]
    engine.add("u", recent, ids=[f"filler{i}" for i in range(59)], created_at="2024-01-01T00:00:00+00:00")
    engine.add("u", [emb.set(TARGET, 0.0)], ids=["t"], created_at="2024-01-02T00:00:00+00:00")
    report = explain(engine)
    assert report.rows_scored == 60
    assert by_id(report)["t"].source == "lexical"



# -- ranking v2: second hop, session prior, length scaling (through the engine) -------------

LONG_TURN = "The kite festival went on all afternoon, " + " ".join(
    f"and then we watched flyer number {i} loop over the dunes" for i in range(20)
) + "."
SESSION_A = [
    "We flew the zephyr kite at the beach.",  # a0: the match
    "It was windy that Sunday.",
    "Grandpa brought sandwiches.",  # a2: two turns after the match
    LONG_TURN,  # a3: over 1,000 characters
    "We laughed all the way home.",
    "Next year we will go again.",  # a5: three turns or more from the match
]
SESSION_B = ["My zephyr kite is blue.", "I bought it in Porto."]
LOOSE = ["User likes jazz.", "User owns a zephyr kite too."]
SESSIONS = {"A": [f"a{i}" for i in range(len(SESSION_A))], "B": ["b0", "b1"]}


def kite_engine(config: RecallConfig, embedder, store: ChromaStore | None = None) -> RecallEngine:
    """Hash-embedder engine over two sessions and two session-less facts (a small memory: all in the pool).

    With ``store``, a second engine over the facts already written there.
    """
    engine = RecallEngine(store=store or ChromaStore.in_memory(), embedder=embedder, config=config)
    if store is None:
        engine.add("u", SESSION_A, ids=SESSIONS["A"], session_id="A")
        engine.add("u", SESSION_B, ids=SESSIONS["B"], session_id="B")
        engine.add("u", LOOSE, ids=["l0", "l1"])
    return engine


def kite_report(engine: RecallEngine) -> RecallReport:
    report = engine.explain("zephyr kite", "u", limit=10)
    assert report.pool_size == report.rows_scored == 10  # every fact is scored: each can lend
    return report


def expected_bonuses(report: RecallReport, sessions: dict[str, list[str]], config: RecallConfig) -> dict[str, float]:
    """The v2 bonus of every candidate, recomputed from the fused scores explain reports.

    ``sessions`` lists each session's fact ids in the order they were said. Facts outside the pool lend nothing.
    """
    cands = by_id(report)

    def best(ids: list[str]) -> float:  # the best positive fused score among those in the pool, else 0
        return max([0.0] + [cands[i].fused for i in ids if i in cands])

    out = {fid: 0.0 for fid in cands}
    for order in sessions.values():
        for i, fid in enumerate(order):
            if fid not in cands:
                continue
            one = [order[j] for j in (i - 1, i + 1) if 0 <= j < len(order)]
            two = [order[j] for j in (i - 2, i + 2) if 0 <= j < len(order)]
            bonus = (config.neighbour_weight * best(one) + config.second_neighbour_weight * best(two)
                     + config.session_weight * best(order))
            if config.neighbour_length_ref is not None:
                bonus *= min(1.0, config.neighbour_length_ref / len(cands[fid].content))
            out[fid] = bonus
    return out


def assert_bonuses_recomputed(report: RecallReport, sessions: dict[str, list[str]], config: RecallConfig) -> None:
    """Every candidate's bonus is the one :func:`expected_bonuses` recomputes."""
    expected = expected_bonuses(report, sessions, config)
    for c in report.candidates:
        assert c.neighbour_bonus == pytest.approx(expected[c.id], abs=1e-12), c.id


def kite_reports(config: RecallConfig, embedder, **part_off: float | None) -> tuple[RecallReport, RecallReport]:
    """The kite memory's report under ``config``, and over the same store with ``config.replace(**part_off)``."""
    engine = kite_engine(config, embedder)
    off = RecallEngine(store=engine.store, embedder=embedder, config=config.replace(**part_off))
    return kite_report(engine), kite_report(off)


def bonus_gap(with_part: RecallReport, without_part: RecallReport) -> dict[str, float]:
    """Per fact, how much bonus one part adds (the fused scores are the same in both reports)."""
    a, b = by_id(with_part), by_id(without_part)
    assert a.keys() == b.keys()
    for fid in a:
        assert a[fid].fused == pytest.approx(b[fid].fused, abs=1e-12)
    return {fid: a[fid].neighbour_bonus - b[fid].neighbour_bonus for fid in a}


def test_second_hop_bonus_is_the_weight_times_the_fused_score_two_turns_away(hash_embedder) -> None:
    config = RecallConfig(session_weight=0.0, neighbour_length_ref=None, gate="off")
    assert config.second_neighbour_weight == 0.15  # the default under test
    report, one_hop = kite_reports(config, hash_embedder, second_neighbour_weight=0.0)
    gap = bonus_gap(report, one_hop)
    c = by_id(report)
    # a2 is two turns after the match a0 (and two before a4, which matches nothing).
    assert c["a0"].fused > 0.5 > c["a4"].fused
    assert gap["a2"] == pytest.approx(0.15 * c["a0"].fused, abs=1e-12)
    assert gap["a2"] > 0.1  # a real share, not rounding
    # a1 is next to the match: that stays the one-hop share; its only fact two turns away is a3.
    assert gap["a1"] == pytest.approx(0.15 * max(c["a3"].fused, 0.0), abs=1e-12)
    # A two-turn session has no fact two turns away; facts without a session have no neighbours.
    assert gap["b0"] == gap["b1"] == 0.0
    assert c["l0"].neighbour_bonus == c["l1"].neighbour_bonus == 0.0
    assert_bonuses_recomputed(report, SESSIONS, config)


def test_facts_two_turns_from_a_pooled_fact_join_the_pool_as_neighbours() -> None:
    config = RecallConfig(session_weight=0.0, neighbour_length_ref=None, gate="off")
    engine, emb = make_engine(config, lo=0.15, hi=0.30)
    turns = [("far before", 0.05), ("just before", 0.10), ("the zephyr kite is blue", 0.30),
             ("just after", 0.05), ("far after", 0.02), ("three turns after", 0.01)]
    ids = ["far_before", "before", "match", "after", "far_after", "beyond"]
    engine.add("u", [emb.set(t, cos) for t, cos in turns], ids=ids, session_id="s1")
    cands = by_id(explain(engine, limit=10))
    assert cands["match"].source == "dense+lexical"
    assert {cands[fid].source for fid in ("before", "after", "far_before", "far_after")} == {"neighbour"}
    assert "beyond" not in cands  # three turns away: not brought in
    f = {fid: cands[fid].fused for fid in ids[:5]}
    # far_before: its next turn is "before", the one after that is the match.
    assert cands["far_before"].neighbour_bonus == pytest.approx(
        0.4 * max(f["before"], 0.0) + 0.15 * f["match"], abs=1e-12)
    assert cands["far_after"].neighbour_bonus == pytest.approx(
        0.4 * max(f["after"], 0.0) + 0.15 * f["match"], abs=1e-12)
    # Without the second hop only the match's direct neighbours come in.
    one_hop = by_id(explain(RecallEngine(store=engine.store, embedder=emb,
                                         config=config.replace(second_neighbour_weight=0.0)), limit=10))
    assert "before" in one_hop and "after" in one_hop
    assert "far_before" not in one_hop and "far_after" not in one_hop


def test_session_prior_is_the_weight_times_the_best_fused_score_of_the_session(hash_embedder) -> None:
    config = RecallConfig(neighbour_length_ref=None, gate="off")
    assert config.session_weight == 0.3  # the default under test
    report, no_prior = kite_reports(config, hash_embedder, session_weight=0.0)
    gap = bonus_gap(report, no_prior)
    c = by_id(report)
    best_a = max(c[fid].fused for fid in SESSIONS["A"])
    assert best_a == c["a0"].fused > 0.5
    # Every fact of session A, the match itself included, gains 0.3 x the match's fused score...
    for fid in SESSIONS["A"]:
        assert gap[fid] == pytest.approx(0.3 * best_a, abs=1e-12), fid
    # ...and those of session B 0.3 x the best of B; facts without a session nothing.
    for fid in SESSIONS["B"]:
        assert gap[fid] == pytest.approx(0.3 * max(c["b0"].fused, c["b1"].fused), abs=1e-12), fid
    assert gap["l0"] == gap["l1"] == 0.0
    # a5 is three turns from the match: the session prior is all it borrows from it.
    assert c["a5"].neighbour_bonus == pytest.approx(
        0.4 * max(c["a4"].fused, 0.0) + 0.15 * max(c["a3"].fused, 0.0) + 0.3 * best_a, abs=1e-12)
    assert_bonuses_recomputed(report, SESSIONS, config)


def test_long_fact_bonus_is_scaled_by_the_length_reference(hash_embedder) -> None:
    config = RecallConfig(gate="off")
    assert config.neighbour_length_ref == 500  # the default under test
    scaled, unscaled = map(by_id, kite_reports(config, hash_embedder, neighbour_length_ref=None))
    long = scaled["a3"]
    assert long.content == LONG_TURN and len(LONG_TURN) > 1000
    # Three turns from the match, a3 still borrows 0.3 x its fused score through the session prior.
    assert unscaled["a3"].neighbour_bonus > 0.2
    assert long.neighbour_bonus == pytest.approx(unscaled["a3"].neighbour_bonus * 500 / len(LONG_TURN), abs=1e-12)
    assert long.fused == pytest.approx(unscaled["a3"].fused, abs=1e-12)  # only the bonus is scaled
    for fid, cand in scaled.items():  # every other fact is at most 500 characters: unchanged
        if fid != "a3":
            assert len(cand.content) <= 500
            assert cand.neighbour_bonus == pytest.approx(unscaled[fid].neighbour_bonus, abs=1e-12), fid


def test_neighbour_weight_zero_alone_keeps_the_second_hop_and_the_session_prior(hash_embedder) -> None:
    # Only the one-hop share is off: smoothing (and the pool's neighbour links) stay on.
    config = RecallConfig(neighbour_weight=0.0, neighbour_length_ref=None, gate="off")
    report = kite_report(kite_engine(config, hash_embedder))
    c = by_id(report)
    assert c["a2"].neighbour_bonus == pytest.approx(0.15 * c["a0"].fused + 0.3 * c["a0"].fused, abs=1e-12)
    assert c["a1"].neighbour_bonus == pytest.approx(
        0.15 * max(c["a3"].fused, 0.0) + 0.3 * c["a0"].fused, abs=1e-12)  # next to the match: no one-hop share
    assert_bonuses_recomputed(report, SESSIONS, config)


@pytest.mark.parametrize("data", ["kite sessions", "fillers and neighbour entrants"])
def test_explain_score_parts_add_up_under_the_default_config(hash_embedder, data: str) -> None:
    config = RecallConfig()
    if data == "kite sessions":
        engine = kite_engine(config, hash_embedder)
        report = kite_report(engine)
        sessions = SESSIONS
        query, vector = "zephyr kite", None
    else:
        engine = session_engine(config)
        report = explain(engine, limit=10)
        sessions = {"s1": ["before", "match", "after"], "s2": ["other"]}
        query, vector = "zephyr", QUERY_VEC
    assert_score_parts_add_up(report)  # rank_score == fused + neighbour_bonus, for every candidate
    assert [c.rank_score for c in report.candidates] == sorted((c.rank_score for c in report.candidates),
                                                               reverse=True)
    assert any(c.neighbour_bonus > 0 for c in report.candidates)
    assert_bonuses_recomputed(report, sessions, config)
    assert engine.recall(query, "u", 10, query_vector=vector) == report.facts
