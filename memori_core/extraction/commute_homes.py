"""Where the user lives, told as where their daily trip starts.

People rarely say "I live in Rongai" when asking about a commute; they say "I use matatu from Rongai to town every
day", "I drive in from Midrand every day", "I do Oranmore into Galway in it every morning". A trip the user makes
every day, from a named place to another, starts from home: :func:`as_commute_home` adds "I live in <place>" after
such a clause, and the clause is left as it was for the rules (the commute is a fact of its own).

Only the user's own trip ("I ...", not "my wife drives in from ..."), only every day or every weekday (a weekly
flight from Heathrow starts nowhere the user lives), only a capitalised place that is no day or month ("from Monday
to Friday"), and no ride on rails between two places named ("I take the train from Paddington to Oxford every day":
a station is where the user boards, not their home). Pure: patterns, English only.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..calendar_words import CALENDAR_NAMES
from ..slots import PERSON
from .activities import PETS
from .patterns import PLACE_NAME, rx

__all__ = ["as_commute_home", "commute_home"]

# A greeting or a lead cut by a comma before the user's own words: "Hi,", "For context,".
_LEAD = r"(?:[^,]{0,40},\s*)?"
# The user's own trip: the clause opens with "I" (after such a lead).
_OWN = rx(rf"^{_LEAD}(?:and\s+|so\s+|also\s+)?(?:i|we)\s+(?!(?:don't|do\s+not|never|won't|used\s+to)\b)")
_DAILY = rx(r"\b(?:every\s+(?:single\s+)?(?:day|morning|weekday|work\s*day)|each\s+(?:day|morning)|daily)\b")
# "I use matatu from Rongai to town", "I take the micro from Maipú to Providencia", "I cycle from Pasing into the
# city": "from" right after a verb of travelling, with at most the means of transport between them. A person or a
# pet carried between ("I drive my daughter from Hillcrest", "I walk the dog from ...") makes the place where their
# trip starts, not the user's home; any other verb ("I call my mum from Tesco") tells no trip (rev39a).
_CARRIED = rx(rf"^(?:(?:the|a|my|our)\s+)?(?:\w+\s+)?(?:{PERSON}|{PETS}|him|her|them|us)$")
# The verbs of a daily trip that both shapes below read; each adds its own.
_TRAVEL = "commute|cycle|drive|ride|travel|get"
_FROM_TO = rx(
    rf"\b(?:{_TRAVEL}|bike|walk|take|catch|use)\s+"
    r"(?:every\s+(?:day|morning)\s+|daily\s+)?(?P<means>(?:(?:the|a|my|our)\s+)?[\w-]+\s+)?"
    rf"(?:in\s+|over\s+)?from\s+(?P<place>{PLACE_NAME})\s+(?:in)?to\s+(?P<to>\S+)"
)
# "I drive in from Midrand", "I come in from Kajiado", "I commute in from Slough".
_IN_FROM = rx(rf"\b(?:{_TRAVEL}|come)\s+in\s+from\s+(?P<place>{PLACE_NAME})\b")
# "I do Oranmore into Galway in it every morning".
_DO_A_TO_B = rx(rf"^{_LEAD}i\s+do\s+(?:the\s+)?(?P<place>{PLACE_NAME})\s+(?:in)?to\s+(?-i:[A-Z])")
# Places that are no home: the words of the calendar, "Home" itself, a station or an airport named alone.
_NOT_HOME = frozenset((*(n.lower() for n in CALENDAR_NAMES), "home", "work", "school", "uni", "the"))
_NOT_HOME_TAIL = rx(r"\b(?:station|airport|terminal|central|sentral|junction|interchange|school|primary|nursery|"
                    r"academy|college|park|shop|market|mall|centre|center|office|gym|hospital)$")
# A ride on rails between two places named starts at a station, which is where the user boards, not where they live:
# "I take the train from Paddington to Oxford every day", "I get the tube from Victoria to Bank every morning" (a
# station bears the name of its district, and people reach it by car, bike or bus; issue 21). A ride into "the city"
# or "town" names where the user comes in from ("I take the S-Bahn from Pasing into the city"), and a bus, a tram, a
# ferry, a car start nearer home.
_RAIL = rx(r"\b(?:trains?|tubes?|metro|subway|underground|overground|rail|railway|s-bahn|u-bahn|mrt|lrt|dart|lirr|dlr|"
           r"luas|bart|line)$")
# Where a ride ends that names no place of its own: "into the city", "to town", "to work" (the ride from a place to
# it names where the user comes in from). Any other end, in any case or quoted ("to oxford", "to central Oxford",
# "to 'Waterloo'"), is a second place.
_NO_PLACE_TO = rx(r"^(?:the\s+)?(?:city|town|centre|center|cbd|work|office|school|uni|college|campus)\b")
# A trip of a while only: "we fly from Heathrow to Dublin every day this week for the conference".
_A_WHILE = rx(r"\b(?:this|next)\s+(?:week|month|weekend)|\bfor\s+(?:the|a)\s+(?:week|month|conference|trip)\b")


_HOME_STORED = rx(r"^User\s+(?:lives|is\s+living|is\s+based|has\s+lived)\s+in\b")


def commute_home(clause: str) -> str | None:
    """The place ``clause``, the user's daily trip, starts from (``None`` when it tells no such trip).

    >>> commute_home("I use matatu from Rongai to town every day, around 90 minutes with the traffic")
    'Rongai'
    >>> commute_home("my wife drives in from Midrand every day") is None
    True
    """
    text = clause.strip()
    if not _OWN.match(text) or not _DAILY.search(text) or _A_WHILE.search(text):
        return None
    for pattern in (_IN_FROM, _FROM_TO, _DO_A_TO_B):
        m = pattern.search(text)
        carried = m is not None and (m.groupdict().get("means") or "").strip()
        # "the train from Paddington to Oxford": two stations named ("the S-Bahn from Pasing into the city" is home)
        to = text[m.start("to"):].strip("'\"\u2018\u2019\u201c\u201d ") if m is not None and m.groupdict().get("to") \
            else ""
        if m is not None and carried and _RAIL.search(carried) and to and not _NO_PLACE_TO.match(to):
            return None
        if m is not None and not (carried and _CARRIED.match(carried)):
            place = m.group("place").strip()
            if place.split()[0].lower() in _NOT_HOME or _NOT_HOME_TAIL.search(place):
                return None
            return place
    return None


def as_commute_home(clauses: Sequence[str], known: Sequence[str] = ()) -> list[str]:
    """``clauses`` with "I live in <place>" after each one telling the user's daily trip from that place
    (:func:`commute_home`); none while ``known`` (the stored facts' texts) holds where the user lives: a trip is no
    move, and a second home beside the stored one would leave two valid.

    >>> as_commute_home(["oh I don't live there", "I drive in from Midrand every day"])
    ["oh I don't live there", 'I drive in from Midrand every day', 'I live in Midrand']
    >>> as_commute_home(["I get the bus from Victoria to Brixton every day"], ["User lives in Leeds."])
    ['I get the bus from Victoria to Brixton every day']
    """
    homed = any(_HOME_STORED.match(text) for text in known)
    out: list[str] = []
    for clause in clauses:
        out.append(clause)
        place = None if homed else commute_home(clause)
        if place is not None:
            out.append(f"I live in {place}")
    return out
