"""What a tester's eight dated weeks with a LlamaIndex agent showed capture losing or keeping wrongly (issue 21):
a "she" that opens a turn is the one woman the previous turn named, through a real llama_index chat engine with
LlamaIndex's mock LLM, a real embedded Chroma store and the shipped rules; a promotion and a return to work that
keep the job; facts shown to the extractor.

The rows of one message -> its facts, and of turns in order -> the facts valid afterwards, are in the case book
tests/cases/agent_chat_findings.toml (run by test_capture_cases.py); the rows of the rules' functions in the rule
books tests/rules/family.toml, work_changes.toml, moves.toml, asides.toml and sentence_shapes.toml."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms.mock import MockLLM
from llama_index.core.memory import Memory

from _capture import RULES
from _helpers import HashEmbedder, stored
from memori_core import ChromaStore, RecallEngine
from memori_core.capture import same_slot_facts
from memori_llamaindex import MemoriMemoryBlock

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning:inspect"),
              pytest.mark.usefixtures("close_chat_stores")]


async def _chat(engine: RecallEngine, user: str, *turns: str) -> list[str]:
    """The user's facts after a llama_index chat engine with the memory block (capture on) answered ``turns``."""
    block = MemoriMemoryBlock(engine=engine, entity_id=user, capture=True)
    chat = SimpleChatEngine.from_defaults(llm=MockLLM(), memory=Memory.from_defaults(session_id="s",
                                                                                     memory_blocks=[block]))
    for text in turns:
        await chat.achat(text)
        assert await block.aflush()
    return stored(engine, user)


async def test_a_she_opening_the_next_turn_is_the_mother_the_turn_before_named(ungated: RecallEngine) -> None:
    facts = await _chat(ungated, "ngozi", "My mum is moving in with us next month from Lagos.",
                        "She has high blood pressure and takes amlodipine.")
    assert "User's mum has high blood pressure and takes amlodipine." in facts
    recalled = [f.content for f in ungated.recall("Does my mum need to avoid grapefruit with her medication?", "ngozi")]
    assert "User's mum has high blood pressure and takes amlodipine." in recalled


async def test_a_she_after_a_turn_naming_two_women_is_not_guessed(ungated: RecallEngine) -> None:
    facts = await _chat(ungated, "ngozi", "My mum lives in Lagos and my sister Ada lives in Accra.",
                        "She has high blood pressure and takes amlodipine.")
    assert not [f for f in facts if "blood pressure" in f]


def test_capture_shows_the_facts_the_previous_turn_stored_to_a_turn_opening_with_she() -> None:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder())
    engine.add("u", [f"User's friend Sam likes film {n}." for n in range(12)], created_at="2026-10-01T10:00:00Z")
    engine.add("u", "User's mum is moving in with them in November 2026.", created_at="2026-10-21T10:00:00Z")
    shown = [f.content for f in same_slot_facts(engine, "u", "She has high blood pressure.", set())]
    assert shown[0] == "User's mum is moving in with them in November 2026."
    assert "User's mum is moving in with them in November 2026." not in [
        f.content for f in same_slot_facts(engine, "u", "My dog has fleas.", set())]


def test_the_rules_read_a_she_with_the_facts_told_last_only() -> None:
    said = datetime(2026, 10, 22, 9, 0, tzinfo=timezone.utc)
    # the mum was told last; the sister weeks before: "she" is the mum
    older, newer = _Shown("s", "User's sister Ada lives in Accra.", "2026-09-01T10:00:00Z"), \
        _Shown("m", "User's mum is moving in with them in November 2026.", "2026-10-21T10:00:00Z")
    facts = RULES.extract([("user", "She has high blood pressure.")], [older, newer])
    assert [f.text for f in facts] == ["User's mum has high blood pressure."]
    both = RULES.extract([("user", "She has high blood pressure.")],
                         [_Shown("s", older.content, newer.created_at), newer])
    assert both == []
    assert RULES.explain("She has high blood pressure.", now=said)[0].fact is None  # nothing told: no one


class _Shown:
    """A stored fact as capture shows it: an id, its text and when it was stated."""

    def __init__(self, fact_id: str, content: str, created_at: str) -> None:
        self.id, self.content, self.created_at = fact_id, content, created_at
