"""The Python blocks of docs/*.md: each runs as copied, or says in its first line that it is a fragment.

The conventions are README.md's (tests/test_readme.py: a fresh folder and process state per block, offline, a
```text block after one is its output, ``<!-- readme-test: skip (reason) -->`` before one that needs a server),
plus one of the docs' own: a block whose first line is ``# Fragment: ...`` continues an example (the README's, or
the page's) and names what it leaves to the reader; it is only compiled (a top-level ``await`` allowed, as its
line says where it runs).
"""

from __future__ import annotations

import ast
import inspect
import ipaddress
import re
from pathlib import Path

import pytest

from test_readme import Block, assert_ran_as_shown, readme_blocks, run_blocks

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
BLOCKS = [b for page in DOCS for b in readme_blocks(page)]
FRAGMENT = "# Fragment: "


def _is_fragment(block: Block) -> bool:
    return block.code.startswith(FRAGMENT)


RUNNABLE = [b for b in BLOCKS if b.skip is None and not _is_fragment(b)]


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.name)
def test_a_block_compiles_and_a_fragment_says_what_it_leaves_out(block: Block) -> None:
    if _is_fragment(block):
        assert len(block.code.splitlines()[0]) > len(FRAGMENT) + 10, "say what the fragment needs"
        compile(block.code, block.name, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    else:
        compile(block.code, block.name, "exec")  # a complete script: no top-level await


def test_the_docs_have_complete_blocks_and_no_python_block_names_a_remote_address() -> None:
    # A tester ran stores.md's example as copied, and it sent a request to whatever answered at 10.0.0.5:8000.
    assert len(RUNNABLE) >= 3
    pages = [ROOT / "README.md", *DOCS]
    code = "\n".join(b.code for page in pages for b in readme_blocks(page))
    for found in re.findall(r"(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d.])", code):
        assert ipaddress.ip_address(found).is_loopback, f"{found} in a copyable block: use localhost"


_RESULTS: dict[str, dict] = {}  # every complete block's result, from one subprocess run on first use


@pytest.mark.model
@pytest.mark.slow
@pytest.mark.parametrize("block", RUNNABLE, ids=lambda b: b.name)
def test_a_complete_block_runs_as_copied(block: Block, tmp_path_factory: pytest.TempPathFactory) -> None:
    if not _RESULTS:
        _RESULTS.update(run_blocks(RUNNABLE, tmp_path_factory.mktemp("docs")))
    assert_ran_as_shown(block, _RESULTS[block.name])


_SIGNATURE_HEADING = re.compile(r"^#+ .*`(?P<name>\w+)\((?P<params>.*)\)`$")
_RUNNABLE_FIELDS = {"name", "tags", "metadata"}  # LangChain's own fields of a retriever / runnable


def _signature_headings() -> list[object]:
    return [pytest.param(m["name"], m["params"], id=m["name"]) for page in DOCS
            for line in page.read_text(encoding="utf-8").splitlines() if (m := _SIGNATURE_HEADING.match(line))]


@pytest.mark.parametrize(("name", "params"), _signature_headings())
def test_a_heading_signature_names_the_parameters_the_code_takes(name: str, params: str) -> None:
    # A tester found docs/langchain.md's MemoriStore(...) heading without its supersede=True.
    import memori_langchain
    import memori_llamaindex

    target = getattr(memori_langchain, name, None) or getattr(memori_llamaindex, name)
    args = ast.parse(f"def {name}({params}): pass").body[0].args  # type: ignore[attr-defined]
    documented = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    fields = getattr(target, "model_fields", None)
    if fields is not None:
        real = [n for n in fields if n not in _RUNNABLE_FIELDS]
    else:
        real = [p.name for p in inspect.signature(target).parameters.values()
                if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
    assert sorted(documented) == sorted(real)
