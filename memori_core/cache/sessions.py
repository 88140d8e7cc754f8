"""Session neighbour links: each session's rows as a doubly linked list in ``seq`` order, built vectorised."""

from __future__ import annotations

import numpy as np


def session_order(session: np.ndarray, seq: np.ndarray) -> np.ndarray:
    """Rows that have a session, grouped by session, each group by ``seq`` (ties: lower row first)."""
    rows = np.flatnonzero(session >= 0)
    if rows.size == 0:
        return rows
    return rows[np.lexsort((rows, seq[rows], session[rows]))]


def link_sessions(session: np.ndarray, seq: np.ndarray, n_codes: int) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """``prev`` / ``next`` row of each row in its session (``-1``: none, int32) and each session's last row.

    The same links as appending the rows one by one, each walked back from its
    session's tail past rows of a higher ``seq`` (what ``EntityCache`` does on a write).
    """
    n = session.shape[0]
    prev = np.full(n, -1, dtype=np.int32)
    nxt = np.full(n, -1, dtype=np.int32)
    tail = np.full(n_codes, -1, dtype=np.int64)
    order = session_order(session, seq)
    if order.size:
        same = session[order[1:]] == session[order[:-1]]
        prev[order[1:][same]] = order[:-1][same]
        nxt[order[:-1][same]] = order[1:][same]
        last = np.ones(order.shape[0], dtype=bool)
        last[:-1] = ~same
        tail[session[order[last]]] = order[last]
    return prev, nxt, tail.tolist()
