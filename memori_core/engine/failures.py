"""What a write that failed part-way raises: the store's own error when nothing of the call landed, else a
:class:`~memori_core.PartialWriteError` naming every fact that landed and every one that did not."""

from __future__ import annotations

from ..facts import StoredFact
from ..store.base import PartialWriteError


def _root_cause(exc: Exception) -> BaseException:
    """The store's own error behind a PartialWriteError (``exc`` itself otherwise)."""
    return exc.__cause__ if isinstance(exc, PartialWriteError) and exc.__cause__ is not None else exc


def _add_failure(
    entity_id: str, facts: list[StoredFact], written: list[str], replaced: list[str], exc: Exception
) -> Exception:
    """What an ``add`` that failed part-way raises: the store's error when nothing landed, else a
    PartialWriteError naming every fact of the call that landed (stored or seen again) and every one that
    did not; facts it was to supersede (``replaced``), still valid, are named in the message."""
    cause = _root_cause(exc)
    if isinstance(exc, PartialWriteError):
        if not written and len(exc.stored_ids) + len(exc.unstored_ids) == len(facts) and not replaced:
            return exc  # the only step that ran said it all
        landed = set(written) | set(exc.stored_ids)  # the step that failed said which of its facts landed
    else:
        landed = set(written)
    if not landed:
        return exc
    stored = [f.id for f in facts if f.id in landed]
    left = f" (not superseded, still valid: {', '.join(replaced)})" if replaced else ""
    return PartialWriteError(
        f"stored {len(stored)} of {len(facts)} facts for entity {entity_id!r} before failing{left}: {cause}",
        stored, [f.id for f in facts if f.id not in landed],
    )
