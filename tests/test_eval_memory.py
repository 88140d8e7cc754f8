"""`memori eval memory` on a tiny synthetic LongMemEval-style file written here."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from _helpers import WordHashEmbedder, edited, report_fixture, run_eval, ungated_engine, write_json
from memori_core import RecallConfig
from memori_core.cli import main
from memori_core.evaluation import GATES, RANKINGS, Fact, evaluate, load_memory
from memori_core.evaluation.runner import add_memory
from memori_core.ranking.care import prototype_texts
from memori_core.ranking.intent import prototype_texts as intent_texts


class CountingEmbedder(WordHashEmbedder):
    """Records every text it is asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.documents: list[str] = []
        self.queries: list[str] = []

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        self.documents.extend(texts)
        return super().embed_documents(texts)

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return super().embed_query(text)


# Filler turns: no word in common with any query below.
FILLER = [
    ("user: Morning everyone, quite sunny outside", "assistant: Sunshine always helps"),
    ("user: Groceries and laundry took forever", "assistant: Chores pile up quickly"),
    ("user: Work has been hectic lately", "assistant: Deadlines everywhere this month"),
    ("user: Cooked pasta yesterday evening", "assistant: Pasta sounds delicious"),
    ("user: Watched clouds drift slowly", "assistant: Relaxing afternoons matter"),
]


def session(sid: str, when: str, user: str, assistant: str) -> list[dict]:
    return [
        {"id": f"{sid}:1", "text": user, "session_id": sid, "when": when, "role": "user"},
        {"id": f"{sid}:2", "text": assistant, "session_id": sid, "when": when, "role": "assistant"},
    ]


def synthetic_pools() -> list[dict]:
    facts = (
        session("s1", "2023-01-05T10:00:00", "user: I adopted a golden retriever puppy named Biscuit",
                "assistant: Congratulations, retrievers are friendly dogs")
        + session("s2", "2023-02-10T18:30:00", "user: My sister moved to Lisbon in March",
                  "assistant: Lisbon has lovely tiled streets")
        + session("s3", "2023-03-15T08:15:00", "user: I started cello lessons on Tuesdays",
                  "assistant: Cello practice takes patience")
    )
    for i, (u, a) in enumerate(FILLER):
        facts += session(f"f{i}", f"2023-04-{10 + i}T12:00:00", u, a)
    queries = [
        {"q": "What is my golden retriever puppy named?", "evidence": ["s1:1"],
         "category": "single-session-user", "abstention": False, "qid": "q1", "answer": "Biscuit"},
        {"q": "Which city did my sister move to?", "evidence": ["s2:1"],
         "category": "single-session-user", "abstention": False, "qid": "q2", "answer": "Lisbon"},
        {"q": "When did I start cello lessons?", "evidence": ["s3:1"],
         "category": "temporal-reasoning", "abstention": False, "qid": "q3", "answer": "March"},
        # Nothing in the memory shares a word with it: the gate must return nothing.
        {"q": "Hamster vaccination schedule?", "evidence": [], "category": "abstention",
         "abstention": True, "qid": "q4_abs", "answer": "not mentioned"},
        # Unanswerable, but close to a stored fact: the gate lets that fact through.
        {"q": "Is my golden retriever puppy Biscuit vaccinated?", "evidence": [], "category": "abstention",
         "abstention": True, "qid": "q5_abs", "answer": "not mentioned"},
    ]
    small = session("t1", "2024-01-01T09:00:00", "user: I drink green tea every morning",
                    "assistant: Green tea has antioxidants")
    small_queries = [{"q": "What tea do I drink every morning?", "evidence": ["t1:1"], "category": "single-session-user",
                      "abstention": False}]
    return [{"id": "pool-a", "facts": facts, "queries": queries},
            {"id": "pool-b", "facts": small, "queries": small_queries}]


@pytest.fixture
def memory_file(tmp_path: Path) -> Path:
    return write_json(tmp_path / "memory_tiny.json", synthetic_pools())


# -- loading -----------------------------------------------------------------


