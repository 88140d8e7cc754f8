"""Every public name of the three packages, and every public method their classes define, has a docstring of its
own (tester j16's finding 10: ``LocalMiniLM.embed_documents`` / ``embed_query`` had none), and ``recall``'s says
what chooses its facts (not "threshold applied": the threshold gate is an opt-in)."""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import pytest

PACKAGES = ("memori_core", "memori_langchain", "memori_llamaindex")


def _public(package: str) -> list[tuple[str, Any]]:
    module = importlib.import_module(package)
    return [(f"{package}.{name}", getattr(module, name)) for name in module.__all__]


def _undocumented(qualified: str, value: Any) -> list[str]:
    if not (inspect.isclass(value) or inspect.isfunction(value)) or not value.__module__.startswith(PACKAGES):
        return []
    missing = [] if (value.__doc__ or "").strip() else [qualified]
    if inspect.isclass(value):
        for name, member in vars(value).items():
            function = getattr(member, "__func__", member)
            if not name.startswith("_") and inspect.isfunction(function) and not (function.__doc__ or "").strip():
                missing.append(f"{qualified}.{name}")
    return missing


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_and_method_has_its_own_docstring(package: str) -> None:
    assert [m for qualified, value in _public(package) for m in _undocumented(qualified, value)] == []


def test_recall_docstring_names_the_gate_not_a_threshold() -> None:
    from memori_core import RecallConfig, RecallEngine

    first = inspect.getdoc(RecallEngine.recall).split("\n\n")[0]
    assert "threshold" not in first and "gate" in first and RecallConfig().gate == "relevance"
