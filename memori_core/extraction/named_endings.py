"""An ending told by naming what ended: "I've left the navy" ends "User is a marine engineer in the Royal Navy.",
"Officially done with Cranfield" ends "User is doing an MSc in hydrology at Cranfield.", "dropped duolingo" ends "User
is learning Portuguese on Duolingo." (:func:`ends_named`), and the same ending typed without its "I" restated so the
rules keep it (:func:`bare_named_ending`).

What ended must be named by the stored fact, word for word, and the stored fact must be one a leaving ends: a job,
studies, a membership or a habit of the user's, or a fact naming it with its capitals (an organisation, a school, an
app). "left" says an ending only of an institution ("the navy", "the band") or of a name ("left Google"); "I left the
office at 6", "left the kids with my mum" and "dropped the kids off" end nothing. Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..calendar_words import MONTH_PREFIX as _MONTH
from ..slots import PERSON, holder
from .cues import content_words, is_negated
from .patterns import rx
from .slots import slots_of
from .stale_endings import finished_studies, studies_done, workplace_left

__all__ = ["bare_named_ending", "ends_named"]

# A workplace one also leaves at the end of a visit or a shift ("left the cafe, it was raining"): its leaving is an
# ending only with nothing after it, a when or why of leaving a job (:data:`_LEFT_FOR_GOOD`) or words of work.
_WORKPLACE = (r"bakery|cafe|café|restaurant|pub|salon|garage|warehouse|depot|factory|shop|store|pharmacy|nursery|"
              r"bank|hotel|kitchen|studio|lab|charity|call\s+centre|call\s+center")
_LEFT_FOR_GOOD = rx(
    r"^\s*(?:[.!?]*\s*$|for\s+good|after\s+(?:\d+|[a-z]+|a\s+few|many)\s+(?:years?|months?)|"
    r"(?:last|this)\s+(?:week|month|year|spring|summer|autumn|fall|winter|term)|(?:\w+\s+){1,2}ago|"
    r"to\s+(?:join|start|become|work|study|focus|go\s+(?:freelance|back)|pursue|retrain|train|care|look\s+after|"
    r"set\s+up))\b|^\s*[.!?]*\s*$"
)
_WORK_WORDS = rx(r"\b(?:pay|paid|wages?|salary|hours|shifts?|starts|boss|manager|rota|job|work\w*|career|started|"
                 r"starting|freelanc\w*|retrain\w*|apprentice\w*|phd|degree|notice|redundan\w*|burn(?:ed|t)\s+out|"
                 r"hired|contract|promot\w*|new\s+role|self-employed|own\s+business)\b")
# A body or group one belongs to, which "left the ..." says the user no longer does ("left the navy", "left the band").
_INSTITUTION = (r"navy|army|air\s+force|raf|marines|police|military|forces|fire\s+service|civil\s+service|band|choir|"
                r"orchestra|club|team|squad|union|company|firm|agency|practice|partnership|programme|program|course|"
                r"church|party|council|board|committee|"
                # a workplace one leaves for good ("left the bakery (those 4am starts ...)"); a place one is discharged
                # from or leaves daily ("left the hospital", "left the office") is none
                rf"{_WORKPLACE}")
# What ends the thing named: "left", "quit", "dropped", "ditched", "done with", "finished with", "walked away from".
_ENDING = (r"(?P<left>left)|quit|dropped|ditched|(?:is\s+|am\s+|'s\s+|'m\s+|i'm\s+|im\s+)?(?:done|finished)\s+with|"
           r"walked\s+away\s+from|stepped\s+down\s+from|retired\s+from")
# The words that end the thing's name: a time, a reason, what came next ("left the navy after 12 years").
_THING = (r"(?P<thing>(?-i:[A-Z])?[\w&-]+(?:\s+(?!(?:after|for|in|on|at|to|and|but|so|because|since|when|last|this|"
          r"yesterday|today|now|ago|off|by|out|up|back|down|with|over|early|late|finally|too|again|for\s+good)\b)"
          r"[\w&-]+){0,2})")
_NEW = rx(r"^User\s+(?:(?:has|had|have|just|finally|officially|also|now|recently|actually)\s+)*"
          rf"(?P<verb>{_ENDING})\s+(?:(?P<det>the|my|their|our)\s+)?{_THING}")
# The same told without its "I": "dropped duolingo", "officially done with Cranfield", "left the band in May".
_BARE = rx(r"^(?:(?:just|finally|officially|so|and|also|now|recently|actually)\s+)*"
           rf"(?P<verb>{_ENDING})\s+(?:(?P<det>the|my|our)\s+)?{_THING}(?P<rest>.*)$")
# What may follow a thing "left" for the leaving to be an ending, not a trip out ("I left Google at 5 today", "left the
# club early tonight", "left PureGym at 7 and went home"): nothing more in its clause, or a when or why of a leaving
# ("after nine years", "in June", "last month", "for good", "to join Meta", "because ...", "and I'm training as ...").
# A day alone may come first ("left the band yesterday", "User left Google on Friday 2026-08-07.").
_LEFT_SO = rx(
    r"^\s*(?:(?:today|yesterday|recently|finally|officially|on\s+\w+day(?:\s+\d{4}-\d\d-\d\d)?)\s*)*"
    r"(?:$|[.!?;,:()]|-|\u2014|(?:after|because|since|as|so|cos|cause|for\s+good|last\s+(?:week|month|year|spring|"
    r"summer|autumn|fall|winter|term)|this\s+(?:week|month|year|spring|summer|autumn|fall|winter|term)|"
    rf"in\s+(?:{_MONTH}|(?:early|late|mid)[\s-]+\w+|(?:the\s+)?(?:spring|summer|autumn|fall|winter)|\d{{4}})|"
    r"(?:\w+\s+){1,2}ago|to\s+(?:join|start|become|work|study|focus|go\s+(?:freelance|back)|take|pursue|retrain|"
    r"train|care|look\s+after|set\s+up)|and\s+(?!went|came|headed|drove|walked|got\s+(?:home|back)|caught)\w+)\b)"
)
# What "dropped my ..." ends: a course or class ("dropped my evening class"), not a thing held ("dropped my phone").
_STUDIED = rx(r"\b(?:course|class|classes|module|lessons|subscription|membership|degree|apprenticeship)$")
# A stretch of time after an ending says a pause, not an ending ("done with Durham for this term", "quit Notion for a
# sec", "done with Duolingo for today").
_FOR_A_WHILE = rx(
    r"^\s*for\s+(?:(?:the|this|a|an|one|another|the\s+rest\s+of\s+the)\s+)?(?:summer|spring|autumn|fall|winter|"
    r"term|semester|holidays?|break|day|today|tonight|now|week|weekend|evening|night|moment|sec|second|minute|bit|"
    r"while|month|year|time\s+being)\b"
)
# A stored fact a leaving ends: studies, a membership, a habit or pastime, a role on a team.
_HELD = rx(r"^User\s+(?:(?:still|currently|now|also)\s+)?(?:is\s+(?:doing|studying|learning|training|taking|"
           r"enrolled|a\s+member|in\s+the\s+\w+\s+year)|studies|learns|plays|attends|volunteers|trains|sings|belongs|"
           r"goes\s+to|uses|is\s+the\s+[\w-]+\s+(?:for|of|at|in))\b")
_NOT_A_THING = rx(rf"^(?:{PERSON}|kids?|him|her|them|it|that|this|me|us|home|house|flat|work|job)\b")
# The studies a stored fact names, with their field: "User is doing an MSc in hydrology at Cranfield." -> "MSc in
# hydrology".
_STUDIES = rx(r"^User\s+is\s+(?:doing|studying(?:\s+for)?|taking)\s+(?:an?\s+|my\s+|their\s+)?"
              r"(?P<degree>phd|doctorate|master's|masters|msc|ma|mba|ba|bsc|degree|diploma)(?P<field>\s+in\s+[^,.]+?)?"
              r"(?=\s+(?:at|from|with)\b)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_ASIDE = re.compile(r"\s*\([^()]*\)")
# Words too general to say which fact ended ("done with work", "dropped it").
_GENERAL = content_words("it that this thing stuff everything all one job work lot bit")


def _named(thing: str, left: bool) -> frozenset[str]:
    """The content words of ``thing`` when they name something a leaving ends ("navy", "Cranfield", "duolingo"); empty
    for a person, a place one leaves daily, a word too general, or after "left" anything but an institution or a
    capitalised name."""
    if _NOT_A_THING.match(thing):
        return frozenset()
    if left and not (re.match(rf"(?:{_INSTITUTION})\b", thing, re.IGNORECASE) or thing[:1].isupper()):
        return frozenset()
    return content_words(thing) - _GENERAL


def _an_ending(m: re.Match[str], rest: str) -> bool:
    """Whether the ending verb and thing of ``m``, followed by ``rest``, read as an ending: "left" with nothing after
    the thing or a when or why of a leaving (:data:`_LEFT_SO`), no stretch of time after it (:data:`_FOR_A_WHILE`), and
    "dropped" not of something of the user's ("dropped my iPhone today" is a fall; "dropped the course" an ending)."""
    verb = m.group("verb").lower()
    if _FOR_A_WHILE.match(rest):
        return False
    if verb == "dropped" and (m.group("det") or "").lower() in ("my", "their", "our") \
            and not _STUDIED.search(m.group("thing")):
        return False
    if m.group("left") is None:
        return True
    if re.match(rf"(?:{_WORKPLACE})\b", m.group("thing"), re.IGNORECASE):
        return bool(_LEFT_FOR_GOOD.match(rest) or (_LEFT_SO.match(rest) and _WORK_WORDS.search(rest)))
    return bool(_LEFT_SO.match(rest))


