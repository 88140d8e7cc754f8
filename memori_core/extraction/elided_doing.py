"""What the user does now, typed as an "-ing" clause without its "I'm" after a clause of their own.

"handed in my apron at Grounded on friday!! running my own coffee cart at Salamanca market now", "doc says no
running for six weeks. Swimming laps at the Y instead.", "I'm 34 and training for my first marathon ... currently
running about 30k a week": the "-ing" clause is the user's, its "I'm" left out as chat leaves it out. Right after a
clause told of someone else of the user's ("My sister started a new job. Working nights every week now."), it is
that person's (issue 21).
:func:`elided_doing_at` writes it back ("I'm running my own coffee cart at Salamanca market now") for the rules to
judge, only

- after a clause of the user's own in the same message (the first clause alone is read as before),
- when the clause says it lasts ("now", "instead", "these days", "currently", "every ...", "a week", "full time"),
- and its verb is no moment ("heading", "waiting", "eating" ...), no feeling or thought ("loving", "thinking",
  "hoping"), and no noun ("wedding", "morning").

Pure: patterns, English only.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..calendar_words import ANY_WEEKDAY
from .leads import strip_lead
from .patterns import MY_PERSON_NAMED, OWN_WORDS, rx

__all__ = ["elided_doing", "elided_doing_at", "hands_over", "someone_before"]

_DOING = rx(r"^(?P<lead>(?:and|so|but|now|also)\s+)?(?P<adv>(?:currently|now|still|also|just)\s+)?"
            r"(?P<verb>[a-z]{2,}ing)\s+(?P<rest>\S.*)$")
# "each" lasts only before a unit of time: "each other" and "each of them" say nothing of how long.
_TIME_UNITS = "day|night|morning|afternoon|evening|week|weekend|month|year|term|semester|season|shift|summer|winter"
_LASTING = rx(
    rf"\b(?:now|instead|these\s+days|nowadays|currently|every\s+\w+|each\s+(?:{_TIME_UNITS}|{ANY_WEEKDAY})|"
    r"a\s+(?:week|month)|per\s+(?:week|month)|"
    r"full[\s-]?time|part[\s-]?time|at\s+the\s+moment|most\s+(?:days|mornings|evenings)|weekly|daily|twice|"
    r"three\s+times)\b"
)
# Verbs of a moment, a feeling or a thought, and nouns in -ing: no lasting doing of the user's.
_NOT_DOING = frozenset("""
    heading waiting sitting lying eating drinking watching sleeping going coming leaving getting having being feeling
    loving hating thinking wondering hoping trying planning asking looking wanting needing missing dreading enjoying
    struggling freaking panicking crying dying laughing stressing worrying guessing saying telling reading writing
    morning evening wedding ceiling building pudding clothing meeting thing nothing something anything everything
    during bring spring string king wing ring sibling darling icing stuffing bedding lightning awning
    shopping packing cleaning cooking
