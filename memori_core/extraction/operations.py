"""An operation told as done, and the need of it it ends: "had my knee replaced last week" or "New knee." after
"User needs a knee replacement." ends that need, which stayed valid (and shown for exercises after the operation).

:func:`as_operation_done` restates the chat way ("had my knee replaced", "new hip!") as "I had my knee replaced";
:func:`operation_done` says whether a fact of an operation had ends a stored need of one on the same part of the
body. Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..slots import holder
from .cues import is_negated
from .patterns import rx

__all__ = ["as_operation_done", "operation_done"]

_PART = (r"knees?|hips?|shoulders?|elbows?|ankles?|cataracts?|gall\s*bladder|appendix|tonsils|hernia|"
         r"wisdom\s+teeth|heart\s+valve|lens")
_OPERATION = r"replacement|replaced|operation|op|surgery|removal|removed|repair|repaired|done|out"
# "had my knee replaced last week", "got my gallbladder out", "new knee!", "just had my hip done"
_DONE_SAID = rx(
    rf"^(?:(?:just|finally)\s+)?(?:had|got)\s+(?:my|the)\s+(?P<part>{_PART})\s+(?P<op>replaced|done|out|removed|"
    r"operated\s+on|fixed|repaired)\b(?P<rest>[^?]*?)[.!\s]*$"
    rf"|^(?:a\s+)?(?:brand\s+)?new\s+(?P<new>{_PART})\s*[.!]*$"
)
# What the user needs, waits for or is booked for: "User needs a knee replacement.", "User is waiting for hip surgery."
_NEED = rx(
    r"^User\s+(?:needs|is\s+waiting\s+for|is\s+on\s+the\s+waiting\s+list\s+for|has\s+to\s+have|is\s+due\s+to\s+have|"
    r"is\s+booked\s+(?:in\s+)?for|is\s+going\s+to\s+have|will\s+have)\b(?P<what>.*)$"
    rf"|^User's\s+(?P<what2>(?:{_PART})\s+(?:{_OPERATION})\s+is\s+(?:booked|scheduled|planned)\b.*)$"
)
# What the user had: "User had their knee replaced.", "User has a new hip."
_HAD = rx(r"^User\s+(?:had|has\s+had|got)\s+(?P<what>.*)$|^User\s+has\s+a\s+(?:brand\s+)?new\s+(?P<what2>.*)$")


def as_operation_done(clause: str, known: Sequence[str] = ()) -> list[str] | None:
    """``clause`` (stripped of its lead) as the user's statement of an operation had ("had my knee replaced last
    week" -> "I had my knee replaced last week"; "New knee." -> "I had my knee replaced"); ``None`` otherwise.
    ``known`` is unused: every restater of :mod:`.told_endings` takes it.

    >>> as_operation_done("New knee."), as_operation_done("had my knee replaced last week")
    (['I had my knee replaced'], ['I had my knee replaced last week'])
    """
    m = _DONE_SAID.match(clause.strip())
    if m is None:
        return None
    if m.group("new"):
        return [f"I had my {m.group('new').lower()} replaced"]
    return [f"I had my {m.group('part')} {m.group('op')}{m.group('rest')}"]


def _part(text: str) -> str | None:
    """The part of the body ``text`` names, singular and lower case ("knees" -> "knee"); ``None``."""
    m = re.search(rf"\b(?P<part>{_PART})\b", text, re.IGNORECASE)
    return re.sub(r"s$", "", m.group("part").lower()) if m is not None else None


def _names_an_operation(text: str) -> bool:
    """Whether ``text`` names an operation ("a knee replacement", "hip surgery", "their gallbladder out")."""
    return re.search(rf"\b(?:{_OPERATION})\b", text, re.IGNORECASE) is not None


def operation_done(new: str, old: str) -> bool:
    """Whether ``new``, an operation the user had, ends ``old``, the user's need of one on the same part.

    >>> operation_done("User had their knee replaced.", "User needs a knee replacement.")
    True
    >>> operation_done("User had their hip replaced.", "User needs a knee replacement.")
    False
    """
    had, need = _HAD.match(new.strip()), _NEED.match(old.strip())
    if had is None or need is None or is_negated(new) or is_negated(old):
        return False
    done, needed = had.group("what") or had.group("what2"), need.group("what") or need.group("what2")
    if not _names_an_operation(done) and had.group("what2") is None or not _names_an_operation(needed):
        return False
    part = _part(done)
    return part is not None and part == _part(needed) and holder(new) == holder(old) == "user"
