"""``benchmarks/bench_recall.py --cold-recalls 0`` (only the first recall of each fresh process) ran the cold
processes and then crashed printing their warm median, which none was timed (a reviewer's leftover)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_recall.py"


@pytest.mark.slow
def test_bench_recall_with_no_warm_cold_recalls_reports_the_first_recall_and_no_warm_timing(tmp_path):
    done = subprocess.run([sys.executable, str(BENCH), "--sizes", "200", "--queries", "5", "--warmup", "1",
                           "--chunk", "5", "--slow-budget", "1", "--min-slow-queries", "2", "--cold-recalls", "0",
                           "--store", "disk"], capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "| 200 | from the snapshot |" in done.stdout and "| - / - | - |" in done.stdout
