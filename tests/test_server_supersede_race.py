"""Two real processes over one `chroma run` server supersede the same fact at the same moment ("User lives in
Oslo." replaced by "... Rome." in one and "... Paris." in the other), round after round: afterwards each user has
one valid home, the newest add's; the other is kept as history, superseded by it, and can be restored.
On the code before the fix both homes stayed valid in the first round.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest

import memori_core
from _helpers import HashEmbedder
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.engine import derived_fact_id

pytestmark = [pytest.mark.server, pytest.mark.slow]

ROUNDS = 12
OSLO = "User lives in Oslo."
HOMES = {"rome": "User lives in Rome.", "paris": "User lives in Paris."}

_WORKER = """
import json, sys
sys.path[:0] = [{tests!r}, {root!r}]
from _helpers import HashEmbedder
from memori_core import ChromaStore, RecallConfig, RecallEngine
store = ChromaStore.http(host={host!r}, port={port}, collection={collection!r}, timeout=10.0)
engine = RecallEngine(store=store, embedder=HashEmbedder(), config=RecallConfig(gate="off"))
for line in sys.stdin:
    entity, text, old = json.loads(line)
    try:
        engine.add(entity, text, supersedes=[old])
        print(json.dumps("ok"), flush=True)
    except Exception as exc:
        print(json.dumps(repr(exc)), flush=True)
"""


def _worker(host: str, port: int, collection: str) -> subprocess.Popen[str]:
    code = textwrap.dedent(_WORKER.format(tests=str(Path(__file__).resolve().parent),
                                          root=str(Path(memori_core.__file__).resolve().parent.parent),
                                          host=host, port=port, collection=collection))
    return subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            bufsize=1)


def _engine(host: str, port: int, collection: str) -> RecallEngine:
    store = ChromaStore.http(host=host, port=port, collection=collection, timeout=10.0)
    return RecallEngine(store=store, embedder=HashEmbedder(), config=RecallConfig(gate="off"))


def test_two_processes_superseding_one_fact_at_once_leave_one_valid_successor(
    chroma_server: tuple[str, int]
) -> None:
    host, port = chroma_server
    collection = f"t_{uuid.uuid4().hex}"
    engine = _engine(host, port, collection)
    oslo = derived_fact_id(OSLO)
    users = [f"race{i}" for i in range(ROUNDS)]
    for user in users:
        engine.add(user, OSLO)
    workers = {city: _worker(host, port, collection) for city in HOMES}
    try:
        for user in users:
            for city, proc in workers.items():  # both lines sent before either worker answers: the adds race
                assert proc.stdin is not None
                proc.stdin.write(json.dumps([user, HOMES[city], oslo]) + "\n")
                proc.stdin.flush()
            for proc in workers.values():
                assert proc.stdout is not None
                assert json.loads(proc.stdout.readline()) == "ok"
    finally:
        for proc in workers.values():
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait(timeout=60)
    fresh = _engine(host, port, collection)
    for user in users:
        valid = [f for f in fresh.list(user) if f.content in HOMES.values()]
        assert len(valid) == 1, f"{user}: {[f.content for f in valid]} are all valid"
        winner = valid[0]
        history = fresh.history(user, oslo)
        assert [f.content for f in history][0] == OSLO and history[-1].id == winner.id
        assert {f.content for f in history} == {OSLO, *HOMES.values()}
        loser = next(f for f in history if f.content not in (OSLO, winner.content))
        assert loser.superseded_by == winner.id and loser.valid_to is not None
        assert (loser.created_at or "") <= (winner.created_at or "")  # the newer add stays
    user = users[0]  # a superseded successor can be restored like any superseded fact
    loser_id = next(f.id for f in fresh.history(user, oslo) if f.valid_to is not None and f.content != OSLO)
    restored = fresh.restore(user, loser_id)
    assert restored.valid_to is None and loser_id in [f.id for f in fresh.list(user)]

