"""A trip the user planned, told later as taken: the plan no longer holds.

"Lisbon was amazing!!", "Just got back from Lisbon", "The Lisbon trip was great", "We had the best time in Lisbon",
"I went to Lisbon last week", said while a stored fact plans a trip there ("User is planning a trip to Lisbon in
November 2026 with their sister Eva."), tell that the trip happened: the plan ends, and what holds now is that the
user went ("User went to Lisbon with their sister Eva."). A trip of long ago ("I was in Lisbon in 2019", "as a
kid") or one told of a place no stored plan names ends nothing. A trip that did not happen ("We never made it to
Japan", "the Japan trip got cancelled", "we called off the trip") ends the plan too: what holds now is that the user
cancelled it ("User cancelled their trip to Japan."; one postponed or moved ends nothing). Pure:
patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..calendar_words import MONTH_NAMES, WEEKDAYS
from ..slots import holder
from .leads import strip_lead
from .patterns import PLACE_NAME, rx

__all__ = ["ends_planned_trip", "plan_places", "trip_called_off", "trip_places", "trip_taken"]

# A place as a sentence names it: "Lisbon", "New York", "São Paulo" (not a day or a month).
_NOT_PLACES = frozenset(WEEKDAYS) | frozenset(MONTH_NAMES) | {"user", "i", "christmas", "easter"}
_PLACE = rf"(?P<place>{PLACE_NAME})"
_TRIP = r"(?:trip|holiday|vacation|getaway|break|cruise|honeymoon|visit|weekend|week)"

# What tells a trip as over, each naming its place.
_TAKEN = (
    # "Lisbon was amazing!!", "Japan was incredible": the place, told of in the past (not "Lisbon was founded ...")
    rx(rf"^{_PLACE}\s+(?:was|were)\s+(?!(?:where|when|founded|built|once|never|always|(?:the|a)\s+capital|"
       r"my\s+(?:first|second|top)|our\s+(?:first|second|top))\b)\S"),
    # "Just got back from Lisbon", "I'm back from Japan", "home from our trip to Lisbon"
    rx(rf"\b(?:back|home|returned)\s+from\s+(?:(?:my|our|the|a)\s+(?:[\w-]+\s+)?{_TRIP}\s+(?:to|in)\s+)?{_PLACE}"),
    # "The Lisbon trip was great", "Our holiday in Greece went well", "User's trip to Lisbon was amazing."
    rx(rf"\b(?:the|our|my|this|that|user's)\s+{_PLACE}\s+{_TRIP}\s+(?:was|went)\b"),
    rx(rf"\b{_TRIP}\s+(?:to|in)\s+{_PLACE}\s+(?:was|went)\b"),
    # "We had the best time in Lisbon", "had such a lovely week in Crete"
    rx(rf"\b(?:had|'ve\s+had|have\s+had|has\s+had)\s+(?:a|an|the|such\s+a|such\s+an)\s+(?:[\w-]+\s+){{0,3}}?"
       rf"(?:time|{_TRIP}|days?|stay)\s+in\s+{_PLACE}"),
    # "I went to Lisbon last week", "We visited Japan", "User flew to Tokyo."
    rx(rf"\b(?:went|flew|travell?ed|drove|sailed)\s+(?:over\s+|down\s+|up\s+)?to\s+{_PLACE}"),
    rx(rf"\bvisited\s+{_PLACE}"),
)
# A trip of long ago, or one that did not happen: not the one planned.
_NOT_THIS_TRIP = rx(
    r"\b(?:in\s+(?:19|20)\d{2}|years?\s+ago|as\s+a\s+(?:kid|child|teen(?:ager)?|student)|"
    r"when\s+(?:i|we)\s+(?:was|were)|growing\s+up|used\s+to|once|twice|before|last\s+year|never|didn't|did\s+not|"
    r"couldn't|could\s+not|wasn't\s+able|cancell?ed|postponed|called\s+off|(?:last|first|every)\s+time)\b"
)

# A stored plan of a trip: "User is planning a trip to Lisbon ...", "User and Anika are going to Japan ...", "User
# has a trip to Rome in May 2027.", "User's trip to Japan is in March 2027.", "User plans to go to Iceland ...".
_PLANNED_TRIP = rx(
    rf"^user(?:'s\s+(?:[\w-]+\s+){{0,2}}?{_TRIP}\b[^.]*?\b(?:is|'s)\b"
    r"|(?:\s+and\s+[^.]+?)?\s+(?:(?:is|are)\s+(?:\w+\s+)?(?:planning|going|flying|travell?ing|heading|off|visiting|"
    r"driving|taking|doing)\b|plans?\s+(?:to|on)\b|(?:has|have)\s+(?:got\s+|booked\s+)?(?:a|an|their)\s+"
    rf"(?:[\w'-]+\s+){{0,3}}?{_TRIP}\b|(?:has|have)\s+booked\b))"
)
_PLAN_PLACE = rx(rf"\b(?:to|in|visit|visiting)\s+{_PLACE}")
# Who goes along, as a plan names them: "User and their girlfriend Anika are ...", "... with their sister Eva."
_TOGETHER = re.compile(r"^User\s+and\s+(?P<other>.+?)\s+(?:are|have|plan)\b")
_WITH = re.compile(
    r"\bwith\s+(?P<with>their\s+(?:[\w-]+\s+){0,2}?[\w-]+(?:\s+[A-Z][\w'-]+)?|[A-Z][\w'-]+(?:\s+and\s+[A-Z][\w'-]+)?)"
    r"(?=\s+(?:in|on|next|this|for|from|around)\b|\s*[.!]*$)"
)


def _places(found: Iterable[re.Match[str]]) -> set[str]:
    return {m.group("place") for m in found if m.group("place").split()[0].lower() not in _NOT_PLACES}


def trip_places(text: str) -> frozenset[str]:
    """The places ``text`` (a clause, or a fact) tells a trip to as taken ("Lisbon was amazing!!" -> ``{"Lisbon"}``,
    "User went to Lisbon with their sister Eva." too); empty for a trip of long ago or one that did not happen.

    >>> sorted(trip_places("Just got back from Lisbon!")), sorted(trip_places("I was in Lisbon in 2019"))
    (['Lisbon'], [])
    """
    text = strip_lead(text).strip()
    if _NOT_THIS_TRIP.search(text):
        return frozenset()
    return frozenset(_places(m for pattern in _TAKEN for m in pattern.finditer(text)))


def plan_places(fact: str) -> frozenset[str]:
    """The places the stored ``fact`` plans a trip of the user's to ("User is planning a trip to Lisbon in November
    2026." -> ``{"Lisbon"}``); empty when it plans none (a trip told as taken, someone else's, a move)."""
    if not _PLANNED_TRIP.match(fact) or holder(fact) != "user" or re.search(r"\b(?:moving|relocating)\b", fact):
        return frozenset()
    return frozenset(_places(_PLAN_PLACE.finditer(fact)))


