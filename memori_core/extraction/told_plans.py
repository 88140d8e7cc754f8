"""Plans and news of the user's told the usual chat way, as the plain statements the rules read.

- An appointment got or booked for a day ("Got the Ausländerbehörde appointment for October 6 at 9am!", "booked a
  dentist appointment for Tuesday") is one the user has: "I have an Ausländerbehörde appointment on October 6 at 9am".
- An event of the user's typed as a fragment with its day ("gig at the deaf institute on friday, first one since
  the wrist!", "interview at Google next Tuesday") is one they have: "I have a gig at the deaf institute on friday".
- A deadline someone set the user ("My supervisor Professor Weber wants a draft of my second chapter by October 9")
  is one the user has: "I need to get a draft of my second chapter to my supervisor Professor Weber by October 9"
  (:mod:`.deadlines` writes its day out).
- A change approved by someone, from a day to come ("my manager approved my switch to day shifts, starting November
  2") is the user's plan: "I'm switching to day shifts on November 2" (kept until that day is over: it ends the
  stored shift pattern only when told as done).
- A home found, with the day the user moves in ("found a cheaper room in chorlton, moving on saturday", "I found a
  new flat in Wedding, moving in on October 1st") is the move planned for that day: "I'm moving to a cheaper room in
  Chorlton on saturday" (kept until that day is over; it ends no home before then).
- A pet a home is shared with ("just me and a cat"): "I have a cat" (a person, "just me and one flatmate", is left
  as said).
- A pet named without "my" ("the cat is called Pastel"): "my cat is called Pastel".
- A move told as done without a place ("ok all moved in"), read while a stored fact names the home found or the
  move planned: "I moved to Wedding" (:mod:`.bare_plans` reads a planned move the same way).

Each reading needs its whole shape (a question, a negation, a day that is not one, or someone else's plan is left as
it is). Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..calendar_words import ANY_MONTH as _MONTH
from ..slots import PERSON
from .activities import PETS
from .dates import WEEKDAY
from .job_change import is_first_shift
from .leads import strip_lead
from .patterns import CAPITAL_WORD, I_AM, rx

__all__ = ["as_told_plans"]

# A day a plan is for, and nothing after it but its time: "on friday", "October 6 at 9am", "next Tuesday", "tomorrow".
_DAY = (
    rf"(?:(?:on\s+)?(?:(?:this|next|this\s+coming)\s+)?{WEEKDAY}|tomorrow|tonight|today|this\s+(?:morning|afternoon|"
    rf"evening|weekend)|next\s+week(?:end)?|(?:on\s+)?(?:{_MONTH})\s+\d{{1,2}}(?:st|nd|rd|th)?|(?:on\s+)?(?:the\s+)?"
    rf"\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?\s+(?:{_MONTH})|(?:on\s+)?the\s+\d{{1,2}}(?:st|nd|rd|th))"
    r"(?:\s+(?:at\s+)?\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)|\s+(?:morning|afternoon|evening|night))?"
)
_END = r"\s*[.!]*$"
_NAME = r"[\w'\u00c0-\u017f-]+"

# "Got the Ausländerbehörde appointment for October 6 at 9am!", "finally booked a dentist appointment for Tuesday",
# "got an appointment with the GP on Friday": an appointment the user has, from the day it was got.
_BOOKED = rx(
    r"^(?:i\s+(?:have\s+|'ve\s+)?)?(?:just\s+|finally\s+|also\s+)?(?:got|booked|made|scored|managed\s+to\s+(?:get|book))"
    rf"\s+(?:a|an|the|my)\s+(?P<what>(?:{_NAME}\s+){{0,2}}?)(?:appointment|appt)"
    rf"(?P<with>\s+(?:at|with)\s+(?:the\s+|my\s+|a\s+)?{_NAME}(?:\s+{_NAME}){{0,2}}?)?\s+(?:for|on)\s+"
    rf"(?P<when>{_DAY}){_END}"
)
# What is the user's own to have on a day, typed as a fragment: "gig at the deaf institute on friday", "job interview
# next Tuesday", "driving test tomorrow at 10am". Not "the game on Sunday" (someone else's, or watched).
_EVENT = (r"gig|concert|recital|exam|interview|audition|appointment|appt|surgery|operation|check-?up|scan|flight|"
          r"presentation|viva|race|hearing|shift|test|meeting")
_FRAGMENT = rx(
    rf"^(?:(?:my|a|our)\s+)?(?P<event>(?:(?!(?:no|not|any|every|each|the|this|that|which|what|your)\b){_NAME}\s+)"
    rf"{{0,2}}?(?:{_EVENT}))\s+(?P<where>(?:at|in|with|for)\s+[^,;!?]+?\s+)?(?P<when>{_DAY})\s*(?:[,;!.].*)?$"
)
# "My supervisor Professor Weber wants a draft of my second chapter by October 9", "my boss needs the slides by
# Friday": a deadline someone set the user.
_SETTERS = (rf"{PERSON}|supervisor|advis[eo]r|professor|lecturer|tutor|teacher|manager|editor|client|landlord|"
            r"accountant|solicitor|lawyer|coach|team|department|school|uni|university|council|bank")
_WANTS_BY = rx(
    rf"^my\s+(?P<who>(?:[\w'-]+\s+)?(?:{_SETTERS})(?:\s+(?-i:[A-Z])[\w'\u00c0-\u017f-]+){{0,3}})\s+(?:wants|needs|"
    rf"expects|asked\s+for|is\s+expecting)\s+(?P<what>(?!(?:me|us|to|it|that|this)\b)[^,;!?]+?)\s+by\s+(?P<when>{_DAY}){_END}"
)
# "my manager approved my switch to day shifts, starting November 2", "HR signed off on my transfer to the Leeds
# office from March 3": a change from a day to come.
_CHANGES = {"switch": "switching", "transfer": "transferring", "move": "moving", "change": "changing"}
_APPROVED = rx(
    r"^(?:my\s+|our\s+|the\s+)?(?:[\w'-]+\s+){0,3}?(?:approved|okayed|ok'd|signed\s+off\s+on|agreed\s+to|"
    rf"said\s+yes\s+to)\s+my\s+(?P<change>{'|'.join(_CHANGES)})\s+(?P<to>to\s+[^,;.!?]+?)\s*,?\s+"
    rf"(?:starting|from|beginning|as\s+of|effective)\s+(?P<when>{_DAY}){_END}"
)
_HOME = r"(?:flat|apartment|house|room|place|studio|flatshare|houseshare|home|bungalow|cottage|condo)"
# "found a cheaper room in chorlton", "I found a new flat in Wedding": the home found, and where.
_FOUND = rx(
    rf"^(?:(?:i|we)\s+(?:have\s+|'ve\s+)?)?(?:just\s+|finally\s+)?found\s+(?P<home>(?:a|an)\s+(?:[\w'-]+\s+){{0,2}}?"
    rf"{_HOME})\s+(?:in|near)\s+(?P<place>{_NAME}(?:\s+{_NAME})?){_END}"
)
# "moving on saturday", "moving in on October 1st", "and we move in next week": the day the move to it is.
_MOVING_ON = rx(
    rf"^(?:(?:and|so)\s+)?(?:(?:i'm|we're|i\s+am|we\s+are)\s+)?(?:moving|move|moves)(?:\s+in)?\s+(?P<when>{_DAY}){_END}"
)
# "just me and a cat", "just me and one flatmate", "only me and my dog": who the home is shared with.
_JUST_ME_AND = rx(rf"^(?:just|only)\s+(?:me|us)\s+and\s+(?P<who>(?:a|an|one|two|my|the)\s+(?:[\w'-]+\s+)?(?:{PETS}))"
                  r"\s*[.!]*$")
# "the cat is called Pastel", "the dog's name is Rex": the user's pet, named.
_PET_NAMED = rx(
    rf"^the\s+(?P<pet>{PETS})(?:\s+is\s+called|\s+is\s+named|'s\s+called|'s\s+name\s+is|\s+name\s+is)\s+"
    rf"(?P<name>{CAPITAL_WORD}|[a-z][\w'-]+)\s*[.!]*$"
)
# "ok all moved in", "finally moved in!", "all moved in now": a move done, its place unsaid.
_ALL_MOVED_IN = rx(r"^(?:(?:all|finally|now|officially|properly)\s+)+moved\s+in(?:\s+(?:now|at\s+last))?\s*[.!]*$")
# "User found a new flat in Wedding.", "User is moving to a cheaper room in Chorlton on ...", "User and Ken are moving
# to Whitby.": where a home to come is.
_HOME_TO_COME = re.compile(
    r"^User\s+(?:and\s+(?:their\s+)?[\w' -]+?\s+)?(?:found\s+(?:a|an)\s+(?:[\w'-]+\s+){0,2}?"
    rf"{_HOME}\s+(?:in|near)\s+|(?:is|are)\s+(?:moving|relocating)\s+(?:in)?to\s+(?:(?:a|an|the|their)\s+"
    rf"(?:[\w'-]+\s+){{0,2}}?{_HOME}\s+(?:in|near)\s+)?)"
    r"(?P<place>(?-i:[A-Z])[\w'\u00c0-\u017f-]+(?:\s+(?-i:[A-Z])[\w'\u00c0-\u017f-]+)?)\b"
)
# "I'm nervous", "so proud": a mood after news, a clause of its own.
_MOOD = rx(r"^(?:" + I_AM + r"\s+)?(?:so\s+|really\s+|a\s+bit\s+|kinda\s+|super\s+)?(?:nervous|excited|proud|"
           r"scared|worried|thrilled|stoked|terrified|anxious|relieved|emotional|gutted|chuffed)\s*[.!]*$")
_FIRST_PERSON = rx(r"^(?:i|i'm|i've|i'd|i'll|im|my|we|we're|we've|our|me)\b")
_TIME_WORD = rx(r"^(?:tomorrow|tonight|today|this|next)\b")


def _article(words: str) -> str:
    """"a" or "an" before ``words``."""
    return "an" if words[:1].lower() in "aeiou" else "a"


def _when(day: str) -> str:
    """``day`` as said after a verb: "on" before a day or a date ("on friday"), none before "tomorrow", "next
    week"."""
    day = day.strip()
    return day if _TIME_WORD.match(day) or day.lower().startswith("on ") else f"on {day}"


