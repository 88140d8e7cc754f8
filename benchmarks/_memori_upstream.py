"""Upstream Memori's search path (``memori==3.3.6``), loaded for benchmarking.

``memori/__init__.py`` pulls in Memori's whole client (storage drivers, LLM
wrappers, network configuration). The benchmark only needs the pure search
functions, so :func:`load_memori_search` registers a bare ``memori`` package
module whose ``__path__`` points at the installed package and then imports
``memori.search`` as a normal submodule: the search code runs unchanged, the
package's ``__init__`` never runs.

:class:`InMemoryFactDriver` is the smallest object ``search_facts`` accepts as
its ``entity_fact_driver``: the two read methods of Memori's storage drivers,
answered from lists held in memory (so no database cost is measured, only
Memori's own Python/FAISS path).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from collections.abc import Sequence
from typing import Any

import numpy as np


def load_memori_search() -> types.ModuleType:
    """Import ``memori.search`` without executing ``memori/__init__.py``.

    Raises ``ImportError`` with an install hint when ``memori`` is missing.
    """
    loaded = sys.modules.get("memori.search")
    if loaded is not None:
        return loaded
    spec = importlib.util.find_spec("memori")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("the upstream comparison needs memori==3.3.6: pip install 'memori==3.3.6'")
    if "memori" not in sys.modules:
        package = types.ModuleType("memori")
        package.__path__ = list(spec.submodule_search_locations)
        package.__file__ = spec.origin
        package.__package__ = "memori"
        package.__spec__ = spec
        sys.modules["memori"] = package
    return importlib.import_module("memori.search")


def memori_version() -> str:
    """Installed version of the ``memori`` distribution (``"?"`` when unknown)."""
    try:
        from importlib.metadata import version

        return version("memori")
    except Exception:  # noqa: BLE001 - informational only
        return "?"


class InMemoryFactDriver:
    """Answers Memori's two search queries from memory.

    ``ids``, ``contents``, ``created`` and ``embeddings`` describe one entity's
    rows, already in Memori's SQL order (``date_last_time DESC``: most recent
    first). Embeddings are handed out as little-endian float32 bytes, the
    BLOB form Memori's SQL drivers return and its ``parse_embedding`` expects.
    """

    def __init__(
        self,
        ids: Sequence[str],
        contents: Sequence[str],
        created: Sequence[str],
        embeddings: np.ndarray,
    ) -> None:
        if not (len(ids) == len(contents) == len(created) == len(embeddings)):
            raise ValueError("ids, contents, created and embeddings must have the same length")
        blobs = np.ascontiguousarray(embeddings, dtype="<f4")
        self._embedding_rows = [
            {"id": fid, "content_embedding": blobs[i].tobytes()} for i, fid in enumerate(ids)
        ]
        self._facts = {
            fid: {"id": fid, "content": text, "date_created": stamp}
            for fid, text, stamp in zip(ids, contents, created)
        }

    def get_embeddings(self, entity_id: Any, limit: int = 1000) -> list[dict[str, Any]]:
        """The ``limit`` most recent rows as ``{"id", "content_embedding"}`` (a new list per call, like a query)."""
        return self._embedding_rows[:limit]

    def get_facts_by_ids(self, fact_ids: Sequence[Any]) -> list[dict[str, Any]]:
        """``{"id", "content", "date_created"}`` of the known ids among ``fact_ids``."""
        facts = self._facts
        return [facts[i] for i in fact_ids if i in facts]
