"""Lost and late replies on a real `chroma run` server (issue 23): how long another process stays stale, how
long writes take, and how long a recall waits beside a stuck write.

A `chroma run` server of its own on loopback, and the delaying TCP proxy of the tests
(``tests/_proxy.py``) in front of it for the writer only. Every store has the same request time limit
(``--timeout``, default 2 s); "late" replies arrive ``--late`` seconds (default 1.5) after the server sent
them, "lost" ones ``2 x timeout`` late (after the client gave up). Embeddings: the tests' hashing embedder
(no model). User u's facts, the writes and process B are the lost-reply tests' (``tests/_lost_replies.py``).
Three tables:

1. Lost-reply staleness: process B (a subprocess, straight to the server) holds user u's copy (20 facts);
   A's forget / delete / add of u loses its replies from its first row change on. Seconds from A's call
   returning (or raising) until B's recall stops answering from its old copy (polled every 0.1 s, given
   up after ``--give-up`` s), and until B keeps a copy again.
2. Write durations with every reply late: add, delete, update, forget (outcome: ok or the error raised).
3. Recall latency beside a stuck write: A's add of u has its replies late from its upsert on; a recall of u
   in the same process, started meanwhile.

Run it from a clone (``python benchmarks/bench_faults.py``); ``PYTHONPATH=<another checkout>`` measures
that checkout's code with the same script.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # the tests' proxy, server starter and lost-reply scenario

from _helpers import HashEmbedder, running_chroma_server  # noqa: E402
from _lost_replies import FACTS, Reader, engine_over, recalled, write_u  # noqa: E402
from _proxy import DelayProxy  # noqa: E402

import memori_core  # noqa: E402
from memori_core import RecallEngine  # noqa: E402

CODE_ROOT = Path(memori_core.__file__).resolve().parent.parent


def _engine(port: int, collection: str, timeout: float) -> RecallEngine:
    return engine_over(port, collection, timeout, HashEmbedder())


def _write(engine: RecallEngine, write: str) -> str:
    """Run one write of user u; "ok" or the name of the error it raised."""
    error = write_u(engine, write)
    return "ok" if error is None else type(error).__name__


def staleness(port: int, proxy: DelayProxy, args: argparse.Namespace, write: str) -> dict[str, Any]:
    collection = f"bench_{uuid.uuid4().hex}"
    a = _engine(proxy.port, collection, args.timeout)
    a.add("u", FACTS)
    b = Reader("127.0.0.1", port, collection, args.timeout)
    try:
        old = b.recall(errors=True)["facts"]
        facts_id = a.store._facts.id  # type: ignore[attr-defined]
        endpoint = "upsert" if write == "add" else "delete"
        proxy.delay_replies(2 * args.timeout, after=f"/collections/{facts_id}/{endpoint}".encode())
        started = time.monotonic()
        outcome = _write(a, write)
        returned = time.monotonic()
        proxy.stop_delaying()
        fresh_at = kept_at = None
        while time.monotonic() - returned < args.give_up:
            got = b.recall(errors=True)
            now = time.monotonic() - returned
            if "error" not in got:
                if fresh_at is None and got["facts"] != old:
                    fresh_at = now
                if fresh_at is not None and got["kept"]:
                    kept_at = now
                    break
            time.sleep(0.1)
        return {"write": write, "outcome": outcome, "call": returned - started, "fresh": fresh_at, "kept": kept_at}
    finally:
        b.close()


def durations(proxy: DelayProxy, args: argparse.Namespace, write: str) -> dict[str, Any]:
    collection = f"bench_{uuid.uuid4().hex}"
    engine = _engine(proxy.port, collection, args.timeout)
    engine.add("u", FACTS)
    recalled(engine)
    proxy.delay_replies(args.late)
    started = time.monotonic()
    outcome = _write(engine, write)
    elapsed = time.monotonic() - started
    proxy.stop_delaying()
    time.sleep(args.late + 0.2)  # let the held replies drain before the next row
    return {"write": write, "outcome": outcome, "elapsed": elapsed}


def beside_stuck_write(proxy: DelayProxy, args: argparse.Namespace) -> dict[str, Any]:
    collection = f"bench_{uuid.uuid4().hex}"
    engine = _engine(proxy.port, collection, args.timeout)
    engine.add("u", FACTS)
    before = recalled(engine)
    facts_id = engine.store._facts.id  # type: ignore[attr-defined]
    proxy.delay_replies(args.late, after=f"/collections/{facts_id}/upsert".encode())
    box: dict[str, Any] = {}
    writer = threading.Thread(target=lambda: box.setdefault("outcome", _write(engine, "add")))
    started_write = time.monotonic()
    writer.start()
    proxy.armed.wait(30)
    started = time.monotonic()
    try:
        got = recalled(engine)
        outcome = "last good copy" if got == before else "with the new fact" if len(got) > len(before) else "other"
    except Exception as exc:  # noqa: BLE001
        outcome = type(exc).__name__
    elapsed = time.monotonic() - started
    writer.join(120)
    write_elapsed = time.monotonic() - started_write
    proxy.stop_delaying()
    return {"recall": elapsed, "recall_outcome": outcome, "write": write_elapsed, "write_outcome": box.get("outcome")}


def _s(value: float | None, give_up: float) -> str:
    return f"> {give_up:.0f} s (still stale)" if value is None else f"{value:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=2.0, help="every store's request time limit (s)")
    parser.add_argument("--late", type=float, default=1.5, help="how late a late reply is (s)")
    parser.add_argument("--give-up", type=float, default=30.0, help="stop watching a stale process after (s)")
    args = parser.parse_args()
    print(f"code: {CODE_ROOT}  python {platform.python_version()}, {os.cpu_count()} logical cores, "
          f"timeout {args.timeout:g} s, late replies {args.late:g} s, lost replies {2 * args.timeout:g} s late")
    with tempfile.TemporaryDirectory() as folder, running_chroma_server(Path(folder)) as (host, port, _):
        with DelayProxy(host, port) as proxy:
            print("\n| lost reply of A's ... | A's call | B stops serving its old copy after | B keeps a copy again after |")
            print("|---|---|---:|---:|")
            for write in ("forget", "delete", "add"):
                r = staleness(port, proxy, args, write)
                print(f"| {write} | {r['outcome']} in {r['call']:.2f} s | {_s(r['fresh'], args.give_up)} | "
                      f"{_s(r['kept'], args.give_up) if r['fresh'] is not None else '-'} |")
            print(f"\n| write, every reply {args.late:g} s late | outcome | duration |")
            print("|---|---|---:|")
            for write in ("add", "delete", "update", "forget"):
                r = durations(proxy, args, write)
                print(f"| {write} | {r['outcome']} | {r['elapsed']:.2f} s |")
            r = beside_stuck_write(proxy, args)
            print(f"\n| recall of u beside A's add of u, replies {args.late:g} s late from its upsert on | duration |")
            print("|---|---:|")
            print(f"| the recall ({r['recall_outcome']}) | {r['recall']:.2f} s |")
            print(f"| the add ({r['write_outcome']}) | {r['write']:.2f} s |")


if __name__ == "__main__":
    main()
