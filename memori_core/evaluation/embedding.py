"""Embedders for evaluation: load one from a ``module:attr`` spec, and embed every text once."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..embedders import Embedder, as_embedder, default_embedder, embedder_scripts


class CachingEmbedder:
    """An :class:`~memori_core.Embedder` that embeds each distinct text once.

    Documents and queries are cached apart (text -> vector), so an embedder
    that embeds them differently stays correct. Several engines sharing one
    store and this embedder never embed a text twice.
    """

    def __init__(self, embedder: Any) -> None:
        self._inner: Embedder = as_embedder(embedder)
        self.name: str = self._inner.name
        self.scripts: frozenset[str] | None = embedder_scripts(self._inner)
        """What the wrapped embedder reads (:func:`~memori_core.embedders.embedder_scripts`)."""
        self._documents: dict[str, np.ndarray] = {}
        self._queries: dict[str, np.ndarray] = {}
        self.embedded = 0
        """Texts sent to the wrapped embedder so far."""

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        """Vectors of ``texts`` (``(n, d)``); only texts never seen are embedded."""
        missing = list(dict.fromkeys(t for t in texts if t not in self._documents))
        if missing:
            self._documents.update(zip(missing, self._inner.embed_documents(missing)))
            self.embedded += len(missing)
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([self._documents[t] for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        """Vector of one query (``(d,)``), embedded on first use."""
        vector = self._queries.get(text)
        if vector is None:
            vector = self._queries[text] = self._inner.embed_query(text)
            self.embedded += 1
        return vector

    def warm(self, texts: Sequence[str], batch_size: int = 64,
             progress: Callable[[int, int], None] | None = None) -> None:
        """Embed ``texts`` as documents ``batch_size`` at a time, reporting ``(done, total)`` after each batch."""
        todo = list(dict.fromkeys(t for t in texts if t not in self._documents))
        if progress is not None:
            progress(0, len(todo))
        for start in range(0, len(todo), batch_size):
            self.embed_documents(todo[start : start + batch_size])
            if progress is not None:
                progress(min(start + batch_size, len(todo)), len(todo))


def load_embedder(spec: str | None) -> Any:
    """``None`` / ``"minilm"``: the local all-MiniLM-L6-v2; ``"module:attr"``: an embedder object,
    class or factory imported from a module (called without arguments if it is a class or factory)."""
    if spec in (None, "", "minilm", "all-MiniLM-L6-v2"):
        return default_embedder()
    if ":" not in spec:
        raise ValueError(f"--embedder must be 'minilm' or 'module:attribute', got {spec!r}")
    module_name, _, attr = spec.partition(":")
    try:
        obj = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot load embedder {spec!r}: {exc}") from None
    if isinstance(obj, type) or (callable(obj) and getattr(obj, "__name__", "").startswith(("make_", "build_"))):
        obj = obj()
    return obj
