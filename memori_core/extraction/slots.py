"""Which "slot" of a user's life a fact fills (where they live, their job, diet...), with every English rule of a
change capture reads a fact with, gathered from the modules that write them.

A new fact that announces a change ("I moved to Porto", "I switched to tea", "I'm no longer
vegetarian") replaces the stored fact of the same slot. Pure: keyword rules, English only.

Two kinds of slot. The slots of :data:`memori_core.slots.SLOTS` hold one value at a time (a home, a
job, a diet): a change replaces whatever the slot held. The :data:`ACTIVITY_SLOTS` (pets, exercise)
hold several at once (a cat and a dog, running and yoga): a change there replaces only the stored fact
about the same animal or activity (:func:`same_activity`), or a stored "none" ("User has no pets.").
Capture alone uses the activity slots; the ranking's newest-of-a-slot tie-break does not.

This module keeps the slots themselves (:func:`slots_of`, a job offered and a job looked for, neither of which is the
job) and, so that
``from .slots import ...`` keeps working, re-exports what the rules of a change live in: :mod:`.cues` (a change,
an ending, a plan, a negation), :mod:`.activities` (pets and exercise), :mod:`.relationships`, :mod:`.diets`,
:mod:`.endings` (a thing sold, a habit stopped, a death), :mod:`.corrections` and :mod:`.health`.
"""

from __future__ import annotations

import re

from ..number_words import number_words
from ..calendar_words import ANY_MONTH
from ..slots import SLOTS, holder
from ..slots import fold as _fold
from ..slots import slots_of as _single_value_slots_of
from .activities import ACTIVITY_SLOTS, PETS, same_activity, says_how_often
from .corrections import bare_correction, corrected_words, denies, without_correction
from .cues import content_words, is_change, is_ended, is_negated, is_planned
from .diets import CONSUMPTION_SLOTS, is_exclusive, left_out, taken_back
from .endings import (
    POSSESSION_SLOTS,
    acquired_slots,
    disposed_thing,
    disposed_words,
    ends_habit,
    ends_ownership,
    is_loss,
    named_change,
    stopped_words,
)
from .health import BODY_PART, ends_health, health_news, health_state
from .relationships import is_relationship_status, relationship_stage
from .subjects import named_subject, names_in

__all__ = [
    "ACTIVITY_SLOTS",
    "BODY_PART",
    "CONSUMPTION_SLOTS",
    "JOB_OFFER",
    "JOB_SEARCH",
    "PETS",
    "POSSESSION_SLOTS",
    "SLOTS",
    "acquired_slots",
    "bare_correction",
    "content_words",
    "corrected_words",
    "denies",
    "disposed_thing",
    "disposed_words",
    "ends_habit",
    "ends_ownership",
    "ends_health",
    "health_news",
    "health_state",
    "holder",
    "is_change",
    "is_ended",
    "is_exclusive",
    "is_job_offer",
    "is_job_to_come",
    "is_loss",
    "is_negated",
    "is_planned",
    "is_relationship_status",
    "left_out",
    "named_change",
    "named_subject",
    "names_in",
    "only_looks_for_work",
    "relationship_stage",
    "same_activity",
    "says_how_often",
    "slots_of",
    "stopped_words",
    "taken_back",
    "without_correction",
]

JOB_OFFER = "job_offer"
"""The slot of a job offered to the user ("User got a job offer as a designer at Dynatrace."): not their job."""
# "a job offer", "an offer from Stripe", "I was offered a role at Spotify": a job offered, told by its words ...
_OFFER = re.compile(
    r"\b(?:(?:job|work|employment)\s+offers?|offers?\s+(?:from|at|of\s+(?:a|an)\s+(?:job|position|role|post))|"
    r"offered\s+(?:me\s+|us\s+)?(?:a|an|the|my)\s+(?:[\w-]+\s+){0,3}?(?:job|position|role|post|contract|"
    r"internship|placement)s?)\b"
)
# ... or an offer told of beside the job it is for ("I got an offer as a designer at Dynatrace").
_AN_OFFER = re.compile(r"\b(?:a|an|the|another|two|three|\d+)\s+(?:[\w-]+\s+){0,2}?offers?\b")
# An offer taken is the job begun or to come: "I accepted an offer from Microsoft" is a change of job.
_OFFER_TAKEN = re.compile(r"\b(?:accept(?:ed|ing|s)?|took|taking|signed|signing)\b")


