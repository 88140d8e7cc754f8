# Two commands for a fresh machine:  `make demo`  (see it work)  and  `make test`  (run every test).
# `make test-fast` skips the tiers that load the model, start a Chroma server or run example scripts.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# The default install needs no PyTorch: the offline MiniLM runs on onnxruntime (the `local` extra).
# PyTorch is installed only for the tests (install-dev): the model tier compares the default runtime with
# sentence-transformers. PyPI's Linux wheel of torch is the CUDA build (several GB), so torch alone comes from
# PyTorch's CPU index (`--no-deps`: its own dependencies, and everything else, come from PyPI in the next step).
# Override, e.g.:
#   make install-dev TORCH_INDEX=https://download.pytorch.org/whl/cu128   (a CUDA build)
#   make install-dev TORCH_INDEX=                                          (pip's configured index only)
# Offline with a local torch wheel (pip's find-links or an extra index in pip.conf, as on our CI machines),
# pip retries the unreachable index a few times, then takes the local `torch-2.13.0+cpu`.
TORCH ?= torch==2.13.0
TORCH_INDEX ?= https://download.pytorch.org/whl/cpu
TORCH_FROM := $(if $(strip $(TORCH_INDEX)),--index-url "$(strip $(TORCH_INDEX))")
# Test-only: upstream Memori for the ranking-parity test. Installed without its
# dependencies: its protobuf<6 pin conflicts with chromadb, and its search module needs only numpy + faiss.
MEMORI_UPSTREAM ?= memori==3.3.6
PYTEST := $(BIN)/python -m pytest -q
FAST := -m "not model and not server and not slow"

.PHONY: install install-dev demo test test-fast bench bench-load clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# `all` includes the mcp extra (`memori mcp`); `dev` includes `test` (langchain-mcp-adapters, for the MCP tests).
install: $(BIN)/python
	$(BIN)/pip install -q -e ".[all]"

install-dev: install
	$(BIN)/pip install -q --no-deps $(TORCH_FROM) "$(TORCH)"
	$(BIN)/pip install -q -e ".[all,dev]"
	$(BIN)/pip install -q --no-deps "$(MEMORI_UPSTREAM)"

demo: install
	$(BIN)/memori demo

# Every tier (CI runs this).
test: install-dev
	$(PYTEST)

# Without the model, server and slow tiers: no MiniLM, no `chroma run` server, no example scripts.
test-fast: install-dev
	$(PYTEST) $(FAST)

# The benchmarks (benchmarks/README.md). No torch: the core, the offline MiniLM (bench_embed.py; its
# sentence-transformers rows are skipped without torch), the LangGraph adapters (bench_store.py) and the bench extra, then,
# without their dependencies, upstream Memori and llama-index-retrievers-bm25 (its PyStemmer<3 pin would
# downgrade the PyStemmer the core runs on; its code works with PyStemmer 3). The full peers run (100k facts) is long:
#   make bench BENCH_PEERS_ARGS=--quick        (1k and 10k facts only)
BENCH_NO_DEPS ?= llama-index-retrievers-bm25==0.8.0
BENCH_RECALL_ARGS ?=
BENCH_PEERS_ARGS ?=
bench: $(BIN)/python
	$(BIN)/pip install -q -e ".[bench,local,langchain]"
	$(BIN)/pip install -q --no-deps "$(MEMORI_UPSTREAM)" $(BENCH_NO_DEPS)
	$(BIN)/python benchmarks/bench_recall.py $(BENCH_RECALL_ARGS)
	$(BIN)/python benchmarks/bench_writes.py
	$(BIN)/python benchmarks/bench_embed.py
	$(BIN)/python benchmarks/bench_peers.py $(BENCH_PEERS_ARGS)
	$(BIN)/python benchmarks/bench_store.py

# Many app workers over one `chroma run` server (benchmarks/README.md): 1,000 users x 100-1,000 facts, 8 worker
# processes, 90% recall / 10% add for 60 s; prints throughput, latency, cache hits, and checks 0 lost writes and
# 0 stale reads (exit code 1 otherwise). Seeding takes minutes:  make bench-load BENCH_LOAD_ARGS=--quick
BENCH_LOAD_ARGS ?=
bench-load: $(BIN)/python
	$(BIN)/pip install -q -e . "threadpoolctl>=3.1"  # threadpoolctl (of the bench extra): the BLAS report
	$(BIN)/python benchmarks/bench_load.py $(BENCH_LOAD_ARGS)

clean:
	rm -rf $(VENV) build *.egg-info
