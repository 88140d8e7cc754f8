"""A LangGraph `StateGraph` with long-term memory: `memori_recall_node` + `with_memori_context`.

The recall node runs first on every turn and writes the user's relevant facts
to `state["memori_context"]`; the model node merges them into its system
prompt. The block never enters the message history, nor a checkpoint. Runs
offline with the local all-MiniLM-L6-v2, an in-memory Chroma store and a fake
chat model.

    python examples/langgraph_graph.py
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph

from memori_langchain import MemoriState, memori_recall_node, with_memori_context

from _demo_memory import demo_engine, show_history, show_model_view  # the examples' users, and how they print


def main() -> None:
    engine = demo_engine()  # Alice's facts (and Bob's) in an in-memory store, embedded by the local MiniLM

    model = GenericFakeChatModel(messages=iter([
        "A lemon sponge cake with 'Inês' on top, made without peanuts.",
        "You're welcome!",
    ]))

    def call_model(state: MemoriState) -> dict[str, Any]:
        messages = with_memori_context(state, "You are a friendly baking assistant.")
        show_model_view(messages)
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
    show_history(result["messages"])


if __name__ == "__main__":
    main()
