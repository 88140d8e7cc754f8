"""``MemoriToolSpec``: LlamaIndex tools in a real ``ReActAgent`` (scripted through ``_llamaindex_fakes.FixedLLM``;
LlamaIndex ships no scripted LLM) and called as an agent calls them, over a real in-memory Chroma store."""

from __future__ import annotations

import json
from typing import Any

import pytest
from llama_index.core.agent.workflow import ReActAgent

from _helpers import stored, ungated_engine
from _llamaindex_fakes import FixedLLM
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.memory_tools import MAX_TOOL_TEXT, NOTHING_RELEVANT, MemoryToolError
from memori_llamaindex import MemoriToolSpec

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def act(tool: str, **args: Any) -> str:
    return f"Thought: I need a tool.\nAction: {tool}\nAction Input: {json.dumps(args)}"


def answer(text: str) -> str:
    return f"Thought: I can answer without using any more tools.\nAnswer: {text}"


@pytest.fixture
def tools_engine(hash_embedder) -> RecallEngine:
    return ungated_engine(hash_embedder)


def tools_of(engine: RecallEngine, entity: str, **kwargs: Any) -> dict[str, Any]:
    return {t.metadata.name: t for t in MemoriToolSpec(engine, entity, **kwargs).to_tool_list()}


async def test_react_agent_remembers_then_recalls_in_a_later_run(tools_engine):
    llm = FixedLLM(script=[
        act("remember", text="User is allergic to peanuts."), answer("Noted."),
        act("recall_memory", query="what am I allergic to"), answer("Peanuts."),
    ])
    agent = ReActAgent(llm=llm, tools=MemoriToolSpec(tools_engine, "ann").to_tool_list())
    first = await agent.run("I'm allergic to peanuts.")
    assert str(first) == "Noted."
    assert stored(tools_engine, "ann") == ["User is allergic to peanuts."]
    second = await agent.run("What am I allergic to?")
    assert str(second) == "Peanuts."
    (calls,) = second.tool_calls
    fid = tools_engine.list("ann")[0].id
    assert f"[{fid}] User is allergic to peanuts." in calls.tool_output.content
    assert f"[{fid}] User is allergic to peanuts." in llm.prompts[-1]  # the model read the tool's answer


async def test_react_agent_tool_call_naming_another_entity_is_an_error_the_model_reads(tools_engine):
    (bobs,) = tools_engine.add("bob", ["User is vegetarian."])
    llm = FixedLLM(script=[
        act("remember", text="User eats meat.", entity_id="bob"),
        act("forget_memory", fact_id=bobs),
        answer("I cannot."),
    ])
    agent = ReActAgent(llm=llm, tools=MemoriToolSpec(tools_engine, "ann").to_tool_list())
    result = await agent.run("change bob's memory")
    remember, forget = result.tool_calls
    assert remember.tool_output.is_error and "set by the application" in remember.tool_output.content
    assert forget.tool_output.is_error and f"no remembered fact with id {bobs!r}" in forget.tool_output.content
    assert stored(tools_engine, "bob") == ["User is vegetarian."]
    assert tools_engine.count("ann") == 0


def test_two_users_with_lookalike_ids_never_see_each_other(tools_engine):
    for entity, fact in (("user-1", "peanuts"), ("user-1.0", "shellfish"), ("User-1", "cats")):
        tools_of(tools_engine, entity)["remember"].call(text=f"User is allergic to {fact}.")
    for entity, fact in (("user-1", "peanuts"), ("user-1.0", "shellfish"), ("User-1", "cats")):
        out = tools_of(tools_engine, entity)["recall_memory"].call(query="what am I allergic to").content
        assert fact in out and sum(w in out for w in ("peanuts", "shellfish", "cats")) == 1, (entity, out)


def test_update_and_forget_by_id(tools_engine):
    (fid,) = tools_engine.add("ann", ["User lives in Lyon."])
    tools = tools_of(tools_engine, "ann")
    assert tools["update_memory"].call(fact_id=fid, text="User lives in Paris.").content == \
        f"Updated fact {fid}: User lives in Paris."
    assert stored(tools_engine, "ann") == ["User lives in Paris."]
    assert tools["forget_memory"].call(fact_id=fid).content == f"Forgot fact {fid} and 1 earlier version of it."
    assert tools_engine.count("ann", include_invalid=True) == 0


async def test_react_agent_updating_a_replaced_fact_reads_which_fact_holds_now(tools_engine):
    # Tester j11 (finding 6): "Updated fact ..." while the text went to history and recall kept the replacement.
    tools = tools_of(tools_engine, "ann")
    tools["remember"].call(text="User lives in Berlin.")
    tools["remember"].call(text="User moved to Munich.")
    [munich] = tools_engine.list("ann")
    [berlin] = [f.id for f in tools_engine.list("ann", include_invalid=True) if f.id != munich.id]
    before = tools_engine.export("ann")
    llm = FixedLLM(script=[act("update_memory", fact_id=berlin, text="User lives in Hamburg."), answer("Sorry.")])
    result = await ReActAgent(llm=llm, tools=MemoriToolSpec(tools_engine, "ann").to_tool_list()).run("I'm in Hamburg")
    (update,) = result.tool_calls
    assert update.tool_output.is_error
    said = update.tool_output.content
    assert f"fact_id '{berlin}' is no longer valid: fact {munich.id} replaced it on " in said
    assert f"call update_memory with fact_id '{munich.id}'" in said and "Nothing was updated" in said
    assert said in llm.prompts[-1]  # the model read it
    assert tools_engine.export("ann") == before


