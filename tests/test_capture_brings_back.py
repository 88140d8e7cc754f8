"""A fact said again after a wrong replacement ends the fact that replaced it (j26's finding 4): a careless model
replaced "User lives in Porto." with "User lives in Lisbon." while the user was only visiting; "No wait, I still
live in Porto" made Porto valid again but left Lisbon valid, so "Where do I live?" showed both cities. Capture now
ends the fact of the same single-valued slot that replaced it, kept as history. Real ``create_agent`` with the
memory tools and a capturing ``MemoriMiddleware`` over LangChain's fake chat model, real in-memory Chroma."""

from __future__ import annotations

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage

from _capture import RULES
from _helpers import HashEmbedder, ungated_engine
from _langchain_fakes import replies
from memori_core import RecallEngine, capture_facts
from memori_langchain import MemoriMiddleware, memory_tools

PORTO, LISBON = "User lives in Porto.", "User lives in Lisbon."
USER = {"configurable": {"entity_id": "dana", "thread_id": "t1"}}


def said(text: str, at: str) -> HumanMessage:
    return HumanMessage(text, additional_kwargs={"created_at": at})


def remember(text: str) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": "remember", "args": {"text": text}, "id": "r1", "type": "tool_call"}])


def valid(engine: RecallEngine, user: str = "dana") -> list[str]:
    return sorted(f.content for f in engine.list(user))


def capture(engine: RecallEngine, text: str, at: str, user: str = "dana") -> None:
    capture_facts(engine, user, [{"role": "user", "content": text}, {"role": "assistant", "content": "OK."}], RULES,
                  created_at=at)


def test_still_living_in_porto_after_a_models_wrong_lisbon_ends_lisbon_and_keeps_it_as_history() -> None:
    engine = ungated_engine(HashEmbedder())
    memori = MemoriMiddleware(engine=engine, capture=True)
    turns = [
        (said("I live in Porto.", "2026-11-02T09:00:00+00:00"), [AIMessage("Nice.")]),
        (said("I'm in Lisbon this weekend.", "2026-11-16T09:00:00+00:00"), [remember(LISBON), AIMessage("Noted.")]),
        (said("No wait, I still live in Porto, I'm only visiting.", "2026-11-16T09:05:00+00:00"), [AIMessage("Sorry!")]),
    ]
    for message, answers in turns:
        agent = create_agent(replies(*answers), tools=memory_tools(engine), middleware=[memori])
        agent.invoke({"messages": [message]}, USER)
        assert memori.flush(timeout=30)
    homes = [f for f in engine.list("dana") if "lives in" in f.content]
    assert [f.content for f in homes] == [PORTO]
    history = [h for h in engine.history("dana", homes[0].id) if "lives in" in h.content]
    assert [(h.content, h.valid_to is None) for h in history] == [(PORTO, False), (LISBON, False), (PORTO, True)]
    assert history[1].superseded_by == homes[0].id and history[1].valid_to == "2026-11-16T09:05:00+00:00"
    assert [f.content for f in engine.recall("Where do I live?", "dana") if "lives in" in f.content] == [PORTO]


def test_a_home_said_again_ends_the_last_home_of_a_chain_of_replacements() -> None:
    engine = ungated_engine(HashEmbedder())
    capture(engine, "I live in Porto.", "2026-11-02T09:00:00+00:00")
    [porto] = [f.id for f in engine.list("dana")]
    [lisbon] = engine.add("dana", LISBON, supersedes=[porto], created_at="2026-11-10T09:00:00+00:00")
    engine.add("dana", "User lives in Faro.", supersedes=[lisbon], created_at="2026-11-12T09:00:00+00:00")
    capture(engine, "I still live in Porto.", "2026-11-20T09:00:00+00:00")
    assert valid(engine) == [PORTO]


