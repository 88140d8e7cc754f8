"""A change someone else made to the user: "they finally moved me onto days", "the psychiatrist took me off
citalopram in October and put me on mirtazapine, 15mg at night".

The user is the object of the change verb, not its subject, so the rules that read "I switched to days" or "I
stopped taking citalopram" miss it. :func:`as_moved_me` says it as the user's own statement (a
:mod:`.told_endings` restater): a shift pattern the user was moved onto ("I'm on days now", which ends the stored
shift), or a medicine stopped and another started by whoever prescribes ("I stopped taking citalopram in October",
"I take mirtazapine, 15mg at night"). Pure: patterns, English only (issue 21, capprec6: read from dev18; dev9 has
the medicine shape, dev11 and dev17 shift changes in other words). A move the next clause says is over ("... but I'm
on days now") or told with a past time ("last year", "in the spring") is no shift of now (:func:`as_moved_before`;
issue 21, capfix40b).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..calendar_words import ANY_MONTH, ANY_WEEKDAY
from .leads import CLINICIAN
from .diagnoses import is_medicine
from .patterns import rx
from .shifts import shift_kind

__all__ = ["as_moved_before", "as_moved_me"]

_WHO = rf"(?:(?:they|she|he|work|(?:the|my|our)\s+(?:{CLINICIAN}|boss|manager|hospital|ward|rota|company|firm))(?:'ve|'s|\s+have|\s+has)?\s+)"
_SHIFTS = r"(?:days|nights|earlies|lates|(?:the\s+)?(?:day|night|early|late|evening)\s*-?\s*shifts?)"
_MOVED_ONTO_SHIFT = rx(rf"^{_WHO}?(?:(?:finally|just|now)\s+)?(?:moved|put|switched|transferred)\s+me\s+"
                       rf"(?:on|onto|to|over\s+to)\s+(?P<shift>{_SHIFTS})\b")
# A shift the user is not on now: one of the past ("they put me on nights last year but I'm on days now"), one to
# come ("from next month") or one for a while only ("for next week only, covering for Sam", "while Sarah is on
# leave"). A time after the first comma may say when the move began ("moved me onto days, started last week").
_UNITS = rf"(?:year|month|week|spring|summer|autumn|fall|winter|time|{ANY_WEEKDAY}|{ANY_MONTH})"
# A month or a season it happened in is of the past too: "in March", "in the spring" (after "put me on", a past verb).
_PAST_TIME = rx(rf"\b(?:last\s+{_UNITS}|(?:years?|months?|weeks?)\s+ago|back\s+(?:then|in)|"
                rf"in\s+(?:\d{{4}}|{ANY_MONTH}|(?:the\s+)?(?:spring|summer|autumn|fall|winter))|"
                r"over\s+the\s+(?:summer|winter))\b")
_NOT_NOW = rx(
    rf"\b(?:next|tomorrow|tonight|only|while|until|till|covering|cover\s+for|temporar(?:y|ily)|if|unless|"
    rf"from\s+(?:{ANY_WEEKDAY}|{ANY_MONTH}|the\s+\d)|this\s+(?:week|month|weekend)|"
    r"for\s+(?:a|the|two|three|\d+)\s+\w+)\b"
)
# The user's own shift of now, told in the clause after the move ("... but I'm on days now", "... but now I'm on
# earlies", "..., I work lates these days"): that move is of the past.
_MINE_NOW = rx(r"^(?:(?:but|and|so)\s+)?(?:now\s+|these\s+days\s+)?"
               r"(?:i'm|i\s+am|im|i\s+work|i've\s+been|i\s+have\s+been)\b"
               r"(?!.*\b(?:not|never|no\s+longer|anymore|any\s+more|used\s+to|tomorrow|tonight|next)\b)")
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
    >>> as_moved_me("they put me on nights last year"), as_moved_me("they moved me onto nights for next week only")
    (None, None)
    """
    m = _MOVED_ONTO_SHIFT.match(clause)
    if m is not None and not _NOT_NOW.search(clause[m.end():]) \
            and not _PAST_TIME.search(clause[m.end():].partition(",")[0]):
        shift = m.group("shift").lower().removeprefix("the ").replace("-", " ")
        return [f"I'm on {shift} now"]
    m = _OFF_AND_ON.match(clause)
    if m is not None and is_medicine(m.group("old")) and is_medicine(m.group("new")):
        return [f"I stopped taking {m.group('old')}{m.group('when') or ''}", f"I take {m.group('new')}{m.group('rest')}"]
    return None


def as_moved_before(clause: str, after: str) -> list[str] | None:
    """``clause``, a shift someone moved the user onto, said as the user's own shift of the past when the clause
    ``after`` it (the next of the same message) tells another shift they are on now ("my manager put me on nights"
    then "but I'm on days now": "I used to be on nights", as the user would say it plainly); ``None`` otherwise,
    and for a move :func:`as_moved_me` already reads as no shift of now ("they put me on nights last year").

    >>> as_moved_before("my manager put me on nights", "but I'm on days now")
    ['I used to be on nights']
    >>> as_moved_before("they moved me onto days", "I'm loving it")
    >>> as_moved_before("they put me on nights", "I'm on nights till June")
    """
    m = _MOVED_ONTO_SHIFT.match(clause)
    if m is None or as_moved_me(clause) is None or not _MINE_NOW.match(after.strip()):
        return None
    shift = m.group("shift").lower().replace("-", " ")
    now = shift_kind(after)
    return [f"I used to be on {shift}"] if now is not None and now != shift_kind(f"on {shift}") else None
