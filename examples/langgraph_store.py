"""A `create_agent` agent whose tools keep long-term memory in LangGraph's store: `MemoriStore`.

Runs offline with the local all-MiniLM-L6-v2 and an in-memory Chroma store. The agent is given
`store=MemoriStore(engine)`; its two tools read and write `runtime.store` under the namespace
`("memories", user_id)`, and the user comes from the run's context, never from the model's arguments.
A scripted fake model decides when to remember and when to recall. The same facts are the engine's:
`engine.recall` (and so `MemoriMiddleware`, `MemoriRetriever`) reads what the tools stored.

    python examples/langgraph_store.py
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from langchain.agents import create_agent
from langchain.tools import ToolRuntime, tool
from langchain_core.messages import AIMessage

from memori_core import ChromaStore, RecallEngine
from memori_langchain import MemoriStore

from _fake_chat_model import ScriptedToolModel  # a fake model that prints what it is sent; yours in an app


@dataclass
class UserContext:
    user_id: str


@tool
def remember(key: str, content: str, runtime: ToolRuntime[UserContext]) -> str:
    """Remember a fact about the user, under a short key (the same key replaces it)."""
    runtime.store.put(("memories", runtime.context.user_id), key, {"content": content})
    return f"remembered {key}"


@tool
def recall(query: str, runtime: ToolRuntime[UserContext]) -> str:
    """Search what you remember about the user."""
    items = runtime.store.search(("memories", runtime.context.user_id), query=query, limit=3)
    return json.dumps([item.value["content"] for item in items]) if items else "nothing relevant is remembered"


def call(name: str, **args: Any) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": f"call-{name}", "type": "tool_call"}])


def run(store: MemoriStore, user: str, question: str, *turns: AIMessage | str) -> None:
    model = ScriptedToolModel(disable_streaming=True, messages=iter(turns))
    agent = create_agent(model, [remember, recall], system_prompt="You are a cooking assistant.",
                         context_schema=UserContext, store=store)
    result = agent.invoke({"messages": [("human", question)]}, context=UserContext(user_id=user))
    print(f"{user}: {question}\nagent: {result['messages'][-1].content}\n")


def main() -> None:
    engine = RecallEngine(store=ChromaStore.in_memory())  # default embedder: local MiniLM
    store = MemoriStore(engine, namespace=("memories", "{user_id}"), fields=["content"])

    run(store, "alice", "Note that I am allergic to peanuts.",
        call("remember", key="allergy", content="User is allergic to peanuts."), "Noted: no peanuts.")
    run(store, "bob", "I love peanut butter, remember that.",
        call("remember", key="likes", content="User loves peanut butter."), "Noted.")
    run(store, "alice", "Can I order the satay skewers tonight?",
        call("recall", query="food allergies"), "Better not: satay sauce is made with peanuts.")

    for user in ("alice", "bob"):
        print(f"{user}'s memories: {[item.value['content'] for item in store.search(('memories', user))]}")
    print("engine.recall for alice:", [f.content for f in engine.recall("Is satay safe for me?", "alice")])


if __name__ == "__main__":
    main()
