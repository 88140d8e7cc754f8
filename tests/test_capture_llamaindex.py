"""Capture with fact extraction in a real llama_index Memory (and a FunctionAgent), with LlamaIndex's mock LLMs."""

from __future__ import annotations

import logging

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.llms.mock import MockFunctionCallingLLM, MockLLM
from llama_index.core.memory import Memory
from llama_index.core.storage.chat_store.base_db import MessageStatus

from _extractors import Exploding, Gate
from _helpers import stored
from _llamaindex_fakes import FixedLLM
from memori_core import ExtractedFact, RecallEngine
from memori_llamaindex import LLMFactExtractor, MemoriMemoryBlock
from memori_llamaindex.memory_block import _captured_turns

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning:inspect"),
              pytest.mark.usefixtures("close_chat_stores")]


def small_memory(block: MemoriMemoryBlock, session_id: str = "chat-1") -> Memory:
    """A Memory whose short-term queue is tiny, so that older turns are flushed to the block quickly."""
    return Memory.from_defaults(session_id=session_id, memory_blocks=[block], token_limit=40, token_flush_size=10)


TURNS = [
    ("user", "Hello! I'm training for the Lisbon half marathon."),
    ("assistant", "Great, good luck with the training and the long runs."),
    ("user", "What should I eat before a long run?"),
    ("assistant", "Something light with carbohydrates, two hours before."),
    ("user", "Can you write me a training plan?"),
    ("assistant", "Sure, here is a simple twelve week plan for you."),
    ("user", "Thanks! My daughter Mia starts school in Porto next September."),
    ("assistant", "How exciting for Mia and for the whole family."),
    ("user", "Please summarise what we discussed today."),
    ("assistant", "We talked about training, food and school."),
]


async def test_memory_capture_keeps_statements_and_never_questions(ungated: RecallEngine) -> None:
    block = MemoriMemoryBlock(engine=ungated, entity_id="carol", capture=True)
    memory = small_memory(block)
    for role, text in TURNS:  # as a chat engine drives it: the user's message, the memory read, the answer
        await memory.aput(ChatMessage(role=role, content=text))
        if role == "user":
            await memory.aget()
    assert await memory.aget_all(status=MessageStatus.ARCHIVED)  # Memory flushed turns to the block meanwhile
    assert await block.aflush()
    facts = stored(ungated, "carol")
    assert "User is training for the Lisbon half marathon." in facts
    assert all("?" not in f and not f.startswith(("What", "Can", "Please", "Hello", "Great")) for f in facts)
    assert set(facts) <= {"User is training for the Lisbon half marathon.",
                          "User's daughter Mia starts school in Porto next September."}
    meta = ungated.explain("marathon", "carol", limit=5).candidates[0].metadata
    assert meta["source"] == "llamaindex" and meta["session_id"] == "chat-1"

    text = await block.aget([ChatMessage(role="user", content="What should I eat before the half marathon?")])
    assert "- User is training for the Lisbon half marathon." in text
    assert all("?" not in line for line in text.splitlines()[1:])


def test_sync_memory_put_captures_unanswered_messages_in_the_background(ungated: RecallEngine) -> None:
    block = MemoriMemoryBlock(engine=ungated, entity_id="dan", capture=True)
    memory = small_memory(block)
    turns = ["I keep bees on my roof in Berlin.", "How do I harvest honey?", "I have two cats named Salt and Pepper.",
             "My neighbour in Berlin keeps bees too.", "Tell me about honey."]
    for text in turns:  # put without an LLM call: no memory read, no answer; Memory flushes them to the block
        memory.put(ChatMessage(role="user", content=text))  # runs Memory.aput on a short-lived event loop
    assert block.flush()
    assert "User keeps bees on their roof in Berlin." in stored(ungated, "dan")
    assert all("?" not in f for f in stored(ungated, "dan"))


async def test_memory_put_does_not_wait_for_capture(ungated: RecallEngine) -> None:
    gate = Gate()
    block = MemoriMemoryBlock(engine=ungated, entity_id="eve", capture=True, extractor=gate)
    await block.aput([ChatMessage(role="user", content="I play the cello.")])
    assert block.pending_captures == 1 and ungated.count("eve") == 0
    gate.opened.set()
    assert await block.aflush()
    assert stored(ungated, "eve") == ["User plays the cello."]


async def test_function_agent_answers_while_capture_is_pending(ungated: RecallEngine) -> None:
    gate = Gate()
    block = MemoriMemoryBlock(engine=ungated, entity_id="fay", capture=True, extractor=gate)
    memory = small_memory(block)
    agent = FunctionAgent(llm=MockFunctionCallingLLM(max_tokens=5), tools=[])
    for question in ["I moved to Porto last month and I love it.", "I work as a nurse at the city hospital.",
                     "Any good cafes near the hospital?"]:
        assert str(await agent.run(question, memory=memory))  # every run answers with the gate closed
    assert block.pending_captures >= 1
    gate.opened.set()
    assert await block.aflush()
    assert "User works as a nurse at the city hospital." in stored(ungated, "fay")


async def test_failing_extractor_warns_once_and_the_conversation_goes_on(
    ungated: RecallEngine, caplog: pytest.LogCaptureFixture
) -> None:
    block = MemoriMemoryBlock(engine=ungated, entity_id="gus", capture=True, extractor=Exploding())
    with caplog.at_level(logging.WARNING, logger="memori_llamaindex"):
        await block.aput([ChatMessage(role="user", content="I play golf.")])
        assert await block.aflush()
    assert [r.getMessage() for r in caplog.records] == [
        "MemoriMemoryBlock: capture failed for entity 'gus' (RuntimeError: extractor exploded); "
        "continuing without memory"
    ]
    assert await block.aget([ChatMessage(role="user", content="golf")]) == ""


