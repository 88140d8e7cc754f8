# Two commands for a fresh machine:  `make demo`  (see it work)  and  `make test`  (run every test).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# A CPU build of PyTorch for the offline MiniLM (sentence-transformers); override for other platforms.
TORCH ?= torch==2.13.0
# Test-only: upstream Memori for the ranking-parity test. Installed without its
# dependencies: its protobuf<6 pin conflicts with chromadb, and its search module needs only numpy + faiss.
MEMORI_UPSTREAM ?= memori==3.3.6

.PHONY: install install-dev demo test bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install -q "$(TORCH)"
	$(BIN)/pip install -q -e ".[all]"

install-dev: install
	$(BIN)/pip install -q -e ".[all,dev]"
	$(BIN)/pip install -q --no-deps "$(MEMORI_UPSTREAM)"

demo: install
	$(BIN)/memori demo

test: install-dev
	$(BIN)/python -m pytest -q

bench: install-dev
	$(BIN)/python benchmarks/bench_recall.py

clean:
	rm -rf $(VENV) build *.egg-info
