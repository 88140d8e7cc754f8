"""Helpers shared by the tests: a deterministic hashing embedder and a real `chroma run` server.

Import them from here (``from _helpers import HashEmbedder``); ``conftest.py`` holds
the fixtures and re-exports these names for older imports.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from memori_core.text import unicode_tokenize

__all__ = ["HashEmbedder", "free_port", "running_chroma_server", "_chroma_cli"]


class HashEmbedder:
    """Bag-of-words embedder by feature hashing: deterministic, instant, no model.

    Texts sharing words get similar vectors, which is all the engine tests
    need; the tests that need real semantics use the local MiniLM.
    """

    name = "hash-embedder"

    def __init__(self, dim: int = 64) -> None:
        self.dim = dim
        self.calls = 0

    def _vec(self, text: str) -> np.ndarray:
        v = np.zeros(self.dim, dtype=np.float32)
        v[0] = 0.05  # never all-zero, even for text without words
        for tok in unicode_tokenize(text):
            h = int.from_bytes(hashlib.blake2b(tok.encode(), digest_size=8).digest(), "little")
            v[h % self.dim] += 1.0 if (h >> 32) & 1 else -1.0
        return v

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        self.calls += 1
        return np.stack([self._vec(t) for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        self.calls += 1
        return self._vec(text)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _chroma_cli() -> list[str]:
    exe = shutil.which("chroma", path=str(Path(sys.executable).parent)) or shutil.which("chroma")
    if exe is None:
        pytest.fail("the `chroma` command of chromadb is not installed")
    return [exe]


@contextlib.contextmanager
def running_chroma_server(data: Path, port: int | None = None) -> Iterator[tuple[str, int, subprocess.Popen]]:
    """A real `chroma run` over ``data/db`` on ``port`` (default: a free loopback port): (host, port, process),
    stopped on exit. Pass the port of a killed server to restart it where its clients look."""
    import chromadb

    port = port or free_port()
    log = open(data / "server.log", "wb")
    env = dict(os.environ, ANONYMIZED_TELEMETRY="False")
    proc = subprocess.Popen(
        [*_chroma_cli(), "run", "--path", str(data / "db"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(f"chroma run exited with {proc.returncode}: {(data / 'server.log').read_text()[-2000:]}")
            try:
                chromadb.HttpClient(host="127.0.0.1", port=port).heartbeat()
                break
            except Exception:
                if time.monotonic() > deadline:
                    pytest.fail("chroma run did not answer within 60 s")
                time.sleep(0.2)
        yield "127.0.0.1", port, proc
    finally:
        if proc.poll() is None:
            if hasattr(signal, "SIGCONT"):
                proc.send_signal(signal.SIGCONT)  # a test may have stopped it
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()
