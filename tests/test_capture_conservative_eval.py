"""The storing policy measured: ``evaluate_capture`` with the rules storing by ``"broad"`` or ``"strict"``
(``rules_extractor_with``), its per-path counts (``paths``, ``path_table``) and ``memori eval capture --policy
... --by-path``."""

from __future__ import annotations

from pathlib import Path

import pytest

from _helpers import HashEmbedder, run_eval, write_json
from memori_core.cli import main
from memori_core.evaluation.capture import (
    evaluate_capture,
    load_capture,
    path_table,
    rules_extractor_with,
    scripted_llm_extractor,
)

HASH = "_helpers:HashEmbedder"


def _set() -> dict:
    return {"name": "policy", "version": 1, "conversations": [
        {"id": "a", "category": "change", "turns": [
            {"role": "user", "text": "I live in Lisbon."},
            {"role": "assistant", "text": "Nice."},
            {"role": "user", "text": "I moved to Porto."},
            {"role": "user", "text": "I'm sleeping really well."}],
         "gold": [["User lives in Porto.", "User moved to Porto."]], "stale": ["User lives in Lisbon."]},
        {"id": "b", "category": "introduction", "turns": [{"role": "user", "text": "I'm Maya, by the way."}],
         "gold": [["User's name is Maya."]]},
    ]}


@pytest.fixture
def data(tmp_path: Path):
    return load_capture(write_json(tmp_path / "policy.json", _set()))


def test_strict_leaves_out_the_passing_state_broad_stores_and_keeps_the_rest(data) -> None:
    broad = evaluate_capture(data, rules_extractor_with("broad"), embedder=HashEmbedder())
    strict = evaluate_capture(data, rules_extractor_with("strict"), embedder=HashEmbedder())
    assert broad["conversations"][0]["wrong"] == ["User is sleeping really well."]
    assert broad["overall"]["precision"] == pytest.approx(2 / 3)
    assert strict["conversations"][0]["valid"] == ["User lives in Porto."]
    assert strict["overall"]["precision"] == 1.0 and strict["overall"]["recall"] == 1.0
    assert strict["overall"]["stale_valid"] == 0


def test_the_result_counts_the_stored_facts_by_path_and_topic_as_the_benchmark_judges_them(data) -> None:
    result = evaluate_capture(data, rules_extractor_with("broad"), embedder=HashEmbedder())
    rows = {(r["path"], r["topic"]): (r["stored"], r["correct"]) for r in result["paths"]}
    assert rows == {("rewrite", "slot"): (1, 1), ("rewrite", "other"): (1, 0), ("name", "name"): (1, 1)}
    assert result["conversations"][1]["paths"] == {"User's name is Maya.": "name"}
    table = path_table(result)
    assert "| rewrite | other | 1 | 0 | 0.000 |" in table
    assert "| rewrite | all | 2 | 1 | 0.500 |" in table


def test_a_fact_whose_extractor_names_no_path_counts_under_a_question_mark(tmp_path: Path) -> None:
    scripted = {"name": "s", "version": 1, "conversations": [
        {"id": "a", "category": "change", "turns": [
            {"role": "user", "text": "I live in Lisbon.", "facts": [{"fact": "User lives in Lisbon."}]}],
         "gold": ["User lives in Lisbon."]}]}
    data = load_capture(write_json(tmp_path / "s.json", scripted))
    result = evaluate_capture(data, scripted_llm_extractor, embedder=HashEmbedder())  # a model's facts: no path
    assert [(r["path"], r["stored"], r["correct"]) for r in result["paths"]] == [("?", 1, 1)]


def test_rules_extractor_with_refuses_an_unknown_policy() -> None:
    with pytest.raises(ValueError, match="policy"):
        rules_extractor_with("lenient")  # type: ignore[arg-type]


def test_cli_policy_strict_by_path_prints_the_path_table_and_records_the_policy(tmp_path: Path, capsys) -> None:
    file = write_json(tmp_path / "c.json", _set())
    run = run_eval(capsys, tmp_path / "r.json", "capture", file, "--embedder", HASH, "--quiet",
                   "--policy", "strict", "--by-path")
    assert run.result["policy"] == "strict" and run.result["extractor"] == "rules"
    assert run.result["overall"]["precision"] == 1.0
    assert "by rule path" in run.out and "| name | name | 1 | 1 | 1.000 |" in run.out
    assert "policy strict" in run.err


def test_cli_without_by_path_prints_no_path_table(tmp_path: Path, capsys) -> None:
    file = write_json(tmp_path / "c.json", _set())
    run = run_eval(capsys, tmp_path / "r.json", "capture", file, "--embedder", HASH, "--quiet")
    assert run.result["policy"] == "broad"
    assert "by rule path" not in run.out


def test_cli_refuses_a_policy_for_the_scripted_model(tmp_path: Path, capsys) -> None:
    file = write_json(tmp_path / "c.json", _set())
    code = main(["eval", "capture", str(file), "--embedder", HASH, "--extractor", "scripted-llm",
                 "--policy", "strict"])
    assert code != 0
    assert "--policy" in capsys.readouterr().err


def test_cli_rejects_an_unknown_policy(tmp_path: Path) -> None:
    file = write_json(tmp_path / "c.json", _set())
    with pytest.raises(SystemExit):
        main(["eval", "capture", str(file), "--embedder", HASH, "--policy", "lenient"])
