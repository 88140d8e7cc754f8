"""Where the user lives, told as where they are: "I'm in Winnipeg", "we're in Leeds these days", "I'm in Bedminster,
no car", "i'm in austin if that matters for ingredients"; told as it is now ("these days", "as of friday i'm in
limerick"), a change, which ends the home stored.

Said without a time, a stay or a reason ("I'm in Rome this week", "I'm in London for a conference": :mod:`.stays`,
:mod:`.moments`), "I'm in <place>" is the user's home. Kept as said it was "User is in Winnipeg.", which no slot reads
as the home: a move told that way ended nothing, and the fact matched no gold words. "I'm in Oadby now" is left to the rules of a move. Not a state ("I'm in pain",
"I'm in love", "I'm in hospital"), a team or a school year ("I'm in IT", "I'm in Year 10"), a vehicle or a room ("I'm
in the car"). Pure: patterns, English only.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..calendar_words import ANY_MONTH, MONTH_NAMES, WEEKDAYS
from .leads import strip_lead
from .moments import NOW_WORDS, SOON
from .patterns import I_OR_WE_ARE, rx

__all__ = ["as_home_said"]

_WORD = r"[\w\u00c0-\u017f'-]+"
# "Winnipeg", "Puerto Montt", "Gachibowli"; typed in lower case when the whole clause is ("i'm in austin").
_PLACE = rf"(?P<place>(?-i:[A-Z]){_WORD}(?:\s+(?-i:[A-Z]){_WORD}){{0,2}}|(?-i:[a-z]){_WORD})"
# "we're in Limoilou in Québec City": a district, then the city it is in.
_IN_CITY = rf"(?:\s+in\s+(?-i:[A-Z]){_WORD}(?:\s+(?-i:[A-Z]){_WORD}){{0,2}})?"
_IN_PLACE = rx(
    rf"^(?P<as_of>as\s+of\s+(?:last\s+)?\w+\s*,?\s+)?{I_OR_WE_ARE}\s+in\s+(?P<where>{_PLACE}{_IN_CITY})"
    r"(?P<these_days>\s+(?:these\s+days|nowadays))?\s*"
    r"(?P<rest>(?:,\s*|\s+(?:so|and|but)\s+)(?P<after>.+?)|\s+if\s+that\s+(?:matters|helps)\b.*)?[.!]*$"
)
# "I stay at Ashaiman", "we stay in Kumasi" (the home, in Indian and West African English): the whole clause, a
# named place and nothing after it ("I stay at Mum's on weekends", "I stay in Leeds when I visit" are stays).
_STAY_IN = rx(rf"^(?:i|we)\s+(?:currently\s+|still\s+|now\s+)?stay\s+(?:in|at)\s+(?P<where>{_PLACE}{_IN_CITY})[.!]*$")
# "we've been in Zapopan since the 2nd", "I've been in Dublin since 2019": a home since a day, a month or a year (not
# "since Monday", "since this morning": a stay of the moment).
_BEEN_IN_SINCE = rx(
    rf"^(?:i've|i\s+have|we've|we\s+have)\s+been\s+(?:living\s+)?in\s+(?P<where>{_PLACE}{_IN_CITY})\s+since\s+"
    rf"(?P<since>(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)|(?:19|20)\d\d|(?:last\s+)?(?:{ANY_MONTH}|year|"
    r"spring|summer|autumn|fall|winter))\b[^,;]*?[.!]*$"
)
# What follows "in" and is no place (checked in lower case, the first word).
_NOT_PLACES = frozenset(
    """a an the my our his her their this that some no pain love trouble shock agony tears bed hospital charge shape
    debt school class college uni university work town office therapy labour labor recovery rehab remission denial
    luck touch line traffic lockdown isolation quarantine meetings meeting year grade form group team sales marketing
    finance accounts accounting engineering it hr aa management tech retail construction banking law medicine
    nursing care treatment favour favor despair heaven hell bits pieces stitches debt danger doubt need chat
    between""".split()
)
# ", for a conference", ", visiting my mum", ", until Friday": a stay, not a home.
_STAY_AFTER = rx(r"^(?:for|until|till|visiting|on|at|staying|with|from|over|this|today|tonight|right|just)\b")


def _home_said(clause: str) -> list[str] | None:
    """``clause`` as "I live in <place>" and what followed it, or ``None`` when it is no home told as where the
    user is."""
    text = strip_lead(clause).strip()
    settled = _STAY_IN.match(text) or _BEEN_IN_SINCE.match(text)
    if settled is not None:
        place = settled.group("where")
        if place.split()[0].lower() in _NOT_PLACES or place.isupper() or place[0].islower() or "'" in place:
            return None
        # a home since a day or a month is a home moved to then: it ends the one stored ("I stay at" tells no change)
        return [f"I live in {place}" + (" now" if settled.re is _BEEN_IN_SINCE else "")]
    m = _IN_PLACE.match(text)
    if m is None:
        return None
    place = m.group("where")
    if place.split()[0].lower() in _NOT_PLACES or place.isupper() or (place.islower() and not text.islower()):
        return None  # "I'm in IT", "I'm in pain"; a lower-case word counts only in a clause typed all in lower case
    after = m.group("after")
    if NOW_WORDS.search(text) or SOON.search(text) or (after is not None and _STAY_AFTER.match(after)):
        return None  # "I'm in Leeds, until Friday", "I'm in Rome and it's sunny today": a stay of the moment
    # "we're in Leeds these days" is a home told as it is now: a change, which ends the home stored
    now = " now" if m.group("these_days") or m.group("as_of") else ""  # "as of friday i'm in limerick" too
    return [f"I live in {place}{now}"] + ([after] if after else [])


_HERE_IN = rx(rf"\b(?:here|over\s+here|down\s+here|up\s+here|out\s+here)\s+in\s+{_PLACE}")
# A message of a trip or a stay, or of a user from elsewhere: "here in <place>" may be where they are for now.
_AWAY = rx(r"\b(?:holidays?|vacation|trip|visit|visiting|conference|honeymoon|touring|tourists?|layover|stopover|"
           r"hotel|airbnb|" + I_OR_WE_ARE + r"\s+(?:originally\s+)?from|originally\s+from|for\s+the\s+"
           r"(?:week|weekend|summer|month)|this\s+week|got\s+here|arrived|landed)\b")
_NOT_HERE_PLACES = frozenset((*MONTH_NAMES, *WEEKDAYS, "the", "my", "our", "this", "town", "winter", "summer",
                              "spring", "autumn", "fall", "person", "real", "general"))


def _here_in(clause: str) -> str | None:
    """The place of "here in <place>" in ``clause``, when it names one (not "here in October", "here in town")."""
    m = _HERE_IN.search(clause)
    if m is None:
        return None
    place = m.group("place")
    if place.split()[0].lower() in _NOT_HERE_PLACES | _NOT_PLACES or place.isupper() \
            or (place.islower() and not clause.islower()):
        return None
    return place


def as_home_said(clauses: Sequence[str]) -> list[str]:
    """``clauses`` (one user message, split) with a home told as where the user is as "I live in <place>" (see the
    module's doc); any other clause as it is.

    >>> as_home_said(["I'm in Bedminster, no car."])
    ['I live in Bedminster', 'no car']
    >>> as_home_said(["I'm in London for a conference"])
    ["I'm in London for a conference"]
    """
    said = [said for clause in clauses for said in (_home_said(clause) or [clause])]
    if any(_AWAY.search(clause) for clause in said):
        return said
    here = [(n, place) for n, clause in enumerate(said) if (place := _here_in(clause)) is not None]
    for n, place in reversed(here[:1]):  # one home a message
        said.insert(n, f"I live in {place}")
    return said
