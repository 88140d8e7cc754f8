"""Edits told at a time of their own (tester j22, A8): ``update`` / ``expire`` / ``delete`` / ``restore`` take
``at`` as ``cancel`` does (the CLI's ``--at``, the MCP tools' ``said_at``, as ``add`` takes it), so a replayed chat's
edit is dated by the chat, not the wall clock; and the CLI's ``delete`` / ``update --expire-now`` and MCP ``delete``
end the facts that told a change to come (``told_by``), as ``cancel`` does. Real on-disk and in-memory Chroma, the
real ``mcp`` client, the CLI in process."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from mcp.shared.memory import create_connected_server_and_client_session

from _cli import hash_embedder_for_the_cli, run  # noqa: F401  (the fixture is autouse)
from _helpers import HashEmbedder, ungated_engine
from memori_core.engine import RecallEngine
from memori_core.mcp_server import build_server
from memori_core.store.chroma import ChromaStore

STATED = "2026-10-05T09:00:00+00:00"
EDITED = datetime(2026, 10, 26, 10, tzinfo=timezone.utc)
NOV3, NOV4 = "User's birthday is on November 3.", "User's birthday is on November 4."


def birthday(engine: RecallEngine, when: datetime) -> list[str]:
    return [f.content for f in engine.recall("When is my birthday?", "ann", as_of=when)]


def test_an_update_told_at_a_time_holds_from_then_and_a_restore_told_later_switches_back_then(hash_embedder):
    engine = ungated_engine(hash_embedder)
    [fid] = engine.add("ann", [NOV3], created_at=STATED)
    edited = engine.update("ann", fid, text=NOV4, at=EDITED)
    assert (edited.valid_from, edited.updated_at) == (EDITED.isoformat(), EDITED.isoformat())  # was the wall clock
    assert birthday(engine, EDITED - timedelta(days=1)) == [NOV3]
    assert birthday(engine, EDITED + timedelta(days=1)) == [NOV4]
    restored = engine.restore("ann", f"{fid}@v1", at=EDITED + timedelta(days=2))
    assert restored.restored_at == (EDITED + timedelta(days=2)).isoformat()
    assert birthday(engine, EDITED + timedelta(days=1)) == [NOV4] and birthday(engine, EDITED + timedelta(days=3)) == [NOV3]
    with pytest.raises(ValueError, match=r"^at 2026-10-01T00:00:00\+00:00 is before fact .* was stated"):
        engine.update("ann", fid, text=NOV4, at="2026-10-01T00:00:00+00:00")


def _change_to_come(engine_of: Any) -> tuple[str, str, str]:
    """Alice works at Bosch, told she starts at Siemens in 30 days: (bosch, plan, siemens)."""
    start = datetime.now(timezone.utc) + timedelta(days=30)
    [bosch] = engine_of("add", "alice", ["User works at Bosch."])
    [plan] = engine_of("add", "alice", ["User got a job at Siemens, starting next month."])
    [siemens] = engine_of("add", "alice", ["User works at Siemens."], supersedes=[bosch], valid_from=start)
    return bosch, plan, siemens


def _on_disk(folder: Path) -> Any:
    def call(name: str, *args: Any, **kwargs: Any) -> Any:
        store = ChromaStore(path=folder)
        try:
            return getattr(RecallEngine(store=store, embedder=HashEmbedder()), name)(*args, **kwargs)
        finally:
            store.close()
    return call


@pytest.mark.parametrize("command", [["delete"], ["update", "--expire-now"]])
def test_the_cli_ends_the_plan_that_told_a_change_it_deletes_or_expires(tmp_path: Path, capsys, command) -> None:
    folder = tmp_path / "store"
    engine_of = _on_disk(folder)
    bosch, plan, siemens = _change_to_come(engine_of)
    code, _, err = run([command[0], "-e", "alice", siemens, *command[1:], "--told-by", plan,
                        "--path", str(folder)], capsys)
    assert (code, err) == (0, "")
    assert [f.content for f in engine_of("list", "alice")] == ["User works at Bosch."]  # the plan ended too
    [told] = engine_of("get", "alice", [plan])
    assert told.valid_to is not None  # kept as history, not erased
    code, _, err = run([command[0], "-e", "alice", bosch, *command[1:], "--told-by", plan, "--path", str(folder)],
                       capsys)
    assert code == 1 and "--told-by names the facts that told a change to come" in err


async def test_mcp_update_takes_said_at_and_delete_takes_told_by(hash_embedder) -> None:
    engine = ungated_engine(hash_embedder)
    [fid] = engine.add("ann", [NOV3], created_at=STATED)
    bosch, plan, siemens = _change_to_come(lambda name, *a, **k: getattr(engine, name)(*a, **k))
    async with create_connected_server_and_client_session(build_server(engine, entity="ann")) as session:
        updated = await session.call_tool("update", {"fact_id": fid, "text": NOV4,
                                                     "said_at": "2026-10-26T11:00:00+01:00"})
        early = await session.call_tool("update", {"fact_id": fid, "text": NOV3, "said_at": "2026-10-01T00:00:00Z"})
    async with create_connected_server_and_client_session(build_server(engine, entity="alice")) as session:
        deleted = await session.call_tool("delete", {"ids": [siemens], "told_by": [plan]})
    assert updated.structuredContent["fact"]["valid_from"] == EDITED.isoformat()
    assert early.isError and "said_at 2026-10-01T00:00:00+00:00 is before fact" in early.content[0].text
    assert deleted.structuredContent["deleted"] == [siemens]
    assert [f.content for f in engine.list("alice")] == ["User works at Bosch."]


async def test_mcp_delete_told_before_a_changes_start_keeps_the_fact_it_was_to_end(hash_embedder) -> None:
    # said_at before the start (which is past by the wall clock): the delete calls the change off, so Bosch,
    # ended only by it, is no earlier version of it and holds on
    engine = ungated_engine(hash_embedder)
    [bosch] = engine.add("alice", ["User works at Bosch."], created_at="2026-09-01T09:00:00+00:00")
    [plan] = engine.add("alice", ["User got a job at Siemens, starting Nov 1."], created_at=STATED)
    [siemens] = engine.add("alice", ["User works at Siemens."], supersedes=[bosch],
                           valid_from="2026-11-01T00:00:00+00:00", created_at=STATED)
    async with create_connected_server_and_client_session(build_server(engine, entity="alice")) as session:
        deleted = await session.call_tool("delete", {"ids": [siemens], "told_by": [plan],
                                                     "said_at": "2026-10-20T10:00:00+00:00"})
    assert deleted.structuredContent["deleted"] == [siemens]
    assert [f.content for f in engine.list("alice")] == ["User works at Bosch."]


def test_restore_and_delete_refuse_an_at_before_what_they_act_on_and_change_nothing(hash_embedder) -> None:
    # before: a restore told before the supersede erased the superseded period, and a delete told before the
    # change was stated erased it without ending its plan
    engine = ungated_engine(hash_embedder)
    [lisbon] = engine.add("ann", ["User lives in Lisbon."], created_at="2026-10-01T00:00:00+00:00")
    [madrid] = engine.add("ann", ["User lives in Madrid."], supersedes=[lisbon], created_at="2026-10-10T00:00:00+00:00")
    with pytest.raises(ValueError, match=r"^at 2026-10-05T00:00:00\+00:00 is before fact .* was stated"):
        engine.restore("ann", lisbon, at="2026-10-05T00:00:00+00:00")
    with pytest.raises(ValueError, match=r"^at 2026-09-01T00:00:00\+00:00 is before fact .* was stated"):
        engine.restore("ann", lisbon, at="2026-09-01T00:00:00+00:00")
    assert [h.id for h in engine.history("ann", lisbon)] == [lisbon, madrid]  # the superseded period is intact
    bosch, plan, siemens = _change_to_come(lambda name, *a, **k: getattr(engine, name)(*a, **k))
    with pytest.raises(ValueError, match=r"^at 2026-10-02T00:00:00\+00:00 is before fact .* was stated"):
        engine.delete("alice", [siemens], told_by=[plan], at="2026-10-02T00:00:00+00:00")
    assert len(engine.get("alice", [bosch, plan, siemens])) == 3


async def test_mcp_restore_and_delete_name_said_at_when_it_is_before_what_they_act_on(hash_embedder) -> None:
    engine = ungated_engine(hash_embedder)
    [lisbon] = engine.add("ann", ["User lives in Lisbon."], created_at="2026-10-01T00:00:00+00:00")
    engine.add("ann", ["User lives in Madrid."], supersedes=[lisbon], created_at="2026-10-10T00:00:00+00:00")
    async with create_connected_server_and_client_session(build_server(engine, entity="ann")) as session:
        restored = await session.call_tool("restore", {"fact_id": lisbon, "said_at": "2026-10-05T00:00:00Z"})
        deleted = await session.call_tool("delete", {"ids": [lisbon], "said_at": "2026-09-05T00:00:00Z"})
    assert restored.isError and "said_at 2026-10-05T00:00:00+00:00 is before" in restored.content[0].text
    assert deleted.isError and "said_at 2026-09-05T00:00:00+00:00 is before" in deleted.content[0].text
    assert engine.get("ann", [lisbon])
