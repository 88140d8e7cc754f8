"""The two pieces that bound fail-open waits, without a server (tests/test_server_failopen_bounds.py runs them
against a stopped `chroma run`): a call's time to reach the store (memori_core.store.deadline.reaching), and an
engine's capture pool closing over an unreachable store (memori_core.lanes.Lanes.close_down)."""

from __future__ import annotations

import threading
import time

import pytest

from memori_core.lanes import Lanes
from memori_core.store import deadline
from memori_core.store.deadline import NotReached

GIVE_UP = 30.0  # seconds: a wait still going on by then is stuck (nothing is timed below it)


def test_the_first_request_spends_the_time_to_reach_the_store_and_gets_only_what_is_left() -> None:
    with deadline.reaching(60, "the recall"):
        assert 0 < deadline.check("taking a lock", waiting=True) <= 60  # a wait does not spend it...
        assert 0 < deadline.check("GET /revision") <= 60  # ...the first request does
        assert deadline.check("GET /rows") is None  # later requests are bounded by the store's own limit
    assert deadline.check("GET /rows") is None


def test_a_call_past_its_time_to_reach_the_store_sends_nothing() -> None:
    with deadline.reaching(0.05, "the recall"):
        time.sleep(0.1)  # past it (a lower bound: nothing is asserted on the time)
        with pytest.raises(NotReached, match=r"the recall did not reach the store within 0.05 s .* before GET /x"):
            deadline.check("GET /x")
        with pytest.raises(NotReached):
            deadline.check("taking a lock", waiting=True)
    with pytest.raises(NotReached, match="before another call let go"):
        with deadline.reaching(0.05, "the recall"):
            time.sleep(0.1)
            raise deadline.expired("another call let go")


def test_stop_is_asked_before_the_first_request_only_and_local_work_is_given_back() -> None:
    reasons: list[str | None] = [None]
    with deadline.reaching(None, "the capture", lambda: reasons[-1]):
        assert deadline.check("taking a lock", waiting=True) is None  # no time limit, and a wait is not stopped
        reasons.append("the engine is closing over an unreachable store")
        with pytest.raises(NotReached, match="the capture was not sent to the store: the engine is closing"):
            deadline.check("POST /add")
        reasons.append(None)
        assert deadline.check("POST /add") is None
        reasons.append("stop")
        assert deadline.check("POST /more") is None  # the first request went out: the rest are not stopped
    with deadline.reaching(1.0, "the add"):
        with deadline.paused():
            time.sleep(1.5)  # embedding: not the store's time (without it given back, the limit would be over)
        assert deadline.check("POST /add") > 0  # (the few lines outside the pause take far less than 1 s)
    with deadline.reaching(None, "nothing"):  # neither a limit nor a stop: no-op
        assert deadline.check("GET /x") is None


def test_an_inner_reach_keeps_the_outer_one_and_a_write_deadline_still_applies() -> None:
    with deadline.reaching(60, "the tool call"), deadline.reaching(0.01, "the inner call"):
        time.sleep(0.05)
        assert deadline.check("GET /x") > 1  # the outer limit holds
    with deadline.within(0.05, "the write"), deadline.reaching(60, "the recall"):
        time.sleep(0.1)
        with pytest.raises(deadline.DeadlineExceeded, match="the write ran out of time") as raised:
            deadline.check("POST /x")
        assert not isinstance(raised.value, NotReached)


def _blocked_lanes() -> tuple[Lanes, threading.Event, threading.Event, list[str], list[str]]:
    """One thread, busy with a job of ``ann`` until ``release``; three more jobs queued behind it."""
    lanes = Lanes(1)
    started, release = threading.Event(), threading.Event()
    ran: list[str] = []
    dropped: list[str] = []

    def busy() -> None:
        started.set()
        assert release.wait(GIVE_UP)
        ran.append("busy")

    lanes.submit("ann", busy, dropped.append)
    assert started.wait(GIVE_UP)
    for name in ("ann", "bob", "cid"):
        lanes.submit(name, lambda name=name: ran.append(name), dropped.append)
    return lanes, started, release, ran, dropped


def test_closing_drops_the_jobs_not_started_once_a_running_one_finds_the_store_unreachable() -> None:
    lanes, _, release, ran, dropped = _blocked_lanes()
    lanes.unreachable("ReadTimeout")  # before closing: captures fail one by one as the breaker says, none dropped
    assert lanes.stopping() is None

    def running_job_times_out() -> None:
        lanes.unreachable("ReadTimeout")
        release.set()

    waiting = lanes.wait
    lanes.wait = lambda timeout=None: (running_job_times_out(), waiting(timeout))[1]  # type: ignore[method-assign]
    closing = lanes.close_down(None)
    assert (closing.finished, closing.dropped, closing.running, closing.unreached) == (True, 3, 0, 1)
    assert closing.reason == "the store is unreachable: ReadTimeout" == lanes.stopping()
    assert ran == ["busy"] and dropped == ["the store is unreachable: ReadTimeout"] * 3
    assert closing.describe() == (
        "3 background captures were dropped without being stored (the store is unreachable: ReadTimeout); "
        "1 failed: the store was unreachable; their adapters count them (capture_stats)")


def test_closing_over_a_store_known_down_drops_the_queue_at_once_and_a_healthy_one_runs_it() -> None:
    lanes = Lanes(1, unreachable=lambda: "ConnectError")
    started, release = threading.Event(), threading.Event()
    ran: list[str] = []
    dropped: list[str] = []
    lanes.submit("ann", lambda: (started.set(), release.wait(GIVE_UP), ran.append("busy")) and None, dropped.append)
    assert started.wait(GIVE_UP)
    for name in ("bob", "cid"):
        lanes.submit(name, lambda name=name: ran.append(name), dropped.append)
    closing = lanes.close_down(0)  # the running job is left to end on its own
    assert (closing.dropped, closing.running, closing.reason) == (2, 1, "the store is unreachable: ConnectError")
    release.set()
    assert lanes.wait(GIVE_UP) and ran == ["busy"] and len(dropped) == 2

    healthy, _, release, ran, dropped = _blocked_lanes()
    release.set()
    closing = healthy.close_down(None)
    assert (closing.finished, closing.dropped, closing.reason) == (True, 0, None)
    assert ran == ["busy", "ann", "bob", "cid"] and dropped == []


def test_closing_timeout_drops_what_has_not_started() -> None:
    lanes, _, release, ran, dropped = _blocked_lanes()
    closing = lanes.close_down(0)
    assert (closing.finished, closing.dropped, closing.running) == (False, 3, 1)
    assert closing.reason == "still pending after 0 s"
    release.set()
    assert lanes.wait(GIVE_UP) and ran == ["busy"] and dropped == ["still pending after 0 s"] * 3
