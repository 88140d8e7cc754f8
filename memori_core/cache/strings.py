"""A column of strings stored as one UTF-8 buffer plus offsets (no Python object per row)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


class StrColumn:
    """Strings of one column: the rows it was built with in ``raw`` (one UTF-8 buffer), later rows in a list.

    ``raw`` is ``bytes`` or a ``bytearray`` (a snapshot file read into memory), the
    column's bytes starting at ``base``; ``off`` (int64, one more than the rows)
    bounds each row. ``None`` is stored as an empty string with a bit in
    ``none``. Reading a row decodes one slice: nothing is held per row.
    Rows appended later (writes after the load) are kept as Python strings in
    ``extra`` until the owner rebuilds the column (compaction, snapshot).
    Values never change once stored, so a reader may keep a reference to the
    column while writers append to it.
    """

    __slots__ = ("raw", "base", "off", "none", "extra", "n_base", "_extra_bytes", "_off_view", "_none_view")

    def __init__(
        self, raw: Any, off: np.ndarray, none: np.ndarray | None = None, base: int = 0
    ) -> None:
        self.raw = raw
        self.base = base
        self.off = off
        self.none = none
        self.extra: list[str | None] = []
        self.n_base = int(off.shape[0]) - 1
        self._extra_bytes = 0
        # Indexing a memoryview gives a Python int/bool without a numpy scalar: reads stay cheap.
        self._off_view: Any = _view(off)
        self._none_view: Any = _view(none) if none is not None else None

    @classmethod
    def from_list(cls, values: Sequence[str | None]) -> StrColumn:
        """A column holding ``values`` in one buffer."""
        n = len(values)
        none = np.fromiter((v is None for v in values), dtype=bool, count=n)
        encoded = [(v or "").encode("utf-8") for v in values]
        off = np.zeros(n + 1, dtype=np.int64)
        if n:
            np.cumsum(np.fromiter(map(len, encoded), dtype=np.int64, count=n), out=off[1:])
        return cls(b"".join(encoded), off, none if none.any() else None)

    def __len__(self) -> int:
        return self.n_base + len(self.extra)

    def __getitem__(self, row: int) -> str | None:
        if row >= self.n_base:
            return self.extra[row - self.n_base]
        if self._none_view is not None and self._none_view[row]:
            return None
        b = self.base
        off = self._off_view
        return self.raw[b + off[row] : b + off[row + 1]].decode("utf-8")

    def values(self, rows: Sequence[int] | np.ndarray | None = None) -> list[str | None]:
        """The strings of ``rows`` (all rows when ``None``)."""
        if rows is None:
            rows = range(len(self))
        get = self.__getitem__
        return [get(int(r)) for r in rows]

    def rows_containing(self, needle: str) -> np.ndarray:
        """Rows whose string contains ``needle`` (ascending, int64): one search of the buffer per occurrence,
        not a read per row; rows appended since the column was built are checked one by one."""
        pattern = needle.encode("utf-8")
        size = int(self.off[-1]) if self.n_base else 0
        found: list[int] = []
        if size and pattern:
            data: Any = self.raw
            lo, hi = self.base, self.base + size
            at = data.find(pattern, lo, hi)
            while at >= 0:
                found.append(at - lo)
                at = data.find(pattern, at + 1, hi)
        rows = np.unique(np.searchsorted(self.off, np.asarray(found, dtype=np.int64), side="right") - 1)
        later = [self.n_base + i for i, s in enumerate(self.extra) if s and needle in s]
        if later:
            rows = np.concatenate((rows, np.asarray(later, dtype=np.int64)))
        return rows.astype(np.int64, copy=False)

    def starts_with_word(self, rows: np.ndarray, word: str) -> np.ndarray:
        """Per row of ``rows``, whether its string starts with ``word`` as a whole word (the next character, if
        any, is no letter, digit or underscore: "User's" and "User lives" do, "Users" does not), by
        :func:`text_starts_with_word` on each row's first few bytes: no row is decoded whole."""
        # The word and the whole character after it: a UTF-8 character is at most 4 bytes.
        head = len(word.encode("utf-8")) + 4
        raw, b, off, n_base = self.raw, self.base, self._off_view, self.n_base
        found: list[bool] = []
        for row in np.asarray(rows).tolist():
            if row >= n_base:
                text = self.extra[row - n_base] or ""
            else:
                lo = b + off[row]
                text = raw[lo : min(b + off[row + 1], lo + head)].decode("utf-8", "ignore")
            found.append(text_starts_with_word(text, word))
        return np.array(found, dtype=bool)

    def take(self, rows: np.ndarray) -> StrColumn:
        """A new column of ``rows`` (in that order), in one buffer."""
        rows = np.asarray(rows, dtype=np.int64)
        if rows.shape[0] == 0:
            return StrColumn.from_list([])
        if int(rows.max()) >= self.n_base:
            return StrColumn.from_list(self.values(rows))
        lo = self.off[rows]
        hi = self.off[rows + 1]
        off = np.zeros(rows.shape[0] + 1, dtype=np.int64)
        np.cumsum(hi - lo, out=off[1:])
        view = memoryview(self.raw)
        b = self.base
        data = b"".join([view[b + s : b + e] for s, e in zip(lo.tolist(), hi.tolist())])
        none = self.none[rows] if self.none is not None else None
        return StrColumn(data, off, none if none is not None and none.any() else None)

    def append(self, value: str | None) -> None:
        """Add one row at the end."""
        self.extra.append(value)
        self._extra_bytes += 57 + len(value or "")  # str object + list slot

    def buffer(self) -> np.ndarray:
        """The UTF-8 bytes of the rows in ``raw`` (not the appended ones), as a uint8 view."""
        return np.frombuffer(self.raw, dtype=np.uint8, count=int(self.off[-1]), offset=self.base)

    def compacted(self) -> StrColumn:
        """This column with every row in one buffer (itself when nothing was appended)."""
        return self if not self.extra else StrColumn.from_list(self.values())

    def nbytes(self) -> int:
        """Bytes held: the buffer, the offsets and mask, and the appended strings."""
        held = int(self.off[-1]) + self.off.nbytes + (self.none.nbytes if self.none is not None else 0)
        return held + self._extra_bytes


def text_starts_with_word(text: str, word: str) -> bool:
    """Whether ``text`` starts with ``word`` not followed by a letter, digit or underscore."""
    if not text.startswith(word):
        return False
    rest = text[len(word) : len(word) + 1]
    return not rest or not (rest.isalnum() or rest == "_")


def _view(a: np.ndarray) -> Any:
    """A memoryview of a 1-D array when its format allows one, else the array itself."""
    try:
        view = memoryview(a)
        view[0:0]  # noqa: B018 - formats memoryview cannot index raise here or below
        if len(view):
            view[0]  # noqa: B018
        return view
    except (TypeError, ValueError, NotImplementedError):
        return a
