"""Items of a profile typed without a verb, as the statements they stand for.

A list of who the user is often has no verb at all: "Semi-retired vet, live on 40 acres outside Mudgee", "Born and
raised in Birmingham, Alabama; eight years in the Army; these days I teach ...", "Single, no kids, PAYE.", "Role:
marine engineer with CalMac, based in Oban", "paramedic by day, ...". :func:`profile_statement` reads one such item
("I'm a semi-retired vet", "I grew up in Birmingham, Alabama", "I served eight years in the Army", "I have no kids",
"I have a PhD in chemistry from Heidelberg"); :mod:`.lists` asks it for the items of a list of the user's, where an
item is known to be theirs. A bare occupation ("doctor") is no item: "Doctor, lawyer, engineer" names jobs, not the
user's. Pure: patterns, English only.
"""

from __future__ import annotations

import re

from ..number_words import number_words
from ..slots import OCCUPATIONS
from .patterns import rx, words

__all__ = ["MYSELF_NAMED", "NOW_LEAD", "REASON_TAIL", "profile_statement", "titled_name"]


def _with_article(phrase: str) -> str:
    """``phrase`` after "a" or "an", as its first letter says ("a vet", "an engineer")."""
    return ("an " if phrase[:1].lower() in "aeiou" else "a ") + phrase


# Words that make an occupation someone else's or no one's ("my nurse", "the engineer", "no doctor").
_NOT_A_MODIFIER = "(?:" + words("my", "your", "his", "her", "their", "our", "the", "this", "that", "these", "those", "a",
                                "an", "no", "some", "any", "every", "to", "for", "and", "or", "with") + ")"
# "semi-retired vet", "consultant anaesthetist", "marine engineer with CalMac", "paramedic by day": an occupation with
# a word before it or a place after it.
_ROLE = rx(
    rf"^(?:currently\s+|now\s+)?(?P<role>(?:(?!{_NOT_A_MODIFIER}\b)[a-z][\w-]*\s+){{0,3}}?(?:{OCCUPATIONS}))"
    r"(?:\s+by\s+(?:day|trade|night|profession)|(?P<where>\s+(?:at|with|for|in)\s+\S.*))?$"
)
_RAISED = rx(r"^(?:born\s+and\s+(?:raised|bred)|raised|grew\s+up)\s+in\s+(?P<place>(?-i:[A-Z]).+)$")
_SERVED = rx(
    rf"^(?P<years>\d{{1,2}}|{number_words('twelve')}|fifteen|twenty)\s+years?\s+"
    r"in\s+the\s+(?P<force>army|navy|air\s+force|marines|raf|military|forces|national\s+guard|coast\s+guard)$"
)
_NONE_OF = rx(r"^no\s+(?P<what>kids|children|pets|car)$")
# "PhD in chemistry (Heidelberg)", "MSc in data science from Leeds": a degree held.
_DEGREE = rx(
    r"^(?P<degree>phd|dphil|msc|ma|mba|bsc|ba|llb|md|master'?s|bachelor'?s)\s+in\s+(?P<field>[a-z][\w\s-]*?)"
    r"(?:\s*\((?P<school>(?-i:[A-Z])[^)]*)\)|\s+from\s+(?P<from>(?-i:[A-Z]).*))?$"
)
# "currently at Arup in Birmingham": where the user works, after "currently".
_CURRENTLY_AT = rx(r"^currently\s+(?:at|with)\s+(?P<org>(?-i:[A-Z]).*)$")
MYSELF_NAMED = rx(
    r"^(?:(?:hi|hello|hey)\W+)?myself\s+(?P<name>[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+){0,2})\s*,\s*")
"""A profile opened by "Myself <Name>," ("Myself Priya, from Pune, working as ...", Indian English): the user's name."""
NOW_LEAD = rx(r"^(?:these\s+days|nowadays|currently)\s*,?\s+(?=(?:i|i'm|i've|we|we're|my|our)\b)")
"""A word of now before an item of the user's ("these days I teach ..."), read as "now"."""
REASON_TAIL = rx(r"\s+(?:because|cos|coz|'cause)\s+.*$")
"""An item's reason ("training for the marathon because i lost a bet"), no part of the item."""
# "Dr. Ingrid Solberg": a name told with its title, first in a profile.
_TITLED = re.compile(r"^(?:Dr|Prof|Mr|Mrs|Ms|Miss|Mx)\.?\s+(?P<name>[A-Z][a-z'-]+(?:\s+[A-Z][\w'-]+){1,2})$")


def profile_statement(item: str) -> str | None:
    """``item``, one item of a list of the user's, as the statement it stands for; ``None`` when it is none of
    the shapes above.

    >>> profile_statement("Semi-retired vet")
    "I'm a semi-retired vet"
    >>> profile_statement("eight years in the Army")
    'I served eight years in the Army'
    >>> profile_statement("doctor") is None
    True
    """
    text = item.strip()
    m = _RAISED.match(text)
    if m is not None:
        return f"I grew up in {m.group('place')}"
    m = _SERVED.match(text)
    if m is not None:
        return f"I served {m.group('years')} years in the {m.group('force')}"
    m = _NONE_OF.match(text)
    if m is not None:
        what = m.group("what").lower()
        return "I don't have a car" if what == "car" else f"I have no {what}"
    m = _DEGREE.match(text)
    if m is not None:
        school = m.group("school") or m.group("from")
        return f"I have a {m.group('degree')} in {m.group('field')}" + (f" from {school}" if school else "")
    m = _CURRENTLY_AT.match(text)
    if m is not None:
        return f"I work at {m.group('org')}"
    m = _ROLE.match(text)
    if m is not None and (" " in m.group("role").strip() or m.group(0) != m.group("role")):
        role = m.group("role")
        role = role[:1].lower() + role[1:] if not role[:2].isupper() else role  # "Semi-retired vet", not "CTO"
        return f"I'm {_with_article(role)}{m.group('where') or ''}"
    return None


def titled_name(item: str) -> str | None:
    """The name of a profile's first item told with its title ("Dr. Ingrid Solberg" -> "Ingrid Solberg")."""
    m = _TITLED.match(item.strip())
    return m.group("name") if m is not None else None
