"""A user turn that is only an image gets the memory of the question before it, on every surface.

"I'm at a Thai restaurant, here's the menu, what can I eat?" -> "Please send a photo of the menu." -> [a photo]:
the photo turn is when the allergy matters. The provider-SDK path (``MemoriRecall``) always skipped a user turn
without text and recalled for the question before it (``memori_core.query.query_and_context``); the LangChain
injector, middleware and graph node, and LlamaIndex's ``MemoriMemoryBlock``, read the photo as a blank question
and sent no memory. Each surface runs in real framework objects with the frameworks' fake models over a real
in-memory Chroma store.
"""

from __future__ import annotations

import asyncio

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.graph import END, START, StateGraph
from llama_index.core.base.llms.types import ChatMessage, ImageBlock
from llama_index.core.memory import Memory

import memori_langchain as lc
from _helpers import ungated_engine
from _langchain_fakes import replies
from memori_core import MemoriRecall, RecallEngine
from memori_langchain import human_query_and_context
from memori_llamaindex import MemoriMemoryBlock

QUESTION = "Which peanuts dishes can I eat here?"
ASK_PHOTO = "Please send a photo of the menu."
PHOTO_URL = "data:image/png;base64,iVBORw0KGgo="
PEANUTS = "User is allergic to peanuts."
OTHER = "User plays the cello."
SYSTEM = "You are a helpful assistant."


@pytest.fixture(scope="module")
def alice() -> RecallEngine:
    """Two facts of Alice's, recalled without a gate and k=1 in the tests: the question picks the peanut one."""
    engine = ungated_engine()
    engine.add("alice", [PEANUTS, OTHER])
    return engine


def _lc_conversation() -> list:
    photo = {"type": "image_url", "image_url": {"url": PHOTO_URL}}
    return [HumanMessage(QUESTION), AIMessage(ASK_PHOTO), HumanMessage([photo], id="photo-1")]


def _facts(text: str) -> list[str]:
    return [line[2:].split(" Stated at ")[0] for line in text.splitlines() if line.startswith("- ")]


def sdk(engine: RecallEngine) -> str:
    kwargs = {"model": "gpt-4o", "messages": [
        {"role": "system", "content": SYSTEM}, {"role": "user", "content": QUESTION},
        {"role": "assistant", "content": ASK_PHOTO},
        {"role": "user", "content": [{"type": "image_url", "image_url": {"url": PHOTO_URL}}]}]}
    sent = MemoriRecall(engine, entity_id="alice", k=1).apply(kwargs, provider="openai")
    return sent["messages"][0]["content"]


def injector(engine: RecallEngine) -> str:
    sent = lc.MemoriContextInjector(engine=engine, entity_id="alice", k=1).invoke(
        [SystemMessage(SYSTEM), *_lc_conversation()])
    return sent[0].text


def middleware(engine: RecallEngine) -> str:
    model = replies("I see satay; skip it.")
    agent = create_agent(model, [], system_prompt=SYSTEM,
                         middleware=[lc.MemoriMiddleware(engine=engine, entity_id="alice", k=1)])
    agent.invoke({"messages": _lc_conversation()})
    return model.system_texts()[0]


def recall_node(engine: RecallEngine) -> str:
    model = replies("ok")
    builder = StateGraph(lc.MemoriState)
    builder.add_node("memori", lc.memori_recall_node(engine, entity_id="alice", k=1))
    builder.add_node("model", lambda s: {"messages": [model.invoke(lc.with_memori_context(s, SYSTEM))]})
    builder.add_edge(START, "memori")
    builder.add_edge("memori", "model")
    builder.add_edge("model", END)
    builder.compile().invoke({"messages": _lc_conversation()})
    return model.system_texts()[0]


def memory_block(engine: RecallEngine) -> str:
    memory = Memory.from_defaults(session_id="s1",
                                  memory_blocks=[MemoriMemoryBlock(engine=engine, entity_id="alice", k=1)])
    memory.put_messages([ChatMessage(role="user", content=QUESTION), ChatMessage(role="assistant", content=ASK_PHOTO),
                         ChatMessage(role="user", blocks=[ImageBlock(url=PHOTO_URL)])])
    return "\n".join(str(m.content) for m in memory.get() if m.role == "system")


SURFACES = {"MemoriRecall": sdk, "MemoriContextInjector": injector, "MemoriMiddleware": middleware,
            "memori_recall_node": recall_node, "MemoriMemoryBlock": memory_block}


@pytest.mark.parametrize("surface", list(SURFACES))
def test_an_image_only_turn_gets_the_memory_of_the_question_before_it(alice, surface):
    assert _facts(SURFACES[surface](alice)) == [PEANUTS]


def test_langchain_reads_the_question_before_the_image_and_its_earlier_turns_as_context():
    photo = HumanMessage([{"type": "image_url", "image_url": {"url": PHOTO_URL}}])
    messages = [HumanMessage("I'm in Bangkok."), AIMessage("Nice!"), *_lc_conversation(), photo]
    assert human_query_and_context(messages) == (QUESTION, ["I'm in Bangkok."])
    assert human_query_and_context([photo]) == ("", [])


async def test_the_memory_block_shows_a_fact_captured_from_the_question_in_the_image_turn():
    # With capture on, the facts the turn being answered became are left out of its own block; the image turn
    # became none, so the fact captured from the question before it is its memory (it was left out there).
    engine = ungated_engine()
    block = MemoriMemoryBlock(engine=engine, entity_id="ann", capture=True)
    question = ChatMessage(role="user", content="I'm allergic to peanuts. What can I eat here?")
    assert await block.aget([question], session_id="s1") == ""
    assert await block.aflush()
    assert [f.content for f in engine.list("ann")] == [PEANUTS]
    assert await block.aget([question], session_id="s1") == ""  # an agent's later call on the same turn
    photo = ChatMessage(role="user", blocks=[ImageBlock(url=PHOTO_URL)])
    later = await block.aget([question, ChatMessage(role="assistant", content=ASK_PHOTO), photo], session_id="s1")
    assert _facts(later) == [PEANUTS]


def test_a_conversation_of_images_only_recalls_nothing(alice):
    photo = ChatMessage(role="user", blocks=[ImageBlock(url=PHOTO_URL)])
    block = MemoriMemoryBlock(engine=alice, entity_id="alice")
    assert asyncio.run(block.aget([photo])) == ""
    only_photo = [SystemMessage(SYSTEM), _lc_conversation()[-1]]
    assert lc.MemoriContextInjector(engine=alice, entity_id="alice").invoke(only_photo) == only_photo
