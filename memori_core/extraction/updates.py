"""A kept fact read with what the user has told before: the stored facts, and those of the message so far.

"btw I'm actually allergic to amoxicillin not penicillin" corrects the stored penicillin allergy: the fact is
"User is allergic to amoxicillin.", and it ends the one it corrects. "we've been together 2 years" is how long
the user has been with the partner the stored facts name ("User has been in a relationship with Jonas for 2
years."), a fact of the relationship a breakup ends. "I'm 30 weeks now" is how far along a pregnancy a stored
fact tells of is, on the day it was said, until the pregnancy must be over. "Sam and I have been friends for 10
years" is the user's friendship with Sam; "we've been friends for 10 years" names no one and is not kept. "I lost two
hives" or "I'm down to one" after "User has three hives." is the count left ("User has one hive.": :mod:`.counts`).
Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from ..number_words import number_words
from .dates import day_label
from .named import partner_of
from ..slots import holder
from .corrections import bare_correction
from .counts import count_left
from .cues import content_words, is_negated
from .verdicts import DROP_UNCLEAR, DROP_UNRESOLVED, KEPT_EXPIRING, SentenceVerdict

__all__ = ["WEEKS_PREGNANT", "read_with", "relationship_length"]


def _corrected(verdict: SentenceVerdict, told: Sequence[str]) -> SentenceVerdict:
    """``verdict`` without a correction typed at the end of its fact without a comma ("User is allergic to
    amoxicillin not penicillin." -> "User is allergic to amoxicillin."), when a fact of ``told`` of the same
    person holds what it says was wrong: that fact is what it ends (``corrects``). Any other verdict as it is
    ("User eats fish not meat." with nothing told of meat)."""
    assert verdict.fact is not None
    cut = bare_correction(verdict.fact)
    if cut is None:
        return verdict
    fact, wrong = cut
    if not any(wrong <= content_words(text) and holder(text) == holder(fact) for text in told):
        return verdict
    return replace(verdict, fact=fact, corrects=wrong)


# "User has been together 2 years.", "User has been married for 10 years.", "User has been dating since May.": how long
# the user and a partner have been together, told with "we" (rewritten as the user's).
_TOGETHER_FOR = re.compile(
    r"^User\s+has\s+been\s+(?:(?P<married>married)|together|dating|seeing\s+each\s+other|a\s+couple|an\s+item)"
    rf"(?:\s+for)?\s+(?P<length>(?:(?:\d+|a|an|{number_words('twelve')}|"
    r"a\s+few|a\s+couple\s+of|several|almost|nearly|over|about|around|just\s+over)\s+)+(?:years?|months?|weeks?)"
    r"|since\s+[\w' -]+?)(?:\s+now)?\s*[.!]*$"
)


def relationship_length(fact: str, told: Sequence[str]) -> str | None:
    """``fact`` ("User has been together 2 years.", from "we've been together 2 years") as how long the user has
    been with their partner, named when the stored facts or those of the message so far (``told``) name one
    ("User has been in a relationship with Jonas for 2 years."; "User has been married to Priya for 10 years."):
    a fact of the relationship, which a breakup ends. ``None`` for any other fact."""
    m = _TOGETHER_FOR.match(fact)
    if m is None:
        return None
    partner = partner_of(told, "")
    length = m.group("length")
    how_long = length if length.lower().startswith("since") else f"for {length}"
    if m.group("married"):
        return f"User has been married{f' to {partner}' if partner else ''} {how_long}."
    return f"User has been in a relationship{f' with {partner}' if partner else ''} {how_long}."


# How long the user has been friends with someone: "User and Sam have been friends for 10 years." (from "Sam and I
# have been ..."), said as the user's; "User has been friends for 10 years." (from "we've been ...") names no one.
_FRIENDS_WITH = re.compile(
    r"^User\s+and\s+(?P<who>[^.]+?)\s+have\s+been\s+(?P<kind>(?:(?:best|close|good|great|old)\s+)?friends)"
    r"(?P<rest>\s+(?:for|since)\b[^.]*?)?\s*[.!]*$"
)
_FRIENDS_NO_ONE = re.compile(
    r"^User\s+(?:has|have)\s+been\s+(?:(?:best|close|good|great|old)\s+)?friends(?!\s+with\b)"
    r"(?:\s+(?:for|since)\b[^.]*?)?(?:\s+now)?\s*[.!]*$"
)


def _friends(verdict: SentenceVerdict) -> SentenceVerdict:
    """``verdict`` of "Sam and I have been friends for 10 years" as the user's friendship ("User has been friends
    with Sam for 10 years."); "we've been friends for 10 years", naming no one, gives no fact (``DROP_UNRESOLVED``).
    Any other verdict as it is."""
    assert verdict.fact is not None
    if _FRIENDS_NO_ONE.match(verdict.fact):
        return replace(verdict, fact=None, reason=DROP_UNRESOLVED, expires_in=None)
    m = _FRIENDS_WITH.match(verdict.fact)
    if m is None:
        return verdict
    return replace(verdict, fact=f"User has been {m.group('kind')} with {m.group('who')}{m.group('rest') or ''}.")


# "User is 30 weeks now.", "User is 12 weeks pregnant.", "User is 20 weeks along today.": how far along a pregnancy
# is, on the day it is said.
_WEEKS_ALONG = re.compile(
    r"^User\s+is\s+(?:now\s+)?(?P<weeks>\d{1,2})\s+weeks(?P<said>\s+(?:pregnant|along))?"
    r"(?:\s+(?:now|today|already|this\s+week))*\s*[.!]*$"
)
WEEKS_PREGNANT = re.compile(r"^User\s+is\s+\d{1,2}\s+weeks\s+pregnant\s+\(as\s+of\s")
"""A fact of how far along the user's pregnancy was on a day (:func:`read_with`): a newer one replaces it."""
_PREGNANT = re.compile(r"\b(?:pregnan\w*|expecting)\b", re.IGNORECASE)
_TERM_WEEKS = 42
"""When a pregnancy is over at the latest, in weeks: a week count stops being news then."""


def _weeks_along(verdict: SentenceVerdict, told: Sequence[str], now: datetime) -> SentenceVerdict:
    """``verdict`` of "I'm 30 weeks now" as how far along the user's pregnancy was that day ("User is 30 weeks
    pregnant (as of Thursday 2026-09-24)."), kept until it must be over, when the sentence says "pregnant" or
    "along" or a fact of ``told`` says the user is expecting; dropped when nothing says what the weeks count
    (``DROP_UNCLEAR``). Any other verdict as it is."""
    assert verdict.fact is not None
    m = _WEEKS_ALONG.match(verdict.fact)
    if m is None:
        return verdict
    weeks = int(m.group("weeks"))
    expecting = any(_PREGNANT.search(text) and holder(text) == "user" and not is_negated(text) for text in told)
    if not (m.group("said") or expecting) or weeks >= _TERM_WEEKS:
        return replace(verdict, fact=None, reason=DROP_UNCLEAR, expires_in=None)
    fact = f"User is {weeks} weeks pregnant (as of {day_label(now.date())})."
    return replace(verdict, fact=fact, reason=KEPT_EXPIRING, expires_in=timedelta(weeks=_TERM_WEEKS - weeks))


def read_with(verdict: SentenceVerdict, told: Sequence[str], now: datetime) -> SentenceVerdict:
    """``verdict``, a kept fact, read with the facts the user told before (``told``: the stored ones and those of
    the message so far), said at ``now``: a correction typed without its comma cut from it when a told fact
    holds what it corrects, how long "we" have been together as the relationship's length, a week count of a
    pregnancy as that pregnancy's, a friendship as with whom, a loss as the count it leaves (see the module
    docstring). Any other verdict as it is."""
    if verdict.fact is None:
        return verdict
    verdict = _friends(_corrected(verdict, told))
    if verdict.fact is None:
        return verdict
    length = relationship_length(verdict.fact, told) if verdict.fact is not None else None
    if length is not None:
        return replace(verdict, fact=length)
    left = count_left(verdict.fact, told)
    if left is not None:  # "User lost two hives." after "User has three hives.": "User has one hive."
        return replace(verdict, fact=left)
    return _weeks_along(verdict, told, now)