def _capitalised(place: str) -> str:
    """``place`` with each word capitalised, as a place is written ("chorlton" -> "Chorlton")."""
    return " ".join(w[:1].upper() + w[1:] for w in place.split())


def _home_to_come(known: Sequence[str]) -> str | None:
    """The one place the stored facts name as a home found or moved to next ("Wedding"), or ``None``."""
    places = {m.group("place") for text in known for m in [_HOME_TO_COME.match(text.strip())] if m is not None}
    return places.pop() if len(places) == 1 else None


def _part(part: str, parts: Sequence[str], known: Sequence[str]) -> list[str]:
    """One comma-separated ``part`` of a clause as the statements it tells (``parts``: the parts before it)."""
    said = part.strip()
    m = _BOOKED.match(said)
    if m is not None:
        what = " ".join(m.group("what").split())
        thing = f"{_article(what)} {what} appointment" if what else "an appointment"
        return [f"I have {thing}{m.group('with') or ''} {_when(m.group('when'))}"]
    m = _WANTS_BY.match(said)
    if m is not None and not parts:
        return [f"I need to get {m.group('what')} to my {m.group('who')} by {m.group('when')}"]
    m = _MOVING_ON.match(said)
    found = [f for f in (_FOUND.match(p.strip()) for p in parts) if f is not None]
    if m is not None and found:
        home = found[-1]
        return [f"I'm moving to {home.group('home')} in {_capitalised(home.group('place'))} {_when(m.group('when'))}"]
    m = _FOUND.match(said)
    if m is not None:
        return [f"I found {m.group('home')} in {_capitalised(m.group('place'))}"]
    m = _JUST_ME_AND.match(said)
    if m is not None:
        return [f"I have {m.group('who')}"]
    m = _PET_NAMED.match(said)
    if m is not None:
        return [f"my {m.group('pet').lower()} is called {_capitalised(m.group('name'))}"]
    if _ALL_MOVED_IN.match(said):
        place = _home_to_come(known)
        return [f"I moved to {place}"] if place is not None else [part]
    m = _FRAGMENT.match(said)
    if m is not None and not parts:
        event = " ".join(m.group("event").split())
        where = f" {m.group('where').strip()}" if m.group("where") else ""
        return [f"I have {_article(event)} {event}{where} {_when(m.group('when'))}"]
    return [part]


