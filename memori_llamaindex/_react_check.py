"""Whether a memory block's text will be dropped before the model sees it: LlamaIndex's ``ReActAgent`` removes the
first system message of what ``Memory`` hands it (``take_step``), and with ``insert_method=SYSTEM`` (the default)
and no ``system_prompt`` on the agent, that message is the one ``Memory`` wrote the blocks into.

The block sees neither the agent nor the model call, only the messages, so it looks up the calling frames for the
``Memory`` read it runs in and the agent that asked for it: a few frame reads per turn, no hook on the model. An
``AgentWorkflow`` reads the memory for whichever agent is current, which the frames do not say: it is not checked.
"""

from __future__ import annotations

import sys

from llama_index.core.agent.workflow import ReActAgent
from llama_index.core.memory import Memory
from llama_index.core.memory.memory import InsertMethod

__all__ = ["REACT_DROPS_BLOCK", "react_agent_drops_the_block"]

_FRAMES_LOOKED_AT = 12
"""How far up from the block's read the agent's step is looked for (it is 4 to 5 frames up)."""

REACT_DROPS_BLOCK = (
    "{owner}: the agent is a LlamaIndex ReActAgent without system_prompt, which drops the first system message, "
    "where Memory put the {name} block, so the model never sees the user's facts; pass "
    "ReActAgent(..., system_prompt=\"...\") or build the memory with "
    "Memory.from_defaults(..., insert_method=InsertMethod.USER)"
)
"""The warning given once per block when :func:`react_agent_drops_the_block`."""


def react_agent_drops_the_block() -> bool:
    """Whether the ``Memory`` read this call runs in (``insert_method=SYSTEM``) was asked for by a ``ReActAgent``
    without ``system_prompt``: its system message, the blocks', is the first one, which the agent drops."""
    frame = sys._getframe(1)
    memory = None
    for _ in range(_FRAMES_LOOKED_AT):
        if frame is None:
            return False
        owner = frame.f_locals.get("self")
        if memory is None and isinstance(owner, Memory):
            memory = owner
        elif isinstance(owner, ReActAgent):
            return memory is not None and memory.insert_method == InsertMethod.SYSTEM and not owner.system_prompt
        frame = frame.f_back
    return False
