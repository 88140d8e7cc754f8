"""A provider-SDK app's request path with capture: ``MemoriRecall.apply`` + capture, warm, synchronous
(``capture_facts(engine, user, newest_turn(messages), extractor)``, what the README offered before) against
background (``MemoriRecall.capture(messages, reply=...)``).

An engine with the local MiniLM over an on-disk Chroma folder (temporary) holds a user's 20 facts; each round is
one turn of a statement: apply, the model's reply (none: the SDK call is not timed), then capture. The
background capture's flush runs after the timed window (while the app would wait for the user's next turn), and
its time is printed too. The first ``--warm`` turns of each mode are not counted.

    python benchmarks/bench_sdk_capture.py [--turns 40] [--warm 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine_info, machine_line  # noqa: E402

from memori_core import ChromaStore, MemoriRecall, RecallEngine, RuleBasedFactExtractor, capture_facts  # noqa: E402
from memori_core import newest_turn  # noqa: E402

STATEMENTS = [
    "I live in {town} now.", "I work as a {job} these days.", "My sister {name} just had a baby.",
    "I'm learning to play the {instrument}.", "I'm allergic to {food}.", "My dog is called {name}.",
    "I started running on Tuesdays.", "We're moving to {town} next month.",
]
FILL = {"town": ["Leeds", "York", "Porto", "Lyon", "Graz"], "job": ["nurse", "teacher", "welder", "chef"],
        "name": ["Ana", "Rex", "Mia", "Tom"], "instrument": ["cello", "piano", "oboe"], "food": ["peanuts", "kiwi"]}


def statement(n: int) -> str:
    text = STATEMENTS[n % len(STATEMENTS)]
    for key, values in FILL.items():
        text = text.replace("{" + key + "}", values[n % len(values)])
    return text


def run(engine: RecallEngine, user: str, turns: int, warm: int,
        background: bool) -> tuple[list[float], list[float], list[float]]:
    memory = MemoriRecall(engine, entity_id=user, provider="openai")
    extractor = RuleBasedFactExtractor()
    messages: list[dict[str, str]] = [{"role": "system", "content": "Be brief."}]
    path: list[float] = []
    captures: list[float] = []
    flushes: list[float] = []
    for n in range(turns + warm):
        messages.append({"role": "user", "content": statement(n)})
        start = time.perf_counter()
        memory.apply({"model": "m", "messages": messages})
        reply = {"role": "assistant", "content": "Noted."}
        applied = time.perf_counter()
        if background:
            memory.capture(messages, reply=reply)
        else:
            capture_facts(engine, user, newest_turn([*messages, reply]), extractor)
        end = time.perf_counter()
        took, captured = end - start, end - applied
        messages.append(reply)
        start = time.perf_counter()
        memory.flush(60)
        if n >= warm:
            path.append(took)
            captures.append(captured)
            flushes.append(time.perf_counter() - start)
    return path, captures, flushes


def line(name: str, values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    return f"{name}: n={len(values)} median {statistics.median(values) * 1000:.0f} ms, p90 {p90 * 1000:.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--warm", type=int, default=5)
    args = parser.parse_args()
    print(machine_line(machine_info()), "| load", open("/proc/loadavg").read().split()[0] if Path("/proc/loadavg").exists() else "?")
    with tempfile.TemporaryDirectory() as folder:
        engine = RecallEngine(store=ChromaStore(path=str(Path(folder) / "memories")))
        for user in ("sync-user", "bg-user"):
            engine.add(user, [f"User fact number {k} about topic {k % 7}." for k in range(20)])
        sync_path, sync_capture, _ = run(engine, "sync-user", args.turns, args.warm, background=False)
        bg_path, bg_capture, bg_flush = run(engine, "bg-user", args.turns, args.warm, background=True)
        print(line("apply + capture_facts (synchronous)", sync_path))
        print(line("  capture_facts alone", sync_capture))
        print(line("apply + MemoriRecall.capture (background)", bg_path))
        print(line("  MemoriRecall.capture alone", bg_capture))
        print(line("  its flush, after the timed window", bg_flush))
        engine.close()


if __name__ == "__main__":
    main()
