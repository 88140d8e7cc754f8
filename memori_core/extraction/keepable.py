"""The last look at a fact the rules kept: would a careful person write it into memory in this shape?

The rules read a sentence clause by clause; where they read only part of it they keep the rest as said. What comes
out then has a shape no careful note-taker writes, whatever its words (:func:`refused_shape`):

- a pointer to what was said before and is not in the fact: "it" in its first clause ("User will sleep on it over
  the weekend."; after a comma "it" may be what the first clause named: "... knee, doctor says it's a sprain"),
  "there" ("User rides their motorbike there, 20 minutes."). Not "here": the place the user is, mostly with
  a true fact beside it ("User's husband and their two cats are with them here.");
- "one" or "them" standing for what was said before ("User can't look at another one.", "User can't see their own
  hand without them.");
- a hedge that makes it a remark of the moment: "at this point", "at least" at its end, "tho," before more chat,
  "just curious" ("User is a professional napper at this point.", "User is staying put tho, winnipeg forever.");
- a second statement with its own subject, joined by "and", "so" or "but" ("User has a 2015 Toyota Vios and the
  aircon is not so cold."), or a consequence after "so" ("User's husband is lactose intolerant so cooking at
  theirs is an adventure."). A consequence is cut off (:func:`tidied`: "User's husband is lactose intolerant."),
  unless too little is left to say anything ("User is one." of "User is one so be nice."); a second statement
  refuses the fact, for a statement cut short may be a fact a change in the same turn was read against whole.

A fact that ends a stored one is not refused (the rules read a change in it, and refusing it would leave the old fact
valid); the caller checks that. :func:`tidied` also cuts a chat particle left at a fact's end ("User works in a
hospital in Dubai for 3 years na.").

Pure, English only.
"""

from __future__ import annotations

import re

from ..validate import check_str

__all__ = ["refused_shape", "tidied"]

_BRACKETED = re.compile(r"\([^)]*\)")
# "it" in a set phrase that says all there is: a break-up ("called it a day", "called it quits", "it's over"), or
# "it" given its name ("named it Pickle", "called it Bob"): the fact says what it is called.
_IT_IN_A_SET_PHRASE = re.compile(
    r"\bcall(?:ed|s|ing)?\s+it\s+(?:a\s+day|quits|off)\b|\bit'?s\s+over\b"
    r"|\b(?:named|called|calls|names)\s+it\s+(?=[A-Z])"
)
_IT = re.compile(r"\bit\b")  # lower case: not "an IT company"
# "there" as a place said before; not where it names one ("there in Leeds") nor "there is" / "there's" (what exists).
_THERE = re.compile(
    r"\bthere\b(?!\s+(?:in|on|at)\s+[A-Z])(?!\s*(?:'s|'re|'ll|is|are|was|were|wasn't|weren't|isn't|aren't|will|"
    r"would|has|have|had|may|might|must|could|should|seems?|used)\b)",
    re.IGNORECASE,
)
# "one" or "them" standing for a thing said before: "User can't look at another one.", "User doesn't have one yet.",
# "User likes the ones with a fort at the top.", "User can't see their own hand without them." ("with them" is
# mostly the user: "User's parents live with them in Multan.").
_ONE_SAID_BEFORE = re.compile(
    r"\b(?:another|the\s+other)\s+one\b(?!\s+(?:of|on\s+the\s+way|coming|due)\b)|\bones?\s+yet\b|\bthe\s+ones\s+(?:with|that|who|which|where)\b"
    r"|\bwithout\s+them\b", re.IGNORECASE)
# A hedge that makes a statement a remark of the moment: "User is a professional napper at this point.", "User kept
# the apartment at least.", "User is staying put tho, winnipeg forever.", "..., just curious".
_HEDGED = re.compile(
    r"\b(?:at\s+this\s+point|at\s+least)(?=[.!]*$)|\b(?:tho|though)\s*,|\bjust\s+curious\b", re.IGNORECASE)
# How reachable the user will be for a while ("I'll be a bit quiet", "I'll be offline for a few days"): a remark of
# the moment (issue 21, capstale5: dev17).
_QUIET_A_WHILE = re.compile(
    r"^User\s+(?:will|'ll|is\s+going\s+to)\s+be\s+(?:a\s+(?:bit|little)\s+|quite\s+|very\s+|pretty\s+|so\s+)?"
    r"(?:quiet|busy|offline|slow\s+to\s+(?:reply|respond|answer)|afk|mia|unreachable|out\s+of\s+touch)"
    r"(?:\s+for\s+(?:a\s+)?(?:bit|while|few\s+days|fortnight|week|couple\s+of\s+\w+))?[.!]*$",
    re.IGNORECASE)
