"""What :meth:`MemoriRecall.capture <memori_core.sdk.MemoriRecall.capture>` hands to the background: the call's
newest turn with the model's reply (:func:`turn_with_reply`), known by a digest so a tool loop's later calls do not
capture it again (:class:`CapturedTurns`), begun when its :meth:`~memori_core.sdk.MemoriRecall.apply` ran
(:class:`BegunTurns`)."""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ..capture.turns import newest_turn
from ..extraction.types import USER_ROLES, as_messages
from ..query import field_of

__all__ = ["BEGUN_KEPT", "BEGUN_WITHIN", "CAPTURED_TURNS_KEPT", "BegunTurns", "CapturedTurns", "conversation_digest",
           "reply_message", "turn_with_reply"]

CAPTURED_TURNS_KEPT = 4096
"""How many captured turns one :class:`~memori_core.sdk.MemoriRecall` remembers (the most recent), so the calls of
a tool loop, each followed by ``capture``, capture their turn once."""

SAME_TURN_WITHIN = 600.0
"""Seconds within which a live turn (no ``said_at``) handed over again is the same turn (a tool loop's later
calls); the same words opening a new chat later are a new turn."""

BEGUN_KEPT = 4096
"""How many ``apply`` calls not yet followed by their ``capture`` one :class:`~memori_core.sdk.MemoriRecall`
remembers (the most recent)."""

BEGUN_WITHIN = 3600.0
"""Seconds for which an ``apply`` whose ``capture`` did not come (its call failed, or the capture was handed other
messages) still counts as a call that may be answering: a capture matching no ``apply`` takes the oldest erase
generation of its user's calls begun within this time."""


def reply_message(reply: Any) -> Any:
    """The model's reply as a message :func:`~memori_core.extraction.as_messages` reads, or ``None`` for none.

    Taken as the SDKs give it: a message (a ``{"role": "assistant", ...}`` dict, OpenAI's
    ``resp.choices[0].message``, Anthropic's whole ``Message``), a whole OpenAI ``ChatCompletion`` (its first
    choice), a Responses API ``Response`` (its ``output_text``), a Google GenAI response (its first candidate) or
    the reply's text (a ``str``). Another value raises ``TypeError`` naming ``reply``."""
    if reply is None:
        return None
    if isinstance(reply, str):
        return {"role": "assistant", "content": reply}
    choices = field_of(reply, "choices")
    if isinstance(choices, Sequence) and not isinstance(choices, str):  # an OpenAI ChatCompletion
        return field_of(choices[0], "message") if choices else None
    candidates = field_of(reply, "candidates")
    if isinstance(candidates, Sequence) and not isinstance(candidates, str):  # a Google GenAI response
        return field_of(candidates[0], "content") if candidates else None
    if field_of(reply, "object") == "response" or (field_of(reply, "role") is None and _has_output(reply)):
        text = getattr(reply, "output_text", None) if not isinstance(reply, dict) else None
        if text is None:
            text = _output_text(field_of(reply, "output") or [])
        return {"role": "assistant", "content": text}
    if field_of(reply, "role") is None:
        raise TypeError(f"reply must be the model's reply (a message with a 'role', a ChatCompletion, a Responses "
                        f"API Response, a Google GenAI response or its text), got {type(reply).__name__}")
    return reply


def _has_output(reply: Any) -> bool:
    return isinstance(field_of(reply, "output"), list)


def _output_text(output: Sequence[Any]) -> str:
    """The text of a Responses API ``output`` list given as dicts (``model_dump()``): its messages' text parts."""
    parts: list[str] = []
    for item in output:
        if field_of(item, "type") == "message":
            parts += [str(field_of(p, "text")) for p in field_of(item, "content") or []
                      if field_of(p, "type") == "output_text"]
    return "".join(parts)


def turn_with_reply(messages: Any, reply: Any) -> tuple[list[Any], str]:
    """The newest turn of ``messages`` (:func:`~memori_core.capture.newest_turn`) with ``reply`` after it, and the
    digest of the conversation up to that turn's last user message (the same in every call of a tool loop, and
    different for the same words said again later). ``([], "")`` when no message is the user's. A bad message
    raises ``TypeError`` naming it as ``messages[i]``."""
    listed = _listed(messages)
    read = as_messages(listed)  # checks every message, naming a bad one
    last_user = _last_user(read)
    if last_user is None:
        return [], ""
    answer = reply_message(reply)
    if answer is None:  # the reply may be in the list already
        turn = newest_turn(listed)
    else:
        as_messages([answer], "reply")  # a malformed reply is named as the reply
        turn = newest_turn(listed[:last_user + 1] + [answer])
    return turn, _digest(read[:last_user + 1])


