"""The rule books, ``tests/rules/*.toml``: rows of what a function of words (a rule the gate or capture reads a text
by) returns, each in a group named for what it checks, run by the two tests here so that the check of each form of
row has one home.

- ``[gives."<path>"]``: the arguments of the function at ``<path>`` (under ``memori_core``; a row of two items is
  one argument and the answer), then what it returns for them: ``true``/``false`` compared with ``is``, a set the
  function returns compared as a set with the row's list, anything else with ``==``;
- ``[gives_none."<path>"]``: the one argument (a string) for which the function at ``<path>`` returns ``None``.

A case's id is its book, group and number in the group (``care-care_facts_are_allergies_medications_and_diets-3``);
the module a book is named for (``test_<book>.py`` or ``test_capture_<book>.py``) holds that topic's other tests.
"""

from __future__ import annotations

import importlib
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

BOOKS = sorted((Path(__file__).parent / "rules").glob("*.toml"))
KINDS = {"gives", "gives_none"}


def _function(path: str) -> Callable[..., Any]:
    """The function at ``path`` under ``memori_core`` (``"ranking.care.is_care_fact"``)."""
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(f"memori_core.{module}"), name)


def _cases(kind: str) -> list[Any]:
    """Every row of every book's ``kind`` tables, with the function the table names first."""
    params = []
    for book in BOOKS:
        for path, groups in tomllib.loads(book.read_text(encoding="utf-8")).get(kind, {}).items():
            function = _function(path)
            for group, rows in groups.items():
                params += [pytest.param(function, row, id=f"{book.stem}-{group}-{n}") for n, row in enumerate(rows)]
    return params


def test_every_book_has_tables_of_a_known_kind_naming_a_function() -> None:
    assert BOOKS, "no rule book in tests/rules"
    for book in BOOKS:
        tables = tomllib.loads(book.read_text(encoding="utf-8"))
        assert tables and set(tables) <= KINDS, f"{book.name}: tables {sorted(tables)}"
        for paths in tables.values():
            assert all(callable(_function(path)) for path in paths), f"{book.name}: {sorted(paths)}"


@pytest.mark.parametrize(("function", "row"), _cases("gives"))
def test_a_rule_gives_what_its_row_names(function: Callable[..., Any], row: list[Any]) -> None:
    *arguments, expected = row
    got = function(*arguments)
    if isinstance(expected, bool):
        assert got is expected
    elif isinstance(got, (set, frozenset)):
        assert got == frozenset(expected)
    else:
        assert got == expected


@pytest.mark.parametrize(("function", "argument"), _cases("gives_none"))
def test_a_rule_gives_none_for_its_row(function: Callable[..., Any], argument: str) -> None:
    assert function(argument) is None
