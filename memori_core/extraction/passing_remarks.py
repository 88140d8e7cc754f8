"""A "User ..." fact that is a remark of the moment, not something that lasts.

"I feel... normal? weird" -> "User feels.", "I cannot decide.", "I'll set an alarm for 6", "I'm weirdly emotional
about it", "I got lost twice", "we are too old for airports anyway": a feeling with nothing said of it, a
decision not yet made, a promise for the next hour, a mood about what was just said, a mishap of the day, a
quip, a figure of speech ("I bawled like a baby", "blind as a bat"), the body for a day ("I can barely do the
stairs"), a bare count ("we have 2"). Each reads as a fact when rewritten and none
is one a later conversation needs. Pure: patterns, English only.
"""

from __future__ import annotations

from ..number_words import number_words
from .patterns import rx

__all__ = ["is_passing_remark"]

_ADVERBS = r"(?:(?:just|so|really|weirdly|oddly|kinda|kind\s+of|a\s+bit|super|very|still|also|totally)\s+)*"
_PASSING_REMARK = rx(
    r"^User\s+(?:"
    # a feeling with at most one word said of it: "User feels.", "User feels normal."
    rf"{_ADVERBS}(?:feels|felt)(?:\s+\w+)?"
    # a decision not made yet: "User cannot decide.", "User can't choose."
    rf"|{_ADVERBS}(?:cannot|can't|can\s+not|could\s+not|couldn't)\s+(?:decide|choose|pick|make\s+up\s+their\s+mind)"
    # a promise of the moment: "User will set an alarm for 6."
    r"|will\s+(?:set|check|try|look|ask|call|ring|phone|text|email|grab|give\s+it|have\s+a\s+look)\b.*"
    # a mood about what was just said: "User is weirdly emotional about it."
    rf"|is\s+{_ADVERBS}(?:emotional|nervous|excited|anxious|sad|happy|stressed|worried|scared|gutted|thrilled|"
    r"chuffed|annoyed|upset)\s+(?:about|over)\s+(?:it|this|that|them)"
    # a mishap of the day: "User got lost twice."
    r"|(?:just\s+)?(?:got\s+\w+|[a-z]+ed)\s+(?:twice|once|again|three\s+times|a\s+few\s+times)"
    # a quip: "User is too old for airports anyway."
    rf"|is\s+{_ADVERBS}too\s+\w+\s+for\s+[^.]+?\s+anyway"
    # the body for a day: "User can barely do the stairs.", "User can hardly keep their eyes open."
    rf"|{_ADVERBS}(?:can|could)\s+(?:barely|hardly)\s+(?:walk|move|stand|sit|breathe|think|sleep|type|talk|"
    r"do\s+the\s+stairs|get\s+(?:up|out\s+of\s+bed)|keep\s+their\s+eyes\s+open|see\s+straight)\b.*"
    # resolve or a boast of the moment: "User is trying to be good.", "User knows their coffee."
    r"|is\s+trying\s+to\s+be\s+(?:good|healthy|better|careful|nice|sensible)|knows\s+their\s+\w+"
    # a count with nothing counted, an answer to what was asked: "User has 2."
    rf"|has\s+(?:\d+|{number_words('six')})"
    # a figure of speech: "User bawled like a baby.", "User is blind as a bat without their glasses."
    r"|(?:[^.]*?\s)?(?:like\s+a\s+(?:baby|log|rock|champ|charm|trooper|zombie|madman|maniac)|"
    r"(?:blind|deaf|stubborn|sick|fit|right|happy|busy|quiet|cool|daft|mad)\s+as\s+a\s+\w+)\b[^.]*"
    r")\s*[.!]*$"
)


def is_passing_remark(fact: str) -> bool:
    """Whether the "User ..." ``fact`` is a remark of the moment (see the module's doc).

    >>> is_passing_remark("User feels."), is_passing_remark("User feels lonely since the move.")
    (True, False)
    """
    return bool(_PASSING_REMARK.match(fact))
