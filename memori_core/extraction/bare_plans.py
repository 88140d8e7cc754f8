"""A plan or a step of the user's life told in the short way people type it, as the plain statements the rules read.

- A move to come typed without its "I" ("moving to glasgow in january", "relocating to Leeds next month") is the
  user's ("I'm moving ..."); one told with "there" ("got into Glasgow School of Art!! moving up there in january")
  moves to the place the message named before ("I'm moving to Glasgow in january"): the city of a university or
  school named by it ("Glasgow School of Art", "University of Leeds", "Edinburgh uni"), else a capitalised name
  after "in", "at" or "to". With no such place the move names none and is not stored (empty_facts).
- A place at a university or on a course typed without its "I" ("got into the masters at glasgow school of art",
  "got accepted to Leeds uni") is the user's.
- The last day or shift told after the notice was handed in ("handed in my notice at the cafe, last shift is dec 20")
  is when the user leaves the job ("I'm leaving my job at the cafe on december 20"), which the rules keep with its
  day written out until it has passed; the notice itself ends the stored job.
- The first day or week at a job to come told as done ("First week at the surgery done!") is the job begun: "I work
  as a practice nurse at a GP surgery in Didsbury now", in the words of the stored fact it then ends
  (:func:`as_job_begun`).
- A move to come told as made ("We're in Whitby now!", "We've finally moved in", "settled in Whitby at last"), said
  while a stored fact plans the move there, is the move: "I moved to Whitby", which the rules keep as where the user
  lives and which ends the plan and the old home (:func:`as_move_made`).

Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..number_words import number_words
from ..calendar_words import ANY_MONTH as _MONTHS, SHORT_MONTHS, month_of
from .dates import WEEKDAY
from .patterns import PLACE_NAME, rx

__all__ = ["as_job_begun", "as_move_made", "as_plain_plans"]

# When a plan is for: "next month", "in january", "in two weeks", "on Friday", "tomorrow", "soon".
_PLAN_TIME = (
    rf"(?:next\s+(?:week|month|year|spring|summer|autumn|fall|winter|term|{WEEKDAY})|this\s+(?:summer|autumn|fall|"
    rf"winter|spring|month|year)|in\s+(?:(?:early|mid|late)-?\s*)?(?:{_MONTHS})|in\s+(?:a|an|{number_words('four')}|"
    rf"five|six|a\s+few|a\s+couple\s+of|\d{{1,2}})\s+(?:days?|weeks?|months?)|on\s+{WEEKDAY}|tomorrow|soon|"
    rf"(?:{_MONTHS})\s+\d{{1,2}}|after\s+(?:christmas|easter|the\s+summer))"
)
_LEAD = r"^(?:(?:so|and|also|finally|officially|soon|aaand|anyway)\s+)*"
# "moving to glasgow in january", "relocating to Leeds next month": a move to come, without its "I".
# Not what is said of the moving ("moving the sofa in january was a nightmare").
_BARE_MOVE = rx(
    _LEAD + r"(?P<verb>moving|relocating|emigrating)\s+(?:(?:up|down|over|out|back|abroad|home|house|away)\b|to\b|"
    rf"in\s+with\b|there\b)(?!.*\b(?:was|is|were|will\s+be|'s)\b)(?=.*\b{_PLAN_TIME}\b)"
)
# "moving up there in january", "we're moving there next month": a move to the place named before.
_THERE = rx(r"\b(?P<verb>moving|move|relocating|relocate|emigrating)\s+(?:(?:up|down|over|out|back)\s+)?there\b")
# "got into the masters at glasgow school of art", "got accepted to Leeds uni": a place on a course, without its "I".
_BARE_ADMISSION = rx(
    _LEAD + r"(?:just\s+|finally\s+|officially\s+)?(?:got\s+(?:into|accepted\s+(?:in)?to|a\s+place\s+(?:at|on))|"
    r"been\s+accepted\s+(?:in)?to)\s+"
    # what the user got into is the course or the school ("the masters at ...", "my first choice uni", "Oxford for a
    # phd"), not "trouble at school" nor "a fight at college"
    r"(?=(?:the\s+|a\s+|an\s+|my\s+)?(?:(?!(?:at|in|on|with|for|to|of|trouble|a|an|the|fight|argument|row|bed|"
    r"shape|debt|bother)\b)[\w'-]+\s+){0,4}?(?:uni|university|college|school|academy|conservatoire|masters?|"
    r"master's|phd|doctorate|degree|course|programme|program)\b"
    r"|(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)*\s+(?:for|to\s+(?:do|study))\s+(?:a|an|the|my)\s+(?:[\w'-]+\s+)?"
    r"(?:masters?|master's|phd|doctorate|degree|course|programme|program|pgce|mba)\b)"
)
_INSTITUTION = r"(?:school\s+of\s+[\w-]+|university|uni|college|academy|conservatoire|polytechnic)"
# Words before an institution that name no place: "the local uni", "art school", "my dream university".
_NO_PLACE = frozenset("""the a an my our their local art arts medical med law business drama music film state
    community city open national royal new top good dream same this that grad graduate summer night language
    design fashion dental nursing performing film technical sixth""".split())
# "University of Leeds", "uni of bristol": the city after "of".
_OF_PLACE = rx(r"\b(?:university|uni)\s+of\s+(?P<place>[a-z][\w'-]+)")
# "Glasgow School of Art", "edinburgh uni", "Oxford Brookes University": the place before the institution.
_PLACE_OF = rx(rf"\b(?P<place>[a-z][\w'-]+)\s+{_INSTITUTION}\b")
# "a job in Leeds", "at Kings in London": a capitalised name after "in", "at" or "to".
_NAMED_PLACE = re.compile(r"\b(?:in|at|to)\s+(?P<place>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)*)")
# "last shift is dec 20", "my last day at the cafe is Friday": the last day at the job left.
_LAST_DAY = rx(
    r"^(?:and\s+)?(?:my\s+)?last\s+(?P<what>shift|day|week)(?P<at>\s+(?:at|with)\s+[^,]+?)?\s+(?:is|'s|will\s+be)\s+"
    r"(?:on\s+)?(?P<when>.+?)\s*[.!]*$"
)
_LAST_DAY_AFTER = rx(r"\s*[,;]\s*(?:and\s+)?(?=(?:my\s+)?last\s+(?:shift|day|week)\b)")
_MOVE_AFTER = rx(r"(?<=\w)[!.]*\s*[,;]\s*(?:and\s+|so\s+)?(?=(?:moving|relocating|emigrating)\b)")
_AT_WORK = rx(r"\s*(?:at|with)\s+work\s*")
_HAS_PREP = rx(r"(?:on|in|at|by|next|this|tomorrow)\b")
_NOTICE = rx(r"\b(?:handed|gave|put)\s+in\s+(?:my|the)\s+notice(?P<at>\s+(?:at|with)\s+(?:the\s+|my\s+)?[\w' -]+?)?"
             r"(?=\s*(?:[,.;!]|$))")
_SHORT_MONTH = rx(rf"\b(?P<m>{SHORT_MONTHS})\.?\s+(?P<d>\d{{1,2}}(?:st|nd|rd|th)?)\b"
                  rf"|\b(?P<d2>\d{{1,2}}(?:st|nd|rd|th)?)\s+(?P<m2>{SHORT_MONTHS})\b")


def _place_before(said: str) -> str | None:
    """The place ``said`` (what the message said before a move "there") names last: the city of a university or
    school, or a capitalised name after "in", "at" or "to"; ``None`` when it names none."""
    found: list[tuple[int, str]] = []
    for m in _OF_PLACE.finditer(said):
        found.append((m.start(), m.group("place")))
    for m in _PLACE_OF.finditer(said):
        if m.group("place").lower() not in _NO_PLACE:
            found.append((m.start(), m.group("place")))
    for m in _NAMED_PLACE.finditer(said):
        words = m.group("place").split()
        if words and not re.fullmatch(_INSTITUTION, " ".join(words[1:]).lower() or "-"):
            found.append((m.start(), m.group("place")))
    if not found:
        return None
    place = max(found)[1]
    return " ".join(w[:1].upper() + w[1:] for w in place.split())


def _written_month(when: str) -> str:
    """``when`` with an abbreviated month written in full ("dec 20" -> "december 20")."""
    def full(m: re.Match[str]) -> str:
        if m.group("m"):
            return f"{month_of(m.group('m'))} {m.group('d')}"
        return f"{m.group('d2')} {month_of(m.group('m2'))}"
    return _SHORT_MONTH.sub(full, when)


def as_plain_plans(clauses: Sequence[str]) -> list[str]:
    """``clauses`` (one user message, split) with a move, a place on a course or a last day told the short way as
    the statements the rules read (see the module's doc); any other clause as it is.

    >>> as_plain_plans(["got into the masters at glasgow school of art!!", "moving up there in january"])
    ['I got into the masters at glasgow school of art!!', "I'm moving to Glasgow in january"]
    >>> as_plain_plans(["handed in my notice at the cafe", "last shift is dec 20"])
    ['handed in my notice at the cafe', "I'm leaving my job at the cafe on december 20"]
    """
    out: list[str] = []
    notice_at: str | None = None
    split: list[str] = []
    for clause in clauses:
        # "handed in my notice at the cafe, last shift is dec 20", "got a job in Leeds, moving there in march": the
        # last day, the move, a clause of its own
        notice = _NOTICE.search(clause)
        tail = _LAST_DAY_AFTER.search(clause, notice.end()) if notice is not None else _MOVE_AFTER.search(clause)
        split += [clause[:tail.start()], clause[tail.end():]] if tail is not None else [clause]
    for clause in split:
        said = clause.strip()
        there = _THERE.search(said)
        if there is not None:
            place = _place_before(" ".join(out))
            if place is not None:
                said = f"{said[:there.start()]}{there.group('verb')} to {place}{said[there.end():]}"
        if _BARE_MOVE.match(said) or _BARE_ADMISSION.match(said):
            rest = re.sub(_LEAD, "", said, flags=re.IGNORECASE)
            # the verb after "I" in lower case: "Moving to ..." -> "I'm moving to ..."
            said = ("I'm " if _BARE_MOVE.match(said) else "I ") + rest[:1].lower() + rest[1:]
        last = _LAST_DAY.match(said) if notice_at is not None else None
        if last is not None:
            at = last.group("at") or notice_at
            at = "" if _AT_WORK.fullmatch(at) else at  # "my job at work": the job it is
            when = _written_month(last.group("when"))
            prep = "" if _HAS_PREP.match(when) else "on "
            said = f"I'm leaving my job{at} {prep}{when}"
        notice = _NOTICE.search(said)
        if notice is not None:
            notice_at = notice.group("at") or ""
        out.append(said)
    return out


# "First week at the surgery done!", "survived my first day at the new job", "first shift at Tesco over": a job to
# come, begun.
_FIRST_AT = rx(
    r"^(?:(?:so|and|well|phew|whew)\s+)*(?:(?:survived|finished|done|did|completed)\s+(?:with\s+)?(?:my\s+)?|(?:my\s+)?)"
    r"first\s+(?:day|week|shift|month|fortnight)\s+(?:at|in|of)\s+(?:the\s+|my\s+)?(?:new\s+)?(?P<place>[\w'-]+(?:\s+[\w'-]+){0,3}?)"
    r"(?:\s+(?:done|over|finished|complete|completed|survived|down)\b.*|\s*[.!]*$)"
)
# A job the user got, still to start: "User got a job as a practice nurse at a GP surgery in Didsbury, starting in
# December." (as the rules stored it; "User got a job as a data analyst at Shopify." of an offer accepted).
_JOB_TO_COME = rx(
    r"^user\s+(?:just\s+|finally\s+)?(?:got|landed|accepted|has|was\s+offered|took)\s+(?:a|an|the)\s+(?:new\s+)?"
    r"(?:job|position|role|post)\s+(?P<what>(?:as|at|with)\s+[^,]+?)(?:\s*,?\s+(?:starting|from|beginning)\b[^.]*)?\.?$"
)


def as_job_begun(clauses: Sequence[str], known: Sequence[str]) -> list[str]:
    """``clauses`` with the first day or week at a job to come told as done ("First week at the surgery done!") read
    as the user working there now, in the words of the stored fact of that job ("I work as a practice nurse at a GP
    surgery in Didsbury now", of "User got a job as a practice nurse at a GP surgery in Didsbury, starting in
    December."), which it then ends; any other clause, or one naming no stored job to come, as it is.

    >>> as_job_begun(["First week at the surgery done!"],
    ...              ["User got a job as a practice nurse at a GP surgery in Didsbury, starting in December."])
    ['I work as a practice nurse at a GP surgery in Didsbury now']
    """
    jobs = [m.group("what") for text in known for m in [_JOB_TO_COME.match(text.strip())] if m is not None]
    if not jobs:
        return list(clauses)
    out = []
    for clause in clauses:
        first = _FIRST_AT.match(clause.strip())
        place = {w.lower() for w in first.group("place").split()} - {"job", "place", "work"} if first else set()
        named = [what for what in jobs if place and place <= {w.lower() for w in re.findall(r"[\w'-]+", what)}]
        if first is not None and (len(named) == 1 or (len(jobs) == 1 and re.fullmatch(
                r"(?:new\s+)?(?:job|place|work)", first.group("place"), re.IGNORECASE))):
            what = named[0] if named else jobs[0]
            out.append(f"I work {what} now")
        else:
            out.append(clause)
    return out


# "User and Ken are moving to Whitby.", "User is moving to Glasgow in January 2027 for a master's.", "User plans to
# move to Leeds.", "User is moving to the flat in Oadby on Friday 2027-01-15.": a move to come, and where to.
# The user's own: "User's sister is moving to Leeds." plans no move of the user's.
_MOVE_TO_COME = rx(
    r"^User\s+(?:and\s+(?:their\s+)?[\w' -]+?\s+)?(?:(?:is|are)\s+(?:(?:soon|finally)\s+)?(?:moving|relocating)|"
    r"(?:plans?|is\s+planning|are\s+planning|is\s+going|are\s+going)\s+to\s+(?:move|relocate))\s+"
    # "to the flat in Oadby": the place the home to come is in
    rf"(?:(?:up|down|over|back|out)\s+)?to\s+(?:(?:the|a|an|their|our)\s+(?:new\s+)?(?:[\w'-]+\s+){{0,2}}?"
    rf"(?:flat|house|home|apartment|bungalow|cottage|place|condo)\s+(?:in|at|near)\s+)?(?P<place>{PLACE_NAME})"
)
_MADE_LEAD = r"^\W*(?:(?:well|so|ok|okay|yay|woohoo|and|finally|officially)\W+)*(?:we|i)\s*"
# "We're in Whitby now", "I'm finally living in Leeds", "we are all settled in Whitby at last": the place the move
# was to, then nothing but "now", "at last", "for good" or the end of the clause (not "in Whitby for the weekend").
_IN_THE_PLACE = rx(
    _MADE_LEAD + r"(?:'re|\u2019re|'m|\u2019m|\s+are|\s+am)\s+(?:(?:now|finally|all|officially|properly)\s+)*"
    rf"(?:in|living\s+in|settled\s+in|based\s+in)\s+(?P<place>{PLACE_NAME})"
    r"(?:\s+(?:now|at\s+last|for\s+good))?\s*(?:[.!,;]|$|\s+and\b)"
)
# "We've finally moved in!", "we've settled in", "I've moved in at last": the move done, the place left unsaid.
_MOVED_IN = rx(
    _MADE_LEAD + r"(?:'ve|\u2019ve|\s+have)\s+(?:(?:now|finally|officially|properly|all)\s+)*(?:moved|settled)\s+in"
    r"(?:\s+(?:now|at\s+last|properly))?\s*(?:[.!,;]|$|\s+and\b)"
)


def as_move_made(clauses: Sequence[str], known: Sequence[str]) -> list[str]:
    """``clauses`` with a move to come told as made ("We're in Whitby now", "We've finally moved in!") read as the
    user's move there ("I moved to Whitby"), when a stored fact (``known``) plans the move to that place (one naming
    no place needs exactly one planned move); any other clause as it is ("We're in Whitby for the weekend", or
    "We're in Whitby now" with no move there planned).

    >>> as_move_made(["We're in Whitby now and the sea view is glorious"], ["User and Ken are moving to Whitby."])
    ['I moved to Whitby']
    >>> as_move_made(["We're in Whitby for the weekend"], ["User and Ken are moving to Whitby."])
    ["We're in Whitby for the weekend"]
    """
    places = [m.group("place") for text in known for m in [_MOVE_TO_COME.match(text.strip())] if m is not None]
    return [_as_moved(clause, places) for clause in clauses] if places else list(clauses)


def _as_moved(clause: str, places: Sequence[str]) -> str:
    """``clause`` as "I moved to <place>" when it tells the move to one of the planned ``places`` as made (a clause
    naming no place, of the only one), else as it is."""
    there = _IN_THE_PLACE.match(clause)
    if there is not None:
        said = there.group("place").lower()
        place = next((p for p in places if p.lower() == said), None)
    elif _MOVED_IN.match(clause) is not None and len(set(places)) == 1:
        place = places[0]
    else:
        place = None
    return f"I moved to {place}" if place is not None else clause
