"""What kind of home a fact tells, apart from where it is: "User lives in a houseboat.", "User lives on a narrowboat.",
"User rents a studio flat." say what the home is, not the place it is in. A home that travels with the user (a boat,
a barge, a van, a camper, a caravan, an RV, a tent) is no place: a move to a place ("User moved to Lisbon.") leaves
"User lives in a houseboat." true (the houseboat may be moored in Lisbon), and such a home told leaves the place,
unless the message sells or leaves the kind ("I sold the boat and moved to Bath."). A home that stays where it is (a
flat, a house, a dorm, a room) is left by a move ("I rent a flat." + "I moved to Leeds."). A kind told again ends a
kind ("User moved into a flat." ends "User lives in a houseboat."), a place a place, and a fact telling both ends
either. Pure: patterns, English only.
"""

from __future__ import annotations

import re

from .patterns import rx

__all__ = ["ends_a_home_that_travels", "leaves_a_home_that_travels", "only_a_home_that_travels", "only_a_kind_of_home", "tells_a_kind_of_home"]

_KIND = (
    r"(?:house\s*boat|narrow\s*boat|canal\s*boat|boat|barge|yacht|flat|apartment|condo|condominium|studio|"
    r"bedsit|loft|penthouse|maisonette|townhouse|town\s+house|terraced\s+house|semi|duplex|bungalow|cottage|cabin|"
    r"chalet|farmhouse|house|caravan|trailer|mobile\s+home|motorhome|camper(?:\s*van)?|van|rv|tiny\s+house|"
    r"yurt|tent|treehouse|dorm(?:itory)?|halls|hostel|co-?op|commune|basement|attic|houseshare|house\s+share|"
    r"shared\s+house|room)"
)
# "a houseboat", "an old converted barge", "a tiny house", "their own flat": what the home is.
_A_KIND = rx(rf"\b(?:a|an|the|my|our|their|his|her)\s+(?:[\w-]+\s+){{0,3}}?{_KIND}s?\b")


def _only_a_home(kinds: str, *, onto: bool = False) -> re.Pattern[str]:
    """A fact that tells the user's home as one of ``kinds`` and nothing placed: "User lives in a houseboat.", "User has
    moved into a studio flat.", "User now lives on an old narrowboat." (not "... a flat in Leeds", "... a cottage near
    Bath"); with ``onto``, "User moved onto a narrowboat." too."""
    moved_to = r"(?:\s+(?:in)?to|\s+into" + (r"|\s+onto" if onto else "") + ")"
    return rx(
        r"^user\s+(?:now\s+|still\s+|currently\s+)?(?:lives|is\s+living|has\s+lived|rents|is\s+renting|owns|"
        rf"(?:has\s+|just\s+|recently\s+|finally\s+)*(?:moved|relocated){moved_to})\s+(?:in\s+|on\s+|aboard\s+)?"
        rf"(?:a|an|the|my|our|their)\s+(?:[\w-]+\s+){{0,3}}?{kinds}s?(?:\s+(?:now|full-time|full\s+time))?\s*[.!]*$"
    )


_ONLY_A_KIND = _only_a_home(_KIND)
"""The whole fact is a kind of home and nothing placed."""

# The kinds of home that go where the user goes: a move to a place does not leave them.
_TRAVELS = (
    r"(?:house\s*boat|narrow\s*boat|canal\s*boat|boat|barge|camper(?:\s*van)?|van|caravan|motorhome|rv|tent)"
)
_ONLY_TRAVELS = _only_a_home(_TRAVELS, onto=True)
"""The whole fact is a kind of home that travels, "moved onto" one too."""
# "I sold the boat", "we moved off the narrowboat", "User got rid of the van": the user's own home that travelled is
# left, told as done by the user. Not someone else's sale ("my brother sold his boat"), one denied or to come ("I'm
# not selling the boat", "I never sold the boat", "we're selling the boat next year"), nor the boat left somewhere
# ("I left the boat at the marina").
_LEAVES_TRAVELLING = rx(
    r"(?:^|[^\w'])(?:i|we|user)(?:'ve|\s+have|\s+has)?(?:\s+(?:just|finally|recently|already|eventually|since))*\s+"
    r"(?:sold|gave\s+up|got\s+rid\s+of|moved\s+(?:off|out\s+of))\s+(?:the|my|our)\s+(?:[\w-]+\s+){0,2}?"
    rf"(?P<kind>{_TRAVELS})s?\b"
)
# The last word of a kind that travels ("boat" of "narrowboat", "van" of "camper van"): what a sale of it names.
_KIND_TAIL = rx(r"(?:boat|barge|van|camper|caravan|motorhome|rv|tent)$")


def only_a_home_that_travels(fact: str) -> bool:
    """Whether ``fact`` tells the user's home only as a kind that travels with them ("User lives on a narrowboat.",
    "User lives in a camper van."): a move to a place leaves it true. A flat, a house or a room stays where it is.

    >>> only_a_home_that_travels("User lives on a narrowboat."), only_a_home_that_travels("User rents a flat.")
    (True, False)
    """
    return bool(_ONLY_TRAVELS.match(fact.strip()))


def leaves_a_home_that_travels(said: str) -> bool:
    """Whether ``said`` (a sentence or a fact) sells or leaves a home that travels ("I sold the boat and moved to
    Bath.", "We moved off the narrowboat."): the move it tells ends that home too.

    >>> leaves_a_home_that_travels("I sold the boat and moved to Bath."), leaves_a_home_that_travels("I moved.")
    (True, False)
    """
    return bool(_LEAVES_TRAVELLING.search(said))


def ends_a_home_that_travels(said: str, fact: str) -> bool:
    """Whether ``said`` sells or leaves the home that travels which ``fact`` tells ("User sold the boat." of "User
    lives on a narrowboat."; not "User sold the van." of it).

    >>> ends_a_home_that_travels("User sold the boat.", "User lives on a narrowboat.")
    True
    >>> ends_a_home_that_travels("User sold the van.", "User lives on a narrowboat.")
    False
    """
    m = _LEAVES_TRAVELLING.search(said)
    if m is None or not only_a_home_that_travels(fact):
        return False
    tail = _KIND_TAIL.search(re.sub(r"\s+", "", m.group("kind")))
    return tail is not None and tail.group(0).lower() in fact.lower()


def tells_a_kind_of_home(fact: str) -> bool:
    """Whether ``fact`` names what kind of home the user has ("a houseboat", "a studio flat", "a tiny house").

    >>> tells_a_kind_of_home("User lives in a houseboat."), tells_a_kind_of_home("User moved to Lisbon.")
    (True, False)
    """
    return bool(_A_KIND.search(fact))


def only_a_kind_of_home(fact: str) -> bool:
    """Whether ``fact`` tells the user's home as a kind of home and no place ("User lives in a houseboat.", "User
    moved into a studio flat."): a move to a place leaves it true, and it leaves a place told true.

    >>> only_a_kind_of_home("User lives in a houseboat."), only_a_kind_of_home("User lives in a flat in Leeds.")
    (True, False)
    """
    return bool(_ONLY_A_KIND.match(fact.strip()))
