"""Embedders: one small protocol and adapters for callables, LangChain and LlamaIndex objects."""

from __future__ import annotations

import functools
import logging
import threading
import types
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .minilm import MODEL_NAME, Runtime, load_encoder, threads_from_env

logger = logging.getLogger(__name__)


@runtime_checkable
class Embedder(Protocol):
    """What the engine needs from an embedding model.

    An embedder may also say which scripts it reads, as a ``scripts`` attribute (a set of
    :func:`~memori_core.text.main_script` names, e.g. ``frozenset({"LATIN"})`` for an English-only model;
    absent or ``None``: any). For a question written in another script the relevance gate does not trust the
    cosine, which such a model puts near every text it cannot read, and keeps only facts that share the
    question's words (:func:`embedder_scripts`).
    """

    name: str

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        """Embed facts; returns an ``(n, d)`` array."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one query; returns a ``(d,)`` array."""
        ...


def _describe(obj: Any) -> str:
    """A name for error messages: the function or class, with the model when it has one.

    ``"embed_texts"``, ``"OpenAIEmbeddings(text-embedding-3-small)"``,
    ``"MockEmbedding"`` (LlamaIndex's placeholder model name ``"unknown"`` is left out).
    """
    target = obj.func if isinstance(obj, functools.partial) else obj
    if isinstance(target, (types.FunctionType, types.BuiltinFunctionType, types.MethodType)):
        kind = target.__qualname__
    else:
        kind = type(target).__name__
    model = getattr(obj, "model_name", None) or getattr(obj, "model", None)
    if isinstance(model, str) and model.strip() and model != "unknown":
        return f"{kind}({model})"
    return kind


def check_matrix(value: Any, *, rows: int, name: str, dim: int | None = None) -> np.ndarray:
    """Validate an embedder's output: ``(rows, d)``, finite, no all-zero row.

    Raises ``ValueError`` naming the embedder, so a broken model is reported
    where it happens and not deep inside the store or numpy.
    """
    try:
        arr = np.asarray(value, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"embedder {name!r} returned something that is not a numeric array: {exc}") from exc
    if arr.ndim != 2 or arr.shape[0] != rows or arr.shape[1] == 0:
        raise ValueError(
            f"embedder {name!r} returned shape {arr.shape}, expected ({rows}, d) for {rows} text(s)"
        )
    if dim is not None and arr.shape[1] != dim:
        raise ValueError(f"embedder {name!r} returned {arr.shape[1]}-d vectors, expected {dim}-d")
    if not np.isfinite(arr).all():
        raise ValueError(f"embedder {name!r} returned NaN or infinite values")
    zero = ~np.any(arr != 0, axis=1)
    if zero.any():
        raise ValueError(
            f"embedder {name!r} returned an all-zero vector for {int(zero.sum())} of {rows} text(s)"
        )
    return arr


class CallableEmbedder:
    """Wraps ``fn(texts: list[str]) -> array-like (n, d)``; queries are embedded as one-element batches."""

    def __init__(self, fn: Callable[[list[str]], Any], name: str | None = None) -> None:
        self._fn = fn
        self.name = name or _describe(fn)

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return check_matrix(self._fn(list(texts)), rows=len(texts), name=self.name)

    def embed_query(self, text: str) -> np.ndarray:
        return check_matrix(self._fn([text]), rows=1, name=self.name)[0]


class LangChainEmbedder:
    """Wraps a LangChain ``Embeddings``, or any object with ``embed_documents`` / ``embed_query``."""

    def __init__(self, embeddings: Any) -> None:
        self._inner = embeddings
        name = getattr(embeddings, "name", None)
        self.name = name if isinstance(name, str) and name else _describe(embeddings)

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return check_matrix(self._inner.embed_documents(list(texts)), rows=len(texts), name=self.name)

    def embed_query(self, text: str) -> np.ndarray:
        return check_matrix([self._inner.embed_query(text)], rows=1, name=self.name)[0]


class LlamaIndexEmbedder:
    """Wraps a LlamaIndex ``BaseEmbedding`` (``get_text_embedding_batch`` / ``get_query_embedding``)."""

    def __init__(self, embed_model: Any) -> None:
        self._inner = embed_model
        self.name = _describe(embed_model)

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return check_matrix(self._inner.get_text_embedding_batch(list(texts)), rows=len(texts), name=self.name)

    def embed_query(self, text: str) -> np.ndarray:
        return check_matrix([self._inner.get_query_embedding(text)], rows=1, name=self.name)[0]


def embedder_scripts(embedder: Any) -> frozenset[str] | None:
    """The scripts ``embedder`` (or the model an adapter wraps) says it reads (``scripts``), ``None`` when it
    says nothing: any script."""
    for obj in (embedder, getattr(embedder, "_inner", None), getattr(embedder, "_fn", None)):
        scripts = getattr(obj, "scripts", None) if obj is not None else None
        if scripts is not None:
            return frozenset(scripts)
    return None


