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
    row_ids: Sequence[str],
    kept_before: Collection[str],
    order: np.ndarray,
    gate_cosine: np.ndarray,
    limit: int,
    ranks: int,
    floor: float,
) -> np.ndarray | None:
    """The pool rows a follow-up carries over (bool mask over the pool), ``None`` for none.

    ``row_ids``: each pool row's fact id; ``kept_before``: the ids recall kept for the turn before; ``order``: the
    pool positions in rank order; ``gate_cosine``: what the gate reads per row; a row is carried when its fact was
    kept before, it is among the first ``limit + ranks`` of ``order`` and its gate cosine reaches ``floor``.

    >>> carried_rows(["a", "b", "c"], {"c"}, np.array([0, 1, 2]), np.array([0.5, 0.4, 0.25]), 2, 1, 0.2)
    array([False, False,  True])
    """
    if not kept_before or limit <= 0:
        return None
    before = np.fromiter((i in kept_before for i in row_ids), dtype=bool, count=len(row_ids))
    near = np.zeros(before.shape[0], dtype=bool)
    near[order[: limit + ranks]] = True
    carried = before & near & (np.asarray(gate_cosine) >= floor)
    return carried if carried.any() else None
