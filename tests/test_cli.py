"""The `memori` command: add, recall (plain, --explain, --json), forget, demo, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memori_core.cli import main

pytestmark = pytest.mark.model  # the command uses the local all-MiniLM-L6-v2


def test_add_recall_forget_round_trip_in_an_embedded_store(tmp_path: Path, capsys, minilm) -> None:
    store = str(tmp_path / "mem")
    assert main(["add", "-e", "alice", "User is allergic to peanuts.", "User lives in Lisbon.", "--path", store]) == 0
    added = capsys.readouterr().out.splitlines()
    assert len(added) == 2 and added[0].endswith("User is allergic to peanuts.")

    assert main(["recall", "-e", "alice", "peanut allergy", "--path", store]) == 0
    out = capsys.readouterr().out
    assert out.startswith("<memori_context>") and "- User is allergic to peanuts." in out

    assert main(["recall", "-e", "bob", "peanut allergy", "--path", store]) == 0
    assert "nothing recalled" in capsys.readouterr().out  # another entity sees nothing

    assert main(["forget", "-e", "alice", "--path", store]) == 0
    assert "forgot 2 fact(s)" in capsys.readouterr().out
    assert main(["recall", "-e", "alice", "peanut allergy", "--path", store]) == 0
    assert "nothing recalled" in capsys.readouterr().out


def test_recall_explain_prints_the_score_table_and_the_block(tmp_path: Path, capsys, minilm) -> None:
    store = str(tmp_path / "mem")
    main(["add", "-e", "u", "User is training for the Berlin marathon.", "User has a cat.", "--path", store])
    capsys.readouterr()
    assert main(["recall", "-e", "u", "marathon", "--explain", "--path", store]) == 0
    out = capsys.readouterr().out
    assert "tokens: ['marathon']" in out and "cosine" in out and "bm25" in out
    assert "kept" in out and "- User is training for the Berlin marathon." in out


def test_recall_json_is_machine_readable(tmp_path: Path, capsys, minilm) -> None:
    store = str(tmp_path / "mem")
    main(["add", "-e", "u", "User is training for the Berlin marathon.", "--path", store])
    capsys.readouterr()
    assert main(["recall", "-e", "u", "marathon", "--json", "--path", store]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert [f["content"] for f in facts] == ["User is training for the Berlin marathon."]
    assert set(facts[0]) >= {"id", "entity_id", "cosine", "lexical", "rank_score", "created_at"}


def test_path_defaults_to_the_environment_variable(tmp_path: Path, capsys, monkeypatch, minilm) -> None:
    monkeypatch.setenv("MEMORI_RECALL_PATH", str(tmp_path / "from-env"))
    assert main(["add", "-e", "u", "User likes tea."]) == 0
    assert (tmp_path / "from-env").is_dir()
    capsys.readouterr()
    assert main(["recall", "-e", "u", "tea"]) == 0
    assert "User likes tea." in capsys.readouterr().out


def test_bad_input_gives_a_clear_error_and_exit_code_2(tmp_path: Path, capsys, minilm) -> None:
    assert main(["add", "-e", "  ", "x", "--path", str(tmp_path)]) == 2
    assert "entity_id" in capsys.readouterr().err


def test_server_option_must_be_host_colon_port() -> None:
    with pytest.raises(SystemExit, match="HOST:PORT"):
        main(["recall", "-e", "u", "q", "--server", "nonsense"])


def test_demo_seeds_two_users_and_prints_tables_and_blocks(capsys, minilm) -> None:
    from memori_core.cli import DEMO_MEMORIES

    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "stored 7 facts for 'alice'" in out and "stored 4 facts for 'bob'" in out
    sections = out.split("=" * 78)[1:]
    assert len(sections) == 6
    snack = next(s for s in sections if "alice asks: Which snacks" in s)
    assert "- User is allergic to peanuts." in snack.split("system prompt addition:")[1]
    for section in sections:
        if "bob asks" in section:
            block = section.split("system prompt addition:")[1]
            assert not any(fact in block for fact in DEMO_MEMORIES["alice"])  # never another user's facts
    capital = next(s for s in sections if "capital of Australia" in s)
    assert "nothing recalled" in capital.split("system prompt addition:")[1]
