"""Load upstream Memori's ``memori.search`` package without running ``memori/__init__.py``.

``memori/__init__.py`` pulls in LLM SDK integrations, storage drivers and a
protobuf pin that conflict with this project's dependencies; the search
module itself needs only numpy and faiss. So we register a bare ``memori``
package (no code executed) just long enough to import ``memori.search``,
then put ``sys.modules`` back as it was, so nothing else in the test session
sees the stand-in package.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from functools import lru_cache
from typing import Any


MISSING = (
    "upstream Memori (memori==3.3.6) is not installed: `make install-dev` installs it "
    "(pip install --no-deps memori==3.3.6; its own dependencies are not needed)"
)


def require_memori() -> Any:
    """The import spec of upstream ``memori``; skips the calling test when it is not installed."""
    import pytest

    spec = importlib.util.find_spec("memori")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip(MISSING)
    return spec


@lru_cache(maxsize=1)
def load_memori_search() -> Any:
    """Return upstream ``memori.search`` (its modules ``_api``, ``_lexical`` ... are attributes).

    Skips the calling test when upstream Memori is not installed (:func:`require_memori`).
    """
    if "memori.search" in sys.modules:
        return sys.modules["memori.search"]
    spec = require_memori()
    before = {name for name in sys.modules if name == "memori" or name.startswith("memori.")}
    bare = "memori" not in sys.modules
    if bare:
        pkg = types.ModuleType("memori")
        pkg.__path__ = list(spec.submodule_search_locations)
        pkg.__package__ = "memori"
        sys.modules["memori"] = pkg
    try:
        search = importlib.import_module("memori.search")
        for sub in ("_api", "_core", "_faiss", "_lexical", "_parsing", "_types"):
            importlib.import_module(f"memori.search.{sub}")
    finally:
        if bare:
            for name in [n for n in sys.modules if n == "memori" or n.startswith("memori.")]:
                if name not in before:
                    del sys.modules[name]
    return search


def memori_version() -> str:
    """Installed upstream Memori version (read from the distribution metadata)."""
    from importlib.metadata import version

    return version("memori")
