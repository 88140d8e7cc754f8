"""A new dose of a medicine the user takes: told the chat way, read as the plain statement, and replacing the dose
stored before.

"my doctor upped the sertraline to 100mg" -> "I take sertraline, 100mg now"; "my levothyroxine dose got upped to
75mcg" -> "I take levothyroxine, 75mcg now"; "they lowered my metformin to 500mg". The new fact replaces a stored
fact of the user's naming the same medicine with another dose (:func:`redoses`: "User takes sertraline, 50mg."),
so the old dose, a core fact, is not shown beside the new one. Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..slots import holder
from .cues import is_negated
from .diagnoses import is_medicine
from .leads import CLINICIAN
from .patterns import rx

__all__ = ["DOSE", "as_new_dose", "dose_of", "redoses"]

DOSE = r"\d+(?:\.\d+)?\s*(?:mg|mcg|µg|ug|g|ml|units?|iu)\b"
"""A dose as written: a number and its unit ("50mg", "0.5 mg", "20 units")."""
_CHANGED = (r"(?:upped|raised|increased|bumped\s+up|put\s+up|doubled|lowered|reduced|decreased|cut|dropped|halved|"
            r"changed|adjusted|moved|went\s+up|gone\s+up|went\s+down|gone\s+down)")
_WHO = rf"(?:(?:my|the|our)\s+)?(?:new\s+)?(?:{CLINICIAN})|she|he|they|i"
# What may follow the dose: nothing, a time word, or a question / aside after a comma ("..., anything to watch for").
_REST = rx(r"^(?:\s+(?:now|today|yesterday|last\s+\w+|this\s+\w+|a\s+day|daily|once\s+a\s+day))?\s*(?:[,;.!-].*)?$")
# "my doctor upped the sertraline to 100mg", "upped my sertraline to 100mg", "GP's increased my metformin to 1000mg"
_SOMEONE_CHANGED = rx(
    rf"^(?:(?P<who>{_WHO})(?:'s|\s+has|\s+have|'ve)?\s+)?(?:(?:just|finally|now|also)\s+)?{_CHANGED}\s+"
    rf"(?:(?:my|the)\s+)?(?P<drug>[a-z][\w-]*(?:\s+[a-z][\w-]*)??)(?:\s+dose|\s+dosage)?\s+(?:up\s+|down\s+)?to\s+"
    rf"(?P<dose>{DOSE})(?P<rest>.*)$"
)
# "my levothyroxine dose got upped to 75mcg", "the sertraline went up to 100mg", "metformin's been cut to 500mg"
_DRUG_CHANGED = rx(
    rf"^(?:(?:my|the)\s+)?(?P<drug>[a-z][\w-]*(?:\s+[a-z][\w-]*)??)(?:\s+dose|\s+dosage)?"
    rf"(?:'s|\s+(?:got|was|has\s+been|'s\s+been|is\s+being|just|finally))*\s+{_CHANGED}\s+(?:up\s+|down\s+)?to\s+"
    rf"(?P<dose>{DOSE})(?P<rest>.*)$"
)


def as_new_dose(clause: str, known: Sequence[str] = ()) -> list[str] | None:
    """``clause`` (stripped of its lead) restated as the user's new dose of a medicine ("I take sertraline, 100mg
    now") when it tells a dose raised, lowered or changed; ``None`` otherwise ("I upped my running to 10k", "my
    rent went up to 900"). ``known`` is unused: every restater of :mod:`.told_endings` takes it.

    >>> as_new_dose("my doctor upped the sertraline to 100mg")
    ['I take sertraline, 100mg now']
    """
    m = _SOMEONE_CHANGED.match(clause.strip()) or _DRUG_CHANGED.match(clause.strip())
    if m is None or not _REST.match(m.group("rest")):
        return None
    drug = m.group("drug")
    if not is_medicine(drug):
        return None
    dose = re.sub(r"\s+", "", m.group("dose"))
    return [f"I take {drug}, {dose} now"]


_DOSED = rx(rf"\b(?P<dose>{DOSE})")


def dose_of(fact: str) -> str | None:
    """The dose a fact names ("User takes sertraline, 50mg." -> "50mg"), spaces dropped, lower case; ``None``."""
    m = _DOSED.search(fact)
    return re.sub(r"\s+", "", m.group("dose")).lower() if m is not None else None


# "User takes sertraline, 50mg.", and the start of it told: "User's rheumatologist started the user on allopurinol
# 100mg.", "User was put on metformin 500mg.", "User started taking sertraline 50mg."
_TAKES = rx(
    rf"^User(?:'s\s+(?:new\s+)?(?:{CLINICIAN}|\w+ologist)\s+(?:has\s+)?(?:started|put)\s+the\s+user\s+on|"
    r"\s+(?:takes|is\s+on|uses|injects|(?:has\s+)?started(?:\s+taking)?|(?:was|has\s+been)\s+(?:put|started)\s+on))"
    r"\s+(?P<drug>[a-z][^,\d]*?)\s*(?:,|\d|\.?$)"
)


def redoses(new: str, old: str) -> bool:
    """Whether ``new``, the user's dose of a medicine, replaces ``old``, the user's other dose of the same medicine."""
    now, before = _TAKES.match(new), _TAKES.match(old)
    if now is None or before is None or now.group("drug").lower() != before.group("drug").lower():
        return False
    if not is_medicine(now.group("drug")) or is_negated(new) or is_negated(old):
        return False
    dose, was = dose_of(new), dose_of(old)
    return dose is not None and was is not None and dose != was and holder(new) == holder(old) == "user"
