"""`memori eval capture` says every conversation was said at one fixed time (``DEFAULT_SAID_AT``, or ``--said-at``),
so its numbers do not move with the wall clock: the rules write "tonight" and "yesterday" out from the day said."""

from __future__ import annotations

from datetime import timezone
from pathlib import Path

import pytest

from _helpers import run_eval, write_json
from memori_core.cli import main
from memori_core.evaluation.capture import DEFAULT_SAID_AT

HASH = "_helpers:HashEmbedder"


def _plans() -> dict:
    return {"name": "plans", "version": 1, "conversations": [
        {"id": "a", "category": "ephemeral", "turns": [
            {"role": "user", "text": "I started a new job at Google yesterday."},
            {"role": "user", "text": "I have a dentist appointment tonight."}],
         "gold": ["User works at Google."]},
    ]}


def _expiring(result: dict) -> list[str]:
    return [fact for conversation in result["conversations"] for fact in conversation["expiring"]]


def test_the_default_said_at_is_a_monday_morning_in_utc() -> None:
    assert DEFAULT_SAID_AT.weekday() == 0 and (DEFAULT_SAID_AT.hour, DEFAULT_SAID_AT.minute) == (9, 0)
    assert DEFAULT_SAID_AT.utcoffset() == timezone.utc.utcoffset(None)


def test_without_said_at_the_turns_are_said_at_the_default_time(tmp_path: Path, capsys) -> None:
    file = write_json(tmp_path / "plans.json", _plans())
    run = run_eval(capsys, tmp_path / "r.json", "capture", file, "--embedder", HASH, "--quiet")
    assert run.result["said_at"] == DEFAULT_SAID_AT.isoformat()
    assert f"said at {DEFAULT_SAID_AT.isoformat()}" in run.err
    tonight = _expiring(run.result)
    assert len(tonight) == 1 and DEFAULT_SAID_AT.date().isoformat() in tonight[0] and "Monday" in tonight[0]


def test_two_runs_without_said_at_store_the_same_facts(tmp_path: Path, capsys) -> None:
    file = write_json(tmp_path / "plans.json", _plans())
    first = run_eval(capsys, tmp_path / "1.json", "capture", file, "--embedder", HASH, "--quiet").result
    second = run_eval(capsys, tmp_path / "2.json", "capture", file, "--embedder", HASH, "--quiet").result
    assert first["conversations"] == second["conversations"] and _expiring(first)


@pytest.mark.parametrize("said_at, day", [
    ("2026-03-04T22:00:00+00:00", "Wednesday 2026-03-04"),
    ("2026-03-06T08:30:00Z", "Friday 2026-03-06"),
    ("2026-03-07T10:00:00-05:00", "Saturday 2026-03-07"),
])
def test_said_at_sets_the_day_tonight_is_written_out_as(tmp_path: Path, capsys, said_at: str, day: str) -> None:
    file = write_json(tmp_path / "plans.json", _plans())
    run = run_eval(capsys, tmp_path / "r.json", "capture", file, "--embedder", HASH, "--quiet", "--said-at", said_at)
    assert any(day in fact for fact in _expiring(run.result)), _expiring(run.result)
    assert run.result["overall"]["recall"] == 1.0


@pytest.mark.parametrize("said_at, says", [
    ("tomorrow", "ISO 8601"),
    ("2026-13-01T09:00:00+00:00", "ISO 8601"),
    ("2026-03-04", "time zone"),
    ("2026-03-04T09:00:00", "time zone"),
])
def test_said_at_that_is_no_zoned_iso_time_is_an_error_naming_the_option(
        tmp_path: Path, capsys, said_at: str, says: str) -> None:
    file = write_json(tmp_path / "plans.json", _plans())
    code = main(["eval", "capture", str(file), "--embedder", HASH, "--quiet", "--said-at", said_at])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert "--said-at" in err and says in err and repr(said_at) in err
