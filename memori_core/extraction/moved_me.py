"""A change someone else made to the user: "they finally moved me onto days", "the psychiatrist took me off
citalopram in October and put me on mirtazapine, 15mg at night".

The user is the object of the change verb, not its subject, so the rules that read "I switched to days" or "I
stopped taking citalopram" miss it. :func:`as_moved_me` says it as the user's own statement (a
:mod:`.told_endings` restater): a shift pattern the user was moved onto ("I'm on days now", which ends the stored
shift), or a medicine stopped and another started by whoever prescribes ("I stopped taking citalopram in October",
"I take mirtazapine, 15mg at night"). Pure: patterns, English only (issue 21, capprec6: read from dev18; dev9 has
the medicine shape, dev11 and dev17 shift changes in other words).
"""

from __future__ import annotations

from collections.abc import Sequence

from .leads import CLINICIAN
from .diagnoses import is_medicine
from .patterns import rx

__all__ = ["as_moved_me"]

_WHO = rf"(?:(?:they|she|he|work|(?:the|my|our)\s+(?:{CLINICIAN}|boss|manager|hospital|ward|rota|company|firm))(?:'ve|'s|\s+have|\s+has)?\s+)"
_SHIFTS = r"(?:days|nights|earlies|lates|(?:the\s+)?(?:day|night|early|late|evening)\s*-?\s*shifts?)"
_MOVED_ONTO_SHIFT = rx(rf"^{_WHO}?(?:(?:finally|just|now)\s+)?(?:moved|put|switched|transferred)\s+me\s+"
                       rf"(?:on|onto|to|over\s+to)\s+(?P<shift>{_SHIFTS})\b")
_OFF_AND_ON = rx(
    rf"^{_WHO}(?:(?:finally|just|now)\s+)?(?:took|taken|switched|moved|weaned|tapered)\s+me\s+off\s+(?:the\s+|my\s+)?"
    r"(?P<old>[\w-]+)(?P<when>\s+(?:in|on|last|this)\s+\w+)?,?\s+and\s+(?:put|started|moved|switched)\s+me\s+"
    r"(?:on|onto)\s+(?:the\s+)?(?P<new>[\w-]+)(?P<rest>[^.!?]*)"
)


def as_moved_me(clause: str, known: Sequence[str] = ()) -> list[str] | None:
    """``clause`` as the user's own statements of the change someone made to them, or ``None``.

    >>> as_moved_me("they finally moved me onto days, started last week")
    ["I'm on days now"]
    >>> as_moved_me("the psychiatrist took me off citalopram in October and put me on mirtazapine, 15mg at night")
    ['I stopped taking citalopram in October', 'I take mirtazapine, 15mg at night']
    >>> as_moved_me("they moved me onto the sofa"), as_moved_me("my mum put me on the train")
    (None, None)
    """
    m = _MOVED_ONTO_SHIFT.match(clause)
    if m is not None:
        shift = m.group("shift").lower().removeprefix("the ").replace("-", " ")
        return [f"I'm on {shift} now"]
    m = _OFF_AND_ON.match(clause)
    if m is not None and is_medicine(m.group("old")) and is_medicine(m.group("new")):
        return [f"I stopped taking {m.group('old')}{m.group('when') or ''}", f"I take {m.group('new')}{m.group('rest')}"]
    return None
