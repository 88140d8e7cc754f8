"""A birth told of someone the stored facts say is expecting: the news that ends that pregnancy.

"Claire's baby arrived early, a little girl called Rosie!", "Claire had her baby", "Claire gave birth to a boy",
after "User's daughter Claire is expecting her second baby in February.": read as "My daughter Claire had her baby,
..." (:func:`birth_of_someone_named`), and a birth of someone ends their stored pregnancy (:func:`ends_pregnancy`).
Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..slots import NAME, PERSON
from .leads import strip_lead
from .patterns import rx

__all__ = ["birth_of_someone_named", "ends_pregnancy"]

# "Claire's baby arrived early", "Claire's baby is here", "Claire had her baby", "Claire has had the baby", "Claire
# gave birth to a little girl": a birth told of someone by name; the child it names ("a little girl", "a boy called
# Sam") and what follows a comma ("a little girl called Rosie") are kept.
_CHILD = (rf"(?:a|an)\s+(?:(?:little|baby|healthy|beautiful|gorgeous|tiny)\s+)?(?:boy|girl|son|daughter)"
          rf"(?:\s+(?:called|named)\s+{NAME})?")
_BIRTH_NAMED = rx(
    rf"^(?P<name>{NAME})(?:'s\s+(?:baby|little\s+one|(?P<kind>(?:baby\s+)?(?:boy|girl)))\s+(?:(?:has\s+)?arrived|"
    r"was\s+born|is\s+(?:here|born)|came)|(?:'s|\s+has)?\s+(?:just\s+|finally\s+)?(?:had|given\s+birth|gave\s+birth)"
    rf"(?:\s+(?:to\s+)?(?:(?P<child>{_CHILD})|(?:the|her|their)\s+(?:baby|boy|girl|son|daughter)|a\s+baby))?"
    r"(?=\s*(?:[,.!]|$|early|late|on|last|this|yesterday|today)))"
    r"[^,]*?(?P<rest>,\s*.+?)?\s*[.!]*$"
)
# A stored fact of someone of the user's by role and name: "User's daughter Claire is expecting ..." -> role, name.
_EXPECTING = re.compile(
    rf"^User's\s+(?P<who>(?:[\w-]+\s+){{0,2}}?(?:{PERSON})(?:-in-law)?\s+(?P<name>{NAME}))\s+(?:is|'s)\s+"
    r"(?:(?:now|still|also)\s+)?(?:expecting|pregnant|due)\b",
    re.IGNORECASE,
)
# A birth of someone of the user's, as the rules store it: "User's daughter Claire had her baby, ...".
_BORN_TO = re.compile(
    rf"^User's\s+(?P<who>(?:[\w-]+\s+){{0,2}}?(?:{PERSON})(?:-in-law)?(?:\s+{NAME})?)\s+(?:has\s+)?(?:just\s+)?"
    r"(?:had\s+(?:her|their|the|a)\s+(?:[\w-]+\s+)?(?:baby|boy|girl|son|daughter)|gave\s+birth|has\s+given\s+birth)\b",
    re.IGNORECASE,
)


def birth_of_someone_named(clause: str, known: Sequence[str]) -> str | None:
    """``clause`` ("Claire's baby arrived early, a little girl called Rosie!") told while a stored fact says the one
    it names is expecting ("User's daughter Claire is expecting her second baby in February.") as the user's own
    statement ("My daughter Claire had her baby, a little girl called Rosie"); ``None`` otherwise (no one of that
    name stored as expecting).

    >>> birth_of_someone_named("Claire had her baby!", ["User's daughter Claire is pregnant."])
    'My daughter Claire had her baby'
    """
    m = _BIRTH_NAMED.match(strip_lead(clause).strip())
    if m is None:
        return None
    who = next((e.group("who") for text in known for e in [_EXPECTING.match(text)]
                if e is not None and e.group("name") == m.group("name")), None)
    if who is None:
        return None
    child = m.group("child") or (f"a {m.group('kind')}" if m.group("kind") else None)
    return f"My {who} had her baby{f', {child}' if child else ''}{(m.group('rest') or '').rstrip(' .!')}"


def ends_pregnancy(fact: str, stored: str) -> bool:
    """Whether ``fact``, a birth of someone of the user's ("User's daughter Claire had her baby, ..."), ends
    ``stored``, the pregnancy of the same one ("User's daughter Claire is expecting her second baby in February.").

    >>> ends_pregnancy("User's daughter Claire had her baby.", "User's daughter Claire is pregnant.")
    True
    """
    born, expecting = _BORN_TO.match(fact), _EXPECTING.match(stored)
    return born is not None and expecting is not None and born.group("who").casefold() in (
        expecting.group("who").casefold(), expecting.group("who").rsplit(" ", 1)[0].casefold())
