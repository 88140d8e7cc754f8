"""Embedding a write's texts: in batches with progress reported, outside the write's deadline (local work, not
the store's), each vector's dimension checked against the store's (a wrong one would make every later write
fail), and the dimension this engine writes."""

from __future__ import annotations

import numpy as np

from ..embedders import Embedder, embed_in_batches
from ..facts import StoredFact
from ..store import deadline
from ..store.base import FactStore
from .closing import when_open
from .progress import Progress


class Embedding:
    """The embedding steps of :class:`~memori_core.engine.RecallEngine`'s writes (a mixin: the state is the
    engine's)."""

    store: FactStore
    embedder: Embedder
    embed_batch_size: int
    _closed_by: str | None

    @when_open
    def vector_dimension(self, sample: str = "dimension probe") -> int:
        """The dimension of the vectors this engine writes: the store's rows', or, for an empty store, its
        embedder's (``sample`` is embedded once to learn it)."""
        stored_dim = self.store.dimension()
        return stored_dim if stored_dim is not None else self._embedder_dimension(sample)

    def _embedder_dimension(self, sample: str) -> int:
        with deadline.paused():
            return int(np.asarray(self.embedder.embed_query(sample)).shape[-1])

    def _check_import_dimension(self, dim: int, sample: str) -> None:
        """Records' vectors must have :meth:`vector_dimension`: a wrong one would make every later write fail."""
        stored_dim = self.store.dimension()
        if stored_dim is not None:
            if dim != stored_dim:
                raise ValueError(f"records carry {dim}-d vectors but the store holds {stored_dim}-d vectors; "
                                 "pass reembed=True to embed the texts with this engine's embedder")
            return
        own = self._embedder_dimension(sample)
        if dim != own:
            raise ValueError(f"records carry {dim}-d vectors but this engine's embedder {self.embedder.name!r} makes "
                             f"{own}-d vectors; pass reembed=True to embed the texts with it")

    def _embed_new(self, facts: list[StoredFact], progress: Progress | None = None) -> dict[str, np.ndarray]:
        """Embed facts about to be stored, checking the dimension against the store's."""
        if not facts:
            return {}
        texts = [f.content for f in facts]
        with deadline.paused():  # local work, not the store's: outside the write's deadline
            vectors = self._embed_all(texts, progress)
        stored_dim = self.store.dimension()
        if stored_dim is not None and stored_dim != vectors.shape[1]:
            raise ValueError(
                f"embedder {self.embedder.name!r} produces {vectors.shape[1]}-d vectors but the store "
                f"holds {stored_dim}-d vectors; use the embedder the store was filled with, or a new store"
            )
        return {f.id: v for f, v in zip(facts, vectors)}

    def _embed_all(self, texts: list[str], progress: Progress | None) -> np.ndarray:
        if progress is None:
            return embed_in_batches(self.embedder, texts, self.embed_batch_size)
        parts = []
        for start in range(0, len(texts), self.embed_batch_size):
            parts.append(embed_in_batches(self.embedder, texts[start : start + self.embed_batch_size],
                                          self.embed_batch_size))
            progress("embed", min(start + self.embed_batch_size, len(texts)), len(texts))
        dims = {p.shape[1] for p in parts}
        if len(dims) > 1:
            raise ValueError(f"embedder {self.embedder.name!r} returned vectors of several dimensions: {sorted(dims)}")
        return np.vstack(parts)

    def _embed_texts(self, texts: list[str]) -> dict[str, np.ndarray]:
        """Vectors of ``texts`` by text (each embedded once)."""
        unique = list(dict.fromkeys(texts))
        facts = [StoredFact(str(i), "", t, None) for i, t in enumerate(unique)]
        vecs = self._embed_new(facts)
        return {t: vecs[str(i)] for i, t in enumerate(unique)}
