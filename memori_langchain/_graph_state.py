"""The LangGraph state key the recall node writes its block to (:data:`MemoriContext`, :class:`MemoriState`), and
what a running graph declares about its keys, read from the node's run config."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Annotated, Any

from langchain_core.runnables import RunnableConfig
from langgraph.channels import UntrackedValue
from langgraph.graph import MessagesState
from typing_extensions import NotRequired

CONTEXT_KEY = "memori_context"

MemoriContext = Annotated[str, UntrackedValue(str)]
"""The type of the state key :func:`memori_recall_node` writes its block to: a ``str`` that LangGraph keeps for
the rest of the run (every node after the recall node reads it, a tool loop's model calls included) and never
writes to a checkpoint (a LangGraph ``UntrackedValue`` channel). Recalled facts are the user's long-term memory,
which ``engine.forget`` / ``delete`` erase; a copy in the checkpointer would outlive them. Declare it in your own
schema as ``memori_context: MemoriContext`` (or use :class:`MemoriState`)."""

_CHANNEL_READER = "__pregel_read"
"""The key of LangGraph's channel reader in a node's run config (``langgraph._internal._constants.CONFIG_KEY_READ``):
``functools.partial(local_read, scratchpad, channels, managed, task)``, whose ``channels`` are the graph's."""
_CHECKPOINTER = "__pregel_checkpointer"
"""The key of the run's checkpointer in a node's run config (``CONFIG_KEY_CHECKPOINTER``); absent or ``None``
without one."""


class MemoriState(MessagesState):
    """``MessagesState`` plus the key the recall node writes its block to, and the one the capture node marks the
    turn it captured in.

    The block lives beside the message history, not in it: it is replaced on
    every turn, never sent back as a message of the conversation, and never
    checkpointed (:data:`MemoriContext`), so the recalled facts stay where
    ``forget`` reaches them. The capture mark (:data:`CAPTURED_KEY`) is a digest
    of the last captured turn, no text: it is checkpointed, so a thread resumed
    by another process (after a restart) or another graph instance does not
    capture that turn again.
    """

    memori_context: NotRequired[MemoriContext]
    memori_captured: NotRequired[str]


def graph_channels(config: RunnableConfig | None) -> Mapping[str, Any] | None:
    """The channels (state keys) of the graph running a node, read from LangGraph's channel reader in the run
    config (as ``langgraph.prebuilt.ToolNode`` reads them); ``None`` whenever that cannot be told (another
    LangGraph version, a call outside a graph): a missed warning, never a wrong one."""
    read = ((config or {}).get("configurable") or {}).get(_CHANNEL_READER)
    channels = read.args[1] if isinstance(read, partial) and len(read.args) > 1 else None
    return channels if isinstance(channels, Mapping) else None


def graph_lacks_key(key: str, config: RunnableConfig) -> bool:
    """Whether the graph running a node has no state key ``key``, so LangGraph drops what the node writes there
    (``False`` when that cannot be told)."""
    channels = graph_channels(config)
    return channels is not None and key not in channels


def graph_checkpoints_key(key: str, config: RunnableConfig) -> bool:
    """Whether the graph running a node has a checkpointer and a state key ``key`` that it checkpoints (declared
    ``str``, not :data:`MemoriContext`); ``False`` when that cannot be told."""
    channels = graph_channels(config)
    if channels is None or key not in channels:
        return False
    return run_has_checkpointer(config) and not isinstance(channels[key], UntrackedValue)


def run_has_checkpointer(config: RunnableConfig | None) -> bool:
    """Whether the run a node is part of has a checkpointer (its threads can be resumed from a checkpoint)."""
    return ((config or {}).get("configurable") or {}).get(_CHECKPOINTER) is not None
