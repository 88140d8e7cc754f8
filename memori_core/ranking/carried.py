"""What a follow-up carries over from the turn before it: the facts recall kept for that turn.

"its red and hot and came on overnight, not like my usual knee" after "my knee is swollen again, is it fine to take
loxonin": the turn before kept *User has gout and takes allopurinol every day.*; the follow-up's own words and the
conversation rank it 6th, and the limit's five places go to the knee and to facts its concerns imply. A fact recall
gave the model one turn ago is part of what the conversation is about, so a turn that leans on that conversation
(:func:`~.conversation.leans_on_the_conversation`) and is read with it keeps such a fact when it is still near
(among the ``limit + ranks`` best, with a gate cosine of ``floor``): bounded by the rank and the cosine, and decayed
by reaching back one turn only (the turn before was itself read on its own words). A turn read on its own words (a
general question, news) carries nothing, so an off-topic follow-up ("How long do rabbits usually live?" after "What
should I feed my rabbits?") stays clean. docs/ranking.md item 59.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np

__all__ = ["carried_rows"]


def carried_rows(
    pool_size: int,
    near: np.ndarray,
    near_ids: Sequence[str],
    kept_before: Collection[str],
    gate_cosine: np.ndarray,
    floor: float,
) -> np.ndarray | None:
    """The pool rows a follow-up carries over (bool mask over the ``pool_size`` rows), ``None`` for none.

    ``near``: the pool positions ranked among the ``limit + gate_carried`` best, ``near_ids`` their fact ids;
    ``kept_before``: the ids recall kept for the turn before; ``gate_cosine``: what the gate reads per pool row. A
    row is carried when it is near, its fact was kept before and its gate cosine reaches ``floor``.

    >>> carried_rows(4, np.array([0, 1, 2]), ["a", "b", "c"], {"c", "d"}, np.array([0.5, 0.4, 0.25, 0.9]), 0.2)
    array([False, False,  True, False])
    """
    if not kept_before or not near.size:
        return None
    before = np.fromiter((i in kept_before for i in near_ids), dtype=bool, count=near.shape[0])
    rows = near[before]
    rows = rows[np.asarray(gate_cosine)[rows] >= floor]
    if not rows.size:
        return None
    carried = np.zeros(pool_size, dtype=bool)
    carried[rows] = True
    return carried
