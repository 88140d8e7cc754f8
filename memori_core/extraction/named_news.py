"""News of someone of the user's, told by their name the usual way, that memory keeps.

- A milestone of someone named ("Brooke made the volleyball team!", "Eli starts daycare at Little Acorns next week",
  "Sam passed his driving test", "Leo started piano lessons"): :func:`named_news` says it is news to keep, which :mod:`.named` reads as the user's
  own ("My daughter Brooke made the volleyball team") when a stored fact says who they are.
- Who is named in a stored fact that lists the user's children by an everyday word ("User's two girls Kayla and
  Brooke are 16 and 14."): :func:`listed_child` says "daughter" for "Kayla".
- A milestone of someone named that no stored fact places ("Sofia made the volleyball team!" in a first message) is
  kept as said (:func:`milestone_of_named`): the user tells it because the person is theirs, and who they are may
  come later (a tester's finding: it stored nothing).
- A named someone's birthday said before a question ("Kayla's birthday is September 19th, what's a good gift?") is
  kept as said when no stored fact says who they are (:func:`birthday_of_named`): a date that comes back every year.

Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..calendar_words import ANY_MONTH as _MONTH
from .patterns import rx
from .subjects import named_subject

__all__ = ["birthday_of_named", "listed_child", "milestone_of_named", "named_news"]

_SCHOOL = (r"school|daycare|day\s+care|nursery|preschool|pre-school|kindergarten|reception|college|uni|university|"
           r"secondary(?:\s+school)?|high\s+school|middle\s+school|sixth\s+form|year\s+\d{1,2}|grade\s+\d{1,2}")
# What is news of someone named, besides a change, a care fact or their health: a team, a place, a test, a prize, a
# school or an activity begun.
_MILESTONE = rx(
    r"^(?:just\s+|finally\s+|officially\s+)?(?:"
    r"made\s+(?:the|a|her|his|their)\s+(?:[\w'-]+\s+){0,2}?(?:team|squad|band|choir|orchestra|cut|final|finals|"
    r"honou?r\s+roll|dean's\s+list)"
    r"|got\s+(?:into|accepted\s+(?:in)?to|a\s+place\s+(?:at|on)|a\s+scholarship|(?:her|his|their)\s+(?:black\s+belt|"
    r"driving\s+licen[cs]e|licen[cs]e|first\s+job))"
    r"|passed\s+(?:her|his|their|the)\s+(?:[\w'-]+\s+){0,2}?(?:test|exam|exams|audition|grading)"
    r"|won\s+(?:the|a|her|his|their)\s+(?:[\w'-]+\s+){0,2}?(?:competition|tournament|championship|prize|award|race|"
    r"match|final|scholarship)"
    rf"|(?:starts|started|is\s+starting|starting|begins|began|is\s+beginning)\s+(?:at\s+)?(?:(?:a|her|his|their|the|"
    rf"new)\s+)*(?:{_SCHOOL})\b"
    # an activity taken up: "started piano lessons", "joined a swim club", "took up chess"
    r"|(?:started|starts|is\s+starting|began|joined|has\s+joined)\s+(?:(?:a|an|the|her|his|their|new)\s+)*"
    r"(?:[\w'-]+\s+){0,2}?(?:lessons|classes|club|choir|orchestra|band|league|scouts|cubs|brownies|guides)\b"
    r"|(?:took|has\s+taken)\s+up\s+(?:the\s+)?[\w'-]+"
    r")"
)
_CHILD_WORD = {"girls": "daughter", "daughters": "daughter", "boys": "son", "sons": "son", "kids": "child",
               "children": "child", "twins": "child"}
# "User's two girls Kayla and Brooke are 16 and 14.", "User's daughters Kayla and Brooke live with their mum.".
_LISTED = re.compile(
    r"^User's\s+(?:(?:two|three|four|\d)\s+)?(?:(?:little|teenage|grown-up|young)\s+)?(?P<noun>girls|daughters|boys|"
    r"sons|kids|children|twins),?\s+(?P<names>(?-i:[A-Z])[a-z\u00e0-\u00ff]+(?:\s*(?:,|and|&)\s*(?-i:[A-Z])"
    r"[a-z\u00e0-\u00ff]+)+)\b"
)
# "Kayla's birthday is September 19th": the name, then the day (a month and a day of it, either way round).
_BIRTHDAY = rx(
    rf"^(?P<name>(?-i:[A-Z])[a-z\u00e0-\u00ff]+)'s\s+birthday\s+is\s+(?:on\s+)?(?P<day>(?:{_MONTH})\s+\d{{1,2}}"
    rf"(?:st|nd|rd|th)?|(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTH}))\s*[.!]*$"
)


def named_news(clause: str) -> tuple[str, str] | None:
    """``(name, the rest)`` when ``clause`` tells a milestone of someone it names first ("Brooke made the volleyball
    team!" -> ``("Brooke", "made the volleyball team!")``); ``None`` otherwise ("Brooke made a cake").

    >>> named_news("Brooke made the volleyball team!"), named_news("Brooke made a cake")
    (('Brooke', 'made the volleyball team!'), None)
    """
    said = named_subject(clause)
    return said if said is not None and _MILESTONE.match(said[1]) else None


def listed_child(name: str, known: Sequence[str]) -> str | None:
    """The word for the user's child ``name`` when a stored fact lists their children by an everyday word ("daughter"
    for "Kayla" after "User's two girls Kayla and Brooke are 16 and 14."); ``None`` when none does.

    >>> listed_child("Brooke", ["User's two girls Kayla and Brooke are 16 and 14."])
    'daughter'
    """
    for text in reversed(known):
        m = _LISTED.match(text.strip())
        if m is not None and name in re.split(r"\s*(?:,|\band\b|&)\s*", m.group("names")):
            return _CHILD_WORD[m.group("noun").lower()]
    return None


def birthday_of_named(said: str) -> str | None:
    """The fact of a named someone's birthday ``said`` tells ("Kayla's birthday is September 19th" -> "Kayla's
    birthday is September 19th."), or ``None``.

    >>> birthday_of_named("Kayla's birthday is September 19th"), birthday_of_named("Kayla's birthday is soon")
    ("Kayla's birthday is September 19th.", None)
    """
    m = _BIRTHDAY.match(said.strip())
    return None if m is None else f"{m.group('name')}'s birthday is {m.group('day')}."


def milestone_of_named(said: str) -> str | None:
    """The fact of a named someone's milestone ``said`` tells, as said ("Sofia made the volleyball team!" -> "Sofia
    made the volleyball team."), or ``None`` (:func:`named_news`). Only a statement: not a question, not a wish.

    >>> milestone_of_named("Sofia made the volleyball team!"), milestone_of_named("Did Sofia make the team?")
    ('Sofia made the volleyball team.', None)
    """
    text = said.strip()
    if "?" in text:
        return None
    news = named_news(text)
    if news is None:
        return None
    name, rest = news
    return f"{name} {rest.strip().rstrip('.!')}."
