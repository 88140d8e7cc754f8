"""The capture case books, ``tests/cases/*.toml``: rows of what rule-based capture keeps, each in a group named for
what it checks, run by the two tests here so that the check of each form of row has one home.

- ``[one_message]``: a user message said at the table's ``said_at`` (none: no time) -> the facts the shipped rules
  keep of it, with nothing stored (:func:`~_capture.facts_of`);
- ``[told]``: the user's messages in order, said at ``said_at`` -> their valid facts afterwards and the ended
  ones, each sorted, captured into an engine with every gate off (:func:`~_capture.told`);
- ``[valid_after]``: the same, where a row names only the valid facts afterwards;
- ``[replaces]``: a user message and a fact stored before it -> whether a fact the rules keep of the message
  replaces the stored one (:func:`~_capture.replaces`);
- ``[dropped]``: a user message -> the rules keep nothing of it, and their explanation gives the reason the row
  names (a ``DROP_*`` name of ``memori_core.extraction``);
- ``[supersedes]``: a user message and a fact stored before it (id ``"old"``) -> every fact the rules keep of the
  message, in order, with the ids it supersedes;
- ``[steps]``: each group an array of tables (``[[steps.<group>]]``), a row a step and the steps under its
  ``[[steps.<group>.then]]``, captured one after another into one engine with every gate off; a step captures its
  ``said`` turns as one user's messages (``user``, default ``"u1"``; said at ``said_at``, or ``after_days`` after
  it, each ``apart_days`` after the one before) and then checks what its other keys name (:func:`_check_step`).

A case's id is its book, group and number in the group
(``wording_and_changes-a_new_spouse_name_ends_the_stored_one-2``);
the module a book is named for (``test_capture_<book>.py`` or ``test_<book>.py``) holds that topic's other tests.
"""

from __future__ import annotations

import tomllib
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from _capture import RULES, Stored, capture_turns, core_texts, ended_texts, facts_of, replaces, told, valid_texts
from _helpers import ungated_engine
from memori_core import RecallEngine, extraction

BOOKS = sorted((Path(__file__).parent / "cases").glob("*.toml"))
KINDS = {"dropped", "one_message", "replaces", "steps", "supersedes", "told", "valid_after"}
STEP_KEYS = {"said", "user", "apart_days", "after_days", "valid", "ended", "core", "expires", "recall"}


def _cases(kind: str, *, whole: bool = False) -> list[Any]:
    """Every row of every book's ``kind`` table, with the table's ``said_at`` first; the row's items after it, or
    the row as one value (``whole``)."""
    params = []
    for book in BOOKS:
        table = tomllib.loads(book.read_text(encoding="utf-8")).get(kind, {})
        said_at = table.get("said_at")
        for group, rows in table.items():
            if group != "said_at":
                params += [pytest.param(said_at, *([row] if whole else row), id=f"{book.stem}-{group}-{n}")
                           for n, row in enumerate(rows)]
    return params


