"""What someone of the user's loves, told with "he" / "she" after a question that names them: "any gift ideas for my
husband Tomasz? he's obsessed with fly fishing", "what's a good present for my grandad? he's 90 next month and
absolutely mad about snooker", "... Can you suggest a gift? He's into basketball".

The question is not kept, so the pronoun after it had no one to be and the sentence was dropped. When the message
named exactly one person of the user's (with "my" / "our") that the pronoun may be, :func:`as_asked_about` says the
clause of what they love with that person as its subject ("my husband Tomasz is obsessed with fly fishing"), the
rest of the sentence (an age to come, "already owns every gadget") left out. Only what they love or are into: what
else follows a question ("she's coming on Sunday") is news of the moment. Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..slots import PERSON, placed
from .genders import may_be
from .patterns import rx

__all__ = ["as_asked_about"]

_SOMEONE = rx(rf"\b(?:my|our)\s+(?P<who>{placed()}(?P<kin>{PERSON}))(?P<name>\s+(?-i:[A-Z])[a-z\u00e0-\u00ff'-]+)?\b")
# "he's obsessed with fly fishing", "she's gotten really into pottery", "he's 90 next month and absolutely mad about
# snooker": the pronoun, then (after a conjunct or not) what they love.
_LOVES = rx(
    r"(?:^\W*|,\s*)(?P<p>he|she)(?:'s|\s+is|\s+has\s+(?:gotten|got)|'s\s+(?:gotten|got))\s+(?:[^.?!]*?\s+and\s+)?"
    r"(?P<how>(?:(?:absolutely|really|super|totally|completely|so|very|seriously|properly|just)\s+)*"
    r"(?:obsessed\s+with|mad\s+about|crazy\s+about|nuts\s+about|passionate\s+about|into|a\s+(?:huge|big|massive)\s+fan\s+of))"
    r"\s+(?P<what>[^,.;!?]+?)"
    r"(?:\s+(?:this|last)\s+(?:year|month|week|summer|winter)|\s+lately|\s+these\s+days)?"
    r"(?:\s+(?:and|but|so)\s+(?:already|also|he|she|has|owns|is|was|doesn't|does|never|always|it|it's|we|we're|i|"
    r"i'm|they|his|her)\b[^.?!]*)?\s*[.!]*$"
)


def _the_one(sentences: Sequence[str], pronoun: str) -> str | None:
    """The one person of the user's ``sentences`` name ("husband Tomasz", "grandad") that ``pronoun`` may be,
    ``None`` when they name none or more than one."""
    people = {(m.group("who") + re.sub(r"'s$", "", m.group("name") or "")).strip()
              for s in sentences for m in _SOMEONE.finditer(s)}
    fitting = [p for p in people if may_be(pronoun, p.split()[0] if p.split()[0] not in (
        "older", "younger", "elder", "eldest", "oldest", "youngest", "little", "big", "twin") else p.split()[1],
        ungendered=True)]
    return fitting[0] if len(people) == 1 and len(fitting) == 1 else None


def as_asked_about(sentences: Sequence[str]) -> list[str]:
    """``sentences`` (one message's, in order) with a sentence of what "he" / "she" loves, in a message that asks something,
    said of the one person of the user's the message named before it; any other sentence as it is.

    >>> as_asked_about(["any gift ideas for my husband Tomasz?", "he's obsessed with fly fishing"])
    ['any gift ideas for my husband Tomasz?', 'my husband Tomasz is obsessed with fly fishing.']
    """
    out: list[str] = []
    asked = any("?" in s for s in sentences)  # a question or a request about them
    for n, sentence in enumerate(sentences):
        m = _LOVES.search(sentence.strip())
        before = sentence.strip()[:m.start()] if m is not None else ""
        who = _the_one([*sentences[:n], before], m.group("p").lower()) if m is not None and asked else None
        if who is None:
            out.append(sentence)
            continue
        if before.strip():  # "planning a surprise for my boyfriend Marco's birthday, he's ...": the first clause
            out.append(before.strip() + ".")
        how = re.sub(r"^(?:(?:absolutely|really|super|totally|completely|so|very|seriously|properly|just)\s+)+", "",
                     m.group("how"), flags=re.IGNORECASE)
        out.append(f"my {who} is {how} {m.group('what').strip()}.")
    return out
