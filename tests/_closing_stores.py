"""A pytest plugin (loaded by ``conftest.py``): every ``ChromaStore`` a test or a fixture makes is closed once its
owner is done with it, so that the tests' in-memory Chroma does not grow through a whole run.

All in-memory Chroma clients of a process share one Chroma system, which frees nothing while any of its clients
is open (:func:`memori_core.store.chroma_client.release_unused_ephemeral`). A store that a test drops is released
when it is freed, but objects the frameworks keep (LangGraph nodes held where the garbage collector cannot see
them, engines in reference cycles, pools whose threads wait) keep stores open for the rest of the run, and with
them every later test's Chroma memory. So the owner of each store closes it, whatever still points at it:

* a store made while a fixture is set up is closed after that fixture's teardown (a module-scoped one at the end
  of its module, after its own checks);
* a store made by a test's body is closed at the end of that test's teardown;
* after a module's last test, the in-memory stores dropped but not released yet are released, so that the next
  module starts on a new Chroma system.

Closing a store closes the engines over it too (their capture and async threads end). This happens only after
the owner's last use, so no test sees it. A store made anywhere else (at import, in a teardown) is left alone.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import logging
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

from memori_core import ChromaStore
from memori_core.store.chroma_client import release_unused_ephemeral

logger = logging.getLogger(__name__)

_made: dict[int, weakref.ref[ChromaStore]] = {}
"""Stores made and not claimed yet by a fixture or a test, by order of making."""
_order = itertools.count()
_owned: dict[Any, list[weakref.ref[ChromaStore]]] = {}
"""The stores each fixture definition (or test item) made, closed when it is done."""


def _tracking(init: Any) -> Any:
    @functools.wraps(init)
    def tracked(self: ChromaStore, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        _made[next(_order)] = weakref.ref(self)

    tracked.original = init  # type: ignore[attr-defined]
    return tracked


def _claim(since: int) -> list[weakref.ref[ChromaStore]]:
    """The unclaimed stores made since order ``since`` (a nested fixture's were claimed by it already)."""
    mine = [n for n in _made if n >= since]
    return [_made.pop(n) for n in mine]


def _close(refs: list[weakref.ref[ChromaStore]]) -> None:
    for ref in refs:
        store = ref()
        if store is None or store.closed:
            continue
        try:
            store.close()
        except Exception as exc:  # noqa: BLE001 - a store a test broke on purpose may fail to close
            logger.debug("could not close a test's store: %s", exc)


def pytest_configure(config: pytest.Config) -> None:
    ChromaStore.__init__ = _tracking(ChromaStore.__init__)  # type: ignore[method-assign]


def pytest_unconfigure(config: pytest.Config) -> None:
    original = getattr(ChromaStore.__init__, "original", None)
    if original is not None:
        ChromaStore.__init__ = original  # type: ignore[method-assign]


@contextlib.contextmanager
def _owning(owner: Any) -> Iterator[None]:
    since = next(_order)
    try:
        yield
    finally:
        _owned.setdefault(owner, []).extend(_claim(since))


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(fixturedef: pytest.FixtureDef[Any], request: pytest.FixtureRequest) -> Iterator[Any]:
    with _owning(fixturedef):
        return (yield)


def pytest_fixture_post_finalizer(fixturedef: pytest.FixtureDef[Any], request: pytest.FixtureRequest) -> None:
    _close(_owned.pop(fixturedef, []))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    with _owning(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    try:
        return (yield)
    finally:
        _close(_owned.pop(item, []))
        if nextitem is None or nextitem.path != item.path:
            release_unused_ephemeral()
            for gone in [n for n, ref in _made.items() if ref() is None]:  # made where no one owns them
                del _made[gone]
