"""Conversation-aware recall in MemoriMemoryBlock: a follow-up is recalled with the user turns of the chat
history before it (``context``), driven by LlamaIndex's mock LLMs; end to end with the real MiniLM."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, ImageBlock, MessageRole, TextBlock, ToolCallBlock
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms.mock import MockFunctionCallingLLM, MockLLM
from llama_index.core.memory import Memory
from llama_index.core.tools import FunctionTool

from _faults import break_store
from _recording import SHELLFISH, TURN_1, TURN_2, minilm_engine, recording_engine
from memori_llamaindex import MemoriMemoryBlock
from memori_llamaindex._common import user_query_and_context
from test_llamaindex_memory_block import Recorder

# FunctionAgent's constructor inspects its own pydantic fields (a framework-internal deprecation).
pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning:inspect"),
              pytest.mark.usefixtures("close_chat_stores")]

IMAGE = ImageBlock(url="https://example.invalid/menu.png")


def user(*blocks: Any) -> ChatMessage:
    return ChatMessage(role=MessageRole.USER, blocks=[TextBlock(text=b) if isinstance(b, str) else b for b in blocks])


def memory_for(engine: Any, session_id: str = "s1", **block_kwargs: Any) -> Memory:
    block = MemoriMemoryBlock(engine=engine, entity_id="u1", **block_kwargs)
    return Memory.from_defaults(session_id=session_id, memory_blocks=[block])


def menu(item: str) -> str:
    """Search tonight's menu."""
    return f"{item}: oysters, crab, sea bass"


class ToolEachTurn(Recorder):
    """Calls the tool when the last message is the user's (once per turn), then answers."""

    def __call__(self, messages: Any, **kwargs: Any) -> ChatMessage:
        self.prompts.append([(str(m.role.value), m.content or "") for m in messages])
        if messages[-1].role == MessageRole.USER:
            call = ToolCallBlock(tool_call_id=f"call-{len(self.prompts)}", tool_name="menu", tool_kwargs={"item": "x"})
            return ChatMessage(role=MessageRole.ASSISTANT, blocks=[call])
        return ChatMessage(role=MessageRole.ASSISTANT, content="Skip the shellfish.")


# -- user_query_and_context ----------------------------------------------------------


def test_helper_reads_earlier_user_turns_oldest_first():
    messages = [
        ChatMessage(role=MessageRole.SYSTEM, content="Be brief."),
        user("Hi!"),
        ChatMessage(role=MessageRole.ASSISTANT, content="Hello, how can I help?"),
        user(f"  {TURN_1} "),
        ChatMessage(role=MessageRole.ASSISTANT, content="Have a lovely evening!"),
        user(TURN_2),
    ]
    assert user_query_and_context(messages) == (TURN_2, ["Hi!", TURN_1])


def test_helper_single_turn_and_no_turn():
    assert user_query_and_context([ChatMessage(role=MessageRole.SYSTEM, content="x"), user(TURN_2)]) == (TURN_2, [])
    assert user_query_and_context([ChatMessage(role=MessageRole.ASSISTANT, content="hello")]) == ("", [])
    assert user_query_and_context(None) == ("", [])


def test_helper_keeps_text_blocks_and_skips_images_tools_and_system():
    call = ToolCallBlock(tool_call_id="c1", tool_name="menu", tool_kwargs={"item": "fish"})
    messages = [
        ChatMessage(role=MessageRole.SYSTEM, content="Never mention prices."),
        user(IMAGE),  # only an image: no text to read
        user("Here is the menu.", IMAGE, TURN_1),
        ChatMessage(role=MessageRole.ASSISTANT, blocks=[call]),
        ChatMessage(role=MessageRole.TOOL, content="oysters, crab", additional_kwargs={"tool_call_id": "c1"}),
        ChatMessage(role=MessageRole.ASSISTANT, content="They serve oysters."),
        user(TURN_2, IMAGE),
    ]
    assert user_query_and_context(messages) == (TURN_2, ["Here is the menu.\n" + TURN_1])


def test_helper_does_not_read_the_question_appended_again_as_its_own_context():
    # Memory.aget(input=...) appends the input to a history that already ends with it (after a tool call).
    messages = [user(TURN_1), ChatMessage(role=MessageRole.ASSISTANT, content="Enjoy!"), user(TURN_2),
                ChatMessage(role=MessageRole.TOOL, content="crab"), user(TURN_2)]
    assert user_query_and_context(messages) == (TURN_2, [TURN_1])