def _ended_by(thing: frozenset[str], raw: str, old: str) -> bool:
    """Whether the stored fact ``old`` is a state the named ``thing`` (as typed: ``raw``) held up: it holds every word
    of it and is a job, studies, a membership or habit of the user's, or names it with a capital; or ``raw`` is
    studies in general ("uni") and ``old`` the studies the user is doing (:func:`~.stale_endings.studies_done`), or a
    workplace ("the bakery") where ``old`` says the user works (:func:`~.stale_endings.workplace_left`)."""
    if studies_done(raw, old) or (re.fullmatch(rf"(?:{_INSTITUTION})", raw.strip(), re.IGNORECASE)
                                  and workplace_left(raw, old)):
        return True
    if not thing or not thing <= content_words(old) or holder(old) != "user" or is_negated(old) \
            or "residence" in slots_of(old):
        return False
    named_so = any(re.search(rf"\b{re.escape(w[0].upper() + w[1:])}\b", old) for w in re.findall(r"[\w&-]{2,}", raw))
    return named_so or "job" in slots_of(old) or bool(_HELD.match(old.strip()))


def ends_named(new: str, old: str) -> bool:
    """Whether the new fact ``new`` tells the user left, quit, dropped or is done with what the stored fact ``old``
    holds, named by its own words.

    >>> ends_named("User has left the navy after 12 years.", "User is a marine engineer in the Royal Navy.")
    True
    >>> ends_named("User is done with Cranfield.", "User is doing an MSc in hydrology at Cranfield.")
    True
    >>> ends_named("User left the office at 6.", "User works in an office in Leeds.")
    False
    """
    m = _NEW.match(new.strip())
    if m is None or is_negated(new) or not _an_ending(m, new.strip()[m.end():]):
        return False
    return _ended_by(_named(m.group("thing"), m.group("left") is not None), m.group("thing"), old)


