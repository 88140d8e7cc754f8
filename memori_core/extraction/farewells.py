"""A pet's death told as the farewell the user had to make: "we had to say goodbye to Biscuit yesterday", "had to put
our old dog down", "we had Mochi put to sleep on Friday" -> "Biscuit died yesterday", "our old dog died", "Mochi died
on Friday".

The words say a death only of an animal: "we had to say goodbye to Sam at the airport", "I put the baby to sleep" and
"we had to let Tom go" (a job) tell none. So the one said goodbye to must be a pet ("our dog", "my cat") or a name a
stored fact gives an animal ("User has a dog called Mochi.", "User's beagle Biscuit is 13."). The restatement is the
death :mod:`.told_endings` reads, which ends the stored facts naming the pet. Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..slots import PERSON
from .activities import DOG_BREEDS, PETS
from .patterns import CAPITAL_WORD, rx

__all__ = ["farewell"]

_PET = rf"(?:my|our|the)\s+(?:(?:old|little|beloved|dear|lovely|sweet|poor)\s+)*(?:{PETS})"
_NAME = CAPITAL_WORD
# "had to say goodbye to Biscuit", "we said goodbye to Biscuit on saturday", "had to put Biscuit down", "had to have Biscuit put to sleep", "put our dog to
# sleep", "had to let Mochi go": then when, or how ("yesterday", "on Friday", "after 13 years").
_FAREWELL = rx(
    r"^(?:(?:we|i)\s+)?(?:(?:sadly|finally|just|have|'ve)\s+)*(?:"
    rf"(?:had\s+to\s+say|said)\s+(?:goodbye|good-bye|goodbyes|our\s+goodbyes|bye)\s+to\s+(?P<said>{_PET}|{_NAME})"
    rf"|(?:had\s+to\s+)?(?:have\s+|had\s+)?(?:put|let)\s+(?P<put>{_PET}|{_NAME})\s+"
    r"(?:put\s+)?(?:down|to\s+sleep|go)"
    rf"|had\s+to\s+have\s+(?P<had>{_PET}|{_NAME})\s+put\s+(?:down|to\s+sleep))"
    r"(?P<rest>(?:\s+(?:yesterday|today|this\s+\w+|last\s+\w+|on\s+\w+|in\s+\w+|after\s+[\w\s]+|at\s+the\s+vet'?s?))*)"
    r"\s*[.!]*$"
)
# A stored fact that gives an animal its name: "User has a dog called Mochi.", "User's beagle Biscuit is 13.", "User
# has got an old retired greyhound called Pepper." (not a
# person's: "User's friend Sam ...").
_NAMED_ANIMAL = r"(?:{pets})\s+(?:(?:called|named)\s+)?{name}\b|^User's\s+(?!(?:{person})\b)[a-z-]+\s+{name}\b"


def _an_animal(name: str, known: Sequence[str]) -> bool:
    """Whether ``name`` is a pet's: a pet word, or a name a stored fact gives an animal."""
    if re.match(_PET, name, re.IGNORECASE):
        return True
    pattern = re.compile(_NAMED_ANIMAL.format(pets=f"{PETS}|{DOG_BREEDS}", name=re.escape(name), person=PERSON), re.IGNORECASE)
    return any(pattern.search(text) for text in known)


def farewell(clause: str, known: Sequence[str]) -> list[str] | None:
    """``clause`` (its lead cut) restated as the pet's death it tells ("we had to say goodbye to Biscuit yesterday" ->
    ``["Biscuit died yesterday"]``), or ``None``: no farewell, or not of a pet.

    >>> farewell("we had to say goodbye to Biscuit yesterday", ["User's beagle Biscuit is 13."])
    ['Biscuit died yesterday']
    >>> farewell("we had to say goodbye to Sam at the airport", ["User's friend Sam lives in Oslo."]) is None
    True
    """
    m = _FAREWELL.match(clause)
    if m is None:
        return None
    who = m.group("said") or m.group("put") or m.group("had")
    if not _an_animal(who, known):
        return None
    return [f"{who} died{m.group('rest')}"]
