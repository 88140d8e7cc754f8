"""The `memori` commands an operator runs to inspect and fix a store: recall --as-of, update, add's
--supersedes / --created-at / --expires / --metadata, stats, count --all, forget of an unknown entity and
--dry-run, and how --server and --entity mistakes are reported.

They run the real CLI (``main(argv)`` in process) over real embedded Chroma folders in ``tmp_path``. The
embedder is the hashing :class:`HashEmbedder` put in place of the local MiniLM, so no model loads.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from _helpers import HashEmbedder
from memori_core import embedders
from memori_core.cli import main
from memori_core.engine import RecallEngine
from memori_core.store.chroma import ChromaStore


@pytest.fixture(autouse=True)
def hash_embedder_for_the_cli(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's engines embed with the hashing embedder (64-d) instead of loading MiniLM."""
    monkeypatch.setattr(embedders, "_DEFAULT", HashEmbedder())


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``memori argv`` in process: (exit code, stdout, stderr)."""
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``memori argv``, expect argparse's exit 2 with nothing on stdout; return stderr."""
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    return err


def engine_call(folder: Path, call: str, *args: Any, **kwargs: Any) -> Any:
    """``RecallEngine.<call>(*args, **kwargs)`` over the folder's store, closed afterwards (frees it for the CLI)."""
    store = ChromaStore(path=folder)
    try:
        return getattr(RecallEngine(store=store, embedder=HashEmbedder()), call)(*args, **kwargs)
    finally:
        store.close()


@pytest.fixture
def moved(tmp_path: Path) -> tuple[Path, str, str]:
    """A store where alice lived in Lyon from 2024-01-01 and moved to Paris on 2024-06-01: (folder, lyon, paris)."""
    folder = tmp_path / "mem"
    folder.mkdir()
    [lyon] = engine_call(folder, "add", "alice", ["User lives in Lyon."], created_at="2024-01-01T00:00:00Z")
    [paris] = engine_call(folder, "add", "alice", ["User lives in Paris."], created_at="2024-06-01T00:00:00Z",
                          supersedes=[lyon])
    return folder, lyon, paris


def recalled(folder: Path, capsys: pytest.CaptureFixture[str], *options: str) -> list[str]:
    code, out, err = run(["recall", "-e", "alice", "where does the user live", "--json", "--path", str(folder),
                          *options], capsys)
    assert code == 0, err
    return [f["content"] for f in json.loads(out)]


# -- memori recall --as-of -----------------------------------------------------------------


def test_recall_as_of_answers_from_the_facts_valid_then(moved: tuple[Path, str, str], capsys) -> None:
    folder, _, _ = moved
    assert recalled(folder, capsys) == ["User lives in Paris."]
    assert recalled(folder, capsys, "--as-of", "2024-03-01") == ["User lives in Lyon."]
    assert recalled(folder, capsys, "--as-of", "2024-07-01T12:00:00+02:00") == ["User lives in Paris."]
    assert recalled(folder, capsys, "--as-of", "2023-12-31T23:59:59Z") == []


def test_recall_as_of_explains_the_past_too(moved: tuple[Path, str, str], capsys) -> None:
    folder, _, _ = moved
    code, out, err = run(["recall", "-e", "alice", "where does the user live", "--explain", "--as-of", "2024-03-01",
                          "--path", str(folder)], capsys)
    assert code == 0, err
    assert "User lives in Lyon." in out.split("\n\n")[-1]  # the block after the table


@pytest.mark.parametrize("value", ["yesterday", "2024-13-01", "01/05/2024", ""])
def test_recall_as_of_refuses_a_value_that_is_not_iso_8601_naming_the_option(value: str, tmp_path: Path,
                                                                             capsys) -> None:
    err = usage_error(["recall", "-e", "alice", "q", "--as-of", value, "--path", str(tmp_path)], capsys)
    assert f"memori: error: argument --as-of: expected an ISO 8601 date or time, e.g. 2024-05-01 or " \
           f"2024-05-01T12:00:00Z, got {value!r}" in err
