"""A job and where the user is from told in one phrase, as two statements; and a stored fact of a job and a home,
which a change of the job alone does not end.

"retired civil engineer from Valencia" -> "I'm a retired civil engineer", "I'm from Valencia"; "I'm a nurse from
Leeds, 34" -> "... a nurse", "... from Leeds", "I'm 34". One fact holding both was ended whole by a later "now I am
retired", and the home with it (:func:`holds_a_home_beside`). Pure: patterns, English only.
"""

from __future__ import annotations
from ..calendar_words import CALENDAR_NAMES

from collections.abc import Sequence

from .leads import strip_lead
from .patterns import CAPITAL_WORD, I_AM, rx
from .slots import slots_of

__all__ = ["as_job_and_home", "holds_a_home_beside"]

_PLACE = rf"{CAPITAL_WORD}(?:\s+{CAPITAL_WORD}){{0,2}}"
_JOB_FROM = rx(
    r"^(?:" + I_AM + r"\s+)?(?:(?:a|an)\s+)?(?P<job>(?:(?:retired|former|semi-retired)\s+)?[a-z][\w-]*"
    rf"(?:\s+[a-z][\w-]*){{0,2}}?)\s+from\s+(?P<place>{_PLACE})"
    r"(?:\s*,\s*(?P<age>\d{1,3})(?:\s+(?:years?\s+(?:old|young)|y/?o))?)?(?:\s+here)?\s*[.!]*$"
)


# A time that "from" names: a start, not a home.
_TIMES = frozenset((*CALENDAR_NAMES, "christmas", "easter", "next",
                    "tomorrow", "today", "tonight", "now", "then"))
# "working nights", "I work nights": a verb of the user's, not the name of a job.
_NOT_A_JOB_FROM = rx(r"^(?:i\s|working\b|doing\b|on\b)")


def _job_and_home(clause: str) -> list[str] | None:
    """``clause`` as the statements of its job and its home ("retired fisherman from Newfoundland, 71 years young" ->
    "I'm a retired fisherman", "I'm from Newfoundland", "I'm 71"); ``None`` when it is no job from a place."""
    m = _JOB_FROM.match(strip_lead(clause).strip())
    if m is None or "job" not in slots_of(f"User is a {m.group('job')}.") or _NOT_A_JOB_FROM.match(m.group("job")):
        return None
    if m.group("place").split()[0].lower() in _TIMES:  # "I'm working nights from Monday": when, not where from
        return None
    job = m.group("job")
    job = job[:1].lower() + job[1:]  # "Retired teacher from Cork here": the first word of the message
    article = "an" if job[:1].lower() in "aeiou" else "a"
    said = [f"I'm {article} {job}", f"I'm from {m.group('place')}"]
    return said + ([f"I'm {m.group('age')}"] if m.group("age") else [])


def as_job_and_home(clauses: Sequence[str]) -> list[str]:
    """``clauses`` with each that tells a job and where the user is from in one phrase said as two statements (and
    an age after it as a third); any other clause as it is.

    >>> as_job_and_home(["retired civil engineer from Valencia."])
    ["I'm a retired civil engineer", "I'm from Valencia"]
    """
    return [said for clause in clauses for said in (_job_and_home(clause) or [clause])]


_FROM_PLACE = rx(rf"\bfrom\s+{_PLACE}")


def holds_a_home_beside(new: str, stored: str) -> bool:
    """Whether ``stored`` holds where the user is from beside the slot ``new`` changes, which ``new`` does not tell
    ("User retired civil engineer from Valencia." beside "User has a lot of time now they are retired."): a change of
    the job does not end the home with it."""
    return _FROM_PLACE.search(stored) is not None and "residence" not in slots_of(new) \
        and _FROM_PLACE.search(new) is None
