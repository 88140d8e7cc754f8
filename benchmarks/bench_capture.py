"""Background capture over a Chroma server: captures stored per second, and recall latency meanwhile, by
``capture_workers``.

Starts its own ``chroma run`` server (in a temporary folder), then for each extractor (the rules, and the rules
behind a simulated model call of ``--model-s`` seconds, i.e. an LLM extractor's wait) and each worker count:
an engine (the local MiniLM) with ``capture_workers=N`` gets ``--captures`` turns of different users at once
through one :class:`~memori_core.capture.BackgroundCapture`; while they run, the main thread recalls a warm user
of 50 facts over and over. Prints captures per second (submission to the last one stored) and the recalls'
p50 / p90, and the p50 of the same recall with nothing else running (docs/stores.md, "Capture throughput").

    python benchmarks/bench_capture.py                          # workers 4 8 16, 200 captures
    python benchmarks/bench_capture.py --workers 2 8 --captures 100 --model-s 1.0
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine_info, machine_line  # noqa: E402
from _helpers import running_chroma_server  # noqa: E402

from memori_core import ChromaStore, RecallEngine, RuleBasedFactExtractor  # noqa: E402
from memori_core.capture import BackgroundCapture  # noqa: E402
from memori_core.extraction import ExtractedFact, KnownFact, MessageLike  # noqa: E402


class ModelCall(RuleBasedFactExtractor):
    """The rules behind a model call that takes ``seconds`` (time spent waiting, as for an LLM extractor)."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds

    def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
        time.sleep(self.seconds)  # the model's answer time: this benchmark measures throughput under it
        return super().extract(messages, existing)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def warm_engine(host: str, port: int, collection: str, workers: int) -> RecallEngine:
    engine = RecallEngine(store=ChromaStore.http(host=host, port=port, collection=collection), capture_workers=workers)
    engine.add("reader", [f"User fact number {k} about topic {k % 7}." for k in range(50)])
    engine.recall("Where do I live?", "reader")
    return engine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[4, 8, 16])
    parser.add_argument("--captures", type=int, default=200)
    parser.add_argument("--model-s", type=float, default=0.5)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    print(machine_line(machine_info()))
    with tempfile.TemporaryDirectory() as folder, running_chroma_server(Path(folder)) as (host, port, _):
        alone = warm_engine(host, port, "bench-alone", 1)
        lat = []
        for _ in range(200):
            start = time.perf_counter()
            alone.recall("Where do I live?", "reader")
            lat.append(time.perf_counter() - start)
        print(f"recall with no capture running: p50 {statistics.median(lat) * 1000:.0f} ms")
        print("| extractor | capture_workers | captures/s | recall p50 | recall p90 |\n|---|---|---|---|---|")
        extractors = [("rules", RuleBasedFactExtractor()), (f"{args.model_s:g} s model call", ModelCall(args.model_s))]
        for n, (name, extractor) in enumerate(extractors):
            for workers in args.workers:
                engine = warm_engine(host, port, f"bench-{n}-{workers}", workers)
                captures = BackgroundCapture("bench", logging.getLogger("bench"), max_pending=args.captures)
                start = time.perf_counter()
                for i in range(args.captures):
                    captures.submit(engine, f"user-{i}", [("user", f"I live in Town{i}.")], extractor)
                lat = []
                while not lat or captures.pending:
                    began = time.perf_counter()
                    engine.recall("Where do I live?", "reader")
                    lat.append(time.perf_counter() - began)
                done = captures.flush()
                rate = done.completed / (time.perf_counter() - start)
                print(f"| {name} | {workers} | {rate:.1f} | {statistics.median(lat) * 1000:.0f} ms | "
                      f"{quantile(lat, 0.9) * 1000:.0f} ms |", flush=True)
                engine.close()
        alone.close()


if __name__ == "__main__":
    main()
