"""The layout of the code (docs/architecture.md): layers, no import cycle, no upward import, one door to Chroma.

Imports are read from the source with ``ast`` (module level and inside functions; those under
``if TYPE_CHECKING:`` are left out, as they never run).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("memori_core", "memori_langchain", "memori_llamaindex")
FRAMEWORKS = ("langchain", "langchain_core", "langgraph", "llama_index")

#: Each part of the code and its layer: a module may import its own part and the parts of lower layers only.
LAYERS: dict[str, int] = {
    # foundations: values, checks, text analysis, the config and the block
    "_version": 0, "text": 0, "validate": 0, "facts": 0, "filters": 0, "records": 0,
    "config": 0, "explain": 0, "context": 0, "placement": 0, "query": 0, "judge": 0, "lanes": 0, "slots": 0, "meta_questions": 0,
    "argspec": 0, "bounded": 0, "extras": 0, "calendar_words": 0, "number_words": 0,
    # pure ranking functions, the durable store, the embedders
    "ranking": 1, "store": 1, "embedders": 1, "minilm": 1,
    # a model's memory search read as the user asks it: beside ranking/, whose courtesy-turn test it shares
    "tool_queries": 1,
    # the in-process cache over the store, using the ranking's functions for its indexes; the fail-open policy,
    # which gives a call the store's time limit to reach it (store.deadline), with its parts: the outage breaker,
    # a whole call's time limit and the one way to log an error memori goes on past (which the cache uses too)
    "cache": 2, "failopen": 2, "outage": 2, "time_limit": 2, "error_log": 2,
    # the engine
    "engine": 3,
    # what is built on the engine: capture, extraction, provider SDKs, evaluation
    "extraction": 4, "capture": 4, "capture_failures": 4, "unanswered": 4, "sdk": 4, "adapter_args": 4, "metadata_keys": 4, "evaluation": 4, "memory_tools": 4, "tool_arguments": 4, "tool_writes": 4, "unexpired": 4,
    "mcp_server": 4,
    # the command line and the package's public names
    "cli": 5, "<top>": 5, "__main__": 5,
    # the framework adapters
    "memori_langchain": 6, "memori_llamaindex": 6,
}


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """Absolute names of the modules ``name`` imports (our packages and third-party roots)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                module = ".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                full = f"{module}.{alias.name}"
                out.add(full if full in MODULES else module)
    return out


def _ours(target: str) -> str | None:
    while target and target not in MODULES:
        target = target.rpartition(".")[0]
    return target or None


GRAPH: dict[str, set[str]] = {
    name: {m for t in _imports(name, path) if (m := _ours(t)) is not None and m != name}
    for name, path in MODULES.items()
}


def _part(module: str) -> str:
    parts = module.split(".")
    if parts[0] != "memori_core":
        return parts[0]
    return parts[1] if len(parts) > 1 else "<top>"


def test_every_part_of_the_code_has_a_layer() -> None:
    assert {_part(m) for m in MODULES} <= set(LAYERS), "place new modules in LAYERS (and docs/architecture.md)"


def test_no_import_runs_to_a_higher_layer() -> None:
    upward = sorted(
        f"{a} -> {b}" for a, targets in GRAPH.items() for b in targets if LAYERS[_part(b)] > LAYERS[_part(a)]
    )
    assert upward == []


def test_the_import_graph_has_no_cycle() -> None:
    # A package imports its own submodules (its __init__ re-exports them); those edges are not dependencies.
    edges = {a: {b for b in targets if not b.startswith(a + ".")} for a, targets in GRAPH.items()}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt] if nxt in path else [node, nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])
    assert cycles == []


def test_the_engine_imports_no_framework() -> None:
    framework = sorted(
        f"{name} imports {t}" for name, path in MODULES.items() if name.startswith("memori_core")
        for t in _imports(name, path) if t.split(".")[0] in FRAMEWORKS
    )
    assert framework == []


def test_chroma_is_imported_only_by_the_store() -> None:
    outside = sorted(
        name for name, path in MODULES.items()
        if any(t.split(".")[0] == "chromadb" for t in _imports(name, path)) and _part(name) != "store"
    )
    assert outside == []


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_ships_its_type_marker(package: str) -> None:
    assert (ROOT / package / "py.typed").is_file()


def test_tests_import_their_helpers_by_their_bare_names() -> None:
    """``from tests._helpers import ...`` beside ``from _helpers import ...`` loads one file as two modules, each
    with its own state: every test imports the helpers one way, by the bare name (``tests/`` is on pytest's
    ``pythonpath``)."""
    dotted = sorted(
        f"{path.name} imports {t}" for path in sorted((ROOT / "tests").glob("*.py"))
        for t in _imports(path.stem, path) if t == "tests" or t.startswith("tests.")
    )
    assert dotted == []
