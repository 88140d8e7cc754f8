"""The `memori` command: add, recall (plain, --explain, --json), forget, demo, and its mistakes.

The tests that run a command over a store use the local all-MiniLM-L6-v2 (the
``minilm`` fixture marks them ``model``); the mistakes are found before any
model loads.
"""

from __future__ import annotations

import logging
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import pytest

from _helpers import unwritable_folder
import memori_core
from memori_core import ChromaStore
from memori_core.cli import main
from memori_core.config import ENV_FIELDS

ROOT = Path(__file__).resolve().parent.parent


def test_add_recall_forget_round_trip_in_an_embedded_store(tmp_path: Path, capsys, minilm) -> None:
    store = str(tmp_path / "mem")  # missing, in an existing folder: `add` creates it
    assert main(["add", "-e", "alice", "User is allergic to peanuts.", "User lives in Lisbon.", "--path", store]) == 0
    assert (tmp_path / "mem").is_dir()
    added = capsys.readouterr().out.splitlines()
    assert len(added) == 2 and added[0].endswith("User is allergic to peanuts.")

    assert main(["recall", "-e", "alice", "peanut allergy", "--path", store]) == 0
    out = capsys.readouterr().out
    assert out.startswith("<memori_context>") and "- User is allergic to peanuts." in out

    assert main(["recall", "-e", "bob", "peanut allergy", "--path", store]) == 0
    seen = capsys.readouterr()  # another entity sees nothing, and is told why
    assert seen.out == "" and "entity 'bob' has no facts" in seen.err

    assert main(["forget", "-e", "alice", "--path", store]) == 0
    assert "forgot 2 fact(s)" in capsys.readouterr().out
    assert main(["recall", "-e", "alice", "peanut allergy", "--path", store]) == 0
    seen = capsys.readouterr()  # after forget the entity has nothing, and the user is told so
    assert seen.out == "" and "entity 'alice' has no facts" in seen.err


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
    with pytest.raises(SystemExit) as info:
        main(["add", "-e", "  ", "x", "--path", str(tmp_path)])
    assert info.value.code == 2
    assert "memori: error: argument --entity/-e: must not be blank" in capsys.readouterr().err


def argparse_error(argv: list[str], capsys) -> str:
    """Run ``memori argv``, expect argparse's exit 2, return standard error."""
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err


@pytest.mark.parametrize("server", ["nonsense", "localhost:abc", "localhost:", ":8000", "localhost:70000",
                                    "ftp://localhost:8000", "http://:8000", "local host:8000"])
def test_server_option_must_be_host_colon_port_or_a_url(server: str, capsys) -> None:
    err = argparse_error(["recall", "-e", "u", "q", "--server", server], capsys)
    assert err.startswith("usage: memori recall ")
    assert ("memori: error: argument --server: expected HOST:PORT or an http(s) URL, e.g. 127.0.0.1:8000 or "
            f"http://127.0.0.1:8000, got {server!r}") in err


def test_server_and_path_together_are_an_error(tmp_path: Path, capsys) -> None:
    err = argparse_error(["add", "-e", "u", "x", "--server", "localhost:8000", "--path", str(tmp_path)], capsys)
    assert "memori: error: argument --path: not allowed with argument --server" in err


@pytest.mark.parametrize(
    ("argv", "usage"),
    [
        (["recall", "-e", "u", "q", "--bogus"], "usage: memori recall "),
        (["add", "-e", "u", "x", "--bogus"], "usage: memori add "),
        (["eval", "locomo", "f.json", "--bogus"], "usage: memori eval locomo "),
    ],
)
def test_an_unknown_option_prints_the_usage_of_its_subcommand(argv: list[str], usage: str, capsys) -> None:
    err = argparse_error(argv, capsys)
    assert err.startswith(usage)
    assert err.rstrip().endswith("memori: error: unrecognized arguments: --bogus")


def test_version_is_the_package_version(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == f"memori {memori_core.__version__}\n"


def test_the_version_is_written_once_in_the_package() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "memori_core._version.__version__"}
    assert memori_core.__version__ == version("memori-recall"), "stale install: run `pip install -e .` again"


# -- where the store is: --path / $MEMORI_RECALL_PATH ---------------------------


