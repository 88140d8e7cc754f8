"""A LangGraph `StateGraph` with long-term memory: `memori_recall_node` + `with_memori_context`.

The recall node runs first on every turn and writes the user's relevant facts
to `state["memori_context"]`; the model node merges them into its system
prompt. The block never enters the message history. Runs offline with the
local all-MiniLM-L6-v2, an in-memory Chroma store and a fake chat model.

    python examples/langgraph_graph.py
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import BaseMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph

from memori_core import ChromaStore, RecallEngine
from memori_langchain import MemoriState, memori_recall_node, with_memori_context


def show(messages: list[BaseMessage]) -> None:
    print("--- the model saw ---")
    for message in messages:
        print(f"[{message.type}] {message.text}")
    print("---------------------")


def main() -> None:
    engine = RecallEngine(store=ChromaStore.in_memory())  # default embedder: local MiniLM
    engine.add("alice", [
        "Alice is allergic to peanuts.",
        "Alice is training for a marathon in October.",
        "Alice's daughter is called Inês.",
    ], created_at="2026-05-01T09:30:00Z")
    engine.add("bob", ["Bob is allergic to shellfish.", "Bob lives in Oslo."])

    model = GenericFakeChatModel(messages=iter([
        "A lemon sponge cake with 'Inês' on top, made without peanuts.",
        "You're welcome!",
    ]))

    def call_model(state: MemoriState) -> dict[str, Any]:
        messages = with_memori_context(state, "You are a friendly baking assistant.")
        show(messages)
        return {"messages": [model.invoke(messages)]}

    builder = StateGraph(MemoriState)
    builder.add_node("memori", memori_recall_node(engine))  # entity from the run config
    builder.add_node("model", call_model)
    builder.add_edge(START, "memori")
    builder.add_edge("memori", "model")
    builder.add_edge("model", END)
    graph = builder.compile(checkpointer=InMemorySaver())

    config = {"configurable": {"thread_id": "alice-chat", "entity_id": "alice"}}
    result = graph.invoke({"messages": [("human", "Plan a birthday cake for my daughter, maybe with peanuts?")]}, config)
    print("model answered:", result["messages"][-1].content)
    result = graph.invoke({"messages": [("human", "Thanks!")]}, config)
    print("history:", [m.type for m in result["messages"]],
          "| block in history:", any("<memori_context>" in str(m.content) for m in result["messages"]))


if __name__ == "__main__":
    main()
