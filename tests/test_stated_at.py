"""When a fact's current text was stated: an update or a fact said again after a supersede makes its text valid
later than its ``created_at`` (``valid_from``), and the ``<memori_context>`` block, the recall tool, explain, the
adapters' documents and nodes and the CLI show that time, not when the first text was stored. A restore makes a
fact valid again without the text being said again: it keeps its time."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.schema import MetadataMode

from _helpers import HashEmbedder, ungated_engine
from _langchain_fakes import replies
from memori_core import ChromaStore, RecallConfig, RecallEngine, RecalledFact, format_context
from memori_core.context import format_fact_line, format_timestamp
from memori_core.facts import stated_at
from memori_core.validate import parse_utc
from memori_core.memory_tools import MemoryTools
from memori_langchain import MemoriMiddleware, MemoriRetriever, memory_tools
from memori_llamaindex import MemoriMemoryBlock
from memori_llamaindex import MemoriRetriever as LlamaRetriever

JANUARY = "2026-01-05T10:00:00+00:00"
QUESTION = "Where does the user live?"


def _fact(created_at: str | None, valid_from: str | None) -> RecalledFact:
    return RecalledFact("f1", "ann", "User lives in Porto.", created_at, cosine=0.5, lexical=0.0, rank_score=0.5,
                        valid_from=valid_from)


def _updated(engine: RecallEngine) -> tuple[str, str]:
    """Ann's January fact, its text updated now: its id and the update's time (``valid_from``)."""
    (fid,) = engine.add("ann", ["User lives in Lisbon."], created_at=JANUARY)
    fact = engine.update("ann", fid, text="User lives in Porto.")
    assert fact.created_at == JANUARY and fact.valid_from is not None
    return fid, fact.valid_from


# -- the line -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("created_at", "valid_from", "shown"), [
    (JANUARY, "2026-06-01T08:15:00Z", "2026-06-01 08:15"),  # an update in June: the new text's time
    (JANUARY, None, "2026-01-05 10:00"),  # never changed: when it was stored
    (JANUARY, "2026-01-01T00:00:00Z", "2026-01-05 10:00"),  # never earlier than the fact itself
    (JANUARY, "not a time", "2026-01-05 10:00"),  # unreadable: passed over
    (None, "2026-06-01T08:15:00Z", "2026-06-01 08:15"),
])
def test_fact_line_states_the_later_of_created_at_and_valid_from(created_at, valid_from, shown):
    assert format_fact_line("User lives in Porto.", created_at, valid_from=valid_from) == (
        f"- User lives in Porto. Stated at {shown} UTC")
    assert format_context([_fact(created_at, valid_from)]).splitlines()[2] == (
        f"- User lives in Porto. Stated at {shown} UTC")
    mapping = {"content": "User lives in Porto.", "created_at": created_at, "valid_from": valid_from}
    assert format_context([mapping]).splitlines()[2] == f"- User lives in Porto. Stated at {shown} UTC"
    assert format_timestamp(_fact(created_at, valid_from).stated_at) == f"{shown} UTC"


def test_stated_at_is_none_only_without_either_time():
    assert stated_at(None, None) is None
    assert stated_at(JANUARY, None) == JANUARY


def test_memori_compat_line_of_a_fact_never_changed_is_upstreams_line():
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder(),
                          config=RecallConfig.memori_compat(gate="off"))
    engine.add("ann", ["User lives in Lisbon."], created_at=JANUARY)
    (fact,) = engine.recall(QUESTION, "ann")
    assert fact.valid_from is None
    assert format_context([fact], zone=False).splitlines()[2] == "- User lives in Lisbon. Stated at 2026-01-05 10:00"


# -- the engine -----------------------------------------------------------------------------------------------------


def test_block_after_an_update_states_the_update_time_not_the_first_texts(ungated):
    fid, updated = _updated(ungated)
    (fact,) = ungated.recall(QUESTION, "ann")
    assert (fact.id, fact.valid_from, fact.stated_at) == (fid, updated, updated)
    block = format_context([fact])
    assert f"- User lives in Porto. Stated at {format_timestamp(updated)}" in block
    assert "2026-01-05" not in block
    assert [f.valid_from for f in ungated.explain(QUESTION, "ann").facts] == [updated]
    assert ungated.explain(QUESTION, "ann").to_dict()["candidates"][0]["valid_from"] == updated


def test_block_after_moving_back_states_when_the_old_text_became_valid_again(ungated):
    (lisbon,) = ungated.add("ann", ["User lives in Lisbon."], created_at=JANUARY)
    (porto,) = ungated.add("ann", ["User lives in Porto."], supersedes=[lisbon], created_at="2026-03-01T10:00:00Z")
    ungated.add("ann", ["User lives in Lisbon."], supersedes=[porto], created_at="2026-06-01T10:00:00Z")
    facts = ungated.recall(QUESTION, "ann")
    assert [(f.id, f.created_at) for f in facts] == [(lisbon, JANUARY)]
    assert format_context(facts).splitlines()[2] == "- User lives in Lisbon. Stated at 2026-06-01 10:00 UTC"


def test_block_after_restoring_a_version_states_when_its_text_was_said_not_the_restore(ungated):
    fid, _ = _updated(ungated)
    restored = ungated.restore("ann", f"{fid}@v1")  # an admin's edit undone: the user never said it again
    assert restored.restored_at is not None and restored.valid_since == restored.restored_at
    (fact,) = ungated.recall(QUESTION, "ann")
    assert fact.content == "User lives in Lisbon." and fact.stated_at == JANUARY
    assert "- User lives in Lisbon. Stated at 2026-01-05 10:00 UTC" in format_context([fact]).splitlines()
    assert f"- [{fid}] User lives in Lisbon. (stated {format_timestamp(JANUARY)})" in MemoryTools(ungated).recall(
        "ann", QUESTION)


def test_block_after_undoing_a_supersede_keeps_the_facts_own_time(ungated):
    (lisbon,) = ungated.add("ann", ["User lives in Lisbon."], created_at=JANUARY)
    ungated.add("ann", ["User's mother lives in Porto."], supersedes=[lisbon], created_at="2026-03-01T10:00:00Z")
    ungated.restore("ann", lisbon)  # a wrong supersede undone: the fact as it was
    lines = format_context(ungated.recall(QUESTION, "ann")).splitlines()
    assert "- User lives in Lisbon. Stated at 2026-01-05 10:00 UTC" in lines


# -- the tools and adapters -----------------------------------------------------------------------------------------


def test_recall_tool_after_update_memory_states_the_update_time(ungated):
    (fid,) = ungated.add("ann", ["User lives in Lisbon."], created_at=JANUARY)
    tools = MemoryTools(ungated)
    tools.update("ann", fid, "User lives in Porto.")
    (fact,) = ungated.get("ann", [fid])
    answer = tools.recall("ann", QUESTION)
    assert f"- [{fid}] User lives in Porto. (stated {format_timestamp(fact.valid_from)})" in answer
    assert "2026-01-05" not in answer


def test_agent_prompt_after_update_memory_does_not_date_the_new_text_in_january(ungated):
    (fid,) = ungated.add("ann", ["User lives in Lisbon."], created_at=JANUARY)
    model = replies(AIMessage("", tool_calls=[{"name": "update_memory", "args": {"fact_id": fid,
                                               "text": "User lives in Porto."}, "id": "c1", "type": "tool_call"}]),
                    AIMessage("Noted."), AIMessage("In Porto."))
    agent = create_agent(model, memory_tools(ungated), middleware=[MemoriMiddleware(engine=ungated, entity_id="ann")])
    config = {"configurable": {"entity_id": "ann"}}
    agent.invoke({"messages": [HumanMessage("I moved to Porto.")]}, config=config)
    agent.invoke({"messages": [HumanMessage("Where do I live?")]}, config=config)
    (fact,) = ungated.get("ann", [fid])
    prompt = model.system_texts()[-1]
    assert f"- User lives in Porto. Stated at {format_timestamp(fact.valid_from)}" in prompt
    assert "2026-01-05" not in prompt


def test_agent_prompt_after_an_edit_is_undone_states_when_the_user_said_it_not_the_restore(ungated):
    (fid,) = ungated.add("ann", ["User works at Aviva as a claims analyst."], created_at="2026-11-02T09:00:00Z")
    ungated.update("ann", fid, text="User works at Aviva as a senior claims analyst.")  # an admin's mistaken edit
    ungated.restore("ann", f"{fid}@v1")  # undone
    model = replies(AIMessage("At Aviva."))
    agent = create_agent(model, [], middleware=[MemoriMiddleware(engine=ungated, entity_id="ann")])
    turn = HumanMessage("Where do I work?", additional_kwargs={"created_at": "2026-12-05T09:00:00+00:00"})
    agent.invoke({"messages": [turn]})
    prompt = model.system_texts()[-1]
    assert "- User works at Aviva as a claims analyst. Stated at 2026-11-02 09:00 UTC" in prompt
    assert "senior" not in prompt


def test_langchain_documents_carry_valid_from(ungated):
    ungated.add("bob", ["User lives in Rome."], created_at=JANUARY)
    fid, updated = _updated(ungated)
    (doc,) = MemoriRetriever(engine=ungated, entity_id="ann").invoke(QUESTION)
    assert (doc.id, doc.metadata["created_at"], doc.metadata["valid_from"]) == (fid, JANUARY, updated)
    (never,) = MemoriRetriever(engine=ungated, entity_id="bob").invoke(QUESTION)
    assert never.metadata["valid_from"] is None


def test_llamaindex_node_shows_the_llm_valid_from_and_keeps_it_out_of_the_embedding(ungated):
    ungated.add("bob", ["User lives in Rome."], created_at=JANUARY)
    _, updated = _updated(ungated)
    (node,) = LlamaRetriever(ungated, entity_id="ann").retrieve(QUESTION)
    assert node.node.metadata["valid_from"] == updated
    assert f"valid_from: {updated}" in node.node.get_content(metadata_mode=MetadataMode.LLM)
    assert "valid_from" not in node.node.get_content(metadata_mode=MetadataMode.EMBED)
    (never,) = LlamaRetriever(ungated, entity_id="bob").retrieve(QUESTION)
    assert "valid_from" not in never.node.metadata


def _restored(engine: RecallEngine) -> tuple[str, str]:
    """Ann's January fact, superseded by mistake and restored now: its id and the restore's time."""
    (lisbon,) = engine.add("ann", ["User lives in Lisbon."], created_at=JANUARY)
    engine.add("ann", ["User's mother lives in Porto."], supersedes=[lisbon], created_at="2026-03-01T10:00:00Z")
    restored = engine.restore("ann", lisbon)
    assert restored.restored_at is not None
    return lisbon, restored.restored_at


def test_recall_explain_and_the_adapters_documents_and_nodes_carry_restored_at_as_they_carry_valid_from(ungated):
    # They carried created_at and valid_from, not when a restore made the fact valid again.
    ungated.add("bob", ["User lives in Rome."], created_at=JANUARY)
    lisbon, restored_at = _restored(ungated)
    [fact] = [f for f in ungated.recall(QUESTION, "ann", 5) if f.id == lisbon]
    assert (fact.created_at, fact.valid_from, fact.restored_at) == (JANUARY, None, restored_at)
    [candidate] = [c for c in ungated.explain(QUESTION, "ann", 5).to_dict()["candidates"] if c["id"] == lisbon]
    assert candidate["restored_at"] == restored_at
    [doc] = [d for d in MemoriRetriever(engine=ungated, entity_id="ann").invoke(QUESTION) if d.id == lisbon]
    assert (doc.metadata["created_at"], doc.metadata["restored_at"]) == (JANUARY, restored_at)
    [node] = [n for n in LlamaRetriever(ungated, entity_id="ann").retrieve(QUESTION) if n.node.id_ == lisbon]
    assert f"restored_at: {restored_at}" in node.node.get_content(metadata_mode=MetadataMode.LLM)
    assert "restored_at" not in node.node.get_content(metadata_mode=MetadataMode.EMBED)
    (never,) = MemoriRetriever(engine=ungated, entity_id="bob").invoke(QUESTION)
    (never_node,) = LlamaRetriever(ungated, entity_id="bob").retrieve(QUESTION)
    assert never.metadata["restored_at"] is None and "restored_at" not in never_node.node.metadata


async def test_llamaindex_memory_block_states_the_update_time(ungated):
    _, updated = _updated(ungated)
    text = await MemoriMemoryBlock(engine=ungated, entity_id="ann").aget([ChatMessage(role="user", content=QUESTION)])
    assert f"- User lives in Porto. Stated at {format_timestamp(updated)}" in text
    assert "2026-01-05" not in text


# -- the memori command ---------------------------------------------------------------------------------------------


def test_memori_history_marks_when_the_updated_text_became_valid(tmp_path: Path, capsys, monkeypatch):
    from memori_core import embedders
    from memori_core.cli import main

    monkeypatch.setattr(embedders, "_DEFAULT", HashEmbedder())
    path = tmp_path / "mem"
    engine = ungated_engine(HashEmbedder(), store=ChromaStore(path=path))
    fid, updated = _updated(engine)
    engine.store.close()
    assert main(["history", "-e", "ann", fid, "--path", str(path)]) == 0
    old, new = capsys.readouterr().out.splitlines()
    assert "valid from" not in old and "[superseded by" in old
    since = parse_utc(updated).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert new == f"{fid}  2026-01-05T10:00:00Z  User lives in Porto.  [valid from {since}]"
    assert main(["list", "-e", "ann", "--path", str(path), "--json"]) == 0
    assert [r["valid_from"] for r in json.loads(capsys.readouterr().out)] == [updated]


def test_memori_list_marks_a_restored_fact_restored_not_valid_from_as_the_api_says(tmp_path: Path, capsys,
                                                                                  monkeypatch):
    from memori_core import embedders
    from memori_core.cli import main

    monkeypatch.setattr(embedders, "_DEFAULT", HashEmbedder())
    path = tmp_path / "mem"
    engine = ungated_engine(HashEmbedder(), store=ChromaStore(path=path))
    (lisbon,) = engine.add("ann", ["User lives in Lisbon."], created_at=JANUARY)
    engine.add("ann", ["User's mother lives in Porto."], supersedes=[lisbon], created_at="2026-03-01T10:00:00Z")
    restored = engine.restore("ann", lisbon)
    engine.store.close()
    assert main(["list", "-e", "ann", "--path", str(path)]) == 0
    [line] = [x for x in capsys.readouterr().out.splitlines() if "Lisbon" in x]
    since = parse_utc(restored.restored_at).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert line == f"{lisbon}  2026-01-05T10:00:00Z  User lives in Lisbon.  [restored {since}]"
    assert main(["list", "-e", "ann", "--path", str(path), "--json"]) == 0
    [record] = [r for r in json.loads(capsys.readouterr().out) if r["id"] == lisbon]
    assert record["valid_from"] is None and record["restored_at"] == restored.restored_at  # what the line shows


def test_block_of_a_change_told_ahead_states_when_it_was_told_and_its_start_apart(ungated):
    told = datetime.now(timezone.utc) - timedelta(days=2)
    start = told + timedelta(days=30)
    [bosch] = ungated.add("ann", "User works at Bosch.", created_at=told - timedelta(days=365))
    [siemens] = ungated.add("ann", "User works at Siemens.", supersedes=[bosch], created_at=told, valid_from=start)
    [got] = ungated.recall("where does the user work", "ann", 10, as_of=start + timedelta(days=1))
    assert got.id == siemens and got.stated_at == told.isoformat() and got.starts_at == start.isoformat()
    line = format_context([got]).splitlines()[2]
    assert line == (f"- User works at Siemens. Stated at {format_timestamp(told.isoformat())} "
                    f"(holds from {format_timestamp(start.isoformat())})")
    [candidate] = [c for c in ungated.explain("where does the user work", "ann", 10,
                                              as_of=start + timedelta(days=1)).candidates if c.id == siemens]
    assert format_context([candidate.fact("ann")]) == format_context([got])


def test_a_fact_updated_or_said_again_has_no_start_told_ahead(ungated):
    fid, when = _updated(ungated)
    [fact] = ungated.get("ann", [fid])
    assert fact.valid_from == when and fact.starts_at is None
