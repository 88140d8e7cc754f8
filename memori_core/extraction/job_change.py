"""A change of employer told in the user's words, as the plain statements the rules already read.

"I left Google and joined Meta", "I left Google for Meta", "I've moved from Google to Meta", "I'm now at Meta",
"I got a job at Meta", "I'm no longer at Google": said of the employer a stored fact names ("User works at Google
as a designer."), each is read as what it means for the job, "I left my job at Google" (an ending: it ends the
stored job) and "I work at Meta now" (what holds now: it ends the stored job too, and answers "Where do I work?"
as the stored fact did). The rules then rewrite them ("User works at Meta.") and the ending beside what holds now
is not stored (:mod:`.rule_based`). "I left Lisbon for Porto" of a stored "User lives in Lisbon." is read as
"I moved to Porto". Pure: no model, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..calendar_words import ANY_MONTH_TITLED
from ..slots import holder
from .leads import strip_lead
from .side_jobs import is_side_job
from .cues import is_negated, is_planned
from .patterns import I_AM, rx
from .slots import is_job_offer, slots_of

__all__ = ["as_job_changes", "is_first_shift", "says_where_now", "stored_employers"]

# An employer as a sentence names it: a name ("Google", "Goldman Sachs", "St Mary's"), or, after "a job at", a
# workplace ("a startup", "the local bakery").
_NAME = r"(?-i:[A-Z])(?:[\w&'-]|\.(?=\w))*(?:\s+(?:&\s+|of\s+|and\s+)?(?-i:[A-Z])(?:[\w&'-]|\.(?=\w))*)*"
_PLACE = r"(?:a|an|the)\s+(?:[\w-]+\s+){0,2}?[\w-]+"
_LEAD = r"^(?:(?:i|we)(?:'ve|\s+have)?(?:\s+|(?=')))?(?:(?:just|finally|officially|recently|now|also|actually)\s+)?"
_MONTH = rf"(?-i:{ANY_MONTH_TITLED})\b"
# Where the new job is, kept with it: "a GP surgery in Harrogate" (a month is when: "in March").
_WHERE = rf"(?P<where>\s+in\s+(?!{_MONTH})(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)*)?"
# A role said with the new job: "as a product designer".
_ROLE = r"(?:\s+as\s+(?P<article>a|an|the)\s+(?P<role>[\w-]+(?:\s+[\w-]+){0,3}?))?"
# What may follow: when it happened (the fact's created_at holds it), or nothing.
_WHEN = (r"(?:\s*,?\s+(?:last\s+(?:week|month|year|\w+day)|this\s+(?:week|month|year)|yesterday|today|recently|now|"
         r"a\s+(?:few|couple\s+of)\s+(?:days|weeks|months)\s+ago|(?:two|three|\d+)\s+(?:days|weeks|months)\s+ago|"
         rf"in\s+{_MONTH}|on\s+\w+day|after\s+\w+\s+years?))*")
_END = _WHEN + r"\s*[.!]*$"

# "I left Google", "I'm leaving Google", "I quit Google", "I moved on from Google", "I've moved from Google to
# Meta", "I left Google for Meta", "I'm no longer at Google", "I'm not at Google anymore", "I no longer work at
# Google": an ending of the job at ``old`` (and a new one at ``new``, when it names one).
_LEFT = rx(
    _LEAD + r"(?:left|quit|(?:am|'m)\s+(?:now\s+)?leaving|moved\s+on\s+from|moved\s+from|switched\s+from|"
    r"(?:no\s+longer|don't|do\s+not)\s+work\s+(?:at|for|with)|(?:am|'m)\s+no\s+longer\s+(?:at|with|working\s+(?:at|for))|"
    r"(?:am|'m)\s+not\s+(?:at|with|working\s+(?:at|for))|no\s+longer\s+at)\s+"
    rf"(?P<old>{_NAME})(?:\s+(?:for|to)\s+(?P<new>{_NAME}))?" + _WHERE + _ROLE
    + r"(?:\s+(?:anymore|any\s+more))?" + _END
)
# "My last day at Google was Friday", "Friday was my last day": told beside the ending, it says the same.
_LAST_DAY = rx(r"^(?:my\s+last\s+day\b|\w+\s+was\s+my\s+last\s+day\b)")
# "my last day at Target was Friday", "Friday was my last day at Target": the job there left, as "I left Target"
# reads it (a last day still to come, "... is Friday", is a plan: not read).
_LAST_DAY_AT = rx(
    rf"^(?:[^,]*,\s*)?(?:(?:my\s+)?last\s+(?:day|shift)\s+(?:at|with)\s+(?P<old>{_NAME})\s+was\b.*|"
    rf"[\w\s]+?\s+was\s+my\s+last\s+(?:day|shift)\s+(?:at|with)\s+(?P<at>{_NAME})\b.*)$"
)
# "First shift at Costco is Wednesday, front end supervisor": a new job told by its first shift, with the role
# after the comma when said; a first day or week only beside a job ended ("my first day at Disneyland" is a visit).
_FIRST_SHIFT = rx(
    rf"^(?:my\s+)?first\s+(?P<unit>shift|day|week)\s+(?:at|with)\s+(?P<new>{_NAME})\s+(?:is|was|starts|started)\b"
    r"[^,]*?(?:,\s*(?:as\s+(?:a|an)\s+)?(?P<role>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}))?\s*[.!]*$"
)
# "I resumed at Access Bank as a credit analyst", "resumed work at Zenith": a job begun, the way Nigerian English
# says "started at" (not "resumed at the gym": an employer named, and a role or "work" said).
_RESUMED = rx(rf"\bresumed\s+(?:(?:work|duty)\s+at\s+(?={_NAME})|at\s+(?={_NAME}[^.!?]*\bas\s+an?\b))")
# "I got a job at Meta", "I started a new job at Meta", "I've landed a role with a startup", "I started at Meta",
# "I started working for Meta": a new job, whatever is stored.
_NEW_JOB = rx(
    _LEAD + r"(?:(?:got|started|landed|accepted|took|found|began|have|'ve\s+got|start)\s+(?:a|an|my|the)\s+"
    r"(?:new\s+)?(?:[\w-]+\s+)?(?:job|position|role|post)\s+(?:at|with)|(?:started|began)\s+(?:working\s+)?(?:at|for|with))"
    rf"\s+(?P<new>{_NAME}|{_PLACE}?)" + _WHERE + _ROLE + _END
)
# "I joined Meta": a new job only beside the old one's end ("I left Google and joined Meta") or with a role
# ("I joined Meta as a designer"); alone it may be a gym, a club or an app.
_JOINED = rx(_LEAD + rf"joined\s+(?P<new>{_NAME})" + _WHERE + _ROLE + _END)
# "I'm now at Meta": a new job when a job is stored; "I'm at Meta now" only beside the old one's end (else it
# may be where the user is right now).
_NOW_AT = rx(
    rf"^{I_AM}\s+(?P<now>now\s+)?(?:working\s+)?(?:at|with|for)\s+(?P<new>{_NAME})" + _WHERE + _ROLE + _END
)
# "im in exeter now", "I'm living in Porto now", "I'm based in Oslo these days": where the user is now, a move when a
# home is stored (nothing may follow but when: "I'm in London now for a conference" is a visit).
_NOW_IN = rx(
    rf"^{I_AM}\s+(?:now\s+|finally\s+|officially\s+)*(?:in|based\s+in|living\s+in|settled\s+in)\s+"
    r"(?P<place>[A-Za-z][\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)\s*,?\s+(?:now|these\s+days|for\s+good|permanently|"
    r"officially)(?:\s+(?:lol|haha|finally))?\s*[.!]*$"
)
# Where "I'm in ... now" says what the user is in, not where they live: "I'm in bed now", "I'm in therapy now".
_NOT_PLACES = frozenset("""bed class work school college uni university hospital labour labor pain love trouble charge
    therapy recovery remission town traffic line shock tears bits agony debt care touch business office meetings
    lockdown quarantine isolation treatment rehab hiding heaven bits a an the my our""".split())
# A home named in a stored fact: "User lives in Lisbon."
_HOME = re.compile(rf"\b(?:lives|living|based)\s+in\s+(?P<place>{_NAME})")
_EMPLOYER = re.compile(rf"\b(?:at|for|with)\s+(?P<org>{_NAME})")


# An offer taken, told without naming it, as an answer: "Yes! Accepted it this morning", "I said yes to them", "I'm
# taking it", "signed the contract": the one stored offer of the user's that still stands.
_TOOK_IT = rx(
    r"^(?:(?:yes|yeah|yep|yay|so|well|and|reader)\W+)*(?:i(?:'ve|\s+have)?\s+|i'm\s+|i\s+am\s+)?"
    r"(?:(?:just|finally|officially|already|gladly)\s+)?(?:"
    r"(?:accepted|took|signed|taking|accepting|signing)\s+(?:it|them|that|their\s+(?:offer|contract|job\s+offer)|"
    r"the\s+(?:job|offer|role|position|contract|job\s+offer))"
    r"|accepted|(?:said|saying)\s+yes(?:\s+to\s+(?:it|them|that|the\s+(?:job|offer)))?)"
    r"(?:\s+(?:today|yesterday|this\s+(?:morning|afternoon|evening)|last\s+night|in\s+the\s+end|"
    r"on\s+the\s+spot))?"
    r"(?:\s*[,;].*)?\s*[.!]*$"
)
# A stored offer, who made it and for what role: "User got an offer from Monzo as a senior QA engineer."
_OFFER_BY = re.compile(rf"\b(?:at|from|with|by)\s+(?P<org>{_NAME})")
_AS_ROLE = re.compile(r"\s+as\s+(?:a|an|the)\s+[\w-]+(?:\s+[\w-]+){0,3}?(?=\s+(?:at|in|with|from|for)\b|\s*[.,!]|$)")
# A stored offer that no longer stands: "User turned down the job offer from Dynatrace."
_OFFER_OVER = re.compile(r"\b(?:turned\s+down|declined|rejected|withdrawn|rescinded|fell\s+through|pulled)\b")
# An accepted job told as taken up: "First week at Monzo done", "survived my first day at Monzo".
_FIRST_AT = rx(
    r"^(?:(?:so|and|well|phew)\W+)*(?:(?:survived|finished|done|did|completed)\s+(?:with\s+)?(?:my\s+)?|(?:my\s+)?)"
    rf"first\s+(?:day|week|shift|month|fortnight)\s+(?:at|with)\s+(?P<org>{_NAME})"
    r"(?:\s+(?:done|over|finished|complete|completed|survived|down)\b.*|\s*[.!]*$)"
)
# A job stored as accepted, not yet begun: "User accepted a new job at Monzo."
_ACCEPTED_JOB = re.compile(
    rf"^User\s+(?:has\s+)?accepted\s+(?:a|an|the)\s+(?:new\s+)?job\s+(?:at|with)\s+(?P<org>{_NAME})(?P<role>\s+as\s+"
    r"(?:a|an|the)\s+[^.,!]+)?"
)


def _standing_offer(known: Sequence[str]) -> str | None:
    """Who made the one stored offer of the user's that still stands, with the role it names ("Monzo as a senior QA
    engineer"); ``None`` for none, or several."""
    found = {m.group("org") + (role.group(0) if role else "") for text in known
             if is_job_offer(text) and holder(text) == "user" and not _OFFER_OVER.search(text)
             for m in [_OFFER_BY.search(text)] if m is not None for role in [_AS_ROLE.search(text)]}
    return found.pop() if len(found) == 1 else None


