"""The LangChain / LangGraph examples run offline (local MiniLM, fake model) and show the recalled facts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # each test runs an example script in another process

ROOT = Path(__file__).resolve().parent.parent
PEANUTS_LINE = "- Alice is allergic to peanuts. Stated at 2026-05-01 09:30 UTC"


def run_example(name: str) -> str:
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", ANONYMIZED_TELEMETRY="False")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / name)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def model_views(stdout: str) -> list[str]:
    """The blocks between '--- the model saw ---' and the closing rule."""
    parts = stdout.split("--- the model saw ---")[1:]
    return [p.split("---------------------")[0] for p in parts]


@pytest.mark.model
def test_chain_example_model_sees_the_fact():
    out = run_example("langchain_chain.py")
    [seen] = model_views(out)
    assert seen.startswith("\n[system] You are a helpful cooking assistant.\n\n<memori_context>")
    assert PEANUTS_LINE in seen  # an implicit need: the question does not mention peanuts
    assert "[human] What should I make for dinner tonight?" in seen
    assert "Bob" not in out
    assert "retrieved: Alice is allergic to peanuts." in out


@pytest.mark.model
def test_agent_example_both_model_calls_see_the_fact_and_history_is_clean():
    out = run_example("langchain_agent.py")
    views = model_views(out)
    assert len(views) == 2
    for seen in views:
        assert PEANUTS_LINE in seen and "- Alice is training for a marathon in October." in seen
    assert "[tool] banana oat porridge" in views[1]
    assert "block in history: False" in out
    assert "alice now has 4 facts" in out
    assert "fact: User runs 40 km a week for the marathon." in out  # the statement, not the question, was captured
    assert "can I eat peanuts" not in out.split("alice now has", 1)[1]
    assert "Bob" not in out


@pytest.mark.model
def test_graph_example_model_sees_the_fact_only_on_the_relevant_turn():
    out = run_example("langgraph_graph.py")
    first, second = model_views(out)
    assert PEANUTS_LINE in first and "- Alice's daughter is called Inês." in first
    assert "<memori_context>" not in second  # "Thanks!" recalls nothing; last turn's block is gone
    assert "block in history: False" in out
    assert "Bob" not in out


@pytest.mark.model
def test_tools_example_agent_remembers_recalls_updates_and_cannot_reach_bob():
    out = run_example("langchain_tools.py")
    assert "[remember -> model] Remembered as fact " in out
    assert "[recall_memory -> model] Relevant memories about the user, best first:" in out
    assert "] User is allergic to peanuts. (stated " in out
    assert "[update_memory -> model] Updated fact " in out and "User lives in Paris." in out
    assert "set by the application, not by a tool call" in out
    assert "alice's facts: ['User is allergic to peanuts.', 'User lives in Paris.']" in out
    assert "bob's facts: ['User is vegetarian.']" in out
