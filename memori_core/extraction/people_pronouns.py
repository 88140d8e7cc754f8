""""them" for the user's people named earlier in the same message, said by who they are.

"my two girls Kayla and Brooke are 16 and 14, I have them every other weekend": "them" is the girls, so the second
clause is "I have my two girls Kayla and Brooke every other weekend" (:func:`as_people_named`), not "User has them
every other weekend.", which a later conversation cannot read. Only a group of the user's people (children, parents,
grandchildren) named before, and only after a verb of having them, seeing them or looking after them. Pure: patterns,
English only.
"""

from __future__ import annotations

from collections.abc import Sequence

from .patterns import rx

__all__ = ["as_people_named"]

_NAME = r"(?-i:[A-Z])[a-z\u00e0-\u00ff]+"
# "my two girls Kayla and Brooke", "our kids", "my parents": a group of the user's people.
_GROUP = rx(
    r"\b(?:my|our)\s+(?:(?:two|three|four|five|\d)\s+)?(?:(?:little|teenage|young|grown-up|older|younger)\s+)?"
    r"(?:girls|boys|kids|children|daughters|sons|twins|parents|grandkids|grandchildren|grandsons|granddaughters|"
    rf"nieces|nephews|stepkids|stepchildren)\b(?:,?\s+{_NAME}(?:\s*(?:,|and|&)\s*{_NAME})+)?"
)
# "I have them every other weekend", "we see them on Sundays", "I look after them after school".
_THEM = rx(
    r"^(?P<verb>(?:i|we)\s+(?:(?:only|usually|still|also|just|now)\s+)?(?:have|get|see|visit|take|pick\s+up|collect|"
    r"look\s+after|babysit|mind|had|got|'ve\s+got|have\s+got))\s+them\b"
)


def as_people_named(clauses: Sequence[str]) -> list[str]:
    """``clauses`` (one message, split) with "them" after a verb of having or seeing people said as the group of the
    user's people a clause before named ("I have them every other weekend" after "my two girls Kayla and Brooke are
    16 and 14" -> "I have my two girls Kayla and Brooke every other weekend"); any other clause as it is.

    >>> as_people_named(["my two girls Kayla and Brooke are 16 and 14", "I have them every other weekend"])[1]
    'I have my two girls Kayla and Brooke every other weekend'
    >>> as_people_named(["I bought new plants", "I water them every day"])[1]
    'I water them every day'
    """
    out: list[str] = []
    for clause in clauses:
        them = _THEM.match(clause.strip())
        groups = [m.group(0) for said in out for m in _GROUP.finditer(said)]
        if them is not None and groups:
            said = clause.strip()
            out.append(f"{said[:them.end('verb')]} {groups[-1]}{said[them.end():]}")
        else:
            out.append(clause)
    return out
