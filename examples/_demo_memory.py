"""What the LangChain examples share: the users' stored facts, and how they print what the model saw."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage

from memori_core import ChromaStore, RecallEngine


def demo_engine() -> RecallEngine:
    """An engine over an in-memory Chroma store (default embedder: the local MiniLM) holding Alice's three facts,
    stated 2026-05-01 09:30 UTC, and Bob's two, which no call for Alice may show."""
    engine = RecallEngine(store=ChromaStore.in_memory())
    engine.add("alice", [
        "Alice is allergic to peanuts.",
        "Alice is training for a marathon in October.",
        "Alice's daughter is called Inês.",
    ], created_at="2026-05-01T09:30:00Z")
    engine.add("bob", ["Bob is allergic to shellfish.", "Bob lives in Oslo."])
    return engine


def show_model_view(messages: Sequence[BaseMessage]) -> None:
    """Print the messages one model call receives (a tool-calling turn without text as its calls)."""
    print("--- the model saw ---")
    for message in messages:
        calls = [f"{c['name']}({c['args']})" for c in getattr(message, "tool_calls", [])]
        print(f"[{message.type}] {message.text or ' '.join(calls)}")
    print("---------------------")


def show_history(messages: Sequence[BaseMessage]) -> None:
    """Print the types of a conversation's messages, and whether the memory block entered them."""
    print("history:", [m.type for m in messages],
          "| block in history:", any("<memori_context>" in str(m.content) for m in messages))
