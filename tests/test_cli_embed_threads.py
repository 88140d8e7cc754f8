"""A bad ``MEMORI_EMBED_THREADS`` and the `memori` command: the commands that embed nothing run whatever it holds;
those that embed stop before opening the store, naming the variable and what it accepts.

The commands run in process (``main(argv)``) over a real embedded Chroma folder, seeded through the engine with the
hashing embedder. The process-wide MiniLM is unset (``embedders._DEFAULT = None``), so a command that embedded
anything would have to load it, read the bad variable and fail: a command that succeeds here embedded nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from _cli import run
from _helpers import HashEmbedder
from memori_core import embedders
from memori_core.engine import RecallEngine
from memori_core.store.chroma import ChromaStore

BAD_VALUES = ["abc", "0", "-1"]


@pytest.fixture
def store_dir(tmp_path: Path) -> Path:
    """A store folder holding entity ``u``'s fact ``User likes tea.`` and ``v``'s ``User has a cat.``."""
    folder = tmp_path / "mem"
    store = ChromaStore(path=folder)
    try:
        engine = RecallEngine(store=store, embedder=HashEmbedder())
        engine.add("u", ["User likes tea."], ids=["f1"])
        engine.add("v", ["User has a cat."], ids=["f2"])
    finally:
        store.close()
    return folder


@pytest.fixture
def bad_threads(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """``MEMORI_EMBED_THREADS`` set to the parametrised bad value, and no MiniLM loaded in the process yet."""
    monkeypatch.setattr(embedders, "_DEFAULT", None)
    monkeypatch.setenv("MEMORI_EMBED_THREADS", request.param)
    return str(request.param)


@pytest.mark.parametrize("bad_threads", BAD_VALUES, indirect=True)
def test_commands_that_embed_nothing_run_whatever_embed_threads_holds(
    bad_threads: str, store_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    at = ["--path", str(store_dir)]
    assert run(["count", "-e", "u", *at], capsys) == (0, "1\n", "")
    code, out, _ = run(["list", "-e", "u", *at], capsys)
    assert code == 0 and out.startswith("f1  ") and out.endswith("  User likes tea.\n")
    code, out, _ = run(["get", "-e", "u", "f1", "--json", *at], capsys)
    assert code == 0 and [r["text"] for r in json.loads(out)] == ["User likes tea."]
    code, out, _ = run(["history", "-e", "u", "f1", *at], capsys)
    assert code == 0 and "User likes tea." in out
    assert run(["entities", *at], capsys) == (0, "u\nv\n", "")
    exported = tmp_path / "u.jsonl"
    assert run(["export", "-e", "u", "--vectors", "-o", str(exported), *at], capsys)[0] == 0
    assert [json.loads(line)["text"] for line in exported.read_text().splitlines()] == ["User likes tea."]
    assert run(["delete", "-e", "v", "f2", *at], capsys) == (0, "deleted 1 fact(s) of 'v'\n", "")
    assert run(["forget", "-e", "u", *at], capsys) == (0, "forgot 1 fact(s) of 'u'\n", "")
    assert run(["count", "-e", "u", *at], capsys) == (
        0, "0\n", "memori: entity 'u' has no facts in this store: nothing to count\n")


@pytest.mark.parametrize("bad_threads", BAD_VALUES, indirect=True)
@pytest.mark.parametrize("argv", [
    ["add", "-e", "u", "User has a dog."],
    ["recall", "-e", "u", "tea"],
    ["restore", "-e", "u", "f1"],
    ["import", "-e", "w", "-i", "EXPORT"],
], ids=lambda argv: argv[0])
def test_commands_that_embed_refuse_a_bad_embed_threads_naming_it_before_writing(
    argv: list[str], bad_threads: str, store_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    export = tmp_path / "u.jsonl"
    export.write_text('{"id": "g1", "text": "User owns a bike."}\n', encoding="utf-8")
    argv = [str(export) if a == "EXPORT" else a for a in argv]
    code, out, err = run([*argv, "--path", str(store_dir)], capsys)
    assert (code, out) == (2, "")
    assert err == f"memori: error: MEMORI_EMBED_THREADS must be a positive integer, got '{bad_threads}'\n"
    monkeypatch.delenv("MEMORI_EMBED_THREADS")
    for entity, facts in (("u", 1), ("w", 0)):  # nothing was written
        assert run(["count", "-e", entity, "--all", "--path", str(store_dir)], capsys)[:2] == (0, f"{facts}\n")


@pytest.mark.parametrize("bad_threads", ["abc"], indirect=True)
def test_add_with_a_bad_embed_threads_creates_no_store_folder(
    bad_threads: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["add", "-e", "u", "User has a dog.", "--path", str(tmp_path / "new")], capsys)
    assert code == 2 and "MEMORI_EMBED_THREADS must be a positive integer, got 'abc'" in err
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("bad_threads", ["0"], indirect=True)
def test_demo_with_a_bad_embed_threads_stops_before_printing_or_making_a_store(
    bad_threads: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    keep = tmp_path / "demo"
    code, out, err = run(["demo", "--path", str(keep)], capsys)
    assert (code, out) == (2, "")
    assert err == "memori: error: MEMORI_EMBED_THREADS must be a positive integer, got '0'\n"
    assert not keep.exists()
