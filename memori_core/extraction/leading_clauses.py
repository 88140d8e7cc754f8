"""A statement told behind a clause or phrase of when: "Since I resigned from the bank in November I have been
putting everything into my farm", "ever since I moved to York I've been cycling more", "After the GP appointment
I've ditched dairy", "For the purposes of the projection, I am 44". Read whole, the sentence was kept as said or
rewritten with its lead ("For the purposes of the pension projection, User is 44 years old ..."), and the change in
the "since" clause ended nothing. A "since" clause of the user's is a statement of its own (the change it tells ends
what it ends); a lead phrase without "I" only says when or why, and is left out. "back when I worked at Tesco I
hated the early shifts" tells the job as past ("I used to work at Tesco", which ends the stored job there) and the
statement after it. Pure: patterns, English only.
"""

from __future__ import annotations

import re

from ..calendar_words import MONTH_STARTS
from .grammar import is_past
from .patterns import rx

__all__ = ["split_leading"]

_MAIN = r"(?:i|i'm|i've|i'd|i'll|im|ive|we|we're|we've)\b"
# "since i moved in with my boyfriend in glasgow whats the cheapest way to heat ...": a question after the lead.
_QUESTION = r"(?:what|what's|whats|how|where|which|who|why|when|any|anything|can|could|should|would|is|are|do|does)\s"
# "Since I resigned from the bank in November I have been ...": the user's own past, then what holds since.
_SINCE_I = rx(
    r"^(?:ever\s+)?since\s+(?P<lead>(?:i|we)\s+(?P<verb>[a-z]+)\b.*?)\s*,?\s+(?P<main>(?:" + _MAIN + "|" + _QUESTION
    + r").+)$"
)
# "My sister-in-law is visiting next week, and since we moved out to Boise we only have the one guest room": the same
# "since" clause after a clause of its own.
_AND_SINCE = rx(r"^(?P<before>.+?)\s*,\s*(?:and|but|so)\s+(?P<since>(?:ever\s+)?since\s+(?:i|we)\s+.+)$")
# "back when I worked at Tesco I hated the early shifts": a job, home or state of the user's told as past, which
# ends the stored one that holds its words ("I used to work at Tesco").
_BACK_WHEN = rx(
    r"^back\s+when\s+(?:i|we)\s+(?P<verb>worked|lived|drove|taught|rented|owned)\s+"
    r"(?P<what>[^,]+?)\s*,?\s+(?P<main>(?:" + _MAIN + "|" + _QUESTION + r").+)$"
)
# "work's new hybrid policy means I'm only in the office Tuesdays", "new roster means I'm knocking off at 3": what it
# means for the user is a statement of its own, the cause with no "I" left out. A lead with a clause of its own ("I
# moved, which means I ...") or of what the user is ("Being a paralegal means I read forty records a day": kept as
# said, its job read apart only where the sentence would have been, an inference the sets' gold did not make) is left
# whole.
_MEANS = rx(
    r"^(?P<before>[^,]*,\s*)*?(?P<lead>[^,]{1,60}?)\s+(?:means|meant)\s+"
    r"(?:that\s+)?(?P<main>" + _MAIN + r".+)$"
)
# "the new rota means I'm working nights from Monday": a change told as starting later, which the rules cannot restate
# cut from its cause ("User is a working nights.", "User is from Monday."); the sentence is left whole, as before the
# split was read. "new roster means I'm knocking off at 3" holds now and is split.
_COMING = rx(r"^(?:i'm|im|i\s+am|we're|were|we\s+are)\s+(?:(?:just|only|now|also|still|going\s+to\s+be)\s+)?[a-z]+ing\b"
             rf".*\b(?:from|starting|as\s+of|next|tomorrow)\s+(?:\w+day|week|month|year|tomorrow|next|{MONTH_STARTS}|"
             r"the\s+\d|\d)")
_BASE = {"worked": "work", "lived": "live", "drove": "drive", "taught": "teach", "rented": "rent", "owned": "own"}
# "After the GP appointment", "Following my divorce,", "For the purposes of the pension projection,": when or why.
_LEAD_PHRASE = rx(
    r"^(?:after|following|for\s+the\s+purposes?\s+of|for\s+the\s+sake\s+of)\s+"
    r"(?:the|my|our|a|an|this|that|his|her|their)\s+[^,]{1,50}?\s*,?\s+(?P<main>" + _MAIN + r".+)$"
)


def split_leading(sentence: str) -> list[str] | None:
    """``sentence`` without its lead of when: the user's "since" clause and the statement after it as two
    (``["I resigned from the bank in November", "I have been putting ..."]``), a lead phrase left out
    (``["I've ditched dairy"]``); ``None`` when it has no such lead.

    >>> split_leading("back when I worked at Tesco I hated the early shifts")
    ['I used to work at Tesco', 'I hated the early shifts']
    >>> split_leading("my sister is visiting, and since we moved to Leeds we only have one spare room")
    ['my sister is visiting', 'we moved to Leeds', 'we only have one spare room']
    >>> split_leading("ugh, work's new hybrid policy means I'm only in the office on Tuesdays now")
    ["I'm only in the office on Tuesdays now"]
    >>> split_leading("Being a paralegal means I read forty records a day") is None
    True
    """
    text = sentence.strip()
    m = _SINCE_I.match(text)
    if m is not None and is_past(m.group("verb")):  # "since I moved", not "since we last spoke", "since I was 12"
        return [m.group("lead"), m.group("main")]
    m = _AND_SINCE.match(text)
    after = split_leading(m.group("since")) if m is not None else None
    if after is not None and m is not None:
        return [m.group("before"), *after]
    m = _BACK_WHEN.match(text)
    if m is not None:
        return [f"I used to {_BASE[m.group('verb').lower()]} {m.group('what')}", m.group("main")]
    m = _MEANS.match(text)
    if m is not None and not _COMING.match(m.group("main")) and not re.match(r"(?:which|that|this|it|so|being|as)\b|.*\b(?:i|i'm|im|i've|we|we're)\b",
                                      m.group("lead").strip(), re.IGNORECASE):
        return [m.group("main")]
    m = _LEAD_PHRASE.match(text)
    return None if m is None else [m.group("main")]