def _as_mine(words: str) -> str:
    return re.sub(r"\btheir\b", "my", words)


def trip_taken(clause: str, known: Sequence[str]) -> str | None:
    """``clause`` ("Lisbon was amazing!!") as the user's own statement that they went on the trip a stored fact
    (``known``) plans ("I went to Lisbon with my sister Eva", "My girlfriend Anika and I went to Japan"), with
    whoever the plan names as going along; ``None`` when it tells no trip a stored plan names as taken."""
    places = trip_places(clause)
    if not places:
        return None
    for fact in known:
        place = next((p for p in sorted(places) if p in plan_places(fact)), None)
        if place is None:
            continue
        together = _TOGETHER.match(fact)
        if together is not None:
            return f"{_as_mine(together.group('other'))} and I went to {place}"
        along = _WITH.search(fact)
        return f"I went to {place}" + (f" with {_as_mine(along.group('with'))}" if along is not None else "")
    return None


def ends_planned_trip(new: str, old: str) -> bool:
    """Whether the fact ``new`` ("User went to Lisbon with their sister Eva.", "User cancelled their trip to
    Lisbon.") tells as taken or called off a trip the stored fact ``old`` plans ("User is planning a trip to Lisbon
    in November 2026."), both the user's."""
    if holder(new) != "user":
        return False
    planned = plan_places(old)
    return bool(trip_places(new) & planned) or (bool(planned) and trip_called_off(new, [old]) is not None)


