"""Shared fixtures: the hashing embedder, engines (``engine``; ``ungated``, every gate off), the local MiniLM, a
real `chroma run` server, and ``close_chat_stores`` for the LlamaIndex modules (``usefixtures``).

Helpers that tests import (``HashEmbedder``, ``running_chroma_server``, ``free_port``)
live in ``_helpers.py``; import them from there. They are re-exported here so that
``from conftest import HashEmbedder`` keeps working.

Test tiers (markers, see pyproject.toml): a test that uses the ``minilm`` fixture is
marked ``model`` and one that uses ``chroma_server`` is marked ``server`` automatically;
``make test-fast`` runs ``-m "not model and not server and not slow"``.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

from _helpers import HashEmbedder, _chroma_cli, free_port, running_chroma_server, ungated_engine
from memori_core import ChromaStore, RecallConfig, RecallEngine

__all__ = ["HashEmbedder", "_chroma_cli", "free_port", "running_chroma_server"]

# Every store a test or fixture makes is closed when its owner is done (the tests' in-memory Chroma stays small).
pytest_plugins = ["_closing_stores", "pytester"]

# Fixtures whose use puts a test in a tier, whatever the test file says.
FIXTURE_MARKERS = {"minilm": "model", "chroma_server": "server"}


@pytest.hookimpl(hookwrapper=True)
def pytest_collection(session: pytest.Session) -> Iterator[None]:
    """Collect with the cyclic garbage collector paused, then freeze what collection built.

    Collecting imports the test modules and, through them, chromadb, LangChain, LlamaIndex and
    the provider SDKs: hundreds of thousands of long-lived objects and almost no garbage. Each
    full collection walks all of them again (about 3 s of a fast run). ``gc.freeze()`` moves
    them out of the collector's sight; objects the tests create are collected as usual.
    """
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for fixture, marker in FIXTURE_MARKERS.items():
            if fixture in getattr(item, "fixturenames", ()) and item.get_closest_marker(marker) is None:
                item.add_marker(marker)


@pytest.fixture
def hash_embedder() -> HashEmbedder:
    return HashEmbedder()


@pytest.fixture
def engine(hash_embedder: HashEmbedder) -> RecallEngine:
    """An engine over a fresh in-memory Chroma store with the hashing embedder."""
    return RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder, config=RecallConfig())


@pytest.fixture
def ungated(hash_embedder: HashEmbedder) -> RecallEngine:
    """``engine`` with every gate off (``gate="off"``): it recalls everything, best first (the
    hashing embedder's cosines mean nothing to the relevance gate); see ``_helpers.ungated_engine``."""
    return ungated_engine(hash_embedder)


@pytest.fixture
def close_chat_stores(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Close the SQLite chat stores that llama_index's ``Memory.from_defaults()`` opens (llama_index never closes
    them); a LlamaIndex test module turns it on with ``pytest.mark.usefixtures("close_chat_stores")``.

    Left open, each store's aiosqlite connection is finalised by the garbage collector during some later test;
    its worker thread then answers an event loop that test has closed ("RuntimeError: Event loop is closed",
    reported as PytestUnhandledThreadExceptionWarning against an unrelated test).
    """
    import asyncio

    from llama_index.core.storage.chat_store import sql

    engines: list[Any] = []
    create = sql.create_async_engine

    def tracked(*args: Any, **kwargs: Any) -> Any:
        engines.append(create(*args, **kwargs))
        return engines[-1]

    monkeypatch.setattr(sql, "create_async_engine", tracked)
    yield
    for async_engine in engines:
        asyncio.run(async_engine.dispose())


@pytest.fixture(scope="session")
def minilm():
    """The real local all-MiniLM-L6-v2 (loaded once per test session)."""
    from memori_core import default_embedder

    return default_embedder()


@pytest.fixture(scope="session")
def chroma_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """A real `chroma run` server on a free loopback port, for the whole session."""
    with running_chroma_server(tmp_path_factory.mktemp("chroma-server")) as (host, port, _):
        yield host, port
