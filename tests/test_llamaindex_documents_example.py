"""examples/llamaindex_documents_and_memory.py runs offline (local MiniLM, in-memory Chroma, MockLLM) and each
user's prompt carries their own fact beside the documents; an off-topic question gets no memory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.model, pytest.mark.slow]  # runs an example script


def section(out: str, start: str, end: str) -> str:
    tail = out[out.index(start):]
    return tail[: tail.index(end)]


def test_documents_and_memory_example_prompts_carry_each_users_fact_and_never_empty() -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
               ANONYMIZED_TELEMETRY="False", HF_HUB_OFFLINE="1")
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / "llamaindex_documents_and_memory.py")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    assert "recall failed" not in out + proc.stderr

    alice = section(out, "=== alice asks the menu: Which dishes", "=== bob asks")
    seen = alice[alice.index("--- what the LLM saw ---"):]
    assert "memory about the user" in seen and "User is allergic to peanuts." in seen
    assert "crushed peanuts" in seen and "shellfish" not in alice

    bob = section(out, "=== bob asks", "=== alice asks the menu: What time")
    assert "User is allergic to shellfish." in bob and "User is allergic to peanuts." not in bob

    off_topic = section(out, "=== alice asks the menu: What time", "=== memory only")
    assert "noon until 10 pm" in off_topic and "memory" not in off_topic
    assert "User " not in off_topic

    memory_only = out[out.index("=== memory only"):]
    assert "RetrieverQueryEngine: Empty Response" in memory_only
    assert "MemoriQueryEngine, the LLM saw: What is the capital of Australia?" in memory_only
