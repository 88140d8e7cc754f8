"""Changes that leave a stale fact valid unless read (issue 21, capstale5): a promotion told without the old role
("got bumped up to head chef", "promoted to mid-level"; :func:`as_promotion`), a pastime ended by its gear ("hung up
the gloves", "hung up my boots"; :func:`as_gear_hung_up`), studies ended as "done with uni" (:func:`studies_done`) and
an ending taken back in the same breath ("quit Spotify and reopened it"; :func:`undone_ending`), which ends nothing.

Each restater returns the plain first-person sentence(s) the rules already read as the change, or ``None``; only the
user's own change is read (a subject other than "I", or none, is left alone: "Aoife's been made deputy head"). Pure:
patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..slots import holder, slots_of
from .cues import is_negated
from .patterns import USER_OR_THEIRS, rx

__all__ = ["as_gear_hung_up", "as_job_cut", "as_promotion", "as_workplace_now", "finished_studies", "graduation_ends_studies", "studies_finished", "studies_done", "undone_ending", "workplace_left"]

# The words that may open a promotion told without "I": "got bumped up to", "just been promoted to", "small win:".
_OPENER = (r"(?:[\w']+(?:\s+[\w']+){0,2}\s*[,:;!]+\s*)?"  # a short lead before a comma: "irrelevant now, ..."
           r"(?:(?:so|and|just|finally|officially|guess\s+what|small\s+win|big\s+news|news|update)\W+)*")
_PROMOTED = rx(
    rf"^{_OPENER}(?:(?:i\s*'?m|i\s+am|i\s+was|i\s*'?ve|i\s+have|i|me)\s+)?(?:(?:just|finally|officially)\s+)?"
    r"(?:got\s+|been\s+|was\s+|get\s+|getting\s+)?(?:(?:just|finally|officially)\s+)?"
    r"(?P<verb>promoted|bumped\s+up|moved\s+up|stepped\s+up)\s+to\s+(?:be\s+)?(?:(?:an?|the)\s+)?"
    r"(?P<role>[\w-]+(?:\s+(?!(?:last|this|on|in|after|and|but|so|lol|yesterday|today|since|ago|at|from|with|for)\b)"
    r"[\w-]+){0,2})(?P<rest>.*)$"
)
# A rank said alone, whose role is the stored job's ("promoted to mid-level": a mid-level dev).
_RANK = rx(r"^(?:junior|mid-?level|mid|senior|lead|principal|staff|chief|head|deputy|assistant|associate|sous|"
           r"trainee|graduate|intermediate|manager|supervisor)$")
# A stored job of the user's, its rank word and its role noun: "User is a junior dev at Access Bank ..." -> "dev".
_JOB_ROLE = rx(
    r"^User\s+is\s+(?:an?\s+|the\s+)?(?P<rank>junior|mid-?level|senior|lead|principal|trainee|graduate|assistant|"
    r"deputy|associate|sous|junior\s+sous)\s+(?P<noun>[\w-]+(?:\s+(?!(?:at|in|for|with|on|and)\b)[\w-]+)?)"
)


def as_promotion(clause: str, known: Sequence[str]) -> list[str] | None:
    """A promotion told in words the rules do not read as one, restated as "I got promoted to <role>" (which they
    read as the user's job changed, ending the stored one, its employer kept): "got bumped up to head chef!!" -> "I
    got promoted to head chef!!"; a rank alone takes the stored job's role ("promoted to mid-level last week" after
    "User is a junior dev at Access Bank." -> "I got promoted to mid-level dev last week"). "promoted to senior
    accountant" is read as it is (``None``).

    >>> as_promotion("got bumped up to head chef!!", [])
    ['I got promoted to head chef!!']
    >>> as_promotion("she got promoted to manager", []) is None
    True
    """
    m = _PROMOTED.match(clause.strip())
    if m is None:
        return None
    role = " ".join(m.group("role").split())
    if _RANK.match(role):
        stored = next((r for text in known if holder(text) == "user" and (r := _JOB_ROLE.match(text))), None)
        if stored is None:
            return None
        role = f"{role} {stored.group('noun')}"
    elif m.group("verb").lower() == "promoted":
        return None
    elif "job" not in slots_of(f"User is a {role}."):
        return None  # moved up to the third floor, stepped up to the plate: no role
    # what follows a comma is an aside ("promoted to mid-level last week, same team")
    return [f"I got promoted to {role}{m.group('rest').split(',')[0]}"]


# The gear one hangs up, and the words of a stored pastime it ends: gloves (a keeper, a boxer), boots (football,
# rugby), spikes (running), a racket, skates, clubs, a whistle (a referee), ballet shoes.
_GEAR = {
    "gloves": r"keeper|goalkeeper|goalie|boxing|boxer|boxes|box|wicket-?keeper",
    "boots": r"football|footy|soccer|rugby|plays|player|keeper|striker|defender|midfielder|team|league|fc",
    "spikes": r"running|runs|runner|athletics|sprint\w*|track",
    "racket": r"tennis|squash|badminton|padel",
    "racquet": r"tennis|squash|badminton|padel",
    "skates": r"skat\w+|hockey|roller\s*derby",
    "clubs": r"golf\w*",
    "whistle": r"refs?|referee\w*|umpire\w*",
    "pointe shoes": r"ballet|dancer|dances",
}
_HUNG_UP = rx(rf"^{_OPENER}(?:i\s*'?ve\s+|i\s+have\s+|i\s+)?(?:finally\s+|officially\s+)?(?:hung|hanging|hang)\s+up\s+"
              rf"(?:the|my)\s+(?P<gear>{'|'.join(map(re.escape, _GEAR))})\b(?P<rest>.*)$")
# What may follow the gear hung up that still ends the pastime: nothing, an aside or reason after a stop or comma,
# "for good", "after 20 years", "last season", "because ..."; not where or why it hangs ("after the match, they
# were soaked", "to dry", "on the wall hook").
_HUNG_TAIL = rx(
    r"^(?:|[,.;:!?(\u2013\u2014-].*|(?:for\s+good|at\s+last|finally|officially|now)\b.*|"
    r"after\s+(?:\d+|[a-z]+|a\s+few|many)\s+(?:years?|seasons?|decades?)\b.*|"
    r"(?:last|this)\s+(?:season|year|summer|winter|spring|autumn|month|week)\b.*|(?:because|as|cos|since)\b.*)$"
)
# A team or club named with capitals in the stored fact ("... for Hackney Wick FC, sunday league.").
_TEAM = re.compile(r"\b(?:for|at|with|in|of)\s+(?P<team>(?:[A-Z][\w&'-]*\s+){0,3}(?:FC|AFC|RFC|CC|Club|United|"
                   r"City|Rovers|Athletic|Harriers|Wanderers|Town))\b")


def as_gear_hung_up(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "hung up the gloves, knees are done" after "User is the keeper for Hackney Wick FC." -> "I quit Hackney Wick
    FC" (the team the stored pastime names; else its sport: "I quit boxing"), which :func:`ends_named` reads as that
    fact ended; ``None`` when no stored fact of the user's is a pastime of that gear ("hung up the washing").

    >>> as_gear_hung_up("hung up the gloves", ["User is the keeper for Hackney Wick FC."])
    ['I quit Hackney Wick FC']
    """
    m = _HUNG_UP.match(clause.strip())
    if m is None or not _HUNG_TAIL.match(m.group("rest").strip()):
        return None
    sport = rx(rf"\b(?:{_GEAR[m.group('gear').lower()]})\b")
    for text in known:
        found = sport.search(text)
        if holder(text) != "user" or is_negated(text) or found is None:
            continue
        team = _TEAM.search(text)
        said = f"I quit {team.group('team') if team else found.group(0)}"
        rest = m.group("rest").strip(" ,")
        return [said, rest] if rest else [said]
    return None


