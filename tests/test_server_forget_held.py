"""A turn a ``MemoriMemoryBlock`` held while a real ``chroma run`` was down is not stored after another process
forgot its user (tester j15, finding 1): worker A holds "I am pregnant." through the outage, worker B (another
process, the app's "delete my data" endpoint) calls ``engine.forget`` once the server is back, and A's next turn
of any user used to store the held turn. The forget is recorded on the user's revision record on the server, and
A's write of the held turn reads it. Real LlamaIndex ``Memory`` and ``SimpleChatEngine`` with LlamaIndex's mock
LLM; the breaker's clock is moved by the test."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms.mock import MockLLM
from llama_index.core.memory import Memory

from _helpers import Clock, HashEmbedder, child_env, outage_engine, running_chroma_server, ungated_engine
from memori_core import ChromaStore, RecallEngine
from memori_llamaindex import MemoriMemoryBlock

pytestmark = [pytest.mark.server, pytest.mark.skipif(os.name != "posix", reason="needs SIGKILL"),
              pytest.mark.filterwarnings("ignore::DeprecationWarning:inspect")]

WAIT = 60.0

_FORGET = """
import sys
from memori_core import ChromaStore, RecallEngine
engine = RecallEngine(store=ChromaStore.http(host="127.0.0.1", port={port}, collection="{collection}", timeout=5.0),
                      embedder=lambda texts: [[1.0] * 8 for _ in texts])
engine.forget("{user}")
print("forgotten")
"""


def _chat(engine: RecallEngine, user: str) -> tuple[SimpleChatEngine, MemoriMemoryBlock]:
    block = MemoriMemoryBlock(engine=engine, entity_id=user, capture=True)
    memory = Memory.from_defaults(session_id=f"chat-{user}", memory_blocks=[block])
    return SimpleChatEngine.from_defaults(llm=MockLLM(), memory=memory), block


def _forget_in_another_process(port: int, collection: str, user: str) -> None:
    script = _FORGET.format(port=port, collection=collection, user=user)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=child_env())
    assert run.returncode == 0 and run.stdout.strip() == "forgotten", run.stderr[-3000:]


def test_a_turn_held_through_an_outage_is_not_stored_after_another_process_forgot_its_user(tmp_path: Path) -> None:
    clock, collection = Clock(1000.0), f"t_{uuid.uuid4().hex}"
    with running_chroma_server(tmp_path) as (host, port, proc):
        engine = outage_engine(host, port, collection, 10.0, clock)
        ana, ana_block = _chat(engine, "ana")
        ana.chat("I live in Lisbon.")
        assert ana_block.flush(WAIT).completed == 1
        proc.kill()
        proc.wait()
        ana.chat("I am pregnant.")  # answered without memory; its capture is held
        assert ana_block.flush(WAIT).held == 1
    with running_chroma_server(tmp_path, port=port):  # the same data folder and port
        _forget_in_another_process(port, collection, "ana")
        clock.advance(10)
        ben, ben_block = _chat(engine, "ben")
        ben.chat("I play the cello.")  # this worker's next request, another user's: the held turn goes too
        assert ben_block.flush(WAIT).completed == 1 and ben_block.capture_stats.held == 0
        assert (ana_block.flush(WAIT).erased, ben_block.capture_stats.erased) == (1, 0)  # counted where it was held
        reader = ungated_engine(HashEmbedder(), store=ChromaStore.http(host=host, port=port, collection=collection))
        assert reader.list("ana", include_invalid=True) == []
        assert [f.content for f in reader.list("ben")] == ["User plays the cello."]
        assert reader.store.forgotten_at("ana") is not None
