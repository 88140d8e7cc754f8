"""A model's plain statement of the user's home ends the home a move told as done: "User moved to Hamburg." then
"User lives in Munich." Before, the tools (and MCP ``add``) compared how the two were said ("user moved to" against
"user lives in") and kept both valid, so every question about home showed two cities; capture already ended the
move (j26, finding 3). Through LangChain's ``create_agent`` driven by its fake chat model and an MCP client session,
over a real in-memory Chroma store."""

from __future__ import annotations

import anyio
import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage

from _helpers import ungated_engine
from _langchain_fakes import replies
from memori_langchain import memory_tools

pytest.importorskip("mcp")
from mcp.shared.memory import create_connected_server_and_client_session  # noqa: E402

from memori_core.mcp_server import build_server  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _remember(engine, text: str) -> str:
    call = AIMessage("", tool_calls=[{"name": "remember", "args": {"text": text}, "id": "r1", "type": "tool_call"}])
    agent = create_agent(replies(call, AIMessage("Noted.")), tools=memory_tools(engine))
    out = agent.invoke({"messages": [HumanMessage(text)]}, {"configurable": {"entity_id": "fern"}})
    return [m for m in out["messages"] if m.type == "tool"][-1].text


@pytest.mark.parametrize("move", ["User moved to Hamburg.", "User has moved to Hamburg.",
                                  "User just moved from Berlin to Hamburg."])
def test_remember_of_a_plain_home_ends_the_home_a_move_told(hash_embedder, move: str) -> None:
    engine = ungated_engine(hash_embedder)
    _remember(engine, move)
    moved = engine.list("fern")[0]
    said = _remember(engine, "User lives in Munich.")
    assert f"It replaces fact {moved.id}" in said
    assert [f.content for f in engine.list("fern")] == ["User lives in Munich."]
    assert [h.content for h in engine.history("fern", moved.id)][0] == moved.content  # kept as history


@pytest.mark.parametrize("move", ["User's sister moved to Hamburg.", "User moved in with Sam."])
def test_a_move_of_someone_else_or_in_with_someone_is_not_ended_by_the_users_home(hash_embedder, move: str) -> None:
    engine = ungated_engine(hash_embedder)
    _remember(engine, move)
    _remember(engine, "User lives in Munich.")
    assert sorted(f.content for f in engine.list("fern")) == sorted(["User lives in Munich.", move])


def test_mcp_add_of_a_plain_home_lists_the_move_it_replaced(hash_embedder) -> None:
    engine = ungated_engine(hash_embedder)

    async def run() -> dict:
        async with create_connected_server_and_client_session(build_server(engine, entity="fern")) as session:
            await session.call_tool("add", {"facts": ["User lives in Berlin."]})
            await session.call_tool("add", {"facts": ["User moved to Hamburg."]})
            return (await session.call_tool("add", {"facts": ["User lives in Munich."]})).structuredContent

    added = anyio.run(run)
    assert [r["text"] for r in added["replaced"]] == ["User moved to Hamburg."]
    assert [f.content for f in engine.list("fern")] == ["User lives in Munich."]
