"""The run or route the user works, one at a time: "I'm on the Thunder Bay run now" after "User drives long-haul for
Prairie Freight out of Winnipeg, mostly the Winnipeg to Calgary run." ends the Calgary run (:func:`changes_route`),
and the new fact keeps what still holds of the old one, the route in its place (:func:`with_route`); so does a
change of the kind of driving work ("switched to a regional route" after "drives long-haul": :func:`haul_of`).
"Prairie Freight moved me to the Thunder Bay run" is read as "I'm on the Thunder Bay run now" (:func:`as_route_moved`).
Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .leads import strip_lead
from .patterns import rx
from .shifts import one_at_a_time

__all__ = ["as_route_moved", "changes_route", "haul_of", "route_of", "with_route"]

# A route named by its places ("the Thunder Bay run", "the Winnipeg to Calgary run", "the Leeds-York route"); not
# "the school run" nor "the morning run" (no name: an errand, a jog).
_NAMED = r"(?-i:[A-Z])[\w'-]*(?:\s+(?:to\s+|-\s*)?(?-i:[A-Z])[\w'-]*){0,4}"
_ROUTE = re.compile(rf"\bthe\s+(?P<route>{_NAMED})\s+(?P<kind>run|route)\b")
# What no longer holds or only held once: "User used to do the Calgary run." says no route of now.
_ONCE = rx(r"\b(?:used\s+to|no\s+longer|anymore|any\s+more|no\s+more|today|tonight|tomorrow|this\s+week)\b")
# The new route alone: "User is on the Thunder Bay run.", "User is now on the Thunder Bay route."
_ON_ROUTE = re.compile(r"^User\s+is\s+(?:now\s+)?on\s+the\s+[^.]+?\s+(?:run|route)\s*\.?$")
# "Prairie Freight moved me to the Thunder Bay run starting next week, so no more Calgary": who moved the user
# (up to four words, or none), then the route; what follows (when, what it leaves) is the change's story.
_MOVED_ME = re.compile(
    r"^(?:(?:[\w'&-]+\s+){0,4}?)(?:moved|switched|put|transferred|shifted|reassigned)\s+me\s+(?:on)?to\s+"
    rf"the\s+(?P<route>{_NAMED})\s+(?P<kind>run|route)\b",
    re.IGNORECASE,
)


def route_of(fact: str) -> str | None:
    """The named run or route ``fact`` speaks of (casefolded, "thunder bay run"), or ``None``.

    >>> route_of("User drives long-haul for Prairie Freight, mostly the Winnipeg to Calgary run.")
    'winnipeg to calgary run'
    >>> route_of("User does the school run.") is None
    True
    """
    m = _ROUTE.search(fact)
    return None if m is None else f"{m.group('route')} {m.group('kind')}".casefold()


# The kind of driving work: "drives long-haul", "a regional route", "local runs" (not "drives to the local gym", not
# "a long-haul trucker's wife").
_KIND = r"long[- ]haul|short[- ]haul|regional|local|otr|over[- ]the[- ]road|cross[- ]country"
_HAUL = rx(
    rf"\b(?:drives?|driving|trucking|hauling)\s+(?P<driven>{_KIND})\b"
    rf"|\b(?P<kind>{_KIND})\s+(?:routes?|runs?|lanes?|driving|trucking|hauls?|loads|driver|trucker)\b(?!'s)"
)
_SAME_KIND = {"otr": "long haul", "over the road": "long haul", "cross country": "long haul"}


def haul_of(fact: str) -> str | None:
    """The kind of driving work ``fact`` tells ("long haul", "regional", "local"; OTR is long haul), or ``None``.

    >>> haul_of("User drives long-haul for a freight company."), haul_of("User drives to the local gym.")
    ('long haul', None)
    """
    m = _HAUL.search(fact)
    if m is None:
        return None
    kind = re.sub(r"[- ]+", " ", (m.group("driven") or m.group("kind")).lower())
    return _SAME_KIND.get(kind, kind)


def changes_route(new: str, old: str) -> bool:
    """Whether the new fact ``new`` tells the user's run or route now, another than the stored fact ``old`` names
    ("User is on the Thunder Bay run." after "User drives ... mostly the Winnipeg to Calgary run."), or another kind
    of driving work (:func:`haul_of`: "User switched to a regional route." after "User drives long-haul ..."): one
    at a time, so it ends the old one.

    >>> changes_route("User switched to a regional route.", "User drives long-haul for a freight company.")
    True
    """
    return any(one_at_a_time(new, old, value_of, _ONCE) for value_of in (route_of, haul_of))


def with_route(fact: str, ended: Sequence[str]) -> str:
    """``fact`` ("User is on the Thunder Bay run.", the new route alone) as the one ended fact that named a route,
    with the new route in its place: the job and the rest of what it told still hold. Any other fact as it is.

    >>> with_route("User is on the Thunder Bay run.", ["User drives for Prairie Freight, mostly the Calgary run."])
    'User drives for Prairie Freight, mostly the Thunder Bay run.'
    """
    new = _ROUTE.search(fact) if _ON_ROUTE.match(fact) else None
    olds = [text for text in ended if _ROUTE.search(text)]
    if new is None or len(olds) != 1:
        return fact
    return _ROUTE.sub(lambda _: new.group(0), olds[0], count=1)


def as_route_moved(clauses: Sequence[str]) -> list[str]:
    """``clauses`` with each that tells the user was moved to a named run or route ("Good news, Prairie Freight
    moved me to the Thunder Bay run starting next week, so no more Calgary") as "I'm on the <route> now"; any
    other clause as it is.

    >>> as_route_moved(["Prairie Freight moved me to the Thunder Bay run, so no more Calgary."])
    ["I'm on the Thunder Bay run now"]
    """
    out = []
    for clause in clauses:
        m = _MOVED_ME.match(strip_lead(clause).strip())
        out.append(clause if m is None else f"I'm on the {m.group('route')} {m.group('kind').lower()} now")
    return out
