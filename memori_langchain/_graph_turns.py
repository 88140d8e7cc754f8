"""What the LangGraph nodes remember of turns: the erase generation a recall node saw a turn start at (for the
capture node), which turns a capture node captured, and how a turn is known (its key)."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig

from memori_core.bounded import BoundedRecord
from memori_core.extraction import Message
from memori_core.lanes import ERASURES

from ._messages import is_human, turn_to_capture
from ._recall import thread_of_run

TURN_STARTS_KEPT = 4096
"""How many turns' erase generations the recall nodes of the process keep for the capture nodes (below)."""


class TurnStarts:
    """The entity's erase generation (:data:`memori_core.lanes.ERASURES`) when a recall node first ran on a turn,
    by (entity, thread id, human message id), for the capture node that stores the turn after the model
    answered it: a ``forget`` meanwhile makes that capture write nothing. Process-wide (a recall node and a
    capture node are made separately); the most recent :data:`TURN_STARTS_KEPT` turns are kept."""

    def __init__(self) -> None:
        self._starts: BoundedRecord[tuple[str, str | None, str], int] = BoundedRecord(TURN_STARTS_KEPT)
        self._lock = threading.Lock()

    def note(self, key: tuple[str, str | None, str]) -> None:
        """Note the entity's generation now, unless the turn was noted already (a recall node in a tool loop)."""
        generation = ERASURES.generation(key[0])
        with self._lock:
            if key in self._starts:
                return
            self._starts.remember(key, generation)

    def take(self, key: tuple[str, str | None, str]) -> int | None:
        """The generation noted for the turn (and forget it), or ``None`` when no recall node saw it."""
        with self._lock:
            return self._starts.pop(key, None)


TURN_STARTS = TurnStarts()


def turn_key(
    entity: str, messages: Sequence[BaseMessage], config: RunnableConfig,
) -> tuple[str, str | None, str] | None:
    """The key of the turn being answered (its last human message's id) for :data:`TURN_STARTS`; ``None``
    without an id."""
    human = next((m for m in reversed(messages) if is_human(m)), None)
    if human is None or not human.id:
        return None
    return entity, thread_of_run(config), str(human.id)


TurnKey = tuple[str, str | None, str, bytes]
"""A turn a capture node knows: (entity, thread id or ``None``, human message id, digest of the turn)."""


@dataclass(frozen=True)
class Begun:
    """A turn a recall node handed to its capture node before the model answered it (``memori_recall_node(...,
    capture=...)``), kept until the capture node runs on it: its key, human message, the messages to capture
    (the assistant message before it, then it), its thread, and when the recall node saw it."""

    key: TurnKey
    message: BaseMessage
    turn: tuple[Message, ...]
    thread: str | None
    began: datetime


def latest_turn(entity: str, messages: Sequence[BaseMessage], thread_id: str | None,
                ) -> tuple[BaseMessage, list[Message], TurnKey | None] | None:
    """The turn a capture node captures from ``messages``: the last human message, the messages given to the
    extractor (:func:`turn_to_capture`) and its key (``None`` for a message without an id); ``None`` without a
    human message."""
    last_human = max((i for i, m in enumerate(messages) if is_human(m)), default=None)
    if last_human is None:
        return None
    message = messages[last_human]
    turn = turn_to_capture(messages[: last_human + 1])
    key = CapturedTurns.key(entity, thread_id, str(message.id), turn) if message.id else None
    return message, turn, key


CAPTURED_TURNS_KEPT = 4096
"""How many captured turns a :func:`memori_capture_node` remembers (most recent first), so that the node running
again on a turn it already captured (a tool loop through it, a replayed checkpoint) does not capture it again."""


class CapturedTurns:
    """The turns a capture node has captured, the most recent :data:`CAPTURED_TURNS_KEPT` of them.

    A turn is known by whose it is (the entity), its conversation thread (``None`` when the run names none),
    the id of its human message and its text with the assistant message before it (a digest). Two users, or
    two threads, whose front ends both number messages ``"msg-1"`` send two turns; so does one user whose
    front end starts numbering again in a new conversation without a thread id, unless it repeats the turn
    word for word after the same reply.
    """

    def __init__(self) -> None:
        self._keys: BoundedRecord[tuple[str, str | None, str, bytes], None] = BoundedRecord(CAPTURED_TURNS_KEPT)
        self._released: BoundedRecord[tuple[str, str | None, str, bytes], None] = BoundedRecord(
            CAPTURED_TURNS_KEPT)
        self._lock = threading.Lock()

    @staticmethod
    def key(entity: str, thread_id: str | None, message_id: str, turn: Sequence[Message]) -> TurnKey:
        """The key of a turn (``turn``: the messages given to the extractor, see :func:`turn_to_capture`)."""
        text = "\0".join(f"{m.role}\0{m.text}" for m in turn)
        return entity, thread_id, message_id, hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()

    def claim(self, key: tuple[str, str | None, str, bytes]) -> bool:
        """``True`` the first time ``key`` is claimed (then it is remembered), ``False`` while it is remembered."""
        with self._lock:
            known = key in self._keys
            self._keys.remember(key, None)  # a known key is renewed: the node runs on it again
            if not known:
                self._released.pop(key, None)
            return not known

    def release(self, key: tuple[str, str | None, str, bytes]) -> None:
        """Forget ``key`` (its capture was dropped or failed: a later run may capture the turn)."""
        with self._lock:
            if key in self._keys:
                del self._keys[key]
                self._released.remember(key, None)

    def holds(self, key: TurnKey) -> bool:
        """Whether this node captured ``key`` (claimed, and not released since)."""
        with self._lock:
            return key in self._keys

    def released(self, key: tuple[str, str | None, str, bytes]) -> bool:
        """Whether this node's capture of ``key`` was dropped or failed since it was last claimed."""
        with self._lock:
            return key in self._released

    @staticmethod
    def mark(key: tuple[str, str | None, str, bytes]) -> str:
        """The :data:`CAPTURED_KEY` mark of a turn: a digest of its key (no text of the turn)."""
        entity, thread_id, message_id, digest = key
        head = "\0".join([entity, thread_id or "", message_id]).encode("utf-8")
        return hashlib.blake2b(head + b"\0" + digest, digest_size=16).hexdigest()
