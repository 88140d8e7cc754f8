"""A new job told the way people tell it, as the plain statement the rules read.

"I GOT THE OFFER. junior data analyst at shopify, starting nov 10" (the offer, then what it is for), "accepted it
obviously" (after a stored offer: "I accepted a job as ..."), "got the BBC job!!! I start on the 3rd of November" (the
job, then when it starts): each is read as "I got a job as <role> at <employer>, starting <when>", the job to come
the rules store and that its first day done ("first day at shopify done!!!": :func:`.bare_plans.as_job_begun`)
turns into the job held. Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .patterns import rx

__all__ = ["as_new_jobs", "takes_an_offer"]

# "I GOT THE OFFER", "got the job offer!!", "I got an offer": the offer named, not what it is for.
_GOT_OFFER = rx(r"^(?:i\s+|we\s+)?(?:just\s+|finally\s+)?got\s+(?:the|an|a)\s+(?:job\s+)?offer\s*[.!]*$")
# "junior data analyst at shopify, starting nov 10": a role at an employer, typed bare after the offer.
_ROLE_AT = rx(
    r"^(?:as\s+)?(?:(?P<article>a|an)\s+)?(?P<role>[a-z][\w-]*(?:\s+[\w-]+){0,3}?)\s+(?:at|with|for)\s+"
    r"(?P<employer>[\w&'.-]+(?:\s+[\w&'.-]+){0,2}?)(?P<when>\s*,?\s+(?:starting|from|beginning)\s+[^.!]+?)?\s*[.!]*$"
)
# "got the BBC job!!!", "I got the Shopify role": the job named by its employer.
_GOT_THE_JOB = rx(
    r"^(?:i\s+)?(?:just\s+|finally\s+|officially\s+)?got\s+the\s+(?P<employer>(?-i:[A-Z])[\w&'.-]*(?:\s+(?-i:[A-Z])"
    r"[\w&'.-]*)?)\s+(?:job|role|position)\s*[.!]*$"
)
# "I got a job at Cleveland Clinic Abu Dhabi", "just got a new job with Shopify", "I just accepted a new job as a
# clinical data analyst at Novartis": the job, its start told next (the day it starts, not "just", is its time).
_GOT_A_JOB_AT = rx(
    r"^(?:i\s+)?(?:just\s+|finally\s+|officially\s+)?(?:got|accepted|landed|took)\s+a\s+(?:new\s+)?(?:job|role|"
    r"position)\s+(?P<role>as\s+(?:a|an)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*){0,4}?\s+)?(?:at|with)\s+"
    r"(?P<employer>(?-i:[A-Z])[\w&'.-]*(?:\s+(?-i:[A-Z])[\w&'.-]*){0,4})\s*[.!]*$"
)
# "I start on the 3rd of November", "starting monday": when the job just named starts.
_I_START = rx(r"^(?:and\s+)?(?:i\s+start|starting|start\s+date\s+is)\s+(?P<when>[^,.!?]+?)\s*[.!]*$")
# "accepted it obviously", "I said yes!", "took it": an offer taken, said of the offer stored.
_ACCEPTED = rx(
    r"^(?:so\s+|and\s+)?(?:i\s+)?(?:(?:just\s+|officially\s+)?(?:accepted|took)\s+(?:it|the\s+offer|the\s+job)|"
    r"said\s+yes(?:\s+to\s+(?:it|the\s+offer|them))?)(?:\s+(?:obviously|of\s+course|already|today))?\s*[.!]*$"
)
# A stored offer: "User got a job offer as a junior data analyst at Shopify, starting nov 10."
_STORED_OFFER = rx(
    r"^user\s+(?:got|has|received)\s+(?:a|an|the)\s+(?:job\s+)?offer\s+(?P<what>(?:as|at)\s+[^.]+?)\.?$"
)
_SENTENCE_ROLES = frozenset("it that this he she they i we you there".split())


def takes_an_offer(text: str) -> bool:
    """Whether ``text`` is an offer taken, said of an offer it does not name ("accepted it obviously"): capture
    shows the stored offers for it."""
    return any(_ACCEPTED.match(part.strip()) for part in re.split(r"[.!?]+", text) if part.strip())


def _role_at(clause: str) -> str | None:
    """``clause`` ("junior data analyst at shopify, starting nov 10") as what a job is ("as a junior data analyst
    at shopify, starting nov 10"), or ``None`` when it names no role at an employer."""
    m = _ROLE_AT.match(clause.strip())
    if m is None or m.group("role").split()[0].lower() in _SENTENCE_ROLES:
        return None
    role = m.group("role")
    article = m.group("article") or ("an" if role[0].lower() in "aeiou" else "a")
    when = f", {m.group('when').strip(' ,')}" if m.group("when") else ""
    return f"as {article} {role} at {m.group('employer')}{when}"


def as_new_jobs(clauses: Sequence[str], known: Sequence[str] = ()) -> list[str]:
    """``clauses`` (one user message, split) with a new job told the way people tell it (see the module's doc) as
    "I got a job ..."; ``known``: the user's stored facts (the offer an "accepted it" takes). Any other clause as
    it is.

    >>> as_new_jobs(["I GOT THE OFFER.", "junior data analyst at shopify, starting nov 10"])
    ['I got a job offer as a junior data analyst at shopify, starting nov 10']
    >>> as_new_jobs(["accepted it obviously"], ["User got a job offer as a junior data analyst at Shopify."])
    ['I accepted a job as a junior data analyst at Shopify']
    >>> as_new_jobs(["got the BBC job!!!", "I start on the 3rd of November"])
    ['I got a job at the BBC, starting on the 3rd of November']
    >>> as_new_jobs(["I got a job at Cleveland Clinic Abu Dhabi", "I start in January."])
    ['I got a job at Cleveland Clinic Abu Dhabi, starting in January']
    >>> as_new_jobs(["I just accepted a new job as a data analyst at Novartis", "I start next Monday."])
    ['I got a job as a data analyst at Novartis, starting next Monday']
    """
    offers = [m.group("what") for text in known for m in [_STORED_OFFER.match(text.strip())] if m is not None]
    out: list[str] = []
    n = 0
    while n < len(clauses):
        clause, after = clauses[n], clauses[n + 1] if n + 1 < len(clauses) else ""
        what = _role_at(after) if _GOT_OFFER.match(clause.strip()) else None
        job = _GOT_THE_JOB.match(clause.strip())
        if what is not None:  # the offer, then what it is for
            out.append(f"I got a job offer {what}")
            n += 2
            continue
        start = _I_START.match(after.strip())
        got_at = _GOT_A_JOB_AT.match(clause.strip()) if start is not None else None
        if got_at is not None:  # "I got a job at X, I start in January": one job to come, not "User starts in January."
            role = got_at.group("role") or ""
            out.append(f"I got a job {role}at {got_at.group('employer').rstrip('.')}, starting {start.group('when')}")
            n += 2
            continue
        if job is not None:
            employer = job.group("employer")
            the = "the " if re.fullmatch(r"[A-Z]{2,5}", employer) else ""  # "the BBC", not "the Shopify"
            when = f", starting {start.group('when')}" if start is not None else ""
            out.append(f"I got a job at {the}{employer}{when}")
            n += 2 if start is not None else 1
            continue
        if _ACCEPTED.match(clause.strip()) and len(offers) == 1:
            out.append(f"I accepted a job {offers[0]}")
        else:
            out.append(clause)
        n += 1
    return out
