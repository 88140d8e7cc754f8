"""`memori eval prefeval` on a tiny synthetic PrefEval-task file written here."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from _helpers import WordHashEmbedder, edited, report_fixture, run_eval, write_json
from memori_core import RecallConfig
from memori_core.evaluation import GATES, RANKINGS, load_prefeval, topic_category


PERSONA = ["I have two cats.", "My favorite color is green.", "I work night shifts at a bakery.",
           "I grew up on a farm.", "I collect vintage stamps.", "I enjoy jazz records."]


def synthetic_users() -> list[dict]:
    u1_facts = [
        {"id": "u1:f0", "text": "I am severely allergic to peanuts and tree nuts.", "source": "pref",
         "topic": "lifestyle_dietary"},
        {"id": "u1:f1", "text": "I prefer window seats on long flights.", "source": "pref",
         "topic": "travel_transportation"},
    ] + [{"id": f"u1:f{i + 2}", "text": t, "source": "msc", "topic": None} for i, t in enumerate(PERSONA)]
    u1_queries = [
        {"q": "Which snacks are safe given I am allergic to peanuts?", "evidence": ["u1:f0"],
         "topic": "lifestyle_dietary", "abstention": False, "pair": "lifestyle_dietary#0"},
        {"q": "Book window seats for my long flights", "evidence": ["u1:f1"],
         "topic": "travel_transportation", "abstention": False, "pair": "travel_transportation#2"},
        {"q": "Any advice about vintage stamps?", "evidence": ["u1:f6"], "abstention": False},
        {"q": "Recommend a skincare routine for oily complexion", "evidence": [],
         "topic": "lifestyle_beauty", "abstention": True, "pair": "lifestyle_beauty#4"},
    ]
    u2_facts = [
        {"id": "u2:f0", "text": "I only read science fiction novels.", "source": "pref",
         "topic": "entertain_music_book"},
        {"id": "u2:f1", "text": "I grew up on a farm.", "source": "msc", "topic": None},
    ]
    u2_queries = [
        {"q": "Suggest science fiction novels to read", "evidence": ["u2:f0"], "topic": "entertain_music_book",
         "abstention": False, "pair": "entertain_music_book#8"},
        {"q": "Plan a hiking trip through canyons", "evidence": [], "topic": "travel_activities",
         "abstention": True, "pair": "travel_activities#6"},
    ]
    return [{"user": "u1", "facts": u1_facts, "queries": u1_queries},
            {"user": "u2", "facts": u2_facts, "queries": u2_queries}]


@pytest.fixture
def prefeval_file(tmp_path: Path) -> Path:
    return write_json(tmp_path / "prefeval_tiny.json", synthetic_users())


# -- loading -----------------------------------------------------------------


@pytest.mark.parametrize(
    "topic, category",
    [("travel_hotel", "travel"), ("professional_work_location_style", "professional"), ("pet", "pet"),
     (None, "preference"), ("", "preference")],
)
def test_topic_category(topic: str | None, category: str) -> None:
    assert topic_category(topic) == category


def test_load_prefeval_reads_users_facts_and_queries(prefeval_file: Path) -> None:
    users = load_prefeval(prefeval_file)
    assert [m.entity_id for m in users] == ["prefeval:u1", "prefeval:u2"]
    u1 = users[0]
    assert [f.id for f in u1.facts] == [f"u1:f{i}" for i in range(8)]
    assert all(f.session_id is None and f.created_at is None for f in u1.facts)  # no sessions
    assert [q.category for q in u1.queries] == ["lifestyle", "travel", "preference", "lifestyle"]
    assert [q.abstention for q in u1.queries] == [False, False, False, True]
    assert u1.abstentions[0].evidence == ()


def _broken(change) -> list[dict]:
    return edited(synthetic_users, change)


@pytest.mark.parametrize(
    "data, message",
    [
        ([1, 2], r"user #0: expected an object"),
        (_broken(lambda d: d[0].pop("user")), r"user #0: 'user' must be a non-empty string"),
        (_broken(lambda d: d[1].update(queries={"q": "x"})), r"user #1: expected a list of queries"),
        (_broken(lambda d: d[0]["facts"][1].update(text=7)), r"user #0 fact #1: 'text' must be a non-empty string"),
        (_broken(lambda d: d[0]["queries"][0].update(topic=3)), r"user #0 query #0: 'topic' must be a string"),
        (_broken(lambda d: d[1]["queries"][0].update(evidence=["u1:f0"])), r"no fact of the memory"),
        (_broken(lambda d: d[0]["queries"][1].update(evidence="u1:f1")), r"'evidence' must be a list of fact ids"),
    ],
    ids=["not-objects", "no-user", "queries-not-a-list", "text-not-a-string", "topic-not-a-string",
         "evidence-of-another-user", "evidence-not-a-list"],
)
def test_load_prefeval_rejects_malformed_files_naming_the_file(tmp_path: Path, data: object, message: str) -> None:
    path = write_json(tmp_path / "bad.json", data)
    with pytest.raises(ValueError, match=message) as info:
        load_prefeval(path)
    assert str(path) in str(info.value)


# -- metrics -----------------------------------------------------------------


# The synthetic users evaluated once for the module, a copy per test.
result = report_fixture("prefeval_tiny.json", synthetic_users, load_prefeval)


def test_rankings_cover_answerable_queries_only(result: dict) -> None:
    assert result["counts"] == {"memories": 2, "facts": 10, "answerable": 4, "abstention": 2}
    for name in RANKINGS:
        r = result["rankings"][name]
        assert r["overall"]["n"] == 4, name
        assert {k: v["n"] for k, v in r.items() if k != "overall"} == {
            "entertain": 1, "lifestyle": 1, "preference": 1, "travel": 1}, name
        # Each question shares its distinctive words with its evidence fact only.
        assert r["overall"]["R@5"] == 1.0 and r["overall"]["nDCG@10"] == 1.0, name


def test_the_gate_returns_nothing_for_unrelated_questions(result: dict) -> None:
    default = result["injection"]["default"]
    assert default["hit@k"] == 1.0 and default["R@1"] == 1.0
    assert default["clean_abstentions"] == 1.0 and default["facts_per_abstention"] == 0.0
    assert default["n_abstention"] == 2 and default["n_answerable"] == 4
    # u2 has 2 facts, u1 8: recall without a threshold returns min(limit, facts).
    cosine = result["injection"]["dense_no_threshold"]
    assert cosine["clean_abstentions"] == 0.0
    assert cosine["facts_per_abstention"] == (5 + 2) / 2
    assert cosine["facts_per_answerable"] == (5 + 5 + 5 + 2) / 4
    assert cosine["R@1"] == 1.0


def test_the_threshold_report_uses_the_shipped_threshold(result: dict) -> None:
    th = result["threshold"]
    assert th["threshold"] == RecallConfig().relevance_threshold
    assert th["evidence_in_top"] == 4  # each answerable query's one evidence fact is in its top 10
    assert th["evidence_kept"] == 1.0


# -- the command -------------------------------------------------------------


def test_cli_json_has_the_expected_keys(prefeval_file: Path, tmp_path: Path, capsys) -> None:
    run = run_eval(capsys, tmp_path / "p.json", "prefeval", prefeval_file, "--quiet",
                   "--embedder", "test_eval_prefeval:WordHashEmbedder")
    assert "[#" not in run.err
    assert "| default (relevance gate: open 0.31, keep 0.31, confident 0.44, band 0.5, words 0.7) | 1.000 | 1.000 |" in run.out
    assert "| memori_compat (threshold 0.1) |" in run.out
    assert "4 questions with evidence, 2 abstention questions" in run.out
    result = run.result
    assert result["task"] == "prefeval" and result["limit"] == 5 and result["embedder"] == "word-hash"
    assert set(result["rankings"]) == set(RANKINGS) and set(result["injection"]) == set(GATES)
    assert list(result["category_labels"]) == ["entertain", "lifestyle", "preference", "travel"]
    assert result["injection"]["default"]["clean_abstentions"] == 1.0


def test_cli_threshold_from_the_environment(prefeval_file: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("MEMORI_RECALL_RELEVANCE_THRESHOLD", "none")
    run = run_eval(capsys, tmp_path / "p.json", "prefeval", prefeval_file, "--quiet",
                   "--embedder", "test_eval_prefeval:WordHashEmbedder")
    assert "| default (no gate) |" in run.out
    result = run.result
    assert result["injection"]["default"]["threshold"] is None
    assert result["injection"]["default"]["clean_abstentions"] == 0.0


def test_as_captured_writes_facts_as_the_rule_based_extractor_stores_them(prefeval_file: Path) -> None:
    from memori_core.evaluation.prefeval import as_captured

    memories = load_prefeval(prefeval_file)
    captured = as_captured(memories)
    texts = {f.id: f.text for m in captured for f in m.facts}
    assert texts["u1:f1"] == "User prefers window seats on long flights."
    assert texts["u2:f1"] == "User grew up on a farm."
    assert texts["u2:f0"] == "User only reads science fiction novels."
    assert texts["u1:f3"] == "User's favorite color is green."
    # ids, order and queries are kept; the originals are not changed
    assert [[f.id for f in m.facts] for m in captured] == [[f.id for f in m.facts] for m in memories]
    assert [m.queries for m in captured] == [m.queries for m in memories]
    assert memories[0].facts[1].text == "I prefer window seats on long flights."
    # a fact the rules would not store is kept as written
    odd = replace(memories[1], facts=[replace(memories[1].facts[1], text="Honestly no idea what to think.")])
    assert [f.text for f in as_captured([odd])[0].facts] == ["Honestly no idea what to think."]


def test_cli_as_captured_evaluates_the_rewritten_memory(prefeval_file: Path, tmp_path: Path, capsys) -> None:
    run = run_eval(capsys, tmp_path / "p.json", "prefeval", prefeval_file, "--quiet", "--as-captured",
                   "--embedder", "test_eval_prefeval:WordHashEmbedder")
    assert "4 questions with evidence, 2 abstention questions" in run.out
    assert run.result["task"] == "prefeval"
