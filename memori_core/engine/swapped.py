"""A read whose arguments look swapped: ``recall("user-1", "Which snacks...?")``, in the order ``add`` takes
them, reads the question as the user's id and finds no facts. The engine then warns (never raises: the call
is valid), at no cost for a user with facts, and only when the swap is plain."""

from __future__ import annotations

import warnings
from collections.abc import Callable

MAX_ENTITY_SHAPED = 200
"""A query longer than this is not taken for an entity id (no store is asked about it)."""


class SwappedArgumentsWarning(UserWarning):
    """A read of an entity without facts whose arguments look swapped (see :func:`warn_if_swapped`)."""


def reads_as_a_question(entity_id: str) -> bool:
    """Whether ``entity_id`` looks like a question rather than a user id: several words ending in ``?``."""
    return entity_id.rstrip().endswith("?") and len(entity_id.split()) > 1


def warn_if_swapped(call: str, query: str | None, entity_id: str, has_facts: Callable[[str], bool],
                    stacklevel: int) -> None:
    """Warn that ``call`` may have been given its arguments swapped, for an ``entity_id`` without facts: when
    the entity id reads as a question, or when the query is itself the id of an entity with facts
    (``has_facts``, asked only of a one-word query; a failure to ask it warns nothing). A new user asking
    their first question is never warned about. ``query`` is ``None`` for a call that takes none (``count``)."""
    if reads_as_a_question(entity_id):
        why = f"entity_id {entity_id!r} reads as a question"
    elif (query and query == query.strip() and len(query) <= MAX_ENTITY_SHAPED and len(query.split()) == 1
          and _has_facts(has_facts, query)):
        why = f"the query {query!r} is the id of an entity with facts"
    else:
        return
    ask = ("are the arguments swapped? ({call} takes the query first, then the entity id; add takes the entity id "
           "first)" if query is not None else "is it a query meant for recall? ({call} takes the entity id alone)")
    warnings.warn(f"{call}: entity {entity_id!r} has no facts and {why}: {ask.format(call=call)}",
                  SwappedArgumentsWarning, stacklevel=stacklevel + 1)


def _has_facts(has_facts: Callable[[str], bool], entity_id: str) -> bool:
    try:
        return has_facts(entity_id)
    except Exception:  # noqa: BLE001 - a hint only: an unreadable store or an id the store refuses says nothing
        return False
