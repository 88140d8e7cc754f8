"""Public import path of :func:`rerank` (used by the LlamaIndex adapter and the README).

The implementation is :mod:`memori_core.ranking.rerank`.

>>> from memori_core.rerank import rerank
"""

from .ranking.rerank import RerankedCandidate, as_cosines, rerank

__all__ = ["RerankedCandidate", "as_cosines", "rerank"]