def test_load_memory_reads_pools_sessions_dates_roles_and_queries(memory_file: Path) -> None:
    pools = load_memory(memory_file)
    assert [m.entity_id for m in pools] == ["memory:pool-a", "memory:pool-b"]
    a = pools[0]
    assert len(a.facts) == 6 + 2 * len(FILLER)
    assert a.facts[0] == Fact("s1:1", "user: I adopted a golden retriever puppy named Biscuit",
                              "2023-01-05T10:00:00+00:00", "s1", {"role": "user"})  # the file's times are UTC
    assert a.facts[1].metadata == {"role": "assistant"}
    assert [f.session_id for f in a.facts[:6]] == ["s1", "s1", "s2", "s2", "s3", "s3"]
    assert [q.category for q in a.answerable] == ["single-session-user", "single-session-user", "temporal-reasoning"]
    assert [q.text for q in a.abstentions] == ["Hamster vaccination schedule?",
                                               "Is my golden retriever puppy Biscuit vaccinated?"]
    assert a.queries[0].evidence == ("s1:1",) and a.abstentions[0].evidence == ()


def _write(tmp_path: Path, data: object) -> Path:
    return write_json(tmp_path / "bad.json", data)


def _broken(change) -> list[dict]:
    return edited(synthetic_pools, change)


@pytest.mark.parametrize(
    "data, message",
    [
        ("{oops", "is not JSON"),
        ({"id": "x"}, "expected a list of memory pools"),
        (_broken(lambda d: d[0].pop("facts")), r"pool #0: expected a list of facts"),
        (_broken(lambda d: d[0]["facts"][3].pop("text")), r"pool #0 fact #3: 'text' must be a non-empty string"),
        (_broken(lambda d: d[1]["queries"][0].update(q="  ")), r"pool #1 query #0: 'q' must be"),
        (_broken(lambda d: d[0]["queries"][0].update(evidence=["nope:1"])), "no fact of the memory: \\['nope:1'\\]"),
        (_broken(lambda d: d[0]["queries"][0].update(evidence=[])), "no evidence and is not an abstention"),
        (_broken(lambda d: d[0]["queries"][3].update(evidence=["s1:1"])), "abstention query but has evidence"),
        (_broken(lambda d: d[0]["queries"][0].update(abstention="no")), "'abstention' must be true or false"),
        (_broken(lambda d: d[0]["facts"].append(dict(d[0]["facts"][0]))), "fact id 's1:1' appears twice"),
    ],
    ids=["not-json", "not-a-list", "no-facts", "fact-without-text", "blank-question", "unknown-evidence",
         "answerable-without-evidence", "abstention-with-evidence", "bad-flag", "duplicate-id"],
)
def test_load_memory_rejects_malformed_files_naming_the_file(tmp_path: Path, data: object, message: str) -> None:
    path = _write(tmp_path, data)
    with pytest.raises(ValueError, match=message) as info:
        load_memory(path)
    assert str(path) in str(info.value)


def test_load_memory_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no such file"):
        load_memory(tmp_path / "absent.json")


def test_facts_are_added_by_session_with_role_and_session_metadata(memory_file: Path) -> None:
    memory = load_memory(memory_file)[0]
    engine = ungated_engine(WordHashEmbedder(), neighbour_weight=0.0)
    add_memory(engine, memory)
    assert engine.count(memory.entity_id) == len(memory.facts)
    top = engine.recall("Lisbon has lovely tiled streets", memory.entity_id, 1)[0]
    assert top.id == "s2:2"
    assert top.metadata["role"] == "assistant" and top.metadata["session_id"] == "s2"
    assert top.created_at.startswith("2023-02-10T18:30:00")


# -- metrics -----------------------------------------------------------------


# The synthetic pools evaluated once for the module (it adds every pool to a store: ~0.2 s), a copy per test.
result = report_fixture("memory_tiny.json", synthetic_pools, load_memory)


def test_abstention_queries_are_left_out_of_the_rankings(result: dict) -> None:
    assert result["counts"] == {"memories": 2, "facts": 18, "answerable": 4, "abstention": 2}
    for name in RANKINGS:
        r = result["rankings"][name]
        assert r["overall"]["n"] == 4  # the 2 abstention queries are not scored
        assert set(r) == {"overall", "single-session-user", "temporal-reasoning"}
        assert r["single-session-user"]["n"] == 3 and r["temporal-reasoning"]["n"] == 1
    assert result["category_labels"] == {"single-session-user": "single-session-user",
                                         "temporal-reasoning": "temporal-reasoning"}


