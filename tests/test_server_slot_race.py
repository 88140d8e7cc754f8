"""Two processes capturing one user at the same moment over a real ``chroma run`` (tester j20, finding 8): one
says "I moved to Porto last month.", the other "I moved to Braga yesterday." a minute later, each captured
before the other's write landed. One process ends Porto; two kept both homes valid. The interleaving is forced:
the first capture's extractor, right after its look at the user's facts, waits until the other process's capture
has written. Real processes, the real rule-based extractor, the hashing embedder."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

import pytest

from _helpers import HashEmbedder, child_env, running_chroma_server, ungated_engine, write_script
from memori_core import ChromaStore

pytestmark = pytest.mark.server

PORTO = ("I moved to Porto last month.", "2026-11-02T09:05:00+01:00")
BRAGA = ("I moved to Braga yesterday.", "2026-11-02T09:06:00+01:00")

_WORKER = """
    import os, sys, time
    sys.path.insert(0, {tests!r})
    from _helpers import HashEmbedder, ungated_engine
    from memori_core import ChromaStore, RuleBasedFactExtractor, capture_facts
    from memori_core.extraction import Message

    role, text, said_at = sys.argv[1], sys.argv[2], sys.argv[3]
    flags = {flags!r}

    def wait_for(name):
        ends = time.monotonic() + 90
        while not os.path.exists(os.path.join(flags, name)):
            assert time.monotonic() < ends, name
            time.sleep(0.05)

    class PausedAfterItsLook(RuleBasedFactExtractor):
        # The first extraction (the capture's own, right after it read the user's facts) waits for the other
        # process's write; a later one (a look after the write) does not.
        paused = False

        def extract(self, messages, existing=()):
            if role == "first" and not PausedAfterItsLook.paused:
                PausedAfterItsLook.paused = True
                open(os.path.join(flags, "looked"), "w").close()
                wait_for("written")
            return super().extract(messages, existing)

    engine = ungated_engine(HashEmbedder(), store=ChromaStore.http(host="127.0.0.1", port={port},
                                                                    collection={collection!r}))
    if role == "second":
        wait_for("looked")
    capture_facts(engine, "shared", [Message("user", text)], PausedAfterItsLook(), created_at=said_at)
    if role == "second":
        open(os.path.join(flags, "written"), "w").close()
    engine.close()
"""


@pytest.mark.parametrize(("first", "second"), [(PORTO, BRAGA), (BRAGA, PORTO)],
                         ids=["the-earlier-said-written-last", "the-later-said-written-last"])
def test_a_move_captured_by_another_process_at_the_same_moment_ends_the_home_said_earlier(
    tmp_path: Path, first: tuple[str, str], second: tuple[str, str],
) -> None:
    collection, flags = f"t_{uuid.uuid4().hex}", tmp_path / "flags"
    flags.mkdir()
    with running_chroma_server(tmp_path) as (host, port, _):
        script = write_script(tmp_path, "worker.py", _WORKER, flags=str(flags), port=port, collection=collection)
        workers = [subprocess.Popen([sys.executable, str(script), role, text, at], env=child_env(),
                                    stderr=subprocess.PIPE, text=True)
                   for role, (text, at) in (("first", first), ("second", second))]
        started = time.monotonic()
        for worker in workers:
            _, err = worker.communicate(timeout=180)
            assert worker.returncode == 0, err[-3000:]
        assert time.monotonic() - started < 180
        reader = ungated_engine(HashEmbedder(), store=ChromaStore.http(host=host, port=port, collection=collection))
        facts = {f.content: f for f in reader.list("shared", include_invalid=True)}
        valid = [f.content for f in reader.list("shared")]
    assert sorted(facts) == ["User lives in Braga.", "User lives in Porto."]
    assert valid == ["User lives in Braga."]
    porto, braga = facts["User lives in Porto."], facts["User lives in Braga."]
    assert porto.superseded_by == braga.id and porto.id in braga.supersedes
    assert datetime.fromisoformat(porto.valid_to) == datetime(2026, 11, 2, 8, 6, tzinfo=timezone.utc)
