"""How the gate's word tables are written and read: a table row's words as one regular expression, and a table of
question words and phrases as a lookup that one pass over a question's words reads (:mod:`.concerns` and
:mod:`.everyday` build theirs with these, so an entry means the same in both). Pure: no I/O."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = ["TOKEN", "PhraseTable", "alternation", "fold", "phrase_key", "phrase_table"]

TOKEN = re.compile(r"[\w&']+")
"""A word of a question or a table entry, as the lookups read it."""
_Y_PLURAL = re.compile(r"[^aeiou\s]y$")  # "ferry" -> "ferries", "party" -> "parties"; not "day", "toy"


def fold(text: str) -> str:
    """Lower case, a curly apostrophe straight, a hyphen a space: how table entries and questions are read."""
    return text.lower().replace("\u2019", "'").replace("-", " ")


def phrase_key(text: str) -> str:
    """``text``'s words folded (:func:`fold`) and joined by single spaces: a key of :func:`phrase_table`."""
    return " ".join(TOKEN.findall(fold(text)))


def alternation(*words: str, hyphen_or_space: bool = False) -> str:
    """A regular expression matching any of ``words`` and phrases, longest first, each with its plural; a trailing
    ``*`` allows any ending; a space in a phrase matches any run of spaces or hyphens, and with
    ``hyphen_or_space`` so does a hyphen.

    >>> bool(re.search(alternation("tree nut", "egg*"), "tree-nuts and eggplant"))
    True
    """
    parts = []
    for w in sorted(words, key=len, reverse=True):
        body = re.escape(w.rstrip("*")).replace(r"\ ", r"[\s-]+")
        if hyphen_or_space:
            body = body.replace(r"\-", r"[\s-]+")
        parts.append(body + (r"\w*" if w.endswith("*") else "(?:s|es)?"))
    return r"\b(?:" + "|".join(parts) + r")\b"


def phrase_table(
    table: Mapping[str, Iterable[str]],
) -> tuple[dict[str, frozenset[str]], tuple[tuple[str, frozenset[str]], ...]]:
    """Every word or phrase of ``table``'s rows (with its plurals: ``s``, ``es``, ``y`` -> ``ies``) and every word
    prefix (an entry ending in ``*``: "anchov*"), each with the names of the rows that hold it; the prefixes sorted.

    >>> words, prefixes = phrase_table({"gluten": ["beer", "past*"], "alcohol": ["beer"]})
    >>> sorted(words["beers"]), prefixes
    (['alcohol', 'gluten'], (('past', frozenset({'gluten'})),))
    """
    words: dict[str, set[str]] = {}
    prefixes: dict[str, set[str]] = {}
    for name, items in table.items():
        for item in items:
            if item.endswith("*"):
                prefixes.setdefault(phrase_key(item[:-1]), set()).add(name)
                continue
            key = phrase_key(item)
            for form in (key, key + "s", key + "es", *((key[:-1] + "ies",) if _Y_PLURAL.search(key) else ())):
                words.setdefault(form, set()).add(name)
    return ({k: frozenset(v) for k, v in words.items()},
            tuple((k, frozenset(v)) for k, v in sorted(prefixes.items())))


@dataclass(frozen=True)
class PhraseTable:
    """A :func:`phrase_table` made ready for reading questions: its words and phrases, its prefixes, the longest
    phrase's length in words, the words phrases start with, and one pattern that finds any prefix."""

    words: Mapping[str, frozenset[str]]
    prefixes: tuple[tuple[str, frozenset[str]], ...]
    longest: int
    starts: frozenset[str]
    any_prefix: re.Pattern[str]

    @classmethod
    def of(cls, table: Mapping[str, Iterable[str]]) -> PhraseTable:
        """The table of ``table``'s rows (row name -> its words, phrases and ``*`` prefixes)."""
        words, prefixes = phrase_table(table)
        return cls(words, prefixes, max(len(k.split(" ")) for k in words),
                   frozenset(k.split(" ", 1)[0] for k in words if " " in k),
                   re.compile(r"\b(?:" + "|".join(re.escape(p) for p, _ in prefixes) + r")"))

    def rows_in(self, tokens: Sequence[str], folded: str) -> set[str]:
        """The names of the rows whose words, phrases or prefixes ``tokens`` (the words of ``folded``, a question
        read by :func:`fold`) hold, in one pass over the words.

        >>> table = PhraseTable.of({"gluten": ["beer", "soy sauce", "past*"]})
        >>> table.rows_in(["soy", "sauce"], "soy sauce"), table.rows_in(["pastries"], "pastries")
        ({'gluten'}, {'gluten'})
        """
        return set(self.opened_by(tokens, folded))

    def opened_by(self, tokens: Sequence[str], folded: str) -> dict[str, set[str]]:
        """:meth:`rows_in` with, for each row, the question's words and phrases that hold it.

        >>> table = PhraseTable.of({"gluten": ["beer", "soy sauce", "past*"]})
        >>> sorted(table.opened_by(["soy", "sauce", "pasta"], "soy sauce pasta")["gluten"])
        ['pasta', 'soy sauce']
        """
        found: dict[str, set[str]] = {}
        get = self.words.get

        def add(rows: frozenset[str], key: str) -> None:
            for row in rows:
                found.setdefault(row, set()).add(key)

        for i, token in enumerate(tokens):
            hit = get(token)
            if hit:
                add(hit, token)
            if token in self.starts:
                for n in range(2, min(self.longest, len(tokens) - i) + 1):
                    key = " ".join(tokens[i : i + n])
                    hit = get(key)
                    if hit:
                        add(hit, key)
        if self.prefixes and self.any_prefix.search(folded):
            for token in tokens:
                for prefix, rows in self.prefixes:
                    if token.startswith(prefix):
                        add(rows, token)
        return found
