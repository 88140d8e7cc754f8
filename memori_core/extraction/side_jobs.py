"""A job taken beside what the user already does: a side job ends no study, a second job no other job.

"I got a part-time job at a cafe" said by a student leaves "User is a 3rd-year architecture student." true: students
work beside their studies, and a job told as part-time, a weekend or summer job does not say the studies ended. "I
got a second job at a bar", "a weekend job", "a side hustle" leave any stored job true as well. A job told without
such a word (or "I dropped out", "I graduated") is read by the other rules. Pure: English patterns.
"""

from __future__ import annotations

from .patterns import rx

__all__ = ["beside_the_job", "is_side_job"]

# A job held beside another: "a second job", "a weekend job", "a side hustle", "some bar work on the side".
_BESIDE_ANY = rx(
    r"\b(?:(?:second|side|extra|another|weekend|saturday|sunday|evening)\s+(?:[\w-]+\s+)?(?:job|gig)s?|"
    r"side\s+(?:hustle|gig|business)|on\s+the\s+side|alongside|on\s+top\s+of\s+(?:my|the)\s+(?:day\s+)?job)\b"
)
# A job a student takes: "a part-time job", "a summer job", "bar shifts", "15 hours a week".
_BESIDE_STUDIES = rx(
    r"\b(?:(?:part-?time|summer|holiday|christmas|seasonal|casual|student|temp|zero[- ]hours?)\s+(?:[\w-]+\s+)?"
    r"(?:job|gig|work|position|role|shifts?)|part-?time|\d{1,2}\s+hours\s+(?:a|per)\s+week)\b"
)
# What the user studies: "User is a 3rd-year architecture student.", "User is studying law at Leeds.", "User is doing
# a master's.". Not the user's teaching ("User teaches 3rd-year students." names students it does not say the
# user is one of).
_STUDIES = rx(
    r"^user\s+(?:(?:is|'s)\s+(?:[\w,'-]+\s+){0,5}?(?:student|undergrad(?:uate)?|postgrad(?:uate)?|studying|"
    r"(?:phd|doctorate|master'?s|masters|degree)\b)|studies|majors?\s+in|is\s+majoring)\b"
)
# The studies said to be over: then a job after them is no side job of a student's.
_STUDIES_OVER = rx(r"\b(?:graduated|dropped\s+out|finished\s+(?:my|uni|university|college|school|the\s+degree))\b")


def beside_the_job(new: str, said: str, stored: str) -> bool:
    """Whether the new job fact ``new`` (told in ``said``) is held beside the stored job fact ``stored``, which it
    then does not end: a second, side or weekend job beside any job, a part-time or summer job beside the user's
    studies ("User got a part-time job at a cafe." beside "User is a 3rd-year architecture student.").

    >>> beside_the_job("User got a part-time job at a cafe.", "I got a part-time job at a cafe",
    ...                "User is a 3rd year architecture student at uni of bristol.")
    True
    >>> beside_the_job("User got a job at Google.", "I got a job at Google", "User is a student at Leeds.")
    False
    """
    if _STUDIES_OVER.search(said):
        return False
    if _BESIDE_ANY.search(new) or _BESIDE_ANY.search(said):
        return True
    return bool((_BESIDE_STUDIES.search(new) or _BESIDE_STUDIES.search(said)) and _STUDIES.match(stored.strip()))


def is_side_job(said: str) -> bool:
    """Whether ``said`` tells of a job of the kinds held beside another job or beside studies ("I got a part-time
    job at Tesco", "a second job at a bar", "15 hours a week"): told as said, it is not read as the user's one job
    now (:func:`~memori_core.extraction.job_change.as_job_changes`).

    >>> is_side_job("I got a part-time job at Tesco"), is_side_job("I got a job at Tesco")
    (True, False)
    """
    return bool(_BESIDE_ANY.search(said) or _BESIDE_STUDIES.search(said))
