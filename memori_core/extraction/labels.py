"""A profile typed as labels, as the plain first-person statements the rules read.

"Name: Priyanka. Job: ER doctor. City: Melbourne.", "Age: 34, from: Kazan", "Allergies: peanuts": each known label
with a short value is a statement ("My name is Priyanka", "I work as an ER doctor", "I live in Melbourne", "I'm 34",
"I'm from Kazan", "I'm allergic to peanuts"); a label the rules do not know ("Note: buy milk") or a value that says
nothing ("Allergies: none") is no fact. Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .patterns import rx
from .rewrite import article

__all__ = ["as_labelled", "labelled"]

# "Name: Priyanka", "Job - ER doctor": a label, then a value of a few words (no question, no sentence).
_LABEL = rx(r"^\s*(?P<label>[a-z][a-z ]{1,20}?)\s*:\s*(?P<value>[^:?!]{1,60}?)\s*[.!]*$")
# The label's words, and the statement its value makes.
_SAYS: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"name", "my name", "full name"}), "My name is {v}"),
    (frozenset({"job", "occupation", "profession", "work", "role"}), "I work as {a} {v}"),
    (frozenset({"city", "location", "lives in", "live in", "based in", "home", "home town", "where"}), "I live in {v}"),
    (frozenset({"age"}), "I'm {v}"),
    (frozenset({"from", "hometown", "originally from"}), "I'm from {v}"),
    (frozenset({"diet"}), "I'm {v}"),
    (frozenset({"allergies", "allergy", "allergic to"}), "I'm allergic to {v}"),
    (frozenset({"pets", "pet"}), "I have {v}"),
)
_ARTICLE = rx(r"^(?:a|an|the)\s")
_NO_JOB = rx(r"^(?:retired|unemployed|self-employed|between\s+jobs|a\s+student|student|stay-at-home)\b")
# A value that says nothing: "none", "n/a", "-".
_NOTHING = rx(r"^(?:none|no|n/?a|nothing|nope|-+|\?+|tbd|unknown|not\s+sure)$")


def labelled(clause: str) -> list[str] | None:
    """``clause`` typed as labels ("Name: Priyanka", "Age: 34, City: Melbourne") as the statements they make, ``[]``
    for a known label whose value says nothing, ``None`` for any other clause (an unknown label among them too).

    >>> labelled("Job: ER doctor"), labelled("Age: 34, City: Melbourne"), labelled("Note: buy milk")
    (['I work as an ER doctor'], ["I'm 34", 'I live in Melbourne'], None)
    """
    parts = [p for p in re.split(r"\s*[,;|]\s*(?=[a-z][a-z ]{1,20}?\s*:)", clause.strip(), flags=re.IGNORECASE) if p]
    said: list[str] = []
    for part in parts:
        m = _LABEL.match(part)
        if m is None:
            return None
        label, value = " ".join(m.group("label").lower().split()), m.group("value").strip()
        form = next((f for labels, f in _SAYS if label in labels), None)
        if form is None or len(value.split()) > 6:
            return None
        if _NOTHING.match(value):
            continue
        if form.startswith("I work as") and (_ARTICLE.match(value) or _NO_JOB.match(value)):
            form = "I work as {v}" if _ARTICLE.match(value) else "I'm {v}"  # "Job: a nurse", "Job: retired"
        said.append(form.format(v=value, a=article(value)))
    return said


def as_labelled(clauses: Sequence[str]) -> list[str]:
    """``clauses`` with each typed as labels replaced by the statements it makes (:func:`labelled`)."""
    out: list[str] = []
    for clause in clauses:
        said = labelled(clause)
        out += [clause] if said is None else said
    return out
