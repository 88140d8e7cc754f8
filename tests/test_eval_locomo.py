"""`memori eval locomo` on a tiny synthetic LoCoMo-format file written here."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pytest

from _helpers import run_eval, write_json
from memori_core.cli import main
from memori_core.evaluation import (
    CATEGORY_LABELS,
    GATES,
    RANKINGS,
    conversation_memory,
    evaluate,
    format_table,
    load_locomo,
    ndcg_at,
    parse_session_date,
    recall_at,
)

ROOT = Path(__file__).resolve().parent.parent


def evaluate_locomo(conversations, embedder) -> dict:
    """What ``memori eval locomo`` computes: the evaluation over each conversation's memory, LoCoMo's categories."""
    return evaluate([conversation_memory(c) for c in conversations], embedder=embedder, category_labels=CATEGORY_LABELS)
METRICS = ("R@5", "R@10", "nDCG@10")

# Small talk with no word in common with any question below.
CHATTER = [
    "Morning, how was the weekend",
    "Pretty calm, mostly errands",
    "Same here, groceries and laundry",
    "Did anything fun happen",
    "Not really, quiet times",
    "Sounds restful honestly",
    "Yes, needed that break",
    "Work has been hectic lately",
    "Deadlines everywhere this month",
    "Hope things settle soon",
    "Thanks, me too",
    "Talk later then",
]


def turns(session: int, speakers: tuple[str, str], texts: list[str]) -> list[dict]:
    return [{"speaker": speakers[i % 2], "dia_id": f"D{session}:{i + 1}", "text": t} for i, t in enumerate(texts)]


def synthetic_locomo() -> list[dict]:
    ab = ("Alice", "Bob")
    conv_a = {
        "speaker_a": "Alice",
        "speaker_b": "Bob",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": turns(1, ab, ["I adopted a puppy named Biscuit", "Lovely, which breed?", "A golden retriever"] + CHATTER[:5]),
        "session_2_date_time": "10:04 am on 12 June, 2023",
        "session_2": turns(2, ab, CHATTER[5:] + ["I started learning the xylophone"]),
        "session_3_date_time": "7:30 pm on 1 July, 2023",
        "session_3": turns(3, ab, ["We went kayaking on the lake", "The kayak flipped over!"] + CHATTER[:4]),
    }
    qa_a = [
        # Malformed evidence id: two ids in one string.
        {"question": "What puppy did Alice adopt, and what breed is Biscuit?", "answer": "a golden retriever",
         "evidence": ["D1:1; D1:3"], "category": 1},
        {"question": "Which instrument, a xylophone?", "answer": "xylophone", "evidence": ["D2:8"], "category": 4},
        {"question": "Where did they go kayaking?", "answer": "the lake", "evidence": ["D3:1", "D3:2"], "category": 2},
        # Evidence that matches no turn: the question is dropped.
        {"question": "What about the moon?", "answer": "?", "evidence": ["D9:9", "D:11:26"], "category": 3},
        # No evidence at all: dropped.
        {"question": "Anything else?", "answer": "no", "category": 3},
        {"question": "Did Alice adopt a kitten?", "adversarial_answer": "a kitten", "evidence": ["D1:1"],
         "category": 5},
    ]
    cd = ("Carol", "Dan")
    conv_b = {
        "speaker_a": "Carol",
        "speaker_b": "Dan",
        "session_1_date_time": "9:00 am on 3 March, 2022",
        "session_1": turns(1, cd, CHATTER + ["My marathon time was four hours"]),
        "session_2_date_time": "5:45 pm on 20 April, 2022",
        "session_2": turns(2, cd, ["I bought a telescope for stargazing"] + CHATTER[:3]),
    }
    qa_b = [
        {"question": "What did Dan buy, a telescope?", "answer": "a telescope", "evidence": ["D2:1"], "category": 4},
        {"question": "How long was Carol's marathon?", "answer": "four hours", "evidence": ["D1:13"], "category": 4},
    ]
    return [
        {"sample_id": "conv-a", "conversation": conv_a, "qa": qa_a},
        {"sample_id": "conv-b", "conversation": conv_b, "qa": qa_b},
    ]


@pytest.fixture
def locomo_file(tmp_path: Path) -> Path:
    return write_json(tmp_path / "locomo_tiny.json", synthetic_locomo())


def check_result(result: dict) -> None:
    rankings = result["rankings"]
    assert set(rankings) == set(RANKINGS)  # exactly the five rankings
    for name in RANKINGS:
        assert "overall" in rankings[name]
        assert set(rankings[name]) == {"overall", "1", "2", "4", "5"}
        for entry in rankings[name].values():
            for m in METRICS:
                assert 0.0 <= entry[m] <= 1.0, (name, m)
    assert rankings["default"]["overall"]["n"] == 6  # 4 usable questions in conv-a, 2 in conv-b
    assert rankings["default"]["4"]["n"] == 3
    # Every category-4 question names a word found in its evidence turn only.
    assert rankings["bm25"]["4"]["R@10"] == 1.0
    assert rankings["bm25"]["4"]["R@5"] == 1.0
    assert result["category_labels"] == {"1": "multi-hop", "2": "temporal", "4": "single-hop", "5": "adversarial"}
    # LoCoMo has no abstention queries: the abstention metrics are absent, not zero.
    assert set(result["injection"]) == set(GATES)
    for gate in result["injection"].values():
        assert gate["n_answerable"] == 6 and gate["n_abstention"] == 0
        assert gate["clean_abstentions"] is None and gate["facts_per_abstention"] is None
        assert 0.0 <= gate["hit@k"] <= 1.0 and 0.0 <= gate["R@1"] <= gate["hit@k"]
    # Without a threshold, recall returns `limit` facts (every conversation has more).
    assert result["injection"]["dense_no_threshold"]["facts_per_answerable"] == result["limit"]
    assert result["injection"]["default_no_threshold"]["facts_per_answerable"] == result["limit"]


# -- the command -------------------------------------------------------------


@pytest.mark.slow
def test_cli_subprocess_prints_the_table_and_writes_json(locomo_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run(
        [sys.executable, "-m", "memori_core.cli", "eval", "locomo", str(locomo_file), "--json", str(out),
         "--quiet", "--embedder", "tests._helpers:HashEmbedder"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    for name in RANKINGS:
        assert f"| {name} |" in proc.stdout
    assert "| ranking | R@5 | R@10 | nDCG@10 |" in proc.stdout
    assert "| ranking / gate | hit@5 | R@1 |" in proc.stdout
    assert "6 questions" in proc.stdout
    assert "[###" not in proc.stderr  # --quiet: no progress bar
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["task"] == "locomo" and result["limit"] == 5
    assert {"rankings", "injection", "threshold", "counts", "category_labels"} <= set(result)
    check_result(result)


def test_cli_in_process_with_progress_bar(locomo_file: Path, tmp_path: Path, capsys) -> None:
    run = run_eval(capsys, tmp_path / "r.json", "locomo", locomo_file, "--embedder", "_helpers:HashEmbedder")
    assert "6/6 questions" in run.err
    assert "embedding facts" in run.err
    assert "| default |" in run.out
    # The injection table: no abstention query in LoCoMo, so its two abstention columns say n/a.
    gate_rows = [line for line in run.out.splitlines() if line.startswith("| plain cosine, no threshold |")]
    assert len(gate_rows) == 1 and gate_rows[0].rstrip(" |").endswith("| n/a | n/a")
    check_result(run.result)


def test_cli_conversations_filter(locomo_file: Path, tmp_path: Path, capsys) -> None:
    run = run_eval(capsys, tmp_path / "r.json", "locomo", locomo_file, "--quiet",
                   "--embedder", "_helpers:HashEmbedder", "--conversations", "conv-b")
    assert run.result["rankings"]["default"]["overall"]["n"] == 2
    assert main(["eval", "locomo", str(locomo_file), "--quiet", "--embedder", "_helpers:HashEmbedder",
                 "--conversations", "nope"]) == 2
    assert "no conversation matches" in capsys.readouterr().err


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "no such file"),
        ("{not json", "not JSON"),
        ('{"conversation": {}}', "expected a list"),
        ('[{"qa": []}]', "no 'conversation' object"),
    ],
    ids=["missing", "not-json", "not-a-list", "no-conversation"],
)
def test_cli_reports_bad_files_as_errors(tmp_path: Path, capsys, content: str | None, message: str) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        load_locomo(path)
    assert main(["eval", "locomo", str(path), "--quiet", "--embedder", "_helpers:HashEmbedder"]) == 2
    assert message in capsys.readouterr().err


def test_cli_rejects_a_bad_embedder_spec(locomo_file: Path, capsys) -> None:
    assert main(["eval", "locomo", str(locomo_file), "--quiet", "--embedder", "no_such_module:thing"]) == 2
    assert "cannot load embedder" in capsys.readouterr().err


# -- loading -----------------------------------------------------------------


def test_load_locomo_reads_sessions_dates_turns_and_evidence(locomo_file: Path) -> None:
    convs = load_locomo(locomo_file)
    assert [c.sample_id for c in convs] == ["conv-a", "conv-b"]
    a = convs[0]
    assert len(a.turns) == 8 + 8 + 6
    first = a.turns[0]
    assert (first.dia_id, first.session, first.text) == ("D1:1", 1, "Alice: I adopted a puppy named Biscuit")
    assert first.date == datetime(2023, 5, 8, 13, 56, tzinfo=timezone.utc)
    assert {t.session for t in a.turns} == {1, 2, 3}
    assert a.turns[-1].date == datetime(2023, 7, 1, 19, 30, tzinfo=timezone.utc)
    evidence = {q.text: q.evidence for q in a.questions}
    assert evidence["What puppy did Alice adopt, and what breed is Biscuit?"] == ["D1:1", "D1:3"]
    assert "What about the moon?" not in evidence and "Anything else?" not in evidence
    assert [q.category for q in a.questions] == [1, 4, 2, 5]


def test_load_locomo_skips_junk_qa_entries(tmp_path: Path) -> None:
    data = synthetic_locomo()
    data[1]["qa"].append("not a question")
    path = write_json(tmp_path / "x.json", data)
    assert len(load_locomo(path)[1].questions) == 2


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56, tzinfo=timezone.utc)),
        ("12:09 am on 13 September, 2023", datetime(2023, 9, 13, 0, 9, tzinfo=timezone.utc)),
        ("8 May, 2023", datetime(2023, 5, 8, tzinfo=timezone.utc)),
        ("sometime last year", None),
        (None, None),
    ],
)
def test_parse_session_date(text: str | None, expected: datetime | None) -> None:
    assert parse_session_date(text) == expected


# -- metrics -----------------------------------------------------------------


def test_recall_and_ndcg() -> None:
    assert recall_at(["a", "b", "c"], ["c", "z"], 2) == 0.0
    assert recall_at(["a", "b", "c"], ["c", "z"], 3) == 0.5
    assert ndcg_at(["e"], ["e"], 10) == 1.0
    assert ndcg_at(["x", "e"], ["e"], 10) == pytest.approx(1 / np.log2(3))
    assert ndcg_at(["x", "e", "f"], ["e", "f"], 10) == pytest.approx(
        (1 / np.log2(3) + 1 / np.log2(4)) / (1 + 1 / np.log2(3))
    )


def test_format_table_lists_every_ranking_and_category(locomo_file: Path) -> None:
    from _helpers import HashEmbedder

    result = evaluate_locomo(load_locomo(locomo_file), HashEmbedder())
    table = format_table(result)
    for name in RANKINGS:
        assert f"| {name} |" in table
    assert "c4 (single-hop)" in table and "c5 (adversarial)" in table
    check_result(result)


def _paraphrase_embedder(texts: list[str]) -> np.ndarray:
    """Texts with "violet" or "lilac" point the same way; every other text gets a seeded random direction."""
    out = []
    for t in texts:
        if "violet" in t.lower() or "lilac" in t.lower():
            v = np.zeros(32)
            v[0] = 1.0
        else:
            seed = int.from_bytes(hashlib.blake2b(t.encode(), digest_size=8).digest(), "little")
            v = np.random.default_rng(seed).normal(size=32)
            v[0] = 0.0
        out.append(v)
    return np.asarray(out, dtype=np.float32)


def test_rrf_ignores_rows_without_a_query_word(tmp_path: Path) -> None:
    # The question shares no word with any turn; dense finds its evidence (the last turn) first.
    conv = {
        "speaker_a": "Eve",
        "speaker_b": "Finn",
        "session_1_date_time": "1:00 pm on 1 May, 2023",
        "session_1": turns(1, ("Eve", "Finn"), CHATTER * 2 + ["I painted the fence violet"]),
    }
    data = [{"sample_id": "p", "conversation": conv,
             "qa": [{"question": "Which lilac shade?", "answer": "x", "evidence": ["D1:25"], "category": 3}]}]
    path = write_json(tmp_path / "p.json", data)
    result = evaluate_locomo(load_locomo(path), _paraphrase_embedder)
    rankings = result["rankings"]
    assert rankings["bm25"]["3"]["R@10"] == 0.0
    assert rankings["dense"]["3"]["nDCG@10"] == 1.0
    # No BM25 list to fuse: RRF is the dense ranking (not a boost for the first rows).
    assert rankings["rrf"]["3"]["nDCG@10"] == 1.0


def test_short_queries_option_compares_default_and_memori_on_rare_words(
    locomo_file: Path, tmp_path: Path, capsys
) -> None:
    details = tmp_path / "details.json"
    result = run_eval(capsys, tmp_path / "r.json", "locomo", locomo_file, "--quiet", "--short-queries",
                      "--details-json", details, "--embedder", "_helpers:HashEmbedder").result
    assert set(result["rankings"]) == {"default", "memori_compat", "dense", "bm25", "rrf"}
    assert set(result["short_queries"]) == {"default@1", "default@2", "memori_compat@1", "memori_compat@2"}
    extras = json.loads(details.read_text(encoding="utf-8"))
    assert 0.0 <= extras["threshold"]["evidence_kept"] <= 1.0
    short = extras["short_queries"]
    assert set(short) == {"default@1", "default@2", "memori_compat@1", "memori_compat@2"}
    for entry in short.values():
        assert 0.0 <= entry["R@10"] <= 1.0 and entry["n"] > 0
