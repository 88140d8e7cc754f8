"""memori_core.capture: capture_facts and BackgroundCapture over a real engine (in-memory Chroma)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any

import pytest

from _faults import break_store
from memori_core import ChromaStore, ExtractedFact, RecallConfig, RecallEngine, RuleBasedFactExtractor
from memori_core.extraction import KnownFact, MessageLike, as_messages
from memori_core.capture import BackgroundCapture, CaptureDropped, capture_facts, check_extractor

LOG = logging.getLogger("memori_test_capture")


@pytest.fixture
def ungated(hash_embedder) -> RecallEngine:
    """The hash embedder's cosines mean nothing to the relevance gate: recall everything, best first."""
    return RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder,
                        config=RecallConfig(relevance_threshold=None))


def contents(engine: RecallEngine, entity: str) -> list[str]:
    return sorted(c.content for c in engine.explain("user", entity, limit=50).candidates)


class Blocking:
    """An extractor that waits until released (the rules do the extracting), recording the order of its calls."""

    uses_existing_facts = False

    def __init__(self) -> None:
        self.release = threading.Event()
        self.started = threading.Event()
        self.seen: list[str] = []
        self.running = 0
        self.most_running = 0
        self._lock = threading.Lock()

    def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
        with self._lock:
            self.running += 1
            self.most_running = max(self.most_running, self.running)
        self.started.set()
        try:
            assert self.release.wait(30), "the test never released the extractor"
            self.seen.append(as_messages(messages)[-1].text)
            return RuleBasedFactExtractor().extract(messages)
        finally:
            with self._lock:
                self.running -= 1


class Failing:
    uses_existing_facts = False

    def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
        raise RuntimeError("extractor exploded")


class Scripted:
    """An extractor returning fixed facts, remembering the stored facts it was shown."""

    uses_existing_facts = True

    def __init__(self, *facts: ExtractedFact) -> None:
        self.facts = list(facts)
        self.shown: list[Any] = []

    def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
        self.shown = list(existing)
        return self.facts


def test_capture_facts_stores_only_statements_with_metadata_and_session(ungated: RecallEngine) -> None:
    ids = capture_facts(
        ungated, "ann",
        [("assistant", "How can I help?"), ("user", "Hi! I'm vegetarian. What should I cook tonight?")],
        RuleBasedFactExtractor(), metadata={"source": "test"}, session_id="s-1",
    )
    assert len(ids) == 1
    [fact] = ungated.recall("vegetarian", "ann")
    assert fact.content == "User is vegetarian."
    assert fact.metadata["source"] == "test" and fact.metadata["session_id"] == "s-1"
    assert capture_facts(ungated, "ann", [("user", "Thanks!")], RuleBasedFactExtractor()) == []


def test_an_extractor_sees_the_users_similar_facts_and_supersedes_only_those(ungated: RecallEngine) -> None:
    [lisbon] = ungated.add("ann", ["User lives in Lisbon."])
    [bobs] = ungated.add("bob", ["User lives in Oslo."])
    calls: list[dict[str, Any]] = []
    real_add = ungated.add

    def recording_add(entity_id: str, facts: Any, *args: Any, **kwargs: Any) -> list[str]:
        calls.append({"entity_id": entity_id, "facts": list(facts), **kwargs})
        return real_add(entity_id, facts, *args, **kwargs)

    ungated.add = recording_add  # type: ignore[method-assign]
    extractor = Scripted(ExtractedFact("User lives in Porto.", (lisbon, bobs, "made-up-id", "")))
    capture_facts(ungated, "ann", [("user", "I moved to Porto.")], extractor)
    assert calls[-1]["supersedes"] == [lisbon]  # bob's fact and an invented id never reach the engine
    assert [f.id for f in extractor.shown] == [lisbon]  # only ann's facts were shown
    no_replace = Scripted(ExtractedFact("User has a cat.", (bobs,)))
    capture_facts(ungated, "ann", [("user", "I have a cat.")], no_replace)
    assert "supersedes" not in calls[-1]  # nothing valid to supersede: add() is called without it


def test_a_superseded_fact_is_no_longer_recalled(ungated: RecallEngine) -> None:
    [lisbon] = ungated.add("ann", ["User lives in Lisbon."])
    ungated.add("bob", ["User lives in Lisbon."])
    capture_facts(ungated, "ann", [("user", "I moved to Porto.")],
                  Scripted(ExtractedFact("User lives in Porto.", (lisbon,))))
    assert contents(ungated, "ann") == ["User lives in Porto."]
    assert contents(ungated, "bob") == ["User lives in Lisbon."]


def test_submit_returns_before_the_extractor_runs_and_flush_waits(ungated: RecallEngine) -> None:
    blocking = Blocking()
    captures = BackgroundCapture("test", LOG)
    assert captures.submit(ungated, "ann", [("user", "I play the cello.")], blocking)
    assert blocking.started.wait(30)
    assert captures.pending == 1
    assert captures.flush(timeout=0) is False  # still running: flush reports it instead of hanging
    assert ungated.count("ann") == 0
    blocking.release.set()
    assert captures.flush()
    assert captures.pending == 0
    assert contents(ungated, "ann") == ["User plays the cello."]


