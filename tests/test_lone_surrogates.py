"""A lone surrogate in end-user text (half an emoji a client cut in two: JSON ``"\\ud83d"``) does not fail the turn:
the adapters recall, and capture, on the text with the bad code unit replaced by U+FFFD; explicit engine calls
refuse it with a ValueError naming the argument. Real LangChain agent (fake chat model), real in-memory Chroma."""

from __future__ import annotations

import asyncio
import json

import pytest
from langchain.agents import create_agent
from langchain_core.messages import HumanMessage

from _helpers import stored, ungated_engine
from _langchain_fakes import replies
from memori_core import MemoriRecall
from memori_core.validate import repair_text
from memori_langchain import MemoriMiddleware

CUT = json.loads('"Is there anything in the pad thai I should avoid? \\ud83d"')  # what a web client's JSON gives


def test_repair_text_replaces_a_lone_surrogate_and_joins_a_pair_written_as_two_code_units() -> None:
    assert repair_text("pad thai \ud83d") == "pad thai \ufffd"
    assert repair_text("\ude00 end") == "\ufffd end"
    assert repair_text("smile \ud83d\ude00") == "smile \U0001F600"
    text = "plain text, and an emoji \U0001F600"
    assert repair_text(text) is text


def test_a_langchain_agent_turn_with_half_an_emoji_gets_memory_and_is_captured() -> None:
    engine = ungated_engine()
    engine.add("ann", ["User is allergic to peanuts."])
    model = replies("Skip the peanuts.", "Noted.")
    middleware = MemoriMiddleware(engine=engine, entity_id="ann", capture=True)
    agent = create_agent(model, [], middleware=[middleware])
    agent.invoke({"messages": [HumanMessage(CUT)]})
    agent.invoke({"messages": [HumanMessage("I live in Porto \ud83d")]})
    assert middleware.flush(timeout=30)
    assert "User is allergic to peanuts." in model.system_texts()[0]
    stats = middleware.capture_stats
    assert (stats.completed, stats.failed) == (2, 0)
    assert "User lives in Porto." in stored(engine, "ann")


def test_memori_recall_recalls_for_a_message_with_half_an_emoji() -> None:
    engine = ungated_engine()
    engine.add("ann", ["User is allergic to peanuts."])
    sdk = MemoriRecall(engine, entity_id="ann")
    messages = {"messages": [{"role": "user", "content": "I'm cooking \ud83d"}, {"role": "user", "content": CUT}]}
    assert [f.content for f in sdk.recall_for(messages)] == ["User is allergic to peanuts."]
    assert [f.content for f in sdk.recall_for({"messages": []}, query=CUT, context=["hi \ude00"])] == [
        "User is allergic to peanuts."]
    assert [f.content for f in asyncio.run(sdk.arecall_for(messages))] == ["User is allergic to peanuts."]


def test_explicit_engine_calls_refuse_a_lone_surrogate_naming_the_argument() -> None:
    engine = ungated_engine()
    with pytest.raises(ValueError, match=r"query is not valid Unicode text \(lone surrogate at position 50\)"):
        engine.recall(CUT, "ann")
    with pytest.raises(ValueError, match=r"context\[0\] is not valid Unicode text"):
        engine.recall("peanuts", "ann", context=["\ud83d"])
    with pytest.raises(ValueError, match="not valid Unicode text"):
        engine.add("ann", ["User likes \ud83d."])
