"""The life-domain prototypes embedded once per embedder, and the affinity of candidates that bring no vectors:
how :func:`memori_core.rerank` ranks a personal question as the engine does (:mod:`.affinity`).

The engine reads a pool's domains from the vectors it stores and embeds the prototypes once
(``engine/gate_signals.py``); :func:`rerank_affinity` embeds the pool's texts and the question with the embedder
the caller names, and keeps the prototypes here, one copy per embedder object for as long as it lives.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..embedders import as_embedder
from .affinity import affinity_for, domain_shares
from .care import prototype_texts
from .dense import l2_normalise

__all__ = ["domain_prototypes", "rerank_affinity"]

_lock = threading.Lock()
_by_embedder: weakref.WeakKeyDictionary[Any, tuple[np.ndarray, np.ndarray]] = weakref.WeakKeyDictionary()


def domain_prototypes(embedder: Any) -> tuple[np.ndarray, np.ndarray]:
    """The life-domain prototype sentences (:func:`~.care.prototype_texts`) embedded by ``embedder`` (unit rows,
    domain after domain) and each domain's first row; embedded on the first call for each embedder object (an
    object that cannot be weakly referenced is embedded for on every call)."""
    with _lock:
        try:
            cached = _by_embedder.get(embedder)
        except TypeError:
            cached = None
    if cached is not None:
        return cached
    texts, starts = prototype_texts()
    made = (l2_normalise(as_embedder(embedder).embed_documents(texts)), starts)
    with _lock:
        try:
            return _by_embedder.setdefault(embedder, made)
        except TypeError:
            return made


def rerank_affinity(query: str, texts: Sequence[str], embedder: Any, weight: float) -> np.ndarray:
    """What a personal ``query`` adds to each of the pool's ``texts`` (:func:`~.affinity.affinity_for`), their
    life domains read from ``embedder``'s embeddings of them and of the query, their lengths in characters."""
    if not texts:
        return np.zeros(0, dtype=np.float64)
    prototypes, starts = domain_prototypes(embedder)
    wrapped = as_embedder(embedder)
    vectors = l2_normalise(wrapped.embed_documents(list(texts)))
    question = l2_normalise(wrapped.embed_query(query))[0]
    if vectors.shape[1] != prototypes.shape[1] or question.shape[0] != prototypes.shape[1]:
        raise ValueError(f"embedder gives {vectors.shape[1]}-d texts and a {question.shape[0]}-d query but "
                         f"{prototypes.shape[1]}-d prototypes")
    lengths = np.fromiter(map(len, texts), dtype=np.float64, count=len(texts))
    return affinity_for(query, texts, domain_shares(vectors, prototypes, starts),
                        domain_shares(question, prototypes, starts), weight, lengths)
