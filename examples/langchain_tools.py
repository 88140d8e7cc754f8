"""An agent that manages its own long-term memory: `memory_tools` in a `create_agent` agent.

Runs offline with the local all-MiniLM-L6-v2 and an in-memory Chroma store.
The fake chat model plays the part of a real one, making the tool calls a real
model would: in the first conversation it saves what Alice says about herself,
in the second it recalls it to answer, and then it corrects a fact that changed
by its id. Whose memory the tools touch comes from the run's config, never
from the model: a call in which the model names another user is refused, and
Bob's memory is untouched.

    python examples/langchain_tools.py
"""

from __future__ import annotations

from typing import Any

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from memori_core import ChromaStore, RecallEngine
from memori_langchain import memory_tools


class ScriptedToolModel(GenericFakeChatModel):
    """LangChain's fake chat model, accepting tools; it prints each tool result it is sent."""

    disable_streaming: bool = True

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedToolModel:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        if messages and isinstance(messages[-1], ToolMessage):
            print(f"  [{messages[-1].name} -> model] {messages[-1].content}")
        return super()._generate(messages, *args, **kwargs)


def calls(name: str, **args: Any) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"call-{name}", "type": "tool_call"}])


def main() -> None:
    engine = RecallEngine(store=ChromaStore.in_memory())
    engine.add("bob", ["User is vegetarian."])
    alice_id = engine.add("alice", ["User lives in Lyon."])[0]

    model = ScriptedToolModel(messages=iter([
        # conversation 1: the user states facts; the model saves one
        calls("remember", text="User is allergic to peanuts."),
        AIMessage("Got it, no peanuts."),
        # conversation 2: a question; the model recalls before answering
        calls("recall_memory", query="Which snacks should I avoid?"),
        AIMessage("Avoid anything with peanuts."),
        # conversation 3: a fact changed; the model updates it by id, and tries (in vain) to reach Bob
        calls("update_memory", fact_id=alice_id, text="User lives in Paris."),
        calls("remember", text="User eats meat.", entity_id="bob"),
        AIMessage("Updated: you live in Paris now."),
    ]))
    agent = create_agent(model, tools=memory_tools(engine),
                         system_prompt="You keep long-term memory about the user with your tools.")
    alice = {"configurable": {"entity_id": "alice"}}
    for text in ["I'm allergic to peanuts.", "Which snacks should I avoid?", "I moved to Paris, and Bob eats meat now."]:
        print(f"alice: {text}")
        result = agent.invoke({"messages": [("human", text)]}, config=alice)
        print(f"agent: {result['messages'][-1].content}")
    print("alice's facts:", sorted(f.content for f in engine.list("alice")))
    print("bob's facts:", sorted(f.content for f in engine.list("bob")))


if __name__ == "__main__":
    main()