def as_told_plans(clauses: Sequence[str], known: Sequence[str] = ()) -> list[str]:
    """``clauses`` with a plan or a piece of news told the chat way (see the module's doc) as the plain statements
    the rules read, each its own clause; a clause with none, or a question, as it is. ``known``: the user's stored
    facts (where a home to come is, for "all moved in").

    >>> as_told_plans(["Got the Ausländerbehörde appointment for October 6 at 9am!"])
    ['I have an Ausländerbehörde appointment on October 6 at 9am']
    >>> as_told_plans(["moving AGAIN, found a cheaper room in chorlton, moving on saturday"])
    ['moving AGAIN', 'I found a cheaper room in Chorlton', "I'm moving to a cheaper room in Chorlton on saturday"]
    >>> as_told_plans(["ok all moved in, the cat is called Pastel"], ["User found a new flat in Wedding."])
    ['I moved to Wedding', 'my cat is called Pastel']
    """
    out: list[str] = []
    for clause in clauses:
        said = strip_lead(clause).strip()
        if "?" in said or is_first_shift(said):  # a new job told by its first shift: .job_change
            out.append(clause)
            continue
        m = _APPROVED.match(said)
        if m is not None:
            out.append(f"I'm {_CHANGES[m.group('change').lower()]} {m.group('to')} {_when(m.group('when'))}")
            continue
        parts = [p for p in re.split(r"\s*,\s*", said) if p.strip()]
        if len(parts) > 1 and _MOOD.match(parts[-1]) and not _FIRST_PERSON.match(parts[0]):
            # "Eli starts daycare next week, I'm nervous": the news, and a mood of its own (which passes)
            out += [", ".join(parts[:-1]), parts[-1]]
            continue
        read: list[str] = []
        for n, part in enumerate(parts):
            read += _part(strip_lead(part), parts[:n], known)
        out += read if read != [strip_lead(p) for p in parts] else [clause]
    return out
