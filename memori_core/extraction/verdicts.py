"""What the rule-based extractor decides for one sentence: a :class:`SentenceVerdict`, with one of the reasons below."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

__all__ = [
    "DROP_EMPTY",
    "DROP_ELLIPTICAL",
    "DROP_EPHEMERAL",
    "DROP_HYPOTHETICAL",
    "DROP_JOKE",
    "DROP_INSTRUCTION",
    "DROP_QUOTED",
    "DROP_NOT_FIRST_PERSON",
    "DROP_OPINION",
    "DROP_QUESTION",
    "DROP_SECOND_PERSON",
    "DROP_SMALL_TALK",
    "DROP_STORY",
    "DROP_TOO_LONG",
    "DROP_UNCLEAR",
    "DROP_UNRESOLVED",
    "KEPT_AS_SAID",
    "KEPT_EXPIRING",
    "KEPT_INTRODUCTION",
    "KEPT_REWRITTEN",
    "SentenceVerdict",
]

# The reason of a verdict: two for a kept sentence, the others for a dropped one.
KEPT_REWRITTEN = "rewritten as a User fact"
KEPT_AS_SAID = "kept as said"
DROP_EMPTY = "empty"
DROP_TOO_LONG = "too long"
DROP_QUESTION = "question"
DROP_SMALL_TALK = "greeting / thanks / small talk"
DROP_INSTRUCTION = "instruction or request to the assistant"
DROP_SECOND_PERSON = "about the assistant or the other person (you/your)"
DROP_HYPOTHETICAL = "hypothetical, wish or conditional"
DROP_OPINION = "opinion, not about the user"
DROP_NOT_FIRST_PERSON = "no first-person statement"
DROP_EPHEMERAL = "a passing state or moment (mood, 'today', 'right now')"
DROP_ELLIPTICAL = "says when something stopped, not what ('I quit in May')"
DROP_UNCLEAR = "no clean fact: as said it would be long, or in no known slot of the user's life"
DROP_UNRESOLVED = "points to what was said before ('my doctor suggested it', 'his flat') or to no one named"
DROP_QUOTED = "someone else's words, pasted for the assistant to work on ('summarise this email: ...')"
DROP_STORY = "a story, a dream or a game, not the user's own life ('In my dream I moved to Tokyo')"
DROP_JOKE = "said as a joke ('I'm moving to the moon, april fools', '... jk')"
KEPT_EXPIRING = "a plan or a passing mood: kept with an expiry"
KEPT_INTRODUCTION = "the user's name"


@dataclass(frozen=True)
class SentenceVerdict:
    """What the rule-based extractor decided for one sentence: the fact kept (``None`` if dropped) and why."""

    sentence: str
    fact: str | None
    reason: str
    expires_in: timedelta | None = field(default=None, repr=False)
    """For an appointment ("tomorrow at 3pm"): how long the fact stays true; ``None``: durable."""
    corrects: frozenset[str] = field(default=frozenset(), repr=False)
    """The stemmed words of what the sentence says was wrong, when its fact was cut out of a correction the
    rules read against the stored facts ("allergic to amoxicillin not penicillin": ``{"penicillin"}``)."""
