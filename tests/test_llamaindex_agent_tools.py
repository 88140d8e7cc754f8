"""Memory in a LlamaIndex agent that answers from a query-engine tool (docs/llamaindex.md, "Agents with a
query-engine tool"): the memory block gives the agent's model the user's facts, recalled for the user's words; a
``MemoriMemoryPostprocessor`` inside the tool would recall again, for the query the model wrote. A real
FunctionAgent over LlamaIndex's MockFunctionCallingLLM, a real ``Memory``, ``VectorStoreIndex`` and
``QueryEngineTool`` whose synthesizer is a scripted ``CustomLLM``, over a real in-memory Chroma store."""

from __future__ import annotations

from typing import Any

import pytest
from llama_index.core import VectorStoreIndex
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.llms.mock import MockFunctionCallingLLM
from llama_index.core.memory import Memory
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import TextNode
from llama_index.core.tools import QueryEngineTool

from _helpers import HashEmbedder, ungated_engine
from _llamaindex_fakes import FixedLLM, HashLlamaEmbedding
from memori_core import RecallEngine
from memori_llamaindex import MemoriMemoryBlock, MemoriMemoryPostprocessor

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning:inspect"),
              pytest.mark.usefixtures("close_chat_stores")]

PEANUTS = "User is allergic to peanuts."
WARFARIN = "User takes warfarin."
MENU = [
    "The pad thai is made with rice noodles, tamarind and crushed peanuts.",
    "The green curry has coconut milk, tofu, basil and bamboo shoots.",
]
QUESTION = "Is the pad thai OK with my warfarin?"  # the user's words
TOOL_QUERY = "pad thai peanuts"  # what the model asks the tool, having read the memory


@pytest.fixture
def engine(hash_embedder: HashEmbedder) -> RecallEngine:
    engine = ungated_engine(hash_embedder)
    engine.add("alice", [PEANUTS, WARFARIN])
    return engine


async def _ask(engine: RecallEngine, hash_embedder: HashEmbedder,
               *postprocessors: BaseNodePostprocessor) -> tuple[list[str], list[str]]:
    """One agent turn that asks the menu tool ``TOOL_QUERY``; the tool's query engine carries ``postprocessors``.
    Returns the system messages of each agent model call, and the tool synthesizer's prompts."""
    index = VectorStoreIndex([TextNode(text=t) for t in MENU], embed_model=HashLlamaEmbedding(hash_embedder))
    synthesizer = FixedLLM(reply="It contains peanuts.")
    menu = QueryEngineTool.from_defaults(
        index.as_query_engine(llm=synthesizer, similarity_top_k=1, node_postprocessors=list(postprocessors)),
        name="menu", description="The restaurant's dishes.")
    systems: list[str] = []

    def model(messages: list[ChatMessage], **kwargs: Any) -> ChatMessage:
        systems.append("\n".join(str(m.content) for m in messages if m.role == MessageRole.SYSTEM))
        if not any(m.role == MessageRole.TOOL for m in messages):
            call = ToolCallBlock(tool_call_id="c1", tool_name="menu", tool_kwargs={"input": TOOL_QUERY})
            return ChatMessage(role=MessageRole.ASSISTANT, blocks=[call])
        return ChatMessage(role=MessageRole.ASSISTANT, content="Skip it: it has peanuts.")

    memory = Memory.from_defaults(session_id="chat-1",
                                  memory_blocks=[MemoriMemoryBlock(engine=engine, entity_id="alice")])
    agent = FunctionAgent(llm=MockFunctionCallingLLM(response_generator=model), tools=[menu])
    await agent.run(QUESTION, memory=memory)
    return systems, synthesizer.prompts


async def test_the_documented_setup_shows_the_facts_to_the_agents_model_and_the_documents_to_the_tool(
        engine: RecallEngine, hash_embedder: HashEmbedder) -> None:
    systems, prompts = await _ask(engine, hash_embedder)
    assert len(systems) == 2  # the call that writes the tool query and the one that reads the tool's answer
    assert all(PEANUTS in s and WARFARIN in s for s in systems)
    [prompt] = prompts
    assert "crushed peanuts" in prompt and TOOL_QUERY in prompt
    assert PEANUTS not in prompt and WARFARIN not in prompt  # no second recall, no fact shown twice


async def test_a_memory_postprocessor_in_the_tool_recalls_for_the_query_the_model_wrote(
        engine: RecallEngine, hash_embedder: HashEmbedder) -> None:
    # What the docs warn of: the user's words recall the warfarin first, the model's tool query the peanuts.
    assert [f.content for f in engine.recall(QUESTION, "alice", limit=1)] == [WARFARIN]
    assert [f.content for f in engine.recall(TOOL_QUERY, "alice", limit=1)] == [PEANUTS]
    _, [prompt] = await _ask(engine, hash_embedder, MemoriMemoryPostprocessor(engine=engine, entity_id="alice", k=1))
    assert PEANUTS in prompt and WARFARIN not in prompt
