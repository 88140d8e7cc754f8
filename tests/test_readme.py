"""README.md's Python snippets run as written and print what the README says they print.

Conventions in README.md (see its end, "About this page"):

* every ```python block is a complete script: it runs in a fresh process state of its own
  (a new current folder, ``MEMORI_RECALL_PATH`` pointing into it, offline: ``HF_HUB_OFFLINE``),
  as a newcomer would paste it;
* a ```text block right after it (blank lines between are allowed) is the standard output the
  script prints. ``...`` in it stands for any text (doctest's ELLIPSIS), and a decimal number
  matches within 0.005 (the MiniLM's scores may move in the last digit between machines);
* ``<!-- readme-test: skip (reason) -->`` on the line before a block leaves it out (a block that
  needs a server or an API key); such blocks must be few and say why.

To save the model load, the blocks run one after the other in one subprocess (each in its own
namespace, folder and store); each block is still its own test, and a block that crashes or
hangs the process is named. ``python tests/test_readme.py`` prints every block's real output
(to write or update the README's text blocks).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MAX_SKIPPED = 3

_FENCE = re.compile(r"^```(\w*)\s*$")
_SKIP = re.compile(r"^<!--\s*readme-test:\s*skip\s*\((?P<why>[^)]+)\)\s*-->\s*$")
_HEADING = re.compile(r"^#+\s+(.*)$")


@dataclass(frozen=True)
class Block:
    line: int  # 1-based line of the opening fence
    section: str
    code: str
    expected: str | None  # the text block that follows, if any
    skip: str | None  # the reason, for a block marked skip
    page: str = "README.md"

    @property
    def name(self) -> str:
        slug = re.sub(r"[^a-z0-9]+", "-", self.section.lower()).strip("-")[:40]
        return f"{self.page}:{self.line}-{slug}"


def readme_blocks(path: Path = README) -> list[Block]:
    """The ```python blocks of ``path``, with the ```text block that follows each and its skip marker."""
    lines = path.read_text(encoding="utf-8").splitlines()
    fences: list[tuple[int, int, str]] = []  # (open index, close index, language) of every fenced block
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if m:
            j = i + 1
            while j < len(lines) and lines[j].rstrip() != "```":
                j += 1
            if j == len(lines):
                raise AssertionError(f"{path.name}:{i + 1}: unclosed code fence")
            fences.append((i, j, m.group(1)))
            i = j + 1
        else:
            i += 1
    blocks = []
    for n, (start, end, lang) in enumerate(fences):
        if lang != "python":
            continue
        section = ""
        for k in range(start, -1, -1):
            h = _HEADING.match(lines[k])
            if h and not any(a < k < b for a, b, _ in fences):
                section = h.group(1)
                break
        prev = next((lines[k] for k in range(start - 1, -1, -1) if lines[k].strip()), "")
        skip = _SKIP.match(prev.strip())
        expected = None
        if n + 1 < len(fences):
            nstart, nend, nlang = fences[n + 1]
            if nlang == "text" and all(not lines[k].strip() for k in range(end + 1, nstart)):
                expected = "\n".join(lines[nstart + 1 : nend])
        blocks.append(Block(start + 1, section, "\n".join(lines[start + 1 : end]) + "\n", expected,
                            skip.group("why") if skip else None, path.name))
    return blocks


# -- output comparison ---------------------------------------------------------

_NUMBER = re.compile(r"(?<![\w.])-?\d+\.\d+(?![\w.])")
TOLERANCE = 0.005


def _normalise(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines()).strip("\n")


def output_mismatch(expected: str, actual: str) -> str | None:
    """``None`` when ``actual`` is what ``expected`` shows (ellipses, number tolerance), else why not."""
    exp, act = _normalise(expected), _normalise(actual)
    pattern, numbers = [], []
    for piece in re.split(r"(\.\.\.)", exp):
        if piece == "...":
            pattern.append(r"[\s\S]*?")
            continue
        pos = 0
        for m in _NUMBER.finditer(piece):
            pattern.append(re.escape(piece[pos : m.start()]))
            pattern.append(r"(-?\d+\.\d+)")
            numbers.append(m.group())
            pos = m.end()
        pattern.append(re.escape(piece[pos:]))
    m = re.fullmatch("".join(pattern), act)
    if m is None:
        return f"the output differs from the README's text block.\n--- README ---\n{exp}\n--- real ---\n{act}"
    for want, got in zip(numbers, m.groups()):
        if abs(float(want) - float(got)) > TOLERANCE:
            return f"{got} where the README shows {want}.\n--- README ---\n{exp}\n--- real ---\n{act}"
    return None


# -- running -------------------------------------------------------------------

_RUNNER = r'''
import contextlib, io, json, os, sys, tempfile, traceback
blocks = json.load(open(sys.argv[1], encoding="utf-8"))
results = open(sys.argv[2], "a", encoding="utf-8")
home = os.getcwd()
for block in blocks:
    results.write(json.dumps({"name": block["name"], "started": True}) + "\n")
    results.flush()
    folder = tempfile.mkdtemp(prefix="readme-block-", dir=sys.argv[3])
    os.chdir(folder)
    os.environ["MEMORI_RECALL_PATH"] = os.path.join(folder, "memori-recall")
    out, err, error = io.StringIO(), io.StringIO(), None
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            exec(compile(block["code"], block["name"], "exec"), {"__name__": "__main__"})
    except BaseException:  # noqa: BLE001 - SystemExit too: a block must not end the run
        error = traceback.format_exc()
    finally:
        os.chdir(home)
    results.write(json.dumps({"name": block["name"], "stdout": out.getvalue(), "stderr": err.getvalue(),
                              "error": error}) + "\n")
    results.flush()
'''


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}  # never call a provider
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", ANONYMIZED_TELEMETRY="False", PYTHONUNBUFFERED="1")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    return env


def run_blocks(blocks: list[Block], workdir: Path, timeout: float = 900) -> dict[str, dict]:
    """Run ``blocks`` in one subprocess; each block's stdout, stderr and error (a traceback or None) by name."""
    spec, results, runner = workdir / "blocks.json", workdir / "results.jsonl", workdir / "runner.py"
    spec.write_text(json.dumps([{"name": b.name, "code": b.code} for b in blocks]), encoding="utf-8")
    runner.write_text(_RUNNER, encoding="utf-8")
    results.write_text("", encoding="utf-8")
    failure = None
    try:
        proc = subprocess.run([sys.executable, str(runner), str(spec), str(results), str(workdir)], cwd=workdir,
                              env=_env(), capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0:
            failure = f"the process running the README's blocks exited with {proc.returncode}:\n{proc.stderr[-3000:]}"
    except subprocess.TimeoutExpired:
        failure = f"the process running the README's blocks did not finish in {timeout:.0f} s"
    done: dict[str, dict] = {}
    for line in results.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("started"):
            done[record["name"]] = {"error": failure or "the process ended during this block", "stdout": "",
                                    "stderr": ""}
        else:
            done[record["name"]] = record
    for b in blocks:
        done.setdefault(b.name, {"error": failure or "not run", "stdout": "", "stderr": ""})
    return done


BLOCKS = readme_blocks()
RUNNABLE = [b for b in BLOCKS if b.skip is None]


# -- fast checks (no model) ----------------------------------------------------

def test_readme_has_snippets_with_outputs() -> None:
    assert len(RUNNABLE) >= 8
    assert sum(b.expected is not None for b in RUNNABLE) >= 6


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.name)
def test_block_compiles(block: Block) -> None:
    """Syntax, and no top-level ``await`` (it does not compile outside a notebook)."""
    compile(block.code, block.name, "exec")