def test_a_fact_said_again_leaves_a_replacement_about_someone_else_or_of_no_single_slot() -> None:
    engine = ungated_engine(HashEmbedder())
    [porto] = engine.add("dana", PORTO, created_at="2026-11-02T09:00:00+00:00")
    engine.add("dana", "User's mother lives in Lisbon.", supersedes=[porto], created_at="2026-11-10T09:00:00+00:00")
    [cat] = engine.add("dana", "User has a cat.", created_at="2026-11-02T09:00:00+00:00")
    engine.add("dana", "User has a dog.", supersedes=[cat], created_at="2026-11-10T09:00:00+00:00")
    capture(engine, "I live in Porto. I have a cat.", "2026-11-20T09:00:00+00:00")
    assert valid(engine) == sorted([PORTO, "User has a cat.", "User has a dog.", "User's mother lives in Lisbon."])


def test_a_turn_captured_late_inside_the_old_facts_period_ends_nothing() -> None:
    engine = ungated_engine(HashEmbedder())
    [porto] = engine.add("dana", PORTO, created_at="2026-11-02T09:00:00+00:00")
    engine.add("dana", LISBON, supersedes=[porto], created_at="2026-11-10T09:00:00+00:00")
    capture(engine, "I live in Porto.", "2026-11-05T09:00:00+00:00")  # said before Lisbon, captured after
    assert valid(engine) == [LISBON]


def test_a_home_said_again_late_comes_back_only_until_the_home_said_after_it() -> None:
    # Porto -> Lisbon -> Faro; "I still live in Porto." said after Lisbon began but captured after Faro: Porto was
    # the home at the turn's time, Faro (said later) is the home now. One home valid, the history in time order.
    engine = ungated_engine(HashEmbedder())
    capture(engine, "I live in Porto.", "2026-11-02T09:00:00+00:00")
    [porto] = [f.id for f in engine.list("dana")]
    [lisbon] = engine.add("dana", LISBON, supersedes=[porto], created_at="2026-11-10T09:00:00+00:00")
    [faro] = engine.add("dana", "User lives in Faro.", supersedes=[lisbon], created_at="2026-11-20T09:00:00+00:00")
    capture(engine, "No wait, I still live in Porto.", "2026-11-15T09:00:00+00:00")  # said before Faro
    assert valid(engine) == ["User lives in Faro."]
    chain = [(h.content, h.valid_since, h.valid_to) for h in engine.history("dana", faro)]
    assert chain == [
        (PORTO, "2026-11-02T09:00:00+00:00", "2026-11-10T09:00:00+00:00"),
        (LISBON, "2026-11-10T09:00:00+00:00", "2026-11-15T09:00:00+00:00"),
        (PORTO, "2026-11-15T09:00:00+00:00", "2026-11-20T09:00:00+00:00"),
        ("User lives in Faro.", "2026-11-20T09:00:00+00:00", None),
    ]
    history = engine.history("dana", faro)
    assert history[1].superseded_by == history[2].id == porto and history[2].superseded_by == faro
    assert [f.content for f in engine.recall("Where do I live?", "dana") if "lives in" in f.content] == [
        "User lives in Faro."]
    then = engine.recall("Where do I live?", "dana", as_of="2026-11-16T09:00:00+00:00")
    assert [f.content for f in then if "lives in" in f.content] == [PORTO]


def test_a_home_said_again_before_a_move_told_ahead_holds_until_the_move() -> None:
    # Porto -> Lisbon, then a move to Faro told ahead (valid from March): "I still live in Porto." ends Lisbon
    # now and holds until the move, which still comes; before, Lisbon and Porto were both valid.
    engine = ungated_engine(HashEmbedder())
    capture(engine, "I live in Porto.", "2026-11-02T09:00:00+00:00")
    [porto] = [f.id for f in engine.list("dana")]
    [lisbon] = engine.add("dana", LISBON, supersedes=[porto], created_at="2026-11-10T09:00:00+00:00")
    [faro] = engine.add("dana", "User lives in Faro.", supersedes=[lisbon], created_at="2026-11-12T09:00:00+00:00",
                        valid_from="2027-03-01T00:00:00+00:00")
    capture(engine, "No wait, I still live in Porto.", "2026-11-20T09:00:00+00:00")
    assert valid(engine) == [PORTO]
    assert [(h.content, h.valid_to) for h in engine.history("dana", faro)][1:] == [
        (LISBON, "2026-11-20T09:00:00+00:00"), (PORTO, "2027-03-01T00:00:00+00:00"), ("User lives in Faro.", None)]
