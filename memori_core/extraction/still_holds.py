"""What of a stored fact a change ends still holds: kept as a fact of its own, so a supersede drops only the part
that changed.

- A move ends a fact that holds the city the user left as where they work or who they are ("User is an architect
  in Helsinki." after "User has moved into their flat in Tampere.": :func:`left_the_place`); the rest of it holds
  ("User is an architect."). The old fact stays as history, superseded.
- A move ends a home told with whom the user lives ("User lives in Toronto with their two sons, Yusuf and Adam.",
  "User's wife Priya and their daughter Anika live with them in London.": :func:`moved_from_the_household`); whom
  they live with holds ("User lives with their two sons, Yusuf and Adam.").
- A change of the kind of driving work ("User switched to a regional route.") keeps whom the user drives for
  ("User drives for a freight company out of San Antonio.").
- A reason told with a relative ("... for their husband Kwame's new job.") keeps the relative's part ("User's
  husband Kwame has a new job.").
- A switch away from a device or medicine ends a fact that holds it beside another part of the user's ("User has
  type 1 diabetes and uses an insulin pump." after "User switched from an insulin pump to injections.":
  :func:`part_still_held`); the other part holds ("User has type 1 diabetes.").
- A break-up ends a home told with the partner ("User lives in Lyon with their boyfriend Karim."); where the user
  lives holds until they tell a move ("User lives in Lyon.").

:func:`with_role_named` gives a new fact the role an ended fact gave the person it names ("User and Marisol are
getting back together." after "User and their wife Marisol separated ..."). Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..slots import holder, slot_keys
from .cues import is_negated
from .endings import ends_habit
from .relationships import ENDED_STAGES, relationship_stage
from .patterns import PARTNER_WORD, rx
from .routes import changes_route, haul_of

__all__ = ["left_the_place", "lives_with_household", "moved_from_the_household", "part_still_held", "still_holds", "with_role_named"]

_CITY = r"(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?"
# Where the user lives now, told as a present state ("User lives in Leicester.", "User has moved into their flat in
# Tampere."), not a plan ("User is moving to Tampere in November.").
_NOW_LIVES = rx(
    r"^User\s+(?:now\s+)?(?:lives|is\s+living|is\s+based|(?:has\s+)?(?:just\s+|finally\s+)?moved)\b"
    rf"[^.]*?\b(?:in|to)\s+(?P<place>{_CITY})\s*(?:now\s*)?\.?$"
)
# Who the user is, placed in a city: "User is an architect in Helsinki.", "User is Ama, a pharmacist in Birmingham,
# originally from Kumasi." (not "User is in Rome this week.", "User is on a trip in Rome.").
_PLACED = re.compile(
    rf"^User\s+is\s+(?P<who>(?:[A-Z][\w'-]+,\s+)?an?\s+[\w'-]+(?:\s+[\w'-]+){{0,3}}?)\s+in\s+(?P<place>{_CITY})"
    r"(?P<rest>\s*(?:,[^.]*)?\.?)$"
)
_PASSING = rx(r"\b(?:trip|holiday|vacation|visit\w*|conference|staying|visitor|tourist|guest)\b")


def _placed(old: str) -> re.Match[str] | None:
    m = _PLACED.match(old.strip())
    return None if m is None or _PASSING.search(m.group("who")) or is_negated(old) else m


# A home told with whom the user lives: "User lives in Toronto with their two sons, Yusuf and Adam.", "User lives
# with Rui in Porto.", "User's wife Priya and their daughter Anika live with them in London."
_HOME_WITH = rx(
    rf"^(?P<who>User\s+lives|User's\s+[^.]+?\s+lives?)\s+"
    rf"(?:in\s+(?P<place>{_CITY})\s*,?\s+(?P<with>with\s+[^.]+?)|(?P<with_first>with\s+[^.]+?)\s+in\s+(?P<place2>{_CITY}))"
    r"\s*\.?$"
)


def _home_with(old: str) -> re.Match[str] | None:
    m = _HOME_WITH.match(old.strip())
    if m is None or is_negated(old) or not (m.group("who") == "User lives" or _WITH_USER.match(m.group("with")
                                                                                            or m.group("with_first"))):
        return None
    return m


# "with them", "with the user": a relative's home that is the user's
_WITH_USER = rx(r"^with\s+(?:them|the\s+user)\b")


def moved_from_the_household(new: str, old: str) -> bool:
    """Whether ``new`` tells the user lives in another city now than the one ``old``, a home of the user's told with
    whom they live there, names ("User's wife Priya and their daughter Anika live with them in London." after
    "User lives in Bristol."): the city no longer holds, whom the user lives with does (:func:`still_holds`).

    >>> moved_from_the_household("User lives in Bristol.",
    ...                          "User's wife Priya and their daughter Anika live with them in London.")
    True
    >>> moved_from_the_household("User lives in London.", "User's wife Priya lives with them in London.")
    False
    """
    now, before = _NOW_LIVES.match(new.strip()), _home_with(old)
    if now is None or before is None or is_negated(new) or holder(new) != "user":
        return False
    return now.group("place").casefold() != (before.group("place") or before.group("place2")).casefold()


def left_the_place(new: str, old: str) -> bool:
    """Whether ``new`` tells the user lives in another city now than the one ``old`` places who they are in.

    >>> left_the_place("User has moved into their flat in Tampere.", "User is an architect in Helsinki.")
    True
    >>> left_the_place("User lives in Helsinki.", "User is an architect in Helsinki.")
    False
    """
    now, before = _NOW_LIVES.match(new.strip()), _placed(old)
    if now is None or before is None or is_negated(new):
        return False
    if now.group("place").casefold() == before.group("place").casefold():
        return False
    return holder(new) == holder(old) == "user"


# "User drives long-haul for ...": the kind of driving; ", mostly Texas to Chicago runs": the runs of that kind.
_HAUL_WORD = rx(r"\s+(?:long[- ]haul|short[- ]haul|regional|local|otr|over[- ]the[- ]road|cross[- ]country)\b")
_RUNS = rx(r",\s*(?:mostly|usually|often|mainly|doing)\s+[^,.]*?\b(?:runs?|routes?|lanes?|loads)\b")
_DRIVES_FOR = rx(r"^User\s+drives\s+(?:for|out\s+of)\s+\S")
_NAMES_WHOM = re.compile(r"\b(?:for|at|with)\s+(?:a\s+|the\s+)?[A-Z]")
# "... for their husband Kwame's new job": a reason that tells of a relative.
_FOR_RELATIVE = re.compile(
    r"\bfor\s+(?:their|the\s+user's)\s+(?P<role>wife|husband|partner|spouse|mum|mom|mother|dad|father|son|daughter|"
    r"brother|sister)\s+(?P<name>[A-Z][\w'-]+)'s\s+(?P<what>new\s+job|job|new\s+role|studies|work|new\s+post)\b"
)


# "User has type 1 diabetes and uses an insulin pump.": what the user has or is, then a device or medicine they use.
_TWO_PARTS = re.compile(
    r"^User\s+(?P<first>(?:has|is)\s+[^,;]+?)\s+and\s+(?P<second>(?:uses|takes|wears|is\s+on)\s+[^,;]+?)\s*\.?$"
)
# The same told in the first person, as a model's write may store it: "I have type 2 diabetes and take metformin
# twice a day." (read as "User has type 2 diabetes and takes metformin twice a day.").
_FIRST_PERSON = (
    (re.compile(r"^I\s+(?:have|'ve\s+got)\b"), "User has"), (re.compile(r"^I\s+am\b|^I'm\b"), "User is"),
    (re.compile(r"\band\s+(use|take|wear)\b"), r"and \1s"), (re.compile(r"\band\s+am\s+on\b"), "and is on"),
)


def _third_person(old: str) -> str:
    """``old`` with a first-person opening ("I have ... and take ...") told of "User", as capture writes it."""
    if not re.match(r"^I(?:\s|')", old):
        return old
    for pattern, said in _FIRST_PERSON:
        old = pattern.sub(said, old, count=1)
    return old


def part_still_held(new: str, old: str) -> str | None:
    """The first part of ``old`` ("User has type 1 diabetes.") when ``old`` joins it to a device or medicine the user
    uses ("... and uses an insulin pump.") and ``new`` ends that use alone ("User switched from an insulin pump to
    injections.": :func:`~.endings.ends_habit`); ``None`` otherwise.

    >>> part_still_held("User switched from an insulin pump to injections.",
    ...                 "User has type 1 diabetes and uses an insulin pump.")
    'User has type 1 diabetes.'
    >>> part_still_held("User switched from an insulin pump to injections.", "User has type 1 diabetes.") is None
    True
    """
    m = _TWO_PARTS.match(_third_person(old.strip()))
    if m is None:
        return None
    first, second = f"User {m.group('first')}.", f"User {m.group('second')}."
    return first if ends_habit(new, second) and not ends_habit(new, first) else None


# The partner or children the user lives with, and not where: "User lives with their husband Rui.", "User lives
# with their two sons, Yusuf and Adam." (a move takes them along; roommates or parents it leaves behind).
_LIVES_WITH = rx(
    r"^user\s+(?:\w+\s+)?(?:lives|has\s+lived|is\s+living)\s+with\s+(?:their\s+)?(?:[\w-]+\s+){0,2}?"
    r"(?:wife|husband|partner|spouse|fianc[ée]e?|sons?|daughters?|kids?|children|child|baby|twins)\b"
    r"(?!.*\b(?:in|at|near)\s)"
)


def lives_with_household(fact: str) -> bool:
    """Whether ``fact`` tells the partner or children the user lives with and not where ("User lives with their two
    sons, Yusuf and Adam."): a move leaves it true."""
    return bool(_LIVES_WITH.match(fact))


def still_holds(new: str, old: str) -> list[str]:
    """What of ``old``, a stored fact ``new`` ends, still holds, as facts to keep (``[]`` when nothing does).

    >>> still_holds("User lives in Leicester.", "User is Ama, a pharmacist in Birmingham, originally from Kumasi.")
    ['User is Ama, a pharmacist, originally from Kumasi.']
    >>> still_holds("User lives in Leicester.", "User is moving to Leicester for their husband Kwame's new job.")
    ["User's husband Kwame has a new job."]
    """
    kept = []
    placed = _placed(old) if left_the_place(new, old) else None
    if placed is not None:
        kept.append(f"User is {placed.group('who')}{placed.group('rest').rstrip('.')}.")
    # not when the new fact names whom the user drives for now ("... local delivery for Red River Grocers")
    if haul_of(new) is not None and changes_route(new, old) and not _NAMES_WHOM.search(new):
        rest = _RUNS.sub("", _HAUL_WORD.sub("", old, count=1))
        if _DRIVES_FOR.match(rest):
            kept.append(rest)
    if moved_from_the_household(new, old):  # "User lives in Ottawa." keeps "User lives with their two sons, ..."
        m = _home_with(old)
        assert m is not None
        kept.append(f"{m.group('who')} {(m.group('with') or m.group('with_first')).rstrip(' ,')}.")
    home = _home_without_partner(old) if relationship_stage(new) in ENDED_STAGES else None
    if home is not None:
        kept.append(home)
    part = part_still_held(new, old)
    if part is not None:
        kept.append(part)
    relative = _FOR_RELATIVE.search(old)
    if relative is not None and relative.group("name") not in new and holder(old) == "user":
        kept.append(f"User's {relative.group('role')} {relative.group('name')} has {_article(relative.group('what'))}.")
    # Never a part the same statement tells anew: "Ana and I separated; I moved to Evanston." keeps no home of the
    # ended "User lives in Chicago with their wife Ana." (whom the user lives with, which a move leaves, stays).
    told = slot_keys(new)
    return [k for k in kept if not slot_keys(k) & told or lives_with_household(k)]


# "with their boyfriend Karim", "with Karim": the partner a home is told with.
_WITH_PARTNER = re.compile(rf"\s*,?\s*with\s+(?:their\s+{PARTNER_WORD}(?:\s+[A-Z][\w'-]+)?|[A-Z][\w'-]+)(?=[\s.,]|$)")
# "User and their partner Sam live in Leeds.", "User lives with their boyfriend Kofi in Peckham."
_SHARED_HOME = re.compile(
    rf"^User\s+(?:and\s+(?:their\s+{PARTNER_WORD}(?:\s+[A-Z][\w'-]+)?|[A-Z][\w'-]+)\s+live|lives)\b(?P<rest>.+)$"
)


def _home_without_partner(old: str) -> str | None:
    """Where the user lives, of a stored home told with the partner ("User lives in Lyon with their boyfriend
    Karim." -> "User lives in Lyon."); ``None`` when ``old`` is no such home or says no place."""
    m = _SHARED_HOME.match(old.strip())
    if m is None or is_negated(old):
        return None
    together = not m.group(0).startswith("User lives")
    rest, n = _WITH_PARTNER.subn("", m.group("rest"), count=1)
    if not (together or n) or not re.match(r"\s+(?:in|on|at|near|outside)\s+\S", rest):
        return None
    return f"User lives{rest.rstrip(' .!')}."


def _article(what: str) -> str:
    return what if what in ("work", "studies") else f"a {what}"


# The roles a change of the two's story leaves: a spouse while separated, a relative (not "girlfriend" once engaged).
_LASTING_ROLE = r"wife|husband|spouse|mum|mom|mother|dad|father|son|daughter|brother|sister"
_ROLE_NAMED = re.compile(rf"\btheir\s+(?P<role>{_LASTING_ROLE})\s+(?P<name>[A-Z][\w'-]+)\b")
# A new fact that ends or changes the role itself: "User and Marisol got divorced.", "... split up".
_ROLE_ENDS = rx(r"\b(?:divorc\w*|split|broke\s+up|separat\w*|engaged|married|widow\w*|died|passed)\b")


def with_role_named(fact: str, ended: Sequence[str]) -> str:
    """``fact`` with the role the ended facts give a person it names bare ("User and Marisol are getting back
    together." -> "User and their wife Marisol are getting back together."); any other fact as it is.

    >>> with_role_named("User and Marisol are getting back together.", ["User and their wife Marisol separated."])
    'User and their wife Marisol are getting back together.'
    """
    m = re.match(r"^User\s+and\s+(?P<name>[A-Z][\w'-]+)\b", fact)
    if m is None or _ROLE_ENDS.search(fact):
        return fact
    roles = {r.group("role") for text in ended if holder(text) == "user" for r in _ROLE_NAMED.finditer(text)
             if r.group("name") == m.group("name")}
    if len(roles) != 1:
        return fact
    return f"User and their {roles.pop()} {m.group('name')}{fact[m.end():]}"
