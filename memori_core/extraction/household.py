"""Who lives with the user, told as "the kids" or "the dog" doing something: "the kids are taking it hard", "the dog
won't come out of the laundry", "the twins are teething".

A user speaks of their own household with "the": a clause opening with "the kids", "the children", "the twins", "the
baby", "the dog", "the cat" (a puppy, a kitten) and a verb says the user has them, a fact no first-person verb states.
:func:`as_household_told` puts "I have kids" / "I have a dog" before such a clause, which the rules then judge as
before. Not someone else's ("the kids next door", "the dog at the shelter": a word after the noun that is no verb),
not a question about them ("are the kids ok?"), not a hypothetical ("if the dog ...", "when the baby comes"), nor
in a message of a class, a school or a shelter ("the kids in my class", "the kids were wild today" of a teacher).
Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .leads import strip_lead
from .patterns import rx

__all__ = ["as_household_told"]

# The household member, as the user says it and as the fact says it had.
_HAD = {"kids": "kids", "children": "children", "twins": "twins", "baby": "a baby", "dog": "a dog", "cat": "a cat",
        "puppy": "a puppy", "kitten": "a kitten"}
_MEMBER = rx(
    r"(?:^(?:(?:ever\s+)?since|now\s+that)\s+|^|,\s*|\s(?:and|but|so|now|plus|also|meanwhile)\s+)the\s+(?P<who>kids|children|twins|baby|dog|cat|puppy|kitten)"
    r"(?:'s\s+|\s+(?:(?:still|just|already|finally|both|all|never|always|won't|can't|don't|didn't|keep|keeps|kept|"
    r"have|has|had|are|is|were|was|love|loves|loved|hate|hates|hated|wore|named|brought|got|think|thinks|want|wants)"
    r"\b|[a-z]+ed\b))"
)
# A message about children or animals not the user's own: a class, a school, a shelter, someone else's, the other
# person's ("sounds like you and the kids had a blast").
# "the kitten called Pickle": the member's name, had with it.
_NAMED = re.compile(r"\s+(?:called|named)\s+(?P<name>[A-Z][\w'-]+)")
_NOT_OWN = rx(
    r"\b(?:my\s+(?:class|classroom|pupils|students|group|team|ward)|in\s+my\s+care|i\s+teach|i\s+coach|nursery\s+"
    r"staff|shelter|rescue\s+centre|next\s+door|neighbou?rs?'?s?|babysit\w*|nanny|foster\w*|(?:his|her|their)\s+"
    r"(?:kids|children|dog|cat|baby)|my\s+(?:sister|brother|friend|cousin|neighbou?r|daughter|son)'s|"
    r"you\s+and\s+the|your\s+(?:kids|children|dog|cat|baby|family|twins))\b"
)
_NOT_STATED = rx(r"^(?:if|when|whenever|once|unless|until|are|is|do|does|did|will|would|can|could|should)\b")


def as_household_told(clauses: Sequence[str]) -> list[str]:
    """``clauses`` (one user message, split) with "I have kids" / "I have a dog" before the first clause that speaks
    of the user's household as "the kids ..." / "the dog ..." (see the module's doc), once a member.

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
        m = None if _NOT_STATED.match(text) or text.endswith("?") else _MEMBER.search(text)
        if m is not None and m.group("who").lower() not in told:
            told.add(m.group("who").lower())
            named = _NAMED.match(text, m.end("who"))
            out.append(f"I have {_HAD[m.group('who').lower()]}" + (f" called {named.group('name')}" if named else ""))
        out.append(clause)
    return out
