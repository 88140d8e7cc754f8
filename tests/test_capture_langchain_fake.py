"""The capture benchmark's LLM path through memori_langchain.LLMFactExtractor over LangChain's FakeListChatModel
gives the same numbers as the core scripted path (benchmarks/capture_langchain_fake.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from _helpers import HashEmbedder
from memori_core.evaluation.capture import load_capture

ROOT = Path(__file__).resolve().parents[1]


def _script():
    path = ROOT / "benchmarks" / "capture_langchain_fake.py"
    spec = importlib.util.spec_from_file_location("capture_langchain_fake", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["dev.json", "dev2.json", "dev3.json"])
def test_langchain_fake_model_run_matches_the_core_scripted_run(name: str) -> None:
    script = _script()
    data = load_capture(ROOT / "evals" / "capture" / name)
    core, scripted = script.scripted_run(data, HashEmbedder())
    fake, models = script.langchain_fake_run(data, {k: e.replies for k, e in scripted.items()}, HashEmbedder())
    # The adapter was sent exactly the prompts the core path built, and left the same facts valid.
    assert {k: m.prompts for k, m in models.items()} == {k: e.prompts for k, e in scripted.items()}
    assert [c["valid"] for c in fake["conversations"]] == [c["valid"] for c in core["conversations"]]
    assert fake["overall"] == core["overall"]
    assert sum(len(e.prompts) for e in scripted.values()) == data.count()["user_turns"]


def test_a_different_reply_from_the_fake_model_changes_the_numbers() -> None:
    # The comparison can fail: one conversation's replies swapped for "[]" loses its facts.
    script = _script()
    data = load_capture(ROOT / "evals" / "capture" / "dev.json")
    core, scripted = script.scripted_run(data, HashEmbedder())
    replies = {k: e.replies for k, e in scripted.items()}
    first = data.conversations[0].id
    replies[first] = ["[]"] * len(replies[first])
    fake, _ = script.langchain_fake_run(data, replies, HashEmbedder())
    assert fake["conversations"][0]["valid"] == [] != core["conversations"][0]["valid"]
    assert fake["overall"]["recall"] < core["overall"]["recall"]
