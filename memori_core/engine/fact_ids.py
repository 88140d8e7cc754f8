"""Fact ids: the id derived from a fact's text, the ids of a fact's earlier versions (``<id>@v<n>``), and the
check that an argument names one fact."""

from __future__ import annotations

from typing import Any

from ..facts import StoredFact
from ..text import text_fact_id
from ..validate import check_id_list


def _one_id(value: Any, name: str) -> str:
    """One fact id (a non-empty str), or a ``TypeError`` naming ``name``."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be one fact id (a str), got {type(value).__name__}")
    ids = check_id_list(value, name)
    if len(ids) != 1:
        raise TypeError(f"{name} must be one fact id (a str)")
    return ids[0]


def version_id(fact_id: str, n: int) -> str:
    """The id of version ``n`` (1, 2, ...) of fact ``fact_id``: its text or fields before an update."""
    return f"{fact_id}@v{n}"


def version_of(fid: str) -> str | None:
    """The id of the fact whose earlier version ``fid`` is (``"x"`` for ``"x@v2"``, see :func:`version_id`), or
    ``None`` when ``fid`` does not end in ``@v<n>``."""
    head, sep, n = fid.rpartition("@v")
    return head if sep and n.isascii() and n.isdigit() else None


def is_version_id(fid: str) -> bool:
    """Whether ``fid`` is the id of an earlier version of a fact (``<id>@v<n>``, :func:`version_id`): history an
    update kept, which only :meth:`WritePath.restore` changes and :meth:`WritePath.delete` erases."""
    return version_of(fid) is not None


def check_not_version(fid: str, name: str = "id") -> str:
    """``fid``, unless it is a version id (:func:`is_version_id`): then a ``ValueError`` naming ``name`` and the
    fact it is an earlier version of."""
    fact_id = version_of(fid)
    if fact_id is not None:
        raise ValueError(f"{name} {fid!r} is an earlier version of fact {fact_id!r}, kept as its history: a version "
                         f"is not edited (restore it to make it the fact's text again, or delete it to erase it); "
                         f"update {fact_id!r} instead")
    return fid


def _is_version_row(fact: StoredFact) -> bool:
    """Whether ``fact`` is a version row an update (or a fact said again) kept (its id ``<id>@v<n>`` and superseded
    by ``<id>``), not a fact of the user's own whose id only looks like one."""
    return fact.superseded_by is not None and _is_version_of(fact.id, fact.superseded_by)


def _is_version_of(fid: str, fact_id: str) -> bool:
    """Whether ``fid`` is a version row id of fact ``fact_id`` (:func:`version_id`)."""
    return version_of(fid) == fact_id


def derived_fact_id(text: str) -> str:
    """Stable id of a fact from its text (:func:`~memori_core.text.fact_id_key`; ids are scoped per entity): the
    same in every version, so that adding a fact again finds the row stored before."""
    return text_fact_id(text)
