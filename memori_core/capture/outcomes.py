"""What became of an adapter's captures: :class:`CaptureStats`, :class:`FlushResult`, :class:`CaptureDropped`, and
:class:`WaitsForCaptures`, the ``pending_captures`` / ``capture_stats`` / ``flush`` an adapter shows them by."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .background import BackgroundCapture


class CaptureDropped(RuntimeError):
    """A capture was dropped because its adapter already had ``max_pending`` captures pending."""


@dataclass(frozen=True)
class CaptureStats:
    """What became of an adapter's captures (:attr:`BackgroundCapture.stats`: since the adapter was made).

    Every submitted capture ends as exactly one of ``completed`` (the extractor ran and its facts, if any,
    were stored), ``dropped`` (never run: ``max_pending_captures`` were already pending, or the engine was
    closed before it ran, or closed while its store was unreachable, or it was a turn no model answered that
    the adapter's bounded record of such turns forgot before the user's next answered turn:
    :mod:`memori_core.unanswered`), ``failed`` (the extractor or the store raised: a warning was logged, or
    with ``strict=True`` the error kept) or ``erased`` (the entity was forgotten after the turn began: nothing
    written, by design); ``pending`` are not finished yet.
    ``submitted`` counts every turn handed over, dropped ones included. ``refused_facts`` counts facts (not
    turns) the extractor found but capture refused to store because they carry prompt markup or instruction
    text (:func:`~memori_core.capture.prompt_markup_in`) or a secret such as a password or a card number
    (:func:`~memori_core.capture.secret_in`); the rest of their turn is stored as usual.
    ``held`` are the turns a store outage kept from the store, held now to be captured again once it answers
    (the adapters' ``hold``, :mod:`memori_core.capture.held`): neither pending nor finished; an attempt that
    held its turn is not counted as failed, and a held turn captured again is not submitted again.
    """

    submitted: int = 0
    completed: int = 0
    dropped: int = 0
    failed: int = 0
    erased: int = 0
    pending: int = 0
    refused_facts: int = 0
    held: int = 0


@dataclass(frozen=True)
class HeldTurn:
    """One turn a store outage kept from the store, still held when a flush ended: whose it is (``entity_id``) and
    when it was said (``said_at``), so that an app can tell which turns are not stored yet, or re-send them."""

    entity_id: str
    said_at: datetime


@dataclass(frozen=True)
class FlushResult:
    """What :meth:`BackgroundCapture.flush` found: whether every capture submitted so far has finished, and
    what became of the captures that ended since the previous flush (or since the adapter was made).

    It is true when ``finished``, so ``assert adapter.flush()`` and ``if not adapter.flush(timeout=5):`` read
    as before; check ``dropped`` and ``failed`` to see turns that were not stored, and ``held`` for those a
    store outage kept from it, held now to be captured again once it answers (:class:`CaptureStats`); a flush
    asks the store first whether it answers, so ``held`` are turns the store did not take even then, and
    ``held_turns`` names each of them, earliest said first (:class:`HeldTurn`).
    """

    finished: bool
    pending: int
    completed: int
    dropped: int
    failed: int
    erased: int
    held: int = 0
    held_turns: tuple[HeldTurn, ...] = ()

    def __bool__(self) -> bool:
        return self.finished


class WaitsForCaptures:
    """``pending_captures``, ``capture_stats``, ``flush`` and ``aflush`` for an adapter whose captures run on
    ``self._captures`` (the LangChain middleware and graph node, the LlamaIndex memory block)."""

    _captures: BackgroundCapture

    @property
    def pending_captures(self) -> int:
        """Captures submitted and not finished yet."""
        return self._captures.pending

    @property
    def capture_stats(self) -> CaptureStats:
        """What became of this adapter's captures since it was made (:class:`CaptureStats`): how many were
        stored, dropped (``max_pending_captures`` reached, or the engine closed), failed or erased."""
        return self._captures.stats

    def flush(self, timeout: float | None = None) -> FlushResult:
        """Wait until the captures submitted so far have finished (at most ``timeout`` s); the result is true if
        none is left, and says how many captures since the previous flush were dropped or failed
        (:class:`FlushResult`).

        With ``strict=True`` a capture failure (or drop) is raised here.
        """
        return self._captures.flush(timeout)

    async def aflush(self, timeout: float | None = None) -> FlushResult:
        """Async :meth:`flush` (the event loop is not blocked)."""
        return await self._captures.aflush(timeout)
