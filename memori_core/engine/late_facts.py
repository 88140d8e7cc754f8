"""A fact told late: an add dated before a fact it supersedes became valid (a turn queued, retried or captured out
of order) lands in that fact's past, as pure functions over :class:`~memori_core.facts.StoredFact` (the facts
before it read through a callable, under the caller's write lock).

"I moved to Hull." said on 10-20 but added after "I moved to York." said on 10-26 (which ended "User lives in
Leeds."): Hull is stored already superseded by York, valid from 10-20 until York began; Leeds, which was valid on
10-20, ends then, superseded by Hull; York now replaces Hull instead of Leeds. ``history`` shows Leeds, Hull, York
and ``recall(as_of=...)`` one home at any time."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from ..facts import StoredFact
from ..validate import iso_to_ts
from .fact_ids import _is_version_row


@dataclass(frozen=True)
class PastPlace:
    """Where facts said at one time land in the history of the facts they name: before ``successor``."""

    end: str
    """When the landed facts stop being valid: when ``successor`` (or the fact it replaced, if earlier) began."""
    successor: StoredFact
    """The earliest fact of the chain that became valid after the said-at time: it supersedes the landed facts."""
    ended: tuple[StoredFact, ...]
    """The facts of the chain valid at the said-at time: the landed facts end them then."""
    after: tuple[StoredFact, ...]
    """Every fact of the chain that became valid after the said-at time (``successor`` among them)."""


def _start(fact: StoredFact) -> float:
    return iso_to_ts(fact.valid_since)


def split_by_start(olds: Sequence[StoredFact], said: str) -> tuple[list[StoredFact], list[StoredFact]]:
    """``olds`` (valid facts an add supersedes) as those valid by ``said`` (the add's time: ended then, as
    usual) and those that became valid after it (the add lands in their past)."""
    t = iso_to_ts(said)
    earlier = [o for o in olds if _start(o) <= t]
    return earlier, [o for o in olds if _start(o) > t]


def place_in_past(later: Sequence[StoredFact], said: str, read: Callable[[list[str]], list[StoredFact]],
                  batch: Iterable[str]) -> PastPlace | None:
    """Where facts said at ``said`` that supersede ``later`` (facts that became valid after it) land: the facts
    each replaced are read back (``read``: stored facts by id) until those valid at ``said``, whose end moves to
    ``said``. ``None`` when a fact of that chain is one the add stores again (``batch``: its ids), which would
    make the history a loop: the later facts are then left alone."""
    t = iso_to_ts(said)
    after = {f.id: f for f in later}
    ended: dict[str, StoredFact] = {}
    todo = list(later)
    while todo:
        wanted = list(dict.fromkeys(i for f in todo for i in f.supersedes if i not in after and i not in ended))
        found = {f.id: f for f in read(wanted)} if wanted else {}
        nxt = []
        for f in todo:
            for fid in f.supersedes:
                prev = found.get(fid)
                if prev is None or prev.superseded_by != f.id or _is_version_row(prev):
                    continue  # not replaced by this fact (any more): a restore, a rewrite, a period kept
                if _start(prev) > t:
                    after[prev.id] = prev
                    nxt.append(prev)
                elif prev.valid_to and iso_to_ts(prev.valid_to) > t:
                    ended[prev.id] = prev
        todo = nxt
    if set(batch) & (after.keys() | ended.keys()):
        return None
    successor = min(after.values(), key=lambda f: (_start(f), f.seq))
    starts = [successor.valid_since or said, *(p.valid_to or said for p in ended.values())]
    return PastPlace(min(starts, key=iso_to_ts), successor, tuple(ended.values()), tuple(after.values()))


def landed(facts: Sequence[StoredFact], place: PastPlace) -> list[StoredFact]:
    """``facts`` (valid, as the add stores them) already superseded by ``place.successor`` at ``place.end``."""
    return [replace(f, valid_to=place.end, superseded_by=place.successor.id) for f in facts]


def relinked(place: PastPlace, landed_ids: Sequence[str]) -> list[StoredFact]:
    """The facts of the chain whose ``supersedes`` change: each no longer names the facts the landed ones end now,
    and ``place.successor`` names the landed facts."""
    ended_by = {p.id: p.superseded_by for p in place.ended}
    out = []
    for f in place.after:
        links = tuple(i for i in f.supersedes if ended_by.get(i) != f.id)
        if f.id == place.successor.id:
            links = tuple(dict.fromkeys((*links, *landed_ids)))
        if links != f.supersedes:
            out.append(replace(f, supersedes=links))
    return out
