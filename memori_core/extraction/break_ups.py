"""A break-up told with the partner as its subject, as the plain statement the rules read.

"sam broke up with me. over text" -> "Sam and I broke up"; "she dumped me" -> "We broke up"; "my boyfriend ended
things with me" -> "My boyfriend and I broke up"; the idiom "Hannah and I called it a day" -> "Hannah and I broke up". Told this way the user is the object, so no first-person rule
reads it, and the relationship stored stayed valid beside the next partner. Not "Sam left me a voicemail", "my
girlfriend left me alone for the weekend", nor a break-up of other people ("Sam broke up with Alex"). Pure:
patterns over one clause, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..ranking.care import is_care_fact
from ..slots import PARTNERS, holder
from .children import CHILD_WORDS
from .cues import content_words
from .grammar import is_past_statement
from .named import partner_of
from .patterns import CAPITAL_WORD, rx, words
from .relationships import is_relationship_status
from .slots import slots_of
from .trips import plan_places

__all__ = ["as_break_up", "broken_up_with", "outlasts_a_break_up"]

_PARTNER = rf"(?:my|our)\s+(?:ex-?)?(?:{words(*PARTNERS - {'ex'})})(?:\s+{CAPITAL_WORD})?"
_BROKE_UP = rx(
    rf"^(?P<who>{_PARTNER}|he|she|they|[a-z\u00c0-\u017f][\w\u00c0-\u017f'-]*)\s+"
    r"(?:(?:just|finally|officially|basically|literally)\s+)?"
    r"(?P<verb>broke\s+up\s+with|split\s+up\s+with|dumped|ditched|ended\s+(?:it|things)\s+with|left)\s+me\b"
    # "left me a voicemail", "dumped me with the bill", "left me alone": not a break-up
    r"(?!\s+(?:a|an|the|some|with|to|alone|behind|hanging|in|out|on\s+read)\b)"
    r"(?P<rest>[^?]*?)[.!\s]*$"
)
# "Hannah and I called it a day last weekend", "me and Dev called it quits on Sunday", "we called it quits": the
# idiom said of the user and a partner, with at most when; "called it a day at 5" or "... after the third hike" is
# the end of a day's work or walk, not of a relationship.
_CALLED_IT = rx(
    rf"^(?:(?P<who>{_PARTNER}|{CAPITAL_WORD})\s+and\s+i|(?:me|i)\s+and\s+(?P<who2>{_PARTNER}|"
    rf"{CAPITAL_WORD})|(?P<we>we))\s+(?:(?:just|finally|officially|have|'ve)\s+)*"
    r"called\s+it\s+(?:quits|a\s+day)"
    r"(?P<rest>(?:\s+(?:on\s+\w+|last\s+\w+|over\s+(?:the\s+)?\w+|yesterday|this\s+\w+|in\s+\w+|"
    r"after\s+\w+\s+(?:years?|months?)|(?:a|\w+)\s+(?:days?|weeks?|months?)\s+ago))?)[.!\s]*$"
)
# "left me" is a break-up only said alone or "for" someone else: "Sam left me", "he left me for his coworker".
_LEFT_ALONE = rx(r"^(?:\s*$|\s+for\b)")
# Not a partner however spelt: "it", "everything", "work", "life", "mum".
_NOT_SOMEONE = frozenset("""
    i you we it this that there here everything everyone everybody nobody someone somebody something life work job
    mum mom dad mother father sister brother boss friend he's she's they're
