"""What the LangChain adapters that capture (the ``create_agent`` middleware, the LangGraph capture node) keep of
the turns they captured: the state key that marks the latest one, and a bounded record of recent ones."""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

__all__ = ["CAPTURED_KEY", "remember"]

K = TypeVar("K")
V = TypeVar("V")

CAPTURED_KEY = "memori_captured"
"""The state key an adapter marks the latest turn it captured in: a digest of the turn (no text), checkpointed with
the thread, so that another graph instance or process resuming the thread does not capture that turn again."""


def remember(keys: OrderedDict[K, V], key: K, value: V, most: int) -> None:
    """Record ``key`` (a new key as the most recent; a known one keeps its place) and forget the oldest beyond
    ``most``."""
    keys[key] = value
    while len(keys) > most:
        keys.popitem(last=False)
