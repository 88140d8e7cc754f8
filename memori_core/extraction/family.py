"""What the user tells of their family the way people say it, read as the plain statements the rules read.

- A parent or grandparent named the British way, with no "my" ("Mum's settled in", "dad died last year", "Nan
  has dementia"), is the user's: "My mum has settled in", "my dad died last year", "My nan has dementia".
- "'s" after someone of the user's is "is" or "has" when a verb or a place follows ("my sister's coming to stay",
  "my dad's got Parkinson's", "my mum's in a care home"), not a possessive ("my sister's house").
- A parent moved into a care home ("We finally moved mum into a care home", "Mum's settled into Oakwood care
  home", "my dad is in a nursing home now") is that person's move: "My mum moved into a care home", which the
  rules keep as where they live now and which ends the home a stored fact gave them ("User's mum lives with
  them."), never the user's own.

Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..slots import PERSON
from .leads import strip_lead
from .patterns import rx, words

__all__ = ["CARE_HOME", "as_family_said"]

# A parent or grandparent as the user names them with no "my", and how "my ..." says it.
_BARE_KIN = {"mum": "mum", "mom": "mom", "mummy": "mum", "mommy": "mom", "mam": "mum", "dad": "dad",
             "daddy": "dad", "nan": "nan", "nana": "nan", "nanna": "nan", "gran": "gran", "granny": "gran",
             "grandma": "grandma", "grandad": "grandad", "granddad": "grandad", "grandpa": "grandpa"}
# "Mum's settled in", "dad died last year", "Mum and I ...": the bare word as the subject, a verb or "and I" after it
# (not "Mum, can you ...": a name called; not "Mum and Dad": two subjects the rules read as one).
_KIN_FIRST = rx(
    rf"^(?P<kin>{words(*_BARE_KIN)})(?P<rest>'s\s+\S.*|\s+and\s+(?:i|me)\b.*|\s+(?!and\b|or\b)(?-i:[a-z])[\w']*\b.*)$"
)
_MY_ONE = rf"(?:my|our)\s+(?:(?:older|younger|little|big|eldest|oldest|youngest|twin|best|late)\s+)?(?:{PERSON})"
# "'s" after someone of the user's: "has" before what has been done, "is" before a place, a state or a doing.
_HAS_NEXT = frozenset(
    "got been gone had done moved settled started finished left retired decided booked passed taken become broken "
    "bought sold lost found changed stopped given agreed".split()
)
_IS_NEXT = frozenset(
    "a an the in at on off away back over home with from out still now just also always never really so very not "
    "due pregnant coming going moving visiting staying flying driving heading arriving getting having doing living "
    "working starting retiring bringing hosting planning recovering struggling settling expecting dating seeing "
    "studying training travelling traveling".split()
)
# "my sister's leaving do", "my mum's coming-of-age": a possessive after all when a thing follows the verb-like word.
_THING_AFTER = rx(r"^\s+(?:do|party|drinks|card|present|gift|bash)\b")
_CONTRACTED = rx(rf"^(?P<who>{_MY_ONE})'s\s+(?P<next>[\w-]+)(?P<rest>.*)$")

CARE_HOME = (
    r"(?:(?:a|an|the)\s+)?(?:(?-i:[A-Z])[\w'-]+\s+){0,3}?(?:(?:care|nursing|residential|retirement|old\s+people's|"
    r"old\s+folks'?|dementia|respite)\s+home|care\s+(?:facility|centre|center)|hospice|assisted[\s-]living"
    r"(?:\s+(?:facility|flat|home|place))?|sheltered\s+(?:housing|accommodation|flat)|memory\s+care"
    r"(?:\s+(?:unit|facility|home))?)"
)
"""A regex of a home for care as a sentence names it ("a care home", "Oakwood care home", "a nursing home",
"sheltered housing", "assisted living")."""
# "We finally moved mum into a care home", "we had to put dad in a home": the user moving someone of theirs in ("a
# home" said of putting someone in one is a care home).
_MOVED_SOMEONE_IN = rx(
    r"^(?:we|i)(?:'ve|\s+have)?\s+(?:(?:finally|just|recently|eventually|now|had\s+to|have\s+had\s+to)\s+)*"
    rf"(?:moved|put|got|placed|settled|took)\s+(?P<who>{_MY_ONE}|{words(*_BARE_KIN)})\s+(?:in|into)\s+"
    rf"(?P<place>{CARE_HOME}|a\s+home\b)(?P<rest>.*)$"
)
# "My mum has settled into Oakwood care home", "my dad went into a nursing home last month".
_WENT_IN = rx(
    rf"^(?P<who>{_MY_ONE})\s+(?:has\s+|have\s+)?(?:(?:finally|just|recently|now)\s+)*"
    rf"(?:moved|gone|went|settled)\s+(?:in|into)\s+(?P<place>{CARE_HOME})(?P<rest>.*)$"
)
# "my dad is in a nursing home now", "Nan lives in sheltered housing": where they live.
_LIVES_IN = rx(
    rf"^(?P<who>{_MY_ONE})\s+(?:is|lives|has\s+been|is\s+living)\s+(?:(?:now|still)\s+)?(?:in|at)\s+"
    rf"(?P<place>{CARE_HOME})(?P<rest>.*)$"
)


def _my_kin(said: str) -> str:
    """``said`` with a bare parent or grandparent first said as the user's ("Mum's settled in" -> "My mum's
    settled in"); any other ``said`` as it is."""
    m = _KIN_FIRST.match(said)
    if m is None:
        return said
    return f"My {_BARE_KIN[m.group('kin').lower()]}{m.group('rest')}"


