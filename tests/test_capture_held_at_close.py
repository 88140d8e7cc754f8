"""``engine.close()`` tries the turns a store outage kept from the store once (issue 21, reliability): it used to
close over them, and they were only named, as lost, at interpreter exit.

A real ``create_agent`` driven by LangChain's fake chat model, ``MemoriMiddleware(capture=True)`` over a real embedded
Chroma folder whose revision reads are refused as a stopped server refuses them; the breaker's clock is the test's.
After the close the folder is opened again to read what was stored."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import httpx
import pytest
from langchain.agents import create_agent
from langchain_core.messages import HumanMessage

from _faults import Faults
from _helpers import Clock, ungated_engine
from _langchain_fakes import RecordingChatModel
from _refusing_store_scripts import AGENT_OVER_A_REFUSING_STORE, run_script
from memori_core import RecallEngine
from memori_core.failopen import OutageBreaker
from memori_core.store import ChromaStore
from memori_langchain import MemoriMiddleware

WAIT = 30.0
SAID = ("2026-11-02T21:30:00+00:00", "2026-11-02T21:35:00+00:00")


def _open(folder: Path) -> RecallEngine:
    return ungated_engine(store=ChromaStore(path=str(folder)))


def _held_turns(folder: Path) -> tuple[RecallEngine, MemoriMiddleware, Faults]:
    """An engine over ``folder`` (a 60 s cool-down on a clock that stands still) whose store went down while Ana
    said two things, both held; the faults still armed."""
    engine = _open(folder)
    engine.outage = OutageBreaker(60.0, clock=Clock(1000.0))
    memori = MemoriMiddleware(engine=engine, capture=True)
    agent = create_agent(RecordingChatModel(messages=iter(["Noted."] * 4)), tools=[], middleware=[memori])
    faults = Faults(engine.store)
    faults.arm("revision", error=httpx.ConnectError, message="[Errno 111] Connection refused")
    config: Any = {"configurable": {"entity_id": "ana"}}
    for said, at in zip(("Sam and I broke up.", "I live in York."), SAID):
        agent.invoke({"messages": [HumanMessage(said, additional_kwargs={"created_at": at})]}, config)
    assert memori.flush(WAIT).held == 2
    return engine, memori, faults


def _stored(folder: Path) -> list[str]:
    with _open(folder) as engine:
        return [f.content for f in engine.list("ana", newest_first=False)]


def test_close_stores_the_held_turns_when_the_store_answers_again_inside_the_cooldown(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    engine, memori, faults = _held_turns(tmp_path)
    faults.disarm()  # the store is back; the breaker's 60 s cool-down has not moved on
    with caplog.at_level(logging.WARNING):
        assert engine.close() is True
    assert _stored(tmp_path) == ["User and Sam broke up.", "User lives in York."]
    stats = memori.capture_stats
    assert (stats.completed, stats.held, stats.dropped) == (2, 0, 0)
    assert not [r for r in caplog.records if "never stored" in r.getMessage()]


def test_close_over_a_store_still_down_names_each_turn_it_leaves_unsaved_and_counts_them_dropped(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    engine, memori, faults = _held_turns(tmp_path)
    asked = faults.calls["revision"]
    with caplog.at_level(logging.WARNING):
        engine.close()
    assert faults.calls["revision"] == asked + 1  # one look at the store, then no more
    lost = [r.getMessage() for r in caplog.records if "never stored" in r.getMessage()]
    assert lost == ["MemoriMiddleware: engine.close(): 2 turn(s) whose capture met a store outage were never stored: "
                    "the store did not answer when close tried them (the engine is closed, they are dropped): "
                    f"entity 'ana': 2 said at {SAID[0]}, {SAID[1]}"]
    stats = memori.capture_stats
    assert (stats.held, stats.dropped) == (0, 2)  # nothing left for the exit hook to name again
    faults.disarm()
    assert _stored(tmp_path) == []


_CLOSED_OVER_A_REFUSING_STORE = AGENT_OVER_A_REFUSING_STORE + """
    for said in ("Sam and I broke up.", "I live in York."):
        agent.invoke({{"messages": [HumanMessage(said)]}}, {{"configurable": {{"entity_id": "ana"}}}})
    print("held", memori.flush(30).held, flush=True)
    engine.close()
    print("closed", flush=True)
"""


def test_a_process_that_closed_its_engine_over_a_down_store_says_what_it_lost_at_close_not_again_at_exit(
    tmp_path: Path,
) -> None:
    run = run_script(tmp_path, _CLOSED_OVER_A_REFUSING_STORE)
    assert run.stdout.splitlines() == ["held 2", "closed"]
    lines = run.stderr.splitlines()
    assert len([line for line in lines if "engine.close(): 2 turn(s) whose capture met a store outage" in line]) == 1
    outage = [line for line in lines if line.startswith("memori_core.engine.recall_engine WARNING RecallEngine.close: "
                                                         "the store had not answered again")]
    assert len(outage) == 1 and outage[0].endswith("background captures skipped or failed meanwhile: 2 (not stored)")
    assert not [line for line in lines if "at interpreter exit" in line]