def _taken_up(clause: str, known: Sequence[str]) -> str | None:
    """ "First week at Monzo done" -> "I work at Monzo as a senior QA engineer now", of a stored "User accepted a new
    job at Monzo as a senior QA engineer."."""
    first = _FIRST_AT.match(clause)
    if first is None:
        return None
    org = first.group("org").casefold()
    accepted = [m for text in known for m in [_ACCEPTED_JOB.match(text)] if m is not None]
    return next((f"I work at {m.group('org')}{m.group('role') or ''} now" for m in accepted
                 if m.group("org").casefold() == org), None)


def is_first_shift(clause: str) -> bool:
    """Whether ``clause`` tells a job by its first shift or day there ("First shift at Costco is Wednesday, front end
    supervisor"), which :func:`as_job_changes` reads (so no plan is made of it before)."""
    return _FIRST_SHIFT.match(clause) is not None


def says_where_now(clause: str) -> bool:
    """Whether ``clause`` says where the user is now ("im in exeter now"): a move when a home is stored, so capture
    shows the stored home."""
    return _NOW_IN.match(strip_lead(clause).rstrip()) is not None


def stored_employers(known: Sequence[str]) -> set[str]:
    """The employers (casefolded) the user's stored job facts name ("google" for "User works at Google as a
    designer."); not a relative's, nor one the fact says the user left."""
    found: set[str] = set()
    for text in known:
        if "job" in slots_of(text) and holder(text, "job") == "user" and not is_negated(text):
            found |= {m.group("org").casefold() for m in _EMPLOYER.finditer(text)}
    return found


