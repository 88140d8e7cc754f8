"""A plan a model stores through a tool (MCP ``add``, the agents' ``remember``) is dated as capture dates the plan it
keeps: its day written out and an expiry when that day (and a stay after it) is over (tester j22, A9: "User is
flying to Tokyo on 2026-10-20 for a week." stored through MCP ``add`` had no expiry and stayed a current plan for
ever). A plain fact gets none. Real in-memory Chroma, the real ``mcp`` client, LangChain's ``create_agent``."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage
from mcp.shared.memory import create_connected_server_and_client_session

from _faults import Faults
from _helpers import ungated_engine
from _langchain_fakes import replies
from memori_core.extraction.rules import judge_sentence
from memori_core.mcp_server import build_server
from memori_core.memory_tools import MemoryTools
from memori_core.tool_writes import ToolWrite, stored_by, stored_together
from memori_langchain import memory_tools

TOLD = datetime(2026, 10, 5, 9, tzinfo=timezone.utc)
TOKYO = "User is flying to Tokyo on 2026-10-20 for a week."


async def test_a_plan_added_through_mcp_expires_when_capture_would_expire_it_and_a_plain_fact_never(hash_embedder):
    engine = ungated_engine(hash_embedder)
    async with create_connected_server_and_client_session(build_server(engine, entity="ann")) as session:
        await session.call_tool("add", {"facts": [TOKYO, "User lives in Berlin."], "said_at": TOLD.isoformat()})
        listed = (await session.call_tool("list", {})).structuredContent["facts"]
    expiry = {f["text"]: f["expires_at"] for f in listed}
    said = judge_sentence("I'm flying to Tokyo on 2026-10-20 for a week.", 2000, now=TOLD)  # what capture keeps
    assert said.fact == "User is flying to Tokyo on Tuesday 2026-10-20 for a week." and said.expires_in is not None
    assert datetime.fromisoformat(expiry[said.fact]) == TOLD + said.expires_in  # the same day, the same end
    assert expiry["User lives in Berlin."] is None
    trips = [f.content for f in engine.recall("When do I fly to Tokyo?", "ann", as_of=TOLD + timedelta(days=30))]
    assert not any("Tokyo" in t for t in trips)  # the trip is over: no longer a current plan
    soon = engine.recall("When do I fly to Tokyo?", "ann", as_of=TOLD + timedelta(days=1))
    assert any("Tokyo" in f.content for f in soon)


def test_a_plan_remembered_by_a_langchain_agent_names_its_day_and_expires_after_it(hash_embedder):
    engine = ungated_engine(hash_embedder)
    model = replies(
        AIMessage("", tool_calls=[{"name": "remember", "args": {"text": "User is going to Denver next month for a "
                                                                         "conference."},
                                   "id": "c1", "type": "tool_call"}]),
        AIMessage("", tool_calls=[{"name": "remember", "args": {"text": "User works as a nurse."}, "id": "c2",
                                   "type": "tool_call"}]),
        AIMessage("Noted."))
    turn = HumanMessage("I'm going to Denver next month for a conference. I'm a nurse.",
                        additional_kwargs={"created_at": TOLD.isoformat()})
    create_agent(model, memory_tools(engine)).invoke({"messages": [turn]}, config={"configurable": {"entity_id": "ann"}})
    stored = {f.content: f.expires_at for f in engine.list("ann")}
    assert stored == {"User is going to Denver in November 2026 for a conference.": "2026-12-01T12:00:00+00:00",
                      "User works as a nurse.": None}


def test_update_memory_of_a_plan_dates_the_new_day_and_moves_its_expiry_and_a_plain_text_keeps_it(hash_embedder):
    # before: the new text kept "on Sunday" undated and Friday's expiry, so the moved trip left recall before it
    engine = ungated_engine(hash_embedder)
    fly_on = (datetime.now(timezone.utc) + timedelta(days=20)).date()
    later = fly_on + timedelta(days=3)
    ops = MemoryTools(engine)
    [trip] = engine.add("ann", [f"User is flying to Tokyo on {fly_on.isoformat()}."],
                        expires_at=datetime.combine(fly_on, datetime.min.time(), timezone.utc) + timedelta(days=1))
    ops.update("ann", trip, f"User is flying to Tokyo on {later.isoformat()}.")
    [moved] = engine.get("ann", [trip])
    assert moved.content == f"User is flying to Tokyo on {later.strftime('%A')} {later.isoformat()}."
    assert datetime.fromisoformat(moved.expires_at).date() > later
    # a typo fixed in a stay of three days (no day in the text) keeps the stay's expiry (reviewer rev37c: it was
    # cleared, so the stay became permanent)
    ends = datetime.now(timezone.utc) + timedelta(days=3)
    [stay] = engine.add("ann", ["User is staying at the Hilton on Main Street."], expires_at=ends)
    ops.update("ann", stay, "User is staying at the Hilton on Main St.")
    [fixed] = engine.get("ann", [stay])
    assert fixed.content == "User is staying at the Hilton on Main St."
    assert datetime.fromisoformat(fixed.expires_at) == datetime.fromisoformat(engine.get("ann", [f"{stay}@v1"])[0].expires_at)


async def test_mcp_update_of_a_plan_is_dated_at_said_at_as_add_dates_it(hash_embedder):
    engine = ungated_engine(hash_embedder)
    [trip] = engine.add("ann", ["User is flying to Tokyo on 2026-10-12."], created_at=TOLD,
                        expires_at=datetime(2026, 10, 13, tzinfo=timezone.utc))
    async with create_connected_server_and_client_session(build_server(engine, entity="ann")) as session:
        updated = (await session.call_tool("update", {"fact_id": trip, "text": TOKYO,
                                                      "said_at": TOLD.isoformat()})).structuredContent["fact"]
    said = judge_sentence("I'm flying to Tokyo on 2026-10-20 for a week.", 2000, now=TOLD)
    assert updated["text"] == said.fact
    assert datetime.fromisoformat(updated["expires_at"]) == TOLD + said.expires_in


def test_a_dated_plan_remembered_in_an_earlier_turn_is_confirmed_by_its_read_back_after_a_store_error(hash_embedder):
    # before: the read-back dated the text at now ("as of" today) and missed the fact stored as of the turn
    engine = ungated_engine(hash_embedder)
    Faults(engine.store).arm("upsert", "after", times=1)
    said = datetime.now(timezone.utc) - timedelta(days=5)
    answer = MemoryTools(engine).remember("ann", "User is flying to Tokyo next Friday.", said_at=said)
    [stored] = engine.list("ann")
    assert answer.startswith(f"Remembered as fact {stored.id}: {stored.content} (confirmed by reading it back")


def test_stored_together_gives_each_plan_the_expiry_stored_by_gives_it_and_none_when_none_expires():
    trip = ToolWrite("User is flying to Tokyo on Tuesday 2026-10-20.", False, expires_at=TOLD + timedelta(days=16))
    home = ToolWrite("User lives in Berlin.", False)
    assert stored_together([home, trip]) == {"facts": [home.text, trip.text], "core": [False, False],
                                             "expires_at": [None, stored_by(trip)["expires_at"][0]]}
    assert "expires_at" not in stored_together([home])
