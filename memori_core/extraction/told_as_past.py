"""What the user told last, said to be over: "ok that was me in the spring. I'm back in Milan now", "that was last
year's problem", "that was before my company shifted me to Hyderabad".

The user points back at what they said ("that") and puts it in the past. The facts their previous turn stored
(:func:`~.pronoun_referents.newest_told`) no longer hold: the first fact of the user's own that this message tells takes
over those of them that speak of its slot (:func:`taken_over`), as a move takes over a home. Nothing ends when the
message tells no such fact (there is nothing to put in their place), nor a name, an age or someone else's fact. Pure,
English only (issue 21, capprec6: read from dev18; dev9, dev11 and dev14 have the same shape).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ..slots import holder, slots_of
from ..validate import check_str
from .cues import is_negated
from .types import ExtractedFact

__all__ = ["taken_over", "tells_the_past_over"]

# "that was me in the spring", "that was last year's problem", "that was before my company shifted me": the time
# puts the user's state then in the past. "that was two months ago" or "that was back in April" alone only dates what
# was said ("I work at Google." -> "that was two months ago and I'm loving it"): it ends nothing unless the user says
# it was them ("that was me years ago").
_PAST_OVER = re.compile(
    r"\b(?:that|this|all\s+that)\s+was\s+(?:last\s+year'?s?\b|back\s+then\b|before\s+(?:i|we|my|our)\b|"
    r"in\s+the\s+(?:spring|summer|autumn|fall|winter|past)\b)"
    r"|\bthat\s+was\s+(?:me|us)\s+(?:in|last|back|before|ages\s+ago\b|(?:\w+\s+)?(?:years?|months?|weeks?)\s+ago\b)",
    re.IGNORECASE,
)
# A role told with where it is held is a job, though its noun is in no list: "User is a lifeguard at the lido".
_ROLE_AT = re.compile(r"^User\s+is\s+an?\s+[\w-]+(?:\s+[\w-]+)?\s+(?:at|for|in)\b")
# Facts that do not end with what the user did then: a name, an age.
_LASTING = re.compile(r"^User(?:'s\s+(?:full\s+|first\s+|sur)?name\s+is\b|\s+is\s+\d+(?:\s+years\s+old)?[.!]?$)")


def tells_the_past_over(text: str) -> bool:
    """Whether the user message ``text`` says what they told before was so only then ("that was me in the spring").

    >>> tells_the_past_over("ok that was me in the spring. I'm back in Milan now")
    True
    >>> tells_the_past_over("that was a great film"), tells_the_past_over("that was me who asked")
    (False, False)
    >>> tells_the_past_over("that was two months ago and I'm loving it"), tells_the_past_over("that was back in April")
    (False, False)
    """
    check_str(text, "text")
    return _PAST_OVER.search(text) is not None


def _slots(text: str) -> frozenset[str]:
    return slots_of(text) | ({"job"} if _ROLE_AT.match(text) else frozenset())


def taken_over(told: Sequence[ExtractedFact], known: Sequence[tuple[str, str, object]],
               recent: Sequence[str]) -> list[ExtractedFact]:
    """``told`` with its first durable fact of the user's own superseding the user's facts of ``recent`` (the texts
    the previous turn stored; ``known``: ``(id, text, words)`` of the facts shown) that speak of one of its slots (a
    job takes over a job, a home a home, as a move ends a home; a fact of another slot told the turn before stays),
    but for a name or an age and a fact ``told`` says again."""
    out = list(told)
    first = next((n for n, f in enumerate(out) if f.expires_at is None and f.valid_from is None
                  and holder(f.text) == "user" and not is_negated(f.text)), None)
    if first is None:
        return out
    said = {f.text for f in out}
    slots = _slots(out[first].text)
    ended = tuple(fid for fid, text, _ in known if text in recent and text not in said and holder(text) == "user"
                  and not _LASTING.match(text) and fid not in out[first].supersedes and slots & _slots(text))
    if ended:
        out[first] = replace(out[first], supersedes=out[first].supersedes + ended)
    return out