def _homes(known: Sequence[str]) -> set[str]:
    return {m.group("place").casefold() for text in known if holder(text, "residence") == "user"
            and not is_negated(text) for m in _HOME.finditer(text)}


def _last_day_left(clause: str) -> str:
    """ "my last day at Target was Friday" -> "I left Target" (when it was is the fact's time); any other clause as
    it is."""
    m = _LAST_DAY_AT.match(clause)
    return clause if m is None else f"I left {m.group('old') or m.group('at')}"


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _works_at(m: re.Match[str]) -> str:
    role = f" as {m.group('article').lower()} {m.group('role')}" if m.group("role") else ""
    return f"I work at {m.group('new')}{m.group('where') or ''}{role} now"


def as_job_changes(clauses: Sequence[str], known: Sequence[str]) -> list[str]:
    """``clauses`` (one user message, split) with each that tells a change of employer replaced by the plain
    statements the rules read: "I left my job at <old>" for an ending of a job a stored fact names, and "I
    work at <new> now" for the new one (with a role when said). A new employer is read from "got a job at",
    "started at" always, from "joined" beside an ending of the old job (stored, or named in the same message
    as left or quit) or with a role, from "I'm now at" when a job is stored. "I left <home> for <place>" of a
    stored home is "I moved to <place>", and so is "I'm in <place> now" when a home is stored. An offer taken told
    as an answer ("Yes! Accepted it this morning", "I said yes to them") is "I accepted the offer from <who made the
    one stored offer>", and a job accepted told as taken up ("First week at Monzo done") "I work at <it> now". A
    change still to come ("I'm leaving Google next month") and any other clause are left as they are.

    >>> as_job_changes(["I left Google", "I joined Meta last week"], ["User works at Google as a designer."])
    ['I left my job at Google', 'I work at Meta now']
    """
    employers = stored_employers(known)
    has_job = any("job" in slots_of(t) and holder(t, "job") == "user" and not is_negated(t) for t in known)
    homes = _homes(known)
    has_home = any("residence" in slots_of(t) and holder(t, "residence") == "user" and not is_negated(t)
                   for t in known)
    clauses = [_RESUMED.sub("started at ", c) for c in clauses]
    said = [_last_day_left(strip_lead(c).rstrip()) for c in clauses]
    lefts = [_LEFT.match(s) if not is_planned(s) else None for s in said]
    # an employer left in this message: one a stored fact names, or one left beside a company joined
    joined_too = any(_JOINED.match(s) for s in said)
    ended = any(m is not None and (m.group("old").casefold() in employers or (joined_too and m.group("new") is None))
                for m in lefts)
    offer = _standing_offer(known)
    out: list[str] = []
    for clause, s, left in zip(clauses, said, lefts):
        if offer is not None and _TOOK_IT.match(s):  # "Yes! Accepted it this morning, I start in ...", of the offer
            out.append(f"I accepted the offer from {offer}")  # what follows the comma is left out: "I start ..."
            continue
        begun = _taken_up(s, known)
        if begun is not None:  # "First week at Monzo done", of a job accepted
            out.append(begun)
            continue
        first = _FIRST_SHIFT.match(s)
        if first is not None and (ended or (has_job and first.group("unit").lower() == "shift")):
            role = first.group("role")
            out.append(f"I work at {first.group('new')}" + (f" as {_article(role)} {role}" if role else "") + " now")
            continue
        if left is not None:
            old = left.group("old")
            if old.casefold() in homes and left.group("new") and not left.group("role"):
                out.append(f"I moved to {left.group('new')}")  # "I left Lisbon for Porto"
            elif old.casefold() in employers or (ended and left.group("new") is None):
                out.append(f"I left my job at {old}")
                if left.group("new"):  # "I left Google for Meta", "I've moved from Google to Meta"
                    out.append(_works_at(left))
            else:
                out.append(clause)
            continue
        if ended and _LAST_DAY.match(s):  # "I'm leaving Google, my last day was Friday": the same ending
            continue
        now_in = _NOW_IN.match(s) if has_home else None
        if now_in is not None and now_in.group("place").casefold() not in homes \
                and now_in.group("place").split()[0].casefold() not in _NOT_PLACES:  # "im in exeter now"
            place = " ".join(w[:1].upper() + w[1:] for w in now_in.group("place").split())
            out.append(f"I moved to {place}")
            continue
        # a side job is told as said: a stored job or studies may hold beside it (.side_jobs)
        new = None if is_planned(s) or is_side_job(s) else _NEW_JOB.match(s)
        joined = _JOINED.match(s) if new is None and not is_planned(s) else None
        if joined is not None and (ended or joined.group("role")):
            new = joined
        now_at = _NOW_AT.match(s) if new is None and joined is None else None
        if now_at is not None and ((now_at.group("now") and has_job) or ended):
            new = now_at
        out.append(_works_at(new) if new is not None else clause)
    return out