def _uncontracted(said: str) -> str:
    """``said`` with "'s" after someone of the user's written out as "is" or "has" when a verb, a place or a state
    follows ("my sister's coming to stay" -> "my sister is coming to stay", "my dad's got Parkinson's" -> "my dad
    has got Parkinson's"); a possessive ("my sister's house") as it is."""
    m = _CONTRACTED.match(said)
    if m is None or _THING_AFTER.match(m.group("rest")):
        return said
    nxt = m.group("next").lower()
    verb = "has" if nxt in _HAS_NEXT else "is" if nxt in _IS_NEXT else None
    return said if verb is None else f"{m.group('who')} {verb} {m.group('next')}{m.group('rest')}"


def _into_care(said: str) -> str | None:
    """The plain statement of someone of the user's moving into a home for care, or living in one ("We finally
    moved mum into a care home last weekend" -> "My mum moved into a care home last weekend", "my dad is in a
    nursing home now" -> "My dad lives in a nursing home now"); ``None`` when ``said`` tells of none."""
    m = _MOVED_SOMEONE_IN.match(said) or _WENT_IN.match(said)
    verb = "moved into"
    if m is None:
        m, verb = _LIVES_IN.match(said), "lives in"
    if m is None:
        return None
    who = m.group("who")
    bare = _BARE_KIN.get(who.lower())
    who = f"My {bare}" if bare is not None else re.sub(r"^(?:my|our)\b", "My", who, flags=re.IGNORECASE)
    place = m.group("place")
    place = "a care home" if re.fullmatch(r"a\s+home", place, re.IGNORECASE) else place
    return f"{who} {verb} {place}{m.group('rest')}".rstrip(" .!")


def _plain(clause: str) -> str:
    """One clause as the plain statement it means (the module docstring), or as it is when it tells of none of it."""
    said = strip_lead(clause).rstrip(" .!")
    told = _uncontracted(_my_kin(said))
    care = _into_care(told)
    if care is not None:
        return care
    return told if told != said else clause


def as_family_said(clauses: Sequence[str]) -> list[str]:
    """The user's ``clauses`` (one message, split) with each that tells of their family the way people say it
    replaced by the plain statement it means (see the module docstring); any other clause as it is.

    >>> as_family_said(["Mum's settled into Oakwood care home", "I live in Leeds"])
    ['My mum moved into Oakwood care home', 'I live in Leeds']
    >>> as_family_said(["We finally moved mum into a care home last weekend."])
    ['My mum moved into a care home last weekend']
    """
    return [_plain(clause) for clause in clauses]
