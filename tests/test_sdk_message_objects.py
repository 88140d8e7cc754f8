"""``MemoriRecall.apply`` over message objects rather than dicts: LlamaIndex ``ChatMessage`` (whose ``content`` is
a property over its ``blocks``) gets the block like a dict message does; a LangChain message, which has no
``role``, is a ``TypeError`` naming it. The block is never dropped silently."""

from __future__ import annotations

import pytest
from langchain_core.messages import HumanMessage, SystemMessage
from llama_index.core.base.llms.types import ChatMessage, ImageBlock, TextBlock

from _recording import SHELLFISH, TURN_1, TURN_2, recording_engine
from memori_core import MemoriRecall
from memori_core.context import OPEN_TAG


@pytest.fixture
def memory() -> MemoriRecall:
    return MemoriRecall(recording_engine(), entity_id="u1", provider="openai")


def test_llamaindex_chat_messages_get_the_block_in_their_system_message(memory: MemoriRecall) -> None:
    messages = [ChatMessage(role="system", content="Be brief."), ChatMessage(role="user", content=TURN_1)]
    out = memory.apply({"model": "m", "messages": messages})["messages"]
    assert all(isinstance(m, ChatMessage) for m in out)
    assert out[0].content.startswith("Be brief.\n\n" + OPEN_TAG)
    assert SHELLFISH in out[0].content
    assert out[1] is messages[1]
    assert messages[0].content == "Be brief."  # the caller's message is not changed


def test_llamaindex_chat_messages_without_a_system_message_get_a_system_chat_message(memory: MemoriRecall) -> None:
    out = memory.apply({"model": "m", "messages": [ChatMessage(role="user", content=TURN_1)]})["messages"]
    assert len(out) == 2
    assert isinstance(out[0], ChatMessage)
    assert out[0].role == "system"
    assert SHELLFISH in out[0].content


def test_llamaindex_chat_messages_take_the_block_in_the_last_user_turn() -> None:
    memory = MemoriRecall(recording_engine(), entity_id="u1", provider="openai", placement="last_user")
    messages = [ChatMessage(role="user", content=TURN_1), ChatMessage(role="assistant", content="Enjoy!"),
                ChatMessage(role="user", content=TURN_2)]
    out = memory.apply({"model": "m", "messages": messages})["messages"]
    assert out[:2] == messages[:2]
    assert out[2].content.startswith(TURN_2 + "\n\n" + OPEN_TAG)
    assert SHELLFISH in out[2].content
    assert messages[2].content == TURN_2


def test_a_chat_message_whose_content_cannot_be_written_is_an_error_naming_it(memory: MemoriRecall) -> None:
    system = ChatMessage(role="system", blocks=[TextBlock(text="Be brief."), ImageBlock(url="https://x.test/a.png")])
    with pytest.raises(ValueError, match=r"leading system message of type ChatMessage: setting its 'content'"):
        memory.apply({"model": "m", "messages": [system, ChatMessage(role="user", content=TURN_1)]})


def test_langchain_messages_are_a_type_error_naming_the_message(memory: MemoriRecall) -> None:
    with pytest.raises(TypeError, match=r"kwargs\['messages'\]\[0\] .* SystemMessage without 'role' \(LangChain "
                                        r"messages are read by memori_langchain: MemoriContextInjector"):
        memory.apply({"model": "m", "messages": [SystemMessage("Be brief."), HumanMessage(TURN_1)]})
