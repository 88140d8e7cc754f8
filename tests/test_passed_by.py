"""Which rule kept a fact (``RecalledFact.passed_by``, ``CandidateScore.passed_by``): named by the decision that
keeps it, the same for recall and explain, true of the fact it names, and shown where explain is shown."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from _helpers import HashEmbedder

from memori_core import ChromaStore, RecallConfig, RecallEngine, RecalledFact
from memori_core.facts import PASSED_BY
from memori_core.ranking.gate import GATE_RULES
from memori_core.ranking.pipeline import KEPT, PoolScores, fates_with_rules, select, select_with_rules

DOCS = Path(__file__).resolve().parents[1] / "docs" / "ranking.md"


def _random_scores(rng: np.random.Generator, n: int) -> PoolScores:
    """A pool of ``n`` with random scores and, at random, each signal the relevance gate reads."""
    cosine = rng.uniform(-0.1, 0.7, n)
    lexical = rng.choice([0.0, rng.uniform(0, 1), 1.0], n)
    bm25 = lexical * rng.uniform(0.5, 4.0)
    rank_score = 0.65 * cosine + 0.35 * lexical + rng.choice([0.0, 0.05], n)

    def maybe(p: float, make):  # noqa: ANN001, ANN202
        return make() if rng.random() < p else None

    affinity = maybe(0.3, lambda: rng.choice([0.0, 0.0, 0.2], n))
    return PoolScores(
        rows=np.arange(n), source=np.ones(n, dtype=np.int8), cosine=cosine, bm25=bm25, lexical=lexical,
        fused=rank_score.copy(), bonus=np.zeros(n) if affinity is None else affinity,
        rank_score=rank_score if affinity is None else rank_score + affinity, query_tokens=["q"], w_cos=0.65,
        w_lex=0.35,
        gate_cosine=maybe(0.3, lambda: cosine + rng.uniform(0, 0.1, n)),
        lift=maybe(0.4, lambda: rng.choice([0.0, 0.05], n)),
        care=maybe(0.3, lambda: rng.random(n) < 0.3),
        implied=maybe(0.2, lambda: rng.random(n) < 0.15),
        general=bool(rng.random() < 0.15),
        in_conversation=bool(rng.random() < 0.4),
        not_theirs=maybe(0.15, lambda: rng.random(n) < 0.3),
        everything_asked=bool(rng.random() < 0.05),
        affinity=affinity,
    )


def _random_config(rng: np.random.Generator) -> RecallConfig:
    gate = rng.choice(["relevance"] * 6 + ["threshold", "off"])
    return RecallConfig(gate=str(gate), gate_spread=None if rng.random() < 0.5 else 0.12,
                        gate_implied_yield=bool(rng.random() < 0.5))


@pytest.mark.parametrize("seed", range(40))
def test_explains_kept_facts_and_rules_are_recalls_over_random_pools(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(25):
        scores, cfg, limit = _random_scores(rng, int(rng.integers(1, 14))), _random_config(rng), int(rng.integers(1, 7))
        rows, codes = select_with_rules(scores, limit, cfg)
        order, fate, rules, _ = fates_with_rules(scores, limit, cfg)
        kept = [k for k, f in enumerate(fate) if f == KEPT]
        assert order[kept].tolist() == rows.tolist() == select(scores, limit, cfg).tolist()
        assert [rules[k] for k in kept] == [GATE_RULES[c] for c in codes.tolist()]
        assert all(rules[k] for k in kept) and not any(r for f, r in zip(fate, rules) if f != KEPT)
        if cfg.gate == "relevance":
            _assert_rules_hold(scores, order, rules, limit, cfg)


def _assert_rules_hold(scores: PoolScores, order: np.ndarray, rules: list[str], limit: int, cfg: RecallConfig) -> None:
    """Each named rule is true of the fact it names."""
    gate_cos = scores.cosine if scores.gate_cosine is None else scores.gate_cosine
    lift = np.zeros_like(gate_cos) if scores.lift is None or scores.general else scores.lift
    plain = scores.rank_score - (0 if scores.affinity is None else scores.affinity)
    for k, rule in enumerate(rules):
        i = int(order[k])
        if rule == "cosine":
            assert gate_cos[i] >= cfg.gate_keep
        elif rule == "third person":
            assert gate_cos[i] < cfg.gate_keep <= gate_cos[i] + lift[i]
        elif rule == "words":
            assert scores.lexical[i] >= cfg.gate_words
        elif rule == "care":
            assert scores.care is not None and scores.care[i]
        elif rule == "implied":
            assert scores.implied is not None and scores.implied[i]
        elif rule == "follow-up":
            assert scores.in_conversation and gate_cos[i] >= cfg.gate_followup
        elif rule == "score band":
            assert plain[i] >= cfg.gate_band * plain[order[:limit]].max() - 1e-12  # the band of the limit best
        elif rule == "general cosine":
            assert scores.general and gate_cos[i] >= cfg.gate_general
        elif rule == "everything asked":
            assert scores.everything_asked
        elif rule:
            assert rule == "general words" and scores.general


def test_every_rule_name_is_in_the_closed_set_and_documented() -> None:
    doc = DOCS.read_text(encoding="utf-8")
    section = doc[doc.index("## Which rule kept a fact"):]
    assert set(GATE_RULES[1:]) <= set(PASSED_BY)
    documented = set(re.findall(r"^- `([a-z -]+)`", section, flags=re.MULTILINE))
    assert set(PASSED_BY) <= documented


def _engine(config: RecallConfig | None = None, judge=None) -> RecallEngine:  # noqa: ANN001
    return RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder(), config=config or RecallConfig(),
                        judge=judge)


def _recalled(eng: RecallEngine, question: str, context: list[str] | None = None) -> list[RecalledFact]:
    """``eng.recall(question, "u", context=context)``, checked to be the facts ``explain`` reports for the same call."""
    facts = eng.recall(question, "u", context=context)
    assert eng.explain(question, "u", context=context).facts == facts
    return facts


def test_a_fact_saying_the_question_is_passed_by_its_cosine_and_explain_says_the_same() -> None:
    eng = _engine()
    eng.add("u", ["User plays the cello in an orchestra.", "User lives in Lyon."])
    facts = _recalled(eng, "plays the cello in an orchestra")
    assert [(f.content, f.passed_by) for f in facts] == [("User plays the cello in an orchestra.", "cosine")]


def test_core_facts_are_passed_by_core_and_on_a_question_about_the_world_by_core_touched() -> None:
    eng = _engine()
    eng.add("u", ["User is allergic to eggs.", "User takes levothyroxine."], core=True)
    eng.add("u", ["User plays the cello."])
    personal = eng.recall("Where should I go on holiday?", "u")
    assert {f.passed_by for f in personal} == {"core"} and len(personal) == 2
    world = eng.recall("What's in a Caesar salad?", "u")
    assert [(f.content, f.passed_by) for f in world] == [("User is allergic to eggs.", "core touched")]
    report = eng.explain("What's in a Caesar salad?", "u")
    assert report.facts == world and "core touched" in report.table()


def test_the_threshold_gate_and_no_gate_name_themselves() -> None:
    for cfg, rule in ((RecallConfig.memori_compat(), "threshold"), (RecallConfig(gate="off"), "no gate")):
        eng = _engine(cfg)
        eng.add("u", ["User plays the cello.", "User lives in Lyon."])
        facts = _recalled(eng, "cello")
        assert facts and {f.passed_by for f in facts} == {rule}


def test_a_judges_choice_is_passed_by_judge() -> None:
    eng = _engine(judge=lambda q, facts, ctx: [i for i, f in enumerate(facts) if "cello" in f])
    eng.add("u", ["User plays the cello.", "User lives in Lyon."])
    facts = _recalled(eng, "What instrument do I play?")
    assert [(f.content, f.passed_by) for f in facts] == [("User plays the cello.", "judge")]


def test_nearest_names_no_rule_it_did_not_apply() -> None:
    eng = _engine()
    eng.add("u", ["User plays the cello."])
    assert [f.passed_by for f in eng.nearest("cello", "u")] == [""]


@pytest.mark.parametrize("seed", range(6))
def test_recall_and_explain_agree_on_rules_over_random_memories(seed: int) -> None:
    rng = np.random.default_rng(seed)
    words = "cello lyon peanut allergy sister wife job nurse coffee tea running knee diabetes dog garden".split()
    eng = _engine()
    texts = [f"User {' '.join(rng.choice(words, 3))}." for _ in range(25)]
    eng.add("u", texts, core=[bool(rng.random() < 0.1) for _ in texts])
    for _ in range(12):
        q = " ".join(rng.choice(words, int(rng.integers(1, 4))))
        context = None if rng.random() < 0.5 else [" ".join(rng.choice(words, 3))]
        facts = _recalled(eng, q, context=context)
        assert all(f.passed_by in PASSED_BY for f in facts)


def test_cli_recall_explain_and_json_show_the_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    minilm) -> None:  # noqa: ANN001
    from memori_core.cli import main

    store = str(tmp_path / "mem")
    assert main(["add", "-e", "u", "User is training for the Berlin marathon.", "User has a cat.", "--path", store]) == 0
    capsys.readouterr()
    assert main(["recall", "-e", "u", "marathon", "--explain", "--path", store]) == 0
    table = capsys.readouterr().out
    assert "passed by" in table and re.search(r"kept\s+(cosine|words)\s+User is training", table)
    assert main(["recall", "-e", "u", "marathon", "--json", "--path", store]) == 0
    assert [f["passed_by"] for f in json.loads(capsys.readouterr().out)] in (["cosine"], ["words"])


def test_langchain_documents_and_llamaindex_nodes_carry_the_rule() -> None:
    from memori_langchain import MemoriRetriever
    from memori_llamaindex import MemoriRetriever as IndexRetriever

    eng = _engine()
    eng.add("u", ["User plays the cello.", "User lives in Lyon."])
    eng.add("u", ["User takes levothyroxine."], core=True)
    docs = MemoriRetriever(engine=eng, entity_id="u", k=3).invoke("plays the cello")
    assert [(d.page_content, d.metadata["passed_by"]) for d in docs] == [
        ("User plays the cello.", "cosine"), ("User takes levothyroxine.", "core")]
    nodes = IndexRetriever(engine=eng, entity_id="u", k=3).retrieve("plays the cello")
    assert [n.node.metadata["passed_by"] for n in nodes] == ["cosine", "core"]
    assert "passed_by" in nodes[0].node.excluded_llm_metadata_keys


def test_explain_table_says_its_rank_column_is_by_score_when_the_rows_are_in_another_order() -> None:
    # Issue 21 review: a core fact recall appends is listed last with rank 2 under a row ranked 3: a reader took
    # the rank column for the row order.
    from _helpers import ungated_engine

    engine = ungated_engine(limit=1)
    engine.add("u", ["User is allergic to peanuts."], core=True)
    engine.add("u", ["User likes hiking in the Alps.", "User plays chess on Sundays."])
    report = engine.explain("Where do I like hiking?", "u")
    assert [c.rank for c in report.candidates] == [1, 3, 2]
    assert "'rank' is each fact's place by score in the pool, not its row" in report.table()
    in_order = ungated_engine()
    in_order.add("u", ["User likes hiking in the Alps."])
    assert "not its row" not in in_order.explain("Where do I like hiking?", "u").table()
