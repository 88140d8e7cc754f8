"""Review rev39c of the tool / store work (j26): four defects, each checked through the surface a model uses, over
a real in-memory Chroma store (LangGraph's store API, LangChain's ``create_agent`` with its fake chat model, an MCP
client session).

1. A ``MemoriStore`` search read every query as the agent tools' keywords: "thanks" was searched as "my thanks?"
   and got facts (the engine keeps none for a courtesy turn), "My user's password reset" became "My my password
   reset", "where does the user get redirected after login" became "where do I get redirected ...".
2. Any old "User ... moved to ..." was read as "User lives in", so "User lives in Hamburg." ended "User moved to
   Hamburg from Lisbon with Sam." and "User lives in Boston." ended "User moved to the US in 2010.".
3. The restore refusal said after each replaced fact "if it does not hold, forget F", and forget deleted F with every
   fact in its history no longer valid: the second replaced fact, not yet restored, and the history of the fact
   just restored.
4. For a change still to come it said the old fact was "kept as history" and pointed at restore, not cancel.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import anyio
import pytest

from _helpers import tools_told, ungated_engine
from _langchain_fakes import memory_tools_turn, tool_call
from memori_core import RecallEngine
from memori_core.memory_tools import MemoryTools
from memori_core.tool_queries import as_the_user_asks, the_user_in_first_person
from memori_langchain import ChromaStore, MemoriStore

mcp = pytest.importorskip("mcp")
from mcp.shared.memory import create_connected_server_and_client_session  # noqa: E402

from memori_core.mcp_server import build_server  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

_ITEMS = {"job": "User is a backend developer at a SaaS startup.",
          "pw": "User resets their own password every 90 days.", "diet": "User is vegetarian.",
          "city": "User lives in Lisbon.", "py": "User writes Python every day.",
          "login": "User gets redirected to the dashboard after login on their laptop."}


# -- 1. the store's search ----------------------------------------------------------------------------------

@pytest.mark.parametrize("query", ["thanks", "ok", "bye", "Thanks!"])
def test_the_tools_leave_a_courtesy_turn_as_written(query: str) -> None:
    assert as_the_user_asks(query) == query


@pytest.mark.parametrize(("query", "read"), [
    ("My user's password reset isn't working", "My user's password reset isn't working"),
    ("where does the user get redirected after login", "where does the user get redirected after login"),
    ("python decorators", "python decorators"),
    ("where does the user live", "where do I live"),
    ("the user's diet", "my diet"),
    ("is the user vegetarian?", "am I vegetarian?"),
    # issue 20 #4: an adverb between "the user" and its verb, and "did"
    ("does the user still smoke", "do I still smoke"),
    ("did the user already pay", "did I already pay"),
    ("is the user logged in", "am I logged in"),
    ("does the user see an error after submitting", "does the user see an error after submitting"),
    # rev41b #6: a user spoken of beside "me" or "their", and an app's, its email's or its account's user
    ("did the user tell me their name", "did the user tell me their name"),
    ("did the user verify their email", "did the user verify their email"),
    ("does the user exist", "does the user exist"),
    ("did the user rate the app", "did the user rate the app"),
    ("the user's email address", "my email address"),
])
def test_the_store_reads_only_the_memorys_user_in_the_first_person(query: str, read: str) -> None:
    assert the_user_in_first_person(query) == read


def test_someones_user_is_not_read_as_the_memorys_user_by_the_tools() -> None:
    assert as_the_user_asks("My user's password reset isn't working") == "My user's password reset isn't working"


@pytest.mark.parametrize("query", ["thanks", "ok", "My user's password reset isn't working",
                                   "where does the user get redirected after login", "python decorators"])
def test_a_store_search_is_the_engines_recall_of_the_query(hash_embedder, query: str) -> None:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder)
    store = MemoriStore(engine, namespace=("memories", "{user_id}"), fields=["content"])
    ns = ("memories", "alice")
    for key, text in _ITEMS.items():
        store.put(ns, key, {"content": text})
    by_text = {text: key for key, text in _ITEMS.items()}

    found = [item.key for item in store.search(ns, query=query, limit=5)]

    assert found == [by_text[f.content] for f in engine.recall(query, "alice", 5)]


def test_a_store_search_for_thanks_returns_nothing(hash_embedder) -> None:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder)
    store = MemoriStore(engine, namespace=("memories", "{user_id}"), fields=["content"])
    for key, text in _ITEMS.items():
        store.put(("memories", "alice"), key, {"content": text})
    assert store.search(("memories", "alice"), query="thanks") == []


# -- 2. an old move read as a home --------------------------------------------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    ("User moved to Hamburg from Lisbon with Sam.", "User lives in Hamburg."),
    ("User recently moved to a new flat in Hamburg.", "User lives in Hamburg."),
    ("User moved to the US in 2010.", "User lives in Boston."),
    ("User moved to Berlin for the summer.", "User lives in Hamburg."),
    ("User has moved to Lisbon for a six-month secondment.", "User lives in Hamburg."),
])
def test_a_move_that_says_more_than_the_place_is_not_ended_by_a_home(hash_embedder, old: str, new: str) -> None:
    tools, said = tools_told(hash_embedder, old, new)
    assert "replaces" not in said
    assert sorted(f.content for f in tools.engine.list("u")) == sorted([old, new])


def test_a_plain_move_is_still_ended_by_a_home_elsewhere(hash_embedder) -> None:
    tools, _ = tools_told(hash_embedder, "User moved to Lisbon.", "User lives in Hamburg.")
    assert [f.content for f in tools.engine.list("u")] == ["User lives in Hamburg."]


# -- 3. the restore refusal's forget advice, and what forget deletes after a restore -------------------------


def test_the_refusal_gives_the_forget_advice_once_after_every_restore(hash_embedder) -> None:
    engine = ungated_engine(hash_embedder)
    engine.add("dana", ["User lives in Lisbon."])
    engine.add("dana", ["User works at a bakery in Lisbon."])
    ids = {f.content: f.id for f in engine.list("dana")}
    engine.add("dana", ["User lives in Porto."], supersedes=list(ids.values()))  # one fact replacing two
    porto = engine.list("dana")[0].id

    refused = memory_tools_turn(engine, "dana", "No, undo that.", tool_call("restore_memory", fact_id=porto))

    assert refused.count("forget_memory") == 1
    assert refused.index("forget_memory") > max(refused.index(f"fact_id {i!r}") for i in ids.values())
    assert "Restore every replaced fact that still holds first" in refused
    # followed as told (both restored, then the forget), nothing the user still holds is lost
    memory_tools_turn(engine, "dana", "Yes.", *(tool_call("restore_memory", fact_id=i) for i in ids.values()),
                      tool_call("forget_memory", fact_id=porto))
    assert sorted(f.content for f in engine.list("dana")) == sorted(ids)


def test_forget_after_a_restore_keeps_the_restored_facts_history(hash_embedder) -> None:
    engine = ungated_engine(hash_embedder)
    tools = MemoryTools(engine)
    for text in ("User lives in Lisbon.", "User lives with Sam in Lisbon.", "User lives in Porto."):
        tools.remember("dana", text)
    porto = engine.list("dana")[0].id
    sam = next(f.id for f in engine.history("dana", porto) if "Sam" in f.content and "@" not in f.id)
    tools.restore("dana", sam)

    assert tools.forget("dana", porto) == f"Forgot fact {porto}."
    assert [f.content for f in engine.history("dana", sam) if "@" not in f.id] == [
        "User lives in Lisbon.", "User lives with Sam in Lisbon."]


def test_mcp_restore_refusal_names_delete_once_after_the_restores(hash_embedder) -> None:
    engine = ungated_engine(hash_embedder)
    engine.add("fern", ["User lives in Berlin."])
    engine.add("fern", ["User works at a bakery in Berlin."])
    old = [f.id for f in engine.list("fern")]
    engine.add("fern", ["User lives in Hamburg."], supersedes=old)
    hamburg = engine.list("fern")[0].id

    async def run() -> str:
        async with create_connected_server_and_client_session(build_server(engine, entity="fern")) as session:
            result = await session.call_tool("restore", {"fact_id": hamburg})
            assert result.isError
            return result.content[0].text

    refused = anyio.run(run)
    assert refused.count("call delete") == 1
    assert refused.index("call delete") > max(refused.index(f"call restore with fact_id {i!r}") for i in old)


# -- 4. a change still to come ------------------------------------------------------------------------------

def test_restore_of_a_change_to_come_points_to_cancel_not_restore(hash_embedder) -> None:
    engine = ungated_engine(hash_embedder)
    tools = MemoryTools(engine)
    tools.remember("dana", "User works at Bosch.")
    day = (datetime.now(timezone.utc) + timedelta(days=20)).strftime("%B %-d")
    tools.remember("dana", f"User is starting a new job at Siemens on {day}.")
    siemens = next(r["id"] for r in engine.export("dana") if r.get("content", r.get("text")) == "User works at Siemens.")

    refused = memory_tools_turn(engine, "dana", "Undo that.", tool_call("restore_memory", fact_id=siemens))

    assert "It is to replace fact" in refused and "User works at Bosch." in refused
    assert f"call cancel_plan with fact_id {siemens!r}" in refused
    assert "kept as history" not in refused and "restore_memory" not in refused
