"""Capture of a conversation's turns (capture/turns.py): several turns given at once are captured one after the
other, so a later turn ends what an earlier one said; ``newest_turn`` is what an app that sends the whole
conversation to its model captures after each call."""

from __future__ import annotations

from _helpers import HashEmbedder
from memori_core import ChromaStore, RecallEngine, RuleBasedFactExtractor, capture_facts, newest_turn
from memori_core.capture import turn_spans
from memori_core.extraction import Message


def engine() -> RecallEngine:
    return RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder())


def valid(e: RecallEngine, entity: str = "u") -> list[str]:
    return sorted(f.content for f in e.list(entity))


def test_several_turns_given_at_once_are_captured_in_order_so_a_later_change_ends_an_earlier_fact() -> None:
    e = engine()
    conversation = [{"role": "system", "content": "You are helpful."},
                    {"role": "user", "content": "I live in Lisbon."},
                    {"role": "assistant", "content": "Lovely city."},
                    {"role": "user", "content": "I just moved to Porto."}]
    capture_facts(e, "u", conversation, RuleBasedFactExtractor())
    assert valid(e) == ["User lives in Porto."]
    ended = [f for f in e.list("u", include_invalid=True) if f.content == "User lives in Lisbon."]
    assert len(ended) == 1 and ended[0].superseded_by is not None


def test_capturing_the_newest_turn_after_each_call_stores_each_fact_once_and_keeps_changes() -> None:
    e, extractor = engine(), RuleBasedFactExtractor()
    messages: list[dict[str, str]] = [{"role": "system", "content": "You are helpful."}]
    for said in ["I live in Lisbon.", "I just moved to Porto.", "What should I do this weekend?"]:
        messages.append({"role": "user", "content": said})
        messages.append({"role": "assistant", "content": "Sure."})
        capture_facts(e, "u", newest_turn(messages), extractor)
    assert valid(e) == ["User lives in Porto."]
    lisbon = [f for f in e.list("u", include_invalid=True) if f.content == "User lives in Lisbon."]
    assert [f.metadata.get("times_seen", 1) for f in lisbon] == [1]  # said once, captured once


def test_newest_turn_is_the_last_user_messages_with_the_assistant_message_they_answer() -> None:
    messages = [("system", "Be brief."), ("user", "Hi"), ("assistant", "What's your dog called?"),
                ("user", "Rex"), ("user", "he's a beagle"), ("assistant", "Cute!")]
    assert newest_turn(messages) == messages[2:]  # the reply after it comes along, as one turn always had
    assert newest_turn(messages[:5]) == messages[2:5]
    assert newest_turn([("user", "Hi")]) == [("user", "Hi")]
    assert newest_turn([("system", "Be brief."), ("assistant", "Hello!")]) == []
    assert newest_turn([]) == []
    said = [Message("user", "I live in Lisbon."), Message("assistant", "Nice."), Message("user", "Porto now.")]
    assert newest_turn(said) == said[1:]  # the items as given, Message objects too


def test_turn_spans_start_at_the_assistant_message_a_run_of_user_messages_answers() -> None:
    roles = ["user", "user", "assistant", "tool", "user", "assistant", "user"]
    assert turn_spans([Message(r, "x") for r in roles]) == [(0, 2), (4, 5), (5, 7)]