# "I'm at the Royal Free Hospital now": a workplace named alone with "the", with "now", and nothing after it (not
# "I'm at Heathrow now, flight's delayed", "I'm at Starbucks now"); a one-word lead at most ("ugh, ..."), not a
# clause ("Mum's poorly, I'm at the Royal Infirmary now" is a visit).
_AT_NOW = re.compile(
    r"^(?:[A-Za-z]+\s*[,:;!-]+\s*)?(?i:i\s*'?m|i\s+am)\s+(?:(?i:now|working)\s+)?(?i:at)\s+"
    r"(?P<place>(?i:the)\s+[A-Z][\w'&-]*(?:\s+(?:of\s+)?[A-Z][\w'&-]*){0,3})\s+(?i:now|these\s+days)\s*[.!]*$"
)
# The kinds of institution whose staff name their workplace alone; a new place must be of the stored job's kind
# ("I'm at the Ivy now" after a hospital job is a restaurant).
_KINDS = {
    "health": r"Hospital|Infirmary|Clinic|Surgery|Practice|Hospice|Trust|Medical\s+Centre",
    "education": r"School|Academy|College|University",
    "council": r"Council",
    "prison": r"Prison",
}
# A place one is at for a moment, not a job: a terminal, a station, a hotel, a stadium.
_PASSING_PLACE = rx(r"\b(?:airport|station|terminal|heathrow|gatwick|stansted|hotel|inn|arena|stadium|park|beach|"
                    r"centre|center|mall|services|hospital\s+for)\b")