def _check_step(engine: RecallEngine, step: dict[str, Any], said_at: datetime | None,
                until: datetime | None = None) -> datetime | None:
    """Capture ``step["said"]`` (:func:`~_capture.capture_turns`), then check each of the step's other keys
    against the step's user's facts: ``valid``, ``ended`` (each of which must also have a ``valid_to``) and
    ``core``, the sorted texts exactly; ``expires``, the sorted ``[text, ISO expiry]`` of exactly the valid facts
    that expire; ``recall``, a table of ``query``, optional ``as_of``, and ``texts`` (exactly what is recalled, in
    order) or ``has``/``lacks`` (texts among it and not). ``valid`` and ``ended`` are read as of the step's last
    turn, or ``until`` (the time an earlier step was read at) when later, so that a change told ahead reads the
    same whatever the day the test runs; returned (``None``: now, for steps said at no time)."""
    unknown = set(step) - STEP_KEYS
    assert not unknown, f"a step has unknown keys {sorted(unknown)}"
    assert set(step) - {"said", "user", "apart_days", "after_days"}, f"a step checks nothing: {step}"
    user = step.get("user", "u1")
    if "after_days" in step:  # a turn said later, or earlier (a turn captured late), than the table's time
        assert said_at is not None, "after_days needs the table's said_at"
        said_at += timedelta(days=step["after_days"])
    apart = timedelta(days=step.get("apart_days", 0))
    capture_turns(engine, *step["said"], user=user, at=said_at, apart=apart)
    at = None if said_at is None else max(said_at + apart * (len(step["said"]) - 1), until or said_at)
    if "valid" in step:
        assert valid_texts(engine, user, at=at) == step["valid"]
    if "ended" in step:
        assert ended_texts(engine, user, at=at) == step["ended"]
        valid_ids = {f.id for f in engine.list(user)}
        assert all(f.valid_to is not None for f in engine.list(user, include_invalid=True) if f.id not in valid_ids)
    if "core" in step:
        assert core_texts(engine, user) == step["core"]
    if "expires" in step:
        expiring = sorted([f.content, f.expires_at] for f in engine.list(user) if f.expires_at is not None)
        assert expiring == step["expires"]
    if "recall" in step:
        asked = step["recall"]
        assert set(asked) <= {"query", "as_of", "texts", "has", "lacks"}, f"unknown recall keys {sorted(asked)}"
        recalled = [f.content for f in engine.recall(asked["query"], user, as_of=asked.get("as_of"))]
        if "texts" in asked:
            assert recalled == asked["texts"]
        assert [t for t in asked.get("has", []) if t not in recalled] == []
        assert [t for t in asked.get("lacks", []) if t in recalled] == []
    return at


def test_every_book_has_rows_of_a_known_kind() -> None:
    assert BOOKS, "no case book in tests/cases"
    for book in BOOKS:
        kinds = set(tomllib.loads(book.read_text(encoding="utf-8")))
        assert kinds and kinds <= KINDS, f"{book.name}: tables {sorted(kinds)}"


@pytest.mark.parametrize(("said_at", "said", "facts"), _cases("one_message"))
def test_one_message_gives_the_facts_its_row_names(said_at: datetime | None, said: str, facts: list[str]) -> None:
    assert facts_of(said, said_at) == facts


@pytest.mark.parametrize(("said_at", "turns", "valid", "ended"), _cases("told"))
def test_messages_told_in_order_leave_the_facts_their_row_names_valid_and_end_the_rest(
        said_at: datetime | None, turns: list[str], valid: list[str], ended: list[str]) -> None:
    assert told(*turns, at=said_at) == (valid, ended)


@pytest.mark.parametrize(("said_at", "turns", "valid"), _cases("valid_after"))
def test_messages_told_in_order_leave_the_facts_their_row_names_valid(
        said_at: datetime | None, turns: list[str], valid: list[str]) -> None:
    assert told(*turns, at=said_at)[0] == valid


@pytest.mark.parametrize(("said_at", "said", "stored", "replaced"), _cases("replaces"))
def test_a_message_replaces_the_stored_fact_when_its_row_says_so(
        said_at: datetime | None, said: str, stored: str, replaced: bool) -> None:
    assert said_at is None, "a [replaces] message is read without a time"
    assert replaces(said, stored) is replaced


@pytest.mark.parametrize(("said_at", "said", "reason"), _cases("dropped"))
def test_a_message_gives_no_fact_for_the_reason_its_row_names(said_at: datetime | None, said: str, reason: str) -> None:
    assert said_at is None, "a [dropped] message is read without a time"
    assert facts_of(said) == []
    assert any(v.reason == getattr(extraction, reason) for v in RULES.explain(said))


@pytest.mark.parametrize(("said_at", "said", "stored", "facts"), _cases("supersedes"))
def test_a_message_gives_the_facts_and_the_ids_they_supersede_its_row_names(
        said_at: datetime | None, said: str, stored: str, facts: list[list[Any]]) -> None:
    assert said_at is None, "a [supersedes] message is read without a time"
    kept = RULES.extract([("user", said)], [Stored("old", stored)])
    assert [[f.text, list(f.supersedes)] for f in kept] == facts


@pytest.mark.parametrize(("said_at", "row"), _cases("steps", whole=True))
def test_each_step_of_messages_leaves_the_facts_its_row_names(said_at: datetime | None, row: dict[str, Any]) -> None:
    engine = ungated_engine()
    first = {key: value for key, value in row.items() if key != "then"}
    until = None
    for step in [first, *row.get("then", [])]:
        until = _check_step(engine, step, said_at, until)
