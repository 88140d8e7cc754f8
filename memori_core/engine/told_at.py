"""An edit told at a time of its own (``at``: ``update``, ``expire``, ``delete``, ``restore``) comes after what it
acts on: a time before a fact it edits was stated, or before the supersede a restore undoes, would date the edit
in a past where that fact was not yet said, so it is refused (under the write lock) rather than judged then."""

from __future__ import annotations

from collections.abc import Iterable

from ..facts import StoredFact
from ..validate import iso_to_ts


def check_told_after(when: str | None, facts: Iterable[StoredFact], edits: str = "the fact it edits") -> None:
    """Raise ``ValueError`` naming ``at`` when ``when`` (an ISO time; ``None``: now, never refused) is before one of
    ``facts`` was stated (``created_at``); ``edits`` says what the edit acts on."""
    if not when:
        return
    told = iso_to_ts(when)
    for fact in facts:
        if told < iso_to_ts(fact.created_at):
            raise ValueError(f"at {when} is before fact {fact.id!r} was stated ({fact.created_at}): an edit is told "
                             f"after {edits}")