def path_error(argv: list[str], capsys) -> str:
    """Run ``memori argv``, expect exit 2 and nothing on stdout, return standard error (one line)."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("memori: error: ") and captured.err.count("\n") == 1, captured.err
    return captured.err


@pytest.mark.parametrize("command", [["recall", "-e", "u", "q"], ["forget", "-e", "u"]])
def test_a_missing_folder_is_an_error_for_commands_that_only_read(command: list[str], tmp_path: Path, capsys):
    typo = tmp_path / "mem-typo"
    err = path_error([*command, "--path", str(typo)], capsys)
    assert f"--path {typo} does not exist" in err
    assert not typo.exists()  # never created by a mistyped path


def test_add_creates_a_missing_folder_only_when_its_parent_exists(tmp_path: Path, capsys) -> None:
    typo = tmp_path / "no-such-dir" / "mem"
    err = path_error(["add", "-e", "u", "User likes tea.", "--path", str(typo)], capsys)
    assert f"--path {typo}: its parent folder {typo.parent} does not exist" in err
    assert not typo.parent.exists()
    err = path_error(["demo", "--path", str(typo)], capsys)
    assert "its parent folder" in err and not typo.parent.exists()


def test_the_environment_variable_is_checked_like_path(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("MEMORI_RECALL_PATH", str(tmp_path / "nope"))
    err = path_error(["recall", "-e", "u", "q"], capsys)
    assert f"$MEMORI_RECALL_PATH {tmp_path / 'nope'} does not exist" in err


def test_a_blank_store_path_variable_is_ignored_naming_it_and_the_default_folder_used(
    tmp_path: Path, caplog, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the default folder, here
    monkeypatch.setenv("MEMORI_RECALL_PATH", " ")
    with caplog.at_level(logging.WARNING):
        main(["count", "-e", "u"])
    assert (f"ignoring MEMORI_RECALL_PATH=' ': blank, not a folder; using the default folder "
            f"{tmp_path / 'data' / 'memori-recall'}") in caplog.messages
    assert not (tmp_path / " ").exists()


def _empty_store(folder: Path) -> str:
    """An embedded store folder with no facts (recall of any entity then needs no model)."""
    ChromaStore(path=str(folder)).close()
    return str(folder)


def test_recall_names_the_memori_recall_variables_it_applies_on_stderr(tmp_path: Path, capsys, monkeypatch) -> None:
    store = _empty_store(tmp_path / "mem")
    monkeypatch.setenv("MEMORI_RECALL_GATE", "OFF")
    monkeypatch.setenv("MEMORI_RECALL_LIMIT", "1")
    assert main(["recall", "-e", "u", "q", "--explain", "--path", store]) == 0
    err = capsys.readouterr().err
    assert "memori: applying MEMORI_RECALL_LIMIT=1, MEMORI_RECALL_GATE=OFF" in err
    assert "an app's engine applies them only when built with config=RecallConfig.from_env()" in err


def test_recall_says_nothing_of_the_environment_when_no_variable_is_set(tmp_path: Path, capsys, monkeypatch) -> None:
    store = _empty_store(tmp_path / "mem")
    for var in ENV_FIELDS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MEMORI_RECALL_POOL", "bogus")  # ignored by from_env (with a warning): not applied
    assert main(["recall", "-e", "u", "q", "--path", store]) == 0
    assert "applying" not in capsys.readouterr().err


def test_without_path_reading_an_empty_default_location_says_to_add_first(tmp_path: Path, capsys, monkeypatch):
    monkeypatch.delenv("MEMORI_RECALL_PATH", raising=False)
    for var in ("XDG_DATA_HOME", "LOCALAPPDATA", "HOME"):
        monkeypatch.setenv(var, str(tmp_path))
    err = path_error(["recall", "-e", "u", "q"], capsys)
    assert "no store yet at" in err and "memori add" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [["recall", "-e", "u", "q"], ["add", "-e", "u", "x"], ["forget", "-e", "u"],
                                     ["demo"]])
def test_a_file_is_not_a_store_folder(command: list[str], tmp_path: Path, capsys) -> None:
    afile = tmp_path / "notes.txt"
    afile.write_text("hello", encoding="utf-8")
    err = path_error([*command, "--path", str(afile)], capsys)
    assert f"--path {afile} is a file, not a folder" in err
    err = path_error(["add", "-e", "u", "x", "--path", str(afile / "mem")], capsys)
    assert f"its parent folder {afile} is a file" in err
    assert afile.read_text(encoding="utf-8") == "hello"


@pytest.fixture
def unwritable_dir(tmp_path: Path) -> Iterator[Path]:
    """A folder this process cannot write to (:func:`_helpers.unwritable_folder`)."""
    with unwritable_folder(tmp_path) as folder:
        yield folder


def test_an_unwritable_folder_is_a_clear_error(unwritable_dir: Path, capsys) -> None:
    err = path_error(["recall", "-e", "u", "q", "--path", str(unwritable_dir)], capsys)
    assert f"--path {unwritable_dir} is not writable" in err
    err = path_error(["add", "-e", "u", "x", "--path", str(unwritable_dir / "new-memori-store")], capsys)
    assert f"its parent folder {unwritable_dir} is not writable" in err


@pytest.mark.slow
def test_the_installed_command_reports_mistakes_without_a_traceback(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    for argv in (["recall", "-e", "u", "q", "--path", str(tmp_path / "typo")],
                 ["recall", "-e", "u", "q", "--server", "localhost:abc"]):
        proc = subprocess.run([sys.executable, "-m", "memori_core.cli", *argv], env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2, proc.stderr
        assert "memori: error: " in proc.stderr and "Traceback" not in proc.stderr
    assert list(tmp_path.iterdir()) == []


# -- memori eval ---------------------------------------------------------------


def tiny_locomo(path: Path) -> Path:
    def conversation(sample_id: str, texts: list[str]) -> dict:
        turns = [{"speaker": "AB"[i % 2], "dia_id": f"D1:{i + 1}", "text": t} for i, t in enumerate(texts)]
        return {"sample_id": sample_id,
                "conversation": {"speaker_a": "A", "speaker_b": "B",
                                 "session_1_date_time": "1:56 pm on 8 May, 2023", "session_1": turns},
                "qa": [{"question": f"What about {texts[0]}?", "answer": "x", "evidence": ["D1:1"], "category": 4}]}

    data = [conversation("conv-x", ["a puppy named Biscuit", "nice", "a golden retriever"]),
            conversation("conv-y", ["a telescope for stargazing", "cool"])]
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_eval_shows_progress_for_each_conversation_unless_quiet(tmp_path: Path, capsys) -> None:
    data = tiny_locomo(tmp_path / "tiny.json")
    assert main(["eval", "locomo", str(data), "--embedder", "_helpers:HashEmbedder"]) == 0
    err = capsys.readouterr().err
    assert "] 3/3 embedding facts of locomo:conv-x (1/2)" in err
    assert "] 2/2 embedding facts of locomo:conv-y (2/2)" in err
    assert "] 2/2 questions" in err
    assert "\r" not in err  # not a terminal: lines, not a redrawn bar
    assert main(["eval", "locomo", str(data), "--embedder", "_helpers:HashEmbedder", "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "embedding" not in err and "questions with evidence" in err and "[" not in err


def test_demo_seeds_two_users_and_prints_tables_and_blocks(capsys, minilm) -> None:
    from memori_core.cli import DEMO_MEMORIES

    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "stored 7 facts for 'alice'" in out and "stored 4 facts for 'bob'" in out
    sections = out.split("=" * 78)[1:]
    assert len(sections) == 7
    snack = next(s for s in sections if "alice asks: Which snacks" in s)
    assert "- User is allergic to peanuts." in snack.split("system prompt addition:")[1]
    for section in sections:
        if "bob asks" in section:
            block = section.split("system prompt addition:")[1]
            assert not any(fact in block for fact in DEMO_MEMORIES["alice"])  # never another user's facts
    capital = next(s for s in sections if "capital of Australia" in s)
    assert "(nothing recalled: no fact passed the relevance gate, so nothing is injected)" in capital  # (its name)
    # A follow-up recalls through the earlier turn; an implicit need is met by the gate's care signal.
    follow_up = next(s for s in sections if "alice asks: What should I order there?" in s)
    assert "alice said: We're going to a Chinese restaurant tonight." in follow_up and "gate cos" in follow_up
    assert "- User prefers spicy food" in follow_up.split("system prompt addition:")[1]
    dinner = next(s for s in sections if "bob asks: What should I cook" in s)
    assert "kept as care facts" in dinner and "- User is vegetarian." in dinner.split("system prompt addition:")[1]


# -- --server that does not answer, --timeout ----------------------------------------------------------------------


@pytest.mark.parametrize("value", ["0", "-1", "abc", "nan", "inf"])
def test_timeout_option_must_be_a_positive_number_of_seconds(value: str, capsys) -> None:
    err = argparse_error(["count", "-e", "u", "--server", "localhost:8000", "--timeout", value], capsys)
    assert err.startswith("usage: memori count ")
    assert "memori: error: argument --timeout: " in err and repr(value) in err


def test_timeout_without_server_is_an_error(tmp_path: Path, capsys) -> None:
    assert main(["count", "-e", "u", "--path", str(tmp_path), "--timeout", "3"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("memori: error: --timeout needs --server")


@pytest.mark.parametrize("command", [["count", "-e", "u"], ["list", "-e", "u"], ["recall", "-e", "u", "tea"],
                                     ["add", "-e", "u", "User likes tea."]])
def test_a_server_that_accepts_but_never_answers_is_a_clean_error_naming_it_and_the_time_limit(
    command: list[str], capsys
) -> None:
    import socket

    listener = socket.create_server(("127.0.0.1", 0))  # accepts connections (backlog), never answers
    port = listener.getsockname()[1]
    try:
        code = main([*command, "--server", f"127.0.0.1:{port}", "--timeout", "0.3"])
    finally:
        listener.close()
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err == (f"memori: error: the Chroma server at http://127.0.0.1:{port} did not answer within "
                            "0.3 s (is it stopped or overloaded?); --timeout SECONDS sets the limit\n")


@pytest.mark.parametrize(("k", "problem"), [("0", "must be >= 1, got 0"), ("-3", "must be >= 1, got -3"),
                                             ("two", "expected a whole number, got 'two'")])
def test_recall_refuses_a_k_below_1_like_list_limit(k: str, problem: str, capsys) -> None:
    err = argparse_error(["recall", "-e", "u", "q", "-k", k], capsys)
    assert err.startswith("usage: memori recall ")
    assert err.endswith(f"memori: error: argument --limit/-k: {problem}\n")


@pytest.mark.parametrize("query", ["", "   "])
def test_recall_refuses_a_blank_query_like_the_tools_and_mcp(query: str, tmp_path: Path, capsys) -> None:
    err = argparse_error(["recall", "-e", "alice", query, "--path", str(tmp_path)], capsys)
    assert err.startswith("usage: memori recall ")
    assert err.endswith("memori: error: argument query: must not be blank\n")


# -- memori entities ---------------------------------------------------------------


def test_entities_lists_the_users_a_folder_holds_sorted_and_not_a_forgotten_one(tmp_path: Path, capsys) -> None:
    from _helpers import HashEmbedder
    from memori_core import RecallEngine

    folder = tmp_path / "mem"
    assert main(["entities", "--path", _empty_store(folder)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and "the store holds no facts" in captured.err
    with RecallEngine(store=ChromaStore(path=str(folder)), embedder=HashEmbedder()) as engine:
        engine.add("zoe", ["User likes tea."])
        engine.add("alice", ["User lives in Lisbon.", "User lives in Porto."])
        engine.add("bob", ["User has a cat."])
        engine.forget("bob")
    assert main(["entities", "--path", str(folder)]) == 0
    assert capsys.readouterr().out == "alice\nzoe\n"
    assert main(["entities", "--json", "--path", str(folder)]) == 0
    assert json.loads(capsys.readouterr().out) == ["alice", "zoe"]


def test_entities_of_a_missing_folder_is_an_error_naming_it(tmp_path: Path, capsys) -> None:
    err = path_error(["entities", "--path", str(tmp_path / "nope")], capsys)
    assert f"--path {tmp_path / 'nope'} does not exist" in err
