"""What a writer process of the cross-process tests holds itself at: :func:`once` runs a step before (or after) the
first call of a method, :func:`wait_for` waits for a condition (a file another process touches)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def wait_for(done: Callable[[], bool], seconds: float = 60) -> None:
    """Return once ``done()`` is true, or after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        time.sleep(0.01)


def once(obj: Any, name: str, then: Callable[[], Any], after: bool = False) -> None:
    """``then()`` before (or ``after``) the first call of ``obj.name``; later calls run as before."""
    call = getattr(obj, name)

    def first(*args: Any, **kwargs: Any) -> Any:
        setattr(obj, name, call)
        if not after:
            then()
        out = call(*args, **kwargs)
        if after:
            then()
        return out

    setattr(obj, name, first)
