"""The LlamaIndex examples run offline (local MiniLM, in-memory Chroma, mock LLMs) and show the recalled facts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.model, pytest.mark.slow]  # each test runs an example script


def run_example(name: str) -> str:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
               ANONYMIZED_TELEMETRY="False", HF_HUB_OFFLINE="1")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / name)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "recall failed" not in proc.stderr + proc.stdout
    return proc.stdout


def section(out: str, start: str, end: str | None = None) -> str:
    tail = out[out.index(start):]
    return tail[: tail.index(end)] if end else tail


def test_query_engine_example_prompts_carry_the_recalled_fact() -> None:
    out = run_example("llamaindex_query_engine.py")
    first = section(out, "=== RetrieverQueryEngine", "=== VectorStoreIndex")
    seen = section(first, "--- what the LLM saw ---")
    assert "User is allergic to peanuts." in seen
    assert "shellfish" not in first and "steak" not in first  # bob's facts
    assert "rank_score" not in seen and "cosine" not in seen

    second = section(out, "=== VectorStoreIndex")
    after = section(second, "after MemoriHybridPostprocessor")
    assert "Kestrel is the codename of the billing service rewrite." in after
    assert "Heron" not in section(second, "--- what the LLM saw ---")


def test_agent_example_llm_sees_each_users_own_facts() -> None:
    out = run_example("llamaindex_agent.py")
    alice = section(out, "=== alice asks", "=== bob asks")
    bob = section(out, "=== bob asks", "=== capture=True")
    assert alice.count("--- what the LLM saw") == 2  # before and after the tool call
    assert alice.count("- User is allergic to peanuts. Stated at 2026-05-01 09:30 UTC") == 2
    assert "- User is vegetarian." in alice and "<memori_context>" in alice
    assert "- User is allergic to shellfish. Stated at 2026-06-12 18:05 UTC" in bob
    assert "shellfish" not in alice and "peanuts." not in bob
    assert "agent answer: Try the green curry with tofu." in out
    captured = section(out, "=== capture=True")
    assert "User recently adopted a grey cat called Miso.  (session alice-chat-2)" in captured  # "we": the household


def test_tools_example_function_agent_remembers_recalls_a_core_fact_always_and_lists_what_it_knows() -> None:
    out = run_example("llamaindex_tools.py")
    assert "[tool -> LLM] Remembered as fact " in out
    assert "] User is allergic to peanuts. (stated " in section(out, "alice: Which snacks", "alice: What should")
    # the allergy is core (remember marks care facts so): recalled whatever the question about alice
    assert "] User is allergic to peanuts. (stated " in section(out, "alice: What should I do this weekend",
                                                                "alice: What do")
    assert "[tool -> LLM] Facts stored about the user, newest first (1 to 1):" in section(out, "alice: What do")
    assert "alice's facts: ['User is allergic to peanuts.']" in out
    assert "bob's facts: ['User is vegetarian.']" in out