def test_recall_says_plainly_when_nothing_passes_the_gate(hash_embedder):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder, config=RecallConfig())
    engine.add("ann", ["User is allergic to peanuts."])
    assert tools_of(engine, "ann")["recall_memory"].call(query="quantum chromodynamics lattice").content \
        == NOTHING_RELEVANT


@pytest.mark.parametrize(("name", "args", "expected"), [
    ("remember", {"text": " "}, "text must not be blank"),
    ("remember", {"text": "x" * (MAX_TOOL_TEXT + 1)}, f"over the limit of {MAX_TOOL_TEXT}, so nothing was done"),
    ("remember", {"text": "User likes tea.", "user_id": "bob"}, "set by the application"),
    ("update_memory", {"fact_id": "nope", "text": "User likes tea."}, "no remembered fact with id 'nope'"),
    ("forget_memory", {"fact_id": ""}, "fact_id must be the non-blank id"),
    ("update_memory", {"fact_id": "x@v1", "text": "User likes tea."}, "'x@v1' is an earlier version of fact 'x'"),
    ("forget_memory", {"fact_id": "x@v2"}, "'x@v2' is an earlier version of fact 'x'"),
])
async def test_bad_input_raises_a_clear_error_and_nothing_is_lost(tools_engine, name, args, expected):
    tools_engine.add("ann", ["User likes coffee."])
    tool = tools_of(tools_engine, "ann")[name]
    with pytest.raises(MemoryToolError) as raised:
        tool.call(**args)
    assert expected in str(raised.value)
    with pytest.raises(MemoryToolError):
        await tool.acall(**args)
    assert stored(tools_engine, "ann") == ["User likes coffee."]


def test_the_spec_needs_an_entity(tools_engine):
    with pytest.raises(ValueError, match="MemoriToolSpec needs entity_id"):
        MemoriToolSpec(tools_engine, None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="non-empty"):
        MemoriToolSpec(tools_engine, "  ")


async def test_a_react_agent_remembers_dated_by_the_turn_the_app_set_and_the_model_cannot_date_it(tools_engine):
    # The tools see no turn: the app says when the turn being answered was said (an imported chat), as capture
    # dates the same turn's facts; a said_at the model sends is an argument the tool does not take.
    spec = MemoriToolSpec(tools_engine, "ann")
    spec.said_at = "2026-03-01T18:30:00+01:00"
    llm = FixedLLM(script=[
        act("remember", text="User is allergic to peanuts."), answer("Noted."),
        act("remember", text="User likes jazz.", said_at="2020-01-01T00:00:00+00:00"), answer("Noted."),
    ])
    agent = ReActAgent(llm=llm, tools=spec.to_tool_list())
    await agent.run("I'm allergic to peanuts.")
    spec.said_at = None
    second = await agent.run("I like jazz.")
    (fact,) = tools_engine.list("ann")
    assert (fact.content, fact.created_at) == ("User is allergic to peanuts.", "2026-03-01T17:30:00+00:00")
    (call,) = second.tool_calls
    assert call.tool_output.is_error and "said_at" in call.tool_output.content
    with pytest.raises(ValueError, match="MemoriToolSpec.said_at"):
        spec.said_at = "not a time"


async def test_a_react_agents_update_forget_and_restore_are_dated_by_the_turn_the_app_set(tools_engine):
    # As remember is: an imported chat's edits happen when its turns were said, not when the app replays them.
    (home,) = tools_engine.add("ann", ["User lives in Lisbon."], created_at="2026-01-01T00:00:00+00:00")
    (plan,) = tools_engine.add("ann", ["User plays chess on Tuesdays."], created_at="2026-01-01T00:00:00+00:00")
    spec = MemoriToolSpec(tools_engine, "ann")
    spec.said_at = "2026-03-01T18:30:00+01:00"
    agent = ReActAgent(llm=FixedLLM(script=[act("update_memory", fact_id=home, text="User lives in Porto."),
                                            answer("Updated.")]), tools=spec.to_tool_list())
    await agent.run("I moved to Porto.")
    old, new = tools_engine.history("ann", home)
    assert (new.content, new.valid_from, old.valid_to) == (
        "User lives in Porto.", "2026-03-01T17:30:00+00:00", "2026-03-01T17:30:00+00:00")
    spec.said_at = "2026-03-02T09:00:00+00:00"
    agent = ReActAgent(llm=FixedLLM(script=[act("restore_memory", fact_id=old.id), answer("Restored.")]),
                       tools=spec.to_tool_list())
    await agent.run("Sorry, I still live in Lisbon.")
    assert "2026-03-02T09:00:00+00:00" in [f.restored_at for f in tools_engine.history("ann", home)
                                           if f.content == "User lives in Lisbon."]
    spec.said_at = "2025-12-01T00:00:00+00:00"  # before the fact was stated: refused, nothing deleted
    agent = ReActAgent(llm=FixedLLM(script=[act("forget_memory", fact_id=plan), answer("Done.")]),
                       tools=spec.to_tool_list())
    second = await agent.run("Forget the chess.")
    (call,) = second.tool_calls
    assert call.tool_output.is_error and "nothing was deleted" in call.tool_output.content
    assert "User plays chess on Tuesdays." in stored(tools_engine, "ann")
