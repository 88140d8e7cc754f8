"""What a new `memori` process loads before it answers: the code its command runs, not the capture rules, the
`memori eval` tasks or the MCP tools (about a second to import on a 2-core machine), which `memori list` and
`memori --help` never use (tester j10's finding 14); and the parser it builds for that is the whole parser to a
person reading `--help`.

The import checks run the command in a new Python process, as an admin does (``slow``); the parser checks run in
process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import memori_core
from memori_core.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent

HEAVY = ("memori_core.capture", "memori_core.extraction", "memori_core.evaluation", "memori_core.mcp_server")
"""The parts a command that reads or writes facts does not run."""

_PROBE = """
import json, sys
from memori_core.cli import main
try:
    main(sys.argv[2:])
except SystemExit:
    pass
with open(sys.argv[1], "w") as out:
    json.dump(sorted(sys.modules), out)
"""


def loaded_by(argv: list[str], tmp_path: Path) -> set[str]:
    """The modules of ``HEAVY``'s parts a new process has imported once ``memori argv`` has run in it."""
    report = tmp_path / "modules.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-c", _PROBE, str(report), *argv], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    modules = json.loads(report.read_text(encoding="utf-8"))
    return {m for m in modules if m.startswith(HEAVY)}


@pytest.mark.slow
@pytest.mark.parametrize("argv", [["list", "-e", "alice"], ["count", "-e", "alice", "--all"], ["entities"],
                                  ["history", "-e", "alice", "some-id"], ["--help"], ["--version"]])
def test_a_command_over_stored_facts_and_help_load_no_capture_eval_or_mcp_code(argv: list[str],
                                                                                 tmp_path: Path) -> None:
    store = tmp_path / "mem"
    store.mkdir()
    options = [] if argv[0].startswith("-") else ["--path", str(store)]
    assert loaded_by([*argv, *options], tmp_path) == set()


@pytest.mark.slow
def test_eval_and_mcp_still_load_what_they_declare(tmp_path: Path) -> None:
    assert "memori_core.evaluation.cli" in loaded_by(["eval", "capture", "--help"], tmp_path)
    assert "memori_core.mcp_server" in loaded_by(["mcp", "--help"], tmp_path)


@pytest.mark.parametrize("argv", [["list", "-e", "alice"], ["--help"], ["eval", "locomo", "x.json"],
                                  ["mcp", "-e", "alice"]])
def test_the_parser_built_for_one_command_line_reads_as_the_whole_parser(argv: list[str]) -> None:
    whole = build_parser()
    assert build_parser(argv).format_help() == whole.format_help()


@pytest.mark.parametrize(("argv", "shown"), [(["mcp", "--help"], "--tool-timeout SECONDS"),
                                             (["eval", "--help"], "capture-locomo")])
def test_a_command_line_naming_mcp_or_eval_gets_their_full_help(argv: list[str], shown: str, capsys) -> None:
    helps = []
    for parser in (build_parser(argv), build_parser()):
        with pytest.raises(SystemExit):
            parser.parse_args(argv)
        helps.append(capsys.readouterr().out)
    assert helps[0] == helps[1] and shown in helps[0]


def test_the_capture_names_of_the_package_are_there_when_asked_for() -> None:
    from memori_core.capture import capture_facts, newest_turn
    from memori_core.extraction import ExtractedFact, FactExtractor, RuleBasedFactExtractor

    for name, value in [("capture_facts", capture_facts), ("newest_turn", newest_turn),
                        ("ExtractedFact", ExtractedFact), ("FactExtractor", FactExtractor),
                        ("RuleBasedFactExtractor", RuleBasedFactExtractor)]:
        assert getattr(memori_core, name) is value and name in dir(memori_core) and name in memori_core.__all__
    with pytest.raises(AttributeError, match="has no attribute 'RuleBasedExtractor'"):
        memori_core.RuleBasedExtractor  # noqa: B018 - a typo is an AttributeError, as before


@pytest.mark.slow
def test_python_dash_m_memori_core_is_the_memori_command(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(memori_core.__file__).parents[1]),
                                                         os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-m", "memori_core", "--help"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith("usage: memori ") and "recall" in proc.stdout
