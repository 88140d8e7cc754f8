"""A text update refused because the fact it names is no longer valid (a newer fact replaced it):
:class:`ReplacedFactError`, which names the fact that holds in its place now, found by following ``superseded_by``."""

from __future__ import annotations

from collections.abc import Callable

from ..context import format_timestamp
from ..facts import StoredFact
from ..validate import iso_to_ts

_CHAIN_LIMIT = 64
"""The most ``superseded_by`` links followed to the fact that holds now (a loop a hand-made import wrote ends it)."""


class ReplacedFactError(ValueError):
    """:meth:`~memori_core.RecallEngine.update` of a new text for a fact that is no longer valid: its text is history
    (what held until ``ended_at``), which an update does not rewrite (a ``ValueError``, so callers that catch that
    go on catching it).

    ``fact_id`` is the fact named, ``ended_at`` when it stopped being valid, and ``current`` the valid fact that
    holds in its place now (the end of its ``superseded_by`` chain; ``None`` when that chain ends in a fact deleted
    or ended since): update ``current`` to change what holds now, or restore ``fact_id`` first if it holds again."""

    def __init__(self, entity_id: str, fact: StoredFact, current: StoredFact | None) -> None:
        self.entity_id, self.fact_id, self.ended_at, self.current = entity_id, fact.id, fact.valid_to, current
        when = format_timestamp(fact.valid_to) or fact.valid_to
        if current is not None:
            said = (f"fact {current.id!r} ({current.content!r}) replaced it on {when} and holds now; update "
                    f"{current.id!r} to change what holds now, or restore {fact.id!r} first if it holds again")
        else:
            said = (f"it stopped being valid on {when}, and the fact that replaced it was deleted or replaced since; "
                    f"restore {fact.id!r} first to make it valid again, or add the new text as a fact")
        super().__init__(f"fact {fact.id!r} of entity {entity_id!r} is no longer valid, so its text is history, "
                         f"which update does not rewrite: {said}")


def is_ended(fact: StoredFact, now: str) -> bool:
    """Whether ``fact`` is no longer valid at ``now`` (its ``valid_to`` reached)."""
    return fact.valid_to is not None and iso_to_ts(fact.valid_to) <= iso_to_ts(now)


def current_of(fact: StoredFact, read: Callable[[list[str]], list[StoredFact]], now: str) -> StoredFact | None:
    """The valid fact at the end of ``fact``'s ``superseded_by`` chain (``read``: stored facts by id), or ``None``
    when the chain ends in a fact deleted since, or in one no longer valid that nothing replaced."""
    seen = {fact.id}
    link = fact.superseded_by
    while link is not None and link not in seen and len(seen) < _CHAIN_LIMIT:
        found = read([link])
        if not found:
            return None
        if not is_ended(found[0], now):
            return found[0]
        seen.add(link)
        link = found[0].superseded_by
    return None