# A planned trip that will not happen: "We never made it to Japan", "we're not going to japan after all", "the Japan
# trip got cancelled", "our trip to Japan is off", "we called off the trip", "cancelled Japan", "The Denver conference
# is called off.", "the conference in Denver got cancelled". ``where``: the words after "to" / "in" or before "trip"
# (a plan's place starts them); none: the one trip a stored plan names.
_TRIP_WORD = r"(?:trip|holiday|vacation|getaway|cruise|honeymoon|conference|convention|retreat|summit|festival)"
_OURS = r"(?:the|our|my|their)"
# Calling a trip off ("we cancelled the trip"), a bare alternation: each pattern groups it, _IS_OFF with "off".
_CALL_OFF = r"cancell?ed|called\s+off|scrapped"
# What a trip called off is: "got cancelled", "is off", "has been officially scrapped".
_IS_OFF = rf"(?:got|was|has\s+been|is)\s+(?:now\s+|officially\s+)?(?:{_CALL_OFF}|off)\b"
_WHERE_CHAR = r"[\w'\u00c0-\u00ff -]"  # of the words after "to" or before "trip"
_CALLED_OFF = (
    rx(r"\b(?:never|didn't|did\s+not|couldn't|could\s+not|not|won't|will\s+not)\s+(?:\w+\s+){0,2}?"
       rf"(?:make|made|go|going|went|get|got|getting)\s+(?:it\s+)?to\s+(?P<where>{_WHERE_CHAR}+)"),
    rx(rf"\b{_OURS}\s+(?P<where>{_WHERE_CHAR}+?)\s+{_TRIP_WORD}\s+{_IS_OFF}"),
    rx(rf"\b{_TRIP_WORD}\s+(?:to|in)\s+(?P<where>{_WHERE_CHAR}+?)\s+{_IS_OFF}"),
    rx(rf"\b(?:{_CALL_OFF})\s+(?:{_OURS}\s+)?{_TRIP_WORD}\s+to\s+(?P<where>{_WHERE_CHAR}+)"),
    rx(rf"\b(?:{_CALL_OFF})\s+(?:{_OURS}\s+)?(?!{_OURS}\b)(?P<where>{_WHERE_CHAR}+?)(?:\s+{_TRIP_WORD})?"
       r"\s*(?:[.!,]|$)"),
    rx(rf"\b(?:{_CALL_OFF})\s+{_OURS}\s+{_TRIP_WORD}\b(?!\s+to\b)"),
    rx(rf"^{_OURS}\s+{_TRIP_WORD}\s+{_IS_OFF}"),
)
# Put off, not called off: the plan still stands, at another time.
_PUT_OFF = rx(r"\b(?:postponed|pushed|rescheduled|delayed|moved|until|till|yet|next\s+(?:year|month|time)|later)\b")


def trip_called_off(clause: str, known: Sequence[str]) -> str | None:
    """``clause`` ("We never made it to Japan", "the Japan trip got cancelled", "we called off the trip") as the
    user's own statement that they cancelled the trip a stored fact (``known``) plans ("I cancelled my trip to
    Japan"): the place it names, or the one place the stored plans name when it names none. ``None`` when it
    tells of no planned trip called off (one put off, "postponed until May", ends nothing).

    >>> trip_called_off("we never made it to japan", ["User is planning a trip to Japan in March 2027."])
    'I cancelled my trip to Japan'
    """
    text = strip_lead(clause).strip()
    if _PUT_OFF.search(text):
        return None
    places = sorted({place for fact in known for place in plan_places(fact)})
    if not places:
        return None
    for pattern in _CALLED_OFF:
        m = pattern.search(text)
        if m is None:
            continue
        where = m.groupdict().get("where")
        if where is None:
            return f"I cancelled my trip to {places[0]}" if len(places) == 1 else None
        said = where.casefold()
        place = next((p for p in places if said == p.casefold() or said.startswith(p.casefold() + " ")), None)
        if place is not None:
            return f"I cancelled my trip to {place}"
    return None