""".split())
# A clause of the user's own: "I", "I'm", "my", "we" ... anywhere in it.
_OWN = rx(rf"\b(?:{OWN_WORDS}|me)\b")
# The finite verbs that make an "-ing" word their subject: "swimming is hard", "running helps", "teaching kids every
# day is hard though".
_SUBJECT_VERBS = ("is|was|are|were|has|had|makes|seems|sounds|feels|takes|keeps|helps|hurts|costs|means|"
                  "will|can|could|should|would|might")
# Right after the "-ing" word, more of them ("Lambing starts end of Feb": the season, not a doing).
_AFTER_VERB_NOT_OWN = rx(rf"^(?:{_SUBJECT_VERBS}|'s|starts|begins|ends|goes|comes|kicks|opens|closes|gets)\b")
# Before the first comma, with "does" / "did"; a verb of a relative clause ("... from home now which is great") is no
# sign of a subject.
_FINITE = rx(rf"(?<!which\s)(?<!that\s)(?<!who\s)\b(?:{_SUBJECT_VERBS}|does|did)\b")
# Reported speech: "Hiring two people full time now, she said" is the speaker's doing.
_SAID = rx(r"^(?:,\s*)?(?:she|he|they|(?:my|our)\s+\w+)\s+(?:said|says|told\s+me|tells\s+me|reckons)\b")
# A clause of a group the user is part of: "my team is great. Releasing a new version every month now" is the
# team's doing, not the user's alone.
_GROUP = rx(r"^(?:(?:my|our)\s+(?:team|company|firm|office|department|dept|startup|business|org|organisation|"
            r"organization|school|band|club|church|lab|group)|we|we're|we've)\b")


# Someone else of the user's a clause is told of, by its subject: "my sister started a new job", "she's moved",
# "my husband Tom is a nurse"; not the user with them ("my wife and I ...") nor a thing of theirs ("my son's car broke
# down", after which "walking to work every day now" is the user's).
_SOMEONE = rx(
    rf"^(?P<who>{MY_PERSON_NAMED}|he|she)"
    r"(?:'s\s+(?=(?:a|an|the|just|now|also|still|finally|been|got|gone|[a-z]+ing|[a-z]+ed)\b)"
    r"|\s+(?!and\s+(?:i|me)\b)(?=[a-z]))"
)


def someone_before(clauses: Sequence[str], n: int) -> str | None:
    """Who the clause before clause ``n`` of ``clauses`` is told of when that is someone else of the user's ("my
    sister" of "My sister started a new job."; "she"), else ``None``: a subject left out after it is theirs.

    >>> someone_before(["My sister started a new job.", "working nights now"], 1)
    'My sister'
    >>> someone_before(["My son's car broke down", "walking to work every day now"], 1) is None
    True
    """
    if n <= 0:
        return None
    m = _SOMEONE.match(strip_lead(clauses[n - 1]).strip())
    return m.group("who") if m is not None else None


# What the clause before tells of that person's own work or state, or the start of one: "started a new job", "is a
# nurse", "retired in May", "is on nights"; a doing after it may be theirs. "My boss quit.", "My daughter was born in
# May.", "My kids went back to school." tell none: a doing after them is not handed to that person.
_OWN_JOB_OR_STATE = rx(
    r"^(?:'s|\s+)\s*(?:(?:just|now|also|still|finally|recently|has|have|had|'s)\s+)*(?:"
    r"(?:started|starts|starting|began|begun)\s+(?:a\s+|an\s+|the\s+|her\s+|his\s+|their\s+)?(?:new\s+)?"
    r"(?:job|work|working|role|position|post|business|course|training|apprenticeship|placement|shifts?|at|as)\b"
    r"|(?:got|landed|found|took)\s+(?:a\s+|the\s+)?(?:new\s+)?(?:job|role|position|post|promotion)\b"
    r"|(?:got|was|been)\s+promoted\b|retired\b|went\s+(?:back\s+to\s+work|freelance|part[\s-]time|full[\s-]time)\b"
    r"|works?\s+(?:as|at|in|for|nights|days|shifts)\b"
    r"|(?:is|are|was|'s|been)\s+(?:now\s+)?(?:a|an)\s+[\w-]+"
    r"|(?:is|are|'s|been)\s+(?:now\s+)?(?:working|on\s+(?:nights|days|earlies|lates)|retired|self-employed|freelance|"
    r"unemployed|training|studying)\b)"
)
# A doing that points back at someone ("caring for him", "covering her shifts") or is the user's own ("working from
# my home office"): not the doing of the person told of before.
_POINTS_BACK = rx(r"\b(?:him|her|them|his|their|my|me|mine|myself|it|that|this)\b")
# "My kids", "my parents": more than one, "are".
_PLURAL = rx(r"(?:kids|children|parents|twins|folks|sons|daughters|brothers|sisters|grandparents|grandkids|"
             r"in-laws|boys|girls|friends|flatmates|housemates|roommates)$")


def elided_doing(clause: str) -> str | None:
    """``clause`` with its left-out "I'm" written back when it tells a lasting doing (see the module), else
    ``None`` (whether an earlier clause was the user's is :func:`as_elided_doing`'s to ask).

    >>> elided_doing("running my own coffee cart at Salamanca market now, terrifying")
    "I'm running my own coffee cart at Salamanca market now"
    >>> elided_doing("swimming is hard now") is None
    True
    >>> elided_doing("teaching kids every day is hard though"), elided_doing("hiring two people now, she said")
    (None, None)
    """
    text = clause.strip()
    m = _DOING.match(text)
    if m is None or m.group("verb").lower() in _NOT_DOING or _AFTER_VERB_NOT_OWN.match(m.group("rest")):
        return None
    if not _LASTING.search(text):
        return None
    adv = m.group("adv") or ""
    rest = m.group("rest")
    head, comma, tail = rest.partition(",")
    if _FINITE.search(head) or (comma and _SAID.match(tail.strip())):
        return None
    if comma and _LASTING.search(head):  # "... in Old Town now, way less soul destroying": the remark left out
        rest = head
    return f"I'm {adv.lower()}{m.group('verb').lower()} {rest}"


_IM = "I'm "


def elided_doing_at(clauses: Sequence[str], n: int) -> str | None:
    """Clause ``n`` of ``clauses`` (one message's) as the user's lasting doing (:func:`elided_doing`) when a clause
    before it was the user's own, else ``None``. Capture asks it only for a clause the rules found no first-person
    statement in, so a clause another rule reads is left to that rule.

    >>> elided_doing_at(["I quit the bakery", "running a market stall now"], 1)
    "I'm running a market stall now"
    >>> elided_doing_at(["running a market stall now"], 0) is None
    True

    After a clause told of someone else of the user's, the doing is theirs (:func:`someone_before`; nothing after
    "he" or "she"):

    >>> elided_doing_at(["My sister started a new job.", "Working nights every week now."], 1)
    'My sister is working nights every week now.'

    Not when the clause before tells no work or state of theirs, or the doing points back at them: the user's own
    then:

    >>> elided_doing_at(["My boss quit.", "Running the whole team now."], 1)
    "I'm running the whole team now."
    >>> elided_doing_at(["My dad is a nurse.", "Caring for him every day now."], 1)
    "I'm caring for him every day now."
    """
    return _elided_doing_after(clauses, n, someone_before(clauses, n))


def _elided_doing_after(clauses: Sequence[str], n: int, who: str | None) -> str | None:
    """:func:`elided_doing_at` with ``who``, the :func:`someone_before` clause ``n``, read once by the caller."""
    if n <= 0 or not any(_OWN.search(c) for c in clauses[:n]) or _GROUP.match(clauses[n - 1].strip()):
        return None
    if n + 1 < len(clauses) and _SAID.match(clauses[n + 1].strip()):
        return None
    doing = elided_doing(clauses[n])
    if doing is None or who is None:
        return doing
    # "My sister started a new job. Working nights every week now.": the sister's doing, when the clause before
    # tells her own work or state and the doing points back at no one; after "he" / "she", whose is not said here.
    # "My brother is sick. Caring for him every day now.", "My boss quit. Running the whole team now.": nothing
    if who.lower() in ("he", "she"):
        return None
    told_of = strip_lead(clauses[n - 1]).strip()[len(who):]
    if not _OWN_JOB_OR_STATE.match(told_of) or _POINTS_BACK.search(doing):
        return doing  # "My boss quit. Running the whole team now.": the user's own, as when no one is named
    return f"{who} {'are' if _PLURAL.search(who) else 'is'} {doing.removeprefix(_IM)}"


def hands_over(clauses: Sequence[str], n: int) -> bool:
    """Whether clause ``n``'s left-out subject is the person the clause before tells of (:func:`elided_doing_at`
    gives the doing to them, or to no one after "he" / "she"), so the clause is not the user's to restate.

    >>> hands_over(["My sister started a new job.", "Working nights every week now."], 1)
    True
    >>> hands_over(["My boss quit.", "Running the whole team now."], 1)
    False
    """
    who = someone_before(clauses, n)
    if who is None:
        return False
    doing = _elided_doing_after(clauses, n, who)
    return doing is None or not doing.startswith(_IM)
