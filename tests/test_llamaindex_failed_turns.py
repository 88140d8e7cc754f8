"""MemoriMemoryBlock(capture=True) holds the turns a store outage kept from the store, as the LangChain adapters
do (:mod:`memori_core.capture.held`), and captures them once the store answers: in a short chat, which ``Memory``
never flushes, a fact told while the store was down is not lost. Each is stored once (a write that landed all the
same is not written again), a user's held turns are bounded, the blocks over one engine share them, and a failure
that is no outage is not tried again by later turns. Real llama_index ``Memory`` and ``SimpleChatEngine`` with
LlamaIndex's mock LLM, a real in-memory Chroma store whose calls fail as armed (:class:`_faults.Faults`)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import pytest
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms.mock import MockFunctionCallingLLM
from llama_index.core.memory import Memory
from llama_index.core.storage.chat_store.base_db import MessageStatus

from _faults import Faults
from _helpers import Clock, ungated_engine
from memori_core import ExtractedFact, RecallEngine, RuleBasedFactExtractor
from memori_core.extraction import KnownFact, MessageLike, as_messages
from memori_core.failopen import OutageBreaker
from memori_llamaindex import MemoriMemoryBlock
from memori_core.capture import OUTAGE_TURNS_KEPT

# close_chat_stores: the chat engines' SQLite stores, left open, answered a closed event loop in a later test
# (PytestUnhandledThreadExceptionWarning in the fast tier).
pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning:inspect"),
              pytest.mark.usefixtures("close_chat_stores")]


class Chat:
    """A chat over a capturing block: a ``SimpleChatEngine`` over ``Memory`` (default token limit: never
    flushed in these tests), whose mock LLM keeps the text of every prompt."""

    def __init__(self, engine: RecallEngine, user: str = "ana", extractor: Any = None) -> None:
        self.prompts: list[str] = []
        self.block = MemoriMemoryBlock(engine=engine, entity_id=user, capture=True, extractor=extractor)
        self.memory = Memory.from_defaults(session_id="s1", memory_blocks=[self.block])
        llm = MockFunctionCallingLLM(response_generator=self._answer)
        self.engine = SimpleChatEngine.from_defaults(llm=llm, memory=self.memory)

    def _answer(self, messages: list[ChatMessage], **kwargs: Any) -> ChatMessage:
        self.prompts.append("\n".join(str(m.content or "") for m in messages))
        return ChatMessage(role="assistant", content="Noted.")

    def say(self, text: str) -> None:
        self.engine.chat(text)
        assert self.block.flush(timeout=30)  # the turn's capture (and those it captured again) finished


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def engine(hash_embedder: Any, clock: Clock) -> RecallEngine:
    engine = ungated_engine(hash_embedder)
    engine.outage = OutageBreaker(10.0, clock=clock)
    return engine


def told(engine: RecallEngine, user: str = "ana") -> list[tuple[str, int]]:
    """Every fact stored for ``user`` with how many times it was seen, sorted."""
    return sorted((f.content, f.times_seen) for f in engine.list(user, include_invalid=True))


def test_facts_told_during_an_outage_are_stored_once_by_the_next_turn_after_it(
    engine: RecallEngine, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    chat = Chat(engine)
    chat.say("I have a dog called Rex.")
    faults = Faults(engine.store)
    faults.arm("upsert", error=ConnectionError, message="the store is down")
    with caplog.at_level(logging.WARNING, logger="memori_llamaindex"):
        chat.say("I play the cello.")  # its capture fails and opens the breaker
        chat.say("I live in Lisbon.")  # skipped: the breaker is open
    assert engine.outage.is_open and (chat.block.capture_stats.failed, chat.block.capture_stats.held) == (0, 2)
    assert told(engine) == [("User has a dog called Rex.", 1)]
    # It warned that these turns were "not stored either", and captured them again itself.
    assert any("the turns captured until the store answers again are held too" in r.getMessage()
               for r in caplog.records)

    faults.disarm()
    clock.now += 14
    with caplog.at_level(logging.INFO, logger="memori_llamaindex"):
        chat.say("What should we do this weekend?")  # the store answers: the two turns are captured now
    assert told(engine) == [("User has a dog called Rex.", 1), ("User lives in Lisbon.", 1),
                            ("User plays the cello.", 1)]
    assert ("MemoriMemoryBlock: capturing again 2 turn(s) a store outage kept from the store"
            in [r.getMessage() for r in caplog.records])
    chat.say("Anything about music?")
    assert "User plays the cello." in chat.prompts[-1]
    chat.say("Thanks.")
    assert told(engine)[1:] == [("User lives in Lisbon.", 1), ("User plays the cello.", 1)]  # never again
    stats = chat.block.capture_stats
    assert (stats.failed, stats.dropped, stats.held) == (0, 0, 0) and stats.completed == stats.submitted == 6


def test_a_turn_whose_write_landed_before_the_store_failed_is_not_written_again(engine: RecallEngine,
                                                                                 clock: Clock) -> None:
    chat = Chat(engine)
    Faults(engine.store).arm("upsert", "after", error=ConnectionError, times=1)  # stored; the reply lost
    chat.say("I play the cello.")
    assert chat.block.capture_stats.held == 1
    clock.now += 10
    chat.say("What should I practise?")
    chat.say("Thanks.")
    assert told(engine) == [("User plays the cello.", 1)]  # one fact, seen once: the next attempt found it stored
    assert chat.block.capture_stats.completed == chat.block.capture_stats.submitted == 3


def test_a_turn_whose_write_failed_before_landing_is_stored_by_the_next_turn(engine: RecallEngine,
                                                                              clock: Clock) -> None:
    chat = Chat(engine)
    Faults(engine.store).arm("upsert", "before", error=ConnectionError, times=1)
    chat.say("I play the cello.")
    assert told(engine) == []
    clock.now += 10
    chat.say("What should I practise?")
    chat.say("Thanks.")
    assert told(engine) == [("User plays the cello.", 1)]


def test_only_the_most_recent_held_turns_of_a_user_are_kept_and_the_others_are_counted_as_dropped(
    engine: RecallEngine, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    chat = Chat(engine)
    faults = Faults(engine.store)
    faults.arm("upsert", error=ConnectionError)
    languages = ["French", "German", "Dutch", "Polish", "Greek", "Czech", "Danish", "Hindi", "Korean", "Swahili"]
    with caplog.at_level(logging.WARNING, logger="memori_llamaindex"):
        for language in languages:
            chat.say(f"I speak {language}.")
    assert chat.block.capture_stats.dropped == len(languages) - OUTAGE_TURNS_KEPT
    assert any("a turn whose capture met a store outage was forgotten before the store answered again"
               in r.getMessage() for r in caplog.records)
    faults.disarm()
    clock.now += 10
    chat.say("Which languages do I know?")
    assert told(engine) == sorted((f"User speaks {lang}.", 1) for lang in languages[-OUTAGE_TURNS_KEPT:])


class FailsOn:
    """The rule-based extractor, but a turn that says ``word`` raises every time; ``calls`` counts those."""

    uses_existing_facts = False

    def __init__(self, word: str) -> None:
        self.word, self.calls = word, 0

    def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
        if self.word in as_messages(messages)[-1].text:
            self.calls += 1
            raise RuntimeError("the extractor's model refused")
        return RuleBasedFactExtractor().extract(messages)


def test_a_turn_whose_capture_failed_without_an_outage_is_not_handed_to_capture_again_by_later_turns(
    engine: RecallEngine,
) -> None:
    # As for the LangChain adapters: only an outage's turns are held; this one is left to Memory's flush.
    extractor = FailsOn("cello")
    chat = Chat(engine, extractor=extractor)
    chat.say("I play the cello.")
    for i in range(3):
        chat.say(f"I have {i + 2} cats.")
    assert extractor.calls == 1
    assert (chat.block.capture_stats.failed, chat.block.capture_stats.held) == (1, 0)
    assert ("User has 4 cats.", 1) in told(engine)


@pytest.mark.parametrize("when", ["before", "after"])
def test_memorys_flush_of_a_turn_whose_capture_failed_without_an_outage_stores_it_once(engine: RecallEngine,
                                                                                       when: str) -> None:
    # The store raised (no outage: not held), before its write or after it landed; Memory flushes the turn to the
    # block later, which captures it again (it failed): stored then, or found stored and not written again.
    block = MemoriMemoryBlock(engine=engine, entity_id="ana", capture=True)
    memory = Memory.from_defaults(session_id="s1", memory_blocks=[block], token_limit=200,
                                  chat_history_token_ratio=0.5, token_flush_size=50)  # flushes old turns soon
    chat = SimpleChatEngine.from_defaults(llm=MockFunctionCallingLLM(max_tokens=3), memory=memory)
    Faults(engine.store).arm("upsert", when, times=1)
    chat.chat("I play the cello.")
    assert block.flush(timeout=30) and block.capture_stats.failed == 1 and block.capture_stats.held == 0
    for i in range(8):  # the chat goes on: Memory flushes the cello turn out of its queue, to the block
        chat.chat(f"Tell me a fun fact number {i} about whales and the deep ocean, please.")
    assert block.flush(timeout=30)
    assert any(m.content == "I play the cello." for m in memory.get_all(status=MessageStatus.ARCHIVED))
    assert ("User plays the cello.", 1) in told(engine)  # seen once
    stats = block.capture_stats
    assert (stats.submitted, stats.completed, stats.failed) == (10, 9, 1)  # 9 turns, and the flush captured it again


def test_a_held_turn_of_a_user_forgotten_since_is_not_stored_by_the_next_turn(
    engine: RecallEngine, clock: Clock
) -> None:
    chat = Chat(engine)
    faults = Faults(engine.store)
    faults.arm("upsert", error=ConnectionError)
    chat.say("I play the cello.")
    faults.disarm()
    clock.now += 10
    engine.forget("ana")  # the erase request comes after the turn: capturing it again must not undo it
    chat.say("What should I practise?")
    chat.say("Thanks.")
    assert told(engine) == [] and chat.block.capture_stats.erased == 1


def _ana_held_a_turn(engine: RecallEngine, clock: Clock) -> tuple[Chat, Chat]:
    """Ana's and Bo's chats, after Ana's turn was held through an outage the store is back from."""
    ana, bo = Chat(engine, "ana"), Chat(engine, "bo")
    faults = Faults(engine.store)
    faults.arm("upsert", error=ConnectionError)
    ana.say("I play the cello.")
    faults.disarm()
    clock.now += 10
    return ana, bo