def test_evidence_ranked_first_gives_perfect_rankings(result: dict) -> None:
    # Every answerable query shares its rarest words with its evidence fact only.
    for name in ("default", "memori_compat", "dense", "bm25", "rrf"):
        overall = result["rankings"][name]["overall"]
        assert overall["R@5"] == 1.0 and overall["nDCG@10"] == 1.0, name


def test_injection_metrics_on_a_hand_checked_case(result: dict) -> None:
    inj = result["injection"]
    assert set(inj) == set(GATES)
    default = inj["default"]
    assert default["threshold"] == RecallConfig().relevance_threshold and default["k"] == 5
    assert default["n_answerable"] == 4 and default["n_abstention"] == 2
    assert default["hit@k"] == 1.0 and default["R@1"] == 1.0
    assert 1.0 <= default["facts_per_answerable"] <= 5.0
    # The hamster question gets nothing (clean); the vaccinated-puppy one gets the puppy fact.
    assert default["clean_abstentions"] == 0.5
    assert 0.5 <= default["facts_per_abstention"] <= 2.5
    # Without a threshold recall always fills the limit: no clean abstention, 5 facts for each query
    # (pool-b's query: its memory has only 2 facts).
    for gate in ("default_no_threshold", "dense_no_threshold"):
        assert inj[gate]["clean_abstentions"] == 0.0, gate
        assert inj[gate]["facts_per_abstention"] == 5.0, gate
        assert inj[gate]["facts_per_answerable"] == (5 + 5 + 5 + 2) / 4, gate
        assert inj[gate]["threshold"] is None
    assert inj["memori_compat"]["threshold"] == RecallConfig.memori_compat().relevance_threshold


@pytest.mark.parametrize("config", [
    RecallConfig(gate="threshold", relevance_threshold=5.0),  # no rank score reaches 5
    # the relevance gate: no cosine reaches 1.5, no lexical 2.0, and no fact is implied ("Biscuit" names one)
    RecallConfig(gate_open=1.5, gate_words=2.0, gate_implied=False),
], ids=["threshold-gate", "relevance-gate"])
def test_a_stricter_config_changes_only_the_shipped_gate(memory_file: Path, config: RecallConfig) -> None:
    strict = evaluate(load_memory(memory_file), embedder=WordHashEmbedder(), config=config)
    assert strict["injection"]["default"]["hit@k"] == 0.0
    assert strict["injection"]["default"]["facts_per_answerable"] == 0.0
    assert strict["injection"]["default"]["clean_abstentions"] == 1.0
    assert strict["injection"]["default_no_threshold"]["hit@k"] == 1.0
    assert strict["rankings"]["default"]["overall"]["R@5"] == 1.0  # rankings are compared threshold off


def test_every_text_is_embedded_once(memory_file: Path) -> None:
    memories = load_memory(memory_file)
    counting = CountingEmbedder()
    evaluate(memories, embedder=counting, limit=3)
    facts = [f.text for m in memories for f in m.facts]
    queries = [q.text for m in memories for q in m.queries]
    # the gate's care-domain and question-shape prototypes, embedded once if ever
    prototypes = set(prototype_texts()[0]) | set(intent_texts()[0])
    assert sorted(d for d in counting.documents if d not in prototypes) == sorted(facts)
    assert len([d for d in counting.documents if d in prototypes]) in (0, len(prototypes))
    assert sorted(counting.queries) == sorted(queries)


# -- the command -------------------------------------------------------------


