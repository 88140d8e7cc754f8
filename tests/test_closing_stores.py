"""The test-suite plugin ``_closing_stores``: each store is closed once the fixture or test that made it is done,
never before, and a module's end leaves no in-memory Chroma client of its own open. Checked on a real inner pytest
run over real in-memory Chroma stores and an engine."""

from __future__ import annotations

import pytest

FIRST = '''
import pytest
from chromadb.api.shared_system_client import SharedSystemClient

from memori_core import ChromaStore, RecallEngine
from _helpers import HashEmbedder

OPEN_BEFORE = SharedSystemClient._identifier_to_refcount.get("ephemeral", 0)
SEEN = {}


@pytest.fixture(scope="module")
def shared():
    store = ChromaStore.in_memory()
    yield store
    SEEN["module store open at its teardown"] = not store.closed
    ChromaStore.in_memory()  # made in a teardown and dropped at once: released at the module's end


@pytest.fixture
def made():
    return ChromaStore.in_memory()


def test_a_makes_stores(shared, made):
    SEEN["shared"], SEEN["fixture"] = shared, made
    SEEN["body"] = ChromaStore.in_memory()
    SEEN["engine"] = RecallEngine(store=SEEN["body"], embedder=HashEmbedder())
    SEEN["engine"].add("ann", ["User lives in Lisbon."])
    assert not made.closed and not SEEN["body"].closed


def test_b_sees_them_closed_after_their_owners(shared):
    assert SEEN["fixture"].closed and SEEN["body"].closed
    assert SEEN["engine"].closed  # an engine closes with its store
    assert shared is SEEN["shared"] and not shared.closed  # still the module's, open
    assert shared.count("ann") == 0
'''

SECOND = '''
from chromadb.api.shared_system_client import SharedSystemClient

from test_first import OPEN_BEFORE, SEEN


def test_c_the_first_module_left_no_client_open():
    assert SEEN["module store open at its teardown"] is True
    assert SEEN["shared"].closed
    assert SharedSystemClient._identifier_to_refcount.get("ephemeral", 0) == OPEN_BEFORE
'''


def test_stores_are_closed_after_their_owner_and_a_module_leaves_no_client_open(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_first=FIRST, test_second=SECOND)
    result = pytester.runpytest_inprocess("-p", "_closing_stores", "-p", "no:cacheprovider", "-q",
                                        "-o", "asyncio_default_fixture_loop_scope=function")
    result.assert_outcomes(passed=3)
