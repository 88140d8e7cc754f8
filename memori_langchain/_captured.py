"""What the LangChain adapters that capture (the ``create_agent`` middleware, the LangGraph capture node) mark in a
thread's state: the key holding the latest turn they captured. What they remember of recent turns in the process is
a :class:`memori_core.bounded.BoundedRecord`."""

from __future__ import annotations

__all__ = ["CAPTURED_KEY"]

CAPTURED_KEY = "memori_captured"
"""The state key an adapter marks the latest turn it captured in: a digest of the turn (no text), checkpointed with
the thread, so that another graph instance or process resuming the thread does not capture that turn again."""
