"""Rule-based capture for the capture tests: a user's turns captured one by one with the shipped rules through
``capture_facts`` into a real engine (:func:`capture_turns`), and the user's facts read back as sorted texts
(:func:`valid_texts`, :func:`ended_texts`, :func:`core_texts`; :func:`texts_after` captures, then reads;
:func:`told` does both in an engine of its own); :func:`facts_of` is what the rules keep of one message, with
nothing stored, and :func:`replaces` whether it replaces a :class:`Stored` fact.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from _helpers import ungated_engine
from memori_core import RecallEngine, RuleBasedFactExtractor, capture_facts
from memori_core.extraction import Message
from memori_core.validate import iso_to_ts

__all__ = [
    "RULES", "SAID_AT", "Stored", "capture_turns", "core_texts", "ended_texts", "facts_of", "replaces", "texts_after",
    "told", "valid_texts",
]

RULES = RuleBasedFactExtractor()
"""The shipped rules, the extractor every capture here uses."""

SAID_AT = datetime(2026, 8, 7, 10, 0, tzinfo=timezone.utc)
"""A pinned time a turn was said at (a Friday), for tests whose facts name a time counted from it ("last week" is
stored as "in the week of Monday 2026-07-27", "last month" as "in July 2026"): never the wall clock."""


def capture_turns(
    engine: RecallEngine, *turns: str, user: str = "u1", at: datetime | None = None,
    apart: timedelta = timedelta(0),
) -> None:
    """Capture each of ``turns`` in order as a message of ``user``'s, one call each, with :data:`RULES`: said at
    ``at`` (``None``: when captured), each turn ``apart`` after the one before."""
    for n, turn in enumerate(turns):
        capture_facts(engine, user, [("user", turn)], RULES, created_at=None if at is None else at + n * apart)


def valid_texts(engine: RecallEngine, user: str = "u1", at: datetime | None = None) -> list[str]:
    """The texts of ``user``'s valid facts, sorted (``at``: those valid then, a change told ahead from its start;
    ``None``: now)."""
    if at is None:
        return sorted(f.content for f in engine.list(user))
    t = at.timestamp()
    return sorted(f.content for f in engine.list(user, include_invalid=True, limit=10_000)
                  if iso_to_ts(f.valid_since) <= t and f.is_valid(t))


def ended_texts(engine: RecallEngine, user: str = "u1", at: datetime | None = None) -> list[str]:
    """The texts of ``user``'s facts no longer valid (superseded), sorted (``at``: ended by then; ``None``: now).
    A change told ahead that has not started is neither valid nor ended."""
    t = (datetime.now(timezone.utc) if at is None else at).timestamp()
    return sorted(f.content for f in engine.list(user, include_invalid=True, limit=10_000) if not f.is_valid(t))


def core_texts(engine: RecallEngine, user: str = "u1") -> list[str]:
    """The texts of ``user``'s valid facts stored core (injected on every turn), sorted."""
    return sorted(f.content for f in engine.list(user) if f.metadata.get("core"))


def texts_after(engine: RecallEngine, *turns: str, user: str = "u1", at: datetime | None = None) -> list[str]:
    """Capture each of ``turns`` in order (:func:`capture_turns`); the texts of ``user``'s valid facts afterwards,
    sorted."""
    capture_turns(engine, *turns, user=user, at=at)
    return valid_texts(engine, user)


def told(*turns: str, at: datetime | None = None) -> tuple[list[str], list[str]]:
    """Capture each of ``turns`` in order (:func:`capture_turns`, said at ``at``) into a new engine with every gate
    off; the user's valid and ended facts afterwards, as (:func:`valid_texts`, :func:`ended_texts`)."""
    engine = ungated_engine()
    capture_turns(engine, *turns, at=at)
    return valid_texts(engine, at=at), ended_texts(engine, at=at)


def facts_of(said: str, at: datetime | None = None) -> list[str]:
    """The texts of the facts :data:`RULES` keep of one user message ``said`` (said at ``at``; ``None``: no time),
    with nothing stored."""
    return [f.text for f in RULES.extract([Message("user", said, created_at=at)])]


@dataclass(frozen=True)
class Stored:
    """A fact stored before a message, as an extractor is shown it (an id and a text)."""

    id: str
    content: str


def replaces(said: str, stored: str) -> bool:
    """Whether a fact :data:`RULES` keep of the user message ``said`` replaces the stored fact ``stored`` now (the
    facts of ``said`` must not be empty): a state told ahead, valid from a later start (``valid_from``), ends it
    only then, and is left out."""
    facts = RULES.extract([("user", said)], [Stored("old", stored)])
    assert facts, said
    return any(f.supersedes == ("old",) for f in facts if f.valid_from is None)
