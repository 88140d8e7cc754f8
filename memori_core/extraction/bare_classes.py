"""A class told without what it teaches, after the clause of the same message that names it, said with it.

"I started learning pottery, I go to a class every Tuesday": kept as typed, the second fact was "User goes to a
class every Tuesday.", which says nothing of pottery and was then recalled for any question about classes or a
Tuesday. Read with what the message is learning, it is "I go to a pottery class every Tuesday". Pure: patterns,
English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .patterns import rx

__all__ = ["as_classes_named"]

# What the user learns or took up: "learning pottery", "took up salsa", "started Spanish lessons"; the thing is one
# or two words, "the" left out ("learning the guitar": guitar), not "to ..." nor "how ...".
_LEARNS = rx(
    r"\b(?:learning|learn|learns|learnt|learned|studying|took\s+up|taken\s+up|taking\s+up|take\s+up|started|"
    r"starting|began|doing|getting\s+into|got\s+into)\s+(?:the\s+)?"
    r"(?P<what>(?!(?:to|how|a|an|my|our|it|this|that|again|back|up|out|more|some|at|in|on|with|from|for|"
    r"work|school|uni|college|today|yesterday|now|last|next|recently|lately|class|classes|lessons?|courses?)\b)"
    r"[a-z\u00c0-\u017f-]+)(?P<second>\s+(?-i:[A-Z])[a-z]+)?\s*[.!]*$"
)
# A class the user goes to, told with nothing that says what it teaches: "I go to a class every Tuesday", "we have
# lessons on Thursdays", "I take an evening class".
_GOES_TO = rx(
    r"^(?P<head>\s*(?:(?:so|and|now|also)\s+)?(?:i|we)\s+(?:go|went|have|attend|take|do)\s+(?:to\s+)?)"
    r"(?P<article>(?:a|an|the|my)\s+)?(?P<when>(?:weekly|evening|night|morning)\s+)?"
    r"(?P<kind>class|classes|lesson|lessons|course|workshop|workshops)\b(?!\s+(?:of|about|in)\b)"
)


def _learnt(clause: str) -> str | None:
    """What ``clause`` says the user learns or took up ("pottery" of "I started learning pottery"); ``None``."""
    m = _LEARNS.search(clause.strip())
    return None if m is None else m.group("what") + (m.group("second") or "")


def _named_class(m: re.Match[str], clause: str, what: str) -> str:
    """``clause`` ("I go to a class every Tuesday", matched by :data:`_GOES_TO` as ``m``) with its class called by
    ``what`` ("I go to a pottery class every Tuesday")."""
    called = f"{m.group('when') or ''}{what} {m.group('kind')}"
    article = m.group("article") or ""
    if article.strip().lower() in ("a", "an"):  # "a class" -> "an art class"
        article = "an " if called[:1].lower() in "aeiou" else "a "
    return f"{m.group('head')}{article}{called}{clause[m.end():]}"


def as_classes_named(clauses: Sequence[str]) -> list[str]:
    """The user's ``clauses`` (one message, split) with a class the user goes to, told without what it teaches, said
    with what a clause before it says the user learns; any other clause as it is.

    >>> as_classes_named(["I started learning pottery", "I go to a class every Tuesday"])
    ['I started learning pottery', 'I go to a pottery class every Tuesday']
    """
    out: list[str] = []
    what: str | None = None
    for clause in clauses:
        m = _GOES_TO.match(clause) if what is not None else None
        if m is not None and what is not None:
            clause, what = _named_class(m, clause, what), None
        else:
            what = _learnt(clause) or what
        out.append(clause)
    return out

