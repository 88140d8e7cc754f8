"""The lost-reply scenario (issue 23) that ``test_lost_replies.py`` checks and ``benchmarks/bench_faults.py`` times.

- user u's facts (:data:`FACTS`) and the one write of user u each case makes (:func:`write_u`);
- an engine over a `chroma run` server, or over the proxy in front of it (:func:`engine_over`), and what it
  recalls of a user (:func:`recalled`);
- :class:`Reader`: another process with its own engine over the server, recalling when asked.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import memori_core
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.engine import derived_fact_id

__all__ = ["ADDED", "FACTS", "Reader", "engine_over", "recalled", "write_u"]

FACTS = [f"User fact number {i} about tea." for i in range(20)]
"""User u's facts, stored before the write."""

ADDED = "User adopted a parrot who drinks tea."
"""The fact the ``"add"`` write adds."""

OPEN = RecallConfig(gate="off")

_TESTS = Path(__file__).resolve().parent
_CODE_ROOT = Path(memori_core.__file__).resolve().parent.parent  # the code this process runs, for the reader too

_READER = """
import json, sys
sys.path[:0] = [{tests!r}, {root!r}]
from _helpers import HashEmbedder
from memori_core import ChromaStore, RecallConfig, RecallEngine
store = ChromaStore.http(host={host!r}, port={port}, collection={collection!r}, timeout={timeout})
engine = RecallEngine(store=store, embedder=HashEmbedder(), config=RecallConfig(gate="off"))
for line in sys.stdin:
    entity, query = line.rstrip("\\n").split("\\t", 1)
    try:
        facts = sorted(f.content for f in engine.recall(query, entity, limit=100))
        print(json.dumps({{"facts": facts, "kept": engine._coord.caches.get(entity) is not None}}), flush=True)
    except Exception as exc:
        print(json.dumps({{"error": repr(exc)}}), flush=True)
"""


def engine_over(port: int, collection: str, timeout: float, embedder: Any) -> RecallEngine:
    """An engine (every gate off) over ``collection`` of the server, or proxy, at loopback ``port``."""
    store = ChromaStore.http(host="127.0.0.1", port=port, collection=collection, timeout=timeout)
    return RecallEngine(store=store, embedder=embedder, config=OPEN)


def recalled(engine: RecallEngine, entity: str = "u") -> list[str]:
    """Every fact of ``entity`` that a recall of "tea" returns, sorted."""
    return sorted(f.content for f in engine.recall("tea", entity, limit=100))


def write_u(engine: RecallEngine, write: str) -> BaseException | None:
    """One write of user u (``"forget"``, ``"delete"`` of FACTS[0], ``"update"`` of FACTS[1], else ``"add"`` of
    :data:`ADDED`), the facts of FACTS stored before; the error it raised, if any."""
    try:
        if write == "forget":
            engine.forget("u")
        elif write == "delete":
            engine.delete("u", [derived_fact_id(FACTS[0])])
        elif write == "update":
            engine.update("u", derived_fact_id(FACTS[1]), text="User fact number one about green tea.")
        else:
            engine.add("u", ADDED)
    except Exception as exc:  # noqa: BLE001 - a late or lost reply may fail the write; the caller judges it
        return exc
    return None


class Reader:
    """Another process with its own engine over the server (no proxy): it recalls when asked."""

    def __init__(self, host: str, port: int, collection: str, timeout: float) -> None:
        code = textwrap.dedent(_READER.format(tests=str(_TESTS), root=str(_CODE_ROOT), host=host, port=port,
                                              collection=collection, timeout=timeout))
        self.proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    def recall(self, entity: str = "u", query: str = "tea", *, errors: bool = False) -> dict[str, Any]:
        """The reader's answer: ``{"facts": sorted texts, "kept": whether it holds a copy of the entity}``.

        A recall that raised in the reader fails here (``AssertionError``), unless ``errors``: then the answer
        is ``{"error": repr}``."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{entity}\t{query}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, f"the reader process died (exit {self.proc.poll()})"
        out = json.loads(line)
        assert errors or "error" not in out, out["error"]
        return out

    def close(self) -> None:
        """End the reader (killed if it has not ended 30 s after its input closed)."""
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
