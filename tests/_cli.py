"""Running the `memori` CLI in process for the CLI tests: the hashing embedder in place of MiniLM, the exit code
and output of a command, and argparse's usage errors."""

from __future__ import annotations

import pytest

from _helpers import HashEmbedder
from memori_core import embedders
from memori_core.cli import main

__all__ = ["hash_embedder_for_the_cli", "run", "usage_error"]


@pytest.fixture(autouse=True)
def hash_embedder_for_the_cli(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's engines embed with the hashing embedder (64-d) instead of loading MiniLM, except in `model` tests.
    Autouse in every test module that imports it."""
    if request.node.get_closest_marker("model") is None:
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
