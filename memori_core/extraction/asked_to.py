"""A part the user was asked to take, told with "they" as the asker: "They've asked me to coordinate the volunteers at
the food bank" is "I've been asked to coordinate the volunteers at the food bank", which the rules keep; with "they"
first it was no first-person statement, and dropped. Pure: patterns, English only.
"""

from __future__ import annotations

from collections.abc import Sequence

from .leads import strip_lead
from .patterns import rx

__all__ = ["as_asked_to"]

# "They've asked me to coordinate ...", "they have asked me to run ...", "They asked me to be treasurer": a part, to
# go on (not "they asked me to send it", an errand of the day: a verb of a role follows).
_THEY_ASKED = rx(
    r"^(?:(?:so|and|oh)\s+)?they(?:'ve|\u2019ve|\s+have|\s+just|\s+recently|\s+finally)*\s+asked\s+me\s+to\s+"
    r"(?P<what>(?:coordinate|run|lead|manage|organi[sz]e|chair|host|coach|train|mentor|head|be|join|take\s+over|"
    r"look\s+after|help\s+run|step\s+up\s+as)\b.*?)\s*[.!]*$"
)


def as_asked_to(clauses: Sequence[str]) -> list[str]:
    """``clauses`` with a part the user was asked to take, told with "they" as the asker, as "I've been asked to
    ..."; any other clause as it is."""
    out = []
    for clause in clauses:
        m = _THEY_ASKED.match(strip_lead(clause).strip())
        out.append(f"I've been asked to {m.group('what')}" if m is not None else clause)
    return out
