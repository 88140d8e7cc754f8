"""A `create_agent` agent with long-term memory: `MemoriMiddleware`.

Runs offline with the local all-MiniLM-L6-v2 and an in-memory Chroma store.
The fake chat model calls a tool once and then answers, so the model is called
twice; both calls get the user's facts in their system prompt, and the agent's
message history never contains the memory block. With `capture=True` the
user's statements in the turn ("I run 40 km a week for the marathon") become a new
"User ..." fact once the model has answered (questions are never stored);
capture runs in the background and `middleware.flush()` waits for it.

    python examples/langchain_agent.py
"""

from __future__ import annotations

from dataclasses import dataclass

from langchain.agents import create_agent
from langchain_core.messages import AIMessage
from langchain_core.tools import tool

from memori_core import ChromaStore, RecallEngine
from memori_langchain import MemoriMiddleware

from _fake_chat_model import ScriptedToolModel  # a fake model that prints what it is sent; yours in an app


@tool
def search_recipes(query: str) -> str:
    """Search the recipe book."""
    return "banana oat porridge; rice with grilled chicken; peanut noodles"


@dataclass
class UserContext:
    user_id: str


def main() -> None:
    engine = RecallEngine(store=ChromaStore.in_memory())  # default embedder: local MiniLM
    engine.add("alice", [
        "Alice is allergic to peanuts.",
        "Alice is training for a marathon in October.",
        "Alice's daughter is called Inês.",
    ], created_at="2026-05-01T09:30:00Z")
    engine.add("bob", ["Bob is allergic to shellfish.", "Bob lives in Oslo."])

    model = ScriptedToolModel(disable_streaming=True, messages=iter([
        AIMessage(content="", tool_calls=[{"name": "search_recipes", "args": {"query": "pre-run meal"}, "id": "call-1"}]),
        AIMessage(content="Banana oat porridge: good carbs, and no peanuts."),
    ]))
    memori = MemoriMiddleware(engine=engine, capture=True)  # entity from the run's context
    agent = create_agent(
        model,
        [search_recipes],
        system_prompt="You are a nutrition coach.",
        context_schema=UserContext,
        middleware=[memori],
    )
    result = agent.invoke(
        {"messages": [("human", "I run 40 km a week for the marathon: can I eat peanuts before my long run?")]},
        context=UserContext(user_id="alice"),
    )
    print("agent answered:", result["messages"][-1].content)
    print("history:", [m.type for m in result["messages"]],
          "| block in history:", any("<memori_context>" in str(m.content) for m in result["messages"]))
    memori.flush()  # capture runs in the background: wait for it before reading the store
    print("alice now has", engine.count("alice"), "facts (the user's statement was captured)")
    for fact in engine.recall("How much do I run?", "alice", limit=5):
        print("  fact:", fact.content)


if __name__ == "__main__":
    main()
