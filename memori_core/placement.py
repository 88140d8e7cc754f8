"""Where the ``<memori_context>`` block goes in a prompt: the one policy every surface follows.

``"system"`` (the default) appends the block to the system prompt, after the app's own instructions.
``"last_user"`` appends it to the latest user turn instead (after that turn's own content, as LlamaIndex's
``InsertMethod.USER`` puts memory in the user turn), so the system prompt and the whole earlier conversation
stay byte-identical from turn to turn and a provider's prompt cache (Anthropic ``cache_control``, OpenAI's
automatic prefix caching) keeps hitting on them; only the latest turn, which is new anyway, changes.

Either way the model reads one block, this turn's: a block an earlier turn wrote into a user turn or the
system prompt (an app that keeps the messages it sent as its history sends them again) is removed first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

__all__ = ["LAST_USER", "PLACEMENTS", "SYSTEM", "check_placement", "place_in_turns"]

SYSTEM = "system"
"""The block is appended to the system prompt (the default)."""
LAST_USER = "last_user"
"""The block is appended to the latest user turn, after the cacheable conversation."""
PLACEMENTS: tuple[str, ...] = (SYSTEM, LAST_USER)
"""The values ``placement=`` accepts."""

T = TypeVar("T")


def check_placement(placement: Any, owner: str | None = None) -> str:
    """``placement`` if it is one of :data:`PLACEMENTS`; ``TypeError`` / ``ValueError`` naming ``placement``
    (and ``owner``, the class it was given to) otherwise."""
    where = f"{owner}: " if owner else ""
    if not isinstance(placement, str):
        raise TypeError(f"{where}placement must be a str, one of {', '.join(map(repr, PLACEMENTS))}; "
                        f"got {type(placement).__name__}")
    if placement not in PLACEMENTS:
        raise ValueError(f"{where}placement must be one of {', '.join(map(repr, PLACEMENTS))}; got {placement!r}")
    return placement


def place_in_turns(
    turns: Sequence[T],
    block: str,
    placement: str,
    *,
    is_user: Callable[[T], bool],
    can_hold: Callable[[T], bool],
    has_block: Callable[[T], bool],
    with_block: Callable[[T, str], T | None],
) -> tuple[list[T], bool]:
    """(``turns`` with the block placed, whether it was placed in a user turn).

    Every user turn (``is_user``) that holds a block an earlier turn wrote (``has_block``) gets it removed
    (``with_block(turn, "")``; ``None`` drops the turn: a turn that was nothing but the block). With
    :data:`LAST_USER` and a non-empty ``block``, the latest user turn that ``can_hold`` it (one that is not
    only tool results) gets ``with_block(turn, block)``: the block appended after its content. When no turn
    was given the block (``placement`` is :data:`SYSTEM`, the block is empty, or no user turn can hold it),
    the caller writes ``block`` into the system prompt, which also removes a block an earlier turn wrote
    there; when one was, the caller writes ``""`` there, which only removes one.
    Turns that change are new objects (``with_block`` copies); the others are the caller's own.
    """
    target = None
    if placement == LAST_USER and block:
        target = next((i for i in range(len(turns) - 1, -1, -1) if is_user(turns[i]) and can_hold(turns[i])), None)
    out: list[T] = []
    for i, turn in enumerate(turns):
        if i == target:
            new = with_block(turn, block)
        elif is_user(turn) and has_block(turn):
            new = with_block(turn, "")
        else:
            new = turn
        if new is not None:
            out.append(new)
    return out, target is not None