def _restated(sentence: str, known: Sequence[str]) -> str | None:
    """One sentence of :func:`bare_named_ending` restated, or ``None``."""
    m = _BARE.match(sentence)
    if m is None or not _an_ending(m, m.group("rest")):
        return None
    thing = _named(m.group("thing"), m.group("left") is not None)
    ended = [text for text in known if _ended_by(thing, m.group("thing"), text)]
    if not ended:
        return None
    verb = " ".join(m.group("verb").split())
    finished = finished_studies(ended[0]) if len(ended) == 1 and studies_done(m.group("thing"), ended[0]) else None
    if finished is not None:  # "done with uni" after "User is doing a part-time MSc ... at Strathclyde."
        return finished
    studies = _STUDIES.search(ended[0]) if len(ended) == 1 and re.search(r"(?:done|finished)\s+with$", verb) else None
    if studies is not None:  # "done with Cranfield": the studies there finished, as "I finished my MSc ..." says
        return f"I finished my {studies.group('degree')}{studies.group('field') or ''} at {m.group('thing')}{m.group('rest')}"
    said = "I'm done with" if verb.endswith("done with") else "I'm finished with" if verb.endswith("finished with") \
        else "I gave up" if verb in ("dropped", "ditched") else f"I {verb}"  # "I dropped it": a moment, read so
    # a reason in brackets is an aside ("left the bakery (those 4am starts were killing me)")
    return f"{said} {_ASIDE.sub('', sentence[m.end('verb'):]).strip()}"


def bare_named_ending(clause: str, known: Sequence[str]) -> list[str] | None:
    """``clause`` (its lead cut), an ending typed without its "I" ("dropped duolingo", "Officially done with
    Cranfield."), restated in the first person ("I dropped duolingo") when a stored fact of the user's names what
    ended (:func:`ends_named` would end it), the clause's other sentences left as they are; ``None``
    otherwise.

    >>> bare_named_ending("took your advice. dropped duolingo", ["User is learning Portuguese on Duolingo."])
    ['took your advice.', 'I gave up duolingo']
    """
    sentences = _SENTENCE_END.split(clause)
    said = [_restated(sentence, known) for sentence in sentences]
    if all(out is None for out in said):
        return None
    return [sentence if out is None else out for sentence, out in zip(sentences, said)]