async def test_strict_failure_is_raised_by_the_next_get(ungated: RecallEngine) -> None:
    block = MemoriMemoryBlock(engine=ungated, entity_id="gus", capture=True, strict=True, extractor=Exploding())
    await block.aput([ChatMessage(role="user", content="I play golf.")])
    assert block._captures._wait(None)  # noqa: SLF001 - wait without raising
    with pytest.raises(RuntimeError, match="extractor exploded"):
        await block.aget([ChatMessage(role="user", content="golf")])
    assert await block.aget([ChatMessage(role="user", content="golf")]) == ""  # raised once


async def test_the_bound_drops_with_a_warning(ungated: RecallEngine, caplog: pytest.LogCaptureFixture) -> None:
    gate = Gate()
    block = MemoriMemoryBlock(engine=ungated, entity_id="hal", capture=True, extractor=gate, max_pending_captures=2)
    with caplog.at_level(logging.WARNING, logger="memori_llamaindex"):
        await block.aput([ChatMessage(role="user", content=f"I have {n} bikes.") for n in ("two", "three", "four")])
    assert block.pending_captures == 2
    assert sum("capture dropped for entity 'hal'" in r.getMessage() for r in caplog.records) == 1
    gate.opened.set()
    assert await block.aflush()
    assert stored(ungated, "hal") == ["User has three bikes.", "User has two bikes."]
    with pytest.raises(ValueError):
        MemoriMemoryBlock(engine=ungated, entity_id="hal", max_pending_captures=0)
    with pytest.raises(TypeError, match="extract"):
        MemoriMemoryBlock(engine=ungated, entity_id="hal", extractor=object())


async def test_a_dropped_capture_releases_its_turn_once(ungated: RecallEngine, monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    # The capture released it (on_failure) and the block again for the same dropped capture.
    gate = Gate()
    block = MemoriMemoryBlock(engine=ungated, entity_id="hal", capture=True, extractor=gate, max_pending_captures=1)
    ledger, released = _captured_turns(ungated), []
    release = ledger.release
    monkeypatch.setattr(ledger, "release", lambda turn, began: released.append(turn.turn[-1].text) or
                        release(turn, began))
    await block.aput([ChatMessage(role="user", content=f"I have {n} bikes.") for n in ("two", "three")])
    gate.opened.set()
    assert await block.aflush()
    assert released == ["I have three bikes."] and block.capture_stats.dropped == 1


# -- LLMFactExtractor -----------------------------------------------------------------


def test_llm_extractor_reads_a_custom_llms_fenced_reply() -> None:
    llm = FixedLLM(reply='Here you go:\n```json\n[{"fact": "User is vegan.", "supersedes": []}]\n```')
    facts = LLMFactExtractor(llm).extract([ChatMessage(role="user", content="I'm vegan, what can I cook?")])
    assert facts == [ExtractedFact("User is vegan.")]
    assert "user: I'm vegan, what can I cook?" in llm.prompts[0]


async def test_llm_extractor_async_and_malformed_replies() -> None:
    assert await LLMFactExtractor(FixedLLM(reply='[{"fact": "User has a cat."}]')).aextract(
        [("user", "I have a cat.")]) == [ExtractedFact("User has a cat.")]
    assert LLMFactExtractor(FixedLLM(reply="{not json")).extract([("user", "I have a cat.")]) == []
    # MockLLM echoes the prompt: the prompt itself never reads as facts.
    assert LLMFactExtractor(MockLLM()).extract([("user", "I have a cat.")]) == []
    with pytest.raises(TypeError):
        LLMFactExtractor("not an llm")


def test_llm_extractor_tells_the_llm_its_limit_and_cuts_a_longer_fact_instead_of_dropping_it() -> None:
    long_fact = "User is allergic to peanuts, tree nuts and sesame, and always carries an EpiPen when travelling."
    llm = FixedLLM(reply=f'[{{"fact": "{long_fact}", "core": true}}]')
    [fact] = LLMFactExtractor(llm, max_chars=80).extract([("user", "I'm allergic to peanuts, nuts and sesame.")])
    assert "each at most 80 characters" in llm.prompts[0]
    cut = "User is allergic to peanuts, tree nuts and sesame, and always carries an EpiPen\u2026"
    assert fact == ExtractedFact(cut, core=True) and len(cut) == 80
    with pytest.raises(ValueError, match="max_chars"):
        LLMFactExtractor(llm, max_chars=0)


async def test_memory_capture_with_the_llm_extractor_supersedes_only_the_users_facts(ungated: RecallEngine) -> None:
    [lisbon] = ungated.add("ivy", ["User lives in Lisbon."])
    [other] = ungated.add("jon", ["User lives in Lisbon."])
    llm = FixedLLM(reply=f'[{{"fact": "User lives in Porto.", "supersedes": ["F1", "{other}", "nope"]}}]')
    block = MemoriMemoryBlock(engine=ungated, entity_id="ivy", capture=True, extractor=LLMFactExtractor(llm))
    await block.aput([ChatMessage(role="assistant", content="Where do you live these days?"),
                      ChatMessage(role="user", content="I moved to Porto in May.")])
    assert await block.aflush()
    [prompt] = llm.prompts
    assert "F1: User lives in Lisbon." in prompt and lisbon not in prompt
    assert "assistant: Where do you live these days?" in prompt
    assert stored(ungated, "ivy") == ["User lives in Porto."]
    assert stored(ungated, "jon") == ["User lives in Lisbon."]
