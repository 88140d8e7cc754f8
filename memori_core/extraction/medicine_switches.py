"""A medicine swapped for another, told the chat way: the new one read as what the user takes, and the stored one it
replaces ended.

"my doctor swapped it for amlodipine 5 mg at my checkup" -> "I take amlodipine, 5 mg now"; "we're switching me over to
escitalopram 10mg, tapering off the sertraline" -> "I take escitalopram, 10mg now"; "the GP changed my ramipril to
losartan". The new fact ends the user's stored medicine the clause names ("my ramipril", "off the sertraline"), or,
told with a pointer ("swapped it", "switching me over"), the stored one of the same use
(:data:`~.medicine_classes.MEDICINE_USES`: lisinopril and amlodipine both lower blood pressure); a medicine of no
known use ends nothing told with a pointer. A second medicine added ("the GP added amlodipine") is no swap, and a
switch told with "from" ("switched me from warfarin to apixaban") is :func:`.restated.as_own_treatment`'s. Pure:
patterns, English only.
"""

from __future__ import annotations

import re

from ..slots import holder
from .cues import is_negated
from .diagnoses import is_medicine
from .doses import DOSE as _DOSE
from .leads import CLINICIAN, strip_lead
from .medicine_classes import MEDICINE_USES
from .patterns import rx

__all__ = ["as_medicine_switched", "ends_switched_medicine"]

_DRUG = r"[a-z][\w-]*"
# Who makes the switch: the user, "we", "they", a clinician, or no one named ("swapped it for ..."), at the start of
# the clause or of a part of it ("the ramipril gave me a cough so the GP swapped it for losartan").
_WHO = rf"(?:i|we|they|she|he|(?:my|the|our)\s+(?:new\s+)?(?:{CLINICIAN}))"
_SWAP = rx(
    rf"(?:^|[,;:]\s*|\s-\s*|\b(?:so|and|but|then)\s+|\b(?:{CLINICIAN})\s+(?=change\s+me\b))"
    rf"(?:{_WHO}(?:'re|'ve|'s|\s+are|\s+is|\s+has|\s+have)?\s+)?"
    r"(?:(?:just|finally|now|also)\s+)?"
    # "doctor change me to Januvia": the past typed as the bare verb, after a clinician (a non-native writer's)
    r"(?:swapped|swapping|switched|switching|changed|changing|moved|moving|replaced|replacing|"
    r"change(?=\s+me\s+(?:over\s+)?to\b))\s+"
    rf"(?P<what>it|them|me|(?:my|the)\s+(?P<old>{_DRUG}))\s+(?:over\s+)?(?:for|to|onto|with)\s+"
    rf"(?:(?:a|an|the)\s+)?(?P<drug>{_DRUG})(?:\s*,?\s*(?P<dose>{_DOSE}))?(?P<rest>.*)$"
)
# The stored medicine named elsewhere in the clause: "tapering off the sertraline", "coming off my citalopram".
_OFF = rx(rf"\b(?:off|from|instead\s+of)\s+(?:(?:the|my)\s+)?(?P<old>{_DRUG})")
# A stored fact of a medicine the user takes: "User takes 20 mg of lisinopril ...", "User has been on sertraline".
_TAKES = rx(r"^User\s+(?:\w+\s+)?(?:takes|is\s+on|has\s+been\s+on|is\s+taking|has\s+been\s+taking|uses)\s+(?P<what>.+)$")


def _swap(clause: str) -> re.Match[str] | None:
    """The swap ``clause`` tells, its new drug a medicine; ``None`` when it tells none."""
    m = _SWAP.search(strip_lead(clause).strip())
    return m if m is not None and is_medicine(m.group("drug")) else None


def as_medicine_switched(clause: str) -> str | None:
    """``clause`` restated as the medicine the user takes now ("I take amlodipine, 5mg now") when it tells one
    medicine swapped for another; ``None`` otherwise ("I swapped coffee for tea", "the GP added amlodipine").

    >>> as_medicine_switched("my doctor swapped it for amlodipine 5 mg at my checkup")
    'I take amlodipine, 5 mg now'
    """
    m = _swap(clause)
    if m is None or (m.group("old") and not is_medicine(m.group("old"))):
        return None
    dose = ", " + " ".join(m.group("dose").split()) if m.group("dose") else ""  # "5 mg" as typed: "5mg" is one word
    return f"I take {m.group('drug')}{dose} now"


def _uses(text: str) -> set[str]:
    """What the medicines ``text`` names are for."""
    return {use for use, names in MEDICINE_USES.items() if names.search(text)}


def ends_switched_medicine(clause: str, fact: str, stored: str) -> bool:
    """Whether ``fact`` ("User takes amlodipine, 5mg."), read from the swap ``clause`` tells, ends the user's stored
    medicine ``stored``: the one the clause names, or, told with a pointer, the one of the new medicine's use.

    >>> ends_switched_medicine("my doctor swapped it for amlodipine 5 mg", "User takes amlodipine, 5mg.",
    ...                        "User takes 20 mg of lisinopril every morning.")
    True
    >>> ends_switched_medicine("my doctor swapped it for amlodipine 5 mg", "User takes amlodipine, 5mg.",
    ...                        "User takes metformin 500mg twice a day.")
    False
    """
    m = _swap(clause)
    taken = _TAKES.match(stored)
    if m is None or taken is None or holder(stored) != "user" or is_negated(stored):
        return False
    new = m.group("drug").casefold()
    if new not in fact.casefold() or new in stored.casefold():
        return False  # another fact of the clause, or a dose of the same medicine (.doses)
    named = m.group("old") or next((o.group("old") for o in _OFF.finditer(m.group("rest"))
                                    if is_medicine(o.group("old"))), None)
    if named is not None:
        return re.search(rf"\b{re.escape(named)}\b", taken.group("what"), re.IGNORECASE) is not None
    return bool(_uses(new) & _uses(taken.group("what")))