def as_embedder(obj: Any) -> Embedder:
    """Adapt ``obj`` to :class:`Embedder` by duck typing (no framework is imported).

    Accepts a LlamaIndex ``BaseEmbedding``, a LangChain ``Embeddings`` (or any
    object with ``embed_documents`` and ``embed_query``), or a callable
    ``list[str] -> (n, d)``.
    """
    if obj is None:
        raise TypeError("embedder is required (try memori_core.default_embedder())")
    if isinstance(obj, (CallableEmbedder, LangChainEmbedder, LlamaIndexEmbedder, LocalMiniLM)):
        return obj
    if hasattr(obj, "get_query_embedding") and hasattr(obj, "get_text_embedding_batch"):
        return LlamaIndexEmbedder(obj)
    if hasattr(obj, "embed_query") and hasattr(obj, "embed_documents"):
        return LangChainEmbedder(obj)
    if callable(obj):
        return CallableEmbedder(obj)
    raise TypeError(
        f"cannot use {type(obj).__name__} as an embedder: pass a callable list[str] -> (n, d), "
        "a LangChain Embeddings or a LlamaIndex BaseEmbedding"
    )


class LocalMiniLM:
    """all-MiniLM-L6-v2 (upstream Memori's model, 384-d), run on this machine with nothing downloaded.

    ``runtime`` (see :mod:`memori_core.minilm`): ``"auto"`` (default) takes the int8 ONNX graph
    (``memori-recall[local]``: onnxruntime, no torch), else the exact fp32 weights run by numpy,
    else sentence-transformers; ``"onnx"``, ``"exact"`` and ``"sentence-transformers"`` ask for one.
    The fp32 weights come with ``memori-recall[sentence-transformers]``. ``threads`` is onnxruntime's
    intra-op thread count (default 1, or ``MEMORI_EMBED_THREADS``). Raises
    :class:`~memori_core.minilm.ModelUnavailable` naming the extra to install when nothing loads.

    Loading changes nothing process-wide: no environment variable is set, and
    the libraries' "Loading weights" progress bars are hidden only while this
    model loads (``show_progress=True`` shows them).
    """

    name = MODEL_NAME
    scripts: frozenset[str] = frozenset({"LATIN"})
    """all-MiniLM-L6-v2 learnt English: text in other scripts lands in one region of its space, near every
    other such text, so its cosines say nothing there (see :class:`Embedder`)."""

    def __init__(
        self,
        batch_size: int = 64,
        *,
        runtime: Runtime = "auto",
        threads: int | None = None,
        show_progress: bool = False,
    ) -> None:
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}")
        if threads is None:
            threads = threads_from_env()
        elif isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads must be a positive integer, got {threads!r}")
        self.threads = threads
        self._encode, self.runtime, self.source = load_encoder(
            runtime, batch_size=batch_size, threads=threads, show_progress=show_progress
        )

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        """The vectors of ``texts`` (facts), one row each in order: an ``(n, 384)`` float32 array, each row of
        unit length (mean-pooled and L2-normalised, as sentence-transformers does), batched ``batch_size`` at a
        time."""
        return check_matrix(self._encode(list(texts)), rows=len(texts), name=self.name)

    def embed_query(self, text: str) -> np.ndarray:
        """The vector of one query: a ``(384,)`` float32 array of unit length, the same model as the facts' (the
        model has no query prefix, so a text embeds alike either way)."""
        return check_matrix(self._encode([text]), rows=1, name=self.name)[0]


_DEFAULT: LocalMiniLM | None = None
_DEFAULT_LOCK = threading.Lock()


def default_embedder() -> Embedder:
    """The process-wide local MiniLM (loaded once, on first use, without progress bars)."""
    global _DEFAULT
    if _DEFAULT is None:
        with _DEFAULT_LOCK:
            if _DEFAULT is None:
                _DEFAULT = LocalMiniLM()
    return _DEFAULT


def embed_in_batches(embedder: Embedder, texts: Sequence[str], batch_size: int) -> np.ndarray:
    """Embed ``texts`` ``batch_size`` at a time and stack the results."""
    parts = [embedder.embed_documents(list(texts[i : i + batch_size])) for i in range(0, len(texts), batch_size)]
    if not parts:
        return np.zeros((0, 0), dtype=np.float32)
    dims = {p.shape[1] for p in parts}
    if len(dims) > 1:
        raise ValueError(f"embedder {embedder.name!r} returned vectors of several dimensions: {sorted(dims)}")
    return np.vstack(parts)
