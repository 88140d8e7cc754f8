"""The examples in the docstrings of the pure modules (ranking, extraction, text and slot helpers) run as written.

Modules whose examples need an engine, a store or a framework object show usage, not a checked session, and are
left out. (An example that went stale unseen: "Can I have a beer at the pub?" also touches hearing and mobility
since the fourth round of implications.)"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import memori_core.extraction
import memori_core.ranking

PURE = sorted(
    {f"memori_core.ranking.{m.name}" for m in pkgutil.iter_modules(memori_core.ranking.__path__)}
    | {f"memori_core.extraction.{m.name}" for m in pkgutil.iter_modules(memori_core.extraction.__path__)}
    | {"memori_core.text", "memori_core.slots", "memori_core.query", "memori_core.calendar_words",
       "memori_core.number_words"}
)


def _examples(name: str) -> int:
    finder = doctest.DocTestFinder()
    return sum(len(t.examples) for t in finder.find(importlib.import_module(name)))


WITH_EXAMPLES = [name for name in PURE if _examples(name)]


def test_the_pure_modules_with_examples_include_the_ranking_tables():
    assert "memori_core.ranking.concerns" in WITH_EXAMPLES
    assert "memori_core.ranking.implications" in WITH_EXAMPLES


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_docstring_examples_run_as_written(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0, f"{name}: {result.failed} of {result.attempted} failed"
