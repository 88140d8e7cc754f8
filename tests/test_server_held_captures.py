"""A real ``chroma run`` killed (SIGKILL) in the middle of a chat and started again over its data (tester j10,
finding 10): the turn a ``create_agent`` with ``MemoriMiddleware(capture=True)`` answered while the server was
down ("Sam and I broke up.") is stored once the server is back, once, dated when it was said, and ends the fact
it changes, as it would have had the server been up. LangChain's own fake chat model; the breaker's clock is
moved by the test."""

from __future__ import annotations

import os
import uuid
from datetime import datetime, timezone
from pathlib import Path

import pytest
from langchain.agents import create_agent
from langchain_core.messages import HumanMessage

from _helpers import Clock, HashEmbedder, running_chroma_server, ungated_engine
from _langchain_fakes import RecordingChatModel, system_text
from memori_core import ChromaStore
from memori_core.failopen import OutageBreaker
from memori_langchain import MemoriMiddleware

pytestmark = [pytest.mark.server, pytest.mark.skipif(os.name != "posix", reason="needs SIGKILL")]

WAIT = 60.0
ANA = {"configurable": {"entity_id": "ana", "thread_id": "chat-1"}}


def _said(text: str, at: str) -> dict[str, list[HumanMessage]]:
    return {"messages": [HumanMessage(text, additional_kwargs={"created_at": at})]}


def test_a_breakup_told_while_the_server_was_killed_is_stored_once_after_its_restart(tmp_path: Path) -> None:
    clock, collection = Clock(1000.0), f"t_{uuid.uuid4().hex}"
    model = RecordingChatModel(messages=iter(["Noted."] * 10))
    with running_chroma_server(tmp_path) as (host, port, proc):
        engine = ungated_engine(HashEmbedder(), store=ChromaStore.http(host=host, port=port, collection=collection,
                                                                        timeout=1.0))
        engine.outage = OutageBreaker(10.0, clock=clock)
        memori = MemoriMiddleware(engine=engine, capture=True)
        agent = create_agent(model, tools=[], middleware=[memori])
        agent.invoke(_said("My partner is called Sam.", "2026-11-01T09:00:00+00:00"), ANA)
        assert memori.flush(WAIT).completed == 1
        proc.kill()
        proc.wait()
        agent.invoke(_said("Sam and I broke up.", "2026-11-02T21:30:00+00:00"), ANA)  # answered without memory
        down = memori.flush(WAIT)
        assert (down.completed, down.failed, down.held) == (0, 0, 1)
    with running_chroma_server(tmp_path, port=port):  # the same data folder and port
        clock.advance(10)
        agent.invoke(_said("Should I call my partner tonight?", "2026-11-03T18:00:00+00:00"), ANA)
        assert memori.flush(WAIT).completed == 2 and memori.capture_stats.held == 0
        agent.invoke(_said("Who is my partner?", "2026-11-03T18:05:00+00:00"), ANA)
        assert "User and Sam broke up." in system_text(model.calls[-1])
        assert "partner is called Sam" not in system_text(model.calls[-1])
        reader = ungated_engine(HashEmbedder(), store=ChromaStore.http(host=host, port=port, collection=collection))
        facts = reader.list("ana", include_invalid=True)
        assert sorted(f.content for f in facts) == ["User and Sam broke up.", "User's partner is called Sam."]
        breakup = next(f for f in facts if f.content == "User and Sam broke up.")
        partner = next(f for f in facts if f.content != breakup.content)
        assert partner.superseded_by == breakup.id and breakup.times_seen == 1
        assert datetime.fromisoformat(breakup.created_at) == datetime(2026, 11, 2, 21, 30, tzinfo=timezone.utc)
        assert [f.content for f in reader.list("ana")] == ["User and Sam broke up."]
