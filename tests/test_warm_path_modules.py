"""benchmarks/warm_path_modules.py's concern table: every module a warm recall passes has one concern, and a module
no concern names is reported, so the table cannot drift silently as modules are added; the concern table and
tests/test_layout.py's layer table place every module of the tree alike."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

# Appended, not prepended: benchmarks/ and tests/ both hold a `_memori_upstream` module, and the tests' must win.
sys.path.append(str(Path(__file__).resolve().parents[1] / "benchmarks"))
from test_layout import LAYERS, MODULES, _part  # noqa: E402
from warm_path_modules import (  # noqa: E402
    CONCERN_LAYERS,
    CONCERNS,
    UNPLACED,
    concern_table,
    holders,
    warm_path_modules,
)


@pytest.mark.parametrize("repeated", [False, True], ids=["new-question", "repeated-question"])
def test_every_module_a_warm_recall_passes_is_placed_in_exactly_one_concern(repeated: bool) -> None:
    modules = warm_path_modules(repeated=repeated)

    assert modules, "the profile recorded no module of ours"
    misplaced = {module: holders(module) for module in modules if len(holders(module)) != 1}
    assert misplaced == {}, "add these modules to CONCERNS in benchmarks/warm_path_modules.py (once each)"


def test_a_module_no_concern_names_is_reported_unplaced_and_counted_outside() -> None:
    lines = concern_table(Counter({"memori_core.engine.reads": 3, "memori_core.nowhere": 1}))

    assert any(line.startswith(UNPLACED) for line in lines)
    assert "UNPLACED: memori_core.nowhere (add them to CONCERNS)" in lines
    assert "concerns: 1" in lines
    assert "modules outside the question-reading tables and foundations (unplaced included): 2" in lines


def test_tables_and_foundations_count_as_concerns_but_not_as_modules_outside() -> None:
    lines = concern_table(Counter({"memori_core.ranking.care": 1, "memori_core.ranking.kin": 1,
                                   "memori_core.text": 1, "memori_core.ranking.pipeline": 1}))

    assert "concerns: 3" in lines
    assert "modules outside the question-reading tables and foundations (unplaced included): 1" in lines


def test_every_module_of_the_tree_has_one_concern_and_the_layers_the_concern_table_names() -> None:
    misplaced = {module: holders(module) for module in MODULES if len(holders(module)) != 1}
    layers = {concern: tuple(sorted({LAYERS[_part(m)] for m in MODULES if holders(m) == [concern]}))
              for concern in CONCERNS}

    assert misplaced == {}, "add these modules to CONCERNS in benchmarks/warm_path_modules.py (once each)"
    assert layers == CONCERN_LAYERS, "CONCERNS and tests/test_layout.py's LAYERS disagree on a module's layer"


def test_every_name_the_concern_table_gives_is_a_module_or_folder_of_the_tree() -> None:
    stale = [name for names in CONCERNS.values() for name in names if name.removesuffix(".*") not in MODULES]

    assert stale == []
