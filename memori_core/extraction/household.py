"""Who lives with the user, told as "the kids" doing something: "the kids are taking it hard", "the twins are
teething", "update: the children wore me down".

A user speaks of their own children with "the": a clause opening with "the kids", "the children" or "the twins" and a
verb says the user has them, a fact no first-person verb states. :func:`as_household_told` puts "I have kids" before
such a clause, which the rules then judge as before. Not someone else's ("the kids next door": a word after the noun
that is no verb), not a question about them ("are the kids ok?"), not a hypothetical ("if the kids ..."), not kids
staying with the user ("the kids are with me this weekend": the family rules read custody), nor in a message of a
class, a school or the other person's ("the kids in my class", "sounds like you and the kids had a blast"). A pet's
doing of the day ("the dog chewed my charger") stays an anecdote, and a baby's arrival is the birth rules' (.births).
Pure: patterns, English only.
"""

from __future__ import annotations

from collections.abc import Sequence

from .leads import strip_lead
from .patterns import rx

__all__ = ["as_household_told"]

# The children, as the user says them and as the fact says them had.
_HAD = {"kids": "kids", "children": "children", "twins": "twins"}
_MEMBER = rx(
    r"(?:^(?:(?:ever\s+)?since|now\s+that)\s+|^|,\s*|\s(?:and|but|so|now|plus|also|meanwhile)\s+)"
    r"the\s+(?P<who>kids|children|twins)"
    r"(?:'s\s+|\s+(?:(?:still|just|already|finally|both|all|never|always|won't|can't|don't|didn't|keep|keeps|kept|"
    r"have|has|had|are|is|were|was|love|loves|loved|hate|hates|hated|wore|named|brought|got|think|thinks|want|wants)"
    r"\b|[a-z]+ed\b))"
)
# A message about children or animals not the user's own: a class, a school, a shelter, someone else's, the other
# person's ("sounds like you and the kids had a blast").
_NOT_OWN = rx(
    r"\b(?:my\s+(?:class|classroom|pupils|students|group|team|ward)|in\s+my\s+care|i\s+teach|i\s+coach|nursery\s+"
    r"staff|shelter|rescue\s+centre|next\s+door|neighbou?rs?'?s?|babysit\w*|nanny|foster\w*|(?:his|her|their)\s+"
    r"(?:kids|children|dog|cat|baby)|my\s+(?:sister|brother|friend|cousin|neighbou?r|daughter|son)'s|"
    r"you\s+and\s+the|your\s+(?:kids|children|dog|cat|baby|family|twins))\b"
)
_NOT_STATED = rx(r"^(?:if|when|whenever|once|unless|until|are|is|do|does|did|will|would|can|could|should)\b")
_STAYING = rx(r"\b(?:are|were)\s+(?:with|staying\s+with)\s+(?:me|us)\b")


def as_household_told(clauses: Sequence[str]) -> list[str]:
    """``clauses`` (one user message, split) with "I have kids" before the first clause that speaks of the user's
    children as "the kids ..." (see the module's doc), once a word.

    >>> as_household_told(["the kids are taking it hard"])
    ['I have kids', 'the kids are taking it hard']
    >>> as_household_told(["the kids next door are loud"])
    ['the kids next door are loud']
    """
    if any(_NOT_OWN.search(clause) for clause in clauses):
        return list(clauses)
    out: list[str] = []
    told: set[str] = set()
    for clause in clauses:
        text = strip_lead(clause).strip()
        stated = not (_NOT_STATED.match(text) or _STAYING.search(text) or text.endswith("?"))
        m = _MEMBER.search(text) if stated else None
        if m is not None and m.group("who").lower() not in told:
            told.add(m.group("who").lower())
            out.append(f"I have {_HAD[m.group('who').lower()]}")
        out.append(clause)
    return out
