"""What an outage's warnings say to the person reading the log: what happened and what of the write landed, in
words a user knows (no "intent", no "revision"), on a real in-memory Chroma store whose calls fail as armed."""

from __future__ import annotations

import logging

import pytest

from _faults import Faults
from _helpers import ungated_engine
from memori_core import ChromaStore, RecallEngine
from memori_core.store.chroma_client import ephemeral_client


def _shared_engine() -> RecallEngine:
    """An engine over an in-memory Chroma collection marked shared (as a server's is): its writes put a 'write
    under way' mark on the user's record first, for other processes."""
    store = ChromaStore(client=ephemeral_client(), collection="t_shared_warnings", shared=True)
    return ungated_engine(store=store)


def test_a_write_that_failed_before_storing_says_nothing_landed_when_its_mark_cannot_be_cleared(
    caplog: pytest.LogCaptureFixture
) -> None:
    engine = _shared_engine()
    engine.add("alice", ["User likes tea."])
    faults = Faults(engine.store)
    faults.arm("withdraw_intent", error=ConnectionError, message="connection refused")
    # A write's way (the coordinator's), whose store read fails after its mark went up and before any row changed.
    with caplog.at_level(logging.WARNING), pytest.raises(ConnectionError):
        with engine._coord.writing("alice"):  # noqa: SLF001 - the write path every engine write takes
            raise ConnectionError("connection refused")
    faults.disarm()
    assert faults.calls["withdraw_intent"] == 1
    (warning,) = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warning.startswith("entity 'alice': a write failed before storing anything (nothing of it landed)")
    assert "intent" not in warning and "revision" not in warning
    assert "other processes read this user's facts from the store" in warning
    assert [f.content for f in engine.list("alice")] == ["User likes tea."]  # and indeed nothing landed