# A second subject with its own verb after "and", "so" or "but": "... and the aircon is not so cold".
_SECOND_STATEMENT = re.compile(
    r",?\s+(?:and|so|but)\s+(?:the|mi|he|she|they|it)\s+(?:[\w'-]+\s+){0,2}?"
    r"(?:is|are|was|were|has|have|had|wants|says|said|gone|got)\b"
)
# "so" between two clauses ("... intolerant so cooking at theirs is ...", "User is one so be nice."); not "so far",
# "so much", "so many", "so that", nor "so" after a verb it strengthens ("are so excited", "not so cold").
_SO_THEN = re.compile(r"(?<=\w),?\s+so\s+(?!(?:far|much|many|that)\b)(?=[a-z])")
_SO_STRENGTHENS = re.compile(
    r"(?:\b(?:is|are|was|were|am|be|been|being|not|feel|feels|felt|look|looks|looked|seem|seems|seemed|get|gets|"
    r"got|getting|become|became|stay|stays|sound|sounds)|'s|'re|'m)$"
)
# Fewer words than this left of a statement once what was joined on is cut say nothing ("User is one.").
_MIN_WORDS_LEFT = 4
# Particles of chat left at a fact's end, never a word of its content: Malay / Singlish "lah", "liao", "lor", "leh",
# Tagalog "na", "po".
_PARTICLE_AT_END = re.compile(r"\s+(?:lah|liao|lor|leh|na|po)(?=[.!]*$)")


def refused_shape(fact: str, *, told_before: bool = False) -> str | None:
    """Why a careful person would not keep ``fact`` (a rewritten "User ..." fact), :func:`tidied`, or ``None``.
    ``told_before``: the same message kept a fact before this one, which a pointer may name ("I got a job offer from
    Google. I turned it down."): the pointer is then no reason.

    >>> refused_shape("User is one so be nice."), refused_shape("User is 34.")
    ('too short once what was joined on is cut', None)
    >>> refused_shape("User has a 2015 Toyota Vios and the aircon is not so cold.")
    'a second statement joined on'
    >>> refused_shape("User will sleep on it over the weekend."), refused_shape("User rides their motorbike there.")
    ('a pointer to what was said before', 'a pointer to what was said before')
    >>> refused_shape("User and Tama called it quits."), refused_shape("User is a nurse at an IT company in Hinjewadi.")
    (None, None)
    >>> refused_shape("User twisted their knee, the doctor says it's a sprain.") is None
    True
    >>> refused_shape("User has come far, but there's more to do."), refused_shape("User has friends there.")
    (None, 'a pointer to what was said before')
    >>> refused_shape("User is Mei Ling, 29, nurse at Sunway Medical, vegetarian.") is None  # a list: true facts
    True
    """
    check_str(fact, "fact")
    kept = tidied(fact)
    unbracketed = _BRACKETED.sub("", kept)
    first_clause = re.split(r"[,;]", unbracketed, maxsplit=1)[0]  # after it "it" may be what the clause named
    if not told_before and (_IT.search(_IT_IN_A_SET_PHRASE.sub("", first_clause)) or _THERE.search(unbracketed)):
        return "a pointer to what was said before"
    if _ONE_SAID_BEFORE.search(unbracketed):
        return "a pointer to what was said before"
    if _HEDGED.search(unbracketed) or _QUIET_A_WHILE.match(unbracketed.strip()):
        return "a remark of the moment"
    if _SECOND_STATEMENT.search(unbracketed):
        return "a second statement joined on"
    if kept != _PARTICLE_AT_END.sub("", fact) and len(kept.split()) < _MIN_WORDS_LEFT:
        return "too short once what was joined on is cut"
    return None


def tidied(fact: str) -> str:
    """``fact`` cut before a consequence joined on with "so", without a chat particle left at its end.

    >>> tidied("User's husband is lactose intolerant so cooking at theirs is an adventure.")
    "User's husband is lactose intolerant."
    >>> tidied("User works in a hospital in Dubai for 3 years na."), tidied("User lives in Manila.")
    ('User works in a hospital in Dubai for 3 years.', 'User lives in Manila.')
    >>> tidied("User and their wife are both vegetarian."), tidied("User has run so far this year.")
    ('User and their wife are both vegetarian.', 'User has run so far this year.')
    >>> tidied("User's kids are so excited about summer break.")
    "User's kids are so excited about summer break."
    """
    joined = next((m for m in _SO_THEN.finditer(fact) if not _SO_STRENGTHENS.search(fact[:m.start()])), None)
    if joined is not None:
        fact = fact[:joined.start()].rstrip(" ,;:-") + "."
    return _PARTICLE_AT_END.sub("", fact)
