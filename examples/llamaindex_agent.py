"""A LlamaIndex FunctionAgent with long-term memory through ``MemoriMemoryBlock``.

The block sits in ``llama_index.core.memory.Memory``: before every LLM call it
recalls the user's facts for the latest user message, and ``Memory`` puts them
into the system prompt as a ``<memori_context>`` block. With ``capture=True``,
the statements in each user turn become facts (questions are never stored), in
the background.

Runs offline: the local all-MiniLM-L6-v2 embeds, an in-memory Chroma store holds
the facts, and LlamaIndex's ``MockFunctionCallingLLM`` plays the model: it calls
the recipe tool once, then answers, and this script prints what it was sent.
Swap in a real function-calling LLM (``OpenAI(model=...)``) for real answers.

    python examples/llamaindex_agent.py
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms.mock import MockFunctionCallingLLM, MockLLM
from llama_index.core.memory import Memory
from llama_index.core.tools import FunctionTool

from memori_core import ChromaStore, RecallEngine
from memori_llamaindex import MemoriMemoryBlock


def suggest_recipe(cuisine: str = "thai") -> str:
    """Suggest a recipe for a cuisine."""
    return f"{cuisine} recipe: green curry with tofu, or chicken satay with peanut sauce"


class ScriptedModel:
    """Stands in for the LLM: prints the prompt it receives, calls the tool once, then answers."""

    def __init__(self, user: str) -> None:
        self.user = user
        self.calls = 0

    def __call__(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        self.calls += 1
        print(f"\n--- what the LLM saw ({self.user}, call {self.calls}) ---")
        for m in messages:
            print(f"[{m.role.value}] {(m.content or '').strip() or '(tool call)'}")
        if not any(m.role == MessageRole.TOOL for m in messages):
            call = ToolCallBlock(tool_call_id="call-1", tool_name="suggest_recipe", tool_kwargs={"cuisine": "thai"})
            return ChatMessage(role=MessageRole.ASSISTANT, blocks=[call])
        return ChatMessage(role=MessageRole.ASSISTANT, content="Try the green curry with tofu.")


async def ask(engine: RecallEngine, user: str, question: str) -> None:
    memory = Memory.from_defaults(
        session_id=f"{user}-chat",
        memory_blocks=[MemoriMemoryBlock(engine=engine, entity_id=user)],
    )
    agent = FunctionAgent(
        llm=MockFunctionCallingLLM(response_generator=ScriptedModel(user)),
        tools=[FunctionTool.from_defaults(fn=suggest_recipe)],
        system_prompt="You are a helpful cooking assistant.",
    )
    print(f"\n=== {user} asks: {question} ===")
    answer = await agent.run(question, memory=memory)
    print(f"\nagent answer: {answer}")


async def capture_demo(engine: RecallEngine) -> None:
    """A short chat: each user turn's statements become long-term facts, with no wait for a flush."""
    block = MemoriMemoryBlock(engine=engine, entity_id="alice", capture=True)
    memory = Memory.from_defaults(session_id="alice-chat-2", memory_blocks=[block])  # LlamaIndex's default limits
    chat = SimpleChatEngine.from_defaults(llm=MockLLM(), memory=memory)  # any chat engine or agent
    for text in ["We just adopted a grey cat called Miso.", "I am starting a new job at the Lisbon aquarium.",
                 "Any tips for a first week?"]:
        await chat.achat(text)  # the block captures the turn when Memory reads it, before the LLM answers
    await block.aflush()  # capture runs in the background: wait for it before reading the store
    print("\n=== capture=True: each turn of a short chat, now recalled ===")
    for fact in await engine.arecall("what is my cat called?", "alice", limit=1):
        print(f"  {fact.content}  (session {fact.metadata.get('session_id')})")


async def main() -> None:
    engine = RecallEngine(store=ChromaStore.in_memory())  # local MiniLM embedder, in-memory Chroma
    await engine.aadd(
        "alice",
        ["User is allergic to peanuts.", "User is vegetarian.", "User plays the cello."],
        created_at="2026-05-01T09:30:00Z",
    )
    await engine.aadd("bob", ["User is allergic to shellfish.", "User loves spicy food."],
                      created_at="2026-06-12T18:05:00Z")

    await ask(engine, "alice", "I'm cooking Thai tonight. What am I allergic to, and am I vegetarian?")
    await ask(engine, "bob", "I'm cooking Thai tonight. What am I allergic to?")
    await capture_demo(engine)


if __name__ == "__main__":
    asyncio.run(main())
