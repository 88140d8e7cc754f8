"""Mistakes a new user makes in the first hour get an error that names what to change (tester j23's findings):
an adapter imported from a core install without its extra names the extra and how to install it (not a bare
"No module named 'langchain_core'"); ``RecallEngine(store="./memories")`` names ``store`` (not "'str' object has
no attribute 'on_close'"); ``ChromaStore(path=5)`` names ``path``."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from memori_core import ChromaStore, RecallEngine


@pytest.mark.parametrize(("package", "framework", "extra"), [
    ("memori_langchain", "langchain_core", "langchain"),
    ("memori_langchain", "langgraph", "langchain"),
    ("memori_llamaindex", "llama_index", "llamaindex"),
])
def test_importing_an_adapter_without_its_framework_names_the_extra_to_install(
        package: str, framework: str, extra: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Importing it (or a submodule already loaded by earlier tests) raises ModuleNotFoundError, as when not installed.
    for name in [n for n in sys.modules if n == framework or n.startswith(framework + ".")] + [framework]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, package, raising=False)  # run the package's __init__ again
    with pytest.raises(ModuleNotFoundError, match=rf"{package} needs {framework}\S* \(the {extra} extra\), which is "
                       rf"not installed: `pip install [^`]*\[{extra}\]") as raised:
        importlib.import_module(package)
    assert "<" not in str(raised.value)  # one command to run as it is: no placeholder to fill in
    assert raised.value.name is not None and raised.value.name.startswith(framework)


@pytest.mark.parametrize(("store", "says"), [
    ("./memories", r"got str './memories'"),
    (ChromaStore, r"got the class ChromaStore"),
    (5, r"got int 5"),
])
def test_a_store_that_is_not_a_fact_store_is_a_type_error_naming_store(store: object, says: str) -> None:
    with pytest.raises(TypeError, match=r"store must be a fact store such as ChromaStore\(path=\.\.\.\) or "
                       rf"ChromaStore\.http\(\.\.\.\), {says}"):
        RecallEngine(store=store)  # type: ignore[arg-type]


@pytest.mark.parametrize("path", [5, ["./memories"]])
def test_a_path_that_is_not_a_str_or_a_path_is_a_type_error_naming_path(path: object, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(TypeError, match=r"path must be a str or os\.PathLike naming a folder, got "):
        ChromaStore(path=path)  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []
