"""What a tester's eight dated weeks with a LangGraph ``create_agent`` and memori's middleware showed (j17): the
capture rows are in ``tests/cases/langgraph_agent_weeks.toml``; the agent surface is tested here."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage

from _helpers import ungated_engine
from _langchain_fakes import replies
from memori_langchain import MemoriMiddleware, memory_tools

_SAID = "2026-11-12T12:00:00-05:00"


def _remember(text: str) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": "remember", "args": {"text": text}, "id": "c1", "type": "tool_call"}])


def _turn(engine, middleware, text: str, said_at: str | None, *answers: AIMessage) -> None:
    agent = create_agent(replies(*answers), tools=memory_tools(engine), middleware=[middleware])
    kwargs = {"created_at": said_at} if said_at is not None else {}
    agent.invoke({"messages": [HumanMessage(text, additional_kwargs=kwargs)]},
                 {"configurable": {"entity_id": "val"}})
    assert middleware.flush(timeout=30)


def test_a_remember_inside_a_dated_turn_is_dated_by_the_turn_as_capture_dates_it() -> None:
    engine = ungated_engine()
    middleware = MemoriMiddleware(engine=engine, capture=True)
    _turn(engine, middleware, "I've been seeing someone, her name is Camille.", _SAID, AIMessage("Nice."))
    _turn(engine, middleware, "Oh and Camille is allergic to nuts.", _SAID,
          _remember("User's girlfriend Camille is allergic to nuts."), AIMessage("Noted."))
    said = datetime.fromisoformat(_SAID)
    dated = {f.content: datetime.fromisoformat(f.created_at) for f in engine.list("val")}
    assert dated["User's girlfriend Camille is allergic to nuts."] == said
    assert set(dated.values()) == {said}  # capture's facts of the same turns carry the same time


def test_a_remember_in_a_turn_without_a_time_or_dated_ahead_is_dated_now() -> None:
    engine = ungated_engine()
    middleware = MemoriMiddleware(engine=engine, capture=False)
    ahead = (datetime.now(timezone.utc) + timedelta(days=3)).isoformat()
    before = datetime.now(timezone.utc)
    _turn(engine, middleware, "Remember that I'm vegan.", None, _remember("User is vegan."), AIMessage("Noted."))
    _turn(engine, middleware, "Remember my cat is Pisco.", ahead, _remember("User has a cat called Pisco."),
          AIMessage("Noted."))
    after = datetime.now(timezone.utc)
    stored = [datetime.fromisoformat(f.created_at) for f in engine.list("val")]
    assert len(stored) == 2 and all(before <= when <= after for when in stored)