def is_job_offer(text: str) -> bool:
    """Whether ``text`` tells of a job offered to the user, not taken ("I got a job offer as a junior UX designer
    at Dynatrace", "I've been offered a role at Spotify", "User has an offer from Stripe."; not "I accepted an offer
    from Microsoft", nor "a special offer on my phone plan"): the offer is no job of theirs yet.

    >>> is_job_offer("I got a job offer at Dynatrace"), is_job_offer("I accepted the job offer at Dynatrace")
    (True, False)
    """
    folded = _fold(text)
    if _OFFER_TAKEN.search(folded):
        return False
    return bool(_OFFER.search(folded)) or bool(_AN_OFFER.search(folded) and "job" in _single_value_slots_of(text))


JOB_SEARCH = (r"job[\s-]hunting|job[\s-]searching|looking\s+for\s+(?:a\s+)?(?:new\s+)?(?:job|work)|"
              r"applying\s+for\s+(?:jobs|roles|positions)")
"""A regex of looking for work ("job hunting", "looking for a new job", "applying for jobs")."""
_JOB_SEARCH = re.compile(rf"\b(?:{JOB_SEARCH})\b")


def only_looks_for_work(text: str) -> bool:
    """Whether ``text`` tells the user looking for work and of no job besides ("I'm job hunting again", "User is
    looking for a new job."; not "User was laid off and is job hunting."): many look while they have a job, so it
    ends none.

    >>> only_looks_for_work("I'm job hunting again"), only_looks_for_work("I was laid off, job hunting now")
    (True, False)
    """
    folded = _fold(text)
    return bool(_JOB_SEARCH.search(folded)) and "job" not in _single_value_slots_of(_JOB_SEARCH.sub(" ", folded))


# "User got a job at Tesco, starting in December 2026.": a job whose start is still to come.
_STARTS_LATER = re.compile(r"\b(?:got|accepted|landed|took)\s+(?:a|an|the)\s+(?:new\s+)?(?:job|role|position)\b.*,\s+"
                           r"starting\s+(?!today\b|now\b|tonight\b|right\s+away\b)")


# "User starts at Siemens in three weeks.", "I'm starting with Deloitte next month": the user's first day at
# another employer, said with a day to come (the fact has it written out: "around Wednesday 2026-09-30").
_STARTS_AT_LATER = re.compile(
    r"\b(?:i|user)\s+(?:start|starts|begin|begins|(?:am|'m|is)\s+(?:starting|beginning))\s+(?:work\s+)?(?:at|with)\s+"
    rf"(?!\d)[^,.!?]*?\b(?:in\s+(?:a|an|{number_words('six')}|\d+|a\s+few|a\s+couple\s+of)\s+"
    r"(?:days?|weeks?|months?)|"
    rf"next\s+\w+|on\s+\w+|around\s+\w+|in\s+the\s+week\s+of|tomorrow|in\s+(?:{ANY_MONTH}))\b"
)


def is_job_to_come(text: str) -> bool:
    """Whether ``text`` (the user's words, or a fact) tells a job the user got that starts later ("I got a job at Tesco,
    starting in December"): until then the job held is still the user's, so it ends none (its first day told ends
    it). Read it in the words said: a fact has "starting today" written out as a day.

    >>> is_job_to_come("User got a job at Tesco, starting in December 2026."), is_job_to_come("User works at Tesco.")
    (True, False)

    A first day at another employer said with its day to come is one too ("I start at Siemens in three weeks").

    >>> is_job_to_come("I start at Siemens in three weeks."), is_job_to_come("I started at Siemens last week.")
    (True, False)
    """
    folded = _fold(text)
    return bool(_STARTS_LATER.search(folded) or _STARTS_AT_LATER.search(folded))


def slots_of(text: str) -> frozenset[str]:
    """The slots ``text`` (a fact or a user message) speaks of: those of :data:`memori_core.slots.SLOTS`
    and the :data:`ACTIVITY_SLOTS` (empty when none); a job offered is in the :data:`JOB_OFFER` slot, not the
    job's (:func:`is_job_offer`)."""
    folded = _fold(text)
    found = _single_value_slots_of(text) | frozenset(n for n, rx in ACTIVITY_SLOTS.items() if rx.search(folded))
    return found - {"job"} | {JOB_OFFER} if is_job_offer(text) else found
