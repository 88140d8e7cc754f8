"""What kind of home a fact tells, apart from where it is: "User lives in a houseboat.", "User lives on a narrowboat.",
"User rents a studio flat." say what the home is, not the place it is in. A move to a place ("User moved to
Lisbon.") says nothing of the kind of home, and a home told as a kind ("User lives in a houseboat.") nothing of the
place: neither ends the other (the houseboat may be moored in Lisbon). A kind told again ends a kind ("User moved
into a flat." ends "User lives in a houseboat."), a place a place, and a fact telling both ends either. Pure:
patterns, English only.
"""

from __future__ import annotations

from .patterns import rx

__all__ = ["only_a_kind_of_home", "tells_a_kind_of_home"]

_KIND = (
    r"(?:house\s*boat|narrow\s*boat|canal\s*boat|boat|barge|yacht|flat|apartment|condo|condominium|studio|"
    r"bedsit|loft|penthouse|maisonette|townhouse|town\s+house|terraced\s+house|semi|duplex|bungalow|cottage|cabin|"
    r"chalet|farmhouse|house|caravan|trailer|mobile\s+home|motorhome|camper(?:\s*van)?|van|rv|tiny\s+house|"
    r"yurt|tent|treehouse|dorm(?:itory)?|halls|hostel|co-?op|commune|basement|attic|houseshare|house\s+share|"
    r"shared\s+house|room)"
)
# "a houseboat", "an old converted barge", "a tiny house", "their own flat": what the home is.
_A_KIND = rx(rf"\b(?:a|an|the|my|our|their|his|her)\s+(?:[\w-]+\s+){{0,3}}?{_KIND}s?\b")
# The whole fact is a kind of home and nothing placed: "User lives in a houseboat.", "User has moved into a
# studio flat.", "User now lives on an old narrowboat." (not "... a flat in Leeds", "... a cottage near Bath").
_ONLY_A_KIND = rx(
    r"^user\s+(?:now\s+|still\s+|currently\s+)?(?:lives|is\s+living|has\s+lived|rents|is\s+renting|owns|"
    r"(?:has\s+|just\s+|recently\s+|finally\s+)*(?:moved|relocated)(?:\s+(?:in)?to|\s+into))\s+(?:in\s+|on\s+|aboard\s+)?"
    rf"(?:a|an|the|my|our|their)\s+(?:[\w-]+\s+){{0,3}}?{_KIND}s?(?:\s+(?:now|full-time|full\s+time))?\s*[.!]*$"
)


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