def test_another_users_turn_captures_a_users_held_turn_into_that_users_memory(engine: RecallEngine,
                                                                               clock: Clock) -> None:
    ana, bo = _ana_held_a_turn(engine, clock)
    bo.say("I like hiking.")  # the store answers: every held turn goes, each to its own user
    assert told(engine, "ana") == [("User plays the cello.", 1)] and told(engine, "bo") == [("User likes hiking.", 1)]
    ana.say("Thanks.")
    assert told(engine, "ana") == [("User plays the cello.", 1)]


def _outcomes(block: MemoriMemoryBlock) -> tuple[int, int, int, int]:
    stats = block.capture_stats
    return stats.submitted, stats.completed, stats.erased, stats.held


def test_a_held_turn_another_users_block_captures_again_is_counted_completed_on_the_block_that_held_it(
    engine: RecallEngine, clock: Clock
) -> None:
    ana, bo = _ana_held_a_turn(engine, clock)
    bo.say("I like hiking.")  # bo's block hands ana's held turn back, and its flush waits for it
    assert told(engine, "ana") == [("User plays the cello.", 1)]
    assert (_outcomes(ana.block), _outcomes(bo.block)) == ((1, 1, 0, 0), (1, 1, 0, 0))


def test_a_held_turn_of_a_user_forgotten_since_is_counted_erased_on_that_users_block_not_the_next_ones(
    engine: RecallEngine, clock: Clock
) -> None:
    ana, bo = _ana_held_a_turn(engine, clock)
    engine.forget("ana")
    bo.say("I like hiking.")
    assert (_outcomes(ana.block), _outcomes(bo.block)) == ((1, 0, 1, 0), (1, 1, 0, 0))
    assert ana.block.flush(5).erased == 1 and told(engine, "ana") == []


def test_a_block_made_per_request_captures_the_held_turn_of_the_block_before_it(
    engine: RecallEngine, clock: Clock
) -> None:
    faults = Faults(engine.store)
    faults.arm("upsert", error=ConnectionError)
    first = Chat(engine)
    first.say("I play the cello.")
    assert first.block.capture_stats.held == 1
    faults.disarm()
    clock.now += 10
    Chat(engine).say("Thanks.")  # a new block and a new chat of the same user
    assert told(engine) == [("User plays the cello.", 1)]


def test_no_held_turn_is_captured_again_while_the_breaker_is_open(engine: RecallEngine) -> None:
    chat = Chat(engine)
    faults = Faults(engine.store)
    faults.arm("upsert", error=ConnectionError)
    chat.say("I play the cello.")  # opens the breaker
    calls = faults.calls["upsert"]
    chat.say("Thanks.")
    chat.say("Bye.")
    assert faults.calls["upsert"] == calls  # nothing was sent to the store that failed moments ago
    assert chat.block.capture_stats.dropped == 0 and chat.block.capture_stats.held == 3
