"""memori_core.capture: capture_facts and BackgroundCapture over a real engine (in-memory Chroma)."""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Sequence
from typing import Any

import pytest

from _capture import SAID_AT
from _extractors import Exploding, Gate
from _faults import break_store
from _helpers import stored, ungated_engine
from memori_core import ExtractedFact, RecallEngine, RuleBasedFactExtractor
from memori_core.extraction import KnownFact, MessageLike, as_messages
from memori_core.lanes import ERASURES
from memori_core.capture import (
    BackgroundCapture, CaptureDropped, CaptureStats, capture_facts, check_extractor, same_slot_facts,
)

LOG = logging.getLogger("memori_test_capture")


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


# What a provider SDK call carries (OpenAI chat, Anthropic, Bedrock Converse): role and content mappings,
# content a string, None (an assistant's tool call) or a list of parts.
SDK_TURN: list[dict[str, Any]] = [
    {"role": "system", "content": "You are a helpful cook."},
    {"role": "user", "content": "I moved to Porto last month."},
    {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function"}]},
    {"role": "tool", "content": "I am vegetarian.", "tool_call_id": "c1"},
    {"role": "user", "content": [
        {"type": "text", "text": "I'm allergic to peanuts."},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
    ]},
    {"role": "User", "content": [{"text": "I play the cello."}]},  # Bedrock Converse: parts without a type
]
SAME_TURN_AS_PAIRS = [
    ("system", "You are a helpful cook."), ("user", "I moved to Porto last month."), ("assistant", ""),
    ("tool", "I am vegetarian."), ("user", "I'm allergic to peanuts."), ("user", "I play the cello."),
]


def test_provider_sdk_message_dicts_read_as_role_and_text_pairs() -> None:
    assert as_messages(SDK_TURN) == as_messages(SAME_TURN_AS_PAIRS)


def test_capture_stores_the_same_facts_from_sdk_message_dicts_as_from_pairs(hash_embedder: Any) -> None:
    from_dicts, from_pairs = ungated_engine(hash_embedder), ungated_engine(hash_embedder)
    capture_facts(from_dicts, "ann", SDK_TURN, RuleBasedFactExtractor())
    capture_facts(from_pairs, "ann", SAME_TURN_AS_PAIRS, RuleBasedFactExtractor())
    # Only the user's words are facts: not the system prompt, not the tool's output, not the image.
    assert stored(from_dicts, "ann") == stored(from_pairs, "ann") == [
        "User is allergic to peanuts.", "User lives in Porto.", "User plays the cello.",
    ]


def test_background_capture_takes_sdk_message_dicts(ungated: RecallEngine) -> None:
    captures = BackgroundCapture("test", LOG)
    assert captures.submit(ungated, "ann", [{"role": "user", "content": "I keep bees."}], RuleBasedFactExtractor())
    assert captures.flush()
    assert stored(ungated, "ann") == ["User keeps bees."]


@pytest.mark.parametrize(
    ("message", "names"),
    [
        ({"role": "user", "content": 42}, "messages[0]['content'] must be a string or a list of parts, got int"),
        ({"role": "user", "content": b"bytes"},
         "messages[0]['content'] must be a string or a list of parts, got bytes"),
        ({"role": "user", "text": "I keep bees."}, "messages[0] is a user message without 'content'"),
        ({"role": 1, "content": "I keep bees."}, "role and text must be str"),
    ],
)
def test_a_malformed_sdk_message_is_a_type_error_naming_what_is_wrong(
    ungated: RecallEngine, message: dict[str, Any], names: str
) -> None:
    with pytest.raises(TypeError, match=re.escape(names)):
        capture_facts(ungated, "ann", [message], RuleBasedFactExtractor())
    with pytest.raises(TypeError, match=re.escape(names)):  # refused on the caller's thread, not in the background
        BackgroundCapture("test", LOG).submit(ungated, "ann", [message], RuleBasedFactExtractor())
    assert ungated.count("ann") == 0


@pytest.mark.parametrize(
    ("messages", "names"),
    [
        (b"I keep bees.", "messages must be a sequence of messages, got bytes"),  # bytes where messages belong
        ([("user", "I keep bees."), 5], "messages[1]: expected a Message"),
        ([("user", None)], "messages[0]: a message's role and text must be str"),
    ],
)
def test_bad_messages_are_a_type_error_naming_the_argument_and_the_item(
    ungated: RecallEngine, messages: Any, names: str
) -> None:
    with pytest.raises(TypeError, match=re.escape(names)):
        capture_facts(ungated, "ann", messages, RuleBasedFactExtractor())
    with pytest.raises(TypeError, match=re.escape(names)):
        BackgroundCapture("test", LOG).submit(ungated, "ann", messages, RuleBasedFactExtractor())
    assert ungated.count("ann") == 0


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


def test_capture_stores_the_turn_when_the_fact_it_replaces_was_deleted_meanwhile(ungated: RecallEngine) -> None:
    [lisbon, dog] = ungated.add("ann", ["User lives in Lisbon.", "User lives with a dog."])

    class DeletedMeanwhile(Scripted):
        def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
            facts = super().extract(messages, existing)
            ungated.delete("ann", [lisbon])  # another writer, while the extractor ran
            return facts

    capture_facts(ungated, "ann", [("user", "I moved to Porto, alone.")],
                  DeletedMeanwhile(ExtractedFact("User lives in Porto.", (lisbon, dog))))
    assert stored(ungated, "ann") == ["User lives in Porto."]  # stored, superseding the fact still there
    assert ungated.get("ann", [dog])[0].valid_to is not None


def test_a_superseded_fact_is_no_longer_recalled(ungated: RecallEngine) -> None:
    [lisbon] = ungated.add("ann", ["User lives in Lisbon."])
    ungated.add("bob", ["User lives in Lisbon."])
    capture_facts(ungated, "ann", [("user", "I moved to Porto.")],
                  Scripted(ExtractedFact("User lives in Porto.", (lisbon,))))
    assert stored(ungated, "ann") == ["User lives in Porto."]
    assert stored(ungated, "bob") == ["User lives in Lisbon."]


def test_submit_returns_before_the_extractor_runs_and_flush_waits(ungated: RecallEngine) -> None:
    gate = Gate()
    captures = BackgroundCapture("test", LOG)
    assert captures.submit(ungated, "ann", [("user", "I play the cello.")], gate)
    assert gate.entered.wait(30)
    assert captures.pending == 1
    unfinished = captures.flush(timeout=0)  # still running: flush reports it instead of hanging
    assert not unfinished and unfinished.finished is False and unfinished.pending == 1
    assert ungated.count("ann") == 0
    gate.opened.set()
    assert captures.flush()
    assert captures.pending == 0
    assert stored(ungated, "ann") == ["User plays the cello."]


async def test_aflush_waits_without_blocking_the_event_loop(ungated: RecallEngine) -> None:
    gate = Gate()
    captures = BackgroundCapture("test", LOG)
    captures.submit(ungated, "ann", [("user", "I keep bees.")], gate)
    loop_ran = threading.Event()

    async def release_later() -> None:
        loop_ran.set()
        gate.opened.set()

    import asyncio

    task = asyncio.create_task(release_later())
    assert await captures.aflush()
    await task
    assert loop_ran.is_set() and stored(ungated, "ann") == ["User keeps bees."]


def test_the_pending_bound_drops_with_a_warning(ungated: RecallEngine, caplog: pytest.LogCaptureFixture) -> None:
    gate = Gate()
    captures = BackgroundCapture("test", LOG, max_pending=2)
    with caplog.at_level(logging.WARNING, logger=LOG.name):
        assert captures.submit(ungated, "ann", [("user", "I have a dog.")], gate)
        assert captures.submit(ungated, "ann", [("user", "I have a cat.")], gate)
        assert not captures.submit(ungated, "ann", [("user", "I have a parrot.")], gate)
        assert captures.pending == 2
    assert [r.getMessage() for r in caplog.records if "dropped" in r.getMessage()] == [
        "test: capture dropped for entity 'ann': 2 captures already pending (max_pending_captures); "
        "the answer is unaffected"
    ]
    gate.opened.set()
    first = captures.flush()
    assert first and (first.completed, first.dropped, first.failed) == (2, 1, 0)  # the drop is counted, not only logged
    assert stored(ungated, "ann") == ["User has a cat.", "User has a dog."]
    assert captures.submit(ungated, "ann", [("user", "I have a parrot.")], RuleBasedFactExtractor())
    second = captures.flush()
    assert second and (second.completed, second.dropped) == (1, 0)  # counts since the previous flush
    assert "User has a parrot." in stored(ungated, "ann")
    assert captures.stats == CaptureStats(submitted=4, completed=3, dropped=1, failed=0, erased=0, pending=0)


def test_captures_of_one_entity_run_one_at_a_time_in_order(ungated: RecallEngine) -> None:
    gate = Gate()
    gate.opened.set()
    captures = BackgroundCapture("test", LOG)
    turns = [f"I have {n} plants." for n in ("two", "three", "four", "five", "six", "seven")]
    for turn in turns:
        captures.submit(ungated, "ann", [("user", turn)], gate)
    assert captures.flush()
    assert gate.seen == turns and gate.most_running == 1


def test_a_failing_extractor_or_store_logs_one_warning_each(
    ungated: RecallEngine, caplog: pytest.LogCaptureFixture
) -> None:
    captures = BackgroundCapture("test", LOG)
    with caplog.at_level(logging.WARNING, logger=LOG.name):
        captures.submit(ungated, "ann", [("user", "I play golf.")], Exploding())
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
        captures.submit(ungated, "ann", [("user", "I play golf.")], Exploding())
        with pytest.raises(RuntimeError, match="extractor exploded"):
            captures.flush()
    assert caplog.records == []  # raised, not logged
    assert captures.flush()  # raised once
    captures.raise_failure()


def test_strict_reports_a_dropped_capture(ungated: RecallEngine) -> None:
    gate = Gate()
    captures = BackgroundCapture("test", LOG, strict=True, max_pending=1)
    captures.submit(ungated, "ann", [("user", "I have a dog.")], gate)
    assert not captures.submit(ungated, "ann", [("user", "I have a cat.")], gate)
    with pytest.raises(CaptureDropped, match="capture dropped"):
        captures.raise_failure()
    gate.opened.set()
    assert captures.flush()


def test_a_turn_not_stored_calls_on_failure_once_whatever_the_path(ungated: RecallEngine, hash_embedder: Any,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # A dropped turn's on_failure was called by the capture and again by the adapter, for the same False.
    calls: list[str] = []
    gate, captures = Gate(), BackgroundCapture("test", LOG, max_pending=1)
    assert captures.submit(ungated, "ann", [("user", "I have a dog.")], gate, on_failure=lambda: calls.append("ran"))
    assert not captures.submit(ungated, "ann", [("user", "I have a cat.")], gate,
                               on_failure=lambda: calls.append("full"))  # max_pending reached
    gate.opened.set()
    assert captures.flush()
    captures.submit(ungated, "ann", [("user", "I play golf.")], Exploding(), on_failure=lambda: calls.append("raised"))
    assert captures.flush()

    def no_thread(*args: Any) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(ungated.capture_lanes, "submit", no_thread)  # the pool cannot take it (at shutdown)
    assert not captures.submit(ungated, "ann", [("user", "I swim.")], gate, on_failure=lambda: calls.append("pool"))
    closed = ungated_engine(hash_embedder)
    closed.close()
    assert not captures.submit(closed, "ann", [("user", "I ski.")], gate, on_failure=lambda: calls.append("closed"))
    assert calls == ["full", "raised", "pool", "closed"]  # each once; the stored turn never
    assert (captures.stats.dropped, captures.stats.failed) == (2, 2)


def test_extractor_and_bound_are_checked() -> None:
    assert isinstance(check_extractor(None), RuleBasedFactExtractor)
    with pytest.raises(TypeError, match="extract"):
        check_extractor(object())
    for bad, error in ((0, ValueError), (-1, ValueError), (True, TypeError), (1.5, TypeError), ("64", TypeError)):
        with pytest.raises(error, match="max_pending_captures") as raised:
            BackgroundCapture("test", LOG, max_pending=bad)  # type: ignore[arg-type]
        assert type(raised.value) is error  # a wrong type is a TypeError, a wrong value a ValueError


def test_capture_shows_an_extractor_the_stored_facts_of_the_turns_slots_pets_and_exercise_too(
    ungated: RecallEngine,
) -> None:
    stored_facts = ["User rents a flat in Hull.", "User is a receptionist at a dental clinic.",
                    "User drinks beer most evenings.", "User has a cat called Miso.", "User jogs every morning.",
                    "User plays chess."]
    ids = dict(zip(stored_facts, ungated.add("ann", stored_facts)))

    def shown(text: str) -> set[str]:
        return {f.content for f in same_slot_facts(ungated, "ann", text, set())}

    # Each turn's slot words reach the one stored fact of that slot, whatever recall's gate would say.
    assert shown("We bought a house in Beverley!") == {"User rents a flat in Hull."}
    assert shown("Bad news: I was made redundant.") == {"User is a receptionist at a dental clinic."}
    assert shown("I've been sober since March.") == {"User drinks beer most evenings."}
    assert shown("Sad news, our cat passed away.") == {"User has a cat called Miso."}
    assert shown("My knee is bad so no more running for me.") == {"User jogs every morning."}
    assert shown("Nice weather, huh.") == set()
    beer = ids["User drinks beer most evenings."]
    assert same_slot_facts(ungated, "ann", "I've been sober since March.", {beer}) == []  # already shown


def test_capture_shows_an_extractor_the_stored_fact_of_a_thing_sold_that_no_slot_knows(
    ungated: RecallEngine,
) -> None:
    ungated.add("ann", ["User rides a Lambretta to the station.", "User plays chess."])

    def shown(text: str) -> set[str]:
        return {f.content for f in same_slot_facts(ungated, "ann", text, set())}

    assert shown("We got rid of the Lambretta.") == {"User rides a Lambretta to the station."}
    assert shown("I sold my old chessboard.") == set()  # no stored fact names it


def test_a_thing_sold_ends_its_fact_and_a_repeated_introduction_is_stored_once(ungated: RecallEngine) -> None:
    rules = RuleBasedFactExtractor()
    for said in ("Call me Sam.", "I ride an old Lambretta.", "Sam here again, I'm the one with the twins.",
                 "Sold the Lambretta last week, I take the bus now."):
        capture_facts(ungated, "ann", [("user", said)], rules, created_at=SAID_AT)
    assert sorted(f.content for f in ungated.list("ann")) == [  # "last week", counted from the day said
        "User has twins.", "User sold the Lambretta in the week of Monday 2026-07-27.", "User takes the bus.",
        "User's name is Sam.",
    ]
    assert [f.content for f in ungated.list("ann", include_invalid=True) if f.valid_to is not None] == [
        "User rides an old Lambretta.",
    ]


def test_capture_shows_an_extractor_the_stored_fact_naming_someone_a_change_is_told_of(ungated: RecallEngine) -> None:
    ungated.add("ann", ["User has a hamster named Nibbles.", "User plays chess."])

    def shown(text: str) -> set[str]:
        return {f.content for f in same_slot_facts(ungated, "ann", text, set())}

    assert shown("Sadly Nibbles died yesterday.") == {"User has a hamster named Nibbles."}
    assert shown("Nibbles is so cute.") == set()  # no change told: nothing to replace


def test_forget_is_not_undone_by_a_capture_of_a_turn_said_before_it(ungated: RecallEngine) -> None:
    # A tester's app: the user said "I have HIV.", asked to be forgotten, and the capture still running then
    # stored the fact again after forget() had returned.
    ungated.add("ann", ["User lives in Leeds."])
    gate = Gate()
    captures = BackgroundCapture("test", LOG)
    assert captures.submit(ungated, "ann", [("user", "I have HIV.")], gate)  # running: waits in the extractor
    assert captures.submit(ungated, "ann", [("user", "I play the cello.")], gate)  # queued behind it
    assert gate.entered.wait(30)
    ungated.forget("ann")  # returns without waiting for the capture in the extractor
    assert ungated.count("ann") == 0
    gate.opened.set()
    done = captures.flush(timeout=30)
    assert done and (done.erased, done.completed, done.failed) == (2, 0, 0)
    assert ungated.count("ann") == 0  # neither the running capture nor the queued one wrote anything
    assert captures.submit(ungated, "ann", [("user", "I keep bees.")], gate) and captures.flush(timeout=30)
    assert stored(ungated, "ann") == ["User keeps bees."]  # a turn said after the forget is captured


def test_a_capture_of_a_turn_that_began_before_a_forget_writes_nothing_though_submitted_after(
    ungated: RecallEngine, caplog: pytest.LogCaptureFixture,
) -> None:
    # An agent turn is being answered when the user is forgotten: the capture is submitted once the model has
    # answered, after the forget, but the turn was said before it (``since``: the generation when it began).
    began = ERASURES.generation("ann")
    ungated.add("ann", ["User lives in Leeds."])
    ungated.forget("ann")
    captures = BackgroundCapture("test", LOG)
    with caplog.at_level(logging.INFO, logger=LOG.name):
        assert captures.submit(ungated, "ann", [("user", "My phone number is 0612345678.")],
                               RuleBasedFactExtractor(), since=began)
        done = captures.flush(timeout=30)
    assert done and done.erased == 1 and ungated.count("ann") == 0
    assert "test: capture skipped for entity 'ann': it was forgotten after the turn began" in caplog.messages
    # Without ``since`` the turn counts from its submission: said after the forget, it is stored.
    assert captures.submit(ungated, "ann", [("user", "I keep bees.")], RuleBasedFactExtractor())
    assert captures.flush(timeout=30) and stored(ungated, "ann") == ["User keeps bees."]


def test_a_capture_of_another_user_is_neither_waited_for_nor_skipped_by_a_forget(ungated: RecallEngine) -> None:
    gate = Gate()
    captures = BackgroundCapture("test", LOG)
    assert captures.submit(ungated, "bob", [("user", "I play the cello.")], gate)
    assert gate.entered.wait(30)
    done = threading.Event()
    threading.Thread(target=lambda: (ungated.forget("ann"), done.set())).start()
    assert done.wait(30)  # bob's capture is still waiting in the extractor
    gate.opened.set()
    assert captures.flush(timeout=30) and stored(ungated, "bob") == ["User plays the cello."]


def test_capture_stores_no_fact_whose_expiry_has_passed_and_keeps_the_rest(ungated: RecallEngine) -> None:
    # "I had the dentist at 9 today" told at 10: add refuses an expiry at or before created_at, which would have
    # failed the whole turn; the fact that is over is not stored, the others are.
    from datetime import datetime, timedelta, timezone

    past = ExtractedFact(text="User has a dentist appointment at 9am today.",
                         expires_at=datetime.now(timezone.utc) - timedelta(hours=1))
    kept = ExtractedFact(text="User plays the cello.")
    assert len(capture_facts(ungated, "ann", [("user", "...")], Scripted(past, kept))) == 1
    assert stored(ungated, "ann") == ["User plays the cello."]


def test_a_fact_the_agent_remembers_in_the_same_words_as_the_turn_is_stored_once(ungated: RecallEngine) -> None:
    # The user asks to be remembered and the model calls its remember tool meanwhile: the capture's fact carries
    # neither the request nor the "now", so the tool's write is a repeat of it, not a second fact.
    capture_facts(ungated, "ann", [("user", "I work at Deloitte as a consultant now, remember that.")],
                  RuleBasedFactExtractor())
    ungated.add("ann", ["User works at Deloitte as a consultant."])
    assert stored(ungated, "ann") == ["User works at Deloitte as a consultant."]


def test_capture_shows_an_extractor_the_stored_fact_a_correction_says_was_wrong(ungated: RecallEngine) -> None:
    ungated.add("ann", ["User is learning Spanish.", "User lives in Lisbon.", "User plays chess."])

    def shown(text: str) -> set[str]:
        return {f.content for f in same_slot_facts(ungated, "ann", text, set())}

    assert shown("Actually I meant Porto, not Lisbon.") == {"User lives in Lisbon."}
    capture_facts(ungated, "ann", [("user", "Actually I meant Porto, not Lisbon.")], RuleBasedFactExtractor())
    assert sorted(stored(ungated, "ann")) == ["User is learning Spanish.", "User lives in Porto.", "User plays chess."]