def test_helper_is_bounded_to_the_latest_turns():
    messages = [user(f"turn {i}") for i in range(1, 7)]
    assert user_query_and_context(messages) == ("turn 6", ["turn 3", "turn 4", "turn 5"])
    assert user_query_and_context(messages, 1) == ("turn 6", ["turn 5"])
    assert user_query_and_context(messages, 0) == ("turn 6", [])


# -- MemoriMemoryBlock in a real Memory -------------------------------------------------


async def test_block_passes_the_earlier_user_turn_as_context():
    engine = recording_engine()
    block = MemoriMemoryBlock(engine=engine, entity_id="u1")
    text = await block.aget([user(TURN_1), ChatMessage(role=MessageRole.ASSISTANT, content="Enjoy!"), user(TURN_2)])
    assert engine.recalls == [{"query": TURN_2, "entity_id": "u1", "context": [TURN_1]}]
    assert SHELLFISH in text
    await block.aget([user(TURN_2)])
    assert engine.contexts[-1] is None  # a single turn: recall exactly as before


async def test_function_agent_second_turn_reads_the_first_on_every_llm_call():
    engine = recording_engine()
    recorder = ToolEachTurn(tool_name="menu")
    agent = FunctionAgent(llm=MockFunctionCallingLLM(response_generator=recorder),
                          tools=[FunctionTool.from_defaults(fn=menu)], system_prompt="You are a restaurant assistant.")
    memory = memory_for(engine)
    await agent.run(TURN_1, memory=memory)
    await agent.run(TURN_2, memory=memory)
    # Each turn: the LLM call before the tool and the one after it (where Memory gets the question
    # appended again: it is not read as its own context).
    assert len(recorder.prompts) == 4
    first = [r for r in engine.recalls if r["query"] == TURN_1]
    second = [r for r in engine.recalls if r["query"] == TURN_2]
    assert len(first) >= 2 and len(second) >= 2 and len(first) + len(second) == len(engine.recalls)
    assert engine.recalls[: len(first)] == first  # turn 1's recalls, then turn 2's
    assert all(r["context"] is None for r in first)
    assert all(r["context"] == [TURN_1] for r in second)
    assert all(SHELLFISH in s for s in recorder.system_texts())


async def test_chat_engine_async_second_turn_reads_the_first():
    engine = recording_engine()
    chat_engine = SimpleChatEngine.from_defaults(llm=MockLLM(), memory=memory_for(engine, "s2"))
    await chat_engine.achat(TURN_1)
    await chat_engine.achat(TURN_2)
    assert engine.contexts == [None, [TURN_1]]


async def test_block_with_context_still_fails_open(caplog: pytest.LogCaptureFixture):
    engine = recording_engine()
    break_store(engine)
    block = MemoriMemoryBlock(engine=engine, entity_id="u1")
    with caplog.at_level(logging.WARNING, logger="memori_llamaindex"):
        assert await block.aget([user(TURN_1), user(TURN_2)]) == ""
    assert engine.contexts == [[TURN_1]]
    assert "continuing without memory" in caplog.text


# -- end to end with the real MiniLM ----------------------------------------------------


def test_minilm_chat_engine_follow_up_gets_the_fact_only_the_earlier_turn_names(minilm):
    engine = minilm_engine(minilm)
    ranked = [c.content for c in engine.explain(TURN_2, "u1", context=[TURN_1]).candidates]
    alone = [c.content for c in engine.explain(TURN_2, "u1").candidates]
    assert ranked[0] == SHELLFISH and alone[0] != SHELLFISH

    recorder = Recorder()  # answers "Here is a safe dinner idea." and keeps every prompt
    llm = MockFunctionCallingLLM(response_generator=recorder)
    chat_engine = SimpleChatEngine.from_defaults(llm=llm, memory=memory_for(engine, "dinner", k=1))
    chat_engine.chat(TURN_1)
    chat_engine.chat(TURN_2)
    SimpleChatEngine.from_defaults(llm=llm, memory=memory_for(engine, "fresh", k=1)).chat(TURN_2)
    _, follow_up, alone_seen = recorder.system_texts()
    assert SHELLFISH in follow_up and "Leeds" not in follow_up
    assert SHELLFISH not in alone_seen  # the same question without the conversation
