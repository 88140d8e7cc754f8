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

from memori_langchain import MemoriMiddleware

from _demo_memory import demo_engine, show_history  # the examples' users, and how they print
from _fake_chat_model import ScriptedToolModel  # a fake model that prints what it is sent; yours in an app


@tool
def search_recipes(query: str) -> str:
    """Search the recipe book."""
    return "banana oat porridge; rice with grilled chicken; peanut noodles"


@dataclass
class UserContext:
    user_id: str


def main() -> None:
    engine = demo_engine()  # Alice's facts (and Bob's) in an in-memory store, embedded by the local MiniLM

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
    show_history(result["messages"])
    memori.flush()  # capture runs in the background: wait for it before reading the store
    print("alice now has", engine.count("alice"), "facts (the user's statement was captured)")
    for fact in engine.recall("How much do I run?", "alice", limit=5):
        print("  fact:", fact.content)


if __name__ == "__main__":
    main()
