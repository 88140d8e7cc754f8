"""The load benchmark's invariants, in a few seconds: several worker processes, each with its own engine over one
real `chroma run` server, recalling and adding for the same users (benchmarks/bench_load.py does the full-size run).

Nothing here checks a time: only that no acknowledged add is lost, that no recall started after another process's
add was acknowledged misses it, and that no worker operation failed. The stale-read check is itself checked: with
workers that never re-validate their copies it must report stale reads.
"""

from __future__ import annotations

import sys
import uuid
from dataclasses import replace
from pathlib import Path

import pytest

# Appended, not prepended: benchmarks/ and tests/ both hold a `_memori_upstream` module, and the tests' must win.
sys.path.append(str(Path(__file__).resolve().parents[1] / "benchmarks"))
from bench_load import LoadSettings, run_load  # noqa: E402

# Few users, so that workers recall the users the others write to; no warm-up; a generous request time limit:
# on a busy CI machine a slow request must not count as an error, since this run checks invariants, not speed.
# Half the time a worker recalls the user another worker just wrote to, so writes are checked moments after they
# were acknowledged, not only when the user comes up again.
SMALL = LoadSettings(users=6, facts_min=20, facts_max=60, workers=3, seconds=4.0, warmup=0.0, prewarm=0,
                     follow_share=0.5, timeout=30.0, seeders=1, blas_threads=None)


def small(**changes: object) -> LoadSettings:
    return replace(SMALL, collection=f"load_{uuid.uuid4().hex[:10]}", **changes)  # type: ignore[arg-type]


@pytest.mark.server
@pytest.mark.slow
def test_workers_on_one_server_lose_no_write_and_read_none_stale(chroma_server: tuple[str, int]) -> None:
    host, port = chroma_server
    report = run_load(host, port, small())

    assert report["errors"] == {}, report["error_samples"]
    assert report["failed_adds"] == 0
    assert report["lost"]["acked"] == report["acked_adds_total"] > 0
    assert report["lost"]["missing"] == 0, report["lost"]["missing_sample"]
    assert report["stale_beyond_bound"] == 0, report["stale_sample"]
    # The checks ran: other workers recalled written users afterwards and saw the writes.
    assert report["writes_seen_by_a_check"] > 0
    assert report["per_op"]["recall"]["count"] > 0 and report["per_op"]["add"]["count"] > 0
    kinds = report["load_kinds"]
    assert report["loads"] == sum(kinds.values())


@pytest.mark.server
@pytest.mark.slow
def test_the_stale_read_check_catches_workers_that_never_revalidate(chroma_server: tuple[str, int]) -> None:
    """The same run with stores opened as if no other process wrote to them (a revision read once is trusted):
    other workers' adds are never seen, and the check must say so."""
    host, port = chroma_server
    report = run_load(host, port, small(shared=False, users=3))

    assert report["errors"] == {}, report["error_samples"]
    assert report["lost"]["missing"] == 0  # the writes themselves land
    assert report["stale_beyond_bound"] > 0
    assert all(s["late_by"] > 0 for s in report["stale_sample"])


@pytest.mark.parametrize(
    ("change", "name"),
    [({"users": 0}, "users"), ({"workers": 2.5}, "workers"), ({"facts_min": 10, "facts_max": 5}, "facts_max"),
     ({"seconds": 0}, "seconds"), ({"recall_share": 1.5}, "recall_share"), ({"stale_bound": -1.0}, "stale_bound"),
     ({"timeout": float("inf")}, "timeout"), ({"blas_threads": 0}, "blas_threads"), ({"prewarm": -1}, "prewarm"),
     ({"follow_share": -0.1}, "follow_share")],
)
def test_load_settings_refuse_bad_values_naming_the_argument(change: dict[str, object], name: str) -> None:
    with pytest.raises(ValueError, match=f"^{name} must be"):
        replace(SMALL, **change)  # type: ignore[arg-type]
