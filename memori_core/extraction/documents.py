"""A document of the user's with an end date (a residence permit, a visa, a licence, a passport), one date at a time:
"My residence permit was renewed until 2028." ends "User's residence permit expires on October 30."
(:func:`renews_document`), and "Permit renewed until 2028!" is read as "My permit was renewed until 2028"
(:func:`as_document_renewed`). Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..slots import holder
from .patterns import rx

__all__ = ["as_document_renewed", "document_of", "renews_document"]

_KIND = r"(?P<kind>residen(?:ce|cy)|work|study|student|driving|driver's|travel|tourist|spousal|family)"
_HEAD = r"(?P<head>permit|visa|licen[cs]e|passport|id\s+card|green\s+card|residence\s+card)"
_DOCUMENT = rf"(?:{_KIND}\s+)?{_HEAD}"
# A document with its end date told: "expires on October 30", "runs out in May", "is valid until 2028",
# "was renewed until 2028", "got extended to 2027", "needs renewing by June".
_DATED = rx(
    rf"\b{_DOCUMENT}\s+(?:(?:was|is|has\s+been|got|just\s+got)\s+)?(?:just\s+)?(?P<how>expires?|expiring|runs?\s+out|"
    r"ran\s+out|valid\s+(?:until|till|to|through)|renewed|extended|needs?\s+renewing|needs?\s+to\s+be\s+renewed|"
    r"is\s+due)\b"
)
_RENEWED = rx(r"^(?:renewed|extended)$")
# "Permit renewed until 2028!", "visa got extended to March": the renewal typed without its "my".
_BARE_RENEWAL = rx(
    rf"^(?:my\s+)?(?P<document>{_DOCUMENT})\s+(?:got\s+|was\s+|has\s+been\s+|is\s+)?(?:finally\s+|just\s+)?"
    r"(?P<how>renewed|extended)\b(?P<rest>[^!?]*?)\s*[.!]*$"
)
_SAME_HEAD = {"license": "licence", "residency": "residence"}


def document_of(fact: str) -> tuple[str | None, str] | None:
    """The document ``fact`` tells an end date of, as its kind (``None`` when not said) and head noun
    (``("residence", "permit")``), or ``None``.

    >>> document_of("User's residence permit expires on October 30.")
    ('residence', 'permit')
    >>> document_of("User lost their permit.") is None
    True
    """
    m = _DATED.search(fact)
    return None if m is None else _named(m)


def _named(m: re.Match[str]) -> tuple[str | None, str]:
    """The kind and head noun of the document a :data:`_DATED` match tells of."""
    kind = m.group("kind")
    kind = None if kind is None else _SAME_HEAD.get(kind.lower(), kind.lower())
    head = " ".join(m.group("head").lower().split())
    return kind, _SAME_HEAD.get(head, head)


def renews_document(new: str, old: str) -> bool:
    """Whether the new fact ``new`` renews the document whose end date the stored fact ``old`` tells ("User's
    residence permit was renewed until 2028." after "User's residence permit expires on October 30."): the same
    document of the same person (a kind said by only one of them still matches: "permit" and "residence permit").

    >>> renews_document("User's permit was renewed until 2028.", "User's residence permit expires on October 30.")
    True
    >>> renews_document("User's work permit was renewed.", "User's residence permit expires on October 30.")
    False
    """
    m = _DATED.search(new)
    if m is None or not _RENEWED.match(m.group("how")):
        return False
    before = document_of(old)
    if before is None:
        return False
    (kind, head), (kind_before, head_before) = _named(m), before
    if head != head_before or (kind is not None and kind_before is not None and kind != kind_before):
        return False
    return holder(new) == holder(old)


def as_document_renewed(clauses: Sequence[str]) -> list[str]:
    """``clauses`` with each that tells a renewal typed without its "my" ("Permit renewed until 2028!") as the
    user's ("My permit was renewed until 2028"); any other clause as it is.

    >>> as_document_renewed(["Permit renewed until 2028!"])
    ['My permit was renewed until 2028']
    """
    out = []
    for clause in clauses:
        m = _BARE_RENEWAL.match(clause.strip())
        out.append(clause if m is None else
                   f"My {m.group('document').lower()} was {m.group('how').lower()}{m.group('rest').rstrip()}")
    return out