def test_skipped_blocks_are_few_and_say_why() -> None:
    skipped = [b for b in BLOCKS if b.skip is not None]
    assert len(skipped) <= MAX_SKIPPED, [b.name for b in skipped]
    for b in skipped:
        assert len(b.skip.strip()) >= 10, f"{b.name}: say why the block cannot run"
        assert b.expected is None, f"{b.name}: a skipped block's output cannot be checked; show none"


def test_output_matching_rules() -> None:
    assert output_mismatch("a 0.463\n...\nend", "a 0.4649\nanything\nmore\nend  ") is None
    assert output_mismatch("a 0.463", "a 0.47") is not None
    assert output_mismatch("Stated at 2026-05-01 09:30 UTC", "Stated at 2026-05-01 09:31 UTC") is not None
    assert output_mismatch("id: ...", "id: 3f2a") is None


def test_core_dependencies_are_the_ones_the_readme_names() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    names = [re.split(r"[<>=!~\[ ;]", d, maxsplit=1)[0] for d in deps]
    text = README.read_text(encoding="utf-8")
    sentence = next(line for line in text.splitlines() if line.startswith("The core depends on"))
    for name in names:
        assert f"`{name}`" in sentence, f"{name} (pyproject.toml) is not named in: {sentence}"


# -- the blocks themselves (one subprocess, the local MiniLM) ---------------------

@pytest.fixture(scope="module")
def block_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    return run_blocks(RUNNABLE, tmp_path_factory.mktemp("readme"))


@pytest.mark.model
@pytest.mark.slow
@pytest.mark.parametrize("block", RUNNABLE, ids=lambda b: b.name)
def test_block_runs_and_prints_what_the_readme_shows(block: Block, block_results: dict[str, dict]) -> None:
    assert_ran_as_shown(block, block_results[block.name])


def assert_ran_as_shown(block: Block, result: dict) -> None:
    """``block`` ran without an error or an adapter failing open, and printed its text block (when it has one)."""
    assert result["error"] is None, f"{block.name} failed:\n{result['error']}\nstderr:\n{result['stderr'][-2000:]}"
    assert "continuing without memory" not in result["stderr"], result["stderr"][-2000:]  # an adapter failed open
    if block.expected is not None:
        problem = output_mismatch(block.expected, result["stdout"])
        assert problem is None, f"{block.name}: {problem}"


if __name__ == "__main__":  # print every block's real output (for writing the README)
    only = sys.argv[1:]
    chosen = [b for b in RUNNABLE if not only or any(o in b.name for o in only)]
    with tempfile.TemporaryDirectory() as tmp:
        found = run_blocks(chosen, Path(tmp))
    for b in chosen:
        r = found[b.name]
        status = "ok" if r["error"] is None else "FAILED"
        if r["error"] is None and b.expected is not None:
            status = "ok, output matches" if output_mismatch(b.expected, r["stdout"]) is None else "OUTPUT DIFFERS"
        print(f"===== {b.name}: {status}")
        print(r["stdout"], end="")
        if r["error"]:
            print(r["error"], r["stderr"][-2000:], sep="\n")