def test_cli_writes_the_metrics_json_and_prints_both_tables(memory_file: Path, tmp_path: Path, capsys) -> None:
    run = run_eval(capsys, tmp_path / "m.json", "memory", memory_file, "--limit", "3",
                   "--embedder", "test_eval_memory:WordHashEmbedder")
    assert "embedding facts" in run.err and "6/6 questions" in run.err
    assert "| ranking | R@5 | R@10 | nDCG@10 | R@10 single-session-user | R@10 temporal-reasoning |" in run.out
    assert "| ranking / gate | hit@3 | R@1 | R@3 | facts / answerable q | clean abstentions | facts / abstention q |" \
        in run.out
    assert "| default (relevance gate: open 0.31, keep 0.31, confident 0.44, band 0.5, words 0.7) | 1.000 | 1.000 |" in run.out
    assert "| plain cosine, no threshold | 1.000 | 1.000 | 1.000 | 2.75 | 0.000 | 3.00 |" in run.out
    result = run.result
    assert result["task"] == "memory" and result["limit"] == 3
    assert {"rankings", "injection", "threshold", "counts", "category_labels", "embedder"} <= set(result)
    assert set(result["rankings"]) == set(RANKINGS) and set(result["injection"]) == set(GATES)
    assert set(result["injection"]["default"]) == {
        "hit@k", "R@1", "R@k", "facts_per_answerable", "clean_abstentions", "facts_per_abstention",
        "n_answerable", "n_abstention", "k", "threshold",
    }
    assert result["injection"]["dense_no_threshold"]["facts_per_abstention"] == 3.0


def test_cli_reports_a_malformed_file(tmp_path: Path, capsys) -> None:
    path = _write(tmp_path, [{"id": "p", "facts": "nope", "queries": []}])
    assert main(["eval", "memory", str(path), "--quiet", "--embedder", "test_eval_memory:WordHashEmbedder"]) == 2
    assert f"{path}: pool #0: expected a list of facts" in capsys.readouterr().err


def test_cli_rejects_a_limit_below_one(memory_file: Path, capsys) -> None:
    assert main(["eval", "memory", str(memory_file), "--quiet", "--limit", "0",
                 "--embedder", "test_eval_memory:WordHashEmbedder"]) == 2
    assert "--limit must be >= 1" in capsys.readouterr().err


# -- knowledge updates: the newest telling should rank first -----------------------------------------------


def test_newest_first_reads_the_evidence_times() -> None:
    from memori_core.evaluation.runner import newest_first

    said = {"old": 100.0, "mid": 200.0, "new": 300.0, "same": 300.0, "undated": None}
    assert newest_first(["new", "x", "old"], ["old", "new"], said) is True
    assert newest_first(["old", "new"], ["old", "new"], said) is False
    assert newest_first(["old"], ["old", "new"], said) is False  # the current one was not found
    assert newest_first(["new", "mid"], ["old", "mid", "new"], said) is True  # an older one missing is fine
    assert newest_first(["new"], ["new", "same"], said) is None  # told at one time: not an update
    assert newest_first(["new"], ["old", "undated"], said) is None


def _update_pools() -> list[dict]:
    facts = (
        session("u1", "2023-03-01T10:00:00", "user: The mortgage pre-approval amount from Wells Fargo was 350,000",
                "assistant: That pre-approval gives you room")
        + session("u2", "2023-11-30T12:00:00",
                  "user: Setting up cable now; my Wells Fargo mortgage pre-approval amount went up to 400,000",
                  "assistant: Cable providers vary by area")
    )
    for i, (u, a) in enumerate(FILLER):
        facts += session(f"f{i}", f"2023-05-{10 + i}T12:00:00", u, a)
    queries = [{"q": "What was the mortgage pre-approval amount from Wells Fargo?", "evidence": ["u1:1", "u2:1"],
                "category": "knowledge-update", "abstention": False}]
    return [{"id": "pool-u", "facts": facts, "queries": queries}]


def test_the_report_counts_update_questions_whose_newest_evidence_ranks_first(tmp_path: Path) -> None:
    path = write_json(tmp_path / "updates.json", _update_pools())
    shipped = evaluate(load_memory(path), embedder=WordHashEmbedder())
    off = evaluate(load_memory(path), embedder=WordHashEmbedder(), config=RecallConfig(restatement_terms=None))
    assert shipped["updates"]["default"] == {"questions": 1, "newest_first": 1}
    assert off["updates"]["default"] == {"questions": 1, "newest_first": 0}  # the older telling is closer
    assert shipped["updates"]["memori_compat"] == off["updates"]["memori_compat"]
    assert "updates" not in evaluate(load_memory(write_json(tmp_path / "m.json", synthetic_pools())),
                                     embedder=WordHashEmbedder())
