"""A LlamaIndex `FunctionAgent` that manages its own long-term memory: `MemoriToolSpec`.

Runs offline with the local all-MiniLM-L6-v2 and an in-memory Chroma store.
LlamaIndex's `MockFunctionCallingLLM` plays the part of a real LLM, making the
tool calls a real one would (scripted below): it saves what Alice says, later
recalls it to answer, and asks about something memory knows nothing of (the
allergy comes all the same: an allergy is core, recalled whatever the
question), then what memory holds about her (the recall tool lists her facts).
The spec is made for Alice: no tool call can reach Bob's memory.

    python examples/llamaindex_tools.py
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, MessageRole, TextBlock, ToolCallBlock
from llama_index.core.llms.mock import MockFunctionCallingLLM

from memori_core import ChromaStore, RecallEngine
from memori_llamaindex import MemoriToolSpec

SCRIPT: dict[str, tuple[str, dict[str, Any]]] = {
    "I'm allergic to peanuts.": ("remember", {"text": "User is allergic to peanuts."}),
    "Which snacks should I avoid?": ("recall_memory", {"query": "Which snacks should I avoid?"}),
    "What should I do this weekend?": ("recall_memory", {"query": "What should I do this weekend?"}),
    "What do you know about me?": ("recall_memory", {"query": "What do you know about me?"}),
}
"""For each user message, the tool call the scripted LLM makes."""


def scripted_llm(messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
    """One tool call for the user's message, then an answer that quotes the tool's result."""
    if messages[-1].role == MessageRole.TOOL:
        print(f"  [tool -> LLM] {messages[-1].content}")
        return ChatMessage(role=MessageRole.ASSISTANT, content="(answer written from the tool's result)")
    name, args = SCRIPT[messages[-1].content or ""]
    return ChatMessage(role=MessageRole.ASSISTANT, blocks=[
        TextBlock(text=""), ToolCallBlock(tool_call_id=f"call-{name}", tool_name=name, tool_kwargs=args)])


async def main() -> None:
    engine = RecallEngine(store=ChromaStore.in_memory())
    engine.add("bob", ["User is vegetarian."])
    tools = MemoriToolSpec(engine=engine, entity_id="alice").to_tool_list()
    agent = FunctionAgent(llm=MockFunctionCallingLLM(response_generator=scripted_llm), tools=tools,
                          system_prompt="You keep long-term memory about the user with your tools.")
    for text in SCRIPT:
        print(f"alice: {text}")
        print(f"agent: {await agent.run(text)}")
    print("alice's facts:", [f.content for f in engine.list("alice")])
    print("bob's facts:", [f.content for f in engine.list("bob")])


if __name__ == "__main__":
    asyncio.run(main())
