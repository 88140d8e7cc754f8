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
  names (a ``DROP_*`` name of ``memori_core.extraction``).

A case's id is its book, group and number in the group
(``wording_and_changes-a_new_spouse_name_ends_the_stored_one-2``);
the module a book is named for (``test_capture_<book>.py`` or ``test_<book>.py``) holds that topic's other tests.
"""

from __future__ import annotations

import tomllib
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from _capture import RULES, facts_of, replaces, told
from memori_core import extraction

BOOKS = sorted((Path(__file__).parent / "cases").glob("*.toml"))


def _cases(kind: str) -> list[Any]:
    """Every row of every book's ``kind`` table, with the table's ``said_at`` first."""
    params = []
    for book in BOOKS:
        table = tomllib.loads(book.read_text(encoding="utf-8")).get(kind, {})
        said_at = table.get("said_at")
        for group, rows in table.items():
            if group != "said_at":
                params += [pytest.param(said_at, *row, id=f"{book.stem}-{group}-{n}") for n, row in enumerate(rows)]
    return params


def test_every_book_has_rows_of_a_known_kind() -> None:
    assert BOOKS, "no case book in tests/cases"
    for book in BOOKS:
        kinds = set(tomllib.loads(book.read_text(encoding="utf-8")))
        known = {"dropped", "one_message", "replaces", "told", "valid_after"}
        assert kinds and kinds <= known, f"{book.name}: tables {sorted(kinds)}"


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