""".split())


def as_break_up(clause: str, known: Sequence[str] = ()) -> list[str] | None:
    """``clause`` (stripped of its lead) restated as the user's own break-up ("Sam and I broke up"), when it tells
    one with the partner as its subject; ``None`` otherwise. A name typed in lower case is a name only when a stored
    fact in ``known`` names it with its capital ("sam" after "User and Sam have been dating 6 months.").

    >>> as_break_up("sam broke up with me", ["User and Sam have been dating 6 months."])
    ['Sam and I broke up']
    >>> as_break_up("Sam left me a voicemail") is None
    True
    """
    called = _CALLED_IT.match(clause.strip())
    if called is not None:
        return _called_it(called, known)
    m = _BROKE_UP.match(clause.strip())
    if m is None:
        return None
    who, rest = m.group("who"), m.group("rest").rstrip(" ,")
    if m.group("verb").lower() == "left":
        if not _LEFT_ALONE.match(rest):
            return None
        rest = ""  # "for his coworker": whom for is no part of the break-up
    if who.lower() in ("he", "she", "they"):
        return [f"We broke up{rest}"]
    if re.match(r"(?:my|our)\s", who, re.IGNORECASE):
        return [f"My {who.split(None, 1)[1]} and I broke up{rest}"]
    if who.lower() in _NOT_SOMEONE:
        return None
    name = who[:1].upper() + who[1:]
    if who != name and not any(re.search(rf"\b{re.escape(name)}\b", text) for text in known):
        return None  # a lower-case word no stored fact names as someone
    partner = partner_of(known, "")
    if partner is not None and partner != name:
        return None  # "Sam broke up with me" while the stored partner is Jordan: not Jordan's ending
    return [f"{name} and I broke up{rest}"]


def _called_it(m: re.Match[str], known: Sequence[str]) -> list[str] | None:
    """ "Hannah and I called it a day last weekend" -> "Hannah and I broke up last weekend"; "we called it quits" only
    while a partner is stored (else a day's work may be what ended)."""
    rest = m.group("rest")
    if m.group("we"):
        return [f"We broke up{rest}"] if partner_of(known, "") is not None else None
    who = m.group("who") or m.group("who2")
    if re.match(r"(?:my|our)\s", who, re.IGNORECASE):
        return [f"My {who.split(None, 1)[1]} and I broke up{rest}"]
    partner = partner_of(known, "")
    if who.lower() in _NOT_SOMEONE or (partner is not None and partner != who):
        return None
    return [f"{who} and I broke up{rest}"]


# "User and Sam broke up.", "User broke up with Sam.", "User split up with Sam last week.", "User and Sam are
# separating.": the partner a break-up fact names.
_BROKEN_UP_WITH = re.compile(
    r"^User\s+(?:and\s+(?P<name>[A-Z][\w\u00c0-\u017f'-]*)\s+(?:have\s+|are\s+|got\s+)?"
    r"(?:broke(?:n)?\s+up|split(?:\s+up)?|separated|separating|divorced|divorcing|called\s+it\s+(?:quits|a\s+day))"
    r"|(?:is\s+)?(?:broke\s+up|split\s+up|separated|divorced)\s+(?:with|from)\s+(?P<name2>[A-Z][\w\u00c0-\u017f'-]*))\b"
)


def broken_up_with(fact: str) -> str | None:
    """The partner the break-up ``fact`` names ("User and Sam broke up." -> ``"Sam"``), ``None`` when it names none
    ("User broke up with their girlfriend.") or tells no break-up."""
    m = _BROKEN_UP_WITH.match(fact.strip())
    return None if m is None else m.group("name") or m.group("name2")


# A separation still under way: "User and Priya are separating.", "User is getting divorced."
_UNDER_WAY = rx(r"\b(?:separating|divorcing|getting\s+(?:a\s+)?divorced?|splitting\s+up|on\s+a\s+break)\b")


def outlasts_a_break_up(fact: str, ending: str = "") -> bool:
    """Whether the stored ``fact`` tells something of the user's own that only names the partner, and so still holds
    when the relationship ends: the user's children ("User and their wife Aisha have two sons, Karim and Yusuf."),
    what the two did in the past ("User and their boyfriend Tom went to Porto in May 2026.": history stays true).
    A break-up or a separation ends the relationship ("User is married to Aisha.", "User and Sam have been dating 6
    months."), what the user told of the partner ("User's boyfriend Tom is a chef."), what the fact tells of another
    slot with them ("User and their wife Ingrid live in a house in Uppsala with their two kids.") and a plan the
    partner is part of ("User and their boyfriend Tom are going to Lisbon in December 2026.", "User is planning a
    trip to Japan in February 2027 with their boyfriend Sam."): a couple's plan is unknown once the couple is not,
    and kept it showed the ex as the boyfriend, ranked first for "Do I have a boyfriend?" (tester j21, finding 1);
    it stays in the history, and a trip the user still takes is theirs to tell again. The partner's health ("User's
    wife Priya is allergic to penicillin.") still holds while the ``ending`` is a separation under way ("User and
    Priya are separating."): they still share a household; a break-up done ("Tom and I broke up") ends it as no
    longer the household's."""
    if _UNDER_WAY.search(ending) and holder(fact, "relationship") == "user" and holder(fact) != "user" \
            and is_care_fact(fact) and not is_relationship_status(fact):
        return True  # the partner's own health: "User's wife Priya is allergic to penicillin." still holds of Priya
    if holder(fact) != "user" or is_relationship_status(fact) or slots_of(fact) - {"relationship"}:
        return False  # a home shared with the partner ends with the relationship ("... live in Uppsala with ...")
    if content_words(fact) & CHILD_WORDS:
        return True
    # "User and their boyfriend Tom went ...": the verb after the two
    return is_past_statement(_TWO_AS_USER.sub("User", fact, count=1)) and not plan_places(fact)


_TWO_AS_USER = re.compile(r"^User\s+and\s+(?:their\s+[\w-]+\s+)?[A-Z][\w\u00c0-\u017f'-]*")
