"""A model that undoes a wrong replacement calls ``restore`` with the id it sees, the new fact's (``recall_memory``
and MCP ``recall`` list only valid facts). Before, the refusal said only "is valid: there is nothing to restore" (and
the LangChain tool pointed at an earlier version with the same text, which is refused too), so the model had no way
back to the fact it ended (j26, finding 1). Now the refusal names each fact the valid one replaced, with the call
that undoes it. Through LangChain's ``create_agent`` driven by its fake chat model and an MCP client session, over a
real in-memory Chroma store."""

from __future__ import annotations

import anyio
import pytest

from _helpers import ungated_engine
from _langchain_fakes import memory_tools_turn, tool_call

mcp = pytest.importorskip("mcp")
from mcp.shared.memory import create_connected_server_and_client_session  # noqa: E402

from memori_core.mcp_server import build_server  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_restore_memory_of_the_fact_that_replaced_another_names_the_replaced_fact_and_how_to_undo(
        hash_embedder) -> None:
    engine = ungated_engine(hash_embedder)
    memory_tools_turn(engine, "dana", "I live in Porto.", tool_call("remember", text="User lives in Porto."))
    porto = engine.list("dana")[0]
    said = memory_tools_turn(engine, "dana", "I'm in Lisbon this weekend.",
                             tool_call("remember", text="User lives in Lisbon."))
    assert f"It replaces fact {porto.id}" in said
    lisbon = next(f for f in engine.list("dana") if "Lisbon" in f.content)

    refused = memory_tools_turn(engine, "dana", "No, I still live in Porto.",
                                tool_call("restore_memory", fact_id=lisbon.id))

    assert f"It replaced fact {porto.id}" in refused and "User lives in Porto." in refused
    assert f"call restore_memory with fact_id {porto.id!r}" in refused
    assert f"call forget_memory with fact_id {lisbon.id!r}" in refused
    assert "@v" not in refused  # no earlier version to point at: the fact's text never changed
    # following the answer undoes the replacement
    memory_tools_turn(engine, "dana", "Yes, undo it.", tool_call("restore_memory", fact_id=porto.id),
                      tool_call("forget_memory", fact_id=lisbon.id))
    assert [f.content for f in engine.list("dana")] == ["User lives in Porto."]


def test_restore_memory_points_only_at_earlier_versions_whose_text_differs(hash_embedder) -> None:
    engine = ungated_engine(hash_embedder)
    # Lisbon, then Porto, then Lisbon again: the Lisbon fact is valid again, its earlier version has the same text
    for city in ("Lisbon", "Porto", "Lisbon"):
        memory_tools_turn(engine, "dana", f"I live in {city}.", tool_call("remember", text=f"User lives in {city}."))
    lisbon = next(f for f in engine.list("dana") if "Lisbon" in f.content)
    refused = memory_tools_turn(engine, "dana", "Undo that.", tool_call("restore_memory", fact_id=lisbon.id))
    assert "@v" not in refused and "It replaced fact" in refused and "User lives in Porto." in refused

    memory_tools_turn(engine, "dana", "I play the cello.", tool_call("remember", text="User plays the cello."))
    fid = next(f.id for f in engine.list("dana") if "cello" in f.content)
    memory_tools_turn(engine, "dana", "Viola, not cello.",
                      tool_call("update_memory", fact_id=fid, text="User plays the viola."))
    refused = memory_tools_turn(engine, "dana", "Undo that.", tool_call("restore_memory", fact_id=fid))
    assert f"restore its earlier version: '{fid}@v1'" in refused and "It replaced fact" not in refused


def test_mcp_restore_of_the_fact_that_replaced_another_names_it_and_the_delete_call(hash_embedder) -> None:
    engine = ungated_engine(hash_embedder)

    async def run() -> tuple[dict, str]:
        async with create_connected_server_and_client_session(build_server(engine, entity="fern")) as session:
            await session.call_tool("add", {"facts": ["User lives in Berlin."]})
            added = (await session.call_tool("add", {"facts": ["User lives in Hamburg."]})).structuredContent
            result = await session.call_tool("restore", {"fact_id": added["ids"][0]})
            assert result.isError
            return added, result.content[0].text

    added, refused = anyio.run(run)
    (berlin,) = added["replaced"]
    new = added["ids"][0]
    assert f"It replaced fact {berlin['id']}" in refused and "User lives in Berlin." in refused
    assert f"call restore with fact_id {berlin['id']!r}" in refused
    assert f"call delete with ids [{new!r}]" in refused
