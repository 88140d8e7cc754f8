"""A name and an age told together, "I'm kez, 22", as the two statements they are: "My name is Kez", "I'm 22".

Read as one, "User is kez, 22." filled neither the name nor the age: a birthday later ("I turned 23 today!") did not
end it, and "what's my name?" found nothing. A word the rules know as a state ("I'm vegan, 22", "I'm single, 30") is
no name. Pure: patterns, English only.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..ranking.care import is_care_fact
from .leads import strip_lead
from .patterns import I_AM, rx
from .slots import slots_of

__all__ = ["as_name_and_age"]

_NAME_AGE = rx(
    r"^(?:(?:hi|hey|hello|hiii*|ok|okay|so|well)\W+)*" + I_AM + r"\s+"
    r"(?P<name>[a-z\u00c0-\u017f][\w\u00c0-\u017f'-]{1,20}),?"
    r"\s+(?P<age>\d{1,2})(?:\s*(?:years?\s+old|yrs?\s+old|yo|y/o|years?\s+young))?\s*[.!]*$"
)
# Words after "I'm" that say how or what the user is, never who: "I'm fine, 22" says no name.
_NOT_A_NAME = frozenset("""
    fine good ok okay great new back here done tired sick single married divorced engaged pregnant vegan vegetarian
    retired unemployed broke free only just also still almost nearly about turning
""".split())


def _name_and_age(clause: str) -> list[str] | None:
    """``clause`` as "My name is <Name>" and "I'm <age>" when it tells a name and an age together; ``None``."""
    m = _NAME_AGE.match(strip_lead(clause).strip())
    if m is None:
        return None
    name = m.group("name")
    if name.lower() in _NOT_A_NAME or slots_of(f"User is {name}.") or is_care_fact(f"User is {name}."):
        return None
    return [f"My name is {name[:1].upper()}{name[1:]}", f"I'm {m.group('age')}"]


# "hey im kasia", "hi, I'm jake.": a greeting, then one word typed in lower case after "I'm", ending the clause: the
# name (a greeting opens an introduction); a word of how the user is ("hi im tired", "hey im back", "hi im lost")
# is none: :data:`_NOT_A_NAME`, :data:`_STATE_WORDS`, :data:`_STATE_ENDING`, or a word of a slot or of care.
_GREETED_NAME = rx(
    r"^(?:hi|hey|hello|hiya|heya|hii+)\W+" + I_AM + r"\s+(?P<name>(?-i:[a-z])[a-z\u00e0-\u00ff]{1,14})\s*[.!]*$"
)
_STATE_ENDING = rx(r"^(?:a\w+e|\w+(?:ed|ing|ful|ous|ive|ble|less|ish|y|ic|al|ent|ant|ry|st|ow))$")
_STATE_WORDS = frozenset("""
    lost stuck late sick ill sad mad hot cold home alone in out off on up down over fit well bad low high ready sorry
    sure glad keen fab gay straight trans deaf blind mum mom dad new old young
""".split())


def _greeted_name(clause: str) -> list[str] | None:
    """``clause`` as "My name is <Name>" when a greeting, then "I'm" and one lower-case word that names nobody's
    state, is all it says ("hey im kasia"); ``None``."""
    m = _GREETED_NAME.match(clause.strip())
    if m is None:
        return None
    name = m.group("name")
    says_how = name in _NOT_A_NAME or name in _STATE_WORDS or _STATE_ENDING.match(name) is not None
    return None if says_how or slots_of(f"User is {name}.") or is_care_fact(f"User is {name}.") \
        else [f"My name is {name.capitalize()}"]


def as_name_and_age(clauses: Sequence[str]) -> list[str]:
    """``clauses`` with each that tells a name and an age together said as the two statements; any other as it is.

    >>> as_name_and_age(["I'm kez, 22"])
    ['My name is Kez', "I'm 22"]
    """
    return [said for clause in clauses for said in (_name_and_age(clause) or _greeted_name(clause) or [clause])]