# A stored job at an institution named so, whose staff say where they work by its name alone ("User is a nurse at
# Whittington Hospital.", "User teaches at Hollins Academy."); not a café or a shop ("I'm at Starbucks now" is
# where the user sits).
_JOB_AT = re.compile(
    r"^User\s+(?:is\s+(?:an?\s+|the\s+)?[\w -]{2,40}?\s+at|works\s+(?:at|for)|teaches\s+at)\s+(?:the\s+)?"
    r"(?:[A-Z][\w'&-]*\s+){1,4}(?P<kind>" + "|".join(_KINDS.values()) + r")\b")


def _kind(words: str) -> str | None:
    return next((kind for kind, names in _KINDS.items() if re.search(rf"\b(?:{names})\b", words)), None)


def as_workplace_now(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "I'm at the Royal Free Hospital now" after "User is a nurse at Whittington Hospital." -> "I work at the Royal
    Free Hospital now" (a new job told by its place alone, which ends the stored one); ``None`` without a stored job
    at a named institution of the same kind (a hospital, a school), or for a place one passes through ("I'm at
    Gatwick now") or one without a kind ("I'm at the Ivy now").

    >>> as_workplace_now("I'm at the Royal Free Hospital now", ["User is a nurse at Whittington Hospital."])
    ['I work at the Royal Free Hospital now']
    """
    m = _AT_NOW.match(clause.strip())
    if m is None or _PASSING_PLACE.search(m.group("place")):
        return None
    kind = _kind(m.group("place"))
    if kind is None or not any(holder(text) == "user" and not is_negated(text) and (job := _JOB_AT.search(text.strip()))
                               and _kind(job.group("kind")) == kind for text in known):
        return None
    return [f"I work at {m.group('place')} now"]


# A job lost with the team it was in: "my whole team was cut", "my department was axed" (a role, job or position cut
# the rules read already: "my position got eliminated" -> "User was laid off from Spotify."). Not an office or a
# unit closed, which shuts for snow or a strike and opens again.
_CUT = rx(
    rf"^{_OPENER}(?:.*?\b(?:and|so|then|,)\s+)?my\s+(?:whole\s+|entire\s+|old\s+)?(?:team|department|dept|"
    r"division)\s+(?:was|got|has\s+been|have\s+been|were|is\s+being)\s+(?:just\s+)?"
    r"(?:cut|axed|eliminated|scrapped|made\s+redundant|let\s+go|disbanded)\b(?P<rest>.*)$"
)
# What may follow a team cut that still tells a job lost: nothing, an aside after a stop or comma, when ("in May",
# "last week") or the employer ("at Spotify"); not what it was cut from or for ("from the tournament", "for the
# strike", "because of snow"), which is a team of another kind or a cut for a day.
_CUT_TAIL = re.compile(
    r"^(?:|[,.;:!?(-].*|(?:(?i:in|on)\s+[A-Z][a-z]+|(?i:last|this)\s+[a-zA-Z]+)\b(?:[,.;:!?(-].*)?|"
    r"(?i:yesterday|recently|today)\b(?:[,.;:!?(-].*)?|(?i:at)\s+[A-Z][\w'&-]*(?:\s+[A-Z][\w'&-]*)*\b(?:[,.;:!?(-].*)?)$"
)


def as_job_cut(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "the firm got swallowed by a bigger one and my whole team was cut" -> "I was laid off" (which ends the stored
    job, its employer named); ``None`` when no job is cut ("my hair was cut", "my hours were cut" keeps the job,
    "my team was cut from the tournament" is a sports team).

    >>> as_job_cut("the firm got swallowed and my whole team was cut", [])
    ['I was laid off']
    >>> as_job_cut("my team was cut from the tournament", []) is None
    True
    """
    m = _CUT.match(clause.strip())
    if m is None or not _CUT_TAIL.match(m.group("rest").strip()):
        return None
    rest = m.group("rest").strip(" ,.")
    return ["I was laid off"] + ([rest] if rest else [])


# Who graduated, and what studies of theirs a stored fact tells: "User's daughter Imogen graduated." ends "User's
# daughter Imogen is in her final year at Exeter uni.".
# From uni, a degree or a named university ("from Exeter"), or with nothing of what after it; not "from nursery".
_GRADUATED = re.compile(rf"^(?P<who>{USER_OR_THEIRS})\s+(?:has\s+|just\s+|finally\s+|officially\s+)*"
                        r"graduated\b(?!\s+from\s+(?!(?:uni|university|college|her|his|their|the\s+[A-Z]|[A-Z]))|"
                        r"\s+(?:[Ff]rom\s+)?(?:nursery|reception|primary|preschool|pre-school|kindergarten|playgroup)\b)")
_STUDYING_AT = rx(r"\b(?:(?:final|first|second|third|fourth|last)\s+year|is\s+(?:studying|doing\s+(?:a|an|her|his|their)\s+"
                  r"(?:degree|masters|master's|phd|msc|ba|bsc))|is\s+at\s+(?:uni|university|college)|studies)\b")


def graduation_ends_studies(new: str, old: str) -> bool:
    """Whether the new fact ``new`` tells that someone graduated ("User's daughter Imogen graduated.") and the stored
    ``old`` tells the same someone's studies under way ("User's daughter Imogen is in her final year at Exeter uni.").

    >>> graduation_ends_studies("User's daughter Imogen graduated.", "User's daughter Imogen is in her final year at uni.")
    True
    >>> graduation_ends_studies("User's daughter Imogen graduated.", "User's son Tom is in his final year at uni.")
    False
    """
    m = _GRADUATED.match(new.strip())
    if m is None or is_negated(new) or is_negated(old):
        return False
    who = m.group("who")
    return old.startswith(f"{who} ") and bool(_STUDYING_AT.search(old[len(who):]))


# The studies a stored fact says the user is doing.
_STUDYING = rx(r"^User\s+(?:is\s+(?:doing|studying|taking|enrolled|in\s+the\s+\w+\s+year)|studies|attends)\b")
_STUDY_WORDS = rx(r"^(?:uni|university|college|my\s+degree|the\s+degree|my\s+masters|my\s+master's|my\s+msc|my\s+phd|"
                  r"my\s+course|the\s+course|school|grad\s+school|my\s+studies|studying)$")
_DEGREE = rx(r"\b(?:phd|doctorate|master's|masters|msc|ma|mba|ba|bsc|degree|diploma|course|university|uni|college|"
             r"school|year\s+at)\b")


def studies_done(thing: str, old: str) -> bool:
    """Whether ``thing`` finished ("done with uni", "finished with my degree") is the studies the stored fact ``old``
    says the user is doing ("User is doing a part-time MSc in data science at Strathclyde.").

    >>> studies_done("uni", "User is doing a part-time MSc in data science at Strathclyde.")
    True
    >>> studies_done("uni", "User works at the university library.")
    False
    """
    return bool(_STUDY_WORDS.match(" ".join(thing.split()))) and holder(old) == "user" and not is_negated(old) \
        and bool(_STUDYING.match(old.strip())) and bool(_DEGREE.search(old))


# A stored job told by its workplace: "User is a baker at a little bakery in Frome, 4am starts.", "User works at ...".
_WORKS_AT = rx(r"^User\s+(?:(?:is|was)\s+(?:an?\s+|the\s+)?[\w -]{2,40}?\s+(?:at|in)|works\s+(?:at|in|for))\s+"
               r"(?:an?\s+|the\s+|their\s+)?(?P<place>[^,.;]+)")


def workplace_left(thing: str, old: str) -> bool:
    """Whether the workplace ``thing`` left ("the bakery") is where the stored job ``old`` is done ("User is a baker
    at a little bakery in Frome.").

    >>> workplace_left("bakery", "User is a baker at a little bakery in Frome, 4am starts.")
    True
    >>> workplace_left("bakery", "User buys bread at the bakery on Elm Street.")
    False
    """
    m = _WORKS_AT.match(old.strip())
    return m is not None and holder(old) == "user" and not is_negated(old) \
        and re.search(rf"\b{re.escape(thing.strip())}\b", m.group("place"), re.IGNORECASE) is not None


# The studies a stored fact names, with their kind, field and place: "User is doing a part-time MSc in data science at
# Strathclyde alongside work." -> "MSc", " in data science", "Strathclyde".
_STUDIES_AT = rx(
    r"^User\s+is\s+(?:doing|studying(?:\s+for)?|taking)\s+(?:an?\s+|my\s+|their\s+)?(?:[\w-]+\s+)?"
    r"(?P<degree>phd|doctorate|master's|masters|msc|ma|mba|ba|bsc|degree|diploma)(?P<field>\s+in\s+[^,.]+?)?"
    r"\s+at\s+(?P<place>(?-i:[A-Z])[\w'&-]*(?:\s+(?-i:[A-Z])[\w'&-]*)*)"
)


def finished_studies(old: str) -> str | None:
    """The studies the stored ``old`` names, told finished ("I finished my MSc in data science at Strathclyde"), when
    "done with uni" ends them; ``None`` when ``old`` names no degree and place.

    >>> finished_studies("User is doing a part-time MSc in data science at Strathclyde alongside work.")
    'I finished my MSc in data science at Strathclyde'
    """
    m = _STUDIES_AT.match(old.strip())
    if m is None:
        return None
    return f"I finished my {m.group('degree')}{m.group('field') or ''} at {m.group('place')}"


_FINISHED = rx(r"^User\s+(?:has\s+|just\s+|finally\s+|officially\s+)*(?:finished|completed|passed)\s+(?:their|an?|the)\s+"
               r"(?:[\w-]+\s+)?(?P<degree>phd|doctorate|master's|masters|msc|ma|mba|ba|bsc|degree|diploma)\b.*?"
               r"\b(?:at|from)\s+(?P<place>(?-i:[A-Z])[\w'&-]*)")


def studies_finished(new: str, old: str) -> bool:
    """Whether the new fact ``new`` tells the user finished the degree, at the place, that the stored ``old`` says they
    are doing ("User finished their MSc in data science at Strathclyde." ends "User is doing a part-time MSc in data
    science at Strathclyde alongside work.").

    >>> studies_finished("User finished their MSc at Strathclyde.", "User is doing a part-time MSc at Strathclyde.")
    True
    """
    m, was = _FINISHED.match(new.strip()), _STUDIES_AT.match(old.strip())
    return m is not None and was is not None and holder(old) == "user" and not is_negated(new) \
        and m.group("degree").lower() == was.group("degree").lower() \
        and m.group("place").lower() == was.group("place").split()[0].lower()


# An ending taken back in the same sentence: "quit Spotify and reopened it", "cancelled Netflix then resubscribed",
# "left the choir but went back a week later"; went or came back to what was left, not to a place ("quit my job at
# the Royal Free and came back to Cork").
_BACK_TO_IT = r"(?=\s*(?:[.!?,;)]|$)|\s+(?:to\s+(?:it|them|her|him)|again|later|soon|a\s+(?:\w+\s+){0,2}later|the\s+next)\b)"
_TAKEN_BACK = rx(
    r"\b(?:quit|left|cancell?ed|dropped|deleted|ditched|stopped|gave\s+up|uninstalled)\b.*?"
    r"\b(?:and|but|then|,)\s+(?:then\s+)?(?:(?:i|we)\s+)?(?:re-?(?:opened|installed|downloaded|joined|subscribed|"
    rf"activated|started)|(?:went|came|got)\s+back{_BACK_TO_IT}|started\s+(?:again|back)|got\s+it\s+back|un-?quit|"
    r"changed\s+(?:my|their)\s+mind|caved)\b"
)


def undone_ending(fact: str) -> bool:
    """Whether the new ``fact`` tells an ending taken back within itself ("User quit Spotify and reopened it."): it
    ends nothing.

    >>> undone_ending("User quit Spotify and reopened it."), undone_ending("User quit Spotify and joined Tidal.")
    (True, False)
    """
    return bool(_TAKEN_BACK.search(fact))

