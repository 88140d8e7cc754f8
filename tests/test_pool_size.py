"""The candidate pool's size: 50 rows for every recall of up to 10 facts (docs/ranking.md section 2, item 48)."""

from __future__ import annotations

from memori_core import RecallConfig
from memori_core.ranking.fusion import candidate_limit

WORDS = ("garden", "piano", "hiking", "recipe", "painting", "camping", "guitar", "museum", "beach", "novel",
         "soccer", "yoga", "pottery", "violin", "bakery", "theatre")


def _sessions(n_sessions: int = 20, turns: int = 15) -> list[list[str]]:
    """Turns of a conversation between two people, every one naming two of a few pastimes."""
    out = []
    for s in range(n_sessions):
        out.append([f"{'Ana' if t % 2 else 'Ben'}: the {WORDS[(s + t) % len(WORDS)]} and the "
                    f"{WORDS[(3 * s + 2 * t) % len(WORDS)]} on day {s}, turn {t}" for t in range(turns)])
    return out


def test_default_pool_is_fifty_rows_for_every_limit_up_to_ten():
    cfg = RecallConfig()
    assert {candidate_limit(limit, 10_000, True, cfg) for limit in range(1, 11)} == {50}
    assert candidate_limit(20, 10_000, True, cfg) == 100


def test_memori_compat_keeps_upstreams_pool_of_ten_times_the_limit():
    assert candidate_limit(10, 10_000, True, RecallConfig.memori_compat()) == 100


def test_recall_of_ten_scores_the_pool_a_recall_of_five_scores(ungated):
    for s, turns in enumerate(_sessions()):
        ungated.add("talk", turns, session_id=f"s{s}")
    question = "Which pastimes did Ana take up, the pottery or the violin?"
    five = ungated.explain(question, "talk", 5)
    ten = ungated.explain(question, "talk", 10)
    assert sorted(c.id for c in ten.candidates) == sorted(c.id for c in five.candidates)
    assert [f.id for f in ungated.recall(question, "talk", 10)][:5] == [f.id for f in ungated.recall(question, "talk", 5)]
