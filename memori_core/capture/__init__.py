"""Capture: extract the facts of a turn and store them, in the background, bounded, failing open.

:class:`BackgroundCapture` runs :func:`capture_facts` off the caller's thread,
on its engine's capture pool (``RecallEngine(capture_workers=...)``), with a bound on pending captures, and
counts what became of them (:class:`CaptureStats`); see its docstring for failures, ``strict`` and ``flush``.

The package, one job a module: :mod:`.turn` (:func:`capture_facts`: one turn extracted and stored),
:mod:`.turns` (where a conversation's turns begin and end: :func:`newest_turn`), :mod:`.shown_facts` (the stored facts an extractor is shown besides the best-ranked ones), :mod:`.markup`
(prompt markup an extracted fact may not carry), :mod:`.secrets` (the passwords, card numbers and keys it may not
carry either), :mod:`.background` (:class:`BackgroundCapture`), :mod:`.held` (the turns an outage kept from the
store, held to be captured again once it answers),
:mod:`.refusal` (:func:`refused_because`: both checks as one refusal, which the memory tools and the LangGraph
store's ``put`` refuse by too), :mod:`.outcomes` (what became of the captures, and how an adapter shows it),
:mod:`.arguments` (an adapter's capture arguments checked), :mod:`.said_at` (when a framework message says it
was said, and in which zone), :mod:`.statements` (one writer of a user's statements at a time: capture and a
model's ``remember``), :mod:`.repeats` (a statement two processes stored at once kept once) and
:mod:`.brought_back` (a fact said again after another replaced it ends that one, in a single-valued slot). Every name below is importable from ``memori_core.capture``.
"""

from __future__ import annotations

from .arguments import DEFAULT_MAX_PENDING_CAPTURES, check_extractor, check_max_pending
from .background import BackgroundCapture
from .held import OUTAGE_TURNS_KEPT
from .markup import prompt_markup_in
from .outcomes import CaptureDropped, CaptureStats, FlushResult, HeldTurn, WaitsForCaptures
from .refusal import Refusal, refused_because
from .said_at import SAID_AT_KEY, said_as_of, said_at_in, said_during, said_during_turn, said_zone
from .secrets import secret_in
from .shown_facts import EXISTING_FACTS_LIMIT, SLOT_FACTS_LIMIT, SLOT_SCAN_LIMIT, same_slot_facts
from .turn import capture_facts
from .turns import newest_turn, turn_spans

__all__ = [
    "DEFAULT_MAX_PENDING_CAPTURES", "EXISTING_FACTS_LIMIT", "OUTAGE_TURNS_KEPT", "SAID_AT_KEY", "SLOT_FACTS_LIMIT",
    "SLOT_SCAN_LIMIT",
    "BackgroundCapture", "CaptureDropped", "CaptureStats", "FlushResult", "HeldTurn", "Refusal", "WaitsForCaptures",
    "capture_facts", "check_extractor", "check_max_pending", "newest_turn", "prompt_markup_in", "refused_because",
    "said_as_of", "said_at_in", "said_during", "said_during_turn", "said_zone", "same_slot_facts", "secret_in",
    "turn_spans",
]
