"""A return to work told as news: "Tane went back to work this week", "I'm back at work on Monday", "she returned
to work after the baby".

Going back to work ends a leave or a time without work ("User is on maternity leave.", "User is retired.":
:func:`ends_leave`), not the job: the stored
"User's husband Tane is a builder." still holds (:func:`back_to_work`). A return to another employer or role ("went back to work at the bakery", "back to work as a
nurse") names what the job is now, and is read as a change by the other rules. Pure: English patterns.
"""

from __future__ import annotations

from ..slots import holder
from .patterns import rx
from .slots import JOB_SEARCH

__all__ = ["back_to_work", "ends_leave"]

_BACK = rx(
    r"\b(?:went|go(?:es|ing)?|gone|got|getting|came|come|comes|coming|is|are|am|was|were|be|been|i'm|'s|'re)\s+"
    r"(?:straight\s+|finally\s+|just\s+)?back\s+(?:to|at)\s+(?:work|the\s+office|the\s+job|my\s+job|(?:his|her|their)\s+job)\b"
    r"|\breturn(?:ed|s|ing)?\s+to\s+(?:work|the\s+office|(?:my|his|her|their)\s+job)\b"
)
# What says the job is another one: a role or a place of work after the return.
_NEW_JOB = rx(r"\b(?:back\s+to\s+work|to\s+work|at\s+work|to\s+the\s+office|job)\s+(?:as|at|for|with)\s+\S")


def back_to_work(text: str) -> bool:
    """Whether ``text`` (a new fact or what the user said) tells only a return to work, which leaves the stored job
    standing.

    >>> back_to_work("User's husband Tane went back to work in the week of Monday 2026-11-09.")
    True
    >>> back_to_work("User went back to work as a nurse."), back_to_work("User went back to uni.")
    (False, False)
    """
    return bool(_BACK.search(text)) and not _NEW_JOB.search(text)


# A time without work: "is on maternity leave", "is off sick", "is signed off", "is retired", "is job hunting".
_ON_LEAVE = rx(r"\b(?:on\s+(?:[\w-]+\s+){0,2}?leave|off\s+(?:work|sick)|signed\s+off|retired|unemployed|"
               rf"out\s+of\s+work|between\s+jobs|{JOB_SEARCH}|stay[\s-]at[\s-]home|not\s+working)\b")


def ends_leave(fact: str, stored: str) -> bool:
    """Whether the new ``fact``, a return to work (:func:`back_to_work`), ends the ``stored`` leave or time without
    work of the same person ("User went back to work." ends "User is on maternity leave.", "User is retired.").

    >>> ends_leave("User went back to work.", "User is on maternity leave.")
    True
    >>> ends_leave("User went back to work.", "User's wife is on maternity leave.")
    False
    """
    return back_to_work(fact) and bool(_ON_LEAVE.search(stored)) and holder(fact) == holder(stored)
