"""A statement the user takes back in the same message and says again right: "our daughter Emmy is 9 months - wait
no, she turned 10 months on saturday" keeps only what follows "wait no" (:func:`without_retracted`). Pure: patterns,
English only.
"""

from __future__ import annotations

from collections.abc import Sequence

from .leads import clean
from .patterns import rx

__all__ = ["retracts", "without_retracted"]

# "wait no", "no wait", "hang on, no", "sorry no", "actually no", "scratch that": what was just said is taken back
# (one "wait" or "sorry" alone is not: "sorry, I'm 43" corrects a value, read elsewhere). Said again as a statement
# of its own (a subject, then the rest), not a bare value ("wait no, Lisbon not Porto"); typed inside the clause it
# takes back too ("my son is 4 - no wait, he's 5").
_TAKING_BACK = (r"(?:wait|hang\s+on|hold\s+on|sorry|actually|oops)\W*no", r"no\W*(?:wait|sorry)", r"scratch\s+that",
                r"no\W+no")
_RETRACTION = rx(r"^(?:oh\s+|ah\s+|hmm\s+|ugh\s+)?(?:" + "|".join(_TAKING_BACK) + r")\b\W*")
_STATEMENT = rx(r"^(?:i|i'm|i've|i'd|we|we're|we've|my|our|he|she|he's|she's|they|they're|they've)\s+\S")
_INSIDE = rx(r"\s*(?:[,;]|\s-+|[\u2014\u2013]|\.\.\.)\s*(?=(?:oh\s+)?(?:wait|no|sorry|actually|hang\s+on|hold\s+on)\W*"
             r"(?:no|wait|sorry)\b)")


def retracts(clause: str) -> bool:
    """Whether ``clause`` takes back what was said just before it and says it again as a statement of its own
    ("wait no, she turned 10 months on saturday"; not "wait no, Lisbon not Porto", nor "no, I live in Leeds")."""
    text = clean(clause)
    m = _RETRACTION.match(text)
    return m is not None and _STATEMENT.match(text[m.end():]) is not None


# "she turned 10 months" after "our daughter Emmy is 9 months": the pronoun is whom the taken-back clause named first
_PRONOUN, _SUBJECT = (
    rx(r"^(?:he|she|they)(?P<be>'s|'re)?\b"),
    rx(r"^(?P<who>(?:my|our)(?:\s+(?!(?:is|was|are|were|has|had|just|\w+ed|\w+s)\b)[\w'-]+){1,3})\s+\w"),
)


def without_retracted(clauses: Sequence[str]) -> list[str]:
    """``clauses`` (one user message, split) without each clause the next one takes back (:func:`retracts`; the
    taking back typed as a clause of its own too: "my son is 4", "no wait", "he's 5"): what the user said wrongly is
    no fact, what they said instead is read as any clause, a "he" / "she" opening it as whom the clause taken back
    named first ("our daughter Emmy is 9 months - wait no, she turned 10 months" -> "our daughter Emmy turned 10
    months")."""
    out: list[str] = []
    marked = False  # the clause before was a bare "no wait"
    for clause in (part for c in clauses for part in _INSIDE.split(c)):
        text = clean(clause)
        m = _RETRACTION.match(text)
        if m is not None and not text[m.end():].strip(" .!"):
            marked = bool(out)
            continue
        rest = text[m.end():] if m is not None else text if marked else None
        if out and rest is not None and _STATEMENT.match(rest):
            who = _SUBJECT.match(clean(out.pop()))
            clause = _PRONOUN.sub(lambda p: who.group("who") + (" is" if p.group("be") else ""), rest, count=1) \
                if who is not None else rest
        marked = False
        out.append(clause)
    return out