async def test_aflush_waits_without_blocking_the_event_loop(ungated: RecallEngine) -> None:
    blocking = Blocking()
    captures = BackgroundCapture("test", LOG)
    captures.submit(ungated, "ann", [("user", "I keep bees.")], blocking)
    loop_ran = threading.Event()

    async def release_later() -> None:
        loop_ran.set()
        blocking.release.set()

    import asyncio

    task = asyncio.create_task(release_later())
    assert await captures.aflush()
    await task
    assert loop_ran.is_set() and contents(ungated, "ann") == ["User keeps bees."]


def test_the_pending_bound_drops_with_a_warning(ungated: RecallEngine, caplog: pytest.LogCaptureFixture) -> None:
    blocking = Blocking()
    captures = BackgroundCapture("test", LOG, max_pending=2)
    with caplog.at_level(logging.WARNING, logger=LOG.name):
        assert captures.submit(ungated, "ann", [("user", "I have a dog.")], blocking)
        assert captures.submit(ungated, "ann", [("user", "I have a cat.")], blocking)
        assert not captures.submit(ungated, "ann", [("user", "I have a parrot.")], blocking)
        assert captures.pending == 2
    assert [r.getMessage() for r in caplog.records if "dropped" in r.getMessage()] == [
        "test: capture dropped for entity 'ann': 2 captures already pending (max_pending_captures); "
        "the answer is unaffected"
    ]
    blocking.release.set()
    assert captures.flush()
    assert contents(ungated, "ann") == ["User has a cat.", "User has a dog."]
    assert captures.submit(ungated, "ann", [("user", "I have a parrot.")], RuleBasedFactExtractor())
    assert captures.flush() and "User has a parrot." in contents(ungated, "ann")


def test_captures_of_one_entity_run_one_at_a_time_in_order(ungated: RecallEngine) -> None:
    blocking = Blocking()
    blocking.release.set()
    captures = BackgroundCapture("test", LOG)
    turns = [f"I have {n} plants." for n in ("two", "three", "four", "five", "six", "seven")]
    for turn in turns:
        captures.submit(ungated, "ann", [("user", turn)], blocking)
    assert captures.flush()
    assert blocking.seen == turns and blocking.most_running == 1


def test_a_failing_extractor_or_store_logs_one_warning_each(
    ungated: RecallEngine, caplog: pytest.LogCaptureFixture
) -> None:
    captures = BackgroundCapture("test", LOG)
    with caplog.at_level(logging.WARNING, logger=LOG.name):
        captures.submit(ungated, "ann", [("user", "I play golf.")], Failing())
        assert captures.flush()
    [record] = caplog.records
    assert record.getMessage() == (
        "test: capture failed for entity 'ann' (RuntimeError: extractor exploded); continuing without memory"
    )
    caplog.clear()
    break_store(ungated)
    with caplog.at_level(logging.WARNING, logger=LOG.name):
        captures.submit(ungated, "ann", [("user", "I play golf.")], RuleBasedFactExtractor())
        assert captures.flush()
    assert len(caplog.records) == 1 and "capture failed for entity 'ann'" in caplog.records[0].getMessage()


def test_strict_keeps_the_failure_for_the_next_flush(ungated: RecallEngine, caplog: pytest.LogCaptureFixture) -> None:
    captures = BackgroundCapture("test", LOG, strict=True)
    with caplog.at_level(logging.WARNING, logger=LOG.name):
        captures.submit(ungated, "ann", [("user", "I play golf.")], Failing())
        with pytest.raises(RuntimeError, match="extractor exploded"):
            captures.flush()
    assert caplog.records == []  # raised, not logged
    assert captures.flush()  # raised once
    captures.raise_failure()


def test_strict_reports_a_dropped_capture(ungated: RecallEngine) -> None:
    blocking = Blocking()
    captures = BackgroundCapture("test", LOG, strict=True, max_pending=1)
    captures.submit(ungated, "ann", [("user", "I have a dog.")], blocking)
    assert not captures.submit(ungated, "ann", [("user", "I have a cat.")], blocking)
    with pytest.raises(CaptureDropped, match="capture dropped"):
        captures.raise_failure()
    blocking.release.set()
    assert captures.flush()


def test_extractor_and_bound_are_checked() -> None:
    assert isinstance(check_extractor(None), RuleBasedFactExtractor)
    with pytest.raises(TypeError, match="extract"):
        check_extractor(object())
    for bad in (0, -1, True, 1.5):
        with pytest.raises(ValueError, match="max_pending_captures"):
            BackgroundCapture("test", LOG, max_pending=bad)  # type: ignore[arg-type]