def _listed(messages: Any) -> list[Any]:
    """The call's messages as a list (a Responses API input string is one message); another type raises
    ``TypeError`` naming ``messages``."""
    if isinstance(messages, (bytes, bytearray)) or not isinstance(messages, (str, Sequence)):
        raise TypeError(f"messages must be the call's messages (a list, or a Responses API input string), got "
                        f"{type(messages).__name__}")
    return [messages] if isinstance(messages, str) else list(messages)


def _last_user(read: Sequence[Any]) -> int | None:
    """The index of the last message of ``read`` that is the user's, ``None`` when none is."""
    return max((i for i, m in enumerate(read) if m.role in USER_ROLES), default=None)


def _digest(read: Sequence[Any]) -> str:
    digest = hashlib.sha256()
    for message in read:
        digest.update(f"{message.role}\0{message.text}\0\1".encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def conversation_digest(messages: Any) -> str:
    """The digest :func:`turn_with_reply` gives for ``messages`` (the conversation up to its last user message), so
    a model call's ``apply`` and its ``capture`` are paired; ``""`` when no message is the user's or the messages
    cannot be read (their ``capture`` names the bad one)."""
    try:
        read = as_messages(_listed(messages))
    except (TypeError, ValueError):
        return ""
    last_user = _last_user(read)
    return "" if last_user is None else _digest(read[:last_user + 1])


class CapturedTurns:
    """The turns one ``MemoriRecall`` captured (by user, digest and given said-at time), the last
    :data:`CAPTURED_TURNS_KEPT`; a turn whose capture was not stored is released, so a later call captures it.
    Thread-safe."""

    def __init__(self, kept: int = CAPTURED_TURNS_KEPT, within: float = SAME_TURN_WITHIN) -> None:
        self._kept = kept
        self._within = within
        self._lock = threading.Lock()
        self._keys: OrderedDict[tuple[str, str, str | None], float] = OrderedDict()

    def claim(self, key: tuple[str, str, str | None]) -> bool:
        """``True`` (and noted) when the turn was not captured yet: a live one (no said-at time in ``key``) counts
        as captured for :data:`SAME_TURN_WITHIN` seconds."""
        now = time.monotonic()
        with self._lock:
            claimed = self._keys.get(key)
            if claimed is not None and (key[2] is not None or now - claimed < self._within):
                return False
            self._keys[key] = now
            self._keys.move_to_end(key)
            while len(self._keys) > self._kept:
                self._keys.popitem(last=False)
            return True

    def release(self, key: tuple[str, str, str | None]) -> None:
        with self._lock:
            self._keys.pop(key, None)


class BegunTurns:
    """The ``apply`` calls not yet followed by their ``capture``, by (user, :func:`conversation_digest` of the
    call's messages): the erase generation and said-at time each turn began with (a ``forget`` while the model
    answered erases it; its facts are dated then). Two conversations of one user in flight at once keep their
    own. The last :data:`BEGUN_KEPT`. Thread-safe."""

    def __init__(self, kept: int = BEGUN_KEPT, within: float = BEGUN_WITHIN) -> None:
        self._kept = kept
        self._within = within
        self._lock = threading.Lock()
        self._count = 0
        # (entity, digest) -> (record id, generation, said-at time, monotonic time noted)
        self._begun: OrderedDict[tuple[str, str], tuple[int, int, datetime, float]] = OrderedDict()

    def note(self, entity_id: str, digests: Sequence[str], generation: int, said_at: datetime) -> None:
        """One call began: noted under each of ``digests`` (the messages as given and as sent with the block
        written into a user turn), which its ``capture`` may be handed."""
        with self._lock:
            self._count += 1
            record = (self._count, generation, said_at, time.monotonic())
            for digest in dict.fromkeys(digests):
                self._begun[(entity_id, digest)] = record
                self._begun.move_to_end((entity_id, digest))
            while len(self._begun) > self._kept:
                self._begun.popitem(last=False)

    def take(self, entity_id: str, digest: str) -> tuple[int, datetime | None] | None:
        """The generation and said-at time of the call whose messages have ``digest`` (no longer kept after);
        with none, the OLDEST generation of the user's calls begun within :data:`BEGUN_WITHIN` seconds and no
        time (so a capture never outlives a ``forget`` said while a call of the user was answering); ``None``
        when the user has no call begun."""
        with self._lock:
            found = self._begun.pop((entity_id, digest), None)
            if found is not None:
                for key in [k for k, r in self._begun.items() if r[0] == found[0]]:
                    del self._begun[key]
                return found[1], found[2]
            now = time.monotonic()
            generations = [r[1] for (entity, _), r in self._begun.items()
                           if entity == entity_id and now - r[3] < self._within]
            return (min(generations), None) if generations else None
