"""Which stored fact already says a text under another id than the one the text derives.

A fact added without ``ids`` is stored under the id its text derives (:func:`.fact_ids.derived_fact_id`), so
saying it again finds it by id. A fact keeps its id when :meth:`~memori_core.RecallEngine.update` gives it a new
text, and the old text said again goes to ``<id>-<n>`` (``WritePath._past_updates``): such a fact says a text
whose derived id it is not stored under. :func:`owners_of` finds it through the store's index of texts
(``holding_texts``), so that the text said again counts a sighting of it instead of storing a twin.

Only facts whose own id was derived from a text are owners: a caller's id (``add(ids=...)``, a LangGraph store
item) names a fact the caller keeps apart, and a version row (``<id>@v<n>``) is history.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..facts import StoredFact
from ..store.base import RowStore
from .fact_ids import derived_fact_id, is_version_id, version_id


def owners_of(store: RowStore, entity_id: str, text_ids: Iterable[str]) -> dict[str, StoredFact]:
    """For each of ``text_ids`` (derived ids no stored fact of ``entity_id`` has as its own id), the fact stored
    under another derived id that says that text, if one does: a valid one first, then the first written. Two
    requests when one is found (the texts looked up, then the candidates' first versions), one otherwise."""
    wanted = set(text_ids)
    if not wanted:
        return {}
    found = [f for f in store.holding_texts(entity_id, sorted(wanted)) if not is_version_id(f.id)]
    if not found:
        return {}
    firsts = {f.id: f for f in store.get(entity_id, [version_id(f.id, 1) for f in found])}
    owners: dict[str, StoredFact] = {}
    for fact in sorted(found, key=lambda f: (f.valid_to is not None, f.seq, f.id)):
        key = derived_fact_id(fact.content)
        first = firsts.get(version_id(fact.id, 1))
        if key in owners or key not in wanted or fact.id == key:
            continue
        if _derived_from(fact.id, key) or (first is not None
                                           and _derived_from(fact.id, derived_fact_id(first.content))):
            owners[key] = fact
    return owners


def _derived_from(fid: str, text_id: str) -> bool:
    """Whether ``fid`` is ``text_id`` or one of the ``<text_id>-<n>`` ids an old text said again takes."""
    head, sep, n = fid.rpartition("-")
    return fid == text_id or (sep == "-" and head == text_id and n.isdigit())
